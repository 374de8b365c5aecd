//! What a link asked that has no effect on its workload, or was changed to one that can
//! be met: read after every key, since whether a key applies depends on the others
//! (`steps` on a language model, `ckpt` on inference, `cond` when renting). Each is a
//! line of the page's notice, so nothing a link asks is dropped without a word.

use super::{cut, AppState, IgnoreReason, Ignored, Resolve, View};
use crate::model::Family;
use crate::workload::{Mode, ModelChoice};

/// The notices for the keys in `read` (those the link set and the codec took) that do
/// not apply to the state as read, and for a sequence longer than the model's longest
/// context: it runs only with the context extended (RoPE scaling, as Unsloth trains an
/// 8B model at 342k tokens), so it is sized as asked and the notice says so.
pub(super) fn check(
    state: &AppState,
    read: &[(&str, String)],
    catalog: &dyn Resolve,
) -> Vec<Ignored> {
    let w = &state.workload;
    let family = match &w.model {
        ModelChoice::Preset(id) => catalog.model_family(id),
        ModelChoice::Custom(_) => Some(Family::Llm),
    };
    let training = w.task.is_training();
    let mut out = Vec::new();
    for (key, value) in read {
        let reason = match *key {
            // Denoising steps are a diffusion model's, when it generates.
            "steps" if training || family != Some(Family::Diffusion) => IgnoreReason::NoEffect,
            // Memory savers, the optimizer and the trainer are a training run's.
            "ckpt" | "opt" | "fw" if !training => IgnoreReason::NoEffect,
            // The adapter's rank, a LoRA's or QLoRA's.
            "rank" if !w.task.is_adapter() => IgnoreReason::NoEffect,
            // The serving runtime, when the model is served; the KV cache, a language
            // model's when it is served.
            "runtime" if training => IgnoreReason::NoEffect,
            "kv" if training || !family.is_some_and(Family::is_decoder) => IgnoreReason::NoEffect,
            // Renting, nothing is bought: its condition, a price paid, its electricity.
            "cond" | "price" | "kwh" if w.mode == Mode::Rent => IgnoreReason::NoEffect,
            // A size in billions replaces a named model.
            "model" if matches!(w.model, ModelChoice::Custom(_)) => IgnoreReason::Overridden,
            // The GPU page shows one GPU.
            "ids" if state.view == View::Gpu && state.ids.len() > 1 => IgnoreReason::OneGpuShown,
            _ => continue,
        };
        out.push(Ignored {
            key: cut(key),
            value: cut(value),
            reason,
        });
    }
    // A sequence beyond the model's longest context runs only with it extended.
    if let (Some(seq), ModelChoice::Preset(id)) = (w.seq, &w.model) {
        if let Some(max) = catalog.max_context(id).filter(|m| seq > *m) {
            out.push(Ignored {
                key: "seq".into(),
                value: seq.to_string(),
                reason: IgnoreReason::BeyondContext { max },
            });
        }
    }
    out
}
