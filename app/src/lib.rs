//! GPU Advisor in the browser: a thin Leptos shell over the `catalog` crate.
//! `state` binds the URL, `pages` holds one file per view, `components` the
//! reusable pieces; all figures come from `catalog`.

// The Advise view's type is kept whole inside its error boundary (erasing it costs 5 KB
// of the first module), and computing its layout needs more than rustc's default depth.
#![recursion_limit = "256"]

mod components;
mod i18n;
mod pages;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;
mod state;
pub mod views;
pub mod webgpu;

use catalog::share::{Theme, View};
use components::{footer::Footer, header::Header, notice::Notice};
use leptos::prelude::*;

/// On a panic, shows a readable panel instead of a blank page; the console gets the
/// message and where it was raised.
pub fn install_panic_panel() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&info.to_string().into());
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(panel) = document.create_element("div") else {
            return;
        };
        panel.set_class_name("panic-panel");
        let _ = panel.set_attribute("role", "alert");
        panel.set_text_content(Some(&format!(
            "GPU Advisor stopped because of an internal error. Reload the page to try again.\n\n{info}"
        )));
        if let Some(body) = document.body() {
            let _ = body.append_child(&panel);
        }
    }));
}

/// Mounts the app. A page that opens in Chinese first fetches its strings, so it never
/// shows English for a moment; if they cannot be fetched it opens in English.
pub async fn start() {
    if state::opens_in_chinese() {
        if let Err(e) = i18n::load_zh().await {
            leptos::logging::warn!("Chinese strings: {e}");
        }
    }
    // The default view written into the page at build time gives way to the app in this
    // same task, so the browser never paints the two together.
    if let Some(written) = document().get_element_by_id("prerendered") {
        written.remove();
    }
    leptos::mount::mount_to_body(App);
}

/// One view's place in the page. A view is created the first time it is shown and then
/// kept (hidden while another view is shown), so that leaving a view never disposes what
/// its pending updates still read: going back and forth costs a re-render, never a crash.
/// Advise is drawn by this module; the others by the views module (`views`), loaded the
/// first time one is shown. A failure inside one of those (a fetch that fails, a module
/// that does not load) shows in its own error boundary and leaves the rest working;
/// Advise computes everything it shows and has nothing that can fail that way.
fn view_slot(ctx: state::Ctx, view: View, settled: RwSignal<Vec<View>>) -> impl IntoView {
    let shown = move || ctx.view.get() == view;
    let visited = Memo::new(move |was: Option<&bool>| was.copied().unwrap_or(false) || shown());
    view! {
        <Show when=move || visited.get()>
            <div class="view" hidden=move || !shown()>
                {match view {
                    View::Advise => pages::advise::Advise().into_any(),
                    other => views::host(ctx, other, settled).into_any(),
                }}
            </div>
        </Show>
    }
}

#[component]
pub fn App() -> impl IntoView {
    let ctx = state::init();
    provide_context(ctx);

    // The theme and language live on <html> so that the page background follows them too.
    Effect::new(move |_| {
        let theme = match ctx.theme() {
            Theme::Dark => "dark",
            Theme::Light => "light",
        };
        let lang = match ctx.lang() {
            catalog::share::Lang::En => "en",
            catalog::share::Lang::Zh => "zh-CN",
        };
        if let Some(root) = document().document_element() {
            let _ = root.set_attribute("data-theme", theme);
            let _ = root.set_attribute("lang", lang);
        }
        document().set_title(&pages::title(ctx.lang(), ctx.view.get()));
    });

    let embed = ctx.embed;
    let settled = RwSignal::new(Vec::new());
    components::embed::report_height_when_embedded(embed.get_untracked());

    view! {
        <div class="app" class:embed=move || embed.get()>
            <Show when=move || !embed.get()>
                <Header />
            </Show>
            <Notice />
            // Ready once the view shown can be read: Advise at once, another view once the
            // views module has drawn it.
            <main id="main" data-ready=move || {
                let view = ctx.view.get();
                (view == View::Advise || settled.with(|s| s.contains(&view))).to_string()
            }>
                {View::ALL.iter().map(|&view| view_slot(ctx, view, settled)).collect_view()}
            </main>
            <Show when=move || embed.get()>
                <components::embed::OpenFull />
            </Show>
            <Show when=move || !embed.get()>
                <Footer />
            </Show>
        </div>
    }
}
