//! The bench view. The in-page WebGPU measurement is not part of this build; the
//! view says so plainly and points to the compare view to pick one's GPU by hand.

use catalog::share::View;
use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::state::use_ctx;

#[component]
pub fn Bench() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    view! {
        <section class="bench">
            <h2>{move || tr(lang(), Key::NavBench)}</h2>
            <p data-testid="bench-status" data-state="unsupported">{move || tr(lang(), Key::BenchUnavailable)}</p>
            <button class="link" on:click=move |_| ctx.update(true, |s| s.view = View::Compare)>{move || tr(lang(), Key::BenchPickByHand)}</button>
        </section>
    }
}
