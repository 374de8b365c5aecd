//! Links between views: a real `<a href>` to the view's URL, so that middle-click,
//! ctrl/cmd-click, "open in new tab" and "copy link address" work; a plain left click
//! is handled in the page (one history entry, no reload).

use catalog::share::AppState;
use leptos::prelude::*;
use web_sys::MouseEvent;

use crate::state::use_ctx;

/// A click the page should handle itself: the main button with no modifier key.
pub fn is_plain_click(ev: &MouseEvent) -> bool {
    ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key())
}

/// A link to the state after `change` (for example `|s| s.open_gpu(id)`).
pub fn view_link<F>(
    change: F,
    class: &'static str,
    testid: Option<&'static str>,
    label: impl IntoView + 'static,
) -> impl IntoView
where
    F: Fn(&mut AppState) + Clone + Send + Sync + 'static,
{
    let ctx = use_ctx();
    let href = ctx.href(change.clone());
    view! {
        <a class=class href=href data-testid=testid on:click=move |ev: MouseEvent| {
            if is_plain_click(&ev) {
                ev.prevent_default();
                ctx.update(true, |s| change(s));
            }
        }>{label}</a>
    }
}
