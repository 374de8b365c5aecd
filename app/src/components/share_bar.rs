//! Copy link, the system share sheet where the browser has one, and the embed snippet.

use catalog::share::{embed_snippet, View};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::{t, tr, Key};
use crate::state::{absolute_link, use_ctx};

fn has_share_sheet() -> bool {
    js_sys::Reflect::has(&window().navigator(), &JsValue::from_str("share")).unwrap_or(false)
}

/// Where the last "copy link" stands.
#[derive(Debug, Clone, PartialEq)]
enum CopyState {
    NotYet,
    Done,
    /// The clipboard refused; the link to select by hand.
    Failed(String),
}

#[component]
pub fn ShareBar() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let copied = RwSignal::new(CopyState::NotYet);
    let show_embed = RwSignal::new(false);
    let link = move || absolute_link(&ctx.state());
    let copy = move |_| {
        let url = link();
        // Says "copied" only when the browser confirms it; otherwise offers the link to select.
        let promise = window().navigator().clipboard().write_text(&url);
        leptos::task::spawn_local(async move {
            let done = wasm_bindgen_futures::JsFuture::from(promise).await;
            copied.set(match done {
                Ok(_) => CopyState::Done,
                Err(_) => CopyState::Failed(url),
            });
        });
    };
    let share = move |_| {
        let data = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&data, &"url".into(), &link().into());
        let _ = js_sys::Reflect::set(
            &data,
            &"title".into(),
            &tr(ctx.lang(), Key::AppTitle).into(),
        );
        if let Ok(f) = js_sys::Reflect::get(&window().navigator(), &"share".into()) {
            if let Ok(f) = wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f) {
                // The promise rejects when the person closes the sheet; nothing to do then.
                if let Ok(p) = f.call1(&window().navigator(), &data) {
                    if let Ok(p) = wasm_bindgen::JsCast::dyn_into::<js_sys::Promise>(p) {
                        leptos::task::spawn_local(async move {
                            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
                        });
                    }
                }
            }
        }
    };
    let embeddable = move || matches!(ctx.view.get(), View::Advise | View::Compare);
    let snippet = move || {
        let mut s = ctx.state();
        s.embed = true;
        embed_snippet(&absolute_link(&s), tr(ctx.lang(), Key::AppTitle))
    };
    view! {
        <div class="share-bar">
            <button class="tool" data-testid="copy-link" on:click=copy>
                {move || if copied.get() == CopyState::Done { tr(lang(), Key::ShareCopied) } else { tr(lang(), Key::ShareCopy) }}
            </button>
            {move || match copied.get() {
                CopyState::Failed(url) => Some(view! {
                    <label class="snippet-label" for="copy-fallback" data-testid="copy-failed">{tr(lang(), Key::ShareCopyFailed)}</label>
                    <input id="copy-fallback" class="copy-fallback" readonly prop:value=url
                        on:focus=move |ev| {
                            if let Some(input) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok()) {
                                input.select();
                            }
                        } />
                }),
                _ => None,
            }}
            {has_share_sheet().then(|| view! { <button class="tool" on:click=share>{t(Key::ShareSheet)}</button> })}
            <Show when=embeddable>
                <button class="tool" data-testid="embed-button" aria-expanded=move || show_embed.get().to_string()
                    on:click=move |_| show_embed.update(|v| *v = !*v)>{t(Key::ShareEmbed)}</button>
            </Show>
            <Show when=move || show_embed.get() && embeddable()>
                <label class="snippet-label" for="embed-snippet">{t(Key::ShareEmbedHelp)}</label>
                <textarea id="embed-snippet" data-testid="embed-snippet" readonly rows="9" prop:value=snippet></textarea>
            </Show>
        </div>
    }
}
