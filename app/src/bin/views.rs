//! The views module: compare, GPU details, guide and your GPU as their own WebAssembly
//! bundle, which the page loads (`app::views`) the first time one of them is shown.

use wasm_bindgen::prelude::*;

/// Draws `view` (`compare`, `gpu`, `guide` or `bench`) into `host`; the promise rejects
/// with the reason when it cannot.
#[wasm_bindgen]
pub async fn mount(view: String, host: web_sys::HtmlElement) -> Result<(), JsValue> {
    app::install_panic_panel();
    app::views::mount(&view, host)
        .await
        .map_err(|e| JsValue::from_str(&e))
}

fn main() {}
