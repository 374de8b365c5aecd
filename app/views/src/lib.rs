//! The views other than advise (compare, GPU details, guide, your GPU), drawn with
//! Leptos in their own WebAssembly module (built by trunk into `views/`), so a first
//! visit, which opens on advise, downloads only what advise needs. The shell loads it
//! the first time one of these views is shown and hands it an element to draw into and
//! the state (`mount`), then every change of the state while one of its views is shown
//! (`set_query`). The module never writes the URL: its moves go back to the shell as
//! `Nav` tokens (`state::Ctx::go`), and the shell's answer is the next `set_query`.
//!
//! The views' style sheet (`style/views.css`) is copied into `views/` beside the module,
//! which adds it to the page before it first draws (`style_sheet`).

mod components;
mod details;
mod measurement;
mod pages;
mod state;

use catalog::share::View;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::state::Ctx;

/// The views module's side of `export_text`: the ranking for the link's query, as JSON
/// (`gpu-advisor/ranking@3`) or CSV, each GPU with the published measurement its card
/// shows. Measurements that cannot be fetched leave those fields empty, said in the
/// console; the rest of the export stands.
pub async fn export(json: bool, query: &str, link: &str) -> String {
    let catalog = catalog::Catalog::embedded();
    let (state, _) = catalog::share::parse(query, catalog);
    let ranking = catalog::rank::rank(catalog, &state.workload, &state.filters);
    let loaded = web::load::measurements(web::load::Measurements::ForCards).await;
    if let Err(e) = &loaded {
        leptos::logging::warn!("published measurements, left out of the export: {e}");
    }
    let evidence = loaded.as_deref().map_or(&[][..], Vec::as_slice);
    if json {
        catalog::export::to_json(&ranking, &state, link, web::url::catalog_date(), evidence)
    } else {
        catalog::export::to_csv(&ranking, &state, evidence)
    }
}

thread_local! {
    /// The views' state, created with the first view drawn.
    static CTX: std::cell::OnceCell<Ctx> = const { std::cell::OnceCell::new() };
}

/// Draws a view of this module into `host`: what the module exports as `mount`. The
/// state is created on the first call from the shell's `query`, and shared by every view
/// drawn after it; `nav` is the shell's function that takes the views' moves as `Nav`
/// tokens. A page shown in Chinese first loads its strings.
pub async fn mount(
    view: &str,
    host: web_sys::HtmlElement,
    query: &str,
    nav: js_sys::Function,
) -> Result<(), String> {
    let view = View::parse(view)
        .filter(|v| *v != View::Advise)
        .ok_or_else(|| format!("no view named {view:?} in this module"))?;
    let (state, _) = catalog::share::parse(query, catalog::Catalog::embedded());
    if web::url::wanted_lang(&state) == catalog::share::Lang::Zh && !web::i18n::zh_from_page() {
        if let Err(e) = web::i18n::load_zh().await {
            leptos::logging::warn!("Chinese strings: {e}");
        }
    }
    style_sheet().await;
    leptos::mount::mount_to(host, move || {
        // Created under the first view's owner, which is never unmounted, and shared by
        // every view drawn after it.
        let ctx = CTX.with(|c| *c.get_or_init(|| crate::state::init(state, nav)));
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
                    View::Accuracy => crate::pages::accuracy::Accuracy().into_any(),
                    _ => crate::pages::your_gpu::YourGpu().into_any(),
                }}
            </ErrorBoundary>
        }
    })
    .forget();
    Ok(())
}

/// The shell's state, as a query string: the views follow it (what the module exports
/// as `set_query`). Before the first view is drawn there is nothing to follow.
pub fn set_query(query: &str) {
    if let Some(ctx) = CTX.with(|c| c.get().copied()) {
        ctx.set_query(query);
    }
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
            link.set_attribute("href", &format!("views/views.css?v={}", web::VIEWS_VERSION))
                .ok()?;
            for (event, settle) in [("load", resolve.clone()), ("error", reject.clone())] {
                gloo_events::EventListener::once(&link, event, move |_| {
                    let _ = settle.call0(&JsValue::NULL);
                })
                .forget();
            }
            document.head()?.append_child(&link).ok()
        })();
        if added.is_none() {
            let _ = reject.call0(&JsValue::NULL);
        }
    })
}
