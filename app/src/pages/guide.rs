//! The guide: the factors that decide a deep-learning GPU, each tied to the
//! engine's reasons that use it.

use leptos::prelude::*;

use crate::i18n::{t, Key};

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
    (
        Key::GuideRankTitle,
        Key::GuideRankBody,
        Key::GuideRankReasons,
    ),
];

#[component]
pub fn Guide() -> impl IntoView {
    view! {
        <article class="guide">
            <h1>{t(Key::GuideHeading)}</h1>
            <p>{t(Key::GuideIntro)}</p>
            {SECTIONS.iter().map(|(title, body, reasons)| view! {
                <section>
                    <h2>{t(*title)}</h2>
                    <p>{t(*body)}</p>
                    <p class="uses"><strong>{t(Key::GuideUsedBy)}</strong>" "{t(*reasons)}</p>
                </section>
            }).collect_view()}
        </article>
    }
}
