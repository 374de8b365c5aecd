use catalog::share::{Lang, Theme, View};
use leptos::prelude::*;

use crate::components::link::is_plain_click;
use crate::i18n::{t, tr, Key};
use crate::state::use_ctx;

/// Site header on one line, down to a 360 px phone: name, the views, and one menu with
/// the language and theme switches and the ways to share the page.
#[component]
pub fn Header() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let nav = move |view: View, key: Key| {
        let current = move || ctx.view.get() == view;
        let href = ctx.href(move |s| s.go_to(view));
        view! {
            <a
                class="nav-link"
                class:active=current
                href=href
                aria-current=move || current().then_some("page")
                on:click=move |ev: web_sys::MouseEvent| {
                    if is_plain_click(&ev) {
                        ev.prevent_default();
                        ctx.update(true, |s| s.go_to(view));
                    }
                }
            >
                {t(key)}
            </a>
        }
    };
    let home = ctx.href(|s| s.go_to(View::Advise));
    view! {
        <header class="site-header">
            <a class="brand" href=home on:click=move |ev: web_sys::MouseEvent| {
                if is_plain_click(&ev) {
                    ev.prevent_default();
                    ctx.update(true, |s| s.go_to(View::Advise));
                }
            }>
                <span class="brand-mark" aria-hidden="true"></span>
                <span class="brand-text">{t(Key::AppTitle)}</span>
            </a>
            <nav aria-label=t(Key::NavLabel)>
                {nav(View::Advise, Key::NavAdvise)}
                {nav(View::Compare, Key::NavCompare)}
                {nav(View::Guide, Key::NavGuide)}
                {nav(View::Bench, Key::NavBench)}
            </nav>
            <div class="header-tools">
                <details class="menu" data-testid="menu">
                    <summary class="tool" title=t(Key::MenuLabel)>
                        <span class="menu-text">{t(Key::MenuShort)}</span>
                    </summary>
                    <div class="menu-panel">
                        <button
                            class="tool"
                            data-testid="lang-toggle"
                            on:click=move |_| {
                                let next = if ctx.lang() == Lang::Zh { Lang::En } else { Lang::Zh };
                                // Chinese is recorded once its strings are here, so every
                                // module of the page switches at once (`i18n::zh_from_page`).
                                leptos::task::spawn_local(async move {
                                    if next == Lang::Zh {
                                        if let Err(e) = crate::i18n::load_zh().await {
                                            leptos::logging::warn!("Chinese strings: {e}");
                                        }
                                    }
                                    ctx.update(false, |s| s.lang = Some(next));
                                });
                            }
                        >
                            {t(Key::ToggleLang)}
                        </button>
                        <button
                            class="tool"
                            data-testid="theme-toggle"
                            on:click=move |_| {
                                let next = if ctx.theme() == Theme::Dark { Theme::Light } else { Theme::Dark };
                                ctx.update(false, |s| s.theme = Some(next));
                            }
                        >
                            {move || if ctx.theme() == Theme::Dark { tr(lang(), Key::ToggleThemeLight) } else { tr(lang(), Key::ToggleThemeDark) }}
                        </button>
                        <crate::components::share_bar::ShareBar />
                    </div>
                </details>
            </div>
        </header>
    }
}
