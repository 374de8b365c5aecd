//! Checks on the catalog files. Every error names the entry and field at fault
//! (`a100-sxm4-80gb.memory_bandwidth_gbs: ...`) so a contributor can fix the JSON.

use std::collections::HashSet;
use std::fmt;

use crate::data::Catalog;
use crate::gpu::{Availability, FormFactor, Gpu, Segment, Vendor};

#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    pub entry: String,
    pub field: &'static str,
    pub problem: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}: {}", self.entry, self.field, self.problem)
    }
}

/// Tensor figures known from vendor datasheets only *with* 2:4 sparsity: storing one
/// of these in the dense field is the catalog's most common trap.
const KNOWN_SPARSE: &[(&str, &str, f64)] = &[
    ("a100-sxm4-80gb", "fp16_tensor_tflops", 624.0),
    ("a100-sxm4-40gb", "fp16_tensor_tflops", 624.0),
    ("a100-pcie-80gb", "fp16_tensor_tflops", 624.0),
    ("a100-pcie-40gb", "fp16_tensor_tflops", 624.0),
    ("a100-sxm4-80gb", "tf32_tensor_tflops", 312.0),
    ("h100-sxm5-80gb", "fp16_tensor_tflops", 1979.0),
    ("h100-sxm5-80gb", "fp8_tensor_tflops", 3958.0),
    ("h100-pcie-80gb", "fp16_tensor_tflops", 1513.0),
    ("h200-sxm-141gb", "bf16_tensor_tflops", 1979.0),
    ("mi300x", "fp16_tensor_tflops", 2614.9),
    ("mi300x", "fp8_tensor_tflops", 5229.8),
    ("rtx-4090", "fp16_tensor_tflops", 330.3),
    ("rtx-4090", "fp16_tensor_tflops", 660.6),
    ("l40s", "fp16_tensor_tflops", 733.0),
];

fn check_range(
    out: &mut Vec<Violation>,
    gpu: &Gpu,
    field: &'static str,
    value: Option<f64>,
    (lo, hi): (f64, f64),
) {
    if let Some(v) = value {
        if !(v.is_finite() && v >= lo && v <= hi) {
            out.push(Violation {
                entry: gpu.id.clone(),
                field,
                problem: format!("{v} is outside the plausible range {lo}–{hi}"),
            });
        }
    }
}

/// The numeric fields that must be backed by a source when present.
fn numeric_fields(g: &Gpu) -> Vec<(&'static str, bool)> {
    vec![
        ("memory_gb", true),
        ("memory_bandwidth_gbs", g.memory_bandwidth_gbs.is_some()),
        ("fp32_tflops", g.fp32_tflops.is_some()),
        ("fp16_tflops", g.fp16_tflops.is_some()),
        ("tf32_tensor_tflops", g.tf32_tensor_tflops.is_some()),
        ("fp16_tensor_tflops", g.fp16_tensor_tflops.is_some()),
        ("bf16_tensor_tflops", g.bf16_tensor_tflops.is_some()),
        ("fp8_tensor_tflops", g.fp8_tensor_tflops.is_some()),
        ("int8_tensor_tops", g.int8_tensor_tops.is_some()),
        ("tdp_w", g.tdp_w.is_some()),
        ("price.msrp_usd", g.price.msrp_usd.is_some()),
        ("price.street_usd", g.price.street_usd.is_some()),
        ("price.used_usd", g.price.used_usd.is_some()),
        (
            "price.server_usd_per_gpu",
            g.price.server_usd_per_gpu.is_some(),
        ),
        (
            "price.cloud_usd_per_hour",
            g.price.cloud_usd_per_hour.is_some(),
        ),
    ]
}

pub fn validate(catalog: &Catalog) -> Vec<Violation> {
    let mut out = Vec::new();
    let mut names: HashSet<&str> = HashSet::new();
    for g in &catalog.gpus {
        let bad = |field: &'static str, problem: String| Violation {
            entry: g.id.clone(),
            field,
            problem,
        };
        let kebab = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.')
                && !s.starts_with('-')
                && !s.ends_with('-')
        };
        if !kebab(&g.id) {
            out.push(bad("id", "must be lower-case kebab-case".into()));
        }
        if !names.insert(&g.id) {
            out.push(bad("id", "duplicate id or alias".into()));
        }
        for a in &g.aliases {
            if !kebab(a) {
                out.push(bad("aliases", format!("alias {a:?} must be kebab-case")));
            }
            if !names.insert(a) {
                out.push(bad(
                    "aliases",
                    format!("alias {a:?} duplicates an id or alias"),
                ));
            }
        }
        if g.name.trim().is_empty() {
            out.push(bad("name", "empty".into()));
        }
        if let Some(year) = g.released {
            if !(2010..=2027).contains(&year) {
                out.push(bad("released", format!("{year} is not a plausible year")));
            }
        }
        check_range(&mut out, g, "memory_gb", Some(g.memory_gb), (2.0, 1024.0));
        // Bandwidth plausible for the memory type: GDDR up to ~2 TB/s, HBM up to ~10 TB/s.
        let mem = g.memory_type.as_deref().unwrap_or("").to_ascii_uppercase();
        let bw_range = if mem.starts_with("HBM") {
            (250.0, 10_000.0)
        } else if mem.starts_with("GDDR") {
            (100.0, 2_000.0)
        } else if mem.is_empty() {
            (50.0, 10_000.0)
        } else {
            (50.0, 1_200.0)
        };
        check_range(
            &mut out,
            g,
            "memory_bandwidth_gbs",
            g.memory_bandwidth_gbs,
            bw_range,
        );
        check_range(&mut out, g, "fp32_tflops", g.fp32_tflops, (1.0, 300.0));
        for (field, v) in [
            ("tf32_tensor_tflops", g.tf32_tensor_tflops),
            ("fp16_tensor_tflops", g.fp16_tensor_tflops),
            ("bf16_tensor_tflops", g.bf16_tensor_tflops),
            ("fp8_tensor_tflops", g.fp8_tensor_tflops),
            ("int8_tensor_tops", g.int8_tensor_tops),
        ] {
            check_range(&mut out, g, field, v, (5.0, 6_000.0));
        }
        let tdp_range = match g.segment {
            Segment::Consumer | Segment::Workstation => (30.0, 700.0),
            _ => (30.0, 1_500.0),
        };
        check_range(&mut out, g, "tdp_w", g.tdp_w, tdp_range);
        // Matrix units never run slower than the plain FP32 pipeline.
        if let Some(fp32) = g.fp32_tflops {
            for (field, v) in [
                ("fp16_tensor_tflops", g.fp16_tensor_tflops),
                ("bf16_tensor_tflops", g.bf16_tensor_tflops),
            ] {
                if let Some(t) = v {
                    if t < fp32 {
                        out.push(bad(field, format!("{t} is below the FP32 rate {fp32}")));
                    }
                }
            }
        }
        if let (Some(bf16), Some(fp8)) = (g.bf16_tensor_tflops, g.fp8_tensor_tflops) {
            if fp8 < bf16 {
                out.push(bad(
                    "fp8_tensor_tflops",
                    format!("{fp8} is below the BF16 rate {bf16}"),
                ));
            }
        }
        for (entry, field, sparse) in KNOWN_SPARSE {
            if *entry == g.id {
                let stored = match *field {
                    "fp16_tensor_tflops" => g.fp16_tensor_tflops,
                    "bf16_tensor_tflops" => g.bf16_tensor_tflops,
                    "tf32_tensor_tflops" => g.tf32_tensor_tflops,
                    "fp8_tensor_tflops" => g.fp8_tensor_tflops,
                    _ => None,
                };
                if stored.is_some_and(|v| (v - sparse).abs() < 0.5) {
                    out.push(bad(field, format!("{sparse} is the sparse (or FP16-accumulate) headline; store the dense FP32-accumulate rate")));
                }
            }
        }
        match (g.vendor, &g.compute_capability) {
            (Vendor::Nvidia, None) => {
                out.push(bad("compute_capability", "required for NVIDIA".into()))
            }
            (Vendor::Nvidia, Some(_)) if g.compute_capability().is_none() => {
                out.push(bad("compute_capability", "must look like 8.6".into()))
            }
            (v, Some(_)) if v != Vendor::Nvidia => out.push(bad(
                "compute_capability",
                "only NVIDIA GPUs have one".into(),
            )),
            _ => {}
        }
        if g.ecosystems.is_empty() {
            out.push(bad("ecosystems", "at least one".into()));
        }
        if g.availability.is_empty() {
            out.push(bad(
                "availability",
                "at least one of new, used, cloud".into(),
            ));
        }
        if g.sources.is_empty() {
            out.push(bad(
                "sources",
                "every entry needs at least one source".into(),
            ));
        }
        for s in &g.sources {
            if !s.url.starts_with("https://") && !s.url.starts_with("http://") {
                out.push(bad("sources", format!("{:?} is not a URL", s.url)));
            }
        }
        for (field, present) in numeric_fields(g) {
            if present && g.source_for(field).is_none() {
                out.push(bad(field, "no source names this field".into()));
            }
        }
        if let Some(ic) = &g.interconnect {
            // A link the engine cannot time would fall back to a guess; every link listed
            // has its bandwidth.
            if ic.bandwidth_gbs.is_none() {
                out.push(bad(
                    "interconnect.bandwidth_gbs",
                    "a link is listed without its bandwidth".into(),
                ));
            }
            check_range(
                &mut out,
                g,
                "interconnect.bandwidth_gbs",
                ic.bandwidth_gbs,
                (10.0, 5_000.0),
            );
        }
        for (field, price) in [
            ("price.msrp_usd", g.price.msrp_usd),
            ("price.street_usd", g.price.street_usd),
            ("price.used_usd", g.price.used_usd),
            ("price.server_usd_per_gpu", g.price.server_usd_per_gpu),
        ] {
            check_range(&mut out, g, field, price, (50.0, 100_000.0));
        }
        check_range(
            &mut out,
            g,
            "price.cloud_usd_per_hour",
            g.price.cloud_usd_per_hour,
            (0.01, 50.0),
        );
        for (field, value, date) in [
            ("price.msrp_date", g.price.msrp_usd, &g.price.msrp_date),
            (
                "price.street_date",
                g.price.street_usd,
                &g.price.street_date,
            ),
            ("price.used_date", g.price.used_usd, &g.price.used_date),
            (
                "price.server_date",
                g.price.server_usd_per_gpu,
                &g.price.server_date,
            ),
            (
                "price.cloud_date",
                g.price.cloud_usd_per_hour,
                &g.price.cloud_date,
            ),
        ] {
            if value.is_some() && date.is_none() {
                out.push(bad(field, "a price needs the date it was true".into()));
            }
            if let Some(d) = date {
                let ok = d.len() == 7
                    && d.as_bytes()[4] == b'-'
                    && d[..4]
                        .parse::<u32>()
                        .is_ok_and(|y| (2000..2100).contains(&y))
                    && d[5..].parse::<u32>().is_ok_and(|m| (1..=12).contains(&m));
                if !ok {
                    out.push(bad(field, format!("{d:?} is not a YYYY-MM month")));
                }
            }
        }
        if g.price.cloud_marketplace && g.price.cloud_usd_per_hour.is_none() {
            out.push(bad(
                "price.cloud_marketplace",
                "marks a cloud price as a marketplace's, but there is none".into(),
            ));
        }
        if g.price.server_usd_per_gpu.is_some() {
            // A server share is only comparable with the unit it is bought in and what that
            // unit includes.
            if !g.price.server_gpus.is_some_and(|n| (2..=72).contains(&n)) {
                out.push(bad(
                    "price.server_gpus",
                    "a server price needs the number of GPUs in that server (2 to 72)".into(),
                ));
            }
            if g.price.server_includes_host.is_none() {
                out.push(bad(
                    "price.server_includes_host",
                    "a server price needs to say whether it includes the host".into(),
                ));
            }
        }
        // Every way the entry can be had has a price of its kind, or a note that names the
        // field and says why none could be sourced (the entry is then never scored that way).
        let explained = |field: &str| g.notes.iter().any(|n| n.starts_with(field));
        let mut missing = |field: &'static str, problem: &str| {
            if !explained(field) {
                out.push(bad(field, problem.into()));
            }
        };
        if g.form_factor.is_server_part() {
            if g.availability.contains(&Availability::New) && g.price.server_usd_per_gpu.is_none() {
                missing(
                    "price.server_usd_per_gpu",
                    "a module sold new needs its share of a sourced server price",
                );
            }
        } else if g.form_factor != FormFactor::Cloud
            && g.availability.contains(&Availability::New)
            && g.price.street_usd.is_none()
        {
            missing(
                "price.street_usd",
                "an entry sold new needs today's price new",
            );
        }
        if g.availability.contains(&Availability::Used) && g.price.used_usd.is_none() {
            missing(
                "price.used_usd",
                "an entry sold used needs today's used price",
            );
        }
        if g.availability.contains(&Availability::Cloud) && g.price.cloud_usd_per_hour.is_none() {
            missing(
                "price.cloud_usd_per_hour",
                "a rentable entry needs an on-demand price",
            );
        }
        if g.form_factor == FormFactor::Cloud
            && g.availability.iter().any(|a| *a != Availability::Cloud)
        {
            out.push(bad(
                "availability",
                "a cloud-only part cannot be bought".into(),
            ));
        }
    }
    let mut model_ids = HashSet::new();
    for m in &catalog.models {
        let bad = |field: &'static str, problem: String| Violation {
            entry: m.id.clone(),
            field,
            problem,
        };
        if !model_ids.insert(&m.id) {
            out.push(bad("id", "duplicate".into()));
        }
        if !(m.params_b > 0.0 && m.params_b < 5000.0) {
            out.push(bad("params_b", format!("{} is not plausible", m.params_b)));
        }
        // Heads split the hidden size unless the model sets its own head size (Qwen3.5 27B:
        // 24 heads of 256 over a hidden size of 5120).
        if let (Some(h), Some(a), None) = (m.hidden, m.heads, m.head_dim) {
            if a == 0 || h % a != 0 {
                out.push(bad("heads", format!("{a} does not divide hidden size {h}")));
            }
            if let Some(kv) = m.kv_heads {
                if kv == 0 || a % kv != 0 {
                    out.push(bad("kv_heads", format!("{kv} does not divide {a} heads")));
                }
            }
        }
        if m.family.is_sequence_model() && m.layers.is_none() {
            out.push(bad(
                "layers",
                "sequence models need their transformer shape".into(),
            ));
        }
        if m.sources.is_empty() {
            out.push(bad(
                "sources",
                "every preset needs at least one source".into(),
            ));
        }
    }
    out
}
