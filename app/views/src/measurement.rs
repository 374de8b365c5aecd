//! The measurement module (`app/measure`, built by trunk into `measure/`), loaded when a
//! run starts. This module carries none of the WebGPU code nor the drawing of its
//! results: it passes the module's text records (`catalog::bench::report`) back to the
//! module's `render`, in the page's current language.

use catalog::share::Lang;
use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web::load::{export, import};
use web::JsError;

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
pub async fn load() -> Result<Module, JsError> {
    let exports = import("measure", web::MEASURE_VERSION)
        .await
        .map_err(|e| e.context("the measurement module could not be loaded"))?;
    Ok(Module {
        measure: export(&exports, "measure")?,
        render: export(&exports, "render")?,
    })
}

impl Module {
    /// Runs the measurement; `progress` receives each progress record as it comes.
    /// Resolves to the outcome's records.
    pub async fn measure(&self, progress: impl Fn(String) + 'static) -> Result<String, JsError> {
        let on_progress = Closure::<dyn Fn(String)>::new(progress);
        let promise = self
            .measure
            .call1(&JsValue::NULL, on_progress.as_ref())
            .map_err(JsError::from)?;
        let report = JsFuture::from(js_sys::Promise::from(promise))
            .await
            .map_err(|e| JsError::from(e).context("the measurement stopped"))?;
        drop(on_progress);
        report
            .as_string()
            .ok_or_else(|| JsError::new("the measurement returned no report"))
    }

    /// Draws the run from its records so far.
    pub fn render(&self, progress: &str, outcome: &str, lang: Lang) -> Result<Drawn, JsError> {
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
            .map_err(JsError::from)?;
        let parts = Array::from(&drawn);
        let part = |i: u32| parts.get(i).as_string().unwrap_or_default();
        Ok(Drawn {
            state: part(0),
            status: part(1),
            html: part(2),
        })
    }
}
