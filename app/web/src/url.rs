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

/// The page's own file name, the last segment of its path: empty when it is served as a
/// directory (`…/docs/tool/`), else the file (`index.html`). Only the query string changes
/// while the app runs, so it is read once. Links built on it are relative, so they keep
/// to the page's host and path however the address was typed: under `host//docs/tool/`
/// (which nginx serves as `/docs/tool/`) an absolute path `//docs/tool/?…` would name the
/// host `docs`.
pub fn page_file() -> &'static str {
    static FILE: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    FILE.get_or_init(|| {
        let path = window().location().pathname().unwrap_or_default();
        path[path.rfind('/').map_or(0, |i| i + 1)..].to_string()
    })
}

/// The catalog's date (its newest price month), computed once.
pub fn catalog_date() -> Option<&'static str> {
    static DATE: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    DATE.get_or_init(|| Catalog::embedded().date().map(str::to_string))
        .as_deref()
}

/// The page's own address with this state, relative to the page (`page_file`): `?…` or
/// `index.html?…`, and `./` or `index.html` for the default state.
pub fn link_for(state: &AppState) -> String {
    link(page_file(), state)
}

/// The address of `state` relative to the page file `file` (`page_file`; empty for a
/// directory): every link either module writes, and the build's pre-rendered ones.
pub fn link(file: &str, state: &AppState) -> String {
    let query = share::print(state);
    match (file, query.is_empty()) {
        ("", true) => "./".into(),
        (file, true) => file.into(),
        (file, false) => format!("{file}?{query}"),
    }
}

/// The full address of this state, to share or embed: `link_for` resolved against the
/// page, with a doubled slash at the start of the path made single, so the link that
/// leaves the page is the canonical one.
pub fn absolute_link(state: &AppState) -> String {
    let here = window().location().href().unwrap_or_default();
    let Ok(url) = web_sys::Url::new_with_base(&link_for(state), &here) else {
        return link_for(state);
    };
    let path = url.pathname();
    let trimmed = path.trim_start_matches('/');
    if trimmed.len() + 1 < path.len() {
        url.set_pathname(&format!("/{trimmed}"));
    }
    url.href()
}

/// Records the state in the URL (a new history entry when `push`). The shell is its
/// only caller: the views module never writes the URL. The page's script writes it
/// (`__gpuAdvisorWriteUrl` in `index.html`), keeping within the history writes Safari
/// allows (100 in 30 seconds); a host page without that script is written directly.
pub fn write_url(state: &AppState, push: bool) {
    let url = link_for(state);
    let script = js_sys::Reflect::get(&window(), &"__gpuAdvisorWriteUrl".into())
        .ok()
        .and_then(|f| wasm_bindgen::JsCast::dyn_into::<js_sys::Function>(f).ok());
    if let Some(f) = script {
        if f.call2(&JsValue::NULL, &url.as_str().into(), &push.into())
            .is_ok()
        {
            return;
        }
    }
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
