//! The catalog cards a browser's WebGPU adapter may be, from what `GPUAdapterInfo`
//! reports: its vendor, its architecture (Dawn's names, such as `ampere`, `lovelace`,
//! `rdna-3`, `gen-12hp`, `xe-2hpg`) and, where the browser gives it, a description
//! naming the card. Browsers mostly leave the description empty, so the architecture
//! narrows the catalog to the cards of that generation and the person picks theirs.

use crate::data::Catalog;
use crate::gpu::{FormFactor, Gpu, Segment};

/// Lower-case letters and digits only: "RDNA 3" and "rdna-3" read alike.
fn plain(text: &str) -> String {
    text.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The catalog architectures an adapter's architecture stands for: Dawn names NVIDIA's
/// generations after the architecture (`lovelace` for Ada Lovelace), AMD's by RDNA or CDNA
/// generation, and Intel's Arc cards by their Xe generation (Alchemist's DG2 device ids
/// are `gen-12hp`, Battlemage's `xe-2hpg`).
fn architectures(vendor: &str, architecture: &str) -> Vec<&'static str> {
    match (plain(vendor).as_str(), plain(architecture).as_str()) {
        ("nvidia", "pascal") => vec!["pascal"],
        ("nvidia", "volta") => vec!["volta"],
        ("nvidia", "turing") => vec!["turing"],
        ("nvidia", "ampere") => vec!["ampere"],
        ("nvidia", "lovelace") => vec!["adalovelace"],
        ("nvidia", "blackwell") => vec!["blackwell", "blackwellgb10graceblackwellsoc"],
        ("amd", "rdna3") => vec!["rdna3", "rdna35strixhalo"],
        ("amd", "rdna4") => vec!["rdna4"],
        ("amd", "cdna1") => vec!["cdna"],
        ("intel", "gen12hp") => vec!["xehpgalchemist"],
        ("intel", "xe2hpg") => vec!["xe2hpgbattlemage"],
        _ => Vec::new(),
    }
}

/// A card a browser runs on: a consumer or workstation card, or a whole machine; not a
/// server module nor a passively cooled datacenter card.
fn on_a_desk(gpu: &Gpu) -> bool {
    matches!(gpu.form_factor, FormFactor::Pcie | FormFactor::Soc)
        && matches!(gpu.segment, Segment::Consumer | Segment::Workstation)
}

/// The cards the adapter may be, most likely first: the one its description names (the
/// longest name or alias found in it, so "RTX 3090 Ti" is not read as "RTX 3090"), else
/// the desk cards of its vendor and architecture (every Apple machine for an Apple
/// adapter), in catalog order. Empty for a software adapter or one the catalog cannot
/// place.
pub fn candidates<'c>(
    catalog: &'c Catalog,
    vendor: &str,
    architecture: &str,
    description: &str,
) -> Vec<&'c Gpu> {
    let described = plain(description);
    if !described.is_empty() {
        let named = catalog
            .gpus
            .iter()
            .filter(|g| on_a_desk(g))
            .flat_map(|g| {
                let short = g
                    .name
                    .split_once(' ')
                    .map_or(g.name.as_str(), |(_, rest)| rest);
                [g.name.as_str(), short]
                    .into_iter()
                    .chain(g.aliases.iter().map(String::as_str))
                    .map(move |n| (plain(n), g))
            })
            .filter(|(n, _)| n.len() >= 4 && described.contains(n.as_str()))
            .max_by_key(|(n, _)| n.len());
        if let Some((_, gpu)) = named {
            return vec![gpu];
        }
    }
    if plain(vendor) == "apple" {
        return catalog
            .gpus
            .iter()
            .filter(|g| g.vendor == crate::gpu::Vendor::Apple)
            .collect();
    }
    let wanted = architectures(vendor, architecture);
    catalog
        .gpus
        .iter()
        .filter(|g| on_a_desk(g) && wanted.contains(&plain(&g.architecture).as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(vendor: &str, architecture: &str, description: &str) -> Vec<String> {
        candidates(Catalog::embedded(), vendor, architecture, description)
            .into_iter()
            .map(|g| g.id.clone())
            .collect()
    }

    #[test]
    fn a_description_names_one_card() {
        assert_eq!(
            ids("nvidia", "ampere", "NVIDIA GeForce RTX 3090"),
            ["rtx-3090"]
        );
        assert_eq!(
            ids("nvidia", "ampere", "NVIDIA GeForce RTX 3090 Ti"),
            ["rtx-3090-ti"]
        );
        assert_eq!(
            ids("amd", "rdna-3", "AMD Radeon RX 7900 XTX"),
            ["rx-7900-xtx"]
        );
    }

    #[test]
    fn an_architecture_narrows_to_its_desk_cards() {
        let ampere = ids("nvidia", "ampere", "");
        assert!(ampere.contains(&"rtx-3090".to_string()));
        assert!(ampere.contains(&"rtx-3060".to_string()));
        assert!(
            !ampere.contains(&"a100-sxm4-80gb".to_string()),
            "a server module"
        );
        assert!(
            !ampere.contains(&"a100-pcie-80gb".to_string()),
            "a datacenter card"
        );
        assert!(
            ampere.contains(&"rtx-a6000".to_string()),
            "a workstation card"
        );
        assert!(!ampere.contains(&"rtx-4090".to_string()));
        assert_eq!(ids("intel", "xe-2hpg", ""), ["arc-b580", "arc-pro-b60"]);
        assert_eq!(ids("intel", "gen-12hp", ""), ["arc-a770-16gb"]);
        assert!(ids("amd", "rdna-4", "").contains(&"rx-9070-xt".to_string()));
        assert!(ids("apple", "metal-3", "")
            .iter()
            .all(|id| id.starts_with("apple-")));
    }

    #[test]
    fn a_software_adapter_is_no_card() {
        assert!(ids("google", "swiftshader", "SwiftShader Device (Subzero)").is_empty());
        assert!(ids("", "", "").is_empty());
    }
}
