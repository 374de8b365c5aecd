//! The catalog as compiled into the app (static tables generated from `gpus.json` and
//! `models.json`), and readers of the full JSON files for tests and other tools.

use std::sync::OnceLock;

use crate::gpu::Gpu;
use crate::model::Model;
use crate::share::Resolve;

/// The full public files, with notes and sources.
pub const GPUS_JSON: &str = include_str!("../gpus.json");
pub const MODELS_JSON: &str = include_str!("../models.json");
/// Published measurements, the engine's calibration (`evidence`); not compiled into the
/// browser bundle, which fetches the file published beside the app.
pub const MEASUREMENTS_JSON: &str = include_str!("../measurements.json");

/// The same entries as static tables, without `notes` and `sources` (see `build.rs`).
/// Rows hold only constant data; `gpus()` and `models()` turn them into owned records.
mod generated {
    use crate::gpu::*;
    use crate::model::*;

    struct PriceRow {
        msrp_usd: Option<f64>,
        msrp_date: Option<&'static str>,
        street_usd: Option<f64>,
        street_date: Option<&'static str>,
        used_usd: Option<f64>,
        used_date: Option<&'static str>,
        server_usd_per_gpu: Option<f64>,
        server_date: Option<&'static str>,
        server_gpus: Option<u32>,
        server_includes_host: Option<bool>,
        cloud_usd_per_hour: Option<f64>,
        cloud_date: Option<&'static str>,
        cloud_marketplace: bool,
    }

    struct GpuRow {
        id: &'static str,
        aliases: &'static [&'static str],
        name: &'static str,
        vendor: Vendor,
        segment: Segment,
        architecture: &'static str,
        released: Option<u32>,
        memory_gb: f64,
        memory_type: Option<&'static str>,
        memory_bandwidth_gbs: Option<f64>,
        fp32_tflops: Option<f64>,
        fp16_tflops: Option<f64>,
        tf32_tensor_tflops: Option<f64>,
        fp16_tensor_tflops: Option<f64>,
        bf16_tensor_tflops: Option<f64>,
        fp8_tensor_tflops: Option<f64>,
        int8_tensor_tops: Option<f64>,
        tdp_w: Option<f64>,
        form_factor: FormFactor,
        interconnect: Option<Interconnect>,
        pcie: Option<Pcie>,
        mig: bool,
        ecosystems: &'static [Ecosystem],
        compute_capability: Option<&'static str>,
        price: PriceRow,
        availability: &'static [Availability],
    }

    struct ModelRow {
        id: &'static str,
        name: &'static str,
        family: Family,
        params_b: f64,
        active_params_b: Option<f64>,
        layers: Option<u32>,
        hidden: Option<u32>,
        heads: Option<u32>,
        kv_heads: Option<u32>,
        ffn: Option<u32>,
        vocab: Option<u32>,
        experts: Option<u32>,
        active_experts: Option<u32>,
        default_seq: Option<u32>,
        max_seq: Option<u32>,
        resolution: Option<u32>,
        frames: Option<u32>,
        gflops_per_sample: Option<f64>,
        head_dim: Option<u32>,
        kv_latent_dim: Option<u32>,
        sliding_window: Option<u32>,
        sliding_layers: Option<u32>,
        pipeline_params_b: Option<f64>,
        decoder_gflops: Option<f64>,
        decoder_layers: Option<u32>,
        guidance_passes: Option<u32>,
        embedding_matrices: Option<u32>,
        kv_layers: Option<u32>,
        self_attention: &'static [[u32; 3]],
        hf_repo: Option<&'static str>,
        gguf: Option<&'static str>,
        checkpoint: Option<&'static str>,
        gguf_repo: Option<&'static str>,
        gguf_gb: Option<f64>,
        awq_repo: Option<&'static str>,
        transformers_dense_experts: Option<bool>,
    }

    include!(concat!(env!("OUT_DIR"), "/catalog_data.rs"));

    fn owned(s: Option<&str>) -> Option<String> {
        s.map(str::to_string)
    }

    pub fn gpus() -> Vec<Gpu> {
        GPU_ROWS
            .iter()
            .map(|r| Gpu {
                id: r.id.into(),
                aliases: r.aliases.iter().map(|a| a.to_string()).collect(),
                name: r.name.into(),
                vendor: r.vendor,
                segment: r.segment,
                architecture: r.architecture.into(),
                released: r.released,
                memory_gb: r.memory_gb,
                memory_type: owned(r.memory_type),
                memory_bandwidth_gbs: r.memory_bandwidth_gbs,
                fp32_tflops: r.fp32_tflops,
                fp16_tflops: r.fp16_tflops,
                tf32_tensor_tflops: r.tf32_tensor_tflops,
                fp16_tensor_tflops: r.fp16_tensor_tflops,
                bf16_tensor_tflops: r.bf16_tensor_tflops,
                fp8_tensor_tflops: r.fp8_tensor_tflops,
                int8_tensor_tops: r.int8_tensor_tops,
                tdp_w: r.tdp_w,
                form_factor: r.form_factor,
                interconnect: r.interconnect.clone(),
                pcie: r.pcie.clone(),
                mig: r.mig,
                ecosystems: r.ecosystems.to_vec(),
                compute_capability: owned(r.compute_capability),
                price: Price {
                    msrp_usd: r.price.msrp_usd,
                    msrp_date: owned(r.price.msrp_date),
                    street_usd: r.price.street_usd,
                    street_date: owned(r.price.street_date),
                    used_usd: r.price.used_usd,
                    used_date: owned(r.price.used_date),
                    server_usd_per_gpu: r.price.server_usd_per_gpu,
                    server_date: owned(r.price.server_date),
                    server_gpus: r.price.server_gpus,
                    server_includes_host: r.price.server_includes_host,
                    cloud_usd_per_hour: r.price.cloud_usd_per_hour,
                    cloud_date: owned(r.price.cloud_date),
                    cloud_marketplace: r.price.cloud_marketplace,
                },
                availability: r.availability.to_vec(),
                notes: Vec::new(),
                sources: Vec::new(),
            })
            .collect()
    }

    pub fn models() -> Vec<Model> {
        MODEL_ROWS
            .iter()
            .map(|r| Model {
                id: r.id.into(),
                name: r.name.into(),
                family: r.family,
                params_b: r.params_b,
                active_params_b: r.active_params_b,
                layers: r.layers,
                hidden: r.hidden,
                heads: r.heads,
                kv_heads: r.kv_heads,
                ffn: r.ffn,
                vocab: r.vocab,
                experts: r.experts,
                active_experts: r.active_experts,
                default_seq: r.default_seq,
                max_seq: r.max_seq,
                resolution: r.resolution,
                frames: r.frames,
                gflops_per_sample: r.gflops_per_sample,
                head_dim: r.head_dim,
                kv_latent_dim: r.kv_latent_dim,
                sliding_window: r.sliding_window,
                sliding_layers: r.sliding_layers,
                pipeline_params_b: r.pipeline_params_b,
                decoder_gflops: r.decoder_gflops,
                decoder_layers: r.decoder_layers,
                guidance_passes: r.guidance_passes,
                embedding_matrices: r.embedding_matrices,
                kv_layers: r.kv_layers,
                self_attention: r.self_attention.to_vec(),
                hf_repo: owned(r.hf_repo),
                gguf: owned(r.gguf),
                checkpoint: owned(r.checkpoint),
                gguf_repo: owned(r.gguf_repo),
                gguf_gb: r.gguf_gb,
                awq_repo: owned(r.awq_repo),
                transformers_dense_experts: r.transformers_dense_experts.unwrap_or(false),
                notes: Vec::new(),
                sources: Vec::new(),
            })
            .collect()
    }
}

/// Notes and sources of one GPU, read from the full `gpus.json` when a view needs them.
#[derive(Debug, Clone, PartialEq, serde::Deserialize)]
pub struct GpuDetails {
    pub id: String,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub sources: Vec<crate::gpu::Source>,
}

/// Reads the notes and sources of every entry of a full `gpus.json`.
pub fn details_from_json(gpus: &str) -> Result<Vec<GpuDetails>, LoadError> {
    serde_json::from_str(gpus).map_err(LoadError::Gpus)
}

#[derive(Debug, Clone)]
pub struct Catalog {
    pub gpus: Vec<Gpu>,
    pub models: Vec<Model>,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("gpus.json: {0}")]
    Gpus(serde_json::Error),
    #[error("models.json: {0}")]
    Models(serde_json::Error),
}

impl Catalog {
    pub fn from_json(gpus: &str, models: &str) -> Result<Catalog, LoadError> {
        Ok(Catalog {
            gpus: serde_json::from_str(gpus).map_err(LoadError::Gpus)?,
            models: serde_json::from_str(models).map_err(LoadError::Models)?,
        })
    }

    /// The embedded catalog, without notes and sources.
    pub fn embedded() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| Catalog {
            gpus: generated::gpus(),
            models: generated::models(),
        })
    }

    /// A GPU by id or alias.
    /// The catalog's date: its newest price month (`YYYY-MM`).
    pub fn date(&self) -> Option<&str> {
        self.gpus
            .iter()
            .flat_map(|g| {
                let p = &g.price;
                [
                    &p.msrp_date,
                    &p.street_date,
                    &p.used_date,
                    &p.server_date,
                    &p.cloud_date,
                ]
            })
            .filter_map(|d| d.as_deref())
            .max()
    }

    /// The GPU with this id or alias, matched exactly, else without regard to ASCII case
    /// (as the search box matches): `RTX-4090` in a link opens the RTX 4090.
    pub fn gpu(&self, id_or_alias: &str) -> Option<&Gpu> {
        let named = |same: &dyn Fn(&str) -> bool| {
            self.gpus
                .iter()
                .find(|g| same(&g.id))
                .or_else(|| self.gpus.iter().find(|g| g.aliases.iter().any(|a| same(a))))
        };
        named(&|x| x == id_or_alias).or_else(|| named(&|x| x.eq_ignore_ascii_case(id_or_alias)))
    }

    pub fn model(&self, id: &str) -> Option<&Model> {
        self.models.iter().find(|m| m.id == id)
    }

    /// GPUs whose name, id or alias contains every word of `query`, ignoring ASCII case
    /// (names, ids and aliases are ASCII; full Unicode case mapping would add its tables
    /// to the bundle for nothing).
    pub fn search(&self, query: &str) -> Vec<&Gpu> {
        let words: Vec<String> = query
            .split_whitespace()
            .map(|w| w.to_ascii_lowercase())
            .collect();
        self.gpus
            .iter()
            .filter(|g| {
                let hay =
                    format!("{} {} {}", g.name, g.id, g.aliases.join(" ")).to_ascii_lowercase();
                words.iter().all(|w| hay.contains(w.as_str()))
            })
            .collect()
    }
}

impl Resolve for Catalog {
    fn gpu_id(&self, id_or_alias: &str) -> Option<String> {
        self.gpu(id_or_alias).map(|g| g.id.clone())
    }
    fn has_model(&self, id: &str) -> bool {
        self.model(id).is_some()
    }
    fn model_family(&self, id: &str) -> Option<crate::model::Family> {
        self.model(id).map(|m| m.family)
    }
    fn max_context(&self, id: &str) -> Option<u32> {
        self.model(id).and_then(|m| m.max_seq)
    }
}
