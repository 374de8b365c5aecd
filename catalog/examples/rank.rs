//! Prints the ranking for a workload given as a query string:
//! `cargo run -p catalog --example rank -- 'task=qlora&model=llama-3.1-70b'`

use catalog::rank::rank;
use catalog::share::parse;
use catalog::Catalog;

fn main() {
    let query = std::env::args().nth(1).unwrap_or_default();
    let catalog = Catalog::embedded();
    let (state, ignored) = parse(&query, catalog);
    for i in &ignored {
        eprintln!("ignored {}={} ({:?})", i.key, i.value, i.reason);
    }
    let ranking = rank(catalog, &state.workload, &state.filters);
    println!(
        "{}: needs {:.2} GB on one GPU {:?}",
        ranking.model.name,
        ranking.memory.total() / 1e9,
        ranking.memory
    );
    println!("picks: {:?}", ranking.picks);
    for (i, r) in ranking.items.iter().enumerate() {
        let speed = r
            .speed
            .as_ref()
            .map(|s| {
                format!(
                    "{:.1} [{:.1}–{:.1}] {:?} hours={:?}",
                    s.throughput.mid,
                    s.throughput.low,
                    s.throughput.high,
                    s.unit,
                    s.job_hours.map(|h| h.mid)
                )
            })
            .unwrap_or_default();
        println!(
            "{:2} {:24} score={:?} gpus={:?} mem={:.1}GB {} cost={:?}/{:?} why_not={:?}",
            i + 1,
            r.gpu.id,
            r.score.map(|s| (s * 1000.0).round() / 1000.0),
            r.gpus_needed(),
            r.memory.total() / 1e9,
            speed,
            r.cost.hardware_usd,
            r.cost.job_usd.map(|j| j.mid),
            r.why_not
        );
    }
}
