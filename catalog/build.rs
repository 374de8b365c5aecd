//! Turns `gpus.json` and `models.json` into static Rust tables for the embedded
//! catalog, without their `notes` and `sources` (the GPU view fetches those from the
//! full `gpus.json` published beside the app). The browser bundle then needs no JSON
//! parser, which keeps the first visit small; the JSON files stay the one source of
//! truth, and a test checks that the generated catalog equals the parsed files.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Map, Value};

fn load(name: &str) -> Vec<Map<String, Value>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    value
        .as_array()
        .unwrap_or_else(|| panic!("{name}: not an array"))
        .iter()
        .map(|v| {
            v.as_object()
                .cloned()
                .unwrap_or_else(|| panic!("{name}: entry is not an object"))
        })
        .collect()
}

/// `infinity-fabric` → `InfinityFabric`, `medical-3d` → `Medical3d`.
fn variant(token: &str) -> String {
    token
        .split('-')
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

struct Entry<'a> {
    name: &'a str,
    id: String,
    obj: &'a Map<String, Value>,
}

impl Entry<'_> {
    fn get(&self, key: &str) -> &Value {
        self.obj.get(key).unwrap_or(&Value::Null)
    }
    fn fail(&self, key: &str, want: &str) -> ! {
        panic!(
            "{}: {}.{key}: expected {want}, found {}",
            self.name,
            self.id,
            self.get(key)
        )
    }
    fn string(&self, key: &str) -> String {
        match self.get(key).as_str() {
            Some(s) => format!("{s:?}"),
            None => self.fail(key, "a string"),
        }
    }
    fn opt_string(&self, key: &str) -> String {
        match self.get(key) {
            Value::Null => "None".into(),
            Value::String(s) => format!("Some({s:?})"),
            _ => self.fail(key, "a string or null"),
        }
    }
    fn float(&self, key: &str) -> String {
        match self.get(key).as_f64() {
            Some(x) => format!("{x:?}"),
            None => self.fail(key, "a number"),
        }
    }
    fn opt_float(&self, key: &str) -> String {
        match self.get(key) {
            Value::Null => "None".into(),
            v => match v.as_f64() {
                Some(x) => format!("Some({x:?})"),
                None => self.fail(key, "a number or null"),
            },
        }
    }
    fn opt_int(&self, key: &str) -> String {
        match self.get(key) {
            Value::Null => "None".into(),
            v => match v.as_u64() {
                Some(x) => format!("Some({x})"),
                None => self.fail(key, "a whole number or null"),
            },
        }
    }
    fn opt_bool(&self, key: &str) -> String {
        match self.get(key) {
            Value::Null => "None".into(),
            Value::Bool(b) => format!("Some({b})"),
            _ => self.fail(key, "true, false or null"),
        }
    }
    fn token(&self, key: &str, ty: &str) -> String {
        match self.get(key).as_str() {
            Some(s) => format!("{ty}::{}", variant(s)),
            None => self.fail(key, "a string"),
        }
    }
    fn tokens(&self, key: &str, ty: &str) -> String {
        let items: Vec<String> = self
            .get(key)
            .as_array()
            .unwrap_or_else(|| self.fail(key, "a list"))
            .iter()
            .map(|v| {
                format!(
                    "{ty}::{}",
                    variant(v.as_str().unwrap_or_else(|| self.fail(key, "strings")))
                )
            })
            .collect();
        format!("&[{}]", items.join(", "))
    }
    fn child(&self, key: &str) -> Option<Entry<'_>> {
        match self.get(key) {
            Value::Null => None,
            Value::Object(obj) => Some(Entry {
                name: self.name,
                id: format!("{}.{key}", self.id),
                obj,
            }),
            _ => self.fail(key, "an object or null"),
        }
    }
}

fn gpu(e: &Entry) -> String {
    let aliases: Vec<String> = e
        .get("aliases")
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(|s| format!("{s:?}"))
                .collect()
        })
        .unwrap_or_default();
    let interconnect = match e.child("interconnect") {
        None => "None".into(),
        Some(i) => format!(
            "Some(Interconnect {{ kind: {}, generation: {}, bandwidth_gbs: {}, max_gpus: {} }})",
            i.token("kind", "LinkKind"),
            i.opt_int("generation"),
            i.opt_float("bandwidth_gbs"),
            i.opt_int("max_gpus")
        ),
    };
    let pcie = match e.child("pcie") {
        None => "None".into(),
        Some(p) => format!(
            "Some(Pcie {{ generation: {}, lanes: {} }})",
            p.get("generation")
                .as_u64()
                .unwrap_or_else(|| p.fail("generation", "a whole number")),
            p.opt_int("lanes")
        ),
    };
    let price = e
        .child("price")
        .unwrap_or_else(|| e.fail("price", "an object"));
    let floats = [
        "memory_bandwidth_gbs",
        "fp32_tflops",
        "fp16_tflops",
        "tf32_tensor_tflops",
        "fp16_tensor_tflops",
        "bf16_tensor_tflops",
        "fp8_tensor_tflops",
        "int8_tensor_tops",
        "tdp_w",
    ]
    .map(|k| format!("{k}: {}", e.opt_float(k)))
    .join(", ");
    format!(
        "GpuRow {{ id: {}, aliases: &[{}], name: {}, vendor: {}, segment: {}, architecture: {}, released: {}, memory_gb: {}, memory_type: {}, {floats}, form_factor: {}, interconnect: {interconnect}, pcie: {pcie}, mig: {}, ecosystems: {}, compute_capability: {}, price: PriceRow {{ msrp_usd: {}, msrp_date: {}, street_usd: {}, street_date: {}, used_usd: {}, used_date: {}, server_usd_per_gpu: {}, server_date: {}, server_gpus: {}, server_includes_host: {}, cloud_usd_per_hour: {}, cloud_date: {}, cloud_marketplace: {} }}, availability: {} }}",
        e.string("id"),
        aliases.join(", "),
        e.string("name"),
        e.token("vendor", "Vendor"),
        e.token("segment", "Segment"),
        e.string("architecture"),
        e.opt_int("released"),
        e.float("memory_gb"),
        e.opt_string("memory_type"),
        e.token("form_factor", "FormFactor"),
        e.get("mig").as_bool().unwrap_or_else(|| e.fail("mig", "true or false")),
        e.tokens("ecosystems", "Ecosystem"),
        e.opt_string("compute_capability"),
        price.opt_float("msrp_usd"),
        price.opt_string("msrp_date"),
        price.opt_float("street_usd"),
        price.opt_string("street_date"),
        price.opt_float("used_usd"),
        price.opt_string("used_date"),
        price.opt_float("server_usd_per_gpu"),
        price.opt_string("server_date"),
        price.opt_int("server_gpus"),
        price.opt_bool("server_includes_host"),
        price.opt_float("cloud_usd_per_hour"),
        price.opt_string("cloud_date"),
        price.get("cloud_marketplace").as_bool().unwrap_or(false),
        e.tokens("availability", "Availability"),
    )
}

fn model(e: &Entry) -> String {
    let ints = [
        "layers",
        "hidden",
        "heads",
        "kv_heads",
        "ffn",
        "vocab",
        "experts",
        "active_experts",
        "default_seq",
        "max_seq",
        "resolution",
        "frames",
        "head_dim",
        "kv_latent_dim",
        "sliding_window",
        "sliding_layers",
        "decoder_layers",
        "guidance_passes",
        "embedding_matrices",
        "kv_layers",
    ]
    .map(|k| format!("{k}: {}", e.opt_int(k)))
    .join(", ");
    let attention: Vec<String> = match e.get("self_attention") {
        Value::Null => Vec::new(),
        Value::Array(layers) => layers
            .iter()
            .map(|l| {
                match l
                    .as_array()
                    .map(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<_>>>())
                {
                    Some(Some(v)) if v.len() == 3 => format!("[{}, {}, {}]", v[0], v[1], v[2]),
                    _ => e.fail("self_attention", "[tokens, layers, heads] entries"),
                }
            })
            .collect(),
        _ => e.fail("self_attention", "a list or null"),
    };
    format!(
        "ModelRow {{ id: {}, name: {}, family: {}, params_b: {}, active_params_b: {}, {ints}, self_attention: &[{}], gflops_per_sample: {}, pipeline_params_b: {}, decoder_gflops: {}, hf_repo: {}, gguf: {}, checkpoint: {}, gguf_repo: {}, gguf_gb: {}, awq_repo: {}, transformers_dense_experts: {} }}",
        e.string("id"),
        e.string("name"),
        e.token("family", "Family"),
        e.float("params_b"),
        e.opt_float("active_params_b"),
        attention.join(", "),
        e.opt_float("gflops_per_sample"),
        e.opt_float("pipeline_params_b"),
        e.opt_float("decoder_gflops"),
        e.opt_string("hf_repo"),
        e.opt_string("gguf"),
        e.opt_string("checkpoint"),
        e.opt_string("gguf_repo"),
        e.opt_float("gguf_gb"),
        e.opt_string("awq_repo"),
        e.opt_bool("transformers_dense_experts"),
    )
}

fn main() {
    let mut out = String::from("// Generated by build.rs from gpus.json and models.json.\n\n");
    for (file, name, ty, emit) in [
        (
            "gpus.json",
            "GPU_ROWS",
            "GpuRow",
            gpu as fn(&Entry) -> String,
        ),
        ("models.json", "MODEL_ROWS", "ModelRow", model),
    ] {
        let entries = load(file);
        let _ = writeln!(out, "static {name}: [{ty}; {}] = [", entries.len());
        for obj in &entries {
            let id = obj
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string();
            let _ = writeln!(
                out,
                "    {},",
                emit(&Entry {
                    name: file,
                    id,
                    obj
                })
            );
        }
        out.push_str("];\n\n");
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("catalog_data.rs");
    std::fs::write(dest, out).expect("write catalog_data.rs");
}
