//! The URL codec: round trips for any state, and hostile input never panics.

use catalog::gpu::{Segment, Vendor};
use catalog::host::{Host, RamKind};
use catalog::share::{
    parse, parse_number, print, AppState, Condition, Filters, IgnoreReason, Lang, Theme, View,
};
use catalog::workload::{
    Change, EcoRequirement, Framework, KvCache, Mode, ModelChoice, Network, Optimizer, Precision,
    Priority, Runtime, Task, Workload,
};
use catalog::Catalog;
use proptest::prelude::*;

fn catalog() -> &'static Catalog {
    Catalog::embedded()
}

fn state_strategy() -> impl Strategy<Value = AppState> {
    let gpu_ids: Vec<String> = catalog().gpus.iter().map(|g| g.id.clone()).collect();
    let model_ids: Vec<String> = catalog().models.iter().map(|m| m.id.clone()).collect();
    let workload = (
        (
            prop::sample::select(Task::ALL.to_vec()),
            prop_oneof![
                prop::sample::select(model_ids).prop_map(ModelChoice::Preset),
                (0.01f64..5000.0).prop_map(ModelChoice::Custom),
            ],
            // None: `prec=auto`, the ladder, with the default precision beneath it.
            prop::option::of(prop::sample::select(Precision::ALL.to_vec())),
            1u32..=4096,
            prop::option::of(16u32..=1_048_576),
            prop::option::of(1u64..=1_000_000_000),
            prop_oneof![Just(1.0f64), 0.01f64..1000.0],
        ),
        (
            1u32..=16,
            1u32..=1024,
            prop::sample::select(Network::ALL.to_vec()),
            prop::option::of(1.0f64..1e9),
            prop::option::of(prop::sample::select(Framework::ALL.to_vec())),
            prop::sample::select(Mode::ALL.to_vec()),
            prop::sample::select(EcoRequirement::ALL.to_vec()),
            prop::sample::select(Priority::ALL.to_vec()),
        ),
        (
            prop::sample::select(Optimizer::ALL.to_vec()),
            1u32..=1024,
            prop::option::of(any::<bool>()),
            prop_oneof![Just(0.15f64), 0.0f64..10.0],
            prop::collection::vec((prop::sample::select(gpu_ids.clone()), 1.0f64..1e6), 0..=4),
            prop::option::of(prop::sample::select(Runtime::ALL.to_vec())),
            prop::option::of(1u32..=1000),
        ),
        (
            prop::collection::vec(prop::sample::select(gpu_ids.clone()), 0..=3),
            prop::option::of((prop::sample::select(gpu_ids.clone()), 1.0f64..20000.0)),
        ),
    )
        .prop_map(
            |(
                (task, model, precision, batch, seq, samples, epochs),
                (gpus, nodes, network, budget_usd, framework, mode, eco, priority),
                (optimizer, lora_rank, checkpointing, kwh, prices, runtime, steps),
                (have, measured),
            )| Workload {
                task,
                model,
                precision: precision.unwrap_or(Precision::Bf16),
                auto_precision: precision.is_none(),
                kv: KvCache::ALL[(batch % 3) as usize],
                // A link without `batch` (one in five) leaves the run its usual batch.
                batch: if batch % 5 == 0 { 1 } else { batch },
                batch_given: batch % 5 != 0,
                seq,
                samples,
                epochs,
                gpus,
                nodes,
                network,
                budget_usd,
                framework,
                mode,
                eco,
                priority,
                optimizer,
                lora_rank,
                checkpointing,
                electricity_usd_per_kwh: kwh,
                // One price per GPU, in the order given.
                your_prices: prices.into_iter().fold(Vec::new(), |mut seen, (id, usd)| {
                    if !seen.iter().any(|(g, _): &(String, f64)| *g == id) {
                        seen.push((id, usd));
                    }
                    seen
                }),
                runtime,
                steps,
                pipeline_offload: false,
                // Sizes across the range, both kinds.
                host: Host {
                    ram_gb: 8 + (lora_rank * 4) % 4000,
                    kind: RamKind::ALL[(lora_rank % 2) as usize],
                    channels: 1 + lora_rank % 12,
                },
                // Owned cards: up to three, the same one possibly twice.
                have: have.into_iter().take(3).collect(),
                measured: measured.map(|(gpu, gbs)| catalog::workload::Measured { gpu, gbs }),
                ubatch: None,
                built: None,
                cuda_backend: true,
            },
        );
    (
        prop::sample::select(View::ALL.to_vec()),
        prop::sample::subsequence(gpu_ids.clone(), 0..=4),
        workload,
        prop::sample::subsequence(Segment::ALL.to_vec(), 0..=4),
        prop::sample::subsequence(Vendor::ALL.to_vec(), 0..=5),
        prop::option::of(prop::sample::select(vec![Condition::New, Condition::Used])),
        prop::option::of(prop::sample::select(gpu_ids)),
        (
            prop::option::of(prop::sample::select(Lang::ALL.to_vec())),
            prop::option::of(prop::sample::select(Theme::ALL.to_vec())),
            any::<bool>(),
        ),
    )
        .prop_map(
            |(view, ids, workload, segments, vendors, condition, mine, (lang, theme, embed))| {
                AppState {
                    view,
                    ids,
                    workload,
                    filters: Filters {
                        segments,
                        vendors,
                        condition,
                    },
                    mine,
                    lang,
                    theme,
                    embed,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_reads_back_every_printed_state(state in state_strategy()) {
        // A key that `print` forgot, or wrote in a form `parse` reads differently, changes
        // the state read back.
        let printed = print(&state);
        let (parsed, ignored) = parse(&printed, catalog());
        let unread: Vec<_> = ignored.iter().filter(|i| !i.reason.was_read()).collect();
        prop_assert!(unread.is_empty(), "{printed} ignored {unread:?}");
        prop_assert_eq!(parsed, state, "{}", printed);
    }

    #[test]
    fn links_computed_with_after_leave_the_state_unchanged(state in state_strategy(), n in 0usize..100) {
        let ids: Vec<&str> = catalog().gpus.iter().map(|g| g.id.as_str()).collect();
        let id = ids[n % ids.len()];
        let before = state.clone();
        let target = state.after(|s| s.open_gpu(id));
        prop_assert_eq!(&state, &before);
        prop_assert_eq!(target.view, View::Gpu);
        prop_assert_eq!(target.ids, vec![id.to_string()]);
        prop_assert_eq!(target.workload, state.workload);
        prop_assert_eq!(target.lang, state.lang);
    }

    #[test]
    fn adding_to_compare_keeps_at_most_four_distinct_ids_with_the_new_one_last(state in state_strategy(), n in 0usize..100) {
        let ids: Vec<&str> = catalog().gpus.iter().map(|g| g.id.as_str()).collect();
        let id = ids[n % ids.len()];
        let mut s = state.clone();
        s.add_to_compare(id);
        prop_assert_eq!(s.view, View::Compare);
        prop_assert!(s.ids.len() <= catalog::share::MAX_COMPARE);
        prop_assert!(s.ids.iter().any(|x| x == id));
        let mut dedup = s.ids.clone();
        dedup.sort();
        dedup.dedup();
        prop_assert_eq!(dedup.len(), s.ids.len());
        if !state.ids.iter().any(|x| x == id) {
            prop_assert_eq!(s.ids.last().map(String::as_str), Some(id));
        }
    }

    #[test]
    fn parse_never_panics_on_any_text(query in ".{0,300}") {
        let (state, _) = parse(&query, catalog());
        let again = print(&state);
        let (reparsed, ignored) = parse(&again, catalog());
        prop_assert!(ignored.is_empty());
        prop_assert_eq!(print(&reparsed), again);
    }
}

#[test]
fn default_state_prints_empty() {
    assert_eq!(print(&AppState::default()), "");
}

#[test]
fn only_non_default_values_are_printed() {
    let s = AppState {
        view: View::Compare,
        ids: vec!["rtx-4090".into(), "a100-sxm4-80gb".into()],
        workload: Workload {
            task: Task::Qlora,
            ..Workload::default()
        },
        ..AppState::default()
    };
    assert_eq!(
        print(&s),
        "view=compare&ids=rtx-4090,a100-sxm4-80gb&task=qlora"
    );
}

#[test]
fn precision_is_auto_unless_named_and_a_named_one_is_kept() {
    // The ladder is the default and is not written; `prec=bf16` is a choice and is.
    let (auto, ignored) = parse("prec=auto", catalog());
    assert!(ignored.is_empty() && auto.workload.auto_precision);
    assert_eq!(print(&auto), "");
    let (bf16, _) = parse("prec=bf16", catalog());
    assert!(!bf16.workload.auto_precision);
    assert_eq!(print(&bf16), "prec=bf16");
    // The answer's "with FP8 weights" move leaves the ladder for the precision it names.
    let mut moved = AppState::default();
    Change::Precision(Precision::Fp8).apply(&mut moved.workload);
    assert_eq!(print(&moved), "prec=fp8");
}

fn reasons(query: &str) -> Vec<(String, IgnoreReason)> {
    parse(query, catalog())
        .1
        .into_iter()
        .map(|i| (i.key, i.reason))
        .collect()
}

#[test]
fn hostile_values_are_ignored_and_named() {
    let cases: &[(&str, &str, IgnoreReason)] = &[
        ("batch=NaN", "batch", IgnoreReason::InvalidValue),
        ("batch=-3", "batch", IgnoreReason::InvalidValue),
        (
            "batch=99999999999999999999",
            "batch",
            IgnoreReason::InvalidValue,
        ),
        ("budget=inf", "budget", IgnoreReason::InvalidValue),
        ("params=1e400", "params", IgnoreReason::InvalidValue),
        ("view=admin", "view", IgnoreReason::InvalidValue),
        ("task=", "task", IgnoreReason::InvalidValue),
        ("ids=not-a-gpu", "ids", IgnoreReason::UnknownGpu),
        (
            "model=<script>alert(1)</script>",
            "model",
            IgnoreReason::UnknownModel,
        ),
        ("foo=bar", "foo", IgnoreReason::UnknownParameter),
        ("view=gpu&view=compare", "view", IgnoreReason::Repeated),
        ("lang=%FF%FE", "lang", IgnoreReason::BadEncoding),
    ];
    for (query, key, reason) in cases {
        let got = reasons(query);
        assert!(
            got.iter().any(|(k, r)| k == key && r == reason),
            "{query}: {got:?}"
        );
    }
}

#[test]
fn huge_values_are_rejected_and_notices_stay_short() {
    let big = "x".repeat(10_000);
    let (state, ignored) = parse(&format!("model={big}&view=compare"), catalog());
    assert_eq!(state.view, View::Compare);
    assert_eq!(ignored.len(), 1);
    assert!(ignored[0].value.chars().count() <= 41);
}

#[test]
fn aliases_resolve_to_canonical_ids() {
    let gpu = catalog()
        .gpus
        .iter()
        .find(|g| !g.aliases.is_empty())
        .expect("an aliased gpu");
    let (state, ignored) = parse(&format!("view=gpu&ids={}", gpu.aliases[0]), catalog());
    assert!(ignored.is_empty());
    assert_eq!(state.ids, vec![gpu.id.clone()]);
}

#[test]
fn more_than_four_compared_gpus_are_cut_with_a_notice() {
    let ids: Vec<&str> = catalog()
        .gpus
        .iter()
        .take(6)
        .map(|g| g.id.as_str())
        .collect();
    let (state, ignored) = parse(&format!("view=compare&ids={}", ids.join(",")), catalog());
    assert_eq!(state.ids.len(), 4);
    assert_eq!(
        ignored
            .iter()
            .filter(|i| i.reason == IgnoreReason::TooMany)
            .count(),
        2
    );
}

#[test]
fn custom_size_wins_over_a_preset_in_either_order() {
    for q in ["model=gpt2&params=13", "params=13&model=gpt2"] {
        let (state, _) = parse(q, catalog());
        assert_eq!(state.workload.model, ModelChoice::Custom(13.0), "{q}");
    }
}

#[test]
fn embed_snippet_escapes_the_url_and_applies_resize_messages() {
    let s = catalog::share::embed_snippet("https://x.org/?a=1&b=\"2\"", "GPU <Advisor>");
    assert!(s.contains("src=\"https://x.org/?a=1&amp;b=&quot;2&quot;\""));
    assert!(s.contains("title=\"GPU &lt;Advisor&gt;\""));
    assert!(s.contains("gpu-advisor:resize"));
    // Only the app's own origin may resize the frame, and only within the bounds.
    assert!(s.contains("e.origin !== \"https://x.org\""), "{s}");
    assert!(s.contains("Math.min(Math.max(Number(e.data.height) || 0, 150), 4000)"));
    let local = catalog::share::embed_snippet("http://127.0.0.1:8080/docs/?embed=1", "t");
    assert!(
        local.contains("e.origin !== \"http://127.0.0.1:8080\""),
        "{local}"
    );
    // An address that is not absolute, or whose origin has other characters, has no
    // origin to check against: the script is left without it rather than broken.
    for url in ["?embed=1", "https://x\".org/", "https:///path"] {
        assert!(
            !catalog::share::embed_snippet(url, "t").contains("e.origin"),
            "{url}"
        );
    }
}

#[test]
fn repeated_and_unknown_compared_ids_are_named_in_the_notice() {
    let (state, ignored) = parse(
        "view=compare&ids=rtx-4090,rtx-4090,rtx-4090,rtx-4090,rtx-409",
        catalog(),
    );
    assert_eq!(state.ids, vec!["rtx-4090".to_string()]);
    let reasons: Vec<(&str, &IgnoreReason)> = ignored
        .iter()
        .map(|i| (i.value.as_str(), &i.reason))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("rtx-4090", &IgnoreReason::Repeated),
            ("rtx-4090", &IgnoreReason::Repeated),
            ("rtx-4090", &IgnoreReason::Repeated),
            ("rtx-409", &IgnoreReason::UnknownGpu),
        ]
    );
}

#[test]
fn opening_a_gpu_from_compare_and_removing_one_are_single_steps() {
    let (mut state, _) = parse("view=compare&ids=rtx-4090,rtx-3090&lang=zh", catalog());
    let back = state.clone();
    state.open_gpu("rtx-3090");
    assert_eq!(state.view, View::Gpu);
    assert_eq!(state.ids, vec!["rtx-3090".to_string()]);
    assert_eq!(state.lang, Some(Lang::Zh));
    let mut compare = back;
    compare.remove_from_compare("rtx-4090");
    assert_eq!(compare.ids, vec!["rtx-3090".to_string()]);
    compare.share_mine("rtx-3090");
    assert_eq!(
        (compare.view, compare.mine.as_deref()),
        (View::Advise, Some("rtx-3090"))
    );
}

#[test]
fn your_prices_are_read_and_bad_ones_named() {
    let (state, ignored) = parse(
        "price=rtx-3090:700,rtx-4090:2300,rtx-3090:650,no-such-gpu:5,rtx-5090:-3,rtx-5080",
        catalog(),
    );
    assert_eq!(
        state.workload.your_prices,
        vec![
            ("rtx-3090".to_string(), 700.0),
            ("rtx-4090".to_string(), 2300.0)
        ]
    );
    let reasons: Vec<(&str, &IgnoreReason)> = ignored
        .iter()
        .map(|i| (i.value.as_str(), &i.reason))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("rtx-3090:650", &IgnoreReason::Repeated),
            ("no-such-gpu:5", &IgnoreReason::UnknownGpu),
            ("rtx-5090:-3", &IgnoreReason::InvalidValue),
            ("rtx-5080", &IgnoreReason::InvalidValue),
        ]
    );
    assert_eq!(print(&state), "price=rtx-3090:700,rtx-4090:2300");
}

#[test]
fn at_most_sixteen_prices_are_kept() {
    let pairs: Vec<String> = catalog()
        .gpus
        .iter()
        .take(20)
        .map(|g| format!("{}:100", g.id))
        .collect();
    let (state, ignored) = parse(&format!("price={}", pairs.join(",")), catalog());
    assert_eq!(state.workload.your_prices.len(), 16);
    assert_eq!(
        ignored
            .iter()
            .filter(|i| i.reason == IgnoreReason::TooMany)
            .count(),
        4
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    #[test]
    fn parse_number_reads_back_every_printed_number(mantissa in -1e6f64..1e6, exponent in -14i32..12) {
        // What a link or an input holds: Rust's shortest decimal for an f64.
        let x = mantissa * 10f64.powi(exponent);
        let printed = format!("{x}");
        prop_assert_eq!(parse_number(&printed), Some(x), "{}", printed);
    }

    #[test]
    fn parse_number_agrees_with_the_standard_parser(
        digits in "[0-9]{1,19}",
        point in 0usize..20,
        exponent in prop::option::of(-19i32..20),
        negative in any::<bool>(),
    ) {
        // Up to 19 digits with a decimal point anywhere and an optional exponent: the
        // nearest f64, as the standard library's parser rounds it.
        let point = point.min(digits.len());
        let mut text = format!("{}{}.{}", if negative { "-" } else { "" }, &digits[..point], &digits[point..]);
        if let Some(e) = exponent {
            text.push_str(&format!("e{e}"));
        }
        let expected: f64 = text.parse().expect("a decimal the standard parser reads");
        prop_assert_eq!(parse_number(&text), Some(expected), "{}", text);
    }
}

#[test]
fn parse_number_refuses_what_is_not_a_plain_decimal() {
    for text in [
        "",
        "-",
        ".",
        "e5",
        "1e",
        "1.2.3",
        "1,5",
        "abc",
        "inf",
        "NaN",
        "0x10",
        "1e400",
        "12345678901234567891",
    ] {
        assert_eq!(parse_number(text), None, "{text:?}");
    }
    for (text, x) in [
        ("1500", 1500.0),
        (" 0.15 ", 0.15),
        ("-2.5", -2.5),
        ("1e3", 1000.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("+7", 7.0),
        ("0", 0.0),
        ("0.30000000000000004", 0.1 + 0.2),
    ] {
        assert_eq!(parse_number(text), Some(x), "{text:?}");
    }
}

#[test]
fn every_link_move_reads_back_from_its_token() {
    use catalog::share::Nav;
    let mut moves: Vec<Nav> = View::ALL.iter().map(|v| Nav::GoTo(*v)).collect();
    moves.extend([
        Nav::OpenGpu("rtx-4090".into()),
        Nav::AddToCompare("a100-sxm4-80gb".into()),
        Nav::Uncompare("a100-sxm4-80gb".into()),
        Nav::ShareMine("rtx-3090".into()),
        Nav::Have("rtx-3090".into()),
        Nav::HaveMeasured(catalog::workload::Measured {
            gpu: "rtx-3090".into(),
            gbs: 812.5,
        }),
        Nav::AddMeasurement("rtx-3090".into()),
        Nav::Change(Change::Gpus(4)),
        Nav::Change(Change::Host(64)),
    ]);
    moves.extend(
        Precision::ALL
            .iter()
            .map(|p| Nav::Change(Change::Precision(*p))),
    );
    moves.extend(Task::ALL.iter().map(|t| Nav::Change(Change::Task(*t))));
    for nav in moves {
        assert_eq!(
            Nav::from_token(&nav.token()),
            Some(nav.clone()),
            "{}",
            nav.token()
        );
    }
    for bad in ["", "gpu", "go:nowhere", "gpus:x", "prec:fp64", "fly:away"] {
        assert_eq!(Nav::from_token(bad), None, "{bad}");
    }
}

/// The README's table of link keys names exactly the parameters the codec reads.
#[test]
fn the_readme_names_every_parameter_in_order() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../README.md"))
        .expect("README.md");
    let table = readme
        .split("## The URL is the state")
        .nth(1)
        .expect("the README's section on the URL");
    let mut keys = Vec::new();
    for row in table
        .lines()
        .skip_while(|l| !l.starts_with("| key"))
        .skip(2)
    {
        let Some(cell) = row.strip_prefix("| ") else {
            break;
        };
        let first = cell.split(" | ").next().unwrap_or_default();
        keys.extend(first.split(", ").map(|k| k.trim_matches('`').to_string()));
    }
    let mut declared: Vec<String> = catalog::share::PARAMS
        .iter()
        .map(|p| p.key.to_string())
        .collect();
    let mut listed = keys.clone();
    declared.sort();
    listed.sort();
    assert_eq!(listed, declared, "README keys against share::PARAMS");
}

/// Every number a parameter declares it takes is read at both ends of its range and
/// refused just outside them, and the value written reads back the same.
#[test]
fn each_numeric_parameter_takes_exactly_its_declared_range() {
    let numeric: Vec<_> = catalog::share::PARAMS
        .iter()
        .filter_map(|p| Some((p.key, p.range?)))
        .collect();
    assert!(numeric.len() >= 10, "{numeric:?}");
    for (key, (low, high)) in numeric {
        let query = |x: f64| {
            let x = catalog::decimal::shortest(x);
            if key == "price" || key == "measured" {
                format!("{key}=rtx-3090:{x}")
            } else {
                format!("{key}={x}")
            }
        };
        for inside in [low, high] {
            let (state, ignored) = parse(&query(inside), catalog());
            let unread: Vec<_> = ignored.iter().filter(|i| !i.reason.was_read()).collect();
            assert!(unread.is_empty(), "{key}={inside}: {unread:?}");
            let again = print(&state);
            assert_eq!(
                parse(&again, catalog()).0,
                state,
                "{key}={inside} -> {again}"
            );
        }
        let step = (high - low).max(1.0) * 0.01;
        for outside in [low - step, high * 2.0 + 1.0] {
            let (state, ignored) = parse(&query(outside), catalog());
            assert_eq!(ignored.len(), 1, "{key}={outside}: {ignored:?}");
            assert_eq!(state, AppState::default(), "{key}={outside}");
        }
    }
}

/// A link with many distinct unknown keys: each is noticed once (the repeat check is a
/// set, so this reads in linear time).
#[test]
fn many_unknown_keys_are_each_noticed() {
    let query: String = (0..20_000)
        .map(|i| format!("k{i}=1"))
        .collect::<Vec<_>>()
        .join("&");
    let (state, ignored) = parse(&query, catalog());
    assert_eq!(state, AppState::default());
    assert_eq!(ignored.len(), 20_000);
}

/// `Param::takes`, which the form asks of a typed number, agrees with what a link reads.
#[test]
fn what_the_form_accepts_is_what_a_link_reads() {
    for p in catalog::share::PARAMS.iter().filter(|p| p.range.is_some()) {
        let (low, high) = p.range.expect("numeric");
        // A number that belongs to a card is written after its id.
        let card = if matches!(p.key, "price" | "measured") {
            "rtx-3090:"
        } else {
            ""
        };
        for x in [
            low,
            high,
            low - 1.0,
            high + 1.0,
            (low + high) / 2.0,
            low + 0.5,
            2.7,
        ] {
            let (_, ignored) = parse(
                &format!("{}={card}{}", p.key, catalog::decimal::shortest(x)),
                catalog(),
            );
            let read = ignored.iter().all(|i| i.reason.was_read());
            assert_eq!(p.takes(x), read, "{}={x}", p.key);
        }
    }
}

/// Ids and aliases in a link are matched without regard to case, as the search box does.
#[test]
fn ids_in_a_link_are_matched_without_regard_to_case() {
    let (state, ignored) = parse(
        "ids=RTX-4090,Rtx-3090&mine=RTX-3090&price=RTX-4090:1500",
        catalog(),
    );
    assert!(ignored.is_empty(), "{ignored:?}");
    assert_eq!(state.ids, ["rtx-4090", "rtx-3090"]);
    assert_eq!(state.mine.as_deref(), Some("rtx-3090"));
    assert_eq!(
        state.workload.your_prices,
        [("rtx-4090".to_string(), 1500.0)]
    );
}

/// Keys a link sets that do not apply to its workload are named, each once, and those
/// that apply are not: nothing a link asks is dropped without a word.
#[test]
fn keys_that_do_not_apply_to_the_workload_are_named() {
    let no_effect = |q: &str| -> Vec<String> {
        reasons(q)
            .into_iter()
            .filter(|(_, r)| *r == IgnoreReason::NoEffect)
            .map(|(k, _)| k)
            .collect()
    };
    // Denoising steps on a language model; on a diffusion model they count.
    assert_eq!(no_effect("model=llama-3.1-8b&steps=30"), ["steps"]);
    assert!(no_effect("model=sdxl&steps=30").is_empty());
    assert_eq!(no_effect("task=train&model=sdxl&steps=30"), ["steps"]);
    // Training's settings on inference; the adapter's rank on a full fine-tune.
    assert_eq!(
        no_effect("task=infer&ckpt=1&opt=adam8bit&fw=unsloth"),
        ["ckpt", "opt", "fw"]
    );
    assert!(no_effect("task=qlora&ckpt=1&opt=adam8bit&rank=64").is_empty());
    assert_eq!(no_effect("task=finetune&rank=64"), ["rank"]);
    assert_eq!(no_effect("task=infer&rank=64"), ["rank"]);
    // The serving runtime on training.
    assert_eq!(no_effect("task=qlora&runtime=vllm"), ["runtime"]);
    assert!(no_effect("task=infer&runtime=vllm").is_empty());
    // Renting buys nothing: its condition, a price paid, electricity.
    assert_eq!(
        no_effect("mode=rent&cond=used&price=rtx-4090:1400&kwh=0.3"),
        ["cond", "price", "kwh"]
    );
    assert!(no_effect("mode=buy&cond=used&price=rtx-4090:1400&kwh=0.3").is_empty());
}

#[test]
fn a_size_given_with_a_model_says_which_wins() {
    for q in ["model=gpt2&params=13", "params=13&model=gpt2"] {
        assert_eq!(
            reasons(q),
            [("model".to_string(), IgnoreReason::Overridden)],
            "{q}"
        );
    }
}

/// A context longer than the model's is named with the longest it has: Llama 3.1 8B at a
/// million tokens runs only with its context extended, which the notice says.
#[test]
fn a_sequence_beyond_the_models_context_is_named() {
    let (state, ignored) = parse("model=llama-3.1-8b&seq=1048576", catalog());
    assert_eq!(ignored.len(), 1);
    assert_eq!(ignored[0].key, "seq");
    assert_eq!(ignored[0].value, "1048576");
    assert_eq!(
        ignored[0].reason,
        IgnoreReason::BeyondContext { max: 131_072 }
    );
    assert_eq!(state.workload.seq, Some(1_048_576));
    assert!(reasons("model=llama-3.1-8b&seq=131072").is_empty());
    // A size without a preset has no known context, and images take `seq` as a side.
    assert!(reasons("params=8&seq=1048576").is_empty());
}

#[test]
fn an_empty_id_list_and_extra_ids_on_the_gpu_page_are_named() {
    assert_eq!(
        reasons("view=compare&ids=,,,"),
        [("ids".to_string(), IgnoreReason::InvalidValue)]
    );
    let (state, ignored) = parse("view=gpu&ids=rtx-4090,rtx-3090", catalog());
    assert_eq!(state.ids.len(), 2);
    assert_eq!(ignored.len(), 1);
    assert_eq!(ignored[0].reason, IgnoreReason::OneGpuShown);
    assert!(reasons("view=gpu&ids=rtx-4090").is_empty());
    assert!(reasons("view=compare&ids=rtx-4090,rtx-3090").is_empty());
}
