//! Loading what the first visit does not carry: another WebAssembly module of the page
//! (the views module, the measurement module), or a file published beside the page
//! (`gpus.json`, `zh.json`).

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
