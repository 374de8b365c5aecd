//! The GPU record as stored in `gpus.json`. Field names are the public schema
//! documented in `catalog/README.md`; other tools read the file, so they do not change.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Vendor {
    Nvidia,
    Amd,
    Google,
    Apple,
    Intel,
}

impl Vendor {
    pub const ALL: [Vendor; 5] = [
        Vendor::Nvidia,
        Vendor::Amd,
        Vendor::Google,
        Vendor::Apple,
        Vendor::Intel,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Vendor::Nvidia => "nvidia",
            Vendor::Amd => "amd",
            Vendor::Google => "google",
            Vendor::Apple => "apple",
            Vendor::Intel => "intel",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segment {
    Consumer,
    Workstation,
    Datacenter,
    /// Only rentable (TPUs).
    Cloud,
}

impl Segment {
    pub const ALL: [Segment; 4] = [
        Segment::Consumer,
        Segment::Workstation,
        Segment::Datacenter,
        Segment::Cloud,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Segment::Consumer => "consumer",
            Segment::Workstation => "workstation",
            Segment::Datacenter => "datacenter",
            Segment::Cloud => "cloud",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Ecosystem {
    Cuda,
    Rocm,
    Xla,
    Metal,
    Directml,
    Oneapi,
    Synapseai,
}

impl Ecosystem {
    pub fn as_str(self) -> &'static str {
        match self {
            Ecosystem::Cuda => "cuda",
            Ecosystem::Rocm => "rocm",
            Ecosystem::Xla => "xla",
            Ecosystem::Metal => "metal",
            Ecosystem::Directml => "directml",
            Ecosystem::Oneapi => "oneapi",
            Ecosystem::Synapseai => "synapseai",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Availability {
    New,
    Used,
    Cloud,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LinkKind {
    Nvlink,
    InfinityFabric,
    Ici,
    XeLink,
    /// Gaudi's integrated RoCE Ethernet ports.
    Roce,
}

impl LinkKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkKind::Nvlink => "nvlink",
            LinkKind::InfinityFabric => "infinity-fabric",
            LinkKind::Ici => "ici",
            LinkKind::XeLink => "xe-link",
            LinkKind::Roce => "roce",
        }
    }
}

/// A direct GPU-to-GPU link (not PCIe).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Interconnect {
    pub kind: LinkKind,
    pub generation: Option<u32>,
    /// Total bidirectional GB/s per GPU, as the vendor states it.
    pub bandwidth_gbs: Option<f64>,
    /// Most GPUs one link domain joins without a switch fabric beyond the node.
    pub max_gpus: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pcie {
    pub generation: u32,
    pub lanes: Option<u32>,
}

impl Pcie {
    /// One-direction GB/s of the slot: per-lane rate after line coding
    /// (PCIe 3: 8 GT/s 128b/130b ≈ 0.985 GB/s; each generation doubles).
    pub fn bandwidth_gbs(&self) -> f64 {
        let per_lane = match self.generation {
            0..=2 => 0.5,
            3 => 0.985,
            4 => 1.969,
            5 => 3.938,
            _ => 7.877,
        };
        per_lane * f64::from(self.lanes.unwrap_or(16))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    pub msrp_usd: Option<f64>,
    pub msrp_date: Option<String>,
    pub street_usd: Option<f64>,
    pub street_date: Option<String>,
    pub cloud_usd_per_hour: Option<f64>,
    pub cloud_date: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    pub url: String,
    /// Field names this source backs; nested fields are dotted (`price.msrp_usd`).
    pub fields: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gpu {
    pub id: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub name: String,
    pub vendor: Vendor,
    pub segment: Segment,
    pub architecture: String,
    pub released: Option<u32>,
    pub memory_gb: f64,
    pub memory_type: Option<String>,
    pub memory_bandwidth_gbs: Option<f64>,
    pub fp32_tflops: Option<f64>,
    #[serde(default)]
    pub fp16_tflops: Option<f64>,
    pub tf32_tensor_tflops: Option<f64>,
    pub fp16_tensor_tflops: Option<f64>,
    pub bf16_tensor_tflops: Option<f64>,
    pub fp8_tensor_tflops: Option<f64>,
    pub int8_tensor_tops: Option<f64>,
    pub tdp_w: Option<f64>,
    pub interconnect: Option<Interconnect>,
    pub pcie: Option<Pcie>,
    pub mig: bool,
    pub ecosystems: Vec<Ecosystem>,
    pub compute_capability: Option<String>,
    pub price: Price,
    pub availability: Vec<Availability>,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub sources: Vec<Source>,
}

impl Gpu {
    pub fn memory_bytes(&self) -> u64 {
        (self.memory_gb * 1e9) as u64
    }

    pub fn has_ecosystem(&self, eco: Ecosystem) -> bool {
        self.ecosystems.contains(&eco)
    }

    /// Compute capability as (major, minor), NVIDIA only.
    pub fn compute_capability(&self) -> Option<(u32, u32)> {
        let cc = self.compute_capability.as_deref()?;
        let (major, minor) = cc.split_once('.')?;
        Some((major.parse().ok()?, minor.parse().ok()?))
    }

    /// Whether it has matrix units (tensor cores, matrix cores, MXUs).
    pub fn has_matrix_units(&self) -> bool {
        self.fp16_tensor_tflops.is_some() || self.bf16_tensor_tflops.is_some()
    }

    /// Price to buy one: launch MSRP where the vendor published one, else the sourced street price.
    pub fn purchase_usd(&self) -> Option<f64> {
        self.price.msrp_usd.or(self.price.street_usd)
    }

    /// The source that backs `field`, if any.
    pub fn source_for(&self, field: &str) -> Option<&Source> {
        self.sources
            .iter()
            .find(|s| s.fields.iter().any(|f| f == field))
    }

    pub fn is_buyable(&self) -> bool {
        self.availability
            .iter()
            .any(|a| matches!(a, Availability::New | Availability::Used))
    }

    pub fn is_rentable(&self) -> bool {
        self.availability.contains(&Availability::Cloud)
    }
}
