//! Loads the measurement module (`src/bin/bench.rs`, built by trunk into `bench/`) when
//! a run starts. The page's own bundle carries none of the WebGPU code nor the drawing
//! of its results: it passes the module's text records (`catalog::bench::report`) back
//! to the module's `render`, in the page's current language.

use catalog::share::Lang;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::js_error;

/// Changes whenever the measurement's sources do (see `build.rs`), so a browser never
/// pairs this page with a stale cached module.
const VERSION: &str = env!("BENCH_MODULE_VERSION");

/// Imports a module's JS, instantiates its wasm and returns the module's exports. The
/// function is made at run time rather than shipped as a wasm-bindgen snippet: the page's
/// three bundles come from one crate, and trunk builds them at once into one snippet
/// folder, where a snippet could be left empty.
async fn load_module(js: &str, wasm: &str) -> Result<JsValue, JsValue> {
    let import = Function::new_with_args(
        "js, wasm",
        "return import(js).then((m) => m.default({ module_or_path: wasm }).then(() => m));",
    );
    let promise = import.call2(&JsValue::NULL, &js.into(), &wasm.into())?;
    JsFuture::from(js_sys::Promise::from(promise)).await
}

/// A module's address under `dir/`, resolved against the page (which may live under any
/// path), with its version so a browser never pairs this page with a stale cached copy.
fn url(dir: &str, file: &str, version: &str) -> Result<String, String> {
    let base = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.base_uri().ok().flatten())
        .ok_or("the page has no base address")?;
    web_sys::Url::new_with_base(&format!("{dir}/{file}?v={version}"), &base)
        .map(|u| u.href())
        .map_err(|e| js_error(&e))
}

/// Fetches and instantiates the module trunk built into `name/` (`name.js` and
/// `name_bg.wasm`), and returns its exports.
pub(crate) async fn import(name: &str, version: &str) -> Result<JsValue, String> {
    load_module(
        &url(name, &format!("{name}.js"), version)?,
        &url(name, &format!("{name}_bg.wasm"), version)?,
    )
    .await
    .map_err(|e| js_error(&e))
}

/// The loaded measurement module's two entry points.
#[derive(Clone)]
pub struct Module {
    measure: Function,
    render: Function,
}

/// A run as the module draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The `data-state` of the run's status.
    pub state: String,
    pub status: String,
    pub html: String,
}

/// Fetches and instantiates the measurement module.
pub async fn load() -> Result<Module, String> {
    let exports = import("bench", VERSION)
        .await
        .map_err(|e| format!("the measurement module could not be loaded: {e}"))?;
    let entry = |name: &str| -> Result<Function, String> {
        Reflect::get(&exports, &name.into())
            .ok()
            .and_then(|f| f.dyn_into().ok())
            .ok_or_else(|| format!("the measurement module has no `{name}`"))
    };
    Ok(Module {
        measure: entry("measure")?,
        render: entry("render")?,
    })
}

impl Module {
    /// Runs the measurement; `progress` receives each progress record as it comes.
    /// Resolves to the outcome's records.
    pub async fn measure(&self, progress: impl Fn(String) + 'static) -> Result<String, String> {
        let on_progress = Closure::<dyn Fn(String)>::new(progress);
        let promise = self
            .measure
            .call1(&JsValue::NULL, on_progress.as_ref())
            .map_err(|e| js_error(&e))?;
        let report = JsFuture::from(js_sys::Promise::from(promise))
            .await
            .map_err(|e| format!("the measurement stopped: {}", js_error(&e)))?;
        drop(on_progress);
        report
            .as_string()
            .ok_or_else(|| "the measurement returned no report".into())
    }

    /// Draws the run from its records so far.
    pub fn render(&self, progress: &str, outcome: &str, lang: Lang) -> Result<Drawn, String> {
        let lang = match lang {
            Lang::En => "en",
            Lang::Zh => "zh",
        };
        let drawn = self
            .render
            .call3(
                &JsValue::NULL,
                &progress.into(),
                &outcome.into(),
                &lang.into(),
            )
            .map_err(|e| js_error(&e))?;
        let parts = Array::from(&drawn);
        let part = |i: u32| parts.get(i).as_string().unwrap_or_default();
        Ok(Drawn {
            state: part(0),
            status: part(1),
            html: part(2),
        })
    }
}
