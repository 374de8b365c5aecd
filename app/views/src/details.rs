//! Notes and sources live in the full `gpus.json` published beside the app; the
//! embedded catalog leaves them out to keep the first visit small. They are fetched
//! once, the first time a view asks for them, into a signal that `App` owns.

use catalog::data::GpuDetails;
use catalog::gpu::Source;
use wasm_bindgen::JsValue;

#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    Loading,
    Ready(Vec<GpuDetails>),
    Failed(String),
}

fn strings(value: &JsValue) -> Vec<String> {
    js_sys::Array::from(value)
        .iter()
        .filter_map(|v| v.as_string())
        .collect()
}

fn field(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// Reads ids, notes and sources with the browser's own JSON parser, so the bundle
/// carries no JSON library.
fn parse(text: &str) -> Result<Vec<GpuDetails>, String> {
    let value = js_sys::JSON::parse(text).map_err(|_| "gpus.json is not valid JSON".to_string())?;
    if !js_sys::Array::is_array(&value) {
        return Err("gpus.json is not a list".into());
    }
    Ok(js_sys::Array::from(&value)
        .iter()
        .map(|entry| GpuDetails {
            id: field(&entry, "id").as_string().unwrap_or_default(),
            notes: strings(&field(&entry, "notes")),
            sources: js_sys::Array::from(&field(&entry, "sources"))
                .iter()
                .map(|s| Source {
                    url: field(&s, "url").as_string().unwrap_or_default(),
                    fields: strings(&field(&s, "fields")),
                })
                .collect(),
        })
        .collect())
}

/// Fetches and reads `gpus.json`; `state::Ctx::details` calls it once per page.
pub async fn load() -> Loaded {
    match web::load::fetch_text("gpus.json").await {
        Ok(text) => match parse(&text) {
            Ok(d) => Loaded::Ready(d),
            Err(e) => Loaded::Failed(e),
        },
        Err(e) => Loaded::Failed(e.to_string()),
    }
}
