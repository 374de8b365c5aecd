//! What every browser module of GPU Advisor shares, with no UI framework: the page's
//! address (`url`), the translated strings (`i18n`), the words for the engine's figures
//! (`text`), the HTML writer (`html`), loading a module or a file (`load`) and the error
//! that crosses the JavaScript boundary (`JsError`). The shell (the page), the views
//! module and the measurement module each build on it; all figures come from `catalog`.

pub mod html;
pub mod i18n;
pub mod load;
pub mod text;
pub mod url;

use catalog::share::{Lang, View};
use wasm_bindgen::JsValue;

use i18n::{tr, Key};

/// The element holding the default view written into `index.html` at build time
/// (the shell's `prerender`), which the page removes when it starts.
pub const ID_PRERENDERED: &str = "prerendered";

/// Message type an embedded page posts to `window.parent` when its height changes.
pub const RESIZE_MESSAGE: &str = "gpu-advisor:resize";

/// Changes whenever the views module's sources do (see `build.rs`), so a browser never
/// pairs this page with a stale cached copy.
pub const VIEWS_VERSION: &str = env!("VIEWS_MODULE_VERSION");

/// The same for the measurement module.
pub const MEASURE_VERSION: &str = env!("MEASURE_MODULE_VERSION");

/// An error that crossed the JavaScript boundary, as a sentence: a JS error's message,
/// a rejected string, or what the Rust side found wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsError(String);

impl JsError {
    pub fn new(message: impl Into<String>) -> Self {
        JsError(message.into())
    }

    /// The same error with what was being done in front: "gpus.json: HTTP 404".
    pub fn context(self, what: &str) -> Self {
        JsError(format!("{what}: {}", self.0))
    }
}

impl From<JsValue> for JsError {
    fn from(e: JsValue) -> Self {
        JsError::from(&e)
    }
}

impl From<&JsValue> for JsError {
    fn from(e: &JsValue) -> Self {
        let message = js_sys::Reflect::get(e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .filter(|m| !m.is_empty())
            .or_else(|| e.as_string())
            .unwrap_or_else(|| "unknown error".into());
        JsError(message)
    }
}

impl std::fmt::Display for JsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for JsError {}

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

/// The document title for a view.
pub fn title(lang: Lang, view: View) -> String {
    let page = tr(
        lang,
        match view {
            View::Advise => Key::NavAdvise,
            View::Compare => Key::NavCompare,
            View::Gpu => Key::GpuHeading,
            View::Guide => Key::NavGuide,
            View::Bench => Key::NavBench,
            View::Accuracy => Key::NavAccuracy,
        },
    );
    format!("{page} · {}", tr(lang, Key::AppTitle))
}
