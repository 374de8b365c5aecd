//! Running a model as people run it locally: the GGUF type each card holds
//! (`quant`, `prec=auto`), the KV cache's type (`kv`) and the longest context a card holds.

use catalog::quant;
use catalog::rank::{rank, Ranked, Ranking, Reason, WhyNot};
use catalog::workload::{KvCache, Precision};
use catalog::Catalog;

fn ranked(query: &str) -> Ranking<'static> {
    let catalog = Catalog::embedded();
    let (state, ignored) = catalog::share::parse(query, catalog);
    assert!(ignored.is_empty(), "{query}: {ignored:?}");
    rank(catalog, &state.workload, &state.filters)
}

fn card<'r>(ranking: &'r Ranking<'static>, id: &str) -> &'r Ranked<'static> {
    ranking
        .items
        .iter()
        .find(|r| r.gpu.id == id)
        .unwrap_or_else(|| panic!("{id} listed"))
}

fn quantized(r: &Ranked) -> Option<Precision> {
    r.quantized()
}

#[test]
fn each_local_card_runs_the_largest_type_that_fits_it() {
    let r = ranked("model=llama-3.1-8b");
    // 24 GB holds Q8_0 with room; 8 GB does not, and runs a smaller type.
    assert_eq!(quantized(card(&r, "rtx-4090")), Some(Precision::Q8_0));
    let small = card(&r, "rtx-3070");
    let p = quantized(small).expect("a type");
    assert!(p.weight_bits() < Precision::Q8_0.weight_bits(), "{p:?}");
    assert!(small.fits());
    // Each card's estimate runs at its type.
    assert_eq!(small.precision, p);
    // The next larger type would not fit the 8 GB card with room, or at all.
    let larger = quant::LLAMACPP_LADDER
        .iter()
        .position(|q| *q == p)
        .and_then(|i| i.checked_sub(1))
        .map(|i| quant::LLAMACPP_LADDER[i])
        .expect("a larger type");
    let at_larger = ranked(&format!("model=llama-3.1-8b&prec={}", larger.as_str()));
    let c = card(&at_larger, "rtx-3070");
    assert!(
        !c.fits()
            || c.reasons
                .iter()
                .any(|x| matches!(x, Reason::TightFit { .. })),
        "{larger:?} fits the 3070 with room: {:?}",
        c.reasons
    );
}

#[test]
fn a_named_precision_and_a_served_deployment_leave_the_ladder() {
    for query in [
        "model=llama-3.1-8b&prec=bf16",
        "model=llama-3.1-8b&batch=16",
        "model=llama-3.1-8b&mode=rent",
    ] {
        let r = ranked(query);
        assert!(
            r.items
                .iter()
                .all(|i| quantized(i).is_none_or(|p| !p.is_gguf())),
            "{query}: a card on the ladder"
        );
    }
    // A datacenter card that vLLM serves runs the released weights; a Tesla P40, which
    // vLLM does not run, is a local llama.cpp card.
    let r = ranked("model=llama-3.1-8b");
    assert_eq!(quantized(card(&r, "h100-pcie-80gb")), None);
    assert!(quantized(card(&r, "p40")).is_some());
}

#[test]
fn below_four_bits_a_card_ranks_after_those_that_hold_more() {
    // 8B with 32k tokens: a 10 GB RTX 3080 holds it only below 4 bits, when its host has
    // no memory to spare for offloaded layers (8 GB, all the system's).
    let r = ranked("model=llama-3.1-8b&seq=32768&host=8");
    let p3080 = card(&r, "rtx-3080");
    assert!(quant::below_floor(quantized(p3080).expect("a type")));
    // With the default host it keeps 4 bits or more and puts a few layers in system memory.
    let offloaded = ranked("model=llama-3.1-8b&seq=32768");
    let with_host = card(&offloaded, "rtx-3080");
    assert!(!quant::below_floor(quantized(with_host).expect("a type")));
    assert!(with_host
        .placement
        .as_ref()
        .is_some_and(|p| p.host.is_some()));
    let pos = |id: &str| r.items.iter().position(|i| i.gpu.id == id).expect("listed");
    for id in ["rtx-3060", "rtx-4090"] {
        assert!(pos(id) < pos("rtx-3080"), "{id} after the 3080");
    }
}

#[test]
fn kv_types_shrink_the_cache_by_their_bytes() {
    let kv = |q: &str| card(&ranked(q), "rtx-4090").memory.kv_cache;
    let f16 = kv("model=llama-3.1-8b&prec=q4_k_m");
    for (k, bytes) in [("q8", 34.0 / 32.0), ("q4", 18.0 / 32.0)] {
        let other = kv(&format!("model=llama-3.1-8b&prec=q4_k_m&kv={k}"));
        assert!(
            (other / f16 - bytes / 2.0).abs() < 1e-9,
            "{k}: {other} / {f16}"
        );
    }
    assert_eq!(KvCache::Q8.bytes(Precision::Bf16), 34.0 / 32.0);
}

#[test]
fn the_longest_context_is_where_the_card_fills() {
    // At a fixed type, the longest context a card holds still fits, and a tenth more does not.
    // No system memory to spare (`host=8`): nothing is offloaded.
    let base = "model=llama-3.1-8b&prec=q8_0&host=8";
    let longest = card(&ranked(base), "rtx-3060")
        .longest_context
        .expect("a context");
    assert!(!longest.whole, "12 GB does not hold 128k tokens");
    // Llama 3.1 8B keeps 128 KiB of 16-bit cache a token: a 12 GB card beside 8.5 GB of
    // Q8_0 weights holds some tens of thousands of tokens, not hundreds.
    assert!(
        (8_000..60_000).contains(&longest.tokens),
        "{}",
        longest.tokens
    );
    let at = |tokens: u32| {
        card(&ranked(&format!("{base}&seq={tokens}")), "rtx-3060")
            .why_not
            .clone()
    };
    assert!(at(longest.tokens).is_none(), "the longest context fits");
    assert!(
        matches!(
            at(longest.tokens + longest.tokens / 10),
            Some(WhyNot::Memory { .. })
        ),
        "a tenth more does not fit"
    );
    // An 8-bit cache holds about twice the tokens, and a card with room holds the model's whole context.
    let q8 = card(&ranked(&format!("{base}&kv=q8")), "rtx-3060")
        .longest_context
        .expect("a context");
    assert!(
        q8.tokens > longest.tokens * 17 / 10,
        "{} vs {}",
        q8.tokens,
        longest.tokens
    );
    let whole = card(&ranked(base), "rtx-6000-ada")
        .longest_context
        .expect("a context");
    assert!(whole.whole && whole.tokens == 131_072, "{whole:?}");
}
