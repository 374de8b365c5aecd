//! The views module's exports, which the shell calls (`shell::hosted`).

use wasm_bindgen::prelude::*;

/// Draws `view` (`compare`, `gpu`, `guide` or `bench`) into `host` from the state in
/// `query`; `nav` takes the views' moves as `Nav` tokens. The promise rejects with the
/// reason when it cannot.
#[wasm_bindgen]
pub async fn mount(
    view: String,
    host: web_sys::HtmlElement,
    query: String,
    nav: js_sys::Function,
) -> Result<(), JsValue> {
    web::install_panic_panel();
    views::mount(&view, host, &query, nav)
        .await
        .map_err(|e| JsValue::from_str(&e))
}

/// The shell's state changed while one of these views is shown.
#[wasm_bindgen]
pub fn set_query(query: String) {
    views::set_query(&query);
}

/// The ranking for a link's query as the advise view's downloads save it: JSON when `json`,
/// else CSV (`views::export`), as a promise.
#[wasm_bindgen]
pub async fn export_ranking(json: bool, query: String, link: String) -> String {
    views::export(json, &query, &link).await
}

fn main() {}
