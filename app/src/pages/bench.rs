//! The bench view. The in-page WebGPU measurement is not part of this build; the
//! view says so plainly and points to the compare view to pick one's GPU by hand.

use catalog::share::View;
use leptos::prelude::*;

use crate::i18n::{t, Key};
use crate::state::use_ctx;

#[component]
pub fn Bench() -> impl IntoView {
    let ctx = use_ctx();
    view! {
        <section class="bench">
            <h1>{t(Key::NavBench)}</h1>
            <p data-testid="bench-status" data-state="unsupported">{t(Key::BenchUnavailable)}</p>
            <button class="link" on:click=move |_| ctx.update(true, |s| s.view = View::Compare)>{t(Key::BenchPickByHand)}</button>
        </section>
    }
}
