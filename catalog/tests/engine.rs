//! Properties the ranking must keep for any workload, and the standard formulas it must match.

use catalog::estimate;
use catalog::gpu::Vendor;
use catalog::memory::{self, Sharding};
use catalog::rank::{
    grades, rank, ruled_out_by_reason, set_back_by, suits, Chosen, Grade, Ranking, Reason, Tier,
    WhyNot, CHEAPER_WITH_CHANGE, FEW_CANDIDATES, USABLE_DECODE_TOKENS_S,
};
use catalog::share::Filters;
use catalog::workload::{
    Change, EcoRequirement, Mode, ModelChoice, Precision, Priority, Task, Workload,
};
use catalog::Catalog;
use proptest::prelude::*;

fn catalog() -> &'static Catalog {
    Catalog::embedded()
}

/// The ranking a shared link asks for.
fn ranked(query: &str) -> Ranking<'static> {
    let (state, _) = catalog::share::parse(query, catalog());
    rank(catalog(), &state.workload, &state.filters)
}

/// The mid speed of a GPU's card in a ranking.
fn mid_speed(r: &Ranking<'_>, id: &str) -> f64 {
    r.items
        .iter()
        .find(|i| i.gpu.id == id)
        .and_then(|i| i.speed.as_ref())
        .map(|s| s.throughput.mid)
        .expect("an estimate")
}

fn memory_need(w: &Workload) -> f64 {
    let ranking = rank(catalog(), w, &Filters::default());
    ranking.memory.total()
}

fn workload_strategy() -> impl Strategy<Value = Workload> {
    let models: Vec<String> = catalog().models.iter().map(|m| m.id.clone()).collect();
    (
        prop::sample::select(Task::ALL.to_vec()),
        prop_oneof![
            prop::sample::select(models).prop_map(ModelChoice::Preset),
            (0.1f64..500.0).prop_map(ModelChoice::Custom),
        ],
        prop::sample::select(Precision::ALL.to_vec()),
        1u32..64,
        prop::option::of(128u32..16_384),
        1u32..9,
        prop::sample::select(Mode::ALL.to_vec()),
        prop::sample::select(EcoRequirement::ALL.to_vec()),
        prop::sample::select(Priority::ALL.to_vec()),
        prop::option::of(100.0f64..200_000.0),
    )
        .prop_map(
            |(task, model, precision, batch, seq, gpus, mode, eco, priority, budget)| Workload {
                task,
                model,
                precision,
                batch,
                batch_given: true,
                seq,
                gpus,
                mode,
                eco,
                priority,
                budget_usd: budget,
                ..Workload::default()
            },
        )
}

fn ids(w: &Workload) -> Vec<(String, bool)> {
    rank(catalog(), w, &Filters::default())
        .items
        .iter()
        .map(|r| (r.gpu.id.clone(), r.fits()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Buying, every candidate's purchase is whole units as sold: a module's price covers
    /// whole servers or racks of `sold_in` GPUs, never fewer than the job uses, and a part
    /// whose unit is larger than the link allows is not a candidate. More than two PCIe
    /// cards bought carry the build caveat, fewer never.
    #[test]
    fn purchases_come_in_the_units_sold(w in workload_strategy(), gpus in 1u32..=8) {
        // Without a budget and with up to eight GPUs, so that servers are among the candidates.
        let w = Workload { mode: Mode::Buy, gpus, budget_usd: None, ..w };
        let ranking = rank(catalog(), &w, &Filters::default());
        for r in ranking.items.iter().filter(|r| r.fits()) {
            let unit = r.gpu.sold_in();
            let used = r.speed.as_ref().map(|s| s.gpus_used).or(r.gpus_needed()).unwrap_or(1);
            if unit > 1 {
                prop_assert!(unit <= w.max_gpus(), "{} sold in {unit} with {} allowed", r.gpu.id, w.max_gpus());
            }
            if let (Some(h), Some(p)) = (r.cost.hardware_usd, r.cost.purchase.as_ref()) {
                let bought = (h / p.usd).round() as u32;
                prop_assert!(bought >= used, "{}: {bought} bought for {used} used", r.gpu.id);
                prop_assert!(bought % unit == 0, "{}: {bought} not whole units of {unit}", r.gpu.id);
            }
            let build = r.reasons.iter().any(|x| x.code() == "multi-card-build");
            let pcie = r.gpu.form_factor == catalog::gpu::FormFactor::Pcie && r.gpu.tdp_w.is_some();
            prop_assert_eq!(build, pcie && used > 2, "{}: build caveat with {} cards", r.gpu.id, used);
        }
    }

    /// The ruled-out list names every GPU ruled out and not filtered away exactly once, in
    /// groups of one reason each, nearest to an option first, in the ranking's order within
    /// a group; and every GPU that fits names what sets it back exactly when it does not suit.
    #[test]
    fn ruled_out_groups_and_set_backs_cover_the_ranking(w in workload_strategy()) {
        let ranking = rank(catalog(), &w, &Filters::default());
        let groups = ruled_out_by_reason(&ranking.items);
        let listed: Vec<&str> = groups.iter().flatten().map(|i| i.gpu.id.as_str()).collect();
        let expected: Vec<&str> = ranking
            .items
            .iter()
            .filter(|i| i.why_not.is_some() && i.why_not != Some(WhyNot::Filtered))
            .map(|i| i.gpu.id.as_str())
            .collect();
        let mut a = listed.clone();
        let mut b = expected.clone();
        a.sort_unstable();
        b.sort_unstable();
        prop_assert_eq!(a, b);
        let mut last = None;
        for g in &groups {
            let code = g[0].why_not.as_ref().expect("ruled out").code();
            prop_assert!(g.iter().all(|i| i.why_not.as_ref().expect("ruled out").code() == code));
            let near = g[0].why_not.as_ref().expect("ruled out").nearness();
            prop_assert!(near > last, "{code} after a nearer group");
            last = near;
            let order: Vec<usize> = g
                .iter()
                .map(|i| ranking.items.iter().position(|x| x.gpu.id == i.gpu.id).expect("listed"))
                .collect();
            prop_assert!(order.windows(2).all(|p| p[0] < p[1]), "{code} out of the ranking's order");
        }
        for r in ranking.items.iter().filter(|r| r.fits()) {
            prop_assert_eq!(
                set_back_by(r, &w).is_some(),
                !suits(r, &w),
                "{}: {:?}",
                &r.gpu.id,
                &r.reasons
            );
        }
    }

    #[test]
    fn candidates_come_first_in_score_order(w in workload_strategy()) {
        let ranking = rank(catalog(), &w, &Filters::default());
        let fits: Vec<bool> = ranking.items.iter().map(|r| r.fits()).collect();
        prop_assert!(fits.windows(2).all(|p| p[0] || !p[1]), "a candidate after an excluded GPU");
        // GPUs that do not suit (off CUDA for a CUDA-first workload, passive cooling in a
        // workstation) come after those that do, and those that do not run the job as asked
        // (precision fallback, legacy wheels, weights below 4 bits) after those, the ones
        // that need something added (`in_the_way`) last; within each group, by score,
        // except that serving a language model, cards slower than each user reads follow
        // those that keep up when any card that suits keeps up.
        let group = |r: &catalog::rank::Ranked| {
            let as_asked = catalog::rank::runs_as_asked(r, &w);
            (
                !catalog::rank::suits(r, &w),
                !as_asked,
                !as_asked && r.reasons.iter().any(catalog::rank::in_the_way),
            )
        };
        let groups: Vec<(bool, bool, bool)> = ranking.items.iter().filter(|r| r.fits()).map(group).collect();
        prop_assert!(groups.windows(2).all(|p| p[0] <= p[1]), "groups out of order: {:?}", groups);
        let reading = ranking.items.iter().any(|r| {
            r.score.is_some() && catalog::rank::suits(r, &w) && catalog::rank::keeps_a_usable_pace(r, &w)
        });
        let slow = |r: &catalog::rank::Ranked| reading && catalog::rank::too_slow_to_use(r, &w);
        for g in [(false, false, false), (true, false, false), (true, true, false), (true, true, true)] {
            let order: Vec<(bool, f64)> = ranking.items.iter()
                .filter(|r| r.fits() && group(r) == g)
                .filter_map(|r| Some((slow(r), r.score?)))
                .collect();
            prop_assert!(
                order.windows(2).all(|p| (p[0].0, -p[0].1) <= (p[1].0, -p[1].1)),
                "scores out of order: {:?}", order
            );
        }
        prop_assert_eq!(ids(&w).len(), catalog().gpus.len());
    }

    #[test]
    fn grades_read_down_the_ranking(w in workload_strategy()) {
        // A card never reads better than one above it; the first scored card is an A;
        // only scored cards have a grade.
        let ranking = rank(catalog(), &w, &Filters::default());
        let grades = grades(&ranking.items);
        prop_assert_eq!(grades.len(), ranking.items.len());
        for (r, g) in ranking.items.iter().zip(&grades) {
            prop_assert_eq!(g.is_some(), r.score.is_some(), "{}", r.gpu.id);
        }
        let scored: Vec<Grade> = grades.iter().flatten().copied().collect();
        prop_assert!(scored.windows(2).all(|p| p[0] <= p[1]), "grades out of order: {:?}", scored);
        if let Some(first) = scored.first() {
            prop_assert_eq!(*first, Grade::A);
        }
    }

    #[test]
    fn only_a_purchase_asks_for_room_and_cooling(w in workload_strategy()) {
        // Renting has no next run and no case to fit; and the entry pick is never dearer
        // than the value pick.
        let ranking = rank(catalog(), &w, &Filters::default());
        for r in &ranking.items {
            let buy_only = r.reasons.iter().any(|x| matches!(x.code(), "no-room-to-grow" | "passive-cooling"));
            prop_assert!(w.mode == Mode::Buy || !buy_only, "{} marked {:?} when renting", r.gpu.id, r.reasons);
        }
        if let (Some(entry), Some(value)) = (&ranking.picks.entry, &ranking.picks.value) {
            prop_assert!(entry.cost_usd.unwrap_or(0.0) <= value.cost_usd.unwrap_or(f64::INFINITY));
        }
    }

    #[test]
    fn alternatives_only_when_few_run_it_or_the_pick_is_offloaded(w in workload_strategy()) {
        // The answer offers a change when at most `FEW_CANDIDATES` GPUs run the workload
        // as entered, or its first pick runs it only offloaded to CPU memory: each change
        // then gives more candidates (or, offloaded, a first pick that holds the job in GPU
        // memory). Otherwise only buying, and only a local change (a second GPU, more system
        // memory) whose entry pick costs at most `CHEAPER_WITH_CHANGE` of the entry pick as
        // entered (any, without one). Each first
        // GPU runs the changed workload, and the change is one the workload did not have.
        let ranking = rank(catalog(), &w, &Filters::default());
        let candidates = catalog::rank::choices(&ranking.picks);
        let offloaded = catalog::rank::first_pick_offloaded(&ranking.items, &ranking.picks);
        let few = candidates <= FEW_CANDIDATES || offloaded;
        let entry_cost = ranking.picks.entry.as_ref().and_then(|p| p.cost_usd);
        for alt in &ranking.alternatives {
            let mut changed = w.clone();
            alt.change.apply(&mut changed);
            prop_assert!(changed != w, "{:?} changes nothing", alt.change);
            prop_assert!(alt.top.fits(), "{:?}: first GPU {} does not fit", alt.change, alt.top.gpu.id);
            prop_assert_eq!(alt.cheaper, !few, "{:?}", alt.change);
            if alt.cheaper {
                prop_assert!(w.mode == Mode::Buy && matches!(alt.change, Change::Gpus(_) | Change::Host(_)), "{:?}", alt.change);
                let after = rank(catalog(), &changed, &Filters::default());
                let cost = after.picks.entry.as_ref().and_then(|p| p.cost_usd);
                prop_assert_eq!(after.picks.entry.as_ref().map(|p| p.id.as_str()), Some(alt.top.gpu.id.as_str()));
                prop_assert!(
                    entry_cost.is_none_or(|c| cost.is_some_and(|a| a <= CHEAPER_WITH_CHANGE * c)),
                    "{:?}: entry {:?} against {:?}", alt.change, cost, entry_cost
                );
            } else if offloaded {
                let after = rank(catalog(), &changed, &Filters::default());
                prop_assert!(
                    !catalog::rank::first_pick_offloaded(&after.items, &after.picks),
                    "{:?}: still offloaded", alt.change
                );
            } else {
                prop_assert!(alt.among > candidates, "{:?}: {} after, {} before", alt.change, alt.among, candidates);
            }
        }
    }

    #[test]
    fn more_gpus_never_make_a_fitting_job_unfit(w in workload_strategy(), more in 1u32..8, nodes in 1u32..4) {
        let bigger = Workload { gpus: w.gpus + more, nodes: w.nodes.max(1) * nodes, ..w.clone() };
        let model = catalog::rank::resolve_model(catalog(), &w);
        let sized = memory::size_model(&model, &w);
        for gpu in &catalog().gpus {
            if estimate::place(gpu, &sized, &w).is_ok() {
                prop_assert!(estimate::place(gpu, &sized, &bigger).is_ok(), "{} fits on {} GPUs but not {}", gpu.id, w.max_gpus(), bigger.max_gpus());
            }
        }
    }

    #[test]
    fn more_memory_savers_never_raise_memory(w in workload_strategy(), n in 1u32..16) {
        let w = Workload { task: if w.task.is_training() { w.task } else { Task::Train }, ..w };
        let model = catalog::rank::resolve_model(catalog(), &w);
        let sized = memory::size_model(&model, &w);
        let need = |w: &Workload, s: Sharding| memory::breakdown(&sized, w, s).total();
        let plain = Workload { checkpointing: Some(false), ..w.clone() };
        let ckpt = Workload { checkpointing: Some(true), ..w.clone() };
        let one = Workload { batch: 1, ..ckpt.clone() };
        let layouts = [Sharding::Single, Sharding::FullySharded { gpus: n }, Sharding::FsdpTensor { gpus: n * 2, tensor: 2 }, Sharding::Offloaded { gpus: n }];
        for s in layouts {
            prop_assert!(need(&ckpt, s) <= need(&plain, s) + 1.0, "checkpointing raised memory under {s:?}");
            prop_assert!(need(&one, s) <= need(&ckpt, s) + 1.0, "micro-batch 1 raised memory under {s:?}");
        }
        let fsdp = Sharding::FullySharded { gpus: n };
        let wide = Sharding::FullySharded { gpus: n * 2 };
        let tensor = Sharding::FsdpTensor { gpus: n * 2, tensor: 2 };
        let offload = Sharding::Offloaded { gpus: n };
        prop_assert!(need(&one, fsdp) <= need(&one, Sharding::Single) + 1.0, "FSDP raised memory");
        prop_assert!(need(&one, tensor) <= need(&one, wide) + 1.0, "tensor parallelism raised memory");
        prop_assert!(need(&one, offload) <= need(&one, fsdp) + 1.0, "offload raised memory");
    }

    #[test]
    fn larger_batch_or_sequence_never_lowers_memory(w in workload_strategy(), extra in 1u32..32) {
        let bigger_batch = Workload { batch: w.batch + extra, ..w.clone() };
        prop_assert!(memory_need(&bigger_batch) >= memory_need(&w));
        if let Some(seq) = w.seq {
            let longer = Workload { seq: Some(seq + extra * 64), ..w.clone() };
            prop_assert!(memory_need(&longer) >= memory_need(&w));
        }
    }

    #[test]
    fn higher_precision_never_lowers_memory(w in workload_strategy()) {
        // Ordered from fewest to most bytes. FP8 serving also stores the KV cache in 8 bits, so it
        // sits below weight-only INT8; training has no integer precisions (they train in BF16).
        let order: &[Precision] = if w.task.is_training() {
            &[Precision::Fp8, Precision::Bf16, Precision::Fp32]
        } else {
            &[Precision::Int4, Precision::Fp8, Precision::Int8, Precision::Bf16, Precision::Fp32]
        };
        let needs: Vec<f64> = order.iter().map(|p| memory_need(&Workload { precision: *p, ..w.clone() })).collect();
        for pair in needs.windows(2) {
            // Equal totals may differ in the last bit from summation order.
            prop_assert!(pair[1] >= pair[0] * (1.0 - 1e-12), "{needs:?}");
        }
    }

    #[test]
    fn larger_budget_never_removes_a_candidate(w in workload_strategy(), factor in 1.0f64..10.0) {
        let budget = w.budget_usd.unwrap_or(1000.0);
        let small = Workload { budget_usd: Some(budget), ..w.clone() };
        let large = Workload { budget_usd: Some(budget * factor), ..w.clone() };
        let fits_small: Vec<String> = ids(&small).into_iter().filter(|x| x.1).map(|x| x.0).collect();
        let fits_large: Vec<String> = ids(&large).into_iter().filter(|x| x.1).map(|x| x.0).collect();
        for id in fits_small {
            prop_assert!(fits_large.contains(&id), "{id} lost with a larger budget");
        }
    }

    #[test]
    fn cuda_requirement_returns_only_nvidia(w in workload_strategy()) {
        let w = Workload { eco: EcoRequirement::Cuda, ..w };
        let ranking = rank(catalog(), &w, &Filters::default());
        for r in ranking.items.iter().filter(|r| r.fits()) {
            prop_assert_eq!(r.gpu.vendor, Vendor::Nvidia);
        }
    }

    #[test]
    fn more_gpu_memory_never_turns_a_fit_into_a_non_fit(w in workload_strategy(), extra_gb in 1.0f64..200.0) {
        let mut bigger = catalog().clone();
        for g in &mut bigger.gpus { g.memory_gb += extra_gb; }
        let before = rank(catalog(), &w, &Filters::default());
        let after = rank(&bigger, &w, &Filters::default());
        for r in before.items.iter().filter(|r| r.placement.is_some()) {
            let same = after.items.iter().find(|a| a.gpu.id == r.gpu.id);
            prop_assert!(same.is_some_and(|a| a.placement.is_some()), "{} stopped fitting", r.gpu.id);
        }
    }
}

fn llama(
    id: &str,
    task: Task,
    precision: Precision,
    batch: u32,
    seq: u32,
) -> (catalog::Model, Workload) {
    let w = Workload {
        task,
        model: ModelChoice::Preset(id.into()),
        precision,
        batch,
        seq: Some(seq),
        ..Workload::default()
    };
    (catalog().model(id).cloned().expect("preset"), w)
}

/// EleutherAI's Transformer Math 101: KV cache = 2 · layers · kv_heads · head_dim · seq · batch · bytes.
#[test]
fn kv_cache_counts_grouped_query_attention() {
    let (m, w) = llama("llama-3.1-8b", Task::Infer, Precision::Bf16, 1, 8192);
    let sized = memory::size_model(&m, &w);
    // 2 × 32 layers × 8 KV heads × 128 × 8192 × 1 × 2 bytes = 1 GiB exactly.
    assert_eq!(sized.kv_cache(&w), 1_073_741_824.0);
    let (m70, w70) = llama("llama-3.1-70b", Task::Infer, Precision::Bf16, 1, 8192);
    // 2 × 80 × 8 × 128 × 8192 × 2 = 2.5 GiB.
    assert_eq!(
        memory::size_model(&m70, &w70).kv_cache(&w70),
        2_684_354_560.0
    );
}

#[test]
fn latent_attention_and_local_layers_shrink_the_kv_cache() {
    let (base, w) = llama("llama-3.1-8b", Task::Infer, Precision::Bf16, 1, 8192);
    // DeepSeek-V3's MLA caches 512 + 64 = 576 elements per token and layer.
    let mla = catalog::Model {
        kv_latent_dim: Some(576),
        ..base.clone()
    };
    // 32 layers × 576 × 8192 × 2 bytes.
    assert_eq!(
        memory::size_model(&mla, &w).kv_cache(&w),
        32.0 * 576.0 * 8192.0 * 2.0
    );
    // Half the layers local with a 1,024-token window: 16 full layers + 16 windowed.
    let local = catalog::Model {
        sliding_window: Some(1024),
        sliding_layers: Some(16),
        ..base.clone()
    };
    let per_token = 2.0 * 8.0 * 128.0 * 2.0;
    assert_eq!(
        memory::size_model(&local, &w).kv_cache(&w),
        per_token * (16.0 * 8192.0 + 16.0 * 1024.0)
    );
    // A window longer than the sequence changes nothing.
    let (_, short) = llama("llama-3.1-8b", Task::Infer, Precision::Bf16, 1, 512);
    assert_eq!(
        memory::size_model(&local, &short).kv_cache(&short),
        memory::size_model(&base, &short).kv_cache(&short)
    );
}

#[test]
fn weights_follow_bits_per_parameter() {
    let (m, w) = llama("llama-3.1-8b", Task::Infer, Precision::Bf16, 1, 2048);
    let b = memory::breakdown(&memory::size_model(&m, &w), &w, Sharding::Single);
    assert!((b.weights - 8.03e9 * 2.0).abs() < 1.0);
    let w4 = Workload {
        precision: Precision::Int4,
        ..w
    };
    let b4 = memory::breakdown(&memory::size_model(&m, &w4), &w4, Sharding::Single);
    assert!((b4.weights - 8.03e9 * 4.5 / 8.0).abs() < 1.0);
}

/// Mixed-precision AdamW: 16 bytes per parameter for weights, gradients and optimizer (Transformer Math 101, ZeRO).
#[test]
fn checkpointing_shrinks_a_unets_activations_and_an_sdxl_lora_fits_12_gb() {
    // kohya-ss/sd-scripts trains an SDXL LoRA at 1024×1024 in 8 GB (10 recommended) with
    // gradient checkpointing; without it the 16-bit UNet alone is 5.1 GB of a 16 GB card.
    let with = ranked("task=lora&model=sdxl&ckpt=1");
    let without = ranked("task=lora&model=sdxl&ckpt=0");
    let share = with.memory.activations / without.memory.activations;
    assert!(
        (share - memory::CONV_CHECKPOINT_SHARE).abs() < 1e-9,
        "{share}"
    );
    assert!(with.memory.total() < 10e9, "{:?}", with.memory);
    assert!(without.memory.total() < 16e9, "{:?}", without.memory);
    assert!(without.memory.total() > 12e9, "{:?}", without.memory);
    // The job is a LoRA's few thousand images (diffusers' SDXL example: 2,000), not the
    // 100,000 samples of a training run.
    let (state, _) = catalog::share::parse("task=lora&model=sdxl", catalog());
    let sdxl = catalog().model("sdxl").expect("in the catalog");
    assert_eq!(state.workload.samples_for(sdxl), 2_000);
    let (train, _) = catalog::share::parse("task=train&model=sdxl", catalog());
    assert_eq!(train.workload.samples_for(sdxl), 100_000);
    // ResNet-50 keeps its own, denser figure, and checkpointing shrinks it the same way.
    let resnet = |ckpt: u8| {
        ranked(&format!("task=train&model=resnet-50&batch=256&ckpt={ckpt}"))
            .memory
            .activations
    };
    assert!((resnet(1) / resnet(0) - memory::CONV_CHECKPOINT_SHARE).abs() < 1e-9);
}

#[test]
fn full_finetune_state_is_sixteen_bytes_per_parameter() {
    let (m, w) = llama("llama-3.1-8b", Task::Finetune, Precision::Bf16, 1, 2048);
    let b = memory::breakdown(&memory::size_model(&m, &w), &w, Sharding::Single);
    let state = b.weights + b.gradients + b.optimizer;
    assert!((state - 16.0 * 8.03e9).abs() < 1e3, "{state}");
}

#[test]
fn lora_rank_16_on_all_linear_layers_of_llama_3_8b_is_42_million_parameters() {
    let (m, w) = llama("llama-3.1-8b", Task::Lora, Precision::Bf16, 1, 2048);
    let p = memory::size_model(&m, &w).lora_params(16);
    // PEFT reports 41,943,040 trainable parameters for r=16, target_modules="all-linear".
    assert_eq!(p, 41_943_040.0);
}

#[test]
fn seventy_billion_needs_several_24_gb_cards_but_fits_one_h200_in_4_bit() {
    let w = Workload {
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        precision: Precision::Int4,
        gpus: 8,
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let get = |id: &str| ranking.items.iter().find(|r| r.gpu.id == id).expect(id);
    assert!(get("rtx-4090").gpus_needed().is_some_and(|n| n >= 2));
    assert_eq!(get("h200-sxm-141gb").gpus_needed(), Some(1));
}

#[test]
fn excluded_gpus_name_their_binding_constraint() {
    let w = Workload {
        eco: EcoRequirement::Rocm,
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let h100 = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "h100-sxm5-80gb")
        .expect("h100");
    assert_eq!(
        h100.why_not,
        Some(WhyNot::Ecosystem {
            required: EcoRequirement::Rocm
        })
    );
    let k80 = rank(catalog(), &Workload::default(), &Filters::default());
    let k80 = k80.items.iter().find(|r| r.gpu.id == "k80").expect("k80");
    assert!(matches!(k80.why_not, Some(WhyNot::PytorchDropped { .. })));
}

/// The seed's scenarios come out of the engine: big inputs need memory, text is small.
#[test]
fn medical_volumes_need_more_memory_than_bert_text() {
    let volume = Workload {
        task: Task::Train,
        model: ModelChoice::Preset("unet-3d".into()),
        batch: 2,
        batch_given: true,
        ..Workload::default()
    };
    let text = Workload {
        task: Task::Train,
        model: ModelChoice::Preset("bert-base".into()),
        batch: 2,
        batch_given: true,
        seq: Some(128),
        ..Workload::default()
    };
    assert!(memory_need(&volume) > memory_need(&text));
}

#[test]
fn picks_cover_the_seed_tiers() {
    let ranking = rank(catalog(), &Workload::default(), &Filters::default());
    let p = &ranking.picks;
    assert!(p.flagship.is_some() && p.value.is_some() && p.entry.is_some());
    let item = |id: Option<&str>| {
        ranking
            .items
            .iter()
            .find(|r| Some(r.gpu.id.as_str()) == id)
            .expect("a picked GPU is in the ranking")
    };
    let speed =
        |r: &catalog::rank::Ranked| r.speed.as_ref().map(|s| s.throughput.mid).unwrap_or(0.0);
    let flagship = item(p.id(Tier::Flagship));
    let entry = item(p.id(Tier::Entry));
    assert!(speed(flagship) >= speed(entry));
    assert!(ranking
        .items
        .iter()
        .filter(|r| r.fits() && r.cost.hardware_usd.is_some())
        .all(|r| speed(r) <= speed(flagship)));
    assert!(p.non_nvidia.as_ref().is_some_and(|pick| catalog()
        .gpu(&pick.id)
        .is_some_and(|g| g.vendor != Vendor::Nvidia)));
}

#[test]
fn balance_is_neither_the_speed_order_nor_the_value_order() {
    // Every candidate's score, by priority, for a home fine-tune.
    let order = |priority: Priority| -> Vec<String> {
        let w = Workload {
            task: Task::Qlora,
            priority,
            ..Workload::default()
        };
        rank(catalog(), &w, &Filters::default())
            .items
            .iter()
            .filter(|r| r.score.is_some())
            .map(|r| r.gpu.id.clone())
            .collect()
    };
    let (speed, balance, cost) = (
        order(Priority::Speed),
        order(Priority::Balance),
        order(Priority::Cost),
    );
    // Performance per dollar: the value order.
    let value = {
        let w = Workload {
            task: Task::Qlora,
            ..Workload::default()
        };
        let mut items: Vec<_> = rank(catalog(), &w, &Filters::default())
            .items
            .into_iter()
            .filter(|r| r.score.is_some())
            .filter_map(|r| {
                let s = r.speed.as_ref()?.throughput.mid;
                let c = r.cost.hardware_usd? + r.cost.energy_usd.map_or(0.0, |e| e.mid);
                Some((s / c, r.gpu.id.clone()))
            })
            .collect();
        items.sort_by(|a, b| b.0.total_cmp(&a.0));
        items.into_iter().map(|(_, id)| id).collect::<Vec<_>>()
    };
    assert!(balance.len() > 5);
    assert_ne!(balance, speed);
    assert_ne!(balance, cost);
    assert_ne!(balance, value);
}

#[test]
fn buying_for_a_short_training_job_suggests_renting_it() {
    // A LoRA of a 7B model on 2,000 examples: an hour or two of a rented GPU.
    let w = Workload {
        task: Task::Lora,
        model: ModelChoice::Preset("mistral-7b".into()),
        seq: Some(1024),
        samples: Some(2_000),
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let rent = ranking.picks.rent_instead.as_ref().expect("rent instead");
    let job = rent.rent_job_usd.expect("job cost");
    let buy = rent.buy_usd.expect("cheapest purchase");
    assert!(
        job < 0.25 * buy,
        "renting ${job:.0} against buying ${buy:.0}"
    );
    assert!(catalog().gpu(&rent.id).is_some_and(|g| g.is_rentable()));
    // Renting already, there is nothing to rent instead.
    let rented = rank(
        catalog(),
        &Workload {
            mode: Mode::Rent,
            ..w
        },
        &Filters::default(),
    );
    assert!(rented.picks.rent_instead.is_none());
}

#[test]
fn estimated_ranges_are_ordered() {
    for w in [
        Workload::default(),
        Workload {
            task: Task::Qlora,
            ..Workload::default()
        },
    ] {
        for item in rank(catalog(), &w, &Filters::default()).items {
            if let Some(s) = item.speed {
                assert!(
                    s.throughput.low <= s.throughput.mid && s.throughput.mid <= s.throughput.high,
                    "{}",
                    item.gpu.id
                );
            }
        }
    }
}

#[test]
fn under_a_budget_a_gpu_without_a_price_does_not_fit() {
    let w = Workload {
        task: Task::Qlora,
        seq: Some(2048),
        budget_usd: Some(1500.0),
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    for item in ranking.items.iter().filter(|r| r.fits()) {
        let price = item.cost.budget_figure;
        assert!(
            price.is_some_and(|p| p <= 1500.0),
            "{} fits a $1,500 budget at {:?}",
            item.gpu.id,
            price
        );
    }
    let gb200 = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "gb200")
        .expect("gb200");
    assert!(!gb200.fits(), "a GB200 passes a $1,500 budget");
}

#[test]
fn a_purchase_without_room_to_grow_says_so() {
    // 8B QLoRA at 2k tokens needs 12.3 GB, which a 12 GB card holds only tightly; twice
    // the context does not fit it. A 24 GB card has room, and a 10 GB card holds the run
    // only with its weights in CPU memory.
    let ranking = ranked("task=qlora&model=llama-3.1-8b&seq=2048&budget=1500");
    let item = |id: &str| ranking.items.iter().find(|r| r.gpu.id == id).expect(id);
    let reasons = |id: &str| -> Vec<&'static str> {
        assert!(item(id).fits(), "{id} should fit");
        item(id).reasons.iter().map(|x| x.code()).collect()
    };
    assert!(reasons("rtx-4070-super").contains(&"tight-fit"));
    assert!(reasons("rtx-4070-super").contains(&"no-room-to-grow"));
    assert!(!reasons("rtx-3090").contains(&"no-room-to-grow"));
    let offloads = item("rtx-3080")
        .placement
        .as_ref()
        .is_some_and(|p| p.sharding.code() == "fsdp-offload");
    assert!(offloads, "a 10 GB card holds it only by offloading");
    // The tiers start from the 16 GB cards: none of the picks is a tight fit.
    for p in ranking.picks.all() {
        assert!(
            !p.caveats.iter().any(|x| x.code() == "tight-fit"),
            "{:?} pick {} is a tight fit",
            p.tier,
            p.id
        );
    }
    // The same question rented: no next run, so no mark.
    let rented = ranked("task=qlora&model=llama-3.1-8b&seq=2048&mode=rent");
    assert!(rented
        .items
        .iter()
        .all(|r| !r.reasons.iter().any(|x| x.code() == "no-room-to-grow")));
}

#[test]
fn an_offloaded_run_states_the_larger_run_without_the_offload() {
    // 70B QLoRA on two 24 GB cards fits only with its weights in CPU memory (Answer.AI's
    // layout). Its larger run is stated as it would run sharded but not offloaded, which
    // the cards cannot hold; with the offload it would need less than a card holds and
    // the caveat would read as room.
    let ranking = ranked("task=qlora&model=llama-3.1-70b&gpus=2&budget=5000");
    let item = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "rtx-3090")
        .expect("rtx-3090");
    let offloads = item
        .placement
        .as_ref()
        .is_some_and(|p| p.sharding.code() == "fsdp-offload");
    assert!(offloads, "two 24 GB cards hold it only by offloading");
    let need = item
        .reasons
        .iter()
        .find_map(|x| match x {
            catalog::rank::Reason::NoRoomToGrow { need_bytes, .. } => Some(*need_bytes),
            _ => None,
        })
        .expect("an offloaded run has no room to grow");
    assert!(
        need > item.gpu.memory_bytes() as f64,
        "stated need {need} fits the card"
    );
}

#[test]
fn a_workstation_purchase_lists_server_cooled_cards_after_the_rest() {
    let (state, _) = catalog::share::parse(
        "task=infer&model=llama-3.1-8b&prec=int4&budget=400",
        catalog(),
    );
    let ranking = rank(catalog(), &state.workload, &state.filters);
    let v100 = ranking
        .items
        .iter()
        .position(|r| r.gpu.id == "v100-pcie-16gb")
        .expect("v100");
    assert!(ranking.items[v100].fits());
    assert!(ranking.items[v100]
        .reasons
        .iter()
        .any(|x| x.code() == "passive-cooling"));
    let active_after = ranking.items[v100..]
        .iter()
        .any(|r| r.fits() && catalog::rank::suits(r, &state.workload));
    assert!(
        !active_after,
        "a card that suits a workstation ranks after the V100"
    );
    // A server purchase (datacenter segment) keeps them in score order, unmarked.
    let ranked = ranked("task=infer&model=llama-3.1-8b&prec=int4&seg=datacenter");
    assert!(ranked
        .items
        .iter()
        .all(|r| !r.reasons.iter().any(|x| x.code() == "passive-cooling")));
}

#[test]
fn the_entry_pick_is_never_a_tight_fit() {
    for query in [
        "task=qlora&seq=2048&budget=1500",
        "task=infer&prec=int4&budget=400",
        "task=lora&model=mistral-7b&seq=1024",
    ] {
        let ranking = ranked(query);
        let Some(entry) = ranking.picks.id(Tier::Entry) else {
            continue;
        };
        let item = ranking
            .items
            .iter()
            .find(|r| r.gpu.id == entry)
            .expect("entry");
        assert!(
            !item.reasons.iter().any(|r| r.code() == "tight-fit"),
            "{query}: entry {entry} is a tight fit"
        );
    }
}

#[test]
fn the_value_pick_is_not_a_tight_fit_while_a_usable_card_is_not() {
    // ImageNet on one GPU at batch 256 needs 14.6 GB: a 16 GB Arc A770 holds it only
    // tightly and had been the value pick. (A roomy card too slow to use does not count:
    // 70B at 4 bits on two cards keeps a tight pair of 24 GB cards as the value pick.)
    let tight = |r: &catalog::rank::Ranked| r.reasons.iter().any(|x| x.code() == "tight-fit");
    for query in [
        "task=train&model=resnet-50&samples=1281167&epochs=90&batch=256",
        "task=qlora&seq=2048&budget=1500",
        "task=infer&prec=int4&budget=400",
    ] {
        let ranking = ranked(query);
        let Some(value) = ranking.picks.id(Tier::Value) else {
            continue;
        };
        let item = ranking
            .items
            .iter()
            .find(|r| r.gpu.id == value)
            .expect("value");
        let roomy = ranking
            .items
            .iter()
            .any(|r| r.fits() && r.score.is_some() && !tight(r));
        assert!(
            !(roomy && tight(item)),
            "{query}: value {value} is a tight fit"
        );
    }
}

#[test]
fn a_second_hgx_node_on_400g_infiniband_speeds_up_a_7b_data_parallel_job() {
    let one = Workload {
        task: Task::Train,
        model: ModelChoice::Custom(7.0),
        seq: Some(4096),
        batch: 1,
        batch_given: true,
        checkpointing: Some(true),
        gpus: 8,
        mode: Mode::Rent,
        network: catalog::workload::Network::Ib400,
        ..Workload::default()
    };
    let two = Workload {
        nodes: 2,
        ..one.clone()
    };
    let speed = |w: &Workload| {
        rank(catalog(), w, &Filters::default())
            .items
            .into_iter()
            .find(|r| r.gpu.id == "h100-sxm5-80gb")
            .and_then(|r| r.speed)
            .map(|s| s.throughput.mid)
            .expect("h100 speed")
    };
    // At least 1.6x; a little over 2x is possible, since FSDP over twice the GPUs halves
    // each GPU's share of the optimizer step.
    let gain = speed(&two) / speed(&one);
    assert!((1.6..=2.1).contains(&gain), "two nodes give {gain:.2}x");
}

#[test]
fn a_missing_link_figure_is_assumed_never_zero() {
    let w = Workload {
        task: Task::Train,
        model: ModelChoice::Preset("vit-b-16".into()),
        samples: Some(1_281_167),
        epochs: 90.0,
        batch: 256,
        batch_given: true,
        gpus: 8,
        mode: Mode::Rent,
        eco: EcoRequirement::Xla,
        ..Workload::default()
    };
    // The catalog's validation requires every listed link's bandwidth; a catalog loaded
    // without one (TPU v3's ICI taken out here) still gets a finite speed.
    let mut without = catalog().clone();
    let tpu = without
        .gpus
        .iter_mut()
        .find(|g| g.id == "tpu-v3")
        .expect("tpu-v3");
    tpu.interconnect.as_mut().expect("ICI").bandwidth_gbs = None;
    let ranking = rank(&without, &w, &Filters::default());
    let item = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "tpu-v3")
        .expect("tpu-v3");
    let s = item.speed.as_ref().expect("a speed");
    assert!(s.throughput.low > 100.0, "{:?}", s.throughput);
    assert!(
        s.job_hours.is_some_and(|h| h.high < 1000.0),
        "{:?}",
        s.job_hours
    );
    assert!(
        item.reasons.iter().any(|r| r.code() == "link-assumed"),
        "TPU v3 says the link is assumed"
    );
}

#[test]
fn serving_uses_one_copy_of_the_model_on_the_fewest_gpus() {
    let w = Workload {
        task: Task::Infer,
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        precision: Precision::Int4,
        gpus: 4,
        budget_usd: Some(35_000.0),
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let a6000 = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "rtx-a6000")
        .expect("a6000");
    // 70B at 4 bits fits one 48 GB card: one card is used and priced, not four.
    assert_eq!(a6000.speed.as_ref().map(|s| s.gpus_used), Some(1));
    let price = a6000
        .cost
        .purchase
        .as_ref()
        .map(|p| p.usd)
        .expect("a price");
    assert_eq!(a6000.cost.hardware_usd, Some(price));
}

#[test]
fn your_price_wins_over_the_catalogs_and_holds_the_budget() {
    let mut w = Workload {
        task: Task::Qlora,
        seq: Some(2048),
        budget_usd: Some(1500.0),
        ..Workload::default()
    };
    let item = |w: &Workload| {
        rank(catalog(), w, &Filters::default())
            .items
            .into_iter()
            .find(|r| r.gpu.id == "rtx-4090")
            .expect("rtx-4090")
    };
    assert!(!item(&w).fits(), "the catalog's 4090 price is over $1,500");
    w.set_your_price("rtx-4090", Some(1400.0));
    let yours = item(&w);
    assert!(yours.fits());
    let p = yours.cost.purchase.expect("a price");
    assert_eq!((p.usd, p.kind.as_str()), (1400.0, "yours"));
    w.set_your_price("rtx-4090", None);
    assert!(w.your_prices.is_empty());
}

/// Real-time factor of Whisper on one GPU at a batch of 30-s windows.
fn whisper_speed(model: &str, gpu: &str, batch: u32) -> estimate::Speed {
    whisper_speed_at(model, gpu, batch, Precision::Fp16)
}

/// The same at a given precision.
fn whisper_speed_at(model: &str, gpu: &str, batch: u32, precision: Precision) -> estimate::Speed {
    let w = Workload {
        model: ModelChoice::Preset(model.into()),
        precision,
        batch,
        ..Workload::default()
    };
    let gpu = catalog().gpu(gpu).expect("the GPU is in the catalog");
    let m = catalog::rank::resolve_model(catalog(), &w);
    let sized = memory::size_model(&m, &w);
    let placement = estimate::place(gpu, &sized, &w).expect("Whisper fits");
    estimate::speed(gpu, &sized, &w, &placement).expect("a speed")
}

#[test]
fn whisper_reads_as_a_multiple_of_real_time() {
    // faster-whisper's README: 13 min of audio in 63 s on an RTX 3070 Ti (12.7× real
    // time, large-v2, beam 5). A 4090 is faster, but a decoder step is mostly fixed cost,
    // so not by the ratio of their compute.
    let one = whisper_speed("whisper-large-v3", "rtx-4090", 1);
    assert_eq!(one.unit, estimate::Unit::AudioSeconds);
    assert!(
        (8.0..60.0).contains(&one.throughput.mid),
        "{:?}",
        one.throughput
    );
    // Batching windows shares each decoder step's weight reads and fixed cost.
    let eight = whisper_speed("whisper-large-v3", "rtx-4090", 8);
    assert!(eight.throughput.mid > 2.0 * one.throughput.mid);
}

#[test]
fn faster_whisper_int8_pays_a_quantize_kernel_per_dense_layer() {
    // faster-whisper's README (March 2023, Tesla V100S, large-v2, beam 5): 54 s at FP16 and
    // 59 s at INT8 for the same 13 minutes. Volta has no INT8 tensor cores, and every INT8
    // dense layer quantizes its input in a kernel of its own, a sixth more kernels per
    // decoder layer than FP16's: the halved weight reads do not pay for them.
    let fp16 = whisper_speed_at("whisper-large-v3", "v100-pcie-32gb", 1, Precision::Fp16);
    let int8 = whisper_speed_at("whisper-large-v3", "v100-pcie-32gb", 1, Precision::Int8);
    assert!(
        int8.throughput.mid < fp16.throughput.mid,
        "int8 {:?} against fp16 {:?}",
        int8.throughput,
        fp16.throughput
    );
}

#[test]
fn a_launch_price_stands_in_only_for_a_card_still_sold_new() {
    use catalog::gpu::{Availability, PriceKind};
    let mut gpu = catalog().gpu("rtx-4090").expect("rtx-4090").clone();
    gpu.price.street_usd = None;
    gpu.price.used_usd = None;
    gpu.price.msrp_usd = Some(1599.0);
    gpu.availability = vec![Availability::New, Availability::Used];
    assert_eq!(gpu.purchase(false).map(|p| p.kind), Some(PriceKind::Launch));
    // Sold only second-hand, without a used price: what it costs today is unknown.
    gpu.availability = vec![Availability::Used];
    assert_eq!(gpu.purchase(false), None);
    assert_eq!(gpu.purchase(true), None);
}

#[test]
fn a_grade_is_a_step_of_the_best_score() {
    // Steps of GRADE_STEP (0.15) below the best candidate's score.
    let cases = [
        (1.0, Grade::A),
        (0.86, Grade::A),
        (0.84, Grade::B),
        (0.71, Grade::B),
        (0.69, Grade::C),
        (0.56, Grade::C),
        (0.54, Grade::D),
        (0.41, Grade::D),
        (0.39, Grade::E),
        (0.0, Grade::E),
    ];
    for (share, grade) in cases {
        assert_eq!(Grade::of_share(share), grade, "share {share}");
    }
    assert_eq!(
        Grade::of_share(f64::NAN).letter(),
        Grade::of_share(0.0).letter()
    );
}

#[test]
fn adapters_recompute_by_default_except_in_megatron() {
    use catalog::workload::Framework;
    let lora = Workload {
        task: Task::Lora,
        ..Workload::default()
    };
    assert!(lora.checkpointing());
    let megatron = Workload {
        framework: Some(Framework::Megatron),
        ..lora.clone()
    };
    assert!(!megatron.checkpointing());
    // What the link says wins over either default.
    let asked = Workload {
        checkpointing: Some(true),
        ..megatron
    };
    assert!(asked.checkpointing());
    let full = Workload {
        task: Task::Finetune,
        ..Workload::default()
    };
    assert!(!full.checkpointing());
}

#[test]
fn gradient_accumulation_keeps_the_largest_micro_batch_that_fits() {
    // ResNet-50 at batch 256 needs about 15 GB; a 10 GB RTX 3080 runs it as two
    // micro-batches of 128, not 256 of one (a batch-norm net would not train as entered),
    // and without recomputation, which costs more than accumulating does.
    let w = Workload {
        task: Task::Train,
        model: ModelChoice::Preset("resnet-50".into()),
        batch: 256,
        batch_given: true,
        ..Workload::default()
    };
    let gpu = catalog().gpu("rtx-3080").expect("in the catalog");
    let model = catalog::rank::resolve_model(catalog(), &w);
    let sized = memory::size_model(&model, &w);
    let p = estimate::place(gpu, &sized, &w).expect("fits with accumulation");
    assert_eq!(p.savers.micro_batch, Some(128));
    assert!(!p.savers.checkpointing);
}

#[test]
fn a_mac_that_holds_the_model_only_with_its_gpu_limit_raised_fits_and_says_so() {
    use catalog::rank::Reason;
    // DeepSeek-V3 at 4 bits with a 128K context needs about 418 GB: more than the 384 GiB
    // (412 GB) macOS gives the GPU of a 512 GB Mac Studio by default, less than the 507 GiB
    // it gives once raised.
    let w = Workload {
        model: ModelChoice::Preset("deepseek-v3".into()),
        precision: Precision::Int4,
        seq: Some(131_072),
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let mac = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "apple-m3-ultra")
        .expect("in the catalog");
    assert!(mac.placement.is_some(), "{:?}", mac.why_not);
    // The card measures the fit against the raised limit, not the default 384 GB.
    assert!(mac.usable_bytes >= mac.memory.total());
    assert!(mac.usable_bytes > estimate::usable_memory(mac.gpu));
    assert!(mac
        .reasons
        .iter()
        .any(|r| matches!(r, Reason::UnifiedMemory { raised: true, .. })));
    // A model that fits by default says nothing of raising the limit.
    let small = rank(catalog(), &Workload::default(), &Filters::default());
    let mac = small
        .items
        .iter()
        .find(|r| r.gpu.id == "apple-m3-ultra")
        .expect("in the catalog");
    assert!(mac
        .reasons
        .iter()
        .any(|r| matches!(r, Reason::UnifiedMemory { raised: false, .. })));
}

#[test]
fn offloading_pairs_that_outpace_every_card_holding_the_job_rank_above_them() {
    // 70B QLoRA on up to two GPUs for $5,000: two RTX 3090s with FSDP and CPU offload run
    // it several times faster than the 128 GB unified-memory boxes that hold it whole.
    let w = Workload {
        task: Task::Qlora,
        model: ModelChoice::Preset("llama-3.1-70b".into()),
        seq: Some(2048),
        gpus: 2,
        budget_usd: Some(5000.0),
        ..Workload::default()
    };
    let ranking = rank(catalog(), &w, &Filters::default());
    let at = |id: &str| {
        ranking
            .items
            .iter()
            .position(|r| r.gpu.id == id)
            .expect("in the catalog")
    };
    let speed = |id: &str| {
        ranking.items[at(id)]
            .speed
            .as_ref()
            .map_or(0.0, |s| s.throughput.mid)
    };
    assert!(speed("rtx-3090") > speed("dgx-spark"));
    assert!(at("rtx-3090") < at("dgx-spark"));
    // Offloading that is slower than a card holding the job still comes after it.
    let one = Workload {
        task: Task::Finetune,
        model: ModelChoice::Preset("llama-3.1-8b".into()),
        mode: Mode::Rent,
        ..Workload::default()
    };
    let ranking = rank(catalog(), &one, &Filters::default());
    let first_offload = ranking
        .items
        .iter()
        .position(|r| {
            matches!(
                r.placement.as_ref().map(|p| p.sharding),
                Some(Sharding::Offloaded { .. })
            )
        })
        .expect("some card offloads");
    let holder = ranking
        .items
        .iter()
        .position(|r| r.gpu.id == "b200")
        .expect("in the catalog");
    assert!(holder < first_offload);
}

#[test]
fn cuda_first_workloads_list_other_stacks_after_the_cuda_cards() {
    let ranked = |query: &str| {
        let (state, ignored) = catalog::share::parse(query, catalog());
        assert!(ignored.is_empty(), "{query}: {ignored:?}");
        (
            rank(catalog(), &state.workload, &state.filters),
            state.workload,
        )
    };
    // Diffusion at home runs on PyTorch: the Radeon that scores highest is listed after
    // every CUDA card that suits, and is the non-NVIDIA pick.
    let (sdxl, w) = ranked("task=infer&model=sdxl&budget=2000");
    let xtx = sdxl
        .items
        .iter()
        .position(|r| r.gpu.id == "rx-7900-xtx")
        .expect("listed");
    assert!(sdxl.items[xtx].off_stack && sdxl.items[xtx].fits());
    assert!(sdxl.items[..xtx]
        .iter()
        .any(|r| catalog::rank::suits(r, &w)));
    assert!(sdxl.items[xtx..]
        .iter()
        .all(|r| !r.fits() || !catalog::rank::suits(r, &w)));
    assert_eq!(
        sdxl.picks.non_nvidia.as_ref().map(|p| p.id.as_str()),
        Some("rx-7900-xtx")
    );
    assert!(sdxl
        .picks
        .all()
        .filter(|p| p.tier != catalog::rank::Tier::NonNvidia)
        .all(|p| {
            catalog()
                .gpu(&p.id)
                .is_some_and(|g| g.vendor == catalog::gpu::Vendor::Nvidia)
        }));
    // A Mac says why it is listed after them.
    let (lora, _) = ranked("task=lora&model=llama-3.1-8b&seq=2048");
    let mac = lora
        .items
        .iter()
        .find(|r| r.gpu.id == "apple-m4-max")
        .expect("listed");
    assert!(mac.off_stack && mac.reasons.iter().any(|x| x.code() == "metal-not-cuda"));
    // Local decoding through llama.cpp and a named ecosystem have no stack to be off; the
    // server modules the same link lists are served by vLLM, and TPUs by Transformers on
    // XLA, both CUDA first.
    for query in [
        "task=infer&model=llama-3.1-70b&prec=int4",
        "task=infer&model=sdxl&budget=2000&eco=rocm",
    ] {
        let (r, _) = ranked(query);
        let local = |x: &&catalog::rank::Ranked| {
            x.software == catalog::deploy::Software::LlamaCpp || query.contains("eco=")
        };
        assert!(
            r.items.iter().filter(local).all(|x| !x.off_stack),
            "{query}"
        );
        assert!(r
            .items
            .iter()
            .filter(local)
            .all(|x| x.reasons.iter().all(|y| y.code() != "metal-not-cuda")));
    }
    let (local70, _) = ranked("task=infer&model=llama-3.1-70b&prec=int4");
    for id in ["rx-7900-xtx", "apple-m3-ultra", "arc-a770-16gb"] {
        let x = local70
            .items
            .iter()
            .find(|r| r.gpu.id == id)
            .expect("listed");
        assert_eq!(x.software, catalog::deploy::Software::LlamaCpp, "{id}");
        assert!(!x.off_stack, "{id}");
    }
    let mi300x = local70
        .items
        .iter()
        .find(|r| r.gpu.id == "mi300x")
        .expect("listed");
    assert_eq!(mi300x.software, catalog::deploy::Software::Vllm);
}

#[test]
fn an_offloaded_run_says_how_much_system_memory_it_takes() {
    // What sits in CPU memory beside the GPUs: a full fine-tune's 16 bytes per parameter of
    // weights, gradients and AdamW state (8B: about 128 GB), and for a 70B QLoRA the NF4
    // base (about 4.1 bits per weight, 36 GB) with the 16-bit embeddings and adapters.
    let host = |query: &str, id: &str| {
        let ranking = ranked(query);
        let item = ranking
            .items
            .iter()
            .find(|r| r.gpu.id == id)
            .expect("in the catalog");
        item.reasons
            .iter()
            .find_map(|r| match r {
                catalog::rank::Reason::MemorySavers {
                    offload: true,
                    host_bytes,
                    ..
                } => Some(*host_bytes),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{query}: {id} is not offloaded: {:?}", item.reasons))
    };
    let full = host("task=finetune&model=llama-3.1-8b", "rtx-4090");
    assert!(
        (120e9..140e9).contains(&full),
        "8B full fine-tune: {full:e}"
    );
    let qlora = host("task=qlora&model=llama-3.1-70b&gpus=2", "rtx-3090");
    assert!(
        (36e9..48e9).contains(&qlora),
        "70B QLoRA on two cards: {qlora:e}"
    );
}

#[test]
fn jobs_that_fit_on_each_gpu_run_plain_data_parallel() {
    // ResNet-50 at 256 images per GPU and an 8B LoRA at four sequences per GPU fit on each
    // of eight datacenter GPUs: practitioners run them with DDP, a full copy on each, and
    // the card should say so rather than "sharded with FSDP". A 7B full training run (112
    // GB of weights, gradients and AdamW state) does not fit on one 80 GB card and is
    // sharded.
    let layout = |query: &str, id: &str| {
        let ranking = ranked(query);
        let item = ranking.items.iter().find(|r| r.gpu.id == id).expect(id);
        let p = item.placement.as_ref().expect("fits");
        (p.gpus, p.sharding.code())
    };
    let resnet = "task=train&model=resnet-50&batch=256&gpus=8&mode=rent";
    assert_eq!(layout(resnet, "a100-sxm4-80gb"), (8, "single"));
    let lora = "task=lora&model=llama-3.1-8b&seq=2048&batch=4&gpus=8&mode=rent";
    assert_eq!(layout(lora, "h100-sxm5-80gb"), (8, "single"));
    let full = "task=train&params=7&seq=4096&batch=1&ckpt=1&gpus=8&mode=rent";
    let (gpus, code) = layout(full, "h100-sxm5-80gb");
    assert_eq!(gpus, 8);
    assert_ne!(
        code, "single",
        "112 GB of state does not fit on one 80 GB card"
    );
}

#[test]
fn int8_without_int8_tensor_cores_runs_on_dp4a() {
    // A Tesla P40 has no tensor cores but DP4A: NVIDIA's 47 TOPS INT8 against 11.8 TFLOPS
    // FP32. Its INT8 rate is not the 0.18 TFLOPS of its FP16 pipeline; a V100's INT8 runs
    // on DP4A too, below its FP16 tensor cores; a T4 has INT8 tensor cores; a P100
    // (compute capability 6.0) has no DP4A.
    let gpu = |id: &str| catalog().gpus.iter().find(|g| g.id == id).expect(id);
    let int8 = Workload {
        precision: Precision::Int8,
        ..Workload::default()
    };
    let rate = |id: &str| estimate::peak_rate(gpu(id), &int8, false).expect("a rate");
    let (p40, kind) = rate("p40");
    assert!((p40 - 4.0 * 11.76).abs() < 0.01, "{p40}");
    assert_eq!(kind, estimate::RateKind::Shader(Precision::Int8));
    let (v100, _) = rate("v100-pcie-32gb");
    assert!(v100 < gpu("v100-pcie-32gb").fp16_tensor_tflops.expect("tensor"));
    assert_eq!(rate("t4").1, estimate::RateKind::Tensor(Precision::Int8));
    assert!(estimate::dp4a_tops(gpu("p100-pcie-16gb")).is_none());
}

#[test]
fn serving_a_language_model_the_non_nvidia_pick_reads_faster_than_people_do_when_one_can() {
    // Llama 3.1 70B in 4 bits had a 128 GB Ryzen box at 4.4 tokens/s as the non-NVIDIA pick
    // while a Mac decodes it at 14.
    for query in [
        "task=infer&model=llama-3.1-70b&prec=int4",
        "task=infer&model=llama-3.1-70b&prec=int4&budget=5000",
        "task=infer&model=qwen2.5-32b&prec=int4",
        "task=infer&model=llama-3.1-8b",
    ] {
        let ranking = ranked(query);
        let Some(pick) = ranking.picks.id(Tier::NonNvidia) else {
            continue;
        };
        let speed = |id: &str| {
            ranking
                .items
                .iter()
                .find(|r| r.gpu.id == id)
                .and_then(|r| r.speed.as_ref())
                .map(|s| s.throughput.mid)
        };
        let usable_exists = ranking.items.iter().any(|r| {
            r.fits()
                && r.gpu.vendor != Vendor::Nvidia
                && r.score.is_some()
                && r.speed
                    .as_ref()
                    .is_some_and(|s| s.throughput.mid >= USABLE_DECODE_TOKENS_S)
        });
        let picked = speed(pick).unwrap_or(0.0);
        assert!(
            !usable_exists || picked >= USABLE_DECODE_TOKENS_S,
            "{query}: non-NVIDIA pick {pick} decodes at {picked:.1} tokens/s"
        );
    }
}

#[test]
fn serving_a_batch_the_entry_pick_is_usable_for_each_user() {
    // Llama 3.1 8B for sixteen users under vLLM, $10,000: a DGX Spark decoding 96 tokens/s
    // in all (6 for each user) was the entry pick, "the cheapest at a usable speed".
    for query in [
        "task=infer&model=llama-3.1-8b&batch=16&runtime=vllm&budget=10000",
        "task=infer&model=llama-3.1-8b&batch=32&mode=rent",
        "task=infer&model=llama-3.1-70b&prec=int4&batch=8&runtime=vllm",
    ] {
        let ranking = ranked(query);
        let batch = f64::from(
            catalog::share::parse(query, Catalog::embedded())
                .0
                .workload
                .batch,
        );
        let per_user = |id: &str| {
            ranking
                .items
                .iter()
                .find(|r| r.gpu.id == id)
                .and_then(|r| r.speed.as_ref())
                .map_or(0.0, |s| s.throughput.mid / batch)
        };
        let usable_exists = ranking.items.iter().any(|r| {
            r.score.is_some()
                && r.speed
                    .as_ref()
                    .is_some_and(|s| s.throughput.mid / batch >= USABLE_DECODE_TOKENS_S)
        });
        for tier in [Tier::Entry, Tier::Value] {
            let Some(id) = ranking.picks.id(tier) else {
                continue;
            };
            assert!(
                !usable_exists || per_user(id) >= USABLE_DECODE_TOKENS_S,
                "{query}: {tier:?} pick {id} decodes {:.1} tokens/s per user",
                per_user(id)
            );
        }
    }
}

#[test]
fn serving_a_batch_the_cards_that_keep_up_with_each_user_lead() {
    // The same $10,000 query put the DGX Spark first in the ranking and the answer: the
    // best balance of speed and price, at 6 tokens/s for each of sixteen users.
    for query in [
        "task=infer&model=llama-3.1-8b&batch=16&runtime=vllm&budget=10000",
        "task=infer&model=llama-3.1-8b&batch=32&mode=rent",
        "task=infer&model=llama-3.1-70b&prec=int4&batch=8&runtime=vllm",
    ] {
        let ranking = ranked(query);
        let workload = catalog::share::parse(query, Catalog::embedded()).0.workload;
        let batch = f64::from(workload.batch);
        let keeps_up = |r: &catalog::rank::Ranked| {
            r.speed
                .as_ref()
                .is_some_and(|s| s.throughput.mid / batch >= USABLE_DECODE_TOKENS_S)
        };
        // Among the scored cards that suit, every one that keeps up ranks before every
        // one that does not.
        let suited: Vec<_> = ranking
            .items
            .iter()
            .filter(|r| r.score.is_some() && catalog::rank::suits(r, &workload))
            .collect();
        if let Some(first_slow) = suited.iter().position(|r| !keeps_up(r)) {
            if let Some(late) = suited[first_slow..].iter().find(|r| keeps_up(r)) {
                panic!(
                    "{query}: {} keeps up with each user and ranks after {}, which does not",
                    late.gpu.id, suited[first_slow].gpu.id
                );
            }
        }
        assert!(
            keeps_up(&ranking.items[0]),
            "{query}: the first card {} does not keep up with each user",
            ranking.items[0].gpu.id
        );
    }
}

#[test]
fn a_module_on_fewer_gpus_than_its_server_costs_the_server_and_fills_it() {
    // Llama 3.1 70B in FP8 for 32 users fits a few H100s; they come as an 8-GPU server,
    // whose other GPUs hold copies of the model that share the users.
    let ranking = ranked("model=llama-3.1-70b&prec=fp8&batch=32&gpus=8");
    let h100 = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "h100-sxm5-80gb")
        .expect("in the catalog");
    let share = h100.cost.purchase.as_ref().expect("a server price").usd;
    assert_eq!(h100.cost.hardware_usd, Some(8.0 * share));
    let copies = h100
        .reasons
        .iter()
        .find_map(|r| match r {
            catalog::rank::Reason::ServerUnit {
                unit: 8,
                servers: 1,
                used,
                host: true,
                copies,
            } => Some((*used, *copies)),
            _ => None,
        })
        .expect("the server is named");
    let (used, n) = copies;
    assert!(n >= 2, "{copies:?}");
    assert_eq!(h100.speed.as_ref().map(|s| s.gpus_used), Some(used));
    // The copies together serve the 32 users faster than one copy for all of them on
    // four GPUs does.
    let one = ranked("model=llama-3.1-70b&prec=fp8&batch=32&gpus=4");
    let four = one
        .items
        .iter()
        .find(|r| r.gpu.id == "h100-sxm5-80gb")
        .and_then(|r| r.speed.as_ref())
        .map(|s| (s.gpus_used, s.throughput.mid))
        .expect("an estimate");
    let whole = h100
        .speed
        .as_ref()
        .map(|s| s.throughput.mid)
        .expect("an estimate");
    assert!(
        whole > four.1 * 1.1,
        "{whole} on the server against {four:?}"
    );
    // A rack part is no option for a buyer of eight.
    let gb200 = ranking
        .items
        .iter()
        .find(|r| r.gpu.id == "gb200")
        .expect("in the catalog");
    assert_eq!(gb200.why_not, Some(WhyNot::ServerOnly { gpus: 72 }));
}

/// A $1,500 QLoRA purchase: the cards listed after the ones that suit name why (the
/// stack off CUDA, the CPU offload, FP16 for lack of BF16), and the 53-odd GPUs ruled out
/// come as a few reasons, server modules last.
#[test]
fn cards_below_the_top_say_what_sets_them_back_and_ruled_out_reads_by_reason() {
    let query = "task=qlora&model=llama-3.1-8b&seq=2048&batch=4&budget=1500";
    let (state, _) = catalog::share::parse(query, catalog());
    let ranking = rank(catalog(), &state.workload, &state.filters);
    let w = &state.workload;
    let back = |id: &str| {
        let r = ranking
            .items
            .iter()
            .find(|r| r.gpu.id == id)
            .expect("in the catalog");
        set_back_by(r, w).cloned()
    };
    assert_eq!(back("rtx-4080-super"), None);
    assert_eq!(back("rx-7900-xtx"), Some(Reason::RocmNotCuda));
    assert_eq!(back("v100-pcie-16gb"), Some(Reason::NoBf16UsesFp16));
    assert!(matches!(
        back("rtx-3080"),
        Some(Reason::MemorySavers { offload: true, .. })
    ));
    let groups = ruled_out_by_reason(&ranking.items);
    let codes: Vec<&str> = groups
        .iter()
        .map(|g| g[0].why_not.as_ref().expect("ruled out").code())
        .collect();
    assert_eq!(codes.first(), Some(&"budget"));
    assert_eq!(codes.last(), Some(&"server-only"));
    assert!(groups.len() <= 6, "{codes:?}");
    let listed: usize = groups.iter().map(Vec::len).sum();
    assert!(listed > 40, "{listed} ruled out");
}

/// A card's "How this was estimated" adds up to its speed: a step of the terms at the
/// band's middle efficiencies produces a throughput inside the band.
#[test]
fn the_terms_of_an_estimate_add_up_to_its_band() {
    let catalog = Catalog::embedded();
    for (query, gpu, overlapped) in [
        ("task=infer&model=llama-3.1-8b&prec=int4", "rtx-4090", true),
        (
            "task=infer&model=llama-3.1-70b&prec=fp8&gpus=4&runtime=vllm",
            "h100-sxm5-80gb",
            true,
        ),
        ("task=finetune&model=llama-3.1-8b", "h100-sxm5-80gb", false),
    ] {
        let (state, _) = catalog::share::parse(query, catalog);
        let ranking = catalog::rank::rank(catalog, &state.workload, &state.filters);
        let item = ranking
            .items
            .iter()
            .find(|i| i.gpu.id == gpu)
            .expect("the GPU is ranked");
        let speed = item.speed.as_ref().expect("a speed");
        let t = speed.terms;
        let work = if overlapped {
            t.compute_s.max(t.memory_s)
        } else {
            t.compute_s + t.memory_s
        };
        let mid = t.per_step / (work + t.communication_s + t.fixed_s);
        assert!(
            speed.throughput.low * 0.999 <= mid && mid <= speed.throughput.high * 1.001,
            "{query} on {gpu}: {mid} outside {:?} ({t:?})",
            speed.throughput
        );
        assert!(t.tflops > 0.0 && t.bandwidth_gbs > 0.0);
        assert!(
            t.compute_share.0 <= t.compute_share.1 && t.bandwidth_share.0 <= t.bandwidth_share.1
        );
    }
}

/// A bandwidth measured on the person's card (`measured=`) lowers that card's decode in
/// proportion when it falls below what a healthy card of its datasheet measures in a
/// browser, leaves it alone above that, says so on the card, and reaches the cards paired
/// with it; other cards are untouched.
#[test]
fn a_measured_bandwidth_below_the_datasheets_slows_that_card_alone() {
    let speed = mid_speed;
    let measured_reason = |r: &Ranking, id: &str| {
        r.items.iter().find(|i| i.gpu.id == id).and_then(|i| {
            i.reasons.iter().find_map(|x| match x {
                Reason::MeasuredBandwidth { factor, .. } => Some(*factor),
                _ => None,
            })
        })
    };
    let base = "task=infer&model=llama-3.1-8b&prec=q4_k_m";
    let plain = ranked(base);
    // 936 GB/s × 0.70 ≈ 657 GB/s is what a healthy RTX 3090 measures in a browser.
    let low = ranked(&format!("{base}&measured=rtx-3090:400"));
    let high = ranked(&format!("{base}&measured=rtx-3090:900"));
    let ratio = speed(&low, "rtx-3090") / speed(&plain, "rtx-3090");
    let (lo, hi) = catalog::bench::WEBGPU_BANDWIDTH_EFFICIENCY;
    let factor = 400.0 / (936.0 * (lo * hi).sqrt());
    // Decode is bandwidth-bound with a fixed per-layer cost: slower, though by less than
    // the bandwidth alone.
    assert!(ratio < 0.85 && ratio > factor - 0.01, "{ratio} vs {factor}");
    let f = measured_reason(&low, "rtx-3090").expect("said on the card");
    assert!((f - factor).abs() < 1e-9, "{f}");
    assert_eq!(speed(&high, "rtx-3090"), speed(&plain, "rtx-3090"));
    assert_eq!(measured_reason(&high, "rtx-3090"), Some(1.0));
    assert_eq!(speed(&low, "rtx-4090"), speed(&plain, "rtx-4090"));
    assert_eq!(measured_reason(&low, "rtx-4090"), None);
    // Beside an owned 3090 measured slow, an added 4090's box is slower too.
    let have = "task=infer&model=llama-3.1-70b&have=rtx-3090";
    let paired = ranked(have);
    let paired_low = ranked(&format!("{have}&measured=rtx-3090:400"));
    assert!(speed(&paired_low, "rtx-4090") < speed(&paired, "rtx-4090"));
    assert!(measured_reason(&paired_low, "rtx-4090").is_some());
}

/// A quantized KV cache buys context, not speed, in llama.cpp: at 32k tokens an 8B model
/// on a 12 GB card
/// decodes no faster with a Q8_0 cache than with F16 (published depth sweeps show it
/// slower), while the longest context that fits grows.
#[test]
fn a_quantized_kv_cache_lengthens_the_context_without_speeding_decode() {
    let item = |q: &str| {
        let r = ranked(q);
        let i = r
            .items
            .into_iter()
            .find(|i| i.gpu.id == "rtx-3060")
            .expect("listed");
        (
            i.speed.as_ref().map(|s| s.throughput.mid).expect("speed"),
            i.longest_context.map(|c| c.tokens).expect("context"),
        )
    };
    let base = "task=infer&model=llama-3.1-8b&prec=q4_k_m&seq=32768";
    let (f16_speed, f16_ctx) = item(base);
    let (q8_speed, q8_ctx) = item(&format!("{base}&kv=q8"));
    assert!(q8_speed <= f16_speed * 1.001, "{q8_speed} vs {f16_speed}");
    assert!(q8_ctx > f16_ctx, "{q8_ctx} vs {f16_ctx}");
}

/// A type that fits but decodes slower than people read gives way to a lower one that does
/// not, or to the fastest at 4 bits or more: a 70B on a 128 GB M3 Max (400 GB/s) runs at
/// Q4_K_M, not Q8_0 at about half that pace, and says why; a card fast enough at the
/// highest type that fits keeps it.
#[test]
fn a_type_too_slow_to_read_gives_way_to_a_faster_one() {
    let r = ranked("task=infer&model=llama-3-70b");
    let card = |id: &str| r.items.iter().find(|i| i.gpu.id == id).expect("listed");
    let laddered = |id: &str| -> (Precision, bool) {
        card(id)
            .reasons
            .iter()
            .find_map(|x| match x {
                Reason::Quantized {
                    precision, paced, ..
                } => Some((*precision, *paced)),
                _ => None,
            })
            .expect("a laddered type")
    };
    assert_eq!(laddered("apple-m3-max"), (Precision::Q4KM, true));
    let mac = mid_speed(&r, "apple-m3-max");
    let q8_mac = mid_speed(
        &ranked("task=infer&model=llama-3-70b&prec=q8_0"),
        "apple-m3-max",
    );
    assert!(mac > 1.5 * q8_mac, "{mac} vs {q8_mac}");
    // Fast enough at Q8_0: kept.
    assert_eq!(laddered("rtx-pro-6000-blackwell"), (Precision::Q8_0, false));
}

/// Offloaded, a card runs the model at Q4_K_M at most (`quant::OFFLOAD_CEILING`), and its
/// type's reason says it is the offloaded type rather than the highest that fits.
#[test]
fn an_offloaded_card_runs_q4_k_m_and_says_why() {
    let r = ranked("task=infer&model=qwen3-30b-a3b");
    let card = r
        .items
        .iter()
        .find(|i| i.gpu.id == "rtx-4060-ti-16gb")
        .expect("listed");
    assert!(card.placement.as_ref().is_some_and(|p| p.host.is_some()));
    assert!(card.reasons.iter().any(|x| matches!(
        x,
        Reason::Quantized {
            precision: catalog::workload::Precision::Q4KM,
            offloaded: true,
            ..
        }
    )));
    // A card that holds it whole says the plain reason.
    let whole = r
        .items
        .iter()
        .find(|i| i.gpu.id == "rtx-3090")
        .expect("listed");
    assert!(whole.reasons.iter().any(|x| matches!(
        x,
        Reason::Quantized {
            offloaded: false,
            ..
        }
    )));
}

/// torchtune's one-GPU full fine-tune keeps BF16 weights, one parameter's gradient and a
/// paged 8-bit AdamW: on a 24 GB card the state that finds no room waits in system memory
/// and the job runs on the card alone, slower by the pages' PCIe trips; a 48 GB card holds
/// it all. The same job in PyTorch with mixed-precision Adam offloads with FSDP.
#[test]
fn torchtune_pages_its_optimizer_state_where_the_card_is_full() {
    let query = "task=finetune&model=llama-3.1-8b&gpus=1&batch=2&seq=2048";
    let tt = ranked(&format!("{query}&fw=torchtune"));
    let item = |r: &Ranking<'static>, id: &str| {
        let i = r
            .items
            .iter()
            .find(|i| i.gpu.id == id)
            .expect("in the catalog");
        let p = i.placement.clone().expect("fits");
        (p, i.speed.as_ref().expect("has a speed").throughput.mid)
    };
    let (on_4090, paged_speed) = item(&tt, "rtx-4090");
    assert_eq!(on_4090.sharding, Sharding::Single);
    // 8.03 billion parameters at two bytes of 8-bit moments: 16 GB, nearly all paged.
    assert!(
        (12e9..16.1e9).contains(&on_4090.paged_optimizer),
        "paged {:e}",
        on_4090.paged_optimizer
    );
    let (on_a6000, _) = item(&tt, "rtx-a6000");
    assert_eq!(on_a6000.paged_optimizer, 0.0);
    assert!(on_a6000.memory.optimizer > 15e9);
    // Only the largest parameter's gradient is held (the optimizer steps in backward).
    assert!(
        on_a6000.memory.gradients < 1.1e9,
        "{:e}",
        on_a6000.memory.gradients
    );
    // The pages cost time: the same card with room for the state would be faster.
    let mut roomy = on_4090.clone();
    roomy.paged_optimizer = 0.0;
    let (state, _) = catalog::share::parse(&format!("{query}&fw=torchtune"), catalog());
    let gpu = catalog().gpu("rtx-4090").expect("in the catalog");
    let model = catalog().model("llama-3.1-8b").expect("in the catalog");
    let sized = memory::size_model(model, &state.workload);
    let unpaged = estimate::speed(gpu, &sized, &state.workload, &roomy)
        .expect("has a speed")
        .throughput
        .mid;
    assert!(
        paged_speed < 0.9 * unpaged,
        "{paged_speed} against {unpaged}"
    );
    let pt = ranked(query);
    let (peft, _) = item(&pt, "rtx-4090");
    assert_eq!(peft.sharding.code(), "fsdp-offload");
    assert_eq!(peft.paged_optimizer, 0.0);
}

/// `prec=auto` on a served deployment loads a model's checkpoint in the format it is
/// published in: DeepSeek-V3's FP8 on eight H200s for a team, gpt-oss-120b's MXFP4 on one
/// rented H100. Asked in 16 bits, neither fits there; where the GPU has no kernel for
/// the format (FP8 on an A100), the card does not load it (and runs 4-bit weights
/// instead: `a_served_model_too_big_at_16_bits_runs_fp8_else_4_bit_weights`).
#[test]
fn a_served_model_loads_its_checkpoint_as_released() {
    let served_in = |query: &str, id: &str| -> (Option<Precision>, bool) {
        let r = ranked(query);
        let card = r.items.iter().find(|i| i.gpu.id == id).expect("listed");
        let p = card.reasons.iter().find_map(|x| match x {
            Reason::Quantized { precision, .. } => Some(*precision),
            _ => None,
        });
        (p, card.fits())
    };
    let team = "task=infer&model=deepseek-v3&gpus=8&batch=32";
    assert_eq!(
        served_in(team, "h200-sxm-141gb"),
        (Some(Precision::Fp8), true)
    );
    assert_eq!(
        served_in(team, "a100-sxm4-80gb"),
        (Some(Precision::Int4), true)
    );
    assert!(!served_in(&format!("{team}&prec=bf16"), "h200-sxm-141gb").1);
    // A named vLLM loads the checkpoint all the same.
    assert_eq!(
        served_in(&format!("{team}&runtime=vllm"), "h200-sxm-141gb"),
        (Some(Precision::Fp8), true)
    );
    let rented = "task=infer&model=gpt-oss-120b&mode=rent";
    assert_eq!(
        served_in(rented, "h100-sxm5-80gb"),
        (Some(Precision::Mxfp4), true)
    );
    assert!(!served_in(&format!("{rented}&prec=bf16"), "h100-sxm5-80gb").1);
}

/// `prec=auto` for an image model: its 16-bit weights where they fit, else 8-bit weights
/// multiplied in 16 (FLUX.1 [dev] on a 16 GB card), and the card says why; SDXL, which
/// fits at 16 bits, keeps them.
#[test]
fn an_image_model_too_big_at_16_bits_runs_8_bit_weights() {
    let images = |query: &str, id: &str| -> (Option<(Precision, bool)>, bool) {
        let r = ranked(query);
        let card = r.items.iter().find(|i| i.gpu.id == id).expect("listed");
        let q = card.reasons.iter().find_map(|x| match x {
            Reason::Quantized { precision, by, .. } => Some((*precision, *by == Chosen::Images)),
            _ => None,
        });
        (q, card.fits())
    };
    assert_eq!(
        images("task=infer&model=flux.1-dev", "rtx-4080"),
        (Some((Precision::Q8_0, true)), true)
    );
    assert!(!images("task=infer&model=flux.1-dev&prec=bf16", "rtx-4080").1);
    // Where 16 bits fit, they run.
    assert_eq!(
        images("task=infer&model=flux.1-dev", "rtx-pro-6000-blackwell"),
        (None, true)
    );
    assert_eq!(images("task=infer&model=sdxl", "rtx-4080"), (None, true));
}

/// `prec=auto` for a language model served by vLLM whose 16-bit checkpoint does not fit
/// on the GPUs allowed: FP8 as vLLM loads it where the GPU multiplies FP8, else 4-bit
/// weights on NVIDIA from Ampere, else it does not fit; a model that fits at 16 bits keeps
/// them, and a link that names its precision gets it.
#[test]
fn a_served_model_too_big_at_16_bits_runs_fp8_else_4_bit_weights() {
    let served = |query: &str, id: &str| -> (Option<(Precision, Chosen)>, bool) {
        let r = ranked(query);
        let card = r.items.iter().find(|i| i.gpu.id == id).expect("listed");
        let q = card.reasons.iter().find_map(|x| match x {
            Reason::Quantized { precision, by, .. } => Some((*precision, *by)),
            _ => None,
        });
        (q, card.fits())
    };
    // A team of four served Llama 3.1 70B from one card: FP8 holds it on an H100 NVL
    // (94 GB); for eight users, 4-bit weights on an A100 80 GB, which has no FP8 units;
    // for sixteen users' caches FP8 no longer fits on the H100 NVL, and 4-bit weights do.
    let lab = "task=infer&model=llama-3.1-70b&batch=4";
    assert_eq!(
        served(lab, "h100-nvl-94gb"),
        (Some((Precision::Fp8, Chosen::Served)), true)
    );
    assert_eq!(
        served("task=infer&model=llama-3.1-70b&batch=8", "a100-pcie-80gb"),
        (Some((Precision::Int4, Chosen::Served)), true)
    );
    // Llama 3.1 405B on a rented node of eight H100s runs in FP8, as Meta released it for
    // one such node; eight B200s hold its 16 bits and keep them.
    let node = "task=infer&model=llama-3.1-405b&gpus=8&mode=rent";
    assert_eq!(
        served(node, "h100-sxm5-80gb"),
        (Some((Precision::Fp8, Chosen::Served)), true)
    );
    assert_eq!(served(node, "b200"), (None, true));
    assert_eq!(
        served("task=infer&model=llama-3.1-70b&batch=16", "h100-nvl-94gb"),
        (Some((Precision::Int4, Chosen::Served)), true)
    );
    // One user on a datacenter card that vLLM serves: 4-bit weights under vLLM (an A40
    // holds Qwen3 32B's AWQ file, not its 16 bits), not a GGUF file.
    assert_eq!(
        served("task=infer&model=qwen3-32b", "a40"),
        (Some((Precision::Int4, Chosen::Served)), true)
    );
    let r = ranked("task=infer&model=qwen3-32b");
    let a40 = r.items.iter().find(|i| i.gpu.id == "a40").expect("listed");
    assert_eq!(a40.software, catalog::deploy::Software::Vllm);
    // Named precision is run as named; an Instinct card has no 4-bit rule.
    assert!(!served(&format!("{lab}&prec=bf16"), "h100-nvl-94gb").1);
    assert_eq!(
        served("task=infer&model=llama-3.1-70b&batch=16", "mi210").0,
        None
    );
}

/// Transformers' gpt-oss experts multiply every expert outside training (the model's
/// `transformers_dense_experts`): a 16-bit decode step reads the whole model, so it runs
/// at about active / total of the routed speed; vLLM's fused MoE reads the routed experts.
#[test]
fn transformers_reads_every_gpt_oss_expert_in_16_bits() {
    let (model, w) = llama("gpt-oss-20b", Task::Infer, Precision::Bf16, 1, 512);
    assert!(model.transformers_dense_experts);
    // Llama 4's Transformers class does the same; Qwen3's and DeepSeek's loop over the
    // experts the tokens were routed to.
    let dense = |id: &str| {
        catalog()
            .model(id)
            .expect("preset")
            .transformers_dense_experts
    };
    assert!(dense("llama-4-scout") && dense("llama-4-maverick"));
    assert!(!dense("qwen3-30b-a3b") && !dense("deepseek-v3") && !dense("mixtral-8x7b"));
    let routed = catalog::Model {
        transformers_dense_experts: false,
        ..model.clone()
    };
    let gpu = catalog().gpu("gaudi2").expect("in the catalog");
    let decode = |m: &catalog::Model, w: &Workload| {
        let sized = memory::size_model(m, w);
        let p = estimate::place(gpu, &sized, w).expect("fits");
        estimate::speed(gpu, &sized, w, &p)
            .expect("an estimate")
            .throughput
            .mid
    };
    let transformers = Workload {
        runtime: Some(catalog::workload::Runtime::Transformers),
        ..w.clone()
    };
    let ratio = decode(&model, &transformers) / decode(&routed, &transformers);
    // 3.6 B active of 21 B, attention and embeddings read either way.
    assert!((0.15..0.35).contains(&ratio), "{ratio}");
    let vllm = Workload {
        runtime: Some(catalog::workload::Runtime::Vllm),
        ..w.clone()
    };
    assert_eq!(decode(&model, &vllm), decode(&routed, &vllm));
    // Training loops over the experts a batch hits; MXFP4 on CUDA runs routed kernels.
    let mxfp4 = Workload {
        precision: Precision::Mxfp4,
        ..transformers.clone()
    };
    assert_eq!(decode(&model, &mxfp4), decode(&routed, &mxfp4));
}

/// llama.cpp keeps the LM head on the GPU only when `-ngl` covers every layer and more: a
/// split with layers on the CPU reads the whole head from system memory each step.
#[test]
fn a_partial_layer_split_reads_the_lm_head_from_system_memory() {
    let (model, w) = llama("gemma-2-9b", Task::Infer, Precision::Q4KM, 1, 512);
    let sized = memory::size_model(&model, &w);
    let of = 42;
    let (_, host) =
        estimate::split(&sized, &w, estimate::Offload::Layers { on_gpu: 36, of }).expect("a split");
    let full = memory::breakdown(&sized, &w, Sharding::Single);
    let per_param = full.weights / model.params();
    let head = 256_000.0 * 3_584.0 * per_param;
    let layers = (full.weights - head) * 6.0 / 42.0;
    // Gemma 2 ties the head to the embedding: one matrix, held and read on the host.
    assert!((host.weight_bytes - (layers + head)).abs() < 1.0);
    let kv = host.kv_bytes;
    assert!((host.read_bytes - (layers + head + kv)).abs() < 1.0);
    // Without the head the host would read a proportional share of every weight.
    assert!(host.read_bytes > full.weights * 6.0 / 42.0 + kv + 0.5 * head);
}
