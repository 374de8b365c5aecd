//! A card added to the ones a person already owns (`have=`): llama.cpp splits a model's
//! layers over every GPU of the box in proportion to their free memory (its default
//! `--split-mode layer`, `--tensor-split` from free memory), and a token passes through
//! the cards one after the other. So the box holds what their memories hold together, and
//! a token takes each card's time for its share of the layers: the slower card sets the
//! pace of its share, never of the whole.

use super::*;

/// Memory the box gives the model: each card's usable memory, less the CUDA context and
/// runtime buffers every card beyond the first keeps for itself.
pub fn paired_usable(gpu: &Gpu, owned: &[&Gpu]) -> f64 {
    owned.iter().map(|g| usable_memory(g)).sum::<f64>() + usable_memory(gpu)
        - memory::CONTEXT_BYTES * owned.len() as f64
}

/// The share of the layers each card holds, the added card first: llama.cpp's default
/// split, by memory.
pub fn layer_shares(gpu: &Gpu, owned: &[&Gpu]) -> Vec<f64> {
    let memories: Vec<f64> = std::iter::once(gpu)
        .chain(owned.iter().copied())
        .map(usable_memory)
        .collect();
    let total: f64 = memories.iter().sum();
    memories.iter().map(|m| m / total).collect()
}

/// The speed of a layer split from each card's speed with the whole model (`speed` on the
/// same placement) and its share of the layers: a token's time is the sum of each card's
/// time for its share, and so is a prompt's. The first part's other figures (its bound,
/// rate, terms) stand for the box.
pub fn layer_split(parts: &[(Speed, f64)]) -> Option<Speed> {
    let (first, _) = parts.first()?;
    let sum = |each: &dyn Fn(&Speed, f64) -> Option<f64>| {
        parts
            .iter()
            .map(|(s, share)| each(s, *share))
            .sum::<Option<f64>>()
    };
    let throughput = Range::new(
        1.0 / sum(&|s, share| Some(share / s.throughput.low))?,
        1.0 / sum(&|s, share| Some(share / s.throughput.high))?,
    );
    let prefill_seconds = sum(&|s, share| Some(s.prefill_seconds?.low * share))
        .zip(sum(&|s, share| Some(s.prefill_seconds?.high * share)))
        .map(|(low, high)| Range::new(low, high));
    Some(Speed {
        throughput,
        prefill_seconds,
        ..first.clone()
    })
}
