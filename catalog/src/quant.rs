//! The quantization ladder: the weight formats a language model is run in, from 16 bits
//! down, with the bits each stores per weight and what each step costs in quality. With
//! `prec=auto` (`Workload::auto_precision`, the default) every GPU that runs a model
//! locally with llama.cpp runs it in the highest GGUF type that fits it (`rank`), so a
//! card says "runs at Q5_K_M" rather than "does not fit".

use crate::model::Model;
use crate::workload::Precision;

/// llama.cpp's common GGUF types, highest first: what local runs download. It starts at
/// Q8_0, not at a 16-bit file: in llama.cpp's table Q8_0 adds 0.0026 to Llama 3 8B's
/// perplexity where an F16 file adds 0.0020 to Mistral 7B's (`perplexity_cost`), at about half
/// the bytes a token reads, so a 16-bit GGUF buys nothing a person would notice but half
/// the speed.
pub const LLAMACPP_LADDER: [Precision; 6] = [
    Precision::Q8_0,
    Precision::Q6K,
    Precision::Q5KM,
    Precision::Q4KM,
    Precision::Q3KM,
    Precision::Iq2Xs,
];

/// The highest type a model is run in with part of it in system memory
/// (`estimate::offload`): Q4_K_M, the type Ollama's library ships a model in unless a tag
/// names another (kgptalkie.com's "Local LLMs 2026" reference lists every Ollama size "Q4_K_M
/// unless noted") and the one llama.cpp guides start from. Offloaded, every step above it
/// adds bytes each token reads from system memory, at a tenth of the card's bandwidth or
/// less, for a perplexity gain under 0.18 (`perplexity_cost`).
pub const OFFLOAD_CEILING: Precision = Precision::Q4KM;

/// Whether a type is one a model is run in offloaded: at or below `OFFLOAD_CEILING`, or
/// the type the model is released in.
pub fn runs_offloaded(model: &Model, precision: Precision) -> bool {
    released(model) == Some(precision)
        || LLAMACPP_LADDER
            .iter()
            .skip_while(|p| **p != OFFLOAD_CEILING)
            .any(|p| *p == precision)
}

/// The GGUF type a model is released in (`Model::gguf`), if llama.cpp runs it as released.
pub fn released(model: &Model) -> Option<Precision> {
    model.gguf.as_deref().and_then(Precision::parse)
}

/// The format a model's own checkpoint is published in, when below 16 bits
/// (`Model::checkpoint`): what a served deployment loads as released.
pub fn checkpoint(model: &Model) -> Option<Precision> {
    model.checkpoint.as_deref().and_then(Precision::parse)
}

/// The GGUF types a model is run in, highest first: the one it is released in where
/// llama.cpp runs that as released (`Model::gguf`: quantizing gpt-oss's MXFP4 experts
/// further saves little and its GGUF files keep them), else `LLAMACPP_LADDER`.
pub fn ladder(model: &Model) -> &'static [Precision] {
    match released(model) {
        Some(Precision::Mxfp4) => &[Precision::Mxfp4],
        _ => &LLAMACPP_LADDER,
    }
}

/// Whether a format is below 4 bits a weight, the lowest width a practitioner runs
/// without a second thought: from Q4_K_M to Q3_K_M the perplexity cost grows almost
/// fourfold in one step (`perplexity_cost`), so a GPU that holds a model only below it ranks after
/// those that hold it at Q4_K_M, 4-bit AWQ/GPTQ or better.
/// By the width of the values, not the file's bits per weight (a Q3_K_M file keeps
/// enough at higher types to average 4.0 bits; MXFP4's shared scales make 4.25).
pub fn below_floor(precision: Precision) -> bool {
    matches!(precision, Precision::Q3KM | Precision::Iq2Xs)
}

/// Perplexity a GGUF type adds to Llama 3 8B's against 16 bits (wikitext), from
/// llama.cpp's quantize table (`QUANT_OPTIONS`): Q8_0 +0.0026, Q6_K +0.0217, Q5_K_M
/// +0.0569, Q4_K_M +0.1754, Q3_K_M +0.6569. `None` for IQ2_XS, which the table lists
/// without a perplexity (2-bit types are for models that fit no other way), and for the
/// formats that are not GGUF types.
pub fn perplexity_cost(precision: Precision) -> Option<f64> {
    Some(match precision {
        Precision::Q8_0 => 0.0026,
        Precision::Q6K => 0.0217,
        Precision::Q5KM => 0.0569,
        Precision::Q4KM => 0.1754,
        Precision::Q3KM => 0.6569,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_descends() {
        for pair in LLAMACPP_LADDER.windows(2) {
            assert!(pair[0].weight_bits() > pair[1].weight_bits(), "{pair:?}");
        }
    }

    #[test]
    fn gguf_files_store_more_than_their_block_size() {
        // Q8_0 blocks are 34 bytes per 32 weights (8.5 bits): the whole file is that.
        assert!((Precision::Q8_0.weight_bits() - 8.5).abs() < 0.05);
        // Q4_K blocks are 4.5 bits; Q4_K_M keeps half of some tensors at Q6_K.
        let q4 = Precision::Q4KM.weight_bits();
        assert!(q4 > 4.5 && q4 < 5.0);
        let iq2 = Precision::Iq2Xs.weight_bits();
        assert!(iq2 > 2.31 && iq2 < 2.7);
    }

    #[test]
    fn quality_cost_grows_down_the_ladder() {
        let costs: Vec<f64> = LLAMACPP_LADDER[..5]
            .iter()
            .map(|p| perplexity_cost(*p).unwrap_or(f64::NAN))
            .collect();
        assert!(costs.windows(2).all(|w| w[0] < w[1]), "{costs:?}");
        assert!(!below_floor(Precision::Q4KM) && below_floor(Precision::Q3KM));
        assert!(
            !below_floor(Precision::Int4),
            "4-bit AWQ/GPTQ is at the floor's width"
        );
        assert!(!below_floor(Precision::Mxfp4), "MXFP4 stores 4-bit values");
    }
}
