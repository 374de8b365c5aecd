//! The one source of truth is the URL's query string. This module reads it into a
//! signal, writes every change back (typing replaces the history entry; changing view
//! or GPUs pushes one) and follows back and forward.

use catalog::share::{self, AppState, Ignored, Lang, Theme};
use catalog::Catalog;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

#[derive(Clone, Copy)]
pub struct Ctx {
    pub state: RwSignal<AppState>,
    /// What the URL held that could not be read.
    pub ignored: RwSignal<Vec<Ignored>>,
    pub system_dark: bool,
    pub browser_zh: bool,
}

impl Ctx {
    pub fn lang(&self) -> Lang {
        self.state
            .with(|s| s.lang)
            .unwrap_or(if self.browser_zh { Lang::Zh } else { Lang::En })
    }
    pub fn theme(&self) -> Theme {
        self.state.with(|s| s.theme).unwrap_or(if self.system_dark {
            Theme::Dark
        } else {
            Theme::Light
        })
    }

    /// Applies a change and records it in the URL.
    pub fn update(&self, push: bool, change: impl FnOnce(&mut AppState)) {
        self.state.update(change);
        write_url(&self.state.get_untracked(), push);
    }
}

pub fn use_ctx() -> Ctx {
    expect_context::<Ctx>()
}

fn current_query() -> String {
    window().location().search().unwrap_or_default()
}

pub fn init() -> Ctx {
    let (state, ignored) = share::parse(&current_query(), Catalog::embedded());
    let system_dark = window()
        .match_media("(prefers-color-scheme: dark)")
        .ok()
        .flatten()
        .is_some_and(|m| m.matches());
    let browser_zh = window()
        .navigator()
        .language()
        .is_some_and(|l| l.to_ascii_lowercase().starts_with("zh"));
    let ctx = Ctx {
        state: RwSignal::new(state),
        ignored: RwSignal::new(ignored),
        system_dark,
        browser_zh,
    };
    let on_pop = Closure::<dyn Fn()>::new(move || {
        let (state, ignored) = share::parse(&current_query(), Catalog::embedded());
        ctx.state.set(state);
        ctx.ignored.set(ignored);
    });
    window().set_onpopstate(Some(on_pop.as_ref().unchecked_ref()));
    on_pop.forget();
    ctx
}

/// The page's own address with this state: `index.html?…`, relative to where it is served.
pub fn link_for(state: &AppState) -> String {
    let query = share::print(state);
    let path = window().location().pathname().unwrap_or_default();
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

fn write_url(state: &AppState, push: bool) {
    let url = link_for(state);
    if let Ok(history) = window().history() {
        let _ = if push {
            history.push_state_with_url(&JsValue::NULL, "", Some(&url))
        } else {
            history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
        };
    }
}
