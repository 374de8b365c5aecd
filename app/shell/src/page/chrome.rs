//! What surrounds every view, as HTML: the header with its one menu (language, theme,
//! sharing), the notice naming what a link held that could not be used, and the footer.

use catalog::rank::resolve_model;
use catalog::share::{embed_snippet, IgnoreReason, Ignored, Lang, Nav, Theme, View};
use catalog::Catalog;

use super::advise::Draw;
use web::html::{flag, Html};
use web::i18n::{self, fill, tr, Key};

/// The views the header links to, in its order.
const NAV: [(View, Key); 4] = [
    (View::Advise, Key::NavAdvise),
    (View::Compare, Key::NavCompare),
    (View::Guide, Key::NavGuide),
    (View::Bench, Key::NavBench),
];

/// The header's links to the views, the one shown marked.
pub fn nav(d: &Draw) -> String {
    let mut h = Html::new();
    for (view, key) in NAV {
        let current = d.state.view == view;
        let nav = Nav::GoTo(view);
        h.el(
            "a",
            &[
                (
                    "class",
                    if current {
                        "nav-link active"
                    } else {
                        "nav-link"
                    },
                ),
                ("href", &d.href(&nav)),
                ("data-nav", &nav.token()),
                (if current { "aria-current" } else { "" }, "page"),
            ],
            d.t(key),
        );
    }
    h.finish()
}

/// Site header on one line, down to a 360 px phone: name, the views, and one menu with
/// the language and theme switches and the ways to share the page. The page written at
/// build time leaves the menu's panel out (`panel`); the page's module fills it, and
/// draws the menu open when it was (`open`: a language switch made from it).
pub fn header(d: &Draw, panel: bool, open: bool) -> String {
    let mut h = Html::new();
    let home = Nav::GoTo(View::Advise);
    h.open("header", &[("class", "site-header")]);
    // A keyboard's way past the header and the form to the answer (the advise view's).
    if d.state.view == View::Advise {
        h.el(
            "a",
            &[
                ("class", "skip-link"),
                ("href", "#answer"),
                ("data-act", "skip"),
            ],
            d.t(Key::NavSkip),
        );
    }
    h.open(
        "a",
        &[
            ("class", "brand"),
            ("href", &d.href(&home)),
            ("data-nav", &home.token()),
        ],
    )
    .el(
        "span",
        &[("class", "brand-mark"), ("aria-hidden", "true")],
        "",
    )
    .el("span", &[("class", "brand-text")], d.t(Key::AppTitle))
    .close("a")
    .open("nav", &[("aria-label", d.t(Key::NavLabel))])
    .html(&nav(d))
    .close("nav")
    .open("div", &[("class", "header-tools")])
    .open(
        "details",
        &[
            ("class", "menu"),
            ("data-testid", "menu"),
            flag("open", open),
        ],
    )
    .open(
        "summary",
        &[("class", "tool"), ("title", d.t(Key::MenuLabel))],
    )
    .el("span", &[("class", "menu-text")], d.t(Key::MenuShort))
    .close("summary");
    if panel {
        h.open("div", &[("class", "menu-panel")])
            .el(
                "button",
                &[
                    ("class", "tool"),
                    ("data-testid", "lang-toggle"),
                    ("data-act", "lang"),
                ],
                d.t(Key::ToggleLang),
            )
            .el(
                "button",
                &[
                    ("class", "tool"),
                    ("data-testid", "theme-toggle"),
                    ("data-act", "theme"),
                ],
                "",
            )
            .el("div", &[("class", "share-bar")], "");
        d.link(
            &mut h,
            &Nav::GoTo(View::Accuracy),
            "tool menu-link",
            Some("nav-accuracy"),
            d.t(Key::NavAccuracy),
        );
        h.close("div");
    }
    h.close("details").close("div").close("header");
    h.finish()
}

/// The theme switch's label: the theme it switches to.
pub fn theme_label(lang: Lang, theme: Theme) -> &'static str {
    tr(
        lang,
        if theme == Theme::Dark {
            Key::ToggleThemeLight
        } else {
            Key::ToggleThemeDark
        },
    )
}

/// Where the last "copy link" stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Copied {
    NotYet,
    Done,
    /// The embed snippet was copied.
    Snippet,
    /// The clipboard refused; the link to select by hand.
    Failed(String),
}

/// Copy link, the system share sheet where the browser has one, and the embed snippet
/// (`embed_link`: this view's link as a widget, when it can be embedded and the person
/// asked for it; `embeddable` whether the button shows).
pub fn share_bar(
    lang: Lang,
    copied: &Copied,
    share_sheet: bool,
    embeddable: bool,
    snippet_for: Option<&str>,
) -> String {
    let t = |k| tr(lang, k);
    let mut h = Html::new();
    h.el(
        "button",
        &[
            ("class", "tool"),
            ("data-testid", "copy-link"),
            ("data-act", "copy"),
        ],
        t(if *copied == Copied::Done {
            Key::ShareCopied
        } else {
            Key::ShareCopy
        }),
    );
    if let Copied::Failed(url) = copied {
        h.el(
            "label",
            &[
                ("class", "snippet-label"),
                ("for", "copy-fallback"),
                ("data-testid", "copy-failed"),
            ],
            t(Key::ShareCopyFailed),
        )
        .open(
            "input",
            &[
                ("id", "copy-fallback"),
                ("class", "copy-fallback"),
                ("readonly", ""),
                ("value", url),
            ],
        );
    }
    if share_sheet {
        h.el(
            "button",
            &[("class", "tool"), ("data-act", "share")],
            t(Key::ShareSheet),
        );
    }
    if embeddable {
        let expanded = if snippet_for.is_some() {
            "true"
        } else {
            "false"
        };
        h.el(
            "button",
            &[
                ("class", "tool"),
                ("data-testid", "embed-button"),
                ("data-act", "embed"),
                ("aria-expanded", expanded),
            ],
            t(Key::ShareEmbed),
        );
        if let Some(link) = snippet_for {
            h.el(
                "label",
                &[("class", "snippet-label"), ("for", "embed-snippet")],
                t(Key::ShareEmbedHelp),
            )
            .el(
                "textarea",
                &[
                    ("id", "embed-snippet"),
                    ("data-testid", "embed-snippet"),
                    ("readonly", ""),
                    ("rows", "9"),
                ],
                &embed_snippet(link, t(Key::AppTitle)),
            )
            .el(
                "button",
                &[
                    ("class", "tool"),
                    ("data-testid", "copy-snippet"),
                    ("data-act", "copy-snippet"),
                ],
                t(if *copied == Copied::Snippet {
                    Key::ShareSnippetCopied
                } else {
                    Key::ShareCopySnippet
                }),
            );
        }
    }
    h.finish()
}

fn reason_key(key: &str, reason: &IgnoreReason) -> Key {
    match reason {
        IgnoreReason::TooMany if key == "price" => Key::NoticeTooManyPrices,
        IgnoreReason::UnknownParameter => Key::NoticeUnknownParameter,
        IgnoreReason::InvalidValue => Key::NoticeInvalidValue,
        IgnoreReason::UnknownGpu => Key::NoticeUnknownGpu,
        IgnoreReason::UnknownModel => Key::NoticeUnknownModel,
        IgnoreReason::BadEncoding => Key::NoticeBadEncoding,
        IgnoreReason::Repeated => Key::NoticeRepeated,
        IgnoreReason::TooMany => Key::NoticeTooMany,
        IgnoreReason::NoEffect => Key::NoticeNoEffect,
        IgnoreReason::Overridden => Key::NoticeOverridden,
        IgnoreReason::OneGpuShown => Key::NoticeOneGpu,
        IgnoreReason::BeyondContext { .. } => Key::NoticeBeyondContext,
    }
}

/// Lines the notice lists before "and N more".
const NOTICE_LINES: usize = 5;

/// Names what the link held that could not be used; never blocks the page. Values are
/// written as text, never as HTML. A model the catalog does not have also names the
/// model the page shows instead, so no figure reads as if it were for the one asked.
/// Empty when the link held nothing of the kind.
pub fn notice(d: &Draw, ignored: &[Ignored]) -> String {
    let mut h = Html::new();
    if ignored.is_empty() {
        return h.finish();
    }
    let model = resolve_model(Catalog::embedded(), &d.state.workload).name;
    h.open(
        "div",
        &[
            ("class", "notice"),
            ("data-testid", "notice"),
            ("role", "status"),
        ],
    )
    .el("p", &[], d.t(Key::NoticeHeading))
    .open("ul", &[]);
    for i in ignored.iter().take(NOTICE_LINES) {
        let shown = if i.value.is_empty() {
            i.key.clone()
        } else {
            format!("{}={}", i.key, i.value)
        };
        let max = match i.reason {
            IgnoreReason::BeyondContext { max } => i18n::whole(f64::from(max)),
            _ => String::new(),
        };
        let reason = fill(
            d.t(reason_key(&i.key, &i.reason)),
            &[("model", model.clone()), ("max", max)],
        );
        h.open("li", &[]);
        // The link's text is isolated, so a right-to-left mark in it cannot reorder the
        // page's own words around it.
        if !shown.is_empty() {
            h.open("code", &[])
                .el("bdi", &[], &shown)
                .close("code")
                .text(": ");
        }
        h.text(&reason).close("li");
    }
    if ignored.len() > NOTICE_LINES {
        let more = i18n::whole((ignored.len() - NOTICE_LINES) as f64);
        h.el("li", &[], &fill(d.t(Key::NoticeMore), &[("n", more)]));
    }
    h.close("ul")
        .el(
            "button",
            &[("class", "tool"), ("data-act", "dismiss")],
            d.t(Key::NoticeDismiss),
        )
        .close("div");
    h.finish()
}

/// Says that something the person asked for failed (a download), and why, in the page's
/// own words; it stays until dismissed.
pub fn failure(d: &Draw, why: &str) -> String {
    let mut h = Html::new();
    h.open(
        "div",
        &[
            ("class", "notice"),
            ("data-testid", "failure"),
            ("role", "alert"),
        ],
    )
    .el("p", &[], why)
    .el(
        "button",
        &[("class", "tool"), ("data-act", "dismiss-failure")],
        d.t(Key::NoticeDismiss),
    )
    .close("div");
    h.finish()
}

pub fn footer(lang: Lang, catalog_date: &str) -> String {
    let mut h = Html::new();
    h.open("footer", &[("class", "site-footer")])
        .el("p", &[], tr(lang, Key::FooterPrivacy))
        .el("p", &[], tr(lang, Key::FooterSources))
        .el(
            "p",
            &[("data-testid", "catalog-date")],
            &fill(
                tr(lang, Key::FooterCatalogDate),
                &[("date", catalog_date.to_string())],
            ),
        )
        .close("footer");
    h.finish()
}

/// The line at the top of an embedded widget: what it answers (`what`: the workload in
/// one line, or the GPUs shown) and a link to the same view in full.
pub fn open_full(lang: Lang, what: &str, href: &str) -> String {
    let mut h = Html::new();
    // The widget's banner: what it is and where its full view lives.
    h.open("div", &[("class", "open-full"), ("role", "banner")]);
    if !what.is_empty() {
        h.el(
            "span",
            &[("class", "embed-what"), ("data-testid", "embed-what")],
            what,
        );
    }
    h.el(
        "a",
        &[("href", href), ("target", "_blank"), ("rel", "noopener")],
        tr(lang, Key::EmbedOpenFull),
    )
    .close("div");
    h.finish()
}

/// A view of the views module while it loads, or why it could not be drawn.
pub fn hosted_status(lang: Lang, outcome: Option<&Result<(), String>>) -> String {
    let mut h = Html::new();
    match outcome {
        None => {
            h.el(
                "p",
                &[("class", "view-loading"), ("data-testid", "view-loading")],
                tr(lang, Key::ViewLoading),
            );
        }
        Some(Err(why)) => {
            h.el(
                "p",
                &[
                    ("class", "view-error"),
                    ("role", "alert"),
                    ("data-testid", "view-error"),
                ],
                &fill(tr(lang, Key::ViewFailed), &[("why", why.clone())]),
            );
        }
        Some(Ok(())) => {}
    }
    h.finish()
}
