//! The guide: the factors that decide a deep-learning GPU, each tied to the
//! engine's reasons that use it.

use leptos::prelude::*;

use crate::state::tv;
use web::i18n::ViewKey;

const SECTIONS: &[(ViewKey, ViewKey, ViewKey)] = &[
    (
        ViewKey::GuideMemoryTitle,
        ViewKey::GuideMemoryBody,
        ViewKey::GuideMemoryReasons,
    ),
    (
        ViewKey::GuidePerfTitle,
        ViewKey::GuidePerfBody,
        ViewKey::GuidePerfReasons,
    ),
    (
        ViewKey::GuideEcoTitle,
        ViewKey::GuideEcoBody,
        ViewKey::GuideEcoReasons,
    ),
    (
        ViewKey::GuideLinkTitle,
        ViewKey::GuideLinkBody,
        ViewKey::GuideLinkReasons,
    ),
    (
        ViewKey::GuideParallelTitle,
        ViewKey::GuideParallelBody,
        ViewKey::GuideParallelReasons,
    ),
    (
        ViewKey::GuideUseTitle,
        ViewKey::GuideUseBody,
        ViewKey::GuideUseReasons,
    ),
    (
        ViewKey::GuideRankTitle,
        ViewKey::GuideRankBody,
        ViewKey::GuideRankReasons,
    ),
];

#[component]
pub fn Guide() -> impl IntoView {
    view! {
        <article class="guide">
            <h1>{tv(ViewKey::GuideHeading)}</h1>
            <p>{tv(ViewKey::GuideIntro)}</p>
            {SECTIONS.iter().map(|(title, body, reasons)| view! {
                <section>
                    <h2>{tv(*title)}</h2>
                    <p>{tv(*body)}</p>
                    <p class="uses"><strong>{tv(ViewKey::GuideUsedBy)}</strong>" "{tv(*reasons)}</p>
                </section>
            }).collect_view()}
        </article>
    }
}
