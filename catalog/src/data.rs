//! The catalog as compiled into the app: `gpus.json` and `models.json`, parsed once.

use std::sync::OnceLock;

use crate::gpu::Gpu;
use crate::model::Model;
use crate::share::Resolve;

/// The full public files, with notes and sources.
pub const GPUS_JSON: &str = include_str!("../gpus.json");
pub const MODELS_JSON: &str = include_str!("../models.json");
/// What the app embeds: the same entries without `notes` and `sources` (see `build.rs`).
const GPUS_COMPACT: &str = include_str!(concat!(env!("OUT_DIR"), "/gpus.json"));
const MODELS_COMPACT: &str = include_str!(concat!(env!("OUT_DIR"), "/models.json"));

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

    /// The embedded catalog, without notes and sources. The files are checked by this
    /// crate's tests, so a parse failure here means a build that skipped them; it yields
    /// an empty catalog rather than a panic.
    pub fn embedded() -> &'static Catalog {
        static CATALOG: OnceLock<Catalog> = OnceLock::new();
        CATALOG.get_or_init(|| {
            Catalog::from_json(GPUS_COMPACT, MODELS_COMPACT).unwrap_or(Catalog {
                gpus: Vec::new(),
                models: Vec::new(),
            })
        })
    }

    /// A GPU by id or alias.
    pub fn gpu(&self, id_or_alias: &str) -> Option<&Gpu> {
        self.gpus.iter().find(|g| g.id == id_or_alias).or_else(|| {
            self.gpus
                .iter()
                .find(|g| g.aliases.iter().any(|a| a == id_or_alias))
        })
    }

    pub fn model(&self, id: &str) -> Option<&Model> {
        self.models.iter().find(|m| m.id == id)
    }

    /// GPUs whose name, id or alias contains every word of `query` (case-insensitive).
    pub fn search(&self, query: &str) -> Vec<&Gpu> {
        let words: Vec<String> = query.split_whitespace().map(|w| w.to_lowercase()).collect();
        self.gpus
            .iter()
            .filter(|g| {
                let hay = format!("{} {} {}", g.name, g.id, g.aliases.join(" ")).to_lowercase();
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
}
