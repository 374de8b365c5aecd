//! The default view written into `index.html` at build time, so the page reads before
//! the WebAssembly module has loaded: the header, the answer and the first ranked cards,
//! rendered natively by the same components and the same `catalog` ranking the app runs.
//! `start` removes it in the same task that mounts the app, so nothing flashes.
//!
//! A small script in `index.html` runs before the body is parsed: it sets the theme the
//! link or the system asks for, and marks links the written page does not answer (another
//! workload shows its boxes as a skeleton; another view, Chinese or an embed hides it).

use catalog::rank::rank;
use catalog::share::{AppState, Lang, View};
use catalog::Catalog;
use leptos::prelude::*;
use leptos::tachys::view::RenderHtml;

use crate::components::rank_card::RankCard;
use crate::i18n::{tr, Key};
use crate::pages::advise::{memory_total, summary};

/// Ranked cards written into the page: as many as a desktop's first screen shows.
pub const CARDS: usize = 3;

/// Where the written view goes in `index.html`.
pub const MARKER: &str = "<!-- prerendered default view -->";

/// The element the app removes when it starts.
pub const ID: &str = "prerendered";

fn header(lang: Lang) -> String {
    let link = |view: View| {
        let query = catalog::share::print(&AppState::default().after(|s| s.go_to(view)));
        if query.is_empty() {
            "./".to_string()
        } else {
            format!("?{query}")
        }
    };
    let nav = [
        (View::Advise, Key::NavAdvise),
        (View::Compare, Key::NavCompare),
        (View::Guide, Key::NavGuide),
        (View::Bench, Key::NavBench),
    ]
    .map(|(view, key)| {
        let current = view == View::Advise;
        view! {
            <a class="nav-link" class:active=current href=link(view)
                aria-current=current.then_some("page")>{tr(lang, key)}</a>
        }
    });
    view! {
        <header class="site-header">
            <a class="brand" href="./">
                <span class="brand-mark" aria-hidden="true"></span>
                <span class="brand-text">{tr(lang, Key::AppTitle)}</span>
            </a>
            <nav aria-label=tr(lang, Key::NavLabel)>{nav.into_iter().collect_view()}</nav>
            <div class="header-tools">
                <details class="menu">
                    <summary class="tool" title=tr(lang, Key::MenuLabel)>
                        <span class="menu-text">{tr(lang, Key::MenuShort)}</span>
                    </summary>
                </details>
            </div>
        </header>
    }
    .to_html()
}

/// The default link's page as HTML, in English.
pub fn default_view() -> String {
    let lang = Lang::En;
    let catalog = Catalog::embedded();
    let state = AppState::default();
    let workload = state.workload.clone();
    let ranking = rank(catalog, &workload, &state.filters);
    let owner = Owner::new();
    owner.with(|| {
        let answer = crate::components::answer::answer(lang, workload.mode, workload.priority, &ranking).to_html();
        let memory = memory_total(lang, &ranking).to_html();
        let grades = catalog::rank::grades(&ranking.items);
        let cards: String = ranking
            .items
            .iter()
            .zip(grades)
            .filter(|(i, _)| i.fits())
            .take(CARDS)
            .enumerate()
            .map(|(n, (item, grade))| {
                view! { <RankCard item=item.clone() position=n + 1 grade=grade vs_mine=None lang=lang mode=workload.mode open_more=None /> }
                    .to_html()
            })
            .collect();
        let form = view! {
            <section class="workload">
                <h2>{tr(lang, Key::FormHeading)}</h2>
                <p class="workload-summary"><span>{summary(lang, catalog, &workload)}</span></p>
                <p class="prerender-wait">{tr(lang, Key::PrerenderWait)}</p>
            </section>
        }
        .to_html();
        let title = view! { <h1 class="view-title">{tr(lang, Key::AdviseTitle)}</h1> }.to_html();
        let ranking_head = view! {
            <div class="ranking-head"><h2>{tr(lang, Key::RankHeading)}</h2></div>
        }
        .to_html();
        format!(
            "<div class=\"app\" id=\"{ID}\" aria-busy=\"true\">{}<div class=\"prerender-default\">{title}\
             <div class=\"advise\">{form}{answer}<section class=\"ranking\">{ranking_head}{memory}\
             <ol class=\"rank-list\">{cards}</ol></section></div></div></div>",
            header(lang)
        )
    })
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
        .filter(|(k, _)| crate::i18n::is_page_key(k))
        .collect();
    serde_json::to_string(&page).map_err(|e| e.to_string())
}
