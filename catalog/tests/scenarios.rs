//! The expert scenario suite: questions practitioners ask, each with the answer an
//! experienced engineer gives and the public source behind it
//! (`tests/fixtures/scenarios.json`). A case the engine does not yet answer as a
//! practitioner would carries `engine_disagrees` saying what the engine lacks; it is
//! printed, not asserted, and printed again when it starts to agree so the marker can go.
//! Every other case must hold.

use catalog::rank::{rank, Ranked, Ranking, Tier};
use catalog::share::parse;
use catalog::workload::{Change, Precision, Task};
use catalog::Catalog;
use serde_json::Value;

const SCENARIOS: &str = include_str!("fixtures/scenarios.json");

fn ranking(query: &str) -> Ranking<'static> {
    let catalog = Catalog::embedded();
    let (state, ignored) = parse(query, catalog);
    assert!(ignored.is_empty(), "{query}: ignored {ignored:?}");
    rank(catalog, &state.workload, &state.filters)
}

fn item<'r>(r: &'r Ranking<'static>, id: &str) -> Result<&'r Ranked<'static>, String> {
    r.items
        .iter()
        .find(|i| i.gpu.id == id)
        .ok_or_else(|| format!("{id} is not in the catalog"))
}

fn speed(i: &Ranked) -> Result<f64, String> {
    i.speed
        .as_ref()
        .map(|s| s.throughput.mid)
        .ok_or_else(|| format!("{} has no speed estimate", i.gpu.id))
}

fn picked(r: &Ranking, pick: &str) -> Option<String> {
    let tier = match pick {
        "rank" => {
            return r
                .items
                .first()
                .filter(|i| i.fits())
                .map(|i| i.gpu.id.clone())
        }
        "flagship" => Tier::Flagship,
        "value" => Tier::Value,
        "entry" => Tier::Entry,
        "non_nvidia" => Tier::NonNvidia,
        _ => Tier::RentInstead,
    };
    r.picks.id(tier).map(str::to_string)
}

fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `Ok` when the engine gives the practitioner's answer, else what it said instead.
fn check(case: &Value) -> Result<(), String> {
    let s = |k: &str| case[k].as_str().unwrap_or_default();
    let n = |k: &str| case[k].as_f64();
    let r = ranking(s("query"));
    match s("kind") {
        "top_in" => {
            let got = picked(&r, s("pick"));
            let ok = got
                .as_ref()
                .is_some_and(|g| ids(&case["acceptable"]).contains(g));
            ok.then_some(()).ok_or(format!("{} is {got:?}", s("pick")))
        }
        "not_top" => {
            let got = picked(&r, s("pick"));
            let bad = got
                .as_ref()
                .is_some_and(|g| ids(&case["rejected"]).contains(g));
            (!bad)
                .then_some(())
                .ok_or(format!("{} is {got:?}", s("pick")))
        }
        "fits" | "does_not_fit" => {
            let i = item(&r, s("gpu"))?;
            let want = s("kind") == "fits";
            (i.fits() == want).then_some(()).ok_or(format!(
                "fits = {}, why_not {:?}",
                i.fits(),
                i.why_not
            ))
        }
        // Held on the card's own memory, nothing in system memory.
        "on_gpu" => {
            let i = item(&r, s("gpu"))?;
            let host = i.placement.as_ref().and_then(|p| p.host);
            (i.fits() && host.is_none()).then_some(()).ok_or(format!(
                "fits = {}, offloaded {}",
                i.fits(),
                host.is_some()
            ))
        }
        // Runs only with part of the model in the host's system memory (llama.cpp's
        // `-ngl` or `--n-cpu-moe`).
        "offloaded" => {
            let i = item(&r, s("gpu"))?;
            let host = i.placement.as_ref().and_then(|p| p.host);
            // Where the case names the type people run it in, the card runs that one.
            let typed = s("precision").is_empty() || i.precision.as_str() == s("precision");
            (i.fits() && host.is_some() && typed)
                .then_some(())
                .ok_or(format!(
                    "fits = {}, offloaded {}, at {}",
                    i.fits(),
                    host.is_some(),
                    i.precision.as_str()
                ))
        }
        "placement" => {
            let i = item(&r, s("gpu"))?;
            let code = i.placement.as_ref().map(|p| p.sharding.code());
            (i.fits() && code == Some(s("placement")))
                .then_some(())
                .ok_or(format!("fits = {}, placement {code:?}", i.fits()))
        }
        "faster" => {
            let a = speed(item(&r, s("faster"))?)?;
            let b = speed(item(&r, s("slower"))?)?;
            let ratio = a / b;
            let (lo, hi) = (
                n("min_ratio").unwrap_or(1.0),
                n("max_ratio").unwrap_or(f64::MAX),
            );
            (lo..=hi)
                .contains(&ratio)
                .then_some(())
                .ok_or(format!("ratio {ratio:.2}, expected {lo}–{hi}"))
        }
        "throughput_range" => {
            let t = speed(item(&r, s("gpu"))?)?;
            let (lo, hi) = (n("low").unwrap_or(0.0), n("high").unwrap_or(f64::MAX));
            (lo..=hi)
                .contains(&t)
                .then_some(())
                .ok_or(format!("{t:.1}, expected {lo}–{hi}"))
        }
        // Seconds from a prompt of the query's length to its first token.
        "first_token_range" => {
            let i = item(&r, s("gpu"))?;
            let t = i
                .speed
                .as_ref()
                .and_then(|s| s.prefill_seconds)
                .ok_or(format!("{} has no prompt time", i.gpu.id))?;
            let (lo, hi) = (n("low").unwrap_or(0.0), n("high").unwrap_or(f64::MAX));
            (lo..=hi)
                .contains(&t.mid)
                .then_some(())
                .ok_or(format!("{:.2} s, expected {lo}–{hi}", t.mid))
        }
        // A caveat the card must carry.
        "has_reason" => {
            let i = item(&r, s("gpu"))?;
            let codes: Vec<&str> = i.reasons.iter().map(|x| x.code()).collect();
            codes
                .contains(&s("reason"))
                .then_some(())
                .ok_or(format!("reasons {codes:?}"))
        }
        // What buying this GPU's placement costs, in whole units as sold.
        "hardware_range" => {
            let i = item(&r, s("gpu"))?;
            let h = i
                .cost
                .hardware_usd
                .ok_or(format!("{} has no purchase price", i.gpu.id))?;
            let (lo, hi) = (n("low").unwrap_or(0.0), n("high").unwrap_or(f64::MAX));
            (i.fits() && (lo..=hi).contains(&h))
                .then_some(())
                .ok_or(format!("fits = {}, ${h:.0}, expected {lo}–{hi}", i.fits()))
        }
        // What renting this GPU's placement for the training job costs, start-up included.
        "rent_job_range" => {
            let i = item(&r, s("gpu"))?;
            let j = i
                .cost
                .rent_job_usd
                .ok_or(format!("{} has no rented job cost", i.gpu.id))?;
            let (lo, hi) = (n("low").unwrap_or(0.0), n("high").unwrap_or(f64::MAX));
            (i.fits() && (lo..=hi).contains(&j.mid))
                .then_some(())
                .ok_or(format!(
                    "fits = {}, ${:.2}, expected {lo}–{hi}",
                    i.fits(),
                    j.mid
                ))
        }
        // When few GPUs run the workload as entered, the answer offers this change, and
        // the first GPU it opens up is one of these.
        "alternative" => {
            let change = match s("change").split_once('=') {
                Some(("gpus", n)) => n.parse().ok().map(Change::Gpus),
                Some(("prec", p)) => Precision::parse(p).map(Change::Precision),
                Some(("task", t)) => Task::parse(t).map(Change::Task),
                Some(("host", gb)) => gb.parse().ok().map(Change::Host),
                _ => None,
            }
            .ok_or(format!("unknown change {}", s("change")))?;
            let offered: Vec<String> = r
                .alternatives
                .iter()
                .map(|a| format!("{:?} → {}", a.change, a.top.gpu.id))
                .collect();
            r.alternatives
                .iter()
                .find(|a| a.change == change && ids(&case["acceptable"]).contains(&a.top.gpu.id))
                .map(|_| ())
                .ok_or(format!("alternatives offered: {offered:?}"))
        }
        other => Err(format!("unknown kind {other}")),
    }
}

#[test]
fn the_engine_answers_as_practitioners_do() {
    let cases: Vec<Value> = serde_json::from_str(SCENARIOS).expect("scenarios.json parses");
    assert!(cases.len() >= 30);
    let mut agree = 0;
    let mut known = Vec::new();
    let mut broken = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or_default();
        assert!(
            case["source"]
                .as_str()
                .is_some_and(|u| u.starts_with("https://")),
            "{name}: every case names its source"
        );
        let marked = case["engine_disagrees"].as_str();
        match (check(case), marked) {
            (Ok(()), None) => agree += 1,
            (Ok(()), Some(_)) => {
                agree += 1;
                println!("now agrees, remove engine_disagrees: {name}");
            }
            (Err(got), Some(why)) => known.push(format!("{name}: {got} ({why})")),
            (Err(got), None) => broken.push(format!("{name}: {got}")),
        }
    }
    println!(
        "expert scenarios: {agree} of {} agree; {} known disagreements:",
        cases.len(),
        known.len()
    );
    for k in &known {
        println!("  {k}");
    }
    assert!(
        broken.is_empty(),
        "the engine disagrees with practitioners:\n{}",
        broken.join("\n")
    );
}
