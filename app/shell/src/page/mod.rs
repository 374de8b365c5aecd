//! The page's own module: the header, the notice, the advise view and the footer,
//! written as HTML by plain functions (`advise`, `chrome`) and set into the page, with
//! one listener per kind of event on the page's root. What a first visit downloads is
//! the engine and this; the other views are the views module's (`crate::hosted`), which
//! this module loads the first time one is shown and hands an element to draw into.
//!
//! The state lives in `Page`: the link's `AppState` and what the page keeps beside it
//! (the notice, open cards, the share menu). Every change goes through `update`, which
//! records it in the URL and draws again; `Page::draw` compares what each part of the
//! page was drawn from with the state and redraws only the parts whose inputs changed,
//! keeping focus on the control the person was using. This is the only writer of the
//! URL: back and forward arrive as `popstate` events and are read from it; the views
//! module's moves arrive as `Nav` tokens (`on_nav`) and go through `update` like a
//! click here. While one of the views module's views is shown, every change of the state
//! is handed to it (`crate::hosted::set_query`); while advise is shown it gets nothing.

mod advise;
mod chrome;

pub use advise::{
    answer, card, form as workload_form, memory_total, ranking, Draw, Extent, Unfolded,
};
pub use chrome::{footer, header, notice};
pub use web::text::summary;

use std::cell::RefCell;
use std::rc::Rc;

use catalog::evidence::Measurement;

use catalog::rank::{rank, Ranking};
use catalog::share::{self, AppState, Filters, Ignored, Lang, Nav, Theme, View};
use catalog::workload::Workload;
use catalog::Catalog;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, HtmlInputElement, HtmlSelectElement, MouseEvent};

use advise::{Input, FIELDS};
use chrome::Copied;
use web::i18n::{self, fill, tr, Key};
use web::url::{self, document, window};

thread_local! {
    static PAGE: RefCell<Option<Page>> = const { RefCell::new(None) };
}

/// Runs `f` on the page, unless the page is busy drawing (an event the drawing itself
/// raised, such as focus moving): that event changes nothing.
fn with_page<T>(f: impl FnOnce(&mut Page) -> T) -> Option<T> {
    PAGE.with(|p| p.try_borrow_mut().ok().and_then(|mut p| p.as_mut().map(f)))
}

/// Applies a change to the state, records it in the URL (a new history entry when
/// `push`: changing view or GPUs; typing replaces the entry) and draws.
fn update(push: bool, change: impl FnOnce(&mut AppState)) {
    let Some(state) = with_page(|p| {
        change(&mut p.state);
        p.state.clone()
    }) else {
        return;
    };
    url::write_url(&state, push);
    draw();
}

fn draw() {
    with_page(Page::draw);
}

/// The ranking for one workload, kept while only other inputs change.
struct Ranked {
    inputs: (Workload, Filters),
    ranking: Ranking<'static>,
    /// How long ranking took, shown as `data-rank-ms` for the browser tests.
    ms: f64,
}

/// A view of the views module: shown at least once, and how drawing it went (`None`
/// while the module loads or draws).
struct Hosted {
    view: View,
    outcome: Option<Result<(), String>>,
}

/// What the answer and the ranking are drawn from: the workload, the filters, the
/// language, the visitor's GPU, and the cards and folded lists that are open.
type ResultsKey = (Workload, Filters, Lang, Option<String>, Vec<String>);

/// What each part of the page was last drawn from: a part is drawn again only when this
/// differs from what it would be drawn from now.
#[derive(Default)]
struct Drawn {
    header: Option<Lang>,
    nav: Option<(Lang, View)>,
    share: String,
    notice: String,
    advise: Option<Lang>,
    form: Option<(Lang, bool, bool, bool, bool)>,
    /// The state the form's values were set from.
    values: Option<AppState>,
    results: Option<ResultsKey>,
    /// Whether `results` were drawn only as far as the first frame needs
    /// (`Extent::FirstFrame`), the rest to follow once that frame is painted.
    partial: bool,
    /// Whether the pass under way drew the answer and the ranking, whose links then
    /// already point where their moves lead.
    results_now: bool,
    hosted: Vec<(View, Lang, bool)>,
    footer: Option<Lang>,
    title: String,
    /// The state last handed to the views module, as its query string.
    handed: Option<String>,
}

struct Page {
    state: AppState,
    /// What the link held that could not be read, until the person dismisses it.
    ignored: Vec<Ignored>,
    /// What the person asked for that failed (a download), until dismissed.
    failure: Option<String>,
    /// The GPUs whose card has "More" open: cards are drawn again when the ranking
    /// changes, so an open card stays open with its GPU, not at its place.
    open_more: Vec<String>,
    copied: Copied,
    show_embed: bool,
    hosted: Vec<Hosted>,
    ranked: Option<Ranked>,
    zh_loading: bool,
    evidence: Evidence,
    root: Element,
    drawn: Drawn,
}

/// The published measurements the cards show, fetched when advise is first drawn.
enum Evidence {
    NotAsked,
    Loading,
    Here(Rc<Vec<Measurement>>),
    /// Said in the console; the cards show no measured line.
    Failed,
}

/// Mounts the page. A page that opens in Chinese first fetches its strings, so it never
/// shows English for a moment; if they cannot be fetched it opens in English.
pub async fn start() {
    let zh_failure = if url::opens_in_chinese() {
        i18n::load_zh().await.err()
    } else {
        None
    };
    let (state, ignored) = share::parse(&url::current_query(), Catalog::embedded());
    let embed = state.embed;
    let Some(body) = document().body() else {
        return;
    };
    // The default view written into the page at build time gives way to the app in this
    // same task, so the browser never paints the two together. A card's "More" or a fold
    // the visitor opened there before the app ran stays open, now with its body.
    let mut open_more = Vec::new();
    if let Some(written) = document().get_element_by_id(web::ID_PRERENDERED) {
        while let Some(opened) = find(&written, "details[open]") {
            open_more.extend(open_key(&opened));
            let _ = opened.remove_attribute("open");
        }
        written.remove();
    }
    let skeleton = format!(
        "<div class=\"{}\">{}<div class=\"notice-slot\"></div><main id=\"main\" data-ready=\"false\"></main>{}</div>",
        if embed { "app embed" } else { "app" },
        // Embedded, the line that says what the widget answers and links to the full
        // view comes first, so a frame left at its first height still shows it.
        if embed { "<div class=\"open-full\"></div>" } else { "<header class=\"site-header\"></header>" },
        if embed { "" } else { "<footer class=\"site-footer\"></footer>" },
    );
    let _ = body.insert_adjacent_html("beforeend", &skeleton);
    let Some(root) = body.last_element_child() else {
        return;
    };
    listen(&root);
    PAGE.with(|p| {
        *p.borrow_mut() = Some(Page {
            state,
            ignored,
            failure: None,
            open_more,
            copied: Copied::NotYet,
            show_embed: false,
            hosted: Vec::new(),
            ranked: None,
            zh_loading: false,
            evidence: Evidence::NotAsked,
            root,
            drawn: Drawn::default(),
        })
    });
    match zh_failure {
        Some(e) => zh_failed(&e),
        None => draw(),
    }
    if embed {
        report_height();
    }
}

/// The Chinese strings could not be fetched: the page says why and stays in English.
fn zh_failed(why: &str) {
    warn(&format!("Chinese strings: {why}"));
    let message = fill(
        tr(Lang::En, Key::NoticeZhFailed),
        &[("why", why.to_string())],
    );
    with_page(|p| p.failure = Some(message));
    draw();
}

fn warn(message: &str) {
    web_sys::console::warn_1(&message.into());
}

fn find(root: &Element, selector: &str) -> Option<Element> {
    root.query_selector(selector).ok().flatten()
}

/// What identifies a control across a redraw: its id, test id, action (a preset chip) or
/// link move, inside the card of its GPU.
fn focus_key(el: &Element) -> Option<String> {
    let own = if !el.id().is_empty() {
        format!("#{}", el.id())
    } else if let Some(t) = el.get_attribute("data-testid") {
        format!("[data-testid=\"{t}\"]")
    } else if let Some(a) = el.get_attribute("data-act") {
        format!("[data-act=\"{a}\"]")
    } else {
        format!("[data-nav=\"{}\"]", el.get_attribute("data-nav")?)
    };
    let card = el
        .closest("[data-gpu-id]")
        .ok()
        .flatten()
        .and_then(|c| c.get_attribute("data-gpu-id"))
        .map(|id| format!("[data-gpu-id=\"{id}\"] "));
    Some(card.unwrap_or_default() + &own)
}

/// Sets `el`'s inner HTML (or makes `el` the element `html` describes when `outer`,
/// keeping the nodes that stay: `web::html::morph`); the control that had focus inside
/// it gets focus back in the new HTML.
fn set_html(el: &Element, html: &str, outer: bool) {
    let active = document().active_element().filter(|a| el.contains(Some(a)));
    let key = active.as_ref().and_then(focus_key);
    let parent = el.parent_element();
    if outer {
        web::html::morph(el, html);
        if active.as_ref().is_some_and(|a| a.is_connected()) {
            return;
        }
    } else {
        el.set_inner_html(html);
    }
    let scope = if outer { parent } else { Some(el.clone()) };
    if let (Some(key), Some(scope)) = (key, scope) {
        if let Some(e) = find(&scope, &key).and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
            let _ = e.focus();
        }
    }
}

impl Page {
    /// The language shown: Chinese once its strings are here (fetched on first use).
    fn lang(&mut self) -> Lang {
        if url::wanted_lang(&self.state) == Lang::En {
            return Lang::En;
        }
        if i18n::zh_from_page() {
            return Lang::Zh;
        }
        if !self.zh_loading {
            self.zh_loading = true;
            wasm_bindgen_futures::spawn_local(async {
                match i18n::load_zh().await {
                    Ok(()) => draw(),
                    Err(e) => warn(&format!("Chinese strings: {e}")),
                }
            });
        }
        Lang::En
    }

    /// The published measurements, once here; the first call fetches them, and the
    /// ranking is drawn again when they arrive.
    fn evidence(&mut self) -> Option<Rc<Vec<Measurement>>> {
        match &self.evidence {
            Evidence::Here(rows) => return Some(rows.clone()),
            Evidence::Loading | Evidence::Failed => return None,
            Evidence::NotAsked => {}
        }
        self.evidence = Evidence::Loading;
        wasm_bindgen_futures::spawn_local(async {
            let loaded = web::load::measurements(web::load::Measurements::ForCards).await;
            if let Err(e) = &loaded {
                warn(&format!("published measurements: {e}"));
            }
            with_page(|p| {
                p.evidence = loaded.map_or(Evidence::Failed, Evidence::Here);
                p.drawn.results = None;
            });
            draw();
        });
        None
    }

    fn theme(&self) -> Theme {
        self.state.theme.unwrap_or(if url::system_dark() {
            Theme::Dark
        } else {
            Theme::Light
        })
    }

    /// Records a card's "More" (by GPU) or a folded list (by key) as open or closed;
    /// whether that changed anything.
    fn set_open(&mut self, id: &str, open: bool) -> bool {
        if open == self.open_more.iter().any(|x| x == id) {
            return false;
        }
        if open {
            self.open_more.push(id.to_string());
        } else {
            self.open_more.retain(|x| x != id);
        }
        true
    }

    /// Draws every part of the page whose inputs changed since it was last drawn.
    fn draw(&mut self) {
        let lang = self.lang();
        let theme = self.theme();
        let view = self.state.view;
        // The theme and language live on <html> so that the page background follows them too.
        if let Some(html) = document().document_element() {
            // Set only when they change: a set attribute on <html> restyles the page.
            let set = |name: &str, value: &str| {
                if html.get_attribute(name).as_deref() != Some(value) {
                    let _ = html.set_attribute(name, value);
                }
            };
            set("data-theme", theme.as_str());
            set("lang", if lang == Lang::Zh { "zh-CN" } else { "en" });
        }
        let title = web::title(lang, view);
        if title != self.drawn.title {
            document().set_title(&title);
            self.drawn.title = title;
        }
        let root = self.root.clone();
        let state = self.state.clone();
        let evidence = (view == View::Advise).then(|| self.evidence()).flatten();
        let d = Draw {
            lang,
            state: &state,
            path: url::page_file(),
            evidence: evidence.as_deref().map(Vec::as_slice),
        };

        self.draw_header(&root, &d, theme);
        let mut notice = chrome::notice(&d, &self.ignored);
        if let Some(why) = &self.failure {
            notice.push_str(&chrome::failure(&d, why));
        }
        if notice != self.drawn.notice {
            if let Some(slot) = find(&root, ".notice-slot") {
                set_html(&slot, &notice, false);
            }
            self.drawn.notice = notice;
        }
        self.drawn.results_now = false;
        if let Some(main) = find(&root, "#main") {
            self.draw_views(&main, &d);
        }
        if view != View::Advise {
            let query = share::print(&state);
            if self.drawn.handed.as_deref() != Some(query.as_str()) {
                crate::hosted::set_query(&state);
                self.drawn.handed = Some(query);
            }
        }
        self.draw_footer(&root, &d);
        // Links drawn before the state changed point where their move now leads; those
        // of the answer and the ranking just drawn are left out (about a hundred links).
        let links = if self.drawn.results_now {
            "a[data-nav]:not(section.answer a, section.ranking a)"
        } else {
            "a[data-nav]"
        };
        if let Ok(links) = root.query_selector_all(links) {
            for i in 0..links.length() {
                let Some(a) = links.item(i).and_then(|n| n.dyn_into::<Element>().ok()) else {
                    continue;
                };
                if let Some(nav) = a
                    .get_attribute("data-nav")
                    .and_then(|t| Nav::from_token(&t))
                {
                    let href = d.href(&nav);
                    if a.get_attribute("href").as_deref() != Some(href.as_str()) {
                        let _ = a.set_attribute("href", &href);
                    }
                }
            }
        }
    }

    /// The header: drawn per language; its links' marks per view; the theme switch's label;
    /// the share menu whenever what it shows changes.
    fn draw_header(&mut self, root: &Element, d: &Draw, theme: Theme) {
        let (lang, view, state) = (d.lang, d.state.view, d.state);
        if let Some(header) = find(root, ".site-header") {
            if self.drawn.header != Some(lang) {
                // The menu stays open across a language switch made from it.
                let open = find(&header, "details.menu").is_some_and(|m| m.has_attribute("open"));
                set_html(&header, &chrome::header(d, true, open), true);
                self.drawn.header = Some(lang);
                self.drawn.nav = Some((lang, view));
                self.drawn.share.clear();
            }
            if self.drawn.nav != Some((lang, view)) {
                if let Some(nav) = find(root, ".site-header nav") {
                    set_html(&nav, &chrome::nav(d), false);
                }
                self.drawn.nav = Some((lang, view));
            }
            if let Some(toggle) = find(root, "[data-testid=\"theme-toggle\"]") {
                let label = chrome::theme_label(lang, theme);
                if toggle.text_content().as_deref() != Some(label) {
                    toggle.set_text_content(Some(label));
                }
            }
            let embeddable = matches!(view, View::Advise | View::Compare);
            let snippet_link = (self.show_embed && embeddable)
                .then(|| url::absolute_link(&state.after(|s| s.embed = true)));
            let share = chrome::share_bar(
                lang,
                &self.copied,
                has_share_sheet(),
                embeddable,
                snippet_link.as_deref(),
            );
            if share != self.drawn.share {
                if let Some(bar) = find(root, ".share-bar") {
                    set_html(&bar, &share, false);
                }
                self.drawn.share = share;
            }
        }
    }

    /// The views in `main`: advise drawn here, the others by the views module, and
    /// `main`'s readiness.
    fn draw_views(&mut self, main: &Element, d: &Draw) {
        let (lang, view) = (d.lang, d.state.view);
        // A view is created the first time it is shown and then kept, hidden while
        // another view is shown, so that going back and forth costs a redraw at most.
        let slot = |v: View| find(main, &format!(".view[data-view=\"{}\"]", v.as_str()));
        if slot(view).is_none() {
            let inner = if view == View::Advise {
                ""
            } else {
                "<div class=\"view-status\"></div><div class=\"view-host\"></div>"
            };
            let _ = main.insert_adjacent_html(
                "beforeend",
                &format!(
                    "<div class=\"view\" data-view=\"{}\">{inner}</div>",
                    view.as_str()
                ),
            );
            if view != View::Advise {
                self.hosted.push(Hosted {
                    view,
                    outcome: None,
                });
                if let Some(host) = slot(view).and_then(|s| find(&s, ".view-host")) {
                    mount_hosted(view, host, d.state);
                    self.drawn.handed = Some(share::print(d.state));
                }
            }
        }
        for v in View::ALL {
            if let Some(s) = slot(*v) {
                let hidden = *v != view;
                if s.has_attribute("hidden") != hidden {
                    let _ = s.toggle_attribute_with_force("hidden", hidden);
                }
            }
        }
        if let Some(advise) = slot(View::Advise) {
            self.draw_advise(&advise, d);
        }
        for h in &self.hosted {
            let key = (h.view, lang, h.outcome.is_some());
            if !self.drawn.hosted.contains(&key) {
                if let Some(status) = slot(h.view).and_then(|s| find(&s, ".view-status")) {
                    set_html(
                        &status,
                        &chrome::hosted_status(lang, h.outcome.as_ref()),
                        false,
                    );
                }
                self.drawn.hosted.retain(|(v, ..)| *v != h.view);
                self.drawn.hosted.push(key);
            }
        }
        // Ready once the view shown can be read: advise at once, another view once the
        // views module has drawn it or said why it could not.
        let ready = view == View::Advise
            || self
                .hosted
                .iter()
                .any(|h| h.view == view && h.outcome.is_some());
        let ready = if ready { "true" } else { "false" };
        if main.get_attribute("data-ready").as_deref() != Some(ready) {
            let _ = main.set_attribute("data-ready", ready);
        }
    }

    fn draw_footer(&mut self, root: &Element, d: &Draw) {
        let (lang, state) = (d.lang, d.state);
        if let Some(footer) = find(root, ".site-footer") {
            if self.drawn.footer != Some(lang) {
                set_html(
                    &footer,
                    &chrome::footer(lang, url::catalog_date().unwrap_or_default()),
                    true,
                );
                self.drawn.footer = Some(lang);
            }
        }
        if let Some(line) = find(root, ".open-full") {
            let href = url::absolute_link(&state.after(|s| s.embed = false));
            let what = match state.view {
                View::Advise => summary(lang, Catalog::embedded(), &state.workload),
                View::Compare | View::Gpu => state
                    .ids
                    .iter()
                    .filter_map(|id| Catalog::embedded().gpu(id))
                    .map(|g| g.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" · "),
                View::Guide | View::Bench | View::Accuracy => String::new(),
            };
            set_html(&line, &chrome::open_full(lang, &what, &href), true);
        }
    }

    /// The advise view: its frame per language, the form (drawn again when its shape
    /// changes, else its values refreshed), and the answer and ranking when the workload,
    /// filters, language or the visitor's GPU change.
    fn draw_advise(&mut self, slot: &Element, d: &Draw) {
        let lang = d.lang;
        if self.drawn.advise != Some(lang) {
            slot.set_inner_html(&advise::frame(d));
            self.drawn.advise = Some(lang);
            self.drawn.form = None;
            self.drawn.results = None;
        }
        let Some(form) = find(slot, "section.workload") else {
            return;
        };
        let shape = advise::form_shape(lang, d.state);
        if self.drawn.form != Some(shape) {
            // The person's unfolding of the form outlives its redrawing.
            let unfolded = advise::Unfolded {
                editing: find(&form, "#edit-workload")
                    .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
                    .is_some_and(|e| e.checked()),
                more_open: find(&form, "details.more").is_some_and(|e| e.has_attribute("open")),
            };
            set_html(&form, &advise::form(d, unfolded), false);
            self.drawn.form = Some(shape);
        } else if let Some(old) = &self.drawn.values {
            refresh_values(old, d.state);
        }
        if self.drawn.values.as_ref() != Some(d.state) {
            if let Some(span) = find(&form, ".workload-summary > span") {
                span.set_text_content(Some(&summary(lang, Catalog::embedded(), &d.state.workload)));
            }
            if let Some(p) = find(&form, "p.assumptions") {
                let text = advise::assumptions(lang, d.state);
                if p.text_content().as_deref() != Some(text) {
                    p.set_text_content(Some(text));
                }
            }
            self.drawn.values = Some(d.state.clone());
        }

        let mine = url::my_gpu(d.state.mine.clone());
        let key = (
            d.state.workload.clone(),
            d.state.filters.clone(),
            lang,
            mine.clone(),
            self.open_more.clone(),
        );
        // After a change, the answer and the first cards are drawn at once and the rest
        // of the ranking once that frame is painted, so the change shows in the next
        // frame; the first draw, and one after a reset, is whole.
        let extent = match &self.drawn.results {
            Some(drawn) if *drawn == key && !self.drawn.partial => return,
            Some(drawn) if *drawn == key => Extent::All,
            Some(_) => Extent::FirstFrame,
            None => Extent::All,
        };
        let rest = self.drawn.results.as_ref() == Some(&key);
        let inputs = (d.state.workload.clone(), d.state.filters.clone());
        if self.ranked.as_ref().is_none_or(|r| r.inputs != inputs) {
            let clock = window().performance();
            let start = clock.as_ref().map(|p| p.now());
            let ranking = rank(Catalog::embedded(), &inputs.0, &inputs.1);
            let ms = clock.zip(start).map(|(p, s)| p.now() - s).unwrap_or(0.0);
            self.ranked = Some(Ranked {
                inputs,
                ranking,
                ms,
            });
        }
        let Some(ranked) = &self.ranked else { return };
        // The answer was drawn with the first cards.
        if !rest {
            let mut h = web::html::Html::new();
            answer(&mut h, d, &ranked.ranking);
            if let Some(el) = find(slot, "section.answer") {
                set_html(&el, &h.finish(), true);
            }
        }
        let mut h = web::html::Html::new();
        advise::ranking(
            &mut h,
            d,
            &ranked.ranking,
            mine.as_deref(),
            &self.open_more,
            ranked.ms,
            extent,
        );
        if let Some(el) = find(slot, "section.ranking") {
            set_html(&el, &h.finish(), true);
        }
        self.drawn.results = Some(key);
        self.drawn.partial = extent == Extent::FirstFrame;
        self.drawn.results_now = true;
        if self.drawn.partial {
            rest_after_paint();
        }
    }
}

/// What the rest of a partly drawn ranking waits for (`rest_after_paint`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Waiting {
    Nothing,
    /// The animation frame that paints the first cards.
    Frame,
    /// An idle moment after it.
    Idle,
}

thread_local! {
    static REST: std::cell::Cell<(Waiting, bool)> = const { std::cell::Cell::new((Waiting::Nothing, false)) };
    static REST_STEP: js_sys::Function = Closure::<dyn Fn()>::new(rest_step)
        .into_js_value()
        .unchecked_into();
}

/// Draws the rest of a partly drawn ranking once the frame with its first cards is
/// painted and the browser is idle: an animation frame's callback runs before the frame
/// is drawn, and an idle callback it asks for runs after, once input and other waiting
/// tasks have run (a timer where the browser has none, as Safari). A change drawn in the
/// meantime waits for its own frame.
fn rest_after_paint() {
    let (waiting, _) = REST.get();
    REST.set((waiting, true));
    if waiting == Waiting::Nothing {
        REST.set((Waiting::Frame, true));
        REST_STEP.with(|f| window().request_animation_frame(f).ok());
    }
}

fn rest_step() {
    let (waiting, changed) = REST.get();
    match waiting {
        Waiting::Frame => {
            REST.set((Waiting::Idle, false));
            REST_STEP.with(|f| {
                if window().request_idle_callback(f).is_err() {
                    let _ = window().set_timeout_with_callback(f);
                }
            });
        }
        Waiting::Idle if changed => {
            REST.set((Waiting::Frame, false));
            REST_STEP.with(|f| window().request_animation_frame(f).ok());
        }
        Waiting::Idle | Waiting::Nothing => {
            REST.set((Waiting::Nothing, false));
            draw();
        }
    }
}

/// Sets each field whose value in the state changed, leaving alone the ones that did
/// not, so a field being typed in keeps what the person typed (`0` on the way to `0.5`).
fn refresh_values(old: &AppState, new: &AppState) {
    for f in FIELDS {
        // By id from the document (a table lookup) rather than a selector run in the form.
        let Some(el) = document().get_element_by_id(f.id) else {
            continue;
        };
        match &f.input {
            Input::Select { get, .. } => {
                let value = get(new);
                if value != get(old) {
                    if let Ok(select) = el.dyn_into::<HtmlSelectElement>() {
                        select.set_value(&value);
                    }
                }
            }
            Input::Number { get, .. } => {
                let value = get(new);
                if value != get(old) {
                    if let Ok(input) = el.dyn_into::<HtmlInputElement>() {
                        // A field already showing the number (the one being typed in)
                        // keeps its text, its caret and its layout.
                        if share::parse_number(&input.value()) != value {
                            input.set_value(&advise::number_text(value));
                        }
                    }
                }
            }
        }
    }
}

fn has_share_sheet() -> bool {
    js_sys::Reflect::has(&window().navigator(), &JsValue::from_str("share")).unwrap_or(false)
}

/// Loads the views module (once for the page) and has it draw `view` into `host` from
/// `state`; once drawn, the page is drawn again, which hands the module any change made
/// while it loaded.
fn mount_hosted(view: View, host: Element, state: &AppState) {
    let state = state.clone();
    wasm_bindgen_futures::spawn_local(async move {
        let outcome = crate::hosted::draw_into(view, host, &state, &nav_function())
            .await
            .map_err(|e| e.to_string());
        with_page(|p| {
            if let Some(h) = p.hosted.iter_mut().find(|h| h.view == view) {
                h.outcome = Some(outcome);
            }
        });
        draw();
    });
}

fn target(ev: &Event) -> Option<Element> {
    ev.target().and_then(|t| t.dyn_into::<Element>().ok())
}

fn closest(el: &Element, selector: &str) -> Option<Element> {
    el.closest(selector).ok().flatten()
}

/// The GPU of the card an element is in.
fn card_gpu(el: &Element) -> Option<String> {
    closest(el, "[data-gpu-id]")?.get_attribute("data-gpu-id")
}

/// What the page records an opened `<details>` under (`Page::set_open`): a card's "More"
/// by its GPU, a folded list by its `data-fold` key.
fn open_key(el: &Element) -> Option<String> {
    if el.get_attribute("data-testid").as_deref() == Some("card-more") {
        card_gpu(el)
    } else {
        el.get_attribute("data-fold")
    }
}

/// One listener per kind of event, on the page's root. Plain `Closure<dyn Fn>` rather
/// than gloo-events: a redraw that moves focus raises events on the same listener while
/// it runs (a field's `change` as its form is drawn again), which gloo's `FnMut`
/// callbacks refuse ("closure invoked recursively").
fn listen(root: &Element) {
    let on = |kind: &str, capture: bool, f: fn(Event)| {
        let closure = Closure::<dyn Fn(Event)>::new(f);
        let _ = root.add_event_listener_with_callback_and_bool(
            kind,
            closure.as_ref().unchecked_ref(),
            capture,
        );
        closure.forget();
    };
    on("click", false, on_click);
    on("input", false, on_input);
    on("change", false, on_change);
    // "toggle" does not bubble: heard on its way down.
    on("toggle", true, on_toggle);
    on("focusin", false, |ev| {
        if let Some(input) = target(&ev)
            .filter(|t| t.id() == "copy-fallback")
            .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
        {
            input.select();
        }
    });
    let pop = Closure::<dyn Fn()>::new(on_popstate);
    let _ = window().add_event_listener_with_callback("popstate", pop.as_ref().unchecked_ref());
    pop.forget();
}

/// Back and forward: the URL is read again, and the page drawn if it differs.
fn on_popstate() {
    let (parsed, ignored) = share::parse(&url::current_query(), Catalog::embedded());
    let changed = with_page(|p| {
        let changed = p.state != parsed || p.ignored != ignored;
        p.state = parsed;
        p.ignored = ignored;
        changed
    });
    if changed == Some(true) {
        draw();
    }
}

/// The function the views module calls with its moves (`Nav` tokens): one for the page.
fn nav_function() -> js_sys::Function {
    thread_local! {
        static NAV: js_sys::Function = Closure::<dyn Fn(String)>::new(on_nav)
            .into_js_value()
            .unchecked_into();
    }
    NAV.with(Clone::clone)
}

/// A move made in the views module: applied as a click on one of the page's links.
fn on_nav(token: String) {
    if let Some(nav) = Nav::from_token(&token) {
        update(true, |s| s.apply(&nav));
    }
}

fn on_click(ev: Event) {
    let Some(el) = target(&ev) else { return };
    if let Some(link) = closest(&el, "a[data-nav]") {
        let plain = ev.dyn_ref::<MouseEvent>().is_some_and(url::is_plain_click);
        if let (true, Some(nav)) = (
            plain,
            link.get_attribute("data-nav")
                .and_then(|t| Nav::from_token(&t)),
        ) {
            ev.prevent_default();
            update(true, |s| s.apply(&nav));
        }
        return;
    }
    let Some(act) = closest(&el, "[data-act]").and_then(|b| b.get_attribute("data-act")) else {
        return;
    };
    match act.as_str() {
        "lang" => {
            let Some(next) = with_page(|p| {
                if p.lang() == Lang::Zh {
                    Lang::En
                } else {
                    Lang::Zh
                }
            }) else {
                return;
            };
            // Chinese is recorded once its strings are here, so every module of the page
            // switches at once (`i18n::zh_from_page`).
            // If they cannot be fetched, the page says so and stays in English.
            wasm_bindgen_futures::spawn_local(async move {
                if next == Lang::Zh {
                    if let Err(e) = i18n::load_zh().await {
                        zh_failed(&e);
                        return;
                    }
                }
                update(false, |s| s.lang = Some(next));
            });
        }
        "theme" => {
            let Some(next) = with_page(|p| {
                if p.theme() == Theme::Dark {
                    Theme::Light
                } else {
                    Theme::Dark
                }
            }) else {
                return;
            };
            update(false, |s| s.theme = Some(next));
        }
        "skip" => {
            // The answer takes focus without the address gaining a fragment.
            ev.prevent_default();
            if let Some(answer) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id("answer"))
                .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
            {
                let _ = answer.focus();
                answer.scroll_into_view();
            }
        }
        "copy" => copy_link(),
        "copy-snippet" => copy_snippet(),
        "share" => share_sheet(),
        "embed" => {
            with_page(|p| p.show_embed = !p.show_embed);
            draw();
        }
        "dismiss" => {
            with_page(|p| p.ignored.clear());
            draw();
        }
        "dismiss-failure" => {
            with_page(|p| p.failure = None);
            draw();
        }
        "export-json" => save_export(true),
        "export-csv" => save_export(false),
        other => {
            if let Some(i) = other.strip_prefix("preset:").and_then(|i| i.parse().ok()) {
                apply_preset(i);
            } else if let Some(id) = other.strip_prefix("copy-command:") {
                copy_command(id);
            } else if let Some(id) = other.strip_prefix("more:") {
                // A card's "More" is written only while open, so the page opens and
                // closes it rather than the browser.
                ev.prevent_default();
                with_page(|p| {
                    let open = !p.open_more.iter().any(|x| x == id);
                    p.set_open(id, open)
                });
                draw();
            }
        }
    }
}

/// A typed number: set when the link's parameter would read it (`share::Param::takes`:
/// in its range, whole where it must be), cleared when the field is empty; otherwise the
/// field is marked invalid, with a line naming the range, and the ranking keeps the last
/// valid value until the person types one.
fn on_input(ev: Event) {
    let Some(el) = target(&ev) else { return };
    let Some(Input::Number { param, set, .. }) =
        FIELDS.iter().find(|f| f.id == el.id()).map(|f| &f.input)
    else {
        return;
    };
    let Some(param) = share::param(param) else {
        return;
    };
    let Ok(input) = el.dyn_into::<HtmlInputElement>() else {
        return;
    };
    // A number input reports text that is no number as empty, and says so in `badInput`.
    let typed = if input.validity().bad_input() {
        None
    } else {
        typed(&input.value(), Some(param))
    };
    let why = typed.is_none().then(|| {
        let (low, high) = param.range.unwrap_or_default();
        let lang = with_page(|p| p.lang()).unwrap_or(Lang::En);
        let key = if param.whole {
            Key::FormOutOfRangeWhole
        } else {
            Key::FormOutOfRange
        };
        fill(tr(lang, key), &[("min", bound(low)), ("max", bound(high))])
    });
    mark_invalid(&input, why.as_deref());
    if let Some(value) = typed {
        update(false, |s| set(s, value));
    }
}

/// What a number field's text sets: a number the link's parameter takes, or nothing
/// (`Some(None)`) when the field is empty; `None`, leaving the state alone, otherwise.
fn typed(text: &str, param: Option<&share::Param>) -> Option<Option<f64>> {
    if text.trim().is_empty() {
        return Some(None);
    }
    let x = share::parse_number(text)?;
    param?.takes(x).then_some(Some(x))
}

/// An end of a field's range as its line names it: `1`, `4,096`, `0.01`.
fn bound(x: f64) -> String {
    if x.fract() != 0.0 {
        catalog::decimal::shortest(x)
    } else {
        i18n::whole(x)
    }
}

/// Marks a number field invalid with the reason in its line (`why`), or valid again.
fn mark_invalid(input: &HtmlInputElement, why: Option<&str>) {
    let message = document().get_element_by_id(&format!("{}-error", input.id()));
    match why {
        Some(why) => {
            let _ = input.set_attribute("aria-invalid", "true");
            if let Some(m) = message {
                m.set_text_content(Some(why));
                m.remove_attribute("hidden").ok();
            }
        }
        None => {
            let _ = input.remove_attribute("aria-invalid");
            if let Some(m) = message {
                let _ = m.set_attribute("hidden", "");
            }
        }
    }
}

fn on_change(ev: Event) {
    let Some(el) = target(&ev) else { return };
    if el.id() == "f-preset" {
        if let Some(i) = el
            .dyn_ref::<HtmlSelectElement>()
            .and_then(|s| s.value().parse().ok())
        {
            apply_preset(i);
        }
        return;
    }
    if el.get_attribute("data-testid").as_deref() == Some("your-price") {
        let (Some(id), Ok(input)) = (card_gpu(&el), el.dyn_into::<HtmlInputElement>()) else {
            return;
        };
        if let Some(value) = typed(&input.value(), share::param("price")) {
            update(false, |s| s.workload.set_your_price(&id, value));
        }
        return;
    }
    let Some(Input::Select { set, .. }) = FIELDS.iter().find(|f| f.id == el.id()).map(|f| &f.input)
    else {
        return;
    };
    if let Ok(select) = el.dyn_into::<HtmlSelectElement>() {
        let token = select.value();
        update(false, |s| set(s, &token));
    }
}

/// A card's "More" opened or closed: remembered with its GPU; a folded list of the
/// ranking, by its `data-fold` key, so a redraw keeps either as the person left it.
fn on_toggle(ev: Event) {
    let Some(el) = target(&ev) else { return };
    let Some(id) = open_key(&el) else { return };
    let open = el.has_attribute("open");
    let changed = with_page(|p| p.set_open(&id, open));
    // Opened some other way than its summary's click (find in page): its body is drawn.
    if changed == Some(true) {
        draw();
    }
}

/// A preset replaces the workload; on a phone the answer then comes into view.
fn apply_preset(i: usize) {
    let Some((_, workload)) = advise::presets().into_iter().nth(i) else {
        return;
    };
    update(false, |s| s.workload = workload);
    let narrow = window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= 760.0);
    if narrow {
        if let Ok(Some(answer)) = document().query_selector("[data-testid=answer]") {
            answer.scroll_into_view();
        }
    }
}

/// Copies the page's link; says "copied" only when the browser confirms it, otherwise
/// offers the link to select by hand.
fn copy_link() {
    let Some(link) = with_page(|p| url::absolute_link(&p.state)) else {
        return;
    };
    let promise = window().navigator().clipboard().write_text(&link);
    wasm_bindgen_futures::spawn_local(async move {
        let done = wasm_bindgen_futures::JsFuture::from(promise).await;
        with_page(|p| {
            p.copied = if done.is_ok() {
                Copied::Done
            } else {
                Copied::Failed(link)
            }
        });
        draw();
    });
}

/// Copies the embed snippet as the page shows it; the button says so once the browser
/// confirms. Refused, the snippet stays in its box to select by hand.
fn copy_snippet() {
    let Some(snippet) = document()
        .get_element_by_id("embed-snippet")
        .and_then(|e| e.text_content())
    else {
        return;
    };
    let promise = window().navigator().clipboard().write_text(&snippet);
    wasm_bindgen_futures::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(promise).await.is_ok() {
            with_page(|p| p.copied = Copied::Snippet);
            draw();
        }
    });
}

/// Copies a card's command (`catalog::command`); the button says so once the browser
/// confirms. Refused, the command stays on the card to select by hand.
fn copy_command(id: &str) {
    let Some(code) = document()
        .query_selector_all("[data-command-for]")
        .ok()
        .and_then(|all| {
            (0..all.length())
                .filter_map(|i| all.item(i))
                .filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
                .find(|e| e.get_attribute("data-command-for").as_deref() == Some(id))
        })
    else {
        return;
    };
    let Some(text) = code.text_content() else {
        return;
    };
    let button = code.next_element_sibling();
    let promise = window().navigator().clipboard().write_text(&text);
    wasm_bindgen_futures::spawn_local(async move {
        if wasm_bindgen_futures::JsFuture::from(promise).await.is_ok() {
            if let (Some(b), Some(lang)) = (button, with_page(|p| p.lang())) {
                b.set_text_content(Some(tr(lang, Key::CardCommandCopied)));
            }
        }
    });
}

/// The system share sheet with the page's link; closing it is no error.
fn share_sheet() {
    let Some((link, lang)) = with_page(|p| (url::absolute_link(&p.state), p.lang())) else {
        return;
    };
    let data = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&data, &"url".into(), &link.into());
    let _ = js_sys::Reflect::set(&data, &"title".into(), &tr(lang, Key::AppTitle).into());
    let navigator = window().navigator();
    let promise = js_sys::Reflect::get(&navigator, &"share".into())
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(&navigator, &data).ok())
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok());
    if let Some(p) = promise {
        wasm_bindgen_futures::spawn_local(async move {
            let _ = wasm_bindgen_futures::JsFuture::from(p).await;
        });
    }
}

/// Downloads the ranking for this link as JSON or CSV; the views module writes it
/// (`crate::hosted::export_text`), loaded on the first click if no other view has loaded it.
fn save_export(json: bool) {
    let Some((state, lang)) = with_page(|p| (p.state.clone(), p.lang())) else {
        return;
    };
    wasm_bindgen_futures::spawn_local(async move {
        match crate::hosted::export_text(json, &state).await {
            Ok(text) if json => download("gpu-advisor-ranking.json", "application/json", &text),
            Ok(text) => download("gpu-advisor-ranking.csv", "text/csv", &text),
            Err(why) => {
                let why = fill(tr(lang, Key::ExportFailed), &[("why", why.to_string())]);
                with_page(|p| p.failure = Some(why));
                draw();
            }
        }
    });
}

/// Saves `text` as a file through a temporary object URL and a download link.
fn download(name: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else {
        return;
    };
    let Ok(href) = web_sys::Url::create_object_url_with_blob(&blob) else {
        return;
    };
    if let Some(a) = document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().ok())
    {
        a.set_href(&href);
        a.set_download(name);
        a.click();
    }
    let _ = web_sys::Url::revoke_object_url(&href);
}

/// Embedded, the page tells its host its height (`{ type: "gpu-advisor:resize", height }`)
/// whenever it changes. It reads no messages from the host, so a host can change nothing here.
fn report_height() {
    let post = Closure::<dyn Fn()>::new(|| {
        let Some(body) = document().body() else {
            return;
        };
        let height = body.get_bounding_client_rect().height().ceil();
        let message = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&message, &"type".into(), &web::RESIZE_MESSAGE.into());
        let _ = js_sys::Reflect::set(&message, &"height".into(), &height.into());
        if let Ok(Some(parent)) = window().parent() {
            let _ = parent.post_message(&message, "*");
        }
    });
    if let (Ok(observer), Some(body)) = (
        web_sys::ResizeObserver::new(post.as_ref().unchecked_ref()),
        document().body(),
    ) {
        observer.observe(&body);
    }
    post.forget();
}
