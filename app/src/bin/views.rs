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

/// The ranking for a link's query as the advise view's downloads save it: JSON when `json`,
/// else CSV (`app::views::export`).
#[wasm_bindgen]
pub fn export_ranking(json: bool, query: String, link: String) -> String {
    app::views::export(json, &query, &link)
}

fn main() {}
