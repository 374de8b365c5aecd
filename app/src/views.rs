//! The views other than Advise (compare, GPU details, guide, your GPU) are their own
//! WebAssembly module (`src/bin/views.rs`, built by trunk into `views/`), so a first
//! visit, which opens on Advise, downloads only what Advise needs. The page's module
//! loads it the first time one of those views is shown and hands it an element to draw
//! into (`draw_into`); the views module then draws there (`mount`).
//!
//! Each module holds its own copy of the state, both bound to the URL: a module writes
//! every change to the URL and announces it with a `popstate` event, which the other one
//! follows as it follows back and forward (`crate::state`).
//!
//! The views' style sheet (`style/views.css`) is copied into `views/` beside the module,
//! which adds it to the page before it first draws (`style_sheet`).

use catalog::share::{AppState, View};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::state::Ctx;

/// Changes whenever the module's sources do (see `build.rs`).
const VERSION: &str = env!("VIEWS_MODULE_VERSION");

/// The module's name for a view, as `mount` reads it.
fn name(view: View) -> &'static str {
    match view {
        View::Advise => "advise",
        View::Compare => "compare",
        View::Gpu => "gpu",
        View::Guide => "guide",
        View::Bench => "bench",
    }
}

/// A function the views module exports (`mount`, `export_ranking`), once it has loaded (one load
/// for the page).
async fn module_fn(name: &str) -> Result<js_sys::Function, String> {
    thread_local! {
        static EXPORTS: std::cell::RefCell<Option<JsValue>> = const { std::cell::RefCell::new(None) };
    }
    let exports = match EXPORTS.with(|m| m.borrow().clone()) {
        Some(e) => e,
        None => {
            let e = crate::webgpu::on_demand::import("views", VERSION).await?;
            EXPORTS.with(|m| *m.borrow_mut() = Some(e.clone()));
            e
        }
    };
    js_sys::Reflect::get(&exports, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the views module has no `{name}`"))
}

/// The ranking for `state` as the advise view's "Download JSON" (`json`) or "Download
/// CSV" saves it, written by the views module: the export's code is not needed to show a
/// first visit, so it waits there for the first click.
pub async fn export_text(json: bool, state: &AppState) -> Result<String, String> {
    let export = module_fn("export_ranking").await?;
    let args = js_sys::Array::of3(
        &JsValue::from_bool(json),
        &catalog::share::print(state).into(),
        &crate::url::absolute_link(state).into(),
    );
    export
        .apply(&JsValue::NULL, &args)
        .map_err(|e| format!("{e:?}"))?
        .as_string()
        .ok_or_else(|| "the export returned no text".to_string())
}

/// The views module's side of `export_text`: the ranking for the link's query, as JSON
/// (`gpu-advisor/ranking@2`) or CSV.
pub fn export(json: bool, query: &str, link: &str) -> String {
    let catalog = catalog::Catalog::embedded();
    let (state, _) = catalog::share::parse(query, catalog);
    let ranking = catalog::rank::rank(catalog, &state.workload, &state.filters);
    if json {
        catalog::export::to_json(&ranking, &state, link, crate::url::catalog_date())
    } else {
        catalog::export::to_csv(&ranking, &state)
    }
}

/// Has the views module draw `view` into `host`, loading the module the first time; the
/// reason when it cannot.
pub async fn draw_into(view: View, host: web_sys::Element) -> Result<(), String> {
    let mount = module_fn("mount").await?;
    let promise = mount
        .call2(&JsValue::NULL, &name(view).into(), &host)
        .map_err(|e| format!("{e:?}"))?;
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
        .await
        .map(|_| ())
        .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
}

/// Draws a view of this module into `host`: what `src/bin/views.rs` exports as `mount`.
/// The state is created on the first call and shared by every view drawn after it; a
/// page shown in Chinese first loads its strings.
pub async fn mount(view: &str, host: web_sys::HtmlElement) -> Result<(), String> {
    thread_local! {
        static CTX: std::cell::OnceCell<Ctx> = const { std::cell::OnceCell::new() };
    }
    let view = match view {
        "compare" => View::Compare,
        "gpu" => View::Gpu,
        "guide" => View::Guide,
        "bench" => View::Bench,
        other => return Err(format!("no view named {other:?} in this module")),
    };
    if crate::url::opens_in_chinese() && !crate::i18n::zh_ready() {
        if let Err(e) = crate::i18n::load_zh().await {
            leptos::logging::warn!("Chinese strings: {e}");
        }
    }
    style_sheet().await;
    leptos::mount::mount_to(host, move || {
        // Created under the first view's owner, which is never unmounted, and shared by
        // every view drawn after it.
        let ctx = CTX.with(|c| *c.get_or_init(crate::state::init));
        provide_context(ctx);
        view! {
            <ErrorBoundary fallback=move |errors| view! {
                <p class="view-error" role="alert" data-testid="view-error">
                    {move || crate::components::failure::text(ctx.lang(), &errors.get())}
                </p>
            }>
                {match view {
                    View::Compare => crate::pages::compare::Compare().into_any(),
                    View::Gpu => crate::pages::gpu::GpuDetail().into_any(),
                    View::Guide => crate::pages::guide::Guide().into_any(),
                    _ => crate::pages::bench::Bench().into_any(),
                }}
            </ErrorBoundary>
        }
    })
    .forget();
    Ok(())
}

/// Adds the views' style sheet to the page the first time a view is drawn, and waits until
/// it has loaded, so no view shows unstyled for a moment. A sheet that cannot be loaded
/// leaves the views readable without their tables' and charts' styling, and says so in the
/// console.
async fn style_sheet() {
    thread_local! {
        static LOADED: std::cell::OnceCell<js_sys::Promise> = const { std::cell::OnceCell::new() };
    }
    let loaded = LOADED.with(|l| l.get_or_init(add_style_sheet).clone());
    if wasm_bindgen_futures::JsFuture::from(loaded).await.is_err() {
        leptos::logging::warn!("the views' style sheet (views/views.css) could not be loaded");
    }
}

/// A `<link rel="stylesheet">` to `views/views.css` (with the module's version, so a cache
/// never pairs it with another build) appended to the head; the promise settles when the
/// browser has loaded it or given up.
fn add_style_sheet() -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, reject| {
        let added = (|| {
            let document = window().document()?;
            let link = document.create_element("link").ok()?;
            link.set_attribute("rel", "stylesheet").ok()?;
            link.set_attribute("href", &format!("views/views.css?v={VERSION}"))
                .ok()?;
            let settle =
                |f: js_sys::Function| Closure::once_into_js(move || f.call0(&JsValue::NULL));
            link.add_event_listener_with_callback("load", settle(resolve.clone()).unchecked_ref())
                .ok()?;
            link.add_event_listener_with_callback("error", settle(reject.clone()).unchecked_ref())
                .ok()?;
            document.head()?.append_child(&link).ok()
        })();
        if added.is_none() {
            let _ = reject.call0(&JsValue::NULL);
        }
    })
}
