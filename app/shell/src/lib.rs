//! GPU Advisor's page: the shell every visit starts with. It owns the state (the link's
//! `AppState` and what the page keeps beside it), is the only writer of the URL, and
//! draws the header, the advise view and the footer as HTML by plain functions (`page`).
//! The other views are drawn by the views module (`app/views`), which the shell loads the
//! first time one is shown (`hosted`) and hands the state; its moves come back to the
//! shell as `Nav` tokens. The build writes the default view into `index.html` with the
//! same functions (`prerender`).
//!
//! Leptos is not a dependency of this crate: the first visit's module cannot use it.

mod hosted;
pub mod page;
#[cfg(not(target_arch = "wasm32"))]
pub mod prerender;

/// Starts the page (`page::start`).
pub async fn start() {
    page::start().await;
}
