//! The views other than Advise (compare, GPU details, guide, your GPU) are their own
//! WebAssembly module (`src/bin/views.rs`, built by trunk into `views/`), so a first
//! visit, which opens on Advise, downloads only what Advise needs. The page's module
//! loads it the first time one of those views is shown and hands it an element to draw
//! into (`host`); the views module then draws there (`mount`).
//!
//! Each module holds its own copy of the state, both bound to the URL: a module writes
//! every change to the URL and announces it with a `popstate` event, which the other one
//! follows as it follows back and forward (`crate::state`).

use catalog::share::View;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::i18n::{fill, tr, Key};
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

/// The views module's `mount`, once it has loaded (one load for the page).
async fn mount_fn() -> Result<js_sys::Function, String> {
    thread_local! {
        static MOUNT: std::cell::RefCell<Option<js_sys::Function>> = const { std::cell::RefCell::new(None) };
    }
    if let Some(f) = MOUNT.with(|m| m.borrow().clone()) {
        return Ok(f);
    }
    let exports = crate::webgpu::on_demand::import("views", VERSION).await?;
    let mount: js_sys::Function = js_sys::Reflect::get(&exports, &"mount".into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or("the views module has no `mount`")?;
    MOUNT.with(|m| *m.borrow_mut() = Some(mount.clone()));
    Ok(mount)
}

/// Where a view of the views module goes: a note while the module loads, what went
/// wrong if it cannot, and the element it draws into. Once the module has drawn the view
/// or said why it could not, the view joins `settled` (`main`'s `data-ready` follows it).
pub fn host(ctx: Ctx, view: View, settled: RwSignal<Vec<View>>) -> impl IntoView {
    let element = NodeRef::<leptos::html::Div>::new();
    // None while loading, then Ok once drawn or the reason it could not be.
    let outcome = RwSignal::new(None::<Result<(), String>>);
    Effect::new(move |_| {
        let Some(el) = element.get() else { return };
        leptos::task::spawn_local(async move {
            let drawn = async {
                let mount = mount_fn().await?;
                let promise = mount
                    .call2(&JsValue::NULL, &name(view).into(), &el)
                    .map_err(|e| format!("{e:?}"))?;
                wasm_bindgen_futures::JsFuture::from(js_sys::Promise::from(promise))
                    .await
                    .map(|_| ())
                    .map_err(|e| e.as_string().unwrap_or_else(|| format!("{e:?}")))
            };
            outcome.set(Some(drawn.await));
            settled.update(|v| v.push(view));
        });
    });
    view! {
        {move || match outcome.get() {
            None => Some(view! { <p class="view-loading" data-testid="view-loading">{tr(ctx.lang(), Key::ViewLoading)}</p> }.into_any()),
            Some(Err(why)) => Some(view! {
                <p class="view-error" role="alert" data-testid="view-error">{fill(tr(ctx.lang(), Key::ViewFailed), &[("why", why)])}</p>
            }.into_any()),
            Some(Ok(())) => None,
        }}
        <div class="view-host" node_ref=element></div>
    }
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
    if crate::state::opens_in_chinese() && !crate::i18n::zh_ready() {
        if let Err(e) = crate::i18n::load_zh().await {
            leptos::logging::warn!("Chinese strings: {e}");
        }
    }
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
