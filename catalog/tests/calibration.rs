//! The engine against published measurements (`fixtures/calibration.json`, each with
//! its source). Every fixture is estimated with the same constants; nothing is tuned per
//! fixture. The test prints each comparison and the share within ±25%, and fails if
//! that share falls below the level last measured, so the engine cannot silently get worse.

use catalog::estimate;
use catalog::memory;
use catalog::rank::resolve_model;
use catalog::workload::{ModelChoice, Precision, Task, Workload};
use catalog::Catalog;
use serde_json::Value;

const FIXTURES: &str = include_str!("fixtures/calibration.json");
/// Share of fixtures within ±25% at the last calibration; raise it when the engine improves.
const FLOOR: f64 = 0.62;

fn precision(token: &str) -> Precision {
    match token {
        "fp32" => Precision::Fp32,
        "fp16" => Precision::Fp16,
        t if t.starts_with("q4") || t.starts_with("nf4") => Precision::Int4,
        t if t.starts_with("q8") => Precision::Int8,
        _ => Precision::Bf16,
    }
}

fn task(token: &str) -> Task {
    Task::parse(token).unwrap_or(Task::Infer)
}

fn speed(catalog: &Catalog, gpu: &str, w: &Workload) -> Option<estimate::Speed> {
    let gpu = catalog.gpu(gpu)?;
    let model = resolve_model(catalog, w);
    let sized = memory::size_model(&model, w);
    let placement = estimate::place(gpu, &sized, w).ok()?;
    estimate::speed(gpu, &sized, w, &placement)
}

fn estimate_fixture(catalog: &Catalog, f: &Value) -> Option<(f64, f64)> {
    let s = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or_default();
    let n = |k: &str| f.get(k).and_then(Value::as_f64);
    let model = ModelChoice::Preset(s("model").into());
    match s("kind") {
        "train_throughput_ratio" => {
            let w = Workload {
                task: Task::Train,
                model,
                precision: precision(s("precision")),
                batch: 8,
                ..Workload::default()
            };
            let a = speed(catalog, s("gpu_a"), &w)?.throughput.mid;
            let b = speed(catalog, s("gpu_b"), &w)?.throughput.mid;
            Some((a / b, n("ratio")?))
        }
        "decode_tokens_per_s" => {
            let w = Workload {
                model,
                precision: precision(s("quant")),
                seq: Some(512),
                ..Workload::default()
            };
            let t = speed(catalog, s("gpu"), &w)?.throughput.mid;
            Some((t, n("tokens_per_s")?))
        }
        "prefill_tokens_per_s" => {
            let prompt = n("prompt_tokens").unwrap_or(512.0);
            let w = Workload {
                model,
                precision: precision(s("quant")),
                seq: Some(prompt as u32),
                ..Workload::default()
            };
            let p = speed(catalog, s("gpu"), &w)?.prefill_seconds?.mid;
            Some((prompt / p, n("tokens_per_s")?))
        }
        "memory_used_gb" => {
            let gpus = n("num_gpus").unwrap_or(1.0) as u32;
            let w = Workload {
                task: task(s("task")),
                model,
                precision: precision(s("precision")),
                batch: n("batch").unwrap_or(1.0) as u32,
                // A fixture without a sequence length ran the model's own context.
                seq: n("seq")
                    .map(|x| x as u32)
                    .or_else(|| catalog.model(s("model")).and_then(|m| m.default_seq)),
                gpus,
                ..Workload::default()
            };
            let unit = if s("unit") == "GB" {
                1e9
            } else {
                1_073_741_824.0
            };
            let model = resolve_model(catalog, &w);
            let sized = memory::size_model(&model, &w);
            let sharding = memory::sharding_for(&sized, &w, gpus, gpus)?;
            let need = memory::breakdown(&sized, &w, sharding).total();
            Some((need / unit, n("memory_gb")?))
        }
        _ => None,
    }
}

#[test]
fn estimates_land_near_published_measurements() {
    let catalog = Catalog::embedded();
    let fixtures: Vec<Value> = serde_json::from_str(FIXTURES).expect("calibration.json parses");
    assert!(fixtures.len() >= 15);
    let mut within = 0;
    let mut compared = 0;
    for f in &fixtures {
        let label = format!(
            "{} {} {} {}",
            f["kind"].as_str().unwrap_or_default(),
            f["model"].as_str().unwrap_or_default(),
            f.get("gpu")
                .or(f.get("gpu_a"))
                .and_then(Value::as_str)
                .unwrap_or_default(),
            f.get("gpu_b").and_then(Value::as_str).unwrap_or_default(),
        );
        match estimate_fixture(catalog, f) {
            Some((estimated, published)) => {
                compared += 1;
                let ratio = estimated / published;
                let ok = (0.75..=1.25).contains(&ratio);
                within += usize::from(ok);
                println!(
                    "{} {label}: estimated {estimated:.2}, published {published:.2} ({:+.0}%)",
                    if ok { "ok  " } else { "MISS" },
                    (ratio - 1.0) * 100.0
                );
            }
            None => println!("skip {label}: no estimate (missing data or fixture fields)"),
        }
    }
    let share = within as f64 / fixtures.len() as f64;
    println!(
        "calibration: {within} of {} fixtures within ±25% ({compared} compared), {:.0}%",
        fixtures.len(),
        share * 100.0
    );
    assert!(share >= FLOOR, "calibration fell to {:.0}%", share * 100.0);
}
