//! The one source of truth is the URL's query string. This module reads it into a
//! signal, writes every change back (typing replaces the history entry; changing view
//! or GPUs pushes one) and follows back and forward.
//!
//! Everything here is created by `App` and lives as long as the page: one memo per
//! concern (view, workload and filters, compared ids, language, theme, embedding, your
//! GPU), so a view re-renders only when what it reads changes, and the GPU details
//! fetched from `gpus.json`, owned here so that no view can dispose them.

use catalog::share::{self, AppState, Filters, Ignored, Lang, Theme, View};
use catalog::workload::Workload;
use catalog::Catalog;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::components::details::{self, Loaded};

#[derive(Clone, Copy)]
pub struct Ctx {
    state: RwSignal<AppState>,
    /// What the URL held that could not be read.
    pub ignored: RwSignal<Vec<Ignored>>,
    pub view: Memo<View>,
    pub inputs: Memo<(Workload, Filters)>,
    pub ids: Memo<Vec<String>>,
    lang: Memo<Lang>,
    theme: Memo<Theme>,
    pub embed: Memo<bool>,
    /// Your GPU as the link carries it (`my_gpu` adds the locally stored one).
    pub mine: Memo<Option<String>>,
    details: RwSignal<Loaded>,
    details_started: StoredValue<bool>,
}

impl Ctx {
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }
    pub fn theme(&self) -> Theme {
        self.theme.get()
    }

    /// One field of the state, tracked; wrap it in a `Memo` so that only its changes count.
    pub fn read<T>(&self, field: impl FnOnce(&AppState) -> T) -> T {
        self.state.with(field)
    }

    /// The whole state, tracked: only for what really depends on all of it (the share link).
    pub fn state(&self) -> AppState {
        self.state.get()
    }

    /// Applies a change and records it in the URL.
    pub fn update(&self, push: bool, change: impl FnOnce(&mut AppState)) {
        self.state.update(change);
        write_url(&self.state.get_untracked(), push);
    }

    /// The link to the state after `change`, following every change of the state.
    pub fn href(
        &self,
        change: impl Fn(&mut AppState) + Send + Sync + 'static,
    ) -> impl Fn() -> String + Send + Sync + 'static {
        let state = self.state;
        move || state.with(|s| link_for(&s.after(&change)))
    }

    /// Notes and sources of every GPU; the first call starts the one fetch.
    pub fn details(&self) -> RwSignal<Loaded> {
        if !self.details_started.get_value() {
            self.details_started.set_value(true);
            let signal = self.details;
            leptos::task::spawn_local(async move {
                signal.set(details::load().await);
            });
        }
        self.details
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

fn current_query() -> String {
    window().location().search().unwrap_or_default()
}

fn browser_zh() -> bool {
    window()
        .navigator()
        .language()
        .is_some_and(|l| l.to_ascii_lowercase().starts_with("zh"))
}

/// Whether the page opens in Chinese: the link says so, or says nothing and the browser
/// prefers Chinese.
pub fn opens_in_chinese() -> bool {
    let (state, _) = share::parse(&current_query(), Catalog::embedded());
    state
        .lang
        .unwrap_or(if browser_zh() { Lang::Zh } else { Lang::En })
        == Lang::Zh
}

/// Creates the state under the calling owner (`App`), and follows back and forward.
pub fn init() -> Ctx {
    let (state, ignored) = share::parse(&current_query(), Catalog::embedded());
    let system_dark = window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    let browser_zh = browser_zh();
    let state = RwSignal::new(state);
    // The language asked for; Chinese shows once its strings have arrived.
    let wanted = Memo::new(move |_| {
        state
            .with(|s| s.lang)
            .unwrap_or(if browser_zh { Lang::Zh } else { Lang::En })
    });
    let zh_ready = RwSignal::new(crate::i18n::zh_ready());
    Effect::new(move |_| {
        if wanted.get() == Lang::Zh && !zh_ready.get_untracked() {
            leptos::task::spawn_local(async move {
                match crate::i18n::load_zh().await {
                    Ok(()) => zh_ready.set(true),
                    Err(e) => leptos::logging::warn!("Chinese strings: {e}"),
                }
            });
        }
    });
    let ctx = Ctx {
        state,
        ignored: RwSignal::new(ignored),
        view: Memo::new(move |_| state.with(|s| s.view)),
        inputs: Memo::new(move |_| state.with(|s| (s.workload.clone(), s.filters.clone()))),
        ids: Memo::new(move |_| state.with(|s| s.ids.clone())),
        // Another module of the page may already hold the strings: then at once.
        lang: Memo::new(move |_| match wanted.get() {
            Lang::Zh if zh_ready.get() || crate::i18n::zh_from_page() => Lang::Zh,
            _ => Lang::En,
        }),
        theme: Memo::new(move |_| {
            state.with(|s| s.theme).unwrap_or(if system_dark {
                Theme::Dark
            } else {
                Theme::Light
            })
        }),
        embed: Memo::new(move |_| state.with(|s| s.embed)),
        mine: Memo::new(move |_| state.with(|s| s.mine.clone())),
        details: RwSignal::new(Loaded::Loading),
        details_started: StoredValue::new(false),
    };
    // Back and forward, and the other module's changes (`write_url` announces each one):
    // the URL is read again, and only what differs is set.
    let on_pop = Closure::<dyn Fn()>::new(move || {
        let (parsed, ignored) = share::parse(&current_query(), Catalog::embedded());
        if state.with_untracked(|s| *s != parsed) {
            state.set(parsed);
        }
        if ctx.ignored.with_untracked(|i| *i != ignored) {
            ctx.ignored.set(ignored);
        }
    });
    let _ = window().add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
    on_pop.forget();
    ctx
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

/// Records the state in the URL, and tells the page's other module (the views one holds
/// its own copy of the state, `crate::views`) with a `popstate` event, which it follows
/// as it follows back and forward.
fn write_url(state: &AppState, push: bool) {
    let url = link_for(state);
    if let Ok(history) = window().history() {
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
    if let Ok(event) = web_sys::PopStateEvent::new("popstate") {
        let _ = window().dispatch_event(&event);
    }
}
