//! The guide: the factors that decide a deep-learning GPU, each tied to the
//! engine's reasons that use it.

use leptos::prelude::*;

use crate::i18n::{tr, Key};
use crate::state::use_ctx;

const SECTIONS: &[(Key, Key, Key)] = &[
    (
        Key::GuideMemoryTitle,
        Key::GuideMemoryBody,
        Key::GuideMemoryReasons,
    ),
    (
        Key::GuidePerfTitle,
        Key::GuidePerfBody,
        Key::GuidePerfReasons,
    ),
    (Key::GuideEcoTitle, Key::GuideEcoBody, Key::GuideEcoReasons),
    (
        Key::GuideLinkTitle,
        Key::GuideLinkBody,
        Key::GuideLinkReasons,
    ),
    (
        Key::GuideParallelTitle,
        Key::GuideParallelBody,
        Key::GuideParallelReasons,
    ),
    (Key::GuideUseTitle, Key::GuideUseBody, Key::GuideUseReasons),
];

#[component]
pub fn Guide() -> impl IntoView {
    let ctx = use_ctx();
    let lang = move || ctx.lang();
    view! {
        <article class="guide">
            <h2>{move || tr(lang(), Key::GuideHeading)}</h2>
            <p>{move || tr(lang(), Key::GuideIntro)}</p>
            {SECTIONS.iter().map(|(title, body, reasons)| view! {
                <section>
                    <h3>{move || tr(lang(), *title)}</h3>
                    <p>{move || tr(lang(), *body)}</p>
                    <p class="uses"><strong>{move || tr(lang(), Key::GuideUsedBy)}</strong>" "{move || tr(lang(), *reasons)}</p>
                </section>
            }).collect_view()}
        </article>
    }
}
