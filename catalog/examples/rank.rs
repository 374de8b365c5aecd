//! Prints the ranking for a workload given as a query string:
//! `cargo run -p catalog --example rank -- 'task=qlora&model=llama-3.1-70b'`
//! With `--json` it prints the export (`gpu-advisor/ranking@3`) instead, and with
//! `--csv` the same as CSV, so any question can be checked from a shell.

use catalog::export;
use catalog::rank::rank;
use catalog::share::{parse, print};
use catalog::Catalog;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let csv = args.iter().any(|a| a == "--csv");
    let query = args
        .iter()
        .find(|a| !a.starts_with("--"))
        .cloned()
        .unwrap_or_default();
    let catalog = Catalog::embedded();
    let (state, ignored) = parse(&query, catalog);
    for i in &ignored {
        eprintln!("ignored {}={} ({:?})", i.key, i.value, i.reason);
    }
    let ranking = rank(catalog, &state.workload, &state.filters);
    if json || csv {
        let link = format!("index.html?{}", print(&state));
        let evidence = catalog::evidence::Measurement::parse_all(catalog::data::MEASUREMENTS_JSON)
            .expect("measurements.json parses");
        let out = if json {
            export::to_json(&ranking, &state, &link, catalog.date(), &evidence)
        } else {
            export::to_csv(&ranking, &state, &evidence)
        };
        println!("{out}");
        return;
    }
    println!(
        "{}: needs {:.2} GB on one GPU {:?}",
        ranking.model.name,
        ranking.memory.total() / 1e9,
        ranking.memory
    );
    for pick in ranking.picks.all() {
        println!(
            "pick {:12} {:24} speed={:?} cost={:?} among={} caveats={:?}",
            pick.tier.as_str(),
            pick.id,
            pick.speed.map(|s| (s * 10.0).round() / 10.0),
            pick.cost_usd.map(|c| c.round()),
            pick.among,
            pick.caveats.iter().map(|c| c.code()).collect::<Vec<_>>()
        );
    }
    for alt in &ranking.alternatives {
        println!(
            "alternative {:?}: {} candidates, first {} speed={:?} cost={:?}",
            alt.change,
            alt.among,
            alt.top.gpu.id,
            alt.top
                .speed
                .as_ref()
                .map(|s| (s.throughput.mid * 10.0).round() / 10.0),
            alt.top.cost.hardware_usd.map(f64::round)
        );
    }
    if std::env::var_os("COMMANDS").is_some() {
        for r in ranking.items.iter().take(5) {
            if let Some(c) = catalog::command::command(r, &state.workload, &ranking.model) {
                println!("command {}: {c}", r.gpu.id);
            }
        }
    }
    for (i, r) in ranking.items.iter().enumerate() {
        let speed = r
            .speed
            .as_ref()
            .map(|s| {
                format!(
                    "{:.1} [{:.1}–{:.1}] {} hours={:?}",
                    s.throughput.mid,
                    s.throughput.low,
                    s.throughput.high,
                    export::unit_code(s.unit),
                    s.job_hours.map(|h| (h.mid * 10.0).round() / 10.0)
                )
            })
            .unwrap_or_default();
        println!(
            "{:2} {:24} {:7} ctx={:?} score={:?} gpus={:?} {} mem={:.1}GB {} price={:?} job={:?} why_not={:?}",
            i + 1,
            r.gpu.id,
            r.precision.as_str(),
            r.longest_context.map(|c| c.tokens),
            r.score.map(|s| (s * 1000.0).round() / 1000.0),
            r.gpus_needed(),
            r.placement.as_ref().map_or("-".to_string(), |p| format!(
                "{}{}{}",
                p.sharding.code(),
                if p.savers.checkpointing { "+ckpt" } else { "" },
                p.savers
                    .micro_batch
                    .map_or(String::new(), |m| format!("+mb{m}"))
            )),
            r.memory.total() / 1e9,
            speed,
            r.cost.purchase.as_ref().map(|p| (p.usd, p.kind.as_str())),
            r.cost.job_usd.map(|j| (j.mid * 100.0).round() / 100.0),
            r.why_not.as_ref().map(|w| w.code())
        );
    }
}
