//! Links between views: a real `<a href>` to the view's URL, so that middle-click,
//! ctrl/cmd-click, "open in new tab" and "copy link address" work; a plain left click
//! goes to the shell as the link's move (one history entry, no reload).

use catalog::share::{AppState, Nav};
use leptos::prelude::*;
use web_sys::MouseEvent;

use crate::state::Ctx;
use web::url::is_plain_click;

/// A link that makes `nav` (for example `Nav::OpenGpu(id)`). Not generic: every link
/// of the page shares this one piece of code.
pub fn view_link(
    nav: Nav,
    class: &'static str,
    testid: Option<&'static str>,
    label: Signal<String>,
) -> impl IntoView {
    // Without the app's state (the page written at build time), a plain link from the
    // default state.
    let Some(ctx) = use_context::<Ctx>() else {
        let query = catalog::share::print(&AppState::default().after(|s| s.apply(&nav)));
        let href = if query.is_empty() {
            "./".to_string()
        } else {
            format!("?{query}")
        };
        return view! { <a class=class href=href data-testid=testid>{label.get_untracked()}</a> }
            .into_any();
    };
    let target = nav.clone();
    let href = ctx.href(move |s| s.apply(&target));
    view! {
        <a class=class href=href data-testid=testid on:click=move |ev: MouseEvent| {
            if is_plain_click(&ev) {
                ev.prevent_default();
                ctx.go(&nav);
            }
        }>{move || label.get()}</a>
    }
    .into_any()
}
