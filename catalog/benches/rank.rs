//! Ranking the whole catalog for one workload: `cargo bench -p catalog --bench rank`.

use catalog::rank::rank;
use catalog::share::Filters;
use catalog::workload::{ModelChoice, Precision, Task, Workload};
use catalog::Catalog;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn bench_rank(c: &mut Criterion) {
    let catalog = Catalog::embedded();
    let filters = Filters::default();
    let infer = Workload::default();
    let qlora = Workload {
        task: Task::Qlora,
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        gpus: 8,
        ..Workload::default()
    };
    // Serving on modules bought as servers tries copies of the model on each server.
    let team = Workload {
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        precision: Precision::Fp8,
        batch: 32,
        batch_given: true,
        gpus: 8,
        ..Workload::default()
    };
    // A 70B run locally: the cards whose highest type that fits decodes under reading
    // pace try the lower types too.
    let local_70b = Workload {
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        ..Workload::default()
    };
    c.bench_function("rank catalog, infer llama-3.1-8b", |b| {
        b.iter(|| rank(black_box(catalog), black_box(&infer), &filters))
    });
    c.bench_function("rank catalog, qlora llama-3.1-70b on up to 8 GPUs", |b| {
        b.iter(|| rank(black_box(catalog), black_box(&qlora), &filters))
    });
    c.bench_function("rank catalog, infer llama-3.1-70b locally", |b| {
        b.iter(|| rank(black_box(catalog), black_box(&local_70b), &filters))
    });
    c.bench_function(
        "rank catalog, serve llama-3.1-70b fp8 to 32 users on up to 8 GPUs",
        |b| b.iter(|| rank(black_box(catalog), black_box(&team), &filters)),
    );
}

criterion_group!(benches, bench_rank);
criterion_main!(benches);
