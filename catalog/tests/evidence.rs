//! Which published measurement a card shows (`evidence::nearest`), read from the real data
//! file and real rankings.

use catalog::data::MEASUREMENTS_JSON;
use catalog::evidence::{self, Difference, Measurement};
use catalog::rank::rank;
use catalog::share::parse;
use catalog::Catalog;

fn rows() -> Vec<Measurement> {
    Measurement::parse_all(MEASUREMENTS_JSON).expect("measurements.json parses")
}

/// The nearest row for `gpu` under the workload a link's query describes.
fn nearest_for(
    query: &str,
    gpu: &str,
) -> Option<(Measurement, f64, Vec<Difference>, Option<String>)> {
    let catalog = Catalog::embedded();
    let rows = rows();
    let (state, ignored) = parse(query, catalog);
    assert!(ignored.is_empty(), "{query}: ignored {ignored:?}");
    let ranking = rank(catalog, &state.workload, &state.filters);
    let card = ranking.items.iter().find(|r| r.gpu.id == gpu)?;
    evidence::nearest(catalog, &rows, &state.workload, &ranking.model, card).map(|n| {
        (
            n.row.clone(),
            n.value,
            n.differs,
            n.versus.map(str::to_string),
        )
    })
}

#[test]
fn a_measured_run_of_the_cards_workload_matches_exactly() {
    // XiongjieDai's RTX 4090 row: Llama 3 8B Q4_K_M, llama.cpp, one request.
    let (row, value, differs, _) =
        nearest_for("task=infer&model=llama-3-8b&prec=int4&batch=1", "rtx-4090").expect("a row");
    assert_eq!(row.model(), "llama-3-8b");
    assert_eq!(row.text("kind"), "decode_tokens_per_s");
    assert!(differs.is_empty(), "{differs:?}");
    assert_eq!(Some(value), row.value());
}

#[test]
fn another_model_is_named_as_the_difference() {
    // No run measured Phi-4 (14.7B) on an RTX 3090: the nearest row is of another model,
    // and names it.
    let (row, _, differs, _) =
        nearest_for("task=infer&model=phi-4&prec=int4&batch=1", "rtx-3090").expect("a row");
    assert!(
        differs.contains(&Difference::Model(row.model().to_string())),
        "{differs:?} for {}",
        row.model()
    );
}

#[test]
fn a_run_of_a_sibling_model_names_it() {
    // The default workload is Llama 3.1 8B; the RX 9070 XT's desktop runs are of Qwen3 8B,
    // the same size of the same family: close, but not the card's own model, so named.
    let (row, _, differs, _) = nearest_for(
        "task=infer&model=llama-3.1-8b&prec=int4&batch=1",
        "rx-9070-xt",
    )
    .expect("a row");
    assert_eq!(row.model(), "qwen3-8b");
    assert!(
        differs.contains(&Difference::Sibling("qwen3-8b".into())),
        "{differs:?}"
    );
    assert!(
        !differs.iter().any(|d| matches!(d, Difference::Model(_))),
        "{differs:?}"
    );
}

#[test]
fn a_mixture_of_experts_is_not_a_dense_model_of_its_size() {
    // Qwen3.5 35B-A3B (3.5B active) was measured on a 3090 beside a 3060; for a dense
    // 32B on a 3090 that run is another model, however close their totals.
    let catalog = Catalog::embedded();
    let rows = rows();
    let (state, _) = parse("task=infer&model=qwen2.5-32b&prec=int4&batch=1", catalog);
    let ranking = rank(catalog, &state.workload, &state.filters);
    let card = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "rtx-3090")
        .expect("listed");
    let moe = rows
        .iter()
        .find(|r| r.model() == "qwen3.5-35b-a3b" && r.gpu() == "rtx-3090")
        .expect("the MoE row");
    let near = evidence::nearest(
        catalog,
        std::slice::from_ref(moe),
        &state.workload,
        &ranking.model,
        card,
    )
    .expect("a row");
    assert!(near
        .differs
        .contains(&Difference::Model("qwen3.5-35b-a3b".into())));
}

#[test]
fn a_ratio_row_gives_each_gpu_its_own_cell() {
    // Lambda's ResNet-50 rows: the RTX 3090 is the second GPU of the 4090/3090 ratio.
    let (row, value, _, versus) =
        nearest_for("task=train&model=resnet-50", "rtx-3090").expect("a row");
    assert_eq!(row.text("kind"), "train_throughput_ratio");
    if row.text("gpu_b") == "rtx-3090" {
        assert_eq!(Some(value), row.number("value_gpu_b"));
        assert_eq!(versus.as_deref(), Some(row.gpu()));
    } else {
        assert_eq!(Some(value), row.number("value_gpu"));
        assert_eq!(versus.as_deref(), Some(row.text("gpu_b")));
    }
}

#[test]
fn no_row_of_that_kind_of_work_shows_none() {
    // The H100 NVL's published rows all serve a model: none trains anything, and memory
    // rows are not speed.
    assert!(nearest_for("task=infer&model=qwen2.5-14b", "h100-nvl-94gb").is_some());
    assert!(nearest_for("task=train&model=resnet-50", "h100-nvl-94gb").is_none());
    // Serving rows never stand beside a training card.
    let training = nearest_for("task=qlora&model=llama-3.1-8b", "rtx-4090");
    if let Some((row, ..)) = training {
        assert!(
            row.text("kind").starts_with("train"),
            "{}",
            row.text("kind")
        );
    }
}

#[test]
fn the_closest_row_is_the_one_with_the_smallest_difference() {
    // One request on an RTX 4090 under llama.cpp: a batch-1 row of the same model beats a
    // batched one, and the batched one would name its batch.
    let catalog = Catalog::embedded();
    let rows = rows();
    let (state, _) = parse(
        "task=infer&model=llama-3-8b&prec=int4&batch=64&runtime=llamacpp",
        catalog,
    );
    let ranking = rank(catalog, &state.workload, &state.filters);
    let card = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "rtx-4090")
        .expect("the RTX 4090 is ranked");
    let n = evidence::nearest(catalog, &rows, &state.workload, &ranking.model, card)
        .expect("a row of the RTX 4090");
    assert!(
        n.differs.iter().any(|d| matches!(d, Difference::Batch(_))),
        "{:?}",
        n.differs
    );
    assert!(n.comparison.is_some());
}

#[test]
fn a_run_at_another_step_count_names_its_steps() {
    // SDXL on an RTX 4090: the rows at 20 and 50 steps are exact at their own count and name
    // it at any other, since seconds per image follow the steps.
    for (steps, exact) in [(20, true), (30, false)] {
        let query = format!("task=infer&model=sdxl&steps={steps}");
        let (row, _, differs, _) = nearest_for(&query, "rtx-4090").expect("a row");
        assert_eq!(row.model(), "sdxl");
        let named = differs.iter().any(
            |d| matches!(d, Difference::Steps(n) if Some(f64::from(*n)) == row.number("steps")),
        );
        assert_eq!(differs.is_empty(), exact, "{steps} steps: {differs:?}");
        assert_eq!(named, !exact, "{steps} steps: {differs:?}");
    }
}

#[test]
fn a_card_on_the_ladder_matches_rows_at_its_own_type() {
    // Asked with no precision, Qwen3 30B-A3B runs at Q8_0 on a DGX Spark (128 GB), and the
    // row measured at Q8_0 on it matches without a precision difference; asked in 16 bits,
    // the same row names its Q8_0.
    for (query, exact) in [
        ("task=infer&model=qwen3-30b-a3b", true),
        ("task=infer&model=qwen3-30b-a3b&prec=bf16", false),
    ] {
        let (row, _, differs, _) = nearest_for(query, "dgx-spark").expect("a row");
        assert_eq!(row.text("precision"), "q8_0", "{query}");
        let named = differs
            .iter()
            .any(|d| matches!(d, Difference::Precision(p) if p == "q8_0"));
        assert_eq!(named, !exact, "{query}: {differs:?}");
    }
}

/// A card whose GPU has no row at this kind of work shows the same model measured on
/// another GPU: of its vendor where one was, then the nearest in bandwidth, named first
/// among the differences. A card with a row of its own never does.
#[test]
fn without_a_row_of_its_own_a_card_shows_the_model_measured_on_a_neighbour() {
    let catalog = Catalog::embedded();
    let rows = rows();
    let query = "task=infer&model=qwen3-30b-a3b";
    let (state, _) = parse(query, catalog);
    let ranking = rank(catalog, &state.workload, &state.filters);
    let card = |id: &str| ranking.items.iter().find(|r| r.gpu.id == id).expect(id);
    let sixteen = card("rtx-4060-ti-16gb");
    assert!(evidence::nearest(catalog, &rows, &state.workload, &ranking.model, sixteen).is_none());
    let n = evidence::nearest_elsewhere(catalog, &rows, &state.workload, &ranking.model, sixteen)
        .expect("a neighbour");
    let Difference::Gpu(other) = &n.differs[0] else {
        panic!("{:?}", n.differs)
    };
    assert_ne!(other, "rtx-4060-ti-16gb");
    assert_eq!(n.row.model(), "qwen3-30b-a3b");
    let vendor = |id: &str| catalog.gpu(id).expect(id).vendor;
    assert_eq!(vendor(other), vendor("rtx-4060-ti-16gb"), "{other}");
    assert!(n.comparison.is_some(), "the engine's figure for that run");
    // The RTX 2080 ran this model itself: its own row, never a neighbour's.
    let own = evidence::nearest(
        catalog,
        &rows,
        &state.workload,
        &ranking.model,
        card("rtx-2080"),
    )
    .expect("its own row");
    assert!(!own.differs.iter().any(|d| matches!(d, Difference::Gpu(_))));
}

/// A run with part of its model in system memory is no neighbour for a card that holds
/// the model, and a card's own model wins over a sibling measured alike. The RTX 2080 ran
/// Gemma 2 9B with six of its layers on the CPU and Llama 3.1 8B whole on the GPU, in the
/// same tables: the RTX 2080 Ti, which holds Llama 3.1 8B, shows the latter.
#[test]
fn an_offloaded_run_is_no_neighbour_for_a_card_that_holds_the_model() {
    let catalog = Catalog::embedded();
    let rows = rows();
    let (state, _) = parse("task=infer&model=llama-3.1-8b", catalog);
    let ranking = rank(catalog, &state.workload, &state.filters);
    let card = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "rtx-2080-ti")
        .expect("in the catalog");
    assert!(card.placement.as_ref().is_some_and(|p| p.host.is_none()));
    let n = evidence::nearest_elsewhere(catalog, &rows, &state.workload, &ranking.model, card)
        .expect("a neighbour");
    assert_eq!(n.row.gpu(), "rtx-2080");
    assert_eq!(n.row.model(), "llama-3.1-8b");
    assert!(n
        .row
        .number("gpu_layers")
        .is_none_or(|on_gpu| on_gpu >= 32.0));
}

#[test]
fn a_llama_cpp_run_on_another_backend_than_the_vendors_own_names_it() {
    // Llama 2 7B on an Arc A770: the estimate models Intel's SYCL backend, so of the
    // runs at the card's own type the SYCL one is nearer than the Vulkan ones, and a
    // Vulkan run names its backend.
    let (row, _, differs, _) = nearest_for(
        "task=infer&model=llama-2-7b&prec=q4_k_m&batch=1",
        "arc-a770-16gb",
    )
    .expect("a row");
    assert_eq!(row.text("backend"), "sycl", "{differs:?}");
    assert!(!differs.iter().any(|d| matches!(d, Difference::Backend(_))));
    let (row, _, differs, _) =
        nearest_for("task=infer&model=qwen3-30b-a3b&gpus=2", "arc-a770-16gb").expect("a row");
    assert_eq!(row.text("backend"), "vulkan");
    assert!(
        differs.contains(&Difference::Backend("vulkan".into())),
        "{differs:?}"
    );
}

/// A LocalScore figure (`runtime: llamafile`) is the mean of its nine tests' rates: the
/// estimate of its generation rate is the mean of llama.cpp's at each test's middle.
#[test]
fn a_localscore_row_is_estimated_as_the_mean_of_its_tests() {
    let catalog = Catalog::embedded();
    let row = |runtime: &str, context: Option<u32>| {
        let context = context.map_or(String::new(), |c| format!(r#""context": {c}, "#));
        let json = format!(
            r#"[{{"kind": "decode_tokens_per_s", "gpu": "p40", "model": "llama-2-7b",
            "runtime": "{runtime}", "precision": "q4_0", "batch": 1, {context}"value": 40.9,
            "unit": "tokens/s", "date": "2025-05", "source_url": "https://example.org",
            "note": "a test row"}}]"#
        );
        let rows = Measurement::parse_all(&json).expect("parses");
        evidence::estimate(catalog, &rows[0])
            .expect("an estimate")
            .estimated
    };
    let tests = [
        (1024, 16),
        (4096, 256),
        (2048, 256),
        (2048, 768),
        (1024, 1024),
        (1280, 3072),
        (384, 1152),
        (64, 1024),
        (16, 1536),
    ];
    let mean = tests
        .iter()
        .map(|(p, g)| row("llamacpp", Some(p + g / 2)))
        .sum::<f64>()
        / 9.0;
    let localscore = row("llamafile", None);
    assert!(
        (localscore - mean).abs() < 1e-9 * mean,
        "{localscore} {mean}"
    );
    // Longer caches than the 512 positions a llama.cpp row without a context is read at.
    assert!(localscore < row("llamacpp", None));
}
