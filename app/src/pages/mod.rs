pub mod bench;
pub mod compare;
pub mod gpu;
pub mod guide;

use catalog::share::{Lang, View};

use crate::i18n::{tr, Key};

/// The document title for a view.
pub fn title(lang: Lang, view: View) -> String {
    let page = tr(
        lang,
        match view {
            View::Advise => Key::NavAdvise,
            View::Compare => Key::NavCompare,
            View::Gpu => Key::GpuHeading,
            View::Guide => Key::NavGuide,
            View::Bench => Key::NavBench,
        },
    );
    format!("{page} · {}", tr(lang, Key::AppTitle))
}
