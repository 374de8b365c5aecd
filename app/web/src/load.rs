//! Loading what the first visit does not carry: another WebAssembly module of the page
//! (the views module, the measurement module), or a file published beside the page
//! (`gpus.json`, `zh.json`, `measurements.json`).

use catalog::evidence::{Field, Measurement};
use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::JsError;

/// Imports a module's JS, instantiates its wasm and returns the module's exports, through
/// the function the page's own script defines (`__gpuAdvisorImport` in `index.html`): no
/// function is made from text at run time, which a Content-Security-Policy without
/// 'unsafe-eval' forbids, and no module depends on another's snippet folder.
async fn load_module(js: &str, wasm: &str) -> Result<JsValue, JsValue> {
    let window = web_sys::window().ok_or_else(|| JsValue::from_str("no window"))?;
    let import: Function = js_sys::Reflect::get(&window, &"__gpuAdvisorImport".into())?
        .dyn_into()
        .map_err(|_| JsValue::from_str("the page's module loader is missing"))?;
    let promise = import.call2(&JsValue::NULL, &js.into(), &wasm.into())?;
    JsFuture::from(js_sys::Promise::from(promise)).await
}

/// A module's address under `dir/`, resolved against the page (which may live under any
/// path), with its version so a browser never pairs this page with a stale cached copy.
fn url(dir: &str, file: &str, version: &str) -> Result<String, JsError> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or_else(|| JsError::new("the page has no base address"))?;
    web_sys::Url::new_with_base(&format!("{dir}/{file}?v={version}"), &base)
        .map(|u| u.href())
        .map_err(JsError::from)
}

/// Fetches and instantiates the module trunk built into `name/` (`name.js` and
/// `name_bg.wasm`), and returns its exports.
pub async fn import(name: &str, version: &str) -> Result<JsValue, JsError> {
    load_module(
        &url(name, &format!("{name}.js"), version)?,
        &url(name, &format!("{name}_bg.wasm"), version)?,
    )
    .await
    .map_err(JsError::from)
}

/// An exported function of a loaded module.
pub fn export(exports: &JsValue, name: &str) -> Result<Function, JsError> {
    js_sys::Reflect::get(exports, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| JsError::new(format!("the module has no `{name}`")))
}

/// A file published beside the page, as text.
pub async fn fetch_text(url: &str) -> Result<String, JsError> {
    let window = web_sys::window().ok_or_else(|| JsError::new("no window"))?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|e| JsError::from(e).context(url))?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| JsError::new(format!("{url}: not a response")))?;
    if !response.ok() {
        return Err(JsError::new(format!("{url}: HTTP {}", response.status())));
    }
    let text = JsFuture::from(response.text().map_err(JsError::from)?)
        .await
        .map_err(|e| JsError::from(e).context(url))?;
    text.as_string()
        .ok_or_else(|| JsError::new(format!("{url}: empty body")))
}

/// Which file of published measurements to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Measurements {
    /// `measurements.min.json`, written by the build without the rows' notes: what the
    /// cards read.
    ForCards,
    /// `measurements.json`, the data file as published, notes and all: the accuracy page's.
    Full,
}

/// The published measurements (published beside the page, with the build's fingerprint
/// of the data file so a cache never pairs it with another engine), read by the
/// browser's own JSON parser into `catalog::evidence` rows: the page's module needs no
/// JSON library for them. Fetched once per module; after a failure the next call tries
/// again.
pub async fn measurements(which: Measurements) -> Result<std::rc::Rc<Vec<Measurement>>, JsError> {
    thread_local! {
        static ROWS: std::cell::RefCell<[Option<std::rc::Rc<Vec<Measurement>>>; 2]> =
            const { std::cell::RefCell::new([None, None]) };
    }
    let slot = which as usize;
    if let Some(rows) = ROWS.with(|r| r.borrow()[slot].clone()) {
        return Ok(rows);
    }
    let url = match which {
        Measurements::ForCards => concat!("measurements.min.json?v=", env!("MEASUREMENTS_VERSION")),
        Measurements::Full => concat!("measurements.json?v=", env!("MEASUREMENTS_VERSION")),
    };
    let text = fetch_text(url).await?;
    let rows =
        std::rc::Rc::new(parse_measurements(&text).map_err(|e| JsError::new(e).context(url))?);
    ROWS.with(|r| r.borrow_mut()[slot] = Some(rows.clone()));
    Ok(rows)
}

fn parse_measurements(text: &str) -> Result<Vec<Measurement>, String> {
    let value = js_sys::JSON::parse(text).map_err(|_| "not valid JSON".to_string())?;
    let rows: js_sys::Array = value.dyn_into().map_err(|_| "not a list".to_string())?;
    Ok(rows
        .iter()
        .map(|row| {
            Measurement::new(
                js_sys::Object::entries(&row.unchecked_into())
                    .iter()
                    .filter_map(|entry| {
                        let pair: js_sys::Array = entry.unchecked_into();
                        let key = pair.get(0).as_string()?;
                        let value = pair.get(1);
                        let field = if let Some(s) = value.as_string() {
                            Field::Text(s)
                        } else if let Some(n) = value.as_f64() {
                            Field::Number(n)
                        } else {
                            Field::Flag(value.as_bool()?)
                        };
                        Some((key, field))
                    }),
            )
        })
        .collect())
}
