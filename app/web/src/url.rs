//! The page's address, the one source of truth for what it shows: reading the query
//! string, writing a state back to it (the shell alone does), and the links made from a
//! state. Plain functions over `web_sys`, for every module of the page.

use catalog::share::{self, AppState, Lang};
use catalog::Catalog;
use wasm_bindgen::JsValue;

pub fn window() -> web_sys::Window {
    web_sys::window().expect("a page has a window")
}

pub fn document() -> web_sys::Document {
    window().document().expect("a page has a document")
}

pub fn current_query() -> String {
    window().location().search().unwrap_or_default()
}

pub fn browser_zh() -> bool {
    window()
        .navigator()
        .language()
        .is_some_and(|l| l.to_ascii_lowercase().starts_with("zh"))
}

/// The language a state asks for: the link's, else the browser's preference.
pub fn wanted_lang(state: &AppState) -> Lang {
    state
        .lang
        .unwrap_or(if browser_zh() { Lang::Zh } else { Lang::En })
}

/// Whether the page opens in Chinese: the link says so, or says nothing and the browser
/// prefers Chinese.
pub fn opens_in_chinese() -> bool {
    let (state, _) = share::parse(&current_query(), Catalog::embedded());
    wanted_lang(&state) == Lang::Zh
}

/// Whether the system asks for a dark page (the theme when the link gives none).
pub fn system_dark() -> bool {
    window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches())
}

/// The page's path: only the query string changes while the app runs, so it is read once
/// (every link on the page asks for it on every change).
fn page_path() -> &'static str {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| window().location().pathname().unwrap_or_default())
}

/// The catalog's date (its newest price month), computed once.
pub fn catalog_date() -> Option<&'static str> {
    static DATE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    DATE.get_or_init(|| Catalog::embedded().date().map(str::to_string))
        .as_deref()
}

/// The page's own address with this state: `index.html?…`, relative to where it is served.
pub fn link_for(state: &AppState) -> String {
    let query = share::print(state);
    let path = page_path().to_string();
    if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    }
}

pub fn absolute_link(state: &AppState) -> String {
    let origin = window().location().origin().unwrap_or_default();
    format!("{origin}{}", link_for(state))
}

/// Records the state in the URL (a new history entry when `push`). The shell is its
/// only caller: the views module never writes the URL.
pub fn write_url(state: &AppState, push: bool) {
    let url = link_for(state);
    if let Ok(history) = window().history() {
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}

/// A click the page should handle itself, in either module: the main button with no
/// modifier key (ctrl/cmd, shift or alt open the link's address as the browser does).
pub fn is_plain_click(ev: &web_sys::MouseEvent) -> bool {
    ev.button() == 0 && !(ev.ctrl_key() || ev.meta_key() || ev.shift_key() || ev.alt_key())
}

/// Key of the visitor's own GPU in localStorage.
pub const MINE_KEY: &str = "gpu-advisor:mine";

pub fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The visitor's own GPU: from the link when shared there, else from local storage.
pub fn my_gpu(state_mine: Option<String>) -> Option<String> {
    state_mine.or_else(|| storage()?.get_item(MINE_KEY).ok().flatten())
}
