//! The default view written into `index.html` at build time, so the page reads before
//! the WebAssembly module has loaded: the header, the answer and the first ranked cards,
//! written natively by the same functions and the same `catalog` ranking the page's
//! module draws with (`crate::page`).
//! `start` removes it in the same task that mounts the app, so nothing flashes.
//!
//! A small script in `index.html` runs before the body is parsed: it sets the theme the
//! link or the system asks for, and marks links the written page does not answer (another
//! workload shows its boxes as a skeleton; another view, Chinese or an embed hides it).

use catalog::rank::rank;
use catalog::share::{AppState, Lang};
use catalog::Catalog;

use crate::page::{answer, header, summary, Draw};
use web::html::Html;
use web::i18n::{tr, Key};

/// Ranked cards written into the page: as many as a desktop's first screen shows.
pub const CARDS: usize = 3;

/// Where the written view goes in `index.html`.
pub const MARKER: &str = "<!-- prerendered default view -->";

/// The default link's page as HTML, in English: the same functions the page's module
/// draws with, over the same ranking.
pub fn default_view() -> String {
    let catalog = Catalog::embedded();
    let state = AppState::default();
    let d = Draw {
        lang: Lang::En,
        state: &state,
        path: "",
    };
    let ranking = rank(catalog, &state.workload, &state.filters);
    let mut h = Html::new();
    h.open(
        "div",
        &[
            ("class", "app"),
            ("id", web::ID_PRERENDERED),
            ("aria-busy", "true"),
        ],
    )
    .html(&header(&d, false, false))
    .open("div", &[("class", "prerender-default")])
    .el("h1", &[("class", "view-title")], d.t(Key::AdviseTitle))
    .open("div", &[("class", "advise")])
    .open("section", &[("class", "workload")])
    .el("h2", &[], d.t(Key::FormHeading))
    .open("p", &[("class", "workload-summary")])
    .el("span", &[], &summary(d.lang, catalog, &state.workload))
    .close("p")
    .el(
        "p",
        &[("class", "prerender-wait")],
        tr(d.lang, Key::PrerenderWait),
    )
    .close("section");
    answer(&mut h, &d, &ranking);
    crate::page::ranking(&mut h, &d, &ranking, None, &[], 0.0, Some(CARDS));
    h.close("div").close("div").close("div");
    h.finish()
}

/// `index.html` with the default view written in at its marker.
pub fn write_into(index_html: &str) -> Result<String, String> {
    if !index_html.contains(MARKER) {
        return Err(format!("index.html has no {MARKER:?}"));
    }
    Ok(index_html.replacen(MARKER, &default_view(), 1))
}

/// `zh.json` as the page fetches it: only the page's strings. The views and measurement
/// modules carry their own Chinese, so a page shown in Chinese need not download theirs.
pub fn page_strings(zh_json: &str) -> Result<String, String> {
    let all: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(zh_json).map_err(|e| format!("zh.json: {e}"))?;
    let page: serde_json::Map<String, serde_json::Value> = all
        .into_iter()
        .filter(|(k, _)| web::i18n::is_page_key(k))
        .collect();
    serde_json::to_string(&page).map_err(|e| e.to_string())
}
