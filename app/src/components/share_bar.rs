//! Copy link, the system share sheet where the browser has one, and the embed snippet.

use catalog::share::{embed_snippet, View};
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::i18n::{t, tr, Key};
use crate::state::{absolute_link, use_ctx};

fn has_share_sheet() -> bool {
    js_sys::Reflect::has(&window().navigator(), &JsValue::from_str("share")).unwrap_or(false)
}

#[component]
pub fn ShareBar() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    let copied = RwSignal::new(false);
    let show_embed = RwSignal::new(false);
    let link = move || absolute_link(&ctx.state.get());
    let copy = move |_| {
        let url = link();
        let _ = window().navigator().clipboard().write_text(&url);
        copied.set(true);
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
    let embeddable = move || {
        ctx.state
            .with(|s| matches!(s.view, View::Advise | View::Compare))
    };
    let snippet = move || {
        let mut s = ctx.state.get();
        s.embed = true;
        embed_snippet(&absolute_link(&s), tr(ctx.lang(), Key::AppTitle))
    };
    view! {
        <div class="share-bar">
            <button class="tool" data-testid="copy-link" on:click=copy>
                {move || if copied.get() { tr(lang(), Key::ShareCopied) } else { tr(lang(), Key::ShareCopy) }}
            </button>
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
