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

    /// The vendor's name as it writes it.
    pub fn name(self) -> &'static str {
        match self {
            Vendor::Nvidia => "NVIDIA",
            Vendor::Amd => "AMD",
            Vendor::Google => "Google",
            Vendor::Apple => "Apple",
            Vendor::Intel => "Intel",
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

/// How the part is built, which decides how it can be bought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FormFactor {
    /// A card in a PCIe slot: one can be bought for a workstation.
    Pcie,
    /// An NVIDIA SXM module on an HGX baseboard: bought as part of a server.
    Sxm,
    /// An OCP accelerator module (AMD Instinct, Intel Gaudi): bought as part of a server.
    Oam,
    /// A Grace-Blackwell superchip: bought as part of a rack.
    Superchip,
    /// A whole machine with its memory shared between CPU and GPU (Apple, DGX Spark).
    Soc,
    /// Rented only (TPUs).
    Cloud,
}

impl FormFactor {
    pub fn as_str(self) -> &'static str {
        match self {
            FormFactor::Pcie => "pcie",
            FormFactor::Sxm => "sxm",
            FormFactor::Oam => "oam",
            FormFactor::Superchip => "superchip",
            FormFactor::Soc => "soc",
            FormFactor::Cloud => "cloud",
        }
    }

    /// Sold only inside a server or rack, never as a card for a workstation.
    pub fn is_server_part(self) -> bool {
        matches!(
            self,
            FormFactor::Sxm | FormFactor::Oam | FormFactor::Superchip
        )
    }
}

/// Every price with the month it held (`YYYY-MM`); `catalog/README.md` says which
/// sources count for each.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Launch price.
    pub msrp_usd: Option<f64>,
    pub msrp_date: Option<String>,
    /// Today's price new, for a card or a machine.
    pub street_usd: Option<f64>,
    pub street_date: Option<String>,
    /// Today's price used (sold listings, trackers, market surveys).
    #[serde(default)]
    pub used_usd: Option<f64>,
    #[serde(default)]
    pub used_date: Option<String>,
    /// A module's share of a sourced server price (server price / its GPUs).
    #[serde(default)]
    pub server_usd_per_gpu: Option<f64>,
    #[serde(default)]
    pub server_date: Option<String>,
    /// How many GPUs the priced server holds: the unit the module is bought in (8 for an
    /// HGX/DGX or OAM baseboard server, 72 for an NVL72 rack).
    #[serde(default)]
    pub server_gpus: Option<u32>,
    /// Whether the server price includes the host (chassis, CPUs, memory, networking), the
    /// catalog's basis; `false` for a price of the accelerators on their baseboard alone.
    #[serde(default)]
    pub server_includes_host: Option<bool>,
    /// Lowest on-demand price per GPU-hour among named providers.
    pub cloud_usd_per_hour: Option<f64>,
    pub cloud_date: Option<String>,
    /// The cloud price is a marketplace's lowest ask ("starting at": Akash, Vast.ai), where
    /// hosts and availability vary, not a provider's fixed on-demand price.
    #[serde(default)]
    pub cloud_marketplace: bool,
}

/// Which price a purchase figure is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceKind {
    New,
    Used,
    ServerShare,
    /// Only the launch price is known: older than today's market.
    Launch,
    /// The person's own price (the `price` key of the link).
    Yours,
}

impl PriceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            PriceKind::New => "new",
            PriceKind::Used => "used",
            PriceKind::ServerShare => "server-share",
            PriceKind::Launch => "launch",
            PriceKind::Yours => "yours",
        }
    }
}

/// A price older than this many months, against the catalog's date, is marked stale.
pub const STALE_MONTHS: i32 = 12;

/// Months from `earlier` to `later`, both `YYYY-MM`.
pub fn months_between(earlier: &str, later: &str) -> Option<i32> {
    let month = |d: &str| -> Option<i32> {
        let (y, m) = d.split_once('-')?;
        Some(y.parse::<i32>().ok()? * 12 + m.parse::<i32>().ok()?)
    };
    Some(month(later)? - month(earlier)?)
}

/// A purchase price and what it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Purchase {
    pub usd: f64,
    pub kind: PriceKind,
    pub date: Option<String>,
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
    pub form_factor: FormFactor,
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

impl Purchase {
    /// Older than `STALE_MONTHS` against the catalog's date.
    pub fn is_stale(&self, catalog_date: Option<&str>) -> bool {
        match (self.date.as_deref(), catalog_date) {
            (Some(d), Some(c)) => months_between(d, c).is_some_and(|m| m > STALE_MONTHS),
            _ => false,
        }
    }
}

/// Bytes in one of the GB a vendor states GPU memory in: binary gigabytes (GiB). A 24 GB
/// RTX 4090 shows 24,564 MiB in `nvidia-smi` and an 80 GB H100 81,559 MiB, where 24 and
/// 80 × 10^9 bytes would be 22,888 and 76,294 MiB.
pub const GIB: f64 = 1_073_741_824.0;

impl Gpu {
    /// The GPU's memory in bytes (`memory_gb` GiB).
    pub fn memory_bytes(&self) -> u64 {
        (self.memory_gb * GIB) as u64
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

    /// How many GPUs are bought at once: 1 for a card or a machine; for a module or
    /// superchip, the server or rack it is sold in (`price.server_gpus`; without a priced
    /// server, the 8-GPU HGX/OAM baseboard or the 72-GPU NVL72 rack).
    pub fn sold_in(&self) -> u32 {
        match self.form_factor {
            FormFactor::Sxm | FormFactor::Oam => self.price.server_gpus.unwrap_or(8),
            FormFactor::Superchip => self.price.server_gpus.unwrap_or(72),
            _ => 1,
        }
    }

    /// Price to buy one: today's new price, else today's used price, else a server
    /// share for modules, else the launch price of a card still sold new.
    pub fn purchase_usd(&self) -> Option<f64> {
        self.purchase(false).map(|p| p.usd)
    }

    /// What buying one costs today. `used`: the person asked for used cards. A card
    /// sold new and used is priced new unless asked; a card no longer sold new, used.
    /// A module is priced only as its share of a whole server: a price of the bare module
    /// would make a server of them look cheaper than one priced with its host.
    pub fn purchase(&self, used: bool) -> Option<Purchase> {
        let p = &self.price;
        let at = |usd: Option<f64>, kind: PriceKind, date: &Option<String>| {
            usd.map(|usd| Purchase {
                usd,
                kind,
                date: date.clone(),
            })
        };
        let new = at(p.street_usd, PriceKind::New, &p.street_date)
            .filter(|_| self.availability.contains(&Availability::New));
        let second_hand = at(p.used_usd, PriceKind::Used, &p.used_date)
            .filter(|_| self.availability.contains(&Availability::Used));
        if self.form_factor.is_server_part() {
            return at(p.server_usd_per_gpu, PriceKind::ServerShare, &p.server_date);
        }
        let today = if used {
            second_hand.or(new)
        } else {
            new.or(second_hand)
        };
        // The launch price stands in only while the card is still sold new: a card sold
        // only second-hand costs what the used market asks, not what it cost at launch.
        today.or_else(|| {
            at(p.msrp_usd, PriceKind::Launch, &p.msrp_date)
                .filter(|_| self.availability.contains(&Availability::New))
        })
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

    /// A datacenter card in a PCIe slot ships with a passive heatsink that relies on the
    /// server's fans (NVIDIA's product briefs list "Thermal solution: Passive" for every
    /// datacenter PCIe card from the K80 to the H100 NVL and L40S; AMD's for the MI100 and
    /// MI210). In a desktop case it overheats unless a fan is added to it.
    pub fn passively_cooled(&self) -> bool {
        self.segment == Segment::Datacenter && self.form_factor == FormFactor::Pcie
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn months_between_counts_across_years() {
        assert_eq!(months_between("2025-11", "2026-09"), Some(10));
        assert_eq!(months_between("2024-08", "2026-09"), Some(25));
        assert_eq!(months_between("2026", "2026-09"), None);
        let p = Purchase {
            usd: 1.0,
            kind: PriceKind::New,
            date: Some("2025-08".into()),
        };
        assert!(p.is_stale(Some("2026-09")));
        assert!(!p.is_stale(Some("2026-08")));
    }
}
