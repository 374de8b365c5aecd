//! The real catalog files must load and pass every validation rule.

use catalog::validate::validate;
use catalog::Catalog;

fn real() -> Catalog {
    match Catalog::from_json(catalog::data::GPUS_JSON, catalog::data::MODELS_JSON) {
        Ok(c) => c,
        Err(e) => panic!("catalog files do not parse: {e}"),
    }
}

#[test]
fn catalog_files_have_no_violations() {
    let violations = validate(&real());
    let listing: Vec<String> = violations.iter().map(|v| v.to_string()).collect();
    assert!(
        listing.is_empty(),
        "{} violations:\n{}",
        listing.len(),
        listing.join("\n")
    );
}

#[test]
fn catalog_covers_the_required_gpus() {
    let c = real();
    assert!(c.gpus.len() >= 45, "only {} GPUs", c.gpus.len());
    for id in [
        "a100-pcie-40gb",
        "a100-sxm4-40gb",
        "a100-pcie-80gb",
        "a100-sxm4-80gb",
        "v100-sxm2-32gb",
        "v100-pcie-16gb",
        "p100-pcie-16gb",
        "k80",
        "tpu-v2",
        "tpu-v3",
        "tpu-v4",
        "tpu-v5e",
        "tpu-v5p",
        "rtx-4090",
        "rtx-4080",
        "rtx-4070-ti",
        "rtx-3090",
        "rtx-3060-ti",
        "rtx-3060",
        "rx-7900-xtx",
        "h100-sxm5-80gb",
        "h100-pcie-80gb",
        "h200-sxm-141gb",
        "b200",
        "l40s",
        "l4",
        "t4",
        "a10",
        "a40",
        "rtx-a6000",
        "rtx-6000-ada",
        "rtx-5090",
        "rtx-5080",
        "rtx-4060-ti-16gb",
        "rtx-3080",
        "rtx-3070",
        "rtx-2080-ti",
        "mi300x",
        "mi250x",
        "mi100",
        "apple-m2-ultra",
        "apple-m4-max",
        // The GPUs people weigh in 2026.
        "rtx-5060-ti-16gb",
        "rtx-5070",
        "rtx-4070-super",
        "rtx-4070-ti-super",
        "b300",
        "gb300",
        "mi355x",
        "arc-b580",
        "arc-pro-b60",
        "dgx-spark",
        "ryzen-ai-max-395-128gb",
        "p40",
        "v100-sxm2-16gb",
    ] {
        assert!(c.gpu(id).is_some(), "missing {id}");
    }
}

#[test]
fn catalog_covers_the_required_models() {
    let c = real();
    assert!(c.models.len() >= 25, "only {} models", c.models.len());
    for id in [
        "llama-3.1-8b",
        "llama-3.1-70b",
        "llama-3.1-405b",
        "mistral-7b",
        "mixtral-8x7b",
        "qwen2.5-14b",
        "gemma-2-9b",
        "gpt2",
        "bert-base",
        "bert-large",
        "t5-large",
        "resnet-50",
        "efficientnet-b7",
        "vit-b-16",
        "vit-l-16",
        "sd-1.5",
        "sdxl",
        "whisper-large-v3",
        "unet-3d",
        "videomae-large",
        // The models people ask about in 2026.
        "qwen3-8b",
        "qwen3-32b",
        "qwen3-30b-a3b",
        "qwen3-235b-a22b",
        "llama-3.3-70b",
        "mistral-small-24b",
        "phi-4",
        "gemma-3-4b",
        "gemma-3-12b",
        "gemma-3-27b",
        "gpt-oss-120b",
        "deepseek-v3",
        "llama-4-scout",
        "llama-4-maverick",
        "flux.1-dev",
        "sd-3.5-large",
        "whisper-large-v3-turbo",
    ] {
        assert!(c.model(id).is_some(), "missing {id}");
    }
}

/// The seed article's misleading figures: each must be stored per device and dense.
#[test]
fn seed_traps_are_stored_correctly() {
    let c = real();
    let get = |id: &str| c.gpu(id).unwrap_or_else(|| panic!("missing {id}"));
    let k80 = get("k80");
    assert_eq!(k80.memory_gb, 12.0, "K80 is two GPUs of 12 GB");
    assert_eq!(k80.memory_bandwidth_gbs, Some(240.0));
    let v3 = get("tpu-v3");
    assert_eq!(
        v3.memory_gb, 32.0,
        "TPU v3 stores per chip, not the 4-chip board"
    );
    assert!(v3.bf16_tensor_tflops.is_some_and(|t| t < 200.0));
    assert_eq!(get("a100-sxm4-80gb").fp16_tensor_tflops, Some(312.0));
    assert_eq!(get("rtx-4090").fp16_tensor_tflops, Some(165.2));
    let nvlink = get("rtx-3090")
        .interconnect
        .as_ref()
        .map(|i| (i.bandwidth_gbs, i.max_gpus));
    assert_eq!(nvlink, Some((Some(112.5), Some(2))));
    for id in ["rtx-4090", "rtx-4080", "rtx-4070-ti", "rtx-4060-ti-16gb"] {
        assert!(get(id).interconnect.is_none(), "{id} has no NVLink");
    }
    assert!(
        get("v100-sxm2-32gb").bf16_tensor_tflops.is_none(),
        "no BF16 before Ampere"
    );
    assert!(get("rx-7900-xtx").notes.iter().any(|n| n.contains("dual")));
}

#[test]
fn aliases_resolve_to_their_entry() {
    let c = real();
    for g in &c.gpus {
        for a in &g.aliases {
            assert_eq!(c.gpu(a).map(|x| x.id.as_str()), Some(g.id.as_str()));
        }
    }
}

#[test]
fn a_violation_names_entry_and_field() {
    let mut c = real();
    if let Some(g) = c.gpus.iter_mut().find(|g| g.id == "a100-sxm4-80gb") {
        g.memory_bandwidth_gbs = Some(-3.0);
        g.fp16_tensor_tflops = Some(624.0);
    }
    let text: Vec<String> = validate(&c).iter().map(|v| v.to_string()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("a100-sxm4-80gb.memory_bandwidth_gbs: ")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.starts_with("a100-sxm4-80gb.fp16_tensor_tflops: ")),
        "{text:?}"
    );
}

#[test]
fn every_way_to_get_an_entry_needs_a_dated_price_of_its_kind() {
    use catalog::gpu::{Availability, FormFactor};
    let mut c = real();
    let module = c.gpus.iter_mut().find(|g| g.id == "b200").expect("b200");
    assert_eq!(module.form_factor, FormFactor::Sxm);
    module.price.server_usd_per_gpu = None;
    let card = c
        .gpus
        .iter_mut()
        .find(|g| g.id == "rtx-3090")
        .expect("rtx-3090");
    card.price.used_date = None;
    let cloud = c
        .gpus
        .iter_mut()
        .find(|g| g.id == "tpu-v5p")
        .expect("tpu-v5p");
    cloud.availability.push(Availability::New);
    let text: Vec<String> = validate(&c).iter().map(|v| v.to_string()).collect();
    for expected in [
        "b200.price.server_usd_per_gpu: ",
        "rtx-3090.price.used_date: ",
        "tpu-v5p.availability: ",
    ] {
        assert!(
            text.iter().any(|t| t.starts_with(expected)),
            "{expected} in {text:?}"
        );
    }
}

#[test]
fn a_missing_price_is_allowed_only_with_a_note_that_names_it() {
    let mut c = real();
    let g = c
        .gpus
        .iter_mut()
        .find(|g| g.id == "rtx-3090")
        .expect("rtx-3090");
    g.price.used_usd = None;
    g.price.used_date = None;
    let flagged = |c: &catalog::Catalog| {
        validate(c)
            .iter()
            .any(|v| v.to_string().starts_with("rtx-3090.price.used_usd: "))
    };
    assert!(flagged(&c));
    if let Some(g) = c.gpus.iter_mut().find(|g| g.id == "rtx-3090") {
        g.notes
            .push("price.used_usd: null. No sold listing could be found.".into());
    }
    assert!(!flagged(&c));
}

/// The app embeds a compact copy without notes and sources; everything else must match.
#[test]
fn embedded_catalog_matches_the_full_files() {
    let full = real();
    let embedded = Catalog::embedded();
    assert_eq!(full.gpus.len(), embedded.gpus.len());
    for (f, e) in full.gpus.iter().zip(&embedded.gpus) {
        let mut f = f.clone();
        f.notes.clear();
        f.sources.clear();
        assert_eq!(&f, e);
    }
    let details = catalog::data::details_from_json(catalog::data::GPUS_JSON).expect("details");
    assert_eq!(details.len(), full.gpus.len());
    assert!(details.iter().all(|d| !d.sources.is_empty()));
}

#[test]
fn measurements_file_has_no_violations() {
    let listing = catalog::evidence::violations(&real(), catalog::data::MEASUREMENTS_JSON);
    assert!(
        listing.is_empty(),
        "{} violations:\n{}",
        listing.len(),
        listing.join("\n")
    );
}

#[test]
fn a_measurement_without_its_source_is_a_violation() {
    let row = r#"[{"kind": "decode_tokens_per_s", "gpu": "rtx-4090", "model": "llama-3-8b",
        "runtime": "llamacpp", "precision": "q4_k_m", "value": 127.7, "unit": "tokens/s",
        "date": "2024-05", "note": "tg128 from llama-bench, one card"}]"#;
    let listing = catalog::evidence::violations(&real(), row);
    assert!(
        listing.iter().any(|v| v.contains("no `source_url`")),
        "{listing:?}"
    );
}

/// No note says a field is null beside a value stored in that field: a note left from
/// before the value was sourced reads, on the GPU's page, as the catalog contradicting
/// itself (TITAN RTX's "so fp16_tensor_tflops is null" beside its sourced 130.5).
#[test]
fn no_note_calls_a_stored_value_null() {
    let gpus: Vec<serde_json::Value> =
        serde_json::from_str(catalog::data::GPUS_JSON).expect("gpus.json parses");
    let mut found = Vec::new();
    for g in &gpus {
        let mut fields: Vec<(String, &serde_json::Value)> = Vec::new();
        for (k, v) in g.as_object().into_iter().flatten() {
            match v.as_object() {
                Some(inner) => fields.extend(inner.iter().map(|(i, w)| (format!("{k}.{i}"), w))),
                None => fields.push((k.clone(), v)),
            }
        }
        let notes = g["notes"].as_array().into_iter().flatten();
        for note in notes.filter_map(|n| n.as_str()) {
            for (name, _) in fields.iter().filter(|(_, v)| !v.is_null()) {
                for said in ["is null", ": null", "left null", "stays null"] {
                    let phrase = if said.starts_with(':') {
                        format!("{name}{said}")
                    } else {
                        format!("{name} {said}")
                    };
                    // The field's own name, not the end of a longer one.
                    let named = note.match_indices(&phrase).any(|(i, _)| {
                        note[..i]
                            .chars()
                            .next_back()
                            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
                    });
                    if named {
                        found.push(format!(
                            "{}.{name}: {note}",
                            g["id"].as_str().unwrap_or("?")
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "notes calling a stored value null:\n{}",
        found.join("\n")
    );
}
