use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::state::use_ctx;

#[component]
pub fn Footer() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <footer class="site-footer">
            <p>{move || tr(ctx.lang(), Key::FooterPrivacy)}</p>
            <p>{move || tr(ctx.lang(), Key::FooterSources)}</p>
        </footer>
    }
}
