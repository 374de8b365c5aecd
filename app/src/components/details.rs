//! Notes and sources live in the full `gpus.json` published beside the app; the
//! embedded catalog leaves them out to keep the first visit small. They are fetched
//! once, the first time a view asks for them.

use std::sync::OnceLock;

use catalog::data::{details_from_json, GpuDetails};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    Loading,
    Ready(Vec<GpuDetails>),
    Failed(String),
}

async fn fetch_text(url: &str) -> Result<String, String> {
    let response = JsFuture::from(window().fetch_with_str(url))
        .await
        .map_err(|e| format!("{e:?}"))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| "not a response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(|e| format!("{e:?}"))?)
        .await
        .map_err(|e| format!("{e:?}"))?;
    text.as_string().ok_or_else(|| "empty body".to_string())
}

/// The shared details signal; the first call starts the fetch.
pub fn details() -> RwSignal<Loaded> {
    static SIGNAL: OnceLock<RwSignal<Loaded>> = OnceLock::new();
    *SIGNAL.get_or_init(|| {
        let signal = RwSignal::new(Loaded::Loading);
        leptos::task::spawn_local(async move {
            let loaded = match fetch_text("gpus.json").await {
                Ok(text) => match details_from_json(&text) {
                    Ok(d) => Loaded::Ready(d),
                    Err(e) => Loaded::Failed(e.to_string()),
                },
                Err(e) => Loaded::Failed(e),
            };
            signal.set(loaded);
        });
        signal
    })
}
