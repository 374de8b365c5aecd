//! Model presets (`models.json`) and the custom model a parameter count stands for.

use serde::{Deserialize, Serialize};

use crate::gpu::Source;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    Llm,
    Encoder,
    EncoderDecoder,
    VisionCnn,
    VisionTransformer,
    Diffusion,
    Speech,
    #[serde(rename = "medical-3d")]
    Medical3d,
    Video,
}

impl Family {
    /// Token-sequence models, whose activations and KV cache scale with `seq`.
    pub fn is_sequence_model(self) -> bool {
        matches!(
            self,
            Family::Llm | Family::Encoder | Family::EncoderDecoder | Family::Speech
        )
    }

    /// Autoregressive decoders: inference is prefill plus token-by-token decode.
    pub fn is_decoder(self) -> bool {
        matches!(self, Family::Llm)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub id: String,
    pub name: String,
    pub family: Family,
    pub params_b: f64,
    pub active_params_b: Option<f64>,
    pub layers: Option<u32>,
    pub hidden: Option<u32>,
    pub heads: Option<u32>,
    pub kv_heads: Option<u32>,
    pub ffn: Option<u32>,
    pub vocab: Option<u32>,
    pub experts: Option<u32>,
    pub active_experts: Option<u32>,
    pub default_seq: Option<u32>,
    pub max_seq: Option<u32>,
    pub resolution: Option<u32>,
    pub frames: Option<u32>,
    /// Forward-pass GFLOPs per sample at the default resolution (multiply-add = 2 FLOPs).
    pub gflops_per_sample: Option<f64>,
    /// Attention head width when the config sets it apart from hidden / heads (Qwen3, Gemma 3).
    #[serde(default)]
    pub head_dim: Option<u32>,
    /// Multi-head latent attention (DeepSeek): elements cached per token and layer
    /// (the compressed KV latent plus the decoupled RoPE key), instead of 2 × kv_heads × head_dim.
    #[serde(default)]
    pub kv_latent_dim: Option<u32>,
    /// Local attention: the window in tokens, and how many layers use it (the others
    /// attend to the whole sequence); those layers cache at most the window.
    #[serde(default)]
    pub sliding_window: Option<u32>,
    #[serde(default)]
    pub sliding_layers: Option<u32>,
    /// Diffusion pipelines: parameters loaded beside the denoiser (text encoders and VAE),
    /// in billions.
    #[serde(default)]
    pub pipeline_params_b: Option<f64>,
    /// Diffusion pipelines: GFLOPs of the VAE decoder for one image at the default resolution.
    #[serde(default)]
    pub decoder_gflops: Option<f64>,
    /// Encoder-decoders (Whisper): layers of the decoder stack when it differs from the
    /// encoder's `layers` (large-v3-turbo keeps 32 encoder layers and 4 decoder layers).
    #[serde(default)]
    pub decoder_layers: Option<u32>,
    /// Diffusion pipelines: denoiser passes per step. Classifier-free guidance runs two
    /// (the prompt's and the unconditional prediction); guidance-distilled models (FLUX.1
    /// [dev]) run one. Null means two.
    #[serde(default)]
    pub guidance_passes: Option<u32>,
    /// Language models: vocabulary × hidden matrices, 1 when the LM head is tied to the
    /// token embedding (`tie_word_embeddings`), 2 when it is its own. QLoRA keeps them in
    /// 16 bits: bitsandbytes quantizes linear layers but the LM head, and the embedding is
    /// not a linear layer.
    #[serde(default)]
    pub embedding_matrices: Option<u32>,
    /// Hybrid language models: the layers that keep a KV cache (full attention); the
    /// others (Gated DeltaNet, linear attention) keep a fixed-size state that does not grow
    /// with the context. `None`: every layer.
    #[serde(default)]
    pub kv_layers: Option<u32>,
    /// UNet denoisers: their self-attention layers at the default resolution, each entry
    /// `[tokens, layers, heads]` (SD 1.5: 5 layers over 64×64 latents, 5 over 32×32, 5
    /// over 16×16 and 1 over 8×8, 8 heads each). What attention that writes its score
    /// matrices out moves (`estimate::unfused_attention_bytes`).
    #[serde(default)]
    pub self_attention: Vec<[u32; 3]>,
    /// Language models: the Hugging Face repository of the released instruct checkpoint,
    /// which `vllm serve` loads (`command`).
    #[serde(default)]
    pub hf_repo: Option<String>,
    /// Language models released in a low-bit format that llama.cpp runs as released
    /// (gpt-oss's MXFP4 experts): the one GGUF type people download, which the
    /// quantization ladder starts and ends at (`quant::ladder`, `quant::released`).
    #[serde(default)]
    pub gguf: Option<String>,
    /// Language models whose own checkpoint (`hf_repo`) is published below 16 bits
    /// (DeepSeek-V3's block-scaled FP8, gpt-oss's MXFP4 experts): that format, which vLLM
    /// and SGLang load as released, so a served deployment with `prec=auto` runs it
    /// (`quant::checkpoint`).
    #[serde(default)]
    pub checkpoint: Option<String>,
    /// The Hugging Face repository of that GGUF file (`llama-server -hf`).
    #[serde(default)]
    pub gguf_repo: Option<String>,
    /// That file's size in GB, which is what llama.cpp loads: it keeps the attention and
    /// embeddings at 16 bits beside the low-bit experts.
    #[serde(default)]
    pub gguf_gb: Option<f64>,
    /// Language models: the Hugging Face repository of a 4-bit (AWQ) checkpoint of the
    /// released instruct model, which `vllm serve` loads through its Marlin kernels where a
    /// card runs the model in 4-bit weights (`command`); null where none was found.
    #[serde(default)]
    pub awq_repo: Option<String>,
    /// Mixtures of experts whose Hugging Face Transformers implementation multiplies every
    /// expert for every token in inference (gpt-oss's `GptOssExperts` outside training,
    /// which Optimum Habana's Gaudi class keeps; Llama 4's `Llama4TextMoe` always): a
    /// decode step under Transformers in 16 bits reads and multiplies the whole model, not
    /// the routed experts (`estimate`).
    #[serde(default)]
    pub transformers_dense_experts: bool,
    #[serde(default)]
    pub notes: Vec<String>,
    #[serde(default)]
    pub sources: Vec<Source>,
}

impl Model {
    pub fn params(&self) -> f64 {
        self.params_b * 1e9
    }

    /// Parameters touched per token (all of them unless mixture-of-experts).
    pub fn active_params(&self) -> f64 {
        self.active_params_b.unwrap_or(self.params_b) * 1e9
    }

    /// Parameters one decode step reads when it serves `batch` sequences at once. A dense
    /// model reads all of them. A mixture of experts reads its shared weights and every
    /// expert at least one of the batch's tokens is routed to: with `E` experts and `k` per
    /// token, routing that spreads tokens evenly touches `E·(1 − (1 − k/E)^b)` experts per
    /// layer, `k` at batch 1 and nearly all of them at large batches. Each expert's size
    /// follows from the totals: `(params − active) / (E − k)`.
    pub fn params_read(&self, batch: u32) -> f64 {
        match (self.experts, self.active_experts) {
            (Some(e), Some(k)) if e > k && k > 0 => {
                let (e, k) = (f64::from(e), f64::from(k));
                let expert = (self.params() - self.active_params()) / (e - k);
                let shared = self.active_params() - k * expert;
                let touched = e * (1.0 - (1.0 - k / e).powi(batch.max(1) as i32));
                shared + touched * expert
            }
            _ => self.active_params(),
        }
    }

    /// The routed experts' share of `params_read`: the parameters of the experts a step at
    /// `batch` touches, without the shared weights (attention, embeddings, shared experts).
    /// 0 for a dense model.
    pub fn expert_params_read(&self, batch: u32) -> f64 {
        match (self.experts, self.active_experts) {
            (Some(e), Some(k)) if e > k && k > 0 => {
                let (e, k) = (f64::from(e), f64::from(k));
                let expert = (self.params() - self.active_params()) / (e - k);
                let touched = e * (1.0 - (1.0 - k / e).powi(batch.max(1) as i32));
                touched * expert
            }
            _ => 0.0,
        }
    }

    pub fn head_dim(&self) -> Option<u32> {
        self.head_dim.or(Some(self.hidden? / self.heads?))
    }

    /// A decoder-only transformer of `params_b` billion parameters with the
    /// proportions of the Llama family: hidden size from 12·L·h² ≈ P with
    /// L ≈ h / 128 (Kaplan et al. 2020 aspect ratios), head dim 128, GQA with
    /// 8 KV heads once there are more than 8 heads, FFN 3.5 h (SwiGLU), 128k vocabulary.
    pub fn custom(params_b: f64) -> Model {
        let params = params_b.clamp(0.01, 5000.0) * 1e9;
        // P ≈ 12 L h² with L = h/128 → h³ ≈ 128 P / 12
        let raw_hidden = (params * 128.0 / 12.0).cbrt();
        let hidden = ((raw_hidden / 128.0).round().max(1.0) * 128.0) as u32;
        let layers =
            ((params / (12.0 * f64::from(hidden) * f64::from(hidden))).round() as u32).max(1);
        let heads = (hidden / 128).max(1);
        let kv_heads = if heads > 8 { 8 } else { heads };
        Model {
            id: "custom".into(),
            name: format!("{} B", crate::decimal::shortest(params_b)),
            family: Family::Llm,
            params_b: params / 1e9,
            active_params_b: None,
            layers: Some(layers),
            hidden: Some(hidden),
            heads: Some(heads),
            kv_heads: Some(kv_heads),
            ffn: Some(hidden * 7 / 2),
            vocab: Some(128_256),
            experts: None,
            active_experts: None,
            default_seq: Some(4096),
            max_seq: None,
            resolution: None,
            frames: None,
            gflops_per_sample: None,
            head_dim: None,
            kv_latent_dim: None,
            sliding_window: None,
            sliding_layers: None,
            pipeline_params_b: None,
            decoder_gflops: None,
            decoder_layers: None,
            guidance_passes: None,
            embedding_matrices: None,
            hf_repo: None,
            gguf: None,
            checkpoint: None,
            kv_layers: None,
            self_attention: Vec::new(),
            gguf_repo: None,
            gguf_gb: None,
            awq_repo: None,
            transformers_dense_experts: false,
            notes: Vec::new(),
            sources: Vec::new(),
        }
    }
}
