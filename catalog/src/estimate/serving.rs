//! A queue of requests served by vLLM at once: how many it holds together and how many of
//! its steps decode with no prompt to process beside them.

use super::*;

/// Share of each GPU's memory vLLM takes for itself (`--gpu-memory-utilization`, default
/// 0.9): weights, the profiled activation peak and the CUDA context come out of it, and
/// the rest becomes the KV cache's block pool.
pub const VLLM_GPU_MEMORY_UTILIZATION: f64 = 0.9;

/// vLLM's scheduler defaults for `vllm serve` on one GPU: the tokens one step may carry
/// (`max_num_batched_tokens`, the chunked-prefill budget) and the sequences it may run at
/// once (`max_num_seqs`). `EngineArgs.get_batch_defaults` (vllm/engine/arg_utils.py, since
/// vLLM PR #17885) gives 8,192 and 1,024 to a card of at least 70 GiB whose name does not
/// contain "a100" (H100, H200, MI300X), and 2,048 and 256 to every other, the A100 80GB
/// kept on the small budget because the large one lowered its throughput.
pub fn vllm_batch_defaults(gpu: &Gpu) -> (f64, u32) {
    // Every A100 in the catalog carries it in its id (vLLM reads the device name).
    if gpu.memory_gb >= 70.0 && !gpu.id.contains("a100") {
        (8192.0, 1024)
    } else {
        (2048.0, 256)
    }
}

/// How many sequences of `workload.seq` tokens vLLM's KV pool holds at once on `placement`
/// (at least 1: vLLM refuses to start when one request of the model's length does not
/// fit, so a run that was measured had room for one). The pool is what
/// `VLLM_GPU_MEMORY_UTILIZATION` of the card leaves after the weights, the CUDA context
/// and the activations of a step of `budget` tokens (the profile run vLLM sizes the pool
/// after).
pub fn vllm_resident_sequences(
    gpu: &Gpu,
    sized: &Sized,
    workload: &Workload,
    sharding: Sharding,
    budget: f64,
) -> f64 {
    let one = Workload {
        batch: 1,
        ..workload.clone()
    };
    let m = memory::breakdown(sized, &one, sharding);
    let activations = m.activations * budget / memory::PREFILL_CHUNK_TOKENS;
    let pool = VLLM_GPU_MEMORY_UTILIZATION * gpu.memory_bytes() as f64
        - m.weights
        - activations
        - memory::CONTEXT_BYTES;
    if m.kv_cache <= 0.0 {
        return 1.0;
    }
    (pool / m.kv_cache).floor().max(1.0)
}

/// Decode steps of a queue of `requests` prompts of `prompt` tokens, each answered with
/// `output` tokens, that carry no prompt chunk: vLLM's scheduler puts each running
/// sequence's next token in the same step as the next prompt chunk (chunked prefill), so a
/// decode step costs its own time only when no prompt is waiting or none fits the cache.
/// `concurrency` sequences run at once and each step carries at most `budget` tokens. The
/// prompts take `requests · prompt / budget` steps, in each of which the other
/// `concurrency − 1` sequences decode a token; the answers' remaining tokens decode
/// `concurrency` a step, and never in fewer than the last answer's `output` steps after
/// the last prompt.
pub fn decode_only_steps(
    requests: f64,
    prompt: f64,
    output: f64,
    concurrency: f64,
    budget: f64,
) -> f64 {
    let c = concurrency.max(1.0);
    let prompt_steps = requests * prompt / budget;
    let alone = (requests * output - prompt_steps * (c - 1.0)) / c;
    alone.max(output)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_sequence_at_a_time_decodes_every_answer_alone() {
        // A 32K prompt that leaves no room for a second: each answer's steps decode alone.
        assert_eq!(decode_only_steps(100.0, 32000.0, 77.0, 1.0, 8192.0), 7700.0);
    }

    #[test]
    fn a_deep_queue_hides_all_but_the_last_answer() {
        // Plenty of prompt steps to carry every answer's tokens: only the tail is left.
        assert_eq!(
            decode_only_steps(500.0, 2000.0, 100.0, 256.0, 2048.0),
            100.0
        );
    }

    #[test]
    fn the_a100_keeps_the_small_budget() {
        let catalog = crate::Catalog::embedded();
        let a100 = catalog.gpu("a100-sxm4-80gb").expect("A100 in the catalog");
        let h100 = catalog.gpu("h100-sxm5-80gb").expect("H100 in the catalog");
        assert_eq!(vllm_batch_defaults(a100), (2048.0, 256));
        assert_eq!(vllm_batch_defaults(h100), (8192.0, 1024));
    }
}
