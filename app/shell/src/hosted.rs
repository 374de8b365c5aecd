//! The views module (`app/views`, built by trunk into `views/`): compare, GPU details,
//! the guide and your GPU, loaded the first time one of them is shown, so a first visit
//! downloads only what advise needs. The shell hands it an element to draw into and the
//! state as a query string (`mount`), then each change of the state while one of its
//! views is shown (`set_query`); the module's moves come back as `Nav` tokens through
//! the function given at mount, which the shell applies like a click of its own.

use catalog::share::{AppState, View};
use wasm_bindgen::prelude::*;
use web::load::{export, import};
use web::JsError;

thread_local! {
    /// The views module's exports, once loaded.
    static EXPORTS: std::cell::RefCell<Option<JsValue>> = const { std::cell::RefCell::new(None) };
}

/// The views module's exports, loading it the first time (one load for the page).
async fn exports() -> Result<JsValue, JsError> {
    if let Some(e) = EXPORTS.with(|m| m.borrow().clone()) {
        return Ok(e);
    }
    let e = import("views", web::VIEWS_VERSION)
        .await
        .map_err(|e| e.context("the views module could not be loaded"))?;
    EXPORTS.with(|m| *m.borrow_mut() = Some(e.clone()));
    Ok(e)
}

/// Has the views module draw `view` into `host` from `state`, loading the module the
/// first time; `nav` receives the module's moves as `Nav` tokens.
pub async fn draw_into(
    view: View,
    host: web_sys::Element,
    state: &AppState,
    nav: &js_sys::Function,
) -> Result<(), JsError> {
    let mount = export(&exports().await?, "mount")?;
    let args = js_sys::Array::of4(
        &view.as_str().into(),
        &host,
        &catalog::share::print(state).into(),
        nav,
    );
    let promise = mount.apply(&JsValue::NULL, &args).map_err(JsError::from)?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map(|_| ())
        .map_err(JsError::from)
}

/// Hands the views module the state as a query string, when it has loaded; its views
/// follow it.
pub fn set_query(state: &AppState) {
    let Some(exports) = EXPORTS.with(|m| m.borrow().clone()) else {
        return;
    };
    if let Ok(set) = export(&exports, "set_query") {
        let _ = set.call1(&JsValue::NULL, &catalog::share::print(state).into());
    }
}

/// The ranking for `state` as the advise view's "Download JSON" (`json`) or "Download
/// CSV" saves it, written by the views module: the export's code is not needed to show a
/// first visit, so it waits there for the first click.
pub async fn export_text(json: bool, state: &AppState) -> Result<String, JsError> {
    let export_ranking = export(&exports().await?, "export_ranking")?;
    let args = js_sys::Array::of3(
        &JsValue::from_bool(json),
        &catalog::share::print(state).into(),
        &web::url::absolute_link(state).into(),
    );
    let promise: js_sys::Promise = export_ranking
        .apply(&JsValue::NULL, &args)
        .map_err(JsError::from)?
        .dyn_into()
        .map_err(|_| JsError::new("the export returned no promise"))?;
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map_err(JsError::from)?
        .as_string()
        .ok_or_else(|| JsError::new("the export returned no text"))
}
