//! The command line that starts what a card's estimate models, for the runtimes that
//! serve a language model: llama.cpp's `llama-server` and `vllm serve`, with the flags they
//! document (llama.cpp's `tools/server/README.md`; vLLM's engine arguments). Other work
//! (training, diffusion, speech) has no one command and gets none.

use crate::deploy::Software;
use crate::estimate::Offload;
use crate::model::Model;
use crate::rank::Ranked;
use crate::workload::{KvCache, Precision, Workload};

/// The type a precision's GGUF file carries, as llama.cpp's quantize tool names it:
/// the ladder's types by their own names, other widths by llama.cpp's plain types. `None`
/// for formats llama.cpp has no file type for (FP8, TF32).
fn gguf_type(precision: Precision) -> Option<String> {
    Some(match precision {
        Precision::Int4 => "Q4_0".into(),
        Precision::Int8 => "Q8_0".into(),
        Precision::Fp16 => "F16".into(),
        Precision::Fp32 => "F32".into(),
        Precision::Fp8 | Precision::Tf32 => return None,
        p => p.as_str().to_ascii_uppercase(),
    })
}

/// The command for a card, or `None` where it runs no language-model server.
pub fn command(item: &Ranked, workload: &Workload, model: &Model) -> Option<String> {
    let gpus = item
        .speed
        .as_ref()
        .map(|s| s.gpus_used)
        .or(item.gpus_needed())?;
    let context = workload.context_for(model);
    let batch = workload.batch.max(1);
    let mut parts: Vec<String> = Vec::new();
    match item.software {
        Software::LlamaCpp => {
            let kind = gguf_type(item.precision)?;
            parts.push("llama-server".into());
            match (&model.gguf_repo, crate::quant::released(model)) {
                // The released GGUF, downloaded from its repository.
                (Some(repo), Some(p)) if p == item.precision => parts.push(format!("-hf {repo}")),
                // The file the person downloads or converts, named by model and type.
                _ => parts.push(format!("-m {}-{kind}.gguf", model.id)),
            }
            // Every layer on the GPUs, unless part of the model waits in system memory
            // (`estimate::offload`); the context is shared by the parallel slots.
            let host = item.placement.as_ref().and_then(|p| p.host);
            match host.map(|h| h.offload) {
                Some(Offload::Experts { layers, .. }) => {
                    parts.push(format!("-ngl 99 --n-cpu-moe {layers}"))
                }
                Some(Offload::Layers { on_gpu, .. }) => parts.push(format!("-ngl {on_gpu}")),
                None => parts.push("-ngl 99".into()),
            }
            parts.push(format!("-c {}", u64::from(context) * u64::from(batch)));
            if batch > 1 {
                parts.push(format!("-np {batch}"));
            }
            let cache = match workload.kv {
                KvCache::F16 => None,
                KvCache::Q8 => Some("q8_0"),
                KvCache::Q4 => Some("q4_0"),
            };
            if let Some(cache) = cache {
                // A quantized V cache needs flash attention.
                parts.push(format!("-fa on -ctk {cache} -ctv {cache}"));
            }
            // Two or more cards, or one beside those the person owns (`have=`): the
            // layer split, by each card's free memory (llama.cpp's default `-ts`).
            let paired = item
                .reasons
                .iter()
                .any(|r| matches!(r, crate::rank::Reason::PairedWith { .. }));
            if gpus > 1 || paired {
                parts.push("-sm layer".into());
            }
        }
        Software::Vllm => {
            // A 4-bit checkpoint is a separate repository (AWQ), named where the preset
            // knows one.
            let repo = match item.precision {
                Precision::Int4 => &model.awq_repo,
                _ => &model.hf_repo,
            };
            let repo = repo.clone().unwrap_or_else(|| "<hf-repo>".to_string());
            parts.push(format!("vllm serve {repo}"));
            // Copies of the model on a bought server (`Reason::ServerUnit`), each on the
            // placement's GPUs, run as vLLM's data-parallel ranks with a share of the users.
            let copies = (gpus / item.placement.as_ref().map_or(gpus, |p| p.gpus.max(1))).max(1);
            let nodes = workload.nodes.max(1);
            let per_node = (gpus / nodes / copies).max(1);
            if per_node > 1 {
                parts.push(format!("--tensor-parallel-size {per_node}"));
            }
            if nodes > 1 {
                parts.push(format!("--pipeline-parallel-size {nodes}"));
            }
            if copies > 1 {
                parts.push(format!("--data-parallel-size {copies}"));
            }
            parts.push(format!("--max-model-len {context}"));
            if batch > 1 {
                parts.push(format!("--max-num-seqs {}", batch.div_ceil(copies)));
            }
            // FP8 from a 16-bit checkpoint, quantized as it loads; a checkpoint published
            // in FP8 (DeepSeek-V3) says so in its own config.
            if item.precision == Precision::Fp8 && crate::quant::checkpoint(model).is_none() {
                parts.push("--quantization fp8".into());
            }
            // vLLM's 8-bit cache is FP8; it has no 4-bit one.
            if workload.kv != KvCache::F16 {
                parts.push("--kv-cache-dtype fp8".into());
            }
        }
        _ => return None,
    }
    Some(parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::Catalog;
    use crate::rank::rank;
    use crate::share::parse;

    /// The flags each runtime documents, as the commands use them: llama.cpp's server
    /// README (`-m, --model`, `-ngl, --gpu-layers`, `-c,
    /// --ctx-size`, `-np, --parallel`, `-fa, --flash-attn`, `-ctk`, `-ctv`, `-sm,
    /// --split-mode`; `--n-cpu-moe` since PR 15077) and vLLM's engine arguments.
    const LLAMA_SERVER: &[&str] = &[
        "-hf",
        "-m",
        "-ngl",
        "--n-cpu-moe",
        "-c",
        "-np",
        "-fa",
        "-ctk",
        "-ctv",
        "-sm",
    ];
    const VLLM: &[&str] = &[
        "--tensor-parallel-size",
        "--pipeline-parallel-size",
        "--data-parallel-size",
        "--max-model-len",
        "--max-num-seqs",
        "--quantization",
        "--kv-cache-dtype",
    ];

    fn commands(query: &str) -> Vec<(String, String)> {
        let catalog = Catalog::embedded();
        let (state, _) = parse(query, catalog);
        let ranking = rank(catalog, &state.workload, &state.filters);
        ranking
            .items
            .iter()
            .filter_map(|i| {
                command(i, &state.workload, &ranking.model).map(|c| (i.gpu.id.clone(), c))
            })
            .collect()
    }

    /// The command the card of `gpu` gives for a link's query.
    fn command_for(query: &str, gpu: &str) -> String {
        commands(query)
            .into_iter()
            .find(|(id, _)| id == gpu)
            .map(|(_, c)| c)
            .expect("a command")
    }

    fn flags(command: &str) -> Vec<&str> {
        command.split(' ').filter(|w| w.starts_with('-')).collect()
    }

    #[test]
    fn every_flag_is_one_the_runtime_documents() {
        for query in [
            "model=llama-3.1-8b",
            "model=llama-3.3-70b&gpus=2&kv=q8",
            "model=llama-3.1-8b&batch=4&kv=q4",
            "model=llama-3.1-70b&batch=32&gpus=8&prec=fp8&kv=q8",
            "model=llama-3.1-405b&batch=16&gpus=8&nodes=2&mode=rent",
            "model=gpt-oss-120b&host=64",
            "model=llama-3.3-70b&host=64-ddr4",
            "model=llama-3.3-70b&have=rtx-3090",
        ] {
            let all = commands(query);
            assert!(!all.is_empty(), "{query}: no command");
            for (id, c) in all {
                let (program, known) = if c.starts_with("llama-server ") {
                    ("llama-server", LLAMA_SERVER)
                } else if c.starts_with("vllm serve ") {
                    ("vllm", VLLM)
                } else {
                    panic!("{query} {id}: {c}")
                };
                for f in flags(&c) {
                    assert!(
                        known.contains(&f),
                        "{query} {id}: {program} has no {f}: {c}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_local_card_downloads_its_type_and_sizes_its_context() {
        let c = command_for("model=llama-3.1-8b&seq=32768&kv=q8", "rtx-4090");
        assert!(c.starts_with("llama-server "), "{c}");
        assert!(c.contains("-m llama-3.1-8b-Q8_0.gguf"), "{c}");
        assert!(c.contains(" -c 32768"), "{c}");
        assert!(c.contains("-ctk q8_0 -ctv q8_0"), "{c}");
        // Two cards split by layers, each user a slot sharing the context.
        let c = command_for("model=llama-3.3-70b&gpus=2&batch=2", "rtx-3090");
        assert!(c.contains("-sm layer") && c.contains("-np 2"), "{c}");
    }

    #[test]
    fn an_offloaded_model_says_what_stays_in_system_memory() {
        let c = command_for("model=gpt-oss-120b&host=64", "rtx-3090");
        assert!(
            c.starts_with("llama-server -hf ggml-org/gpt-oss-120b-GGUF "),
            "{c}"
        );
        let n: u32 = c
            .split("--n-cpu-moe ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("--n-cpu-moe N");
        assert!(n > 0 && n < 36, "{c}");
        let c = command_for("model=llama-3.3-70b&host=64", "rtx-3090");
        assert!(c.contains("-ngl ") && !c.contains("-ngl 99"), "{c}");
    }

    #[test]
    fn a_served_model_runs_tensor_parallel_and_a_bought_server_its_copies() {
        let c = command_for(
            "model=llama-3.1-70b&batch=32&gpus=8&prec=fp8",
            "h100-sxm5-80gb",
        );
        assert!(
            c.starts_with("vllm serve meta-llama/Llama-3.1-70B-Instruct "),
            "{c}"
        );
        assert!(c.contains("--quantization fp8"), "{c}");
        // The H100 server holds two copies of four GPUs, each with half of the 32 users.
        assert!(c.contains("--tensor-parallel-size 4"), "{c}");
        assert!(c.contains("--data-parallel-size 2"), "{c}");
        assert!(c.contains("--max-num-seqs 16"), "{c}");
        // A checkpoint published in FP8 loads as it is.
        let fp8 = command_for("model=deepseek-v3&batch=32&gpus=8", "h200-sxm-141gb");
        assert!(
            fp8.starts_with("vllm serve deepseek-ai/DeepSeek-V3 "),
            "{fp8}"
        );
        assert!(!fp8.contains("--quantization"), "{fp8}");
        // Rented GPUs come one at a time: one copy, all the users.
        let c = command_for(
            "model=llama-3.1-70b&batch=32&gpus=8&prec=fp8&mode=rent",
            "h100-sxm5-80gb",
        );
        assert!(!c.contains("--data-parallel-size"), "{c}");
        assert!(c.contains("--max-num-seqs 32"), "{c}");
        // A card that runs the model in 4-bit weights loads an AWQ checkpoint where the
        // preset names one, else says where one goes.
        let awq = command_for("model=llama-3.1-70b&batch=16", "rtx-pro-6000-blackwell");
        assert!(
            awq.starts_with("vllm serve hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4 "),
            "{awq}"
        );
        assert!(!awq.contains("--quantization"), "{awq}");
        let none = command_for("model=qwen2.5-32b&batch=16", "a100-pcie-80gb");
        assert!(none.starts_with("vllm serve <hf-repo> "), "{none}");
        // Training and image generation start no server.
        assert!(commands("task=train&model=resnet-50").is_empty());
        assert!(commands("model=sdxl").is_empty());
    }
}
