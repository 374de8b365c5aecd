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

use crate::page::{answer, header, summary, Draw, Extent};
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
    // The cards' measured lines, as the page draws them once it has fetched the file.
    let evidence = catalog::evidence::Measurement::parse_all(catalog::data::MEASUREMENTS_JSON)
        .expect("measurements.json parses (checked by the catalog tests)");
    let d = Draw {
        lang: Lang::En,
        state: &state,
        path: "",
        evidence: Some(&evidence),
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
    crate::page::ranking(&mut h, &d, &ranking, None, &[], 0.0, Extent::Written(CARDS));
    h.close("div").close("div").close("div");
    h.finish()
}

/// `index.html` with the default view written in at its marker, and the views module's
/// version where its script names it.
pub fn write_into(index_html: &str) -> Result<String, String> {
    if !index_html.contains(MARKER) {
        return Err(format!("index.html has no {MARKER:?}"));
    }
    // The views module's version, which the page's script preloads it by on a link that
    // opens on another view (the addresses `web::load` asks for).
    Ok(index_html
        .replacen(MARKER, &default_view(), 1)
        .replace("VIEWS_MODULE_VERSION", web::VIEWS_VERSION))
}

/// The built page with every inline `<script>` moved into a file beside it
/// (`inline-<hash>.js`, its name changing with its text, less its lines that are only a
/// comment), and those files. A host's
/// Content-Security-Policy of `script-src 'self' 'wasm-unsafe-eval'` then runs the page:
/// the small script in `index.html` and the loader Trunk writes stay where they were, as
/// external scripts of the same kind (a classic one still runs before the body is parsed).
pub fn external_scripts(html: &str) -> (String, Vec<(String, String)>) {
    const CLOSE: &str = "</script>";
    let mut out = String::with_capacity(html.len());
    let mut files = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script") {
        let Some(tag_end) = rest[start..].find('>').map(|i| start + i + 1) else {
            break;
        };
        let Some(close) = rest[tag_end..].find(CLOSE).map(|i| tag_end + i) else {
            break;
        };
        let tag = &rest[start..tag_end];
        let body = &rest[tag_end..close];
        if tag.contains(" src=") || body.trim().is_empty() {
            out.push_str(&rest[..close + CLOSE.len()]);
        } else {
            // Lines that are only a comment say nothing to the browser: they stay in
            // index.html's source, not in what each visit downloads.
            let body: String = body
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            let name = format!("inline-{:016x}.js", fingerprint(&body));
            out.push_str(&rest[..start]);
            out.push_str(&tag[..tag.len() - 1]);
            out.push_str(&format!(" src=\"./{name}\">{CLOSE}"));
            files.push((name, body));
        }
        rest = &rest[close + CLOSE.len()..];
    }
    out.push_str(rest);
    (out, files)
}

/// FNV-1a of a script's text: its file's name changes with it, so a cache never serves
/// an old one with a new page.
fn fingerprint(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_scripts_move_into_files_and_others_stay() {
        let html = "<head><script>var a = 1;\n  // why a is 1\nvar b = 'http://x'; // kept</script><script type=\"module\">import x from './x.js';</script>\
                    <script src=\"./y.js\"></script><noscript>no</noscript></head>";
        let (out, files) = external_scripts(html);
        assert_eq!(files.len(), 2);
        assert_eq!(files[0].1, "var a = 1;\nvar b = 'http://x'; // kept\n");
        assert_eq!(files[1].1, "import x from './x.js';\n");
        assert!(files[0].0.starts_with("inline-") && files[0].0.ends_with(".js"));
        assert_ne!(files[0].0, files[1].0);
        assert_eq!(
            out,
            format!(
                "<head><script src=\"./{}\"></script><script type=\"module\" src=\"./{}\"></script>\
                 <script src=\"./y.js\"></script><noscript>no</noscript></head>",
                files[0].0, files[1].0
            )
        );
        // A page without inline scripts is left as it is.
        assert_eq!(external_scripts(&out).0, out);
        assert!(external_scripts(&out).1.is_empty());
    }

    #[test]
    fn the_page_names_the_views_module_version_it_preloads() {
        let index =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../index.html"))
                .expect("index.html");
        assert!(
            index.contains("?v=VIEWS_MODULE_VERSION"),
            "index.html preloads by the placeholder"
        );
        let out = write_into(&index).expect("index.html has its marker");
        assert!(!out.contains("VIEWS_MODULE_VERSION"));
        assert!(out.contains(&format!("?v={}", web::VIEWS_VERSION)));
    }
}
