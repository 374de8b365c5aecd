//! Embedding: the page tells its host its height and links to the full view.
//! It reads no messages from the host, so a host can change nothing here.

use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::i18n::{t, Key};
use crate::state::{absolute_link, use_ctx};

/// Message type posted to `window.parent` when the content height changes.
pub const RESIZE_MESSAGE: &str = "gpu-advisor:resize";

/// Posts `{ type: "gpu-advisor:resize", height }` whenever the document's height changes.
pub fn report_height_when_embedded(embedded: bool) {
    if !embedded {
        return;
    }
    let post = Closure::<dyn Fn()>::new(move || {
        let Some(body) = document().body() else {
            return;
        };
        let height = body.get_bounding_client_rect().height().ceil();
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &RESIZE_MESSAGE.into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        if let Ok(Some(parent)) = window().parent() {
            let _ = parent.post_message(&message, "*");
        }
    });
    if let Ok(observer) = web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()) {
        if let Some(body) = document().body() {
            observer.observe(&body);
        }
    }
    post.forget();
}

/// The small link from an embedded widget to the same view in full.
#[component]
pub fn OpenFull() -> impl IntoView {
    let ctx = use_ctx();
    let href = move || {
        let mut s = ctx.state();
        s.embed = false;
        absolute_link(&s)
    };
    view! {
        <footer class="open-full">
            <a href=href target="_blank" rel="noopener">{t(Key::EmbedOpenFull)}</a>
        </footer>
    }
}
