//! The views module's state: the shell's state, handed over as a query string at mount
//! and after every change while one of these views is shown (`set_query`), read into a
//! signal. The views never change it themselves: a move goes to the shell as a `Nav`
//! token (`Ctx::go`), which applies it, writes the URL and hands the new state back.
//!
//! Everything here is created with the first view the module draws and lives as long
//! as the page: one memo per concern (workload and filters, compared ids, language, your
//! GPU), so a view re-renders only when what it reads changes, and the GPU details
//! fetched from `gpus.json`, owned here so that no view can dispose them.

use catalog::share::{self, AppState, Filters, Lang, Nav};
use catalog::workload::Workload;
use catalog::Catalog;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use crate::details::{self, Loaded};
use web::i18n::{tr, Key, ViewKey};
pub use web::url::link_for;
use web::url::wanted_lang;

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
    /// The shell's function that takes a move as a `Nav` token.
    nav: StoredValue<js_sys::Function, LocalStorage>,
}

impl Ctx {
    pub fn lang(&self) -> Lang {
        self.lang.get()
    }
    /// Makes a move: the shell applies it (one history entry) and hands the new state
    /// back through `set_query`.
    pub fn go(&self, nav: &Nav) {
        let token = JsValue::from_str(&nav.token());
        self.nav.with_value(|f| {
            let _ = f.call1(&JsValue::NULL, &token);
        });
    }

    /// Follows the shell's state; only what differs is set, so a view re-renders only
    /// when what it reads changed.
    pub fn set_query(&self, query: &str) {
        let (parsed, _) = share::parse(query, Catalog::embedded());
        if self.state.with_untracked(|s| *s != parsed) {
            self.state.set(parsed);
        }
    }

    /// The link to the state after `change`, following every change of the state.
    pub fn href(
        &self,
        change: impl Fn(&mut AppState) + Send + Sync + 'static,
    ) -> impl Fn() -> String + Send + Sync + 'static {
        let state = self.state;
        move || state.with(|s| link_for(&s.after(&change)))
    }

    /// The accuracy page opened from a card's "Add one" (`Nav::AddMeasurement`): the card's
    /// GPU, the workload's model when it is a preset, and the kind of measurement the card
    /// would show.
    pub fn card_to_measure(&self) -> (Option<String>, Option<String>, catalog::evidence::Kind) {
        use catalog::evidence::{kinds_for, Kind};
        use catalog::workload::ModelChoice;
        self.state.with_untracked(|s| {
            let gpu = s.ids.first().cloned();
            let model = match &s.workload.model {
                ModelChoice::Preset(id) => Some(id.clone()),
                ModelChoice::Custom(_) => None,
            };
            let family = catalog::rank::resolve_model(Catalog::embedded(), &s.workload).family;
            let kind = kinds_for(s.workload.task, family)
                .first()
                .copied()
                .unwrap_or(Kind::Decode);
            (gpu, model, kind)
        })
    }

    /// Fetches the notes and sources again after a failure (the GPU page's "Try again").
    pub fn retry_details(&self) {
        let signal = self.details;
        signal.set(Loaded::Loading);
        leptos::task::spawn_local(async move {
            signal.set(details::load().await);
        });
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

/// Creates the state under the calling owner (the first view drawn) from the shell's
/// state; `nav` is the shell's function that takes the views' moves.
pub fn init(state: AppState, nav: js_sys::Function) -> Ctx {
    let state = RwSignal::new(state);
    // The language asked for; Chinese shows once its strings have arrived.
    let wanted = Memo::new(move |_| state.with(wanted_lang));
    let zh_ready = RwSignal::new(web::i18n::zh_ready());
    Effect::new(move |_| {
        if wanted.get() == Lang::Zh && !zh_ready.get_untracked() {
            leptos::task::spawn_local(async move {
                match web::i18n::load_zh().await {
                    Ok(()) => zh_ready.set(true),
                    Err(e) => leptos::logging::warn!("Chinese strings: {e}"),
                }
            });
        }
    });
    Ctx {
        state,
        inputs: Memo::new(move |_| state.with(|s| (s.workload.clone(), s.filters.clone()))),
        ids: Memo::new(move |_| state.with(|s| s.ids.clone())),
        // The shell may already hold the strings: then at once.
        lang: Memo::new(move |_| match wanted.get() {
            Lang::Zh if zh_ready.get() || web::i18n::zh_from_page() => Lang::Zh,
            _ => Lang::En,
        }),
        mine: Memo::new(move |_| state.with(|s| s.mine.clone())),
        details: RwSignal::new(Loaded::Loading),
        details_started: StoredValue::new(false),
        nav: StoredValue::new_local(nav),
    }
}

/// A reactive translated text. Every call returns the same closure type, so all
/// translated text nodes share one instance of the rendering code.
pub fn t(key: Key) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let ctx = use_ctx();
    move || tr(ctx.lang(), key)
}

/// `t` for the views module's strings.
pub fn tv(key: ViewKey) -> impl Fn() -> &'static str + Copy + Send + Sync + 'static {
    let ctx = use_ctx();
    move || tr(ctx.lang(), key)
}
