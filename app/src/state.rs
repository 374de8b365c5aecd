//! The views module's state (`crate::views`): the URL's query string read into a
//! signal, every change written back (typing replaces the history entry; changing view
//! or GPUs pushes one), and back and forward followed, as are the page module's changes.
//!
//! Everything here is created with the first view the module draws and lives as long
//! as the page: one memo per concern (workload and filters, compared ids, language, your
//! GPU), so a view re-renders only when what it reads changes, and the GPU details
//! fetched from `gpus.json`, owned here so that no view can dispose them.

use catalog::share::{self, AppState, Filters, Lang};
use catalog::workload::Workload;
use catalog::Catalog;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::components::details::{self, Loaded};
pub use crate::url::link_for;
use crate::url::{current_query, wanted_lang, write_url};

#[derive(Clone, Copy)]
pub struct Ctx {
    state: RwSignal<AppState>,
    pub inputs: Memo<(Workload, Filters)>,
    pub ids: Memo<Vec<String>>,
    lang: Memo<Lang>,
    /// Your GPU as the link carries it (`my_gpu` adds the locally stored one).
    pub mine: Memo<Option<String>>,
    details: RwSignal<Loaded>,
    details_started: StoredValue<bool>,
}

impl Ctx {
    pub fn lang(&self) -> Lang {
        self.lang.get()
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

/// Creates the state under the calling owner (the first view drawn), and follows back and
/// forward.
pub fn init() -> Ctx {
    let (state, _) = share::parse(&current_query(), Catalog::embedded());
    let state = RwSignal::new(state);
    // The language asked for; Chinese shows once its strings have arrived.
    let wanted = Memo::new(move |_| state.with(wanted_lang));
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
        inputs: Memo::new(move |_| state.with(|s| (s.workload.clone(), s.filters.clone()))),
        ids: Memo::new(move |_| state.with(|s| s.ids.clone())),
        // Another module of the page may already hold the strings: then at once.
        lang: Memo::new(move |_| match wanted.get() {
            Lang::Zh if zh_ready.get() || crate::i18n::zh_from_page() => Lang::Zh,
            _ => Lang::En,
        }),
        mine: Memo::new(move |_| state.with(|s| s.mine.clone())),
        details: RwSignal::new(Loaded::Loading),
        details_started: StoredValue::new(false),
    };
    // Back and forward, and the other module's changes (`write_url` announces each one):
    // the URL is read again, and only what differs is set.
    let on_pop = Closure::<dyn Fn()>::new(move || {
        let (parsed, _) = share::parse(&current_query(), Catalog::embedded());
        if state.with_untracked(|s| *s != parsed) {
            state.set(parsed);
        }
    });
    let _ = window().add_event_listener_with_callback("popstate", on_pop.as_ref().unchecked_ref());
    on_pop.forget();
    ctx
}
