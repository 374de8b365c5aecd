//! The picks per tier (flagship, value, entry, not NVIDIA, rent instead) and the caveats
//! each repeats.

use super::*;

/// The cheapest rental of a training job, for the rent-instead pick: (GPU id, job dollars).
pub(super) type RentalJob = (String, f64);

/// The GPUs the picks choose among: those that fit and suit the person, else those that
/// run the job as asked, else those that fit and need nothing added (`in_the_way`), else
/// all that fit. `candidates` is the chosen set, `last_resort`
/// whether no card runs the job as asked.
pub(super) fn choosing<'a, 'c>(
    items: &'a [Ranked<'c>],
    workload: &Workload,
) -> (Vec<&'a Ranked<'c>>, bool) {
    let fitting: Vec<&Ranked> = items.iter().filter(|r| r.fits()).collect();
    let suiting: Vec<&Ranked> = fitting
        .iter()
        .copied()
        .filter(|r| suits(r, workload))
        .collect();
    // A card that decodes slower than people read only because part of the model waits in
    // system memory is no choice while others run the job as asked.
    let as_asked: Vec<&Ranked> = fitting
        .iter()
        .copied()
        .filter(|r| runs_as_asked(r, workload) && !slow_offload(r))
        .collect();
    // When no candidate runs the job as asked (only precision fallbacks, legacy PyTorch
    // wheels, weights below 4 bits), the flagship still names the fastest there is, but
    // no card is recommended as value or entry: the answer's one change (`Alternative`) is
    // the advice. Even then a card that needs a fan bolted on, or decodes slower than
    // people read from system memory, comes after those that do not.
    let last_resort = suiting.is_empty() && as_asked.is_empty();
    let in_place: Vec<&Ranked> = fitting
        .iter()
        .copied()
        .filter(|r| !r.reasons.iter().any(in_the_way))
        .collect();
    let candidates = [suiting, as_asked, in_place, fitting]
        .into_iter()
        .find(|c| !c.is_empty())
        .unwrap_or_default();
    (candidates, last_resort)
}

pub(super) fn picks(items: &[Ranked], workload: &Workload, rental: Option<RentalJob>) -> Picks {
    let (candidates, last_resort) = choosing(items, workload);
    let speed = |r: &Ranked| r.speed.as_ref().map(|s| s.throughput.mid);
    let cost = |r: &Ranked| cost_figure(&r.cost, workload).filter(|c| *c > 0.0);
    let best_speed = candidates
        .iter()
        .filter_map(|r| speed(r))
        .fold(0.0, f64::max);
    // Buying, value is speed per dollar of the purchase, for the run as entered: a card
    // without room for a larger run says so in its caveats rather than losing half its
    // value (two used 24 GB cards stay the value answer for a 70B at 4 bits). Renting, the
    // cost is already that of the work (the job, or a million tokens): dividing speed by
    // it again would count speed twice and make the dearest, fastest rental the "value".
    let value_of = |r: &Ranked| {
        let per_dollar = match workload.mode {
            Mode::Buy => speed(r)?,
            Mode::Rent => 1.0,
        };
        Some(per_dollar / cost(r)?)
    };
    let best_value = candidates
        .iter()
        .filter_map(|r| value_of(r))
        .fold(0.0, f64::max);
    // A pick's speed is told as a share of the flagship's (the card the answer names as
    // flagship, which a tie the estimate cannot resolve may have given to a cheaper card
    // than the fastest), else of the fastest candidate's.
    let pick = |tier: Tier, r: &Ranked, share_of: f64| Pick {
        tier,
        id: r.gpu.id.clone(),
        speed: speed(r),
        speed_share: speed(r).filter(|_| share_of > 0.0).map(|s| s / share_of),
        value_share: value_of(r)
            .filter(|_| best_value > 0.0)
            .map(|v| v / best_value),
        cost_usd: cost(r),
        among: candidates.len(),
        caveats: r.reasons.iter().filter(|x| is_caveat(x)).cloned().collect(),
        rent_job_usd: None,
        buy_usd: None,
        tie_share: None,
    };
    // The best by a key; ties go to the lower id so that picks are stable.
    let best_by = |key: &dyn Fn(&Ranked) -> Option<f64>| {
        candidates
            .iter()
            .filter_map(|r| key(r).map(|k| (k, *r)))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.gpu.id.cmp(&a.1.gpu.id)))
            .map(|(_, r)| r)
    };
    // A pick is something the person can get: its price (or rental) must be known. Of
    // those the estimate cannot tell from the fastest (`FLAGSHIP_TIE`), the cheapest.
    let fastest = best_by(&|r| {
        cost(r)?;
        speed(r)
    })
    .and_then(speed)
    .unwrap_or(0.0);
    let flagship = best_by(&|r| {
        let s = speed(r)?;
        (s >= (1.0 - FLAGSHIP_TIE) * fastest).then_some(())?;
        cost(r).map(|c| -c)
    });
    let share_of = flagship
        .and_then(speed)
        .filter(|s| *s > 0.0)
        .unwrap_or(best_speed);
    // Serving a batch, each of its users reads their own stream: the usable bar is per user
    // (`too_slow_to_use`).
    // The value pick is a card to rely on: the most speed per dollar among those that are
    // not a tight fit and reach a usable speed (the entry pick's bar, against the best
    // value's speed); when none does, among all.
    let tight = |r: &Ranked| {
        r.reasons
            .iter()
            .any(|x| matches!(x, Reason::TightFit { .. }))
    };
    // Serving a language model at a context the person did not set, a tight fit is that
    // of the assumed context, which a shorter one frees: a caveat for the value pick, not
    // a bar.
    let assumed_context = workload.task == Task::Infer && workload.seq.is_none();
    let tight_as_asked = |r: &Ranked| {
        let serving = r
            .speed
            .as_ref()
            .is_some_and(|s| s.unit == estimate::Unit::Tokens);
        tight(r) && !(assumed_context && serving)
    };
    let any_value = best_by(&value_of);
    let any_value_speed = any_value.and_then(speed).unwrap_or(0.0);
    let eligible = |r: &Ranked| {
        speed(r).is_some_and(|s| {
            s >= ENTRY_MIN_SPEED_SHARE * any_value_speed
                && !too_slow_to_use(r, workload)
                && !tight_as_asked(r)
        })
    };
    let most_value = best_by(&|r| {
        eligible(r).then_some(())?;
        value_of(r)
    });
    let value = most_value
        // Buying, a lead in value the estimate does not resolve (speeds within `FLAGSHIP_TIE`
        // are not told apart, nor their values at known prices) goes to the card with room for
        // a larger run, then to the one that runs the higher GGUF type: a used 11 GB RTX
        // 2080 Ti at Q6_K over an 8 GB RTX 3060 Ti at Q4_K_M 2% ahead for $400.
        .map(|best| {
            let bar = value_of(best).unwrap_or(f64::INFINITY) * (1.0 - FLAGSHIP_TIE);
            // Lower is better: the perplexity the card's GGUF type adds, none when unquantized.
            let loss = |r: &Ranked| {
                r.quantized()
                    .and_then(quant::perplexity_cost)
                    .unwrap_or(0.0)
            };
            let rank = |r: &Ranked| (has_room(r), -loss(r), value_of(r).unwrap_or(0.0));
            candidates
                .iter()
                .copied()
                .filter(|r| {
                    workload.mode == Mode::Buy
                        && eligible(r)
                        && value_of(r).is_some_and(|v| v >= bar)
                })
                .max_by(|a, b| {
                    let (ra, rb) = (rank(a), rank(b));
                    ra.0.cmp(&rb.0)
                        .then(ra.1.total_cmp(&rb.1))
                        .then(ra.2.total_cmp(&rb.2))
                        .then(b.gpu.id.cmp(&a.gpu.id))
                })
                .unwrap_or(best)
        })
        // Renting, the least money, unless a faster rental's hours cost within
        // `RENT_VALUE_TIE` of its hours: eight B300s for two hours at $97 of compute over eight
        // RTX 4090s for 33 hours at $90. The tie is what the estimate resolves of the hours;
        // the start-up each job also pays (`estimate::rent_start_hours`) is not estimated
        // from the card's speed and stays out of it.
        .map(|least| {
            let hours_cost = |r: &Ranked| {
                let hours = r.speed.as_ref().and_then(|s| s.job_hours);
                match (hours, r.cost.rent_usd_per_hour) {
                    (Some(h), Some(rate)) => Some(h.mid * rate),
                    _ => cost(r),
                }
            };
            let bar = hours_cost(least).unwrap_or(f64::INFINITY) * (1.0 + RENT_VALUE_TIE);
            best_by(&|r| {
                (workload.mode == Mode::Rent && eligible(r) && hours_cost(r)? <= bar)
                    .then_some(())?;
                speed(r)
            })
            .unwrap_or(least)
        })
        // When every usable card is a tight fit, the best of them; a card too slow to use is
        // no value at any price.
        .or(any_value.filter(|r| !too_slow_to_use(r, workload)));
    let value_speed = value.and_then(speed).unwrap_or(0.0);
    let value_cost = value.and_then(cost).unwrap_or(f64::INFINITY);
    // The entry pick starts the person off: usable speed, not a tight fit (a longer
    // sequence or fragmentation pushes it over), and no dearer than the value pick. Among
    // those, the cheapest with room for a larger run; when none has room, the cheapest. A
    // tight fit starts the person off only when every card that holds the run comfortably
    // costs over twice as much (1 / `GROWTH_SHARE`: what a purchase without room gives up):
    // 24 GB cards that hold a 16-bit LoRA of an 8B model tightly, not a $4,700 box.
    let usable = |r: &Ranked| {
        let Some(s) = speed(r) else { return false };
        s >= ENTRY_MIN_SPEED_SHARE * value_speed
            && !too_slow_to_use(r, workload)
            && cost(r).is_some_and(|c| c <= value_cost)
    };
    let comfortable = best_by(&|r| {
        (usable(r) && !tight(r) && has_room(r)).then_some(())?;
        cost(r).map(|c| -c)
    })
    .or_else(|| {
        best_by(&|r| {
            (usable(r) && !tight(r)).then_some(())?;
            cost(r).map(|c| -c)
        })
    });
    let cheapest_tight = best_by(&|r| {
        (usable(r) && tight(r)).then_some(())?;
        cost(r).map(|c| -c)
    });
    let entry = match (comfortable, cheapest_tight) {
        (Some(c), Some(t))
            if cost(c).unwrap_or(f64::INFINITY)
                > cost(t).unwrap_or(f64::INFINITY) / GROWTH_SHARE =>
        {
            Some(t)
        }
        (Some(c), _) => Some(c),
        (None, t) => t,
    };
    // The best card off NVIDIA, in ranking order, among those that suit but for their
    // stack (off CUDA is what this pick is for) when there are any, and, serving a language
    // model, that decode faster than people read (`USABLE_DECODE_TOKENS_S`) when any does.
    let non_nvidia = items
        .iter()
        .filter(|r| {
            r.fits() && r.gpu.vendor != Vendor::Nvidia && r.score.is_some() && speed(r).is_some()
        })
        .min_by_key(|r| {
            let slow = too_slow_to_use(r, workload);
            (!suits_on_its_stack(r, workload), slow)
        });
    let cheapest_purchase = candidates.iter().filter_map(|r| cost(r)).reduce(f64::min);
    let rent_instead = rental.and_then(|(id, job)| {
        let clearly = cheapest_purchase.is_none_or(|buy| job < RENT_CLEARLY_CHEAPER * buy);
        clearly.then(|| Pick {
            tier: Tier::RentInstead,
            id,
            speed: None,
            speed_share: None,
            value_share: None,
            cost_usd: Some(job),
            among: candidates.len(),
            caveats: Vec::new(),
            rent_job_usd: Some(job),
            buy_usd: cheapest_purchase,
            tie_share: None,
        })
    });
    Picks {
        flagship: flagship.map(|r| Pick {
            // Won the tie with a faster card the estimate cannot tell it from: its share of
            // that card's speed.
            tie_share: speed(r)
                .filter(|s| fastest > 0.0 && *s < fastest)
                .map(|s| s / fastest),
            ..pick(Tier::Flagship, r, share_of)
        }),
        value: value.filter(|_| !last_resort).map(|r| Pick {
            // Won a tie over the most value among the cards it was chosen from: its share of it.
            tie_share: most_value
                .filter(|m| m.gpu.id != r.gpu.id)
                .and_then(|m| Some(value_of(r)? / value_of(m)?)),
            ..pick(Tier::Value, r, share_of)
        }),
        entry: entry
            .filter(|_| !last_resort)
            .map(|r| pick(Tier::Entry, r, share_of)),
        non_nvidia: non_nvidia.map(|r| pick(Tier::NonNvidia, r, share_of)),
        rent_instead,
    }
}
