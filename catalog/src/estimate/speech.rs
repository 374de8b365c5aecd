//! Speech recognition (Whisper): the encoder per 30-second window and the decoder's
//! beam-search steps, as faster-whisper runs them.

use super::*;

/// Whisper's audio window: every input is padded or cut to 30 s, which the encoder sees as
/// 1,500 frames (Radford et al. 2022, §2.2: 30-second chunks, a convolution stem of stride
/// two over 3,000 log-mel frames).
pub const WHISPER_WINDOW_S: f64 = 30.0;
pub const WHISPER_ENCODER_FRAMES: f64 = 1500.0;
/// Decoder steps per second of speech: 549 decoder runs for 198.7 s of English in
/// whisper.cpp's README log (`gb1.wav`: text, timestamp and per-window prompt tokens and one
/// temperature fallback). Denser speech or languages with more tokens per word take more.
pub const WHISPER_DECODER_STEPS_PER_AUDIO_S: f64 = 2.76;
/// Beams of the beam search: faster-whisper's and the openai-whisper command line's default
/// (`beam_size=5`). The beams run as one batch: the weights are read once per step, the
/// cross-attention keys and values once per beam.
pub const WHISPER_BEAM: f64 = 5.0;
/// Fixed cost per decoder layer and step beyond the roofline: launches, beam bookkeeping and
/// the runtime's own work between kernels. Set from the faster-whisper (CTranslate2) group of
/// calibration fixtures (V100S and A30, large-v2 and large-v3 at batch 1), whose decode time
/// is 4–5× what the weights' reads alone take; the turbo model's 4-layer decoder on an
/// RTX 5090 lands on the same figure. About ten times a llama.cpp layer's. Held out, a user's
/// faster-whisper 1.1 runs of an hour of audio on one RTX 3090 (speaches issue 169) do not
/// bear out the scaling by layers: large-v2 sequentially lands within −20%, but turbo runs
/// only 2.05 times as fast as large-v2 there (the engine has it 6 times as fast), and
/// batched turbo takes the same time at 8 and 16 windows. Part of the step's fixed time is
/// per step, not per layer, or the host sets a floor; one report does not separate them.
pub const WHISPER_STEP_OVERHEAD_PER_LAYER_S: f64 = 0.5e-3;

/// Seconds of audio transcribed per second (the real-time factor) by a Whisper-style
/// encoder-decoder: per batch of `batch` 30-s windows, the encoder's compute (and the
/// decoder's cross-attention keys and values, projected once per window), then one decoder
/// step per token, each the larger of its reads (decoder weights once, cross-attention
/// cache per beam) and its compute, plus the per-layer overhead; `slowdown` times that
/// where faster-whisper does not run (`support::speech_fallback`).
pub(super) fn speech_speed(
    sized: &Sized,
    workload: &Workload,
    placement: &Placement,
    (rate, (mfu_lo, mfu_hi), link, rates): (RateKind, (f64, f64), Link, Terms),
    (flops, bw): (&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64),
    slowdown: f64,
) -> Option<Speed> {
    let t = sized.transformer?;
    let model = sized.model;
    let b = f64::from(workload.batch);
    let h = t.hidden;
    let frames = WHISPER_ENCODER_FRAMES;
    let decoder_layers = model.decoder_layers.map_or(t.layers, f64::from);
    // Per layer: attention projections 4·h², the MLP 2·h·ffn; the decoder adds cross-attention
    // (4·h²) and reads the token embedding again as its output head.
    let encoder_params = t.layers * (4.0 * h * h + 2.0 * h * t.ffn);
    let decoder_params = decoder_layers * (8.0 * h * h + 2.0 * h * t.ffn) + t.vocab * h;
    let encoder_flops = 2.0 * encoder_params * frames
        + 4.0 * t.layers * frames * frames * h
        // Cross-attention keys and values of every decoder layer, once per window.
        + 2.0 * decoder_layers * frames * 2.0 * h * h;
    let weight_bytes = decoder_params * workload.precision.weight_bits() / 8.0;
    let cache_bytes = 2.0 * decoder_layers * frames * h * 2.0;
    let step_bytes = weight_bytes + b * WHISPER_BEAM * cache_bytes;
    let step_flops = b * WHISPER_BEAM * 2.0 * decoder_params;
    let steps = WHISPER_DECODER_STEPS_PER_AUDIO_S * WHISPER_WINDOW_S;
    let overhead = decoder_layers * WHISPER_STEP_OVERHEAD_PER_LAYER_S;
    let n = f64::from(placement.gpus);
    let window = |bw_eff: f64, mfu: f64| {
        let step = (step_bytes / bw(bw_eff)).max(step_flops / flops(mfu)) + overhead;
        b * encoder_flops / flops(mfu) + steps * step
    };
    let bound = if b * encoder_flops / flops(0.4) >= steps * step_bytes / bw(0.75) {
        Bound::Compute
    } else {
        Bound::Memory
    };
    // Each GPU of a group transcribes its own windows.
    let audio_per_s =
        |bw_eff: f64, mfu: f64| n * b * WHISPER_WINDOW_S / (window(bw_eff, mfu) * slowdown);
    // One window per step on each GPU; a runtime slower than faster-whisper scales every term.
    let (mfu, bw_mid) = (mid((mfu_lo, mfu_hi)), mid(BANDWIDTH_EFFICIENCY));
    let terms = Terms {
        per_step: n * b * WHISPER_WINDOW_S,
        compute_s: (b * encoder_flops + steps * step_flops) / flops(mfu) * slowdown,
        memory_s: steps * step_bytes / bw(bw_mid) * slowdown,
        fixed_s: steps * overhead * slowdown,
        ..rates
    };
    Some(Speed {
        terms,
        rate,
        bound,
        unit: Unit::AudioSeconds,
        throughput: Range::new(
            audio_per_s(BANDWIDTH_EFFICIENCY.0, mfu_lo),
            audio_per_s(BANDWIDTH_EFFICIENCY.1, mfu_hi),
        ),
        job_hours: None,
        prefill_seconds: None,
        gpus_used: placement.gpus,
        scaling_efficiency: 1.0,
        link,
    })
}
