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
/// cross-attention keys and values once per beam. Transformers replicates that cache per
/// beam; CTranslate2 since 3.6 keeps one copy per window and groups the beams over it (PR
/// #1088, `TransformerDecoder::replicate_state`), so under faster-whisper the per-beam read
/// stands for per-beam work the fitted step costs do not otherwise carry: read once per
/// window, with the step costs refitted, the fitted rows fit worse (the V100S's batch of 16
/// +45%, the RTX 3090's sequential large-v2 run −28%).
pub const WHISPER_BEAM: f64 = 5.0;
/// Fixed cost per decoder layer and step beyond the roofline: launches and the runtime's
/// own work between a layer's kernels, paid at every batch size. With the two costs below,
/// fitted on faster-whisper's own sequential and batched V100S rows (PR 856), its A30 row
/// (issue 720) and the sequential large-v2 and turbo rows of one RTX 3090 (speaches issue
/// 169), whose ratio (turbo only 2.05 times as fast with an eighth of the decoder's
/// layers) is what separates a per-layer cost from a per-step one: 0.35 ms, where one
/// per-layer figure alone needed 0.5 ms and had turbo six times as fast. The same
/// source's batched rows are held out.
pub const WHISPER_STEP_OVERHEAD_PER_LAYER_S: f64 = 0.35e-3;
/// Fixed cost per decoder step of sequential transcription (one window at a time), whatever
/// the decoder's depth: `WhisperModel.transcribe` predicts timestamps (`without_timestamps`
/// defaults to false), and CTranslate2 applies Whisper's timestamp rules on the host every
/// step (`ApplyTimestampRules` in src/models/whisper.cc): for each of the beam's rows a
/// loop over the vocabulary's token ids to disable, and a separate max and log-sum-exp over
/// that row's logits whose results come back to the host before the next step can run.
/// faster-whisper's `BatchedInferencePipeline` decodes without timestamps (its
/// `without_timestamps` defaults to true, faster-whisper 1.1.0 transcribe.py), so batched
/// decoding does not pay it. Fitted with the per-layer cost above: 3 ms.
pub const WHISPER_TIMESTAMP_STEP_S: f64 = 3.0e-3;
/// Kernels CTranslate2 launches for one decoder layer in one step of a beam search, counted
/// in its source (3.10, `TransformerDecoderLayer` and `MultiHeadAttention` in
/// src/layers/transformer.cc and attention.cc): self-attention 14 (layer norm, the fused
/// QKV GEMM and its bias add, the split into three, the two cache concatenations, two
/// batched matmuls around the softmax, the output GEMM and bias add, the residual add),
/// cross-attention 11 (the same without the split and the cache, with the transposes that
/// group a window's beams over its shared keys), the feed-forward block 6 (layer norm, two
/// GEMMs each with its bias add, the residual add) and the two gathers of the
/// self-attention cache (keys, values) by beam: 33. Not fitted; the per-layer cost above
/// is spread over them evenly.
pub const CTRANSLATE2_DECODER_LAYER_KERNELS: f64 = 33.0;
/// Kernels an INT8 model adds to each decoder layer and step: CTranslate2's `Dense` layer
/// quantizes its input (`ops::Quantize`, one kernel) before the INT8 GEMM, and its
/// `ops::Dequantize` takes the place of the bias add (src/layers/common.cc, 3.10). One
/// more kernel for each of the layer's six dense layers (fused QKV, self-attention output,
/// cross-attention query and output, the two feed-forward layers).
pub const CTRANSLATE2_INT8_LAYER_KERNELS: f64 = 6.0;

/// Host time per 30-s window, outside the GPU, as faster-whisper spends it: decoding the audio
/// (PyAV), the log-mel spectrogram, which faster-whisper 1.1 computes with NumPy's FFT on
/// the CPU (feature_extractor.py), and in the batched pipeline Silero VAD over the whole
/// file (`vad_filter` defaults to true there). It caps batched throughput: one RTX 3090
/// transcribes an hour with turbo in the same 33.4 s at 8 and at 16 windows a batch
/// (speaches issue 169). PR 856 puts the spectrogram alone near 0.18 s a window: swapping
/// it for torchaudio's took the batched pipeline from 64 to 104 times real time on the same
/// GPU (30/64 − 30/104 s). 0.2 s, that figure with the decoding and VAD, not fitted.
pub const WHISPER_HOST_PER_WINDOW_S: f64 = 0.2;

/// Seconds of audio transcribed per second (the real-time factor) by a Whisper-style
/// encoder-decoder: per batch of `batch` 30-s windows, the encoder's compute (and the
/// decoder's cross-attention keys and values, projected once per window), then one decoder
/// step per token, each the larger of its reads (decoder weights once, cross-attention
/// cache per beam) and its compute, plus the per-layer overhead (a sixth more for INT8
/// weights, `CTRANSLATE2_INT8_LAYER_KERNELS`) and, one window at a time,
/// the timestamp rules' per-step cost, and the host's work per window; `fallback`'s slowdown
/// times that where faster-whisper does not run (`support::speech_fallback`) or another
/// runtime was asked for.
pub(super) fn speech_speed(
    sized: &Sized,
    workload: &Workload,
    placement: &Placement,
    (rate, (mfu_lo, mfu_hi), link, rates): (RateKind, (f64, f64), Link, Terms),
    (flops, bw): (&dyn Fn(f64) -> f64, &dyn Fn(f64) -> f64),
    fallback: Option<crate::support::SpeechFallback>,
) -> Option<Speed> {
    let slowdown = fallback.map_or(1.0, |f| f.slowdown);
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
    // Sequential transcription (one window a time) predicts timestamps; the batched
    // pipeline does not.
    let timestamps = if workload.batch == 1 {
        WHISPER_TIMESTAMP_STEP_S
    } else {
        0.0
    };
    // INT8 weights under faster-whisper launch one more kernel per dense layer, each at the
    // per-layer cost's share of a kernel.
    let kernels = if fallback.is_none() && workload.precision == Precision::Int8 {
        1.0 + CTRANSLATE2_INT8_LAYER_KERNELS / CTRANSLATE2_DECODER_LAYER_KERNELS
    } else {
        1.0
    };
    let overhead = decoder_layers * WHISPER_STEP_OVERHEAD_PER_LAYER_S * kernels + timestamps;
    // Host time per window: one window at a time every runtime pays it, and the measured
    // slowdowns of the others (end to end, one window at a time) scale it with the rest.
    // Batched, only faster-whisper's pipeline is modelled with it: with it added,
    // insanely-fast-whisper's A100 run of 96 windows a batch (Transformers) would come out
    // at under half its measured speed.
    let host = if fallback.is_none() || workload.batch == 1 {
        b * WHISPER_HOST_PER_WINDOW_S
    } else {
        0.0
    };
    let n = f64::from(placement.gpus);
    let window = |bw_eff: f64, mfu: f64| {
        let step = (step_bytes / bw(bw_eff)).max(step_flops / flops(mfu)) + overhead;
        (b * encoder_flops / flops(mfu) + steps * step + host) * slowdown
    };
    let bound = if b * encoder_flops / flops(0.4) >= steps * step_bytes / bw(0.75) {
        Bound::Compute
    } else {
        Bound::Memory
    };
    // Each GPU of a group transcribes its own windows.
    let audio_per_s = |bw_eff: f64, mfu: f64| n * b * WHISPER_WINDOW_S / window(bw_eff, mfu);
    // One window per step on each GPU; a runtime slower than faster-whisper scales every term.
    let (mfu, bw_mid) = (mid((mfu_lo, mfu_hi)), mid(BANDWIDTH_EFFICIENCY));
    let terms = Terms {
        per_step: n * b * WHISPER_WINDOW_S,
        compute_s: (b * encoder_flops + steps * step_flops) / flops(mfu) * slowdown,
        memory_s: steps * step_bytes / bw(bw_mid) * slowdown,
        fixed_s: (steps * overhead + host) * slowdown,
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
