//! GPU Advisor in the browser: a thin shell over the `catalog` crate, in three
//! WebAssembly modules built from this crate. The page's own (`page`, bin `app`) draws
//! the header, the advise view and the footer as HTML; the views module (`views`, bin
//! `views`) draws compare, GPU details, the guide and your GPU with Leptos (`pages`,
//! `components`, `state`); the measurement module (`webgpu`, bin `bench`) runs WebGPU.
//! `url` binds the address, `text` words the engine's figures for every view; all
//! figures come from `catalog`.

mod components;
mod i18n;
pub mod page;
mod pages;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
mod state;
mod text;
mod url;
pub mod views;
pub mod webgpu;

/// On a panic, shows a readable panel instead of a blank page; the console gets the
/// message and where it was raised.
pub fn install_panic_panel() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(panel) = document.create_element("div") else {
            return;
        };
        panel.set_class_name("panic-panel");
        let _ = panel.set_attribute("role", "alert");
        panel.set_text_content(Some(&format!(
            "GPU Advisor stopped because of an internal error. Reload the page to try again.\n\n{info}"
        )));
        if let Some(body) = document.body() {
            let _ = body.append_child(&panel);
        }
    }));
}

/// Starts the page (`page::start`).
pub async fn start() {
    page::start().await;
}

/// The element holding the default view written into `index.html` at build time
/// (`prerender`), which the page removes when it starts.
pub const ID_PRERENDERED: &str = "prerendered";

/// Message type an embedded page posts to `window.parent` when its height changes.
pub const RESIZE_MESSAGE: &str = "gpu-advisor:resize";
