//! The answer above the ranking: the top card in one line, then each tier's pick with
//! one sentence of why, built from the engine's picks and reasons.

use catalog::decimal::fixed;
use catalog::gpu::{PriceKind, Purchase};
use catalog::rank::{Alternative, Pick, Ranked, Ranking, Reason, Tier};
use catalog::share::{Lang, Nav};
use catalog::workload::{Change, Mode, Priority};
use leptos::prelude::*;

use crate::components::link::view_link;
use crate::components::rank_card::{
    fit_badge, hardware_text, per_work_cost_text, reason_text, sentence_case, speed_point_text,
};
use crate::i18n::{fill, num, tr, usd, Key};

/// "$1,207 used": the price and its kind, for the picks' one-line form.
fn short_price_text(lang: Lang, p: &Purchase) -> String {
    format!("{} {}", usd(p.usd), price_kind(lang, p))
}

fn price_kind(lang: Lang, p: &Purchase) -> &'static str {
    tr(
        lang,
        match p.kind {
            PriceKind::New => Key::PriceKindNew,
            PriceKind::Used => Key::PriceKindUsed,
            PriceKind::ServerShare => Key::PriceKindServer,
            PriceKind::Launch => Key::PriceKindLaunch,
            PriceKind::Yours => Key::PriceKindYours,
        },
    )
}

/// "$1,207 used (price from 2026-09)", marking prices over a year old.
pub fn price_text(lang: Lang, p: &Purchase) -> String {
    let kind = price_kind(lang, p);
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

/// A pick in one line, and what to mind about it (drawn after it, muted; on a phone on a
/// line of its own). `said` holds the caveats the answer already gave, per GPU: a GPU
/// that is also the top card or an earlier pick does not repeat them.
fn pick_sentence<'r>(
    lang: Lang,
    mode: Mode,
    ranking: &Ranking,
    pick: &'r Pick,
    said: &mut Vec<(&'r str, &'static str)>,
) -> Option<(String, Option<String>)> {
    let item = ranking.items.iter().find(|r| r.gpu.id == pick.id)?;
    let name = item.gpu.name.clone();
    let speed = pick
        .speed
        .zip(item.speed.as_ref().map(|s| s.unit))
        .map(|(s, unit)| speed_point_text(lang, s, unit))
        .unwrap_or_default();
    let price = match &item.cost.purchase {
        Some(p) if mode == Mode::Buy => short_price_text(lang, p),
        _ => item
            .cost
            .job_usd
            .map(|j| fill(tr(lang, Key::CardRentJob), &[("usd", usd(j.mid))]))
            .or(item.cost.rent_usd_per_hour.map(|r| {
                // Serving: the hour's rental and what the output costs at this speed, which
                // is what the value pick is chosen by.
                let hour = format!("${}/h", fixed(r, 2));
                match item.cost.per_million_usd {
                    Some(m) => {
                        let unit = item.speed.as_ref().map(|s| s.unit);
                        format!("{hour} · {}", per_work_cost_text(lang, mode, unit, m))
                    }
                    None => hour,
                }
            }))
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
            tr(
                lang,
                if mode == Mode::Rent {
                    Key::PickValueRent
                } else {
                    Key::PickValue
                },
            ),
            &[
                ("name", name),
                ("share", fixed(pick.speed_share.unwrap_or(0.0) * 100.0, 0)),
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
    // A used price already says "used".
    let used =
        matches!(&item.cost.purchase, Some(p) if p.kind == PriceKind::Used && mode == Mode::Buy);
    let mut caveats = Vec::new();
    for c in &pick.caveats {
        let key = (pick.id.as_str(), c.code());
        if (used && matches!(c, Reason::UsedOnly)) || said.contains(&key) {
            continue;
        }
        said.push(key);
        caveats.push(reason_text(lang, c));
    }
    let mind = (!caveats.is_empty()).then(|| {
        fill(
            tr(lang, Key::PickCaveats),
            &[("list", caveats.join(tr(lang, Key::ListSeparator)))],
        )
    });
    Some((sentence, mind))
}

/// The top card's facts in one line: price, fit, speed, job time and cost.
fn top_facts(lang: Lang, mode: Mode, item: &Ranked) -> String {
    let mut facts = Vec::new();
    match (hardware_text(lang, &item.cost), item.cost.rent_usd_per_hour) {
        (Some(price), _) if mode == Mode::Buy => facts.push(price),
        (_, Some(r)) => facts.push(fill(
            tr(lang, Key::CardRent),
            &[("usd", format!("${}", fixed(r, 2)))],
        )),
        _ => {}
    }
    // As the card's badge says it: on how many GPUs, and how much is left.
    facts.extend(fit_badge(lang, &item.reasons).map(|(_, text)| sentence_case(&text, false)));
    if let Some(s) = &item.speed {
        facts.push(speed_point_text(lang, s.throughput.mid, s.unit));
        if let Some(h) = s.job_hours {
            facts.push(fill(tr(lang, Key::AnswerJobHours), &[("h", num(h.mid))]));
        }
    }
    if let Some(j) = item.cost.job_usd {
        let key = match mode {
            Mode::Buy => Key::AnswerEnergy,
            Mode::Rent => Key::AnswerJobCost,
        };
        facts.push(fill(tr(lang, key), &[("usd", usd(j.mid))]));
    }
    facts.join(" · ")
}

/// Why the top card is first: what the priority chose it for among the candidates, and
/// the reason that matters most after that.
/// Reasons the top card's facts line already gives: the fit, and "used" in its price.
fn stated_in_facts(r: &Reason) -> bool {
    matches!(
        r,
        Reason::Fits { .. } | Reason::TightFit { .. } | Reason::NeedsGpus { .. } | Reason::UsedOnly
    )
}

fn top_why(lang: Lang, priority: Priority, ranking: &Ranking, item: &Ranked) -> String {
    // As many as the picks choose among: the GPUs that fit and suit the person.
    let candidates = ranking.picks.all().next().map_or_else(
        || ranking.items.iter().filter(|r| r.score.is_some()).count(),
        |p| p.among,
    );
    let mut why = Vec::new();
    if item.score.is_some() {
        let key = match priority {
            Priority::Balance => Key::AnswerWhyBalance,
            Priority::Speed => Key::AnswerWhySpeed,
            Priority::Cost => Key::AnswerWhyCost,
        };
        why.push(fill(tr(lang, key), &[("n", candidates.to_string())]));
    }
    let rest = || item.reasons.iter().filter(|r| !stated_in_facts(r));
    if priority != Priority::Speed {
        why.extend(
            rest()
                .find(|r| matches!(r, Reason::SpeedVsBest { .. }))
                .map(|r| reason_text(lang, r)),
        );
    }
    why.extend(
        rest()
            .find(|r| catalog::rank::is_caveat(r))
            .map(|r| reason_text(lang, r)),
    );
    if why.is_empty() {
        why.extend(rest().take(2).map(|r| reason_text(lang, r)));
    }
    fill(
        tr(lang, Key::AnswerWhy),
        &[("why", why.join(tr(lang, Key::ListSeparator)))],
    )
}

/// An alternative in one line: the change (a link that makes it), how many GPUs then run
/// the workload, and the first of them with its facts.
fn alternative_line(lang: Lang, mode: Mode, alt: &Alternative) -> AnyView {
    let change = match alt.change {
        Change::Gpus(n) => fill(tr(lang, Key::AnswerAltGpus), &[("n", n.to_string())]),
        Change::Precision(p) => fill(
            tr(lang, Key::AnswerAltPrecision),
            &[("prec", p.as_str().to_ascii_uppercase())],
        ),
        Change::Task(t) => fill(
            tr(lang, Key::AnswerAltTask),
            &[(
                "task",
                tr(lang, crate::pages::advise::task_key(t)).to_string(),
            )],
        ),
    };
    let rest = fill(
        tr(
            lang,
            if alt.cheaper {
                Key::AnswerAltCheaper
            } else if alt.among == 1 {
                Key::AnswerAltOne
            } else {
                Key::AnswerAlt
            },
        ),
        &[
            ("n", alt.among.to_string()),
            ("name", alt.top.gpu.name.clone()),
            ("facts", top_facts(lang, mode, &alt.top)),
        ],
    );
    view! {
        <li data-testid="alternative" data-gpu-id=alt.top.gpu.id.clone()>
            {view_link(Nav::Change(alt.change), "alt-change", None, Signal::stored(change))}
            {rest}
        </li>
    }
    .into_any()
}

/// The alternatives under the picks, when the engine offers any (`Ranking::alternatives`).
fn alternatives(lang: Lang, mode: Mode, ranking: &Ranking) -> Option<AnyView> {
    (!ranking.alternatives.is_empty()).then(|| {
        let heading = if catalog::rank::first_pick_offloaded(&ranking.items, &ranking.picks) {
            Key::AnswerAltHeadingOffload
        } else if ranking.alternatives.iter().any(|a| a.cheaper) {
            Key::AnswerAltHeadingCheaper
        } else {
            Key::AnswerAltHeading
        };
        let lines: Vec<AnyView> = ranking
            .alternatives
            .iter()
            .map(|a| alternative_line(lang, mode, a))
            .collect();
        view! {
            <div class="alternatives" data-testid="alternatives">
                <p>{tr(lang, heading)}</p>
                <ul>{lines}</ul>
            </div>
        }
        .into_any()
    })
}

/// The answer block; `data-testid="answer"`, one `pick-<tier>` line per pick.
pub fn answer(lang: Lang, mode: Mode, priority: Priority, ranking: &Ranking) -> impl IntoView {
    let top = ranking.items.first().filter(|r| r.fits());
    let (top_line, why_line) = match top {
        Some(item) => (
            fill(
                tr(lang, Key::AnswerTop),
                &[
                    ("name", item.gpu.name.clone()),
                    ("facts", top_facts(lang, mode, item)),
                ],
            ),
            Some(top_why(lang, priority, ranking, item)),
        ),
        None => (tr(lang, Key::AnswerNone).into(), None),
    };
    // The caveat the why line gives for the top card is not repeated by its picks.
    let mut said: Vec<(&str, &'static str)> = top
        .and_then(|item| {
            item.reasons
                .iter()
                .find(|r| catalog::rank::is_caveat(r) && !stated_in_facts(r))
                .map(|r| (item.gpu.id.as_str(), r.code()))
        })
        .into_iter()
        .collect();
    let picks: Vec<(Tier, String, (String, Option<String>))> = ranking
        .picks
        .all()
        .filter_map(|p| {
            Some((
                p.tier,
                p.id.clone(),
                pick_sentence(lang, mode, ranking, p, &mut said)?,
            ))
        })
        .collect();
    view! {
        <section class="answer" data-testid="answer" aria-labelledby="answer-heading"
            data-top=top.map(|t| t.gpu.id.clone())>
            <h2 id="answer-heading">{tr(lang, Key::AnswerHeading)}</h2>
            <p class="answer-top">{top_line}</p>
            {why_line.map(|w| view! { <p class="answer-why">{w}</p> })}
            <ul class="picks">
                {picks.into_iter().map(|(tier, id, (text, mind))| view! {
                    <li data-testid=format!("pick-{}", tier.as_str()) data-gpu-id=id>
                        {text}" "<span class="pick-mind">{mind.unwrap_or_default()}</span>
                    </li>
                }).collect_view()}
            </ul>
            {alternatives(lang, mode, ranking)}
        </section>
    }
}
