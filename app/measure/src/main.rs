//! The measurement module: the WebGPU benchmark and the drawing of its results as their
//! own WebAssembly bundle, which the bench view loads (`measure::on_demand`) only
//! when the person starts a run. It speaks in the text records of
//! `catalog::bench::report`.

use catalog::share::Lang;
use wasm_bindgen::prelude::*;

/// Runs the benchmark; `progress` is called with one record per step, and the returned
/// promise resolves to the outcome's records.
#[cfg(web_sys_unstable_apis)]
#[wasm_bindgen]
pub async fn measure(progress: js_sys::Function) -> String {
    measure::run(move |p| {
        let _ = progress.call1(&JsValue::NULL, &p.encode().into());
    })
    .await
    .encode()
}

/// Draws a run from the progress records so far and the outcome (empty while it runs),
/// in `lang` (`en` or `zh`): `[data-state, status text, results HTML]`.
#[wasm_bindgen]
pub fn render(progress: &str, outcome: &str, lang: &str) -> js_sys::Array {
    let lang = if lang == "zh" { Lang::Zh } else { Lang::En };
    let user_agent = web_sys::window()
        .and_then(|w| w.navigator().user_agent().ok())
        .unwrap_or_default();
    let drawn = measure::view::render(progress, outcome, lang, &user_agent);
    [drawn.state.to_string(), drawn.status, drawn.html]
        .iter()
        .map(|s| JsValue::from_str(s))
        .collect()
}

fn main() {}
