//! The answer block above the ranking: the top card in one sentence, why it comes first,
//! the picks per tier and the changes worth a look.

use super::cards::per_user_text;
use super::*;

/// A pick in one line, and what to mind about it (drawn after it, muted; on a phone on a
/// line of its own). `said` holds the caveats the answer already gave, per GPU: a GPU
/// that is also the top card or an earlier pick does not repeat them.
fn pick_sentence<'r>(
    lang: Lang,
    w: &Workload,
    ranking: &Ranking,
    pick: &'r Pick,
    said: &mut Vec<(&'r str, &'static str)>,
) -> Option<(String, Option<String>)> {
    let mode = w.mode;
    let item = ranking.items.iter().find(|r| r.gpu.id == pick.id)?;
    let name = item.gpu.name.clone();
    let speed = pick
        .speed
        .zip(item.speed.as_ref().map(|s| s.unit))
        .map(|(s, unit)| speed_point_text(lang, s, unit))
        .unwrap_or_default();
    let speed = match per_user_text(lang, item, w) {
        Some(each) if !speed.is_empty() => format!("{speed} ({each})"),
        _ => speed,
    };
    // On the ladder, the type the speed is at: "112 tokens/s at Q8_0".
    let speed = match item.quantized() {
        Some(p) if !speed.is_empty() => fill(
            tr(lang, Key::PickAtQuant),
            &[("speed", speed), ("q", p.as_str().to_ascii_uppercase())],
        ),
        _ => speed,
    };
    let price = match short_hardware_text(lang, &item.cost) {
        Some(total) if mode == Mode::Buy => total,
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
        // A flagship that won a tie with a faster card says by how much it is slower.
        Tier::Flagship => fill(
            tr(
                lang,
                if pick.tie_share.is_some() {
                    Key::PickFlagshipTie
                } else {
                    Key::PickFlagship
                },
            ),
            &[
                ("name", name),
                ("n", pick.among.to_string()),
                (
                    "gap",
                    fixed(((1.0 - pick.tie_share.unwrap_or(1.0)) * 100.0).ceil(), 0),
                ),
                ("speed", speed),
                ("price", price),
            ],
        ),
        Tier::Value => {
            // Buying, a pick a little below the most speed per dollar won a tie the
            // estimate does not resolve (`rank::picks`); it says by how much.
            let gap = pick.tie_share.map(|s| (1.0 - s) * 100.0);
            let key = match (mode, gap) {
                (Mode::Rent, Some(_)) => Key::PickValueRentTie,
                (Mode::Rent, None) => Key::PickValueRent,
                (Mode::Buy, Some(_)) => Key::PickValueTie,
                (Mode::Buy, None) => Key::PickValue,
            };
            let gap = gap.unwrap_or(0.0);
            // Its speed beside the flagship's, unless it is the flagship.
            let flagship = ranking.picks.flagship.as_ref().map(|f| f.id.as_str());
            let share = match pick.speed_share {
                Some(s) if flagship != Some(pick.id.as_str()) => fill(
                    tr(lang, Key::PickFlagshipShare),
                    &[("share", fixed(s * 100.0, 0))],
                ),
                _ => String::new(),
            };
            fill(
                tr(lang, key),
                &[
                    ("name", name),
                    ("gap", fixed(gap.ceil(), 0)),
                    ("share", share),
                    ("price", price),
                ],
            )
        }
        Tier::Entry => fill(
            tr(lang, Key::PickEntry),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        Tier::NonNvidia => fill(
            tr(lang, Key::PickNonNvidia),
            &[("name", name), ("speed", speed), ("price", price)],
        ),
        // Without a purchase to weigh it against, the sentence names none.
        Tier::RentInstead => fill(
            tr(
                lang,
                if pick.buy_usd.is_some() {
                    Key::PickRentInstead
                } else {
                    Key::PickRentInsteadOnly
                },
            ),
            &[
                ("name", name),
                ("job", usd(pick.rent_job_usd.unwrap_or(0.0))),
                ("buy", pick.buy_usd.map(usd).unwrap_or_default()),
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
/// `each`: the workload, to give each user's pace when it serves several at once (not for
/// an alternative, whose workload differs).
fn top_facts(lang: Lang, mode: Mode, item: &Ranked, each: Option<&Workload>) -> String {
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
        facts.extend(each.and_then(|w| per_user_text(lang, item, w)));
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

/// Reasons the top card's facts line already gives: the fit, and "used" in its price.
fn stated_in_facts(r: &Reason) -> bool {
    matches!(
        r,
        Reason::Fits { .. } | Reason::TightFit { .. } | Reason::NeedsGpus { .. } | Reason::UsedOnly
    )
}

/// Why the top card is first: what the priority chose it for among the candidates, and
/// the reason that matters most after that.
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
fn alternative_line(h: &mut Html, d: &Draw, alt: &Alternative) {
    let lang = d.lang;
    let change = match alt.change {
        Change::Gpus(n) => fill(d.t(Key::AnswerAltGpus), &[("n", n.to_string())]),
        Change::Precision(p) => fill(
            d.t(Key::AnswerAltPrecision),
            &[("prec", p.as_str().to_ascii_uppercase())],
        ),
        Change::Task(t) => fill(
            d.t(Key::AnswerAltTask),
            &[("task", d.t(task_key(t)).to_string())],
        ),
        Change::Host(gb) => fill(d.t(Key::AnswerAltHost), &[("gb", gb.to_string())]),
    };
    let key = if alt.cheaper {
        Key::AnswerAltCheaper
    } else if alt.among == 1 {
        Key::AnswerAltOne
    } else {
        Key::AnswerAlt
    };
    let rest = fill(
        d.t(key),
        &[
            ("n", alt.among.to_string()),
            ("name", alt.top.gpu.name.clone()),
            (
                "facts",
                top_facts(
                    lang,
                    d.state.workload.mode,
                    &alt.top,
                    Some(&d.state.workload),
                ),
            ),
        ],
    );
    h.open(
        "li",
        &[
            ("data-testid", "alternative"),
            ("data-gpu-id", &alt.top.gpu.id),
        ],
    );
    d.link(h, &Nav::Change(alt.change), "alt-change", None, &change);
    h.text(&rest).close("li");
}

/// The alternatives under the picks, when the engine offers any (`Ranking::alternatives`).
fn alternatives(h: &mut Html, d: &Draw, ranking: &Ranking) {
    if ranking.alternatives.is_empty() {
        return;
    }
    let heading = if catalog::rank::first_pick_below_floor(&ranking.items, &ranking.picks) {
        Key::AnswerAltHeadingFloor
    } else if catalog::rank::first_pick_offloaded(&ranking.items, &ranking.picks) {
        Key::AnswerAltHeadingOffload
    } else if ranking.alternatives.iter().any(|a| a.cheaper) {
        Key::AnswerAltHeadingCheaper
    } else {
        Key::AnswerAltHeading
    };
    h.open(
        "div",
        &[("class", "alternatives"), ("data-testid", "alternatives")],
    )
    .el("p", &[], d.t(heading))
    .open("ul", &[]);
    for alt in &ranking.alternatives {
        alternative_line(h, d, alt);
    }
    h.close("ul").close("div");
}

/// The answer block; `data-testid="answer"`, one `pick-<tier>` line per pick.
/// With `have=`: what the owned cards do on their own, so that each card's figures read
/// as what adding it buys.
fn owned_alone(h: &mut Html, d: &Draw, ranking: &Ranking) {
    let Some(alone) = &ranking.owned_alone else {
        return;
    };
    let gpus = owned_names(&d.state.workload.have);
    let text = match alone.speed.as_ref().filter(|_| alone.fits()) {
        Some(s) => {
            let speed = speed_point_text(d.lang, s.throughput.mid, s.unit);
            let speed = match alone.quantized() {
                Some(q) => fill(
                    d.t(Key::PickAtQuant),
                    &[("speed", speed), ("q", q.as_str().to_ascii_uppercase())],
                ),
                None => speed,
            };
            let offloaded = alone.placement.as_ref().is_some_and(|p| p.host.is_some());
            let speed = if offloaded {
                fill(d.t(Key::AnswerOwnedOffloaded), &[("speed", speed)])
            } else {
                speed
            };
            fill(
                d.t(Key::AnswerOwnedSpeed),
                &[("gpus", gpus), ("speed", speed)],
            )
        }
        None => fill(d.t(Key::AnswerOwnedCannot), &[("gpus", gpus)]),
    };
    // Its speed from the bandwidth measured on this machine, when the link carries one.
    let text = match alone
        .reasons
        .iter()
        .find(|r| matches!(r, Reason::MeasuredBandwidth { .. }))
    {
        Some(r) => format!("{text} {}.", reason_text(d.lang, r)),
        None => text,
    };
    h.el(
        "p",
        &[("class", "answer-owned"), ("data-testid", "answer-owned")],
        &text,
    );
}

pub fn answer(h: &mut Html, d: &Draw, ranking: &Ranking) {
    let (lang, mode) = (d.lang, d.state.workload.mode);
    let top = ranking.items.first().filter(|r| r.fits());
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
    h.open(
        "section",
        &[
            ("class", "answer"),
            ("id", "answer"),
            ("tabindex", "-1"),
            ("data-testid", "answer"),
            ("aria-labelledby", "answer-heading"),
            (
                if top.is_some() { "data-top" } else { "" },
                top.map_or("", |t| t.gpu.id.as_str()),
            ),
        ],
    )
    .el("h2", &[("id", "answer-heading")], d.t(Key::AnswerHeading));
    match top {
        Some(item) => {
            // When no GPU that runs the work as entered keeps a usable pace for the people
            // waiting on it (`rank::too_slow_to_use`), and a change below does, the answer
            // says so before naming the best of the slow ones.
            let w = &d.state.workload;
            // Whether no GPU as entered has a quality, and a change below gives it one.
            let only_a_change_gives = |good: &dyn Fn(&Ranked, &Workload) -> bool| {
                let none = !ranking
                    .items
                    .iter()
                    .any(|r| r.fits() && r.score.is_some() && good(r, w));
                none && ranking.alternatives.iter().any(|a| {
                    let mut changed = w.clone();
                    a.change.apply(&mut changed);
                    !a.cheaper && good(&a.top, &changed)
                })
            };
            // Likewise when every GPU that runs it does so only with another setting than
            // the one asked (`rank::runs_as_asked`: a precision fallback, PyTorch's legacy
            // wheels), and a change below runs it as asked.
            let lead = if only_a_change_gives(&|r, w| !catalog::rank::too_slow_to_use(r, w)) {
                Some(Key::AnswerAllSlow)
            } else if only_a_change_gives(&catalog::rank::runs_as_asked) {
                Some(Key::AnswerNoneAsAsked)
            } else {
                None
            };
            if let Some(lead) = lead {
                h.el(
                    "p",
                    &[("class", "answer-lead"), ("data-testid", "answer-lead")],
                    d.t(lead),
                );
            }
            let line = fill(
                d.t(Key::AnswerTop),
                &[
                    ("name", item.gpu.name.clone()),
                    (
                        "facts",
                        top_facts(lang, mode, item, Some(&d.state.workload)),
                    ),
                ],
            );
            h.el("p", &[("class", "answer-top")], &line);
            h.el(
                "p",
                &[("class", "answer-why")],
                &top_why(lang, d.state.workload.priority, ranking, item),
            );
            owned_alone(h, d, ranking);
        }
        None => {
            // When the view's filters hide GPUs, the answer says so rather than blaming
            // the workload.
            let hidden = ranking
                .items
                .iter()
                .filter(|i| i.why_not == Some(WhyNot::Filtered))
                .count();
            let text = if hidden == ranking.items.len() {
                d.t(Key::AnswerFilteredAll).to_string()
            } else if hidden > 0 {
                fill(
                    d.t(Key::AnswerNoneFiltered),
                    &[("gpus", gpu_count(lang, hidden))],
                )
            } else {
                d.t(Key::AnswerNone).to_string()
            };
            h.el("p", &[("class", "answer-top")], &text);
        }
    }
    h.open("ul", &[("class", "picks")]);
    for p in ranking.picks.all() {
        let Some((text, mind)) = pick_sentence(lang, &d.state.workload, ranking, p, &mut said)
        else {
            continue;
        };
        h.open(
            "li",
            &[
                ("data-testid", &format!("pick-{}", p.tier.as_str())),
                ("data-gpu-id", &p.id),
            ],
        )
        .text(&text)
        .text(" ")
        .el("span", &[("class", "pick-mind")], &mind.unwrap_or_default())
        .close("li");
    }
    h.close("ul");
    alternatives(h, d, ranking);
    h.close("section");
}
