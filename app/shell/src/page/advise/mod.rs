//! The advise view as HTML: the workload form, the answer and the ranked cards. Plain
//! functions of the state and the engine's ranking; the page's module sets what they
//! write into the page (`crate::page`), and the build writes the default view with them
//! (`crate::prerender`).
//!
//! Four parts, one file each: `presets`, `form`, `answer` and `cards` (the ranking). They
//! take the imports below with `use super::*`, and the drawing context `Draw` with them.

use catalog::decimal::{fixed, shortest};
use catalog::evidence::{Difference, Measurement, Nearest};
use catalog::gpu::{FormFactor, PriceKind, Segment, Vendor};
use catalog::host::Host;
use catalog::model::Family;
use catalog::rank::{
    resolve_model, Alternative, Grade, Pick, Ranked, Ranking, Reason, Tier, WhyNot,
};
use catalog::share::{range, AppState, Condition, Lang, Nav};
use catalog::workload::{
    Change, EcoRequirement, Framework, KvCache, Mode, ModelChoice, Precision, Priority, Runtime,
    Task, Workload, AUTO_PRECISION,
};
use catalog::Catalog;

use web::html::{flag, Html};
use web::i18n::{fill, gb, num, tr, usd, usd_range, whole, Key};
use web::text::{
    backend_name, fit_badge, gpu_count, hardware_text, host_text, measured_value, mode_key,
    owned_names, per_work_cost_text, range_text, reason_text, sentence_case, short_hardware_text,
    signed_percent, speed_point_text, stack_name, summary, task_key, throughput_text,
    why_not_group_text, why_not_text,
};

mod answer;
mod cards;
mod form;
mod presets;

pub use answer::answer;
pub use cards::{card, memory_total, ranking, Extent};
pub use form::{assumptions, form, form_shape, number_text, Input, Unfolded, FIELDS};
pub use presets::presets;

/// What drawing needs besides the figures: the language, and the state and page address
/// the links are made from.
pub struct Draw<'a> {
    pub lang: Lang,
    pub state: &'a AppState,
    /// The page's file (`web::url::page_file`: empty when served as a directory), which
    /// links are written relative to.
    pub path: &'a str,
    /// The published measurements, once loaded (`web::load::measurements`): each card
    /// then shows the nearest (`catalog::evidence::nearest`).
    pub evidence: Option<&'a [Measurement]>,
}

impl Draw<'_> {
    pub fn t(&self, key: Key) -> &'static str {
        tr(self.lang, key)
    }

    /// The address of the state after `nav`.
    pub fn href(&self, nav: &Nav) -> String {
        web::url::link(self.path, &self.state.after(|s| s.apply(nav)))
    }

    /// A link that makes `nav`: a real address, so that a new tab or a copied link works;
    /// `data-nav` names the move, which the page makes itself on a plain click.
    pub fn link(&self, h: &mut Html, nav: &Nav, class: &str, testid: Option<&str>, label: &str) {
        let href = self.href(nav);
        let token = nav.token();
        h.el(
            "a",
            &[
                ("class", class),
                ("href", &href),
                (
                    if testid.is_some() { "data-testid" } else { "" },
                    testid.unwrap_or(""),
                ),
                ("data-nav", &token),
            ],
            label,
        );
    }
}

/// The advise view's frame: its title and the grid the form, answer and ranking fill
/// (`crate::page` sets each of them).
pub fn frame(d: &Draw) -> String {
    let mut h = Html::new();
    let embedded = d.state.embed;
    h.el("h1", &[("class", "view-title")], d.t(Key::AdviseTitle))
        .open(
            "div",
            &[("class", if embedded { "advise compact" } else { "advise" })],
        )
        .open(
            "section",
            &[
                (
                    "class",
                    if embedded {
                        "workload hidden"
                    } else {
                        "workload"
                    },
                ),
                ("aria-labelledby", "workload-heading"),
            ],
        )
        .close("section")
        .open("section", &[("class", "answer"), ("data-testid", "answer")])
        .close("section")
        .open("section", &[("class", "ranking")])
        .close("section")
        .close("div");
    h.finish()
}
