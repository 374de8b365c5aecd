//! The answer above the ranking: the top card in one line, then each tier's pick with
//! one sentence of why, built from the engine's picks and reasons.

use catalog::gpu::{PriceKind, Purchase};
use catalog::rank::{Pick, Ranking, Tier};
use catalog::share::Lang;
use catalog::workload::Mode;
use leptos::prelude::*;

use crate::components::rank_card::{reason_text, speed_point_text};
use crate::i18n::{fill, tr, usd, Key};

/// "$1,207 used (price from 2026-09)", marking prices over a year old.
pub fn price_text(lang: Lang, p: &Purchase) -> String {
    let kind = tr(
        lang,
        match p.kind {
            PriceKind::New => Key::PriceKindNew,
            PriceKind::Used => Key::PriceKindUsed,
            PriceKind::ServerShare => Key::PriceKindServer,
            PriceKind::Launch => Key::PriceKindLaunch,
            PriceKind::Yours => Key::PriceKindYours,
        },
    );
    let Some(date) = p.date.clone() else {
        return format!("{} ({kind})", usd(p.usd));
    };
    let age = if p.is_stale(crate::state::catalog_date()) {
        fill(tr(lang, Key::PriceStale), &[("date", date)])
    } else {
        fill(tr(lang, Key::PriceFrom), &[("date", date)])
    };
    format!("{} {kind} ({age})", usd(p.usd))
}

fn pick_sentence(lang: Lang, mode: Mode, ranking: &Ranking, pick: &Pick) -> Option<String> {
    let item = ranking.items.iter().find(|r| r.gpu.id == pick.id)?;
    let name = item.gpu.name.clone();
    let speed = pick
        .speed
        .zip(item.speed.as_ref().map(|s| s.unit))
        .map(|(s, unit)| speed_point_text(lang, s, unit))
        .unwrap_or_default();
    let price = match &item.cost.purchase {
        Some(p) if mode == Mode::Buy => price_text(lang, p),
        _ => item
            .cost
            .job_usd
            .map(|j| fill(tr(lang, Key::CardRentJob), &[("usd", usd(j.mid))]))
            .or(item.cost.rent_usd_per_hour.map(|r| format!("${r:.2}/h")))
            .unwrap_or_default(),
    };
    let sentence = match pick.tier {
        Tier::Flagship => fill(
            tr(lang, Key::PickFlagship),
            &[
                ("name", name),
                ("n", pick.among.to_string()),
                ("speed", speed),
                ("price", price),
            ],
        ),
        Tier::Value => fill(
            tr(lang, Key::PickValue),
            &[
                ("name", name),
                (
                    "share",
                    format!("{:.0}", pick.speed_share.unwrap_or(0.0) * 100.0),
                ),
                ("price", price),
            ],
        ),
        Tier::Entry => fill(
            tr(lang, Key::PickEntry),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        Tier::NonNvidia => fill(
            tr(lang, Key::PickNonNvidia),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        Tier::RentInstead => fill(
            tr(lang, Key::PickRentInstead),
            &[
                ("name", name),
                ("job", usd(pick.rent_job_usd.unwrap_or(0.0))),
                ("buy", pick.buy_usd.map(usd).unwrap_or_else(|| "—".into())),
            ],
        ),
    };
    let caveats: Vec<String> = pick.caveats.iter().map(|c| reason_text(lang, c)).collect();
    Some(if caveats.is_empty() {
        sentence
    } else {
        format!(
            "{sentence} {}",
            fill(tr(lang, Key::PickCaveats), &[("list", caveats.join("; "))])
        )
    })
}

/// The answer block; `data-testid="answer"`, one `pick-<tier>` line per pick.
pub fn answer(lang: Lang, mode: Mode, ranking: &Ranking) -> impl IntoView {
    let top = ranking.items.first().filter(|r| r.fits());
    let top_line = match top {
        Some(item) => fill(
            tr(lang, Key::AnswerTop),
            &[
                ("name", item.gpu.name.clone()),
                (
                    "why",
                    item.reasons
                        .iter()
                        .take(2)
                        .map(|r| reason_text(lang, r))
                        .collect::<Vec<_>>()
                        .join(", "),
                ),
            ],
        ),
        None => tr(lang, Key::AnswerNone).into(),
    };
    let picks: Vec<(Tier, String, String)> = ranking
        .picks
        .all()
        .filter_map(|p| Some((p.tier, p.id.clone(), pick_sentence(lang, mode, ranking, p)?)))
        .collect();
    view! {
        <section class="answer" data-testid="answer" aria-labelledby="answer-heading"
            data-top=top.map(|t| t.gpu.id.clone())>
            <h2 id="answer-heading">{tr(lang, Key::AnswerHeading)}</h2>
            <p class="answer-top">{top_line}</p>
            <ul class="picks">
                {picks.into_iter().map(|(tier, id, text)| view! {
                    <li data-testid=format!("pick-{}", tier.as_str()) data-gpu-id=id>{text}</li>
                }).collect_view()}
            </ul>
        </section>
    }
}
