//! Published measurements (`measurements.json`) and the engine's estimate of each: the
//! calibration test, the accuracy page and the "measured" line on a card all read the rows
//! through this module, so the figure each of them shows is the same.
//!
//! A row is a flat record of named fields (`Field`), read from JSON natively
//! (`Measurement::parse_all`) or from the browser's own JSON parser by the app; the
//! fields every row must have are listed in `REQUIRED` and checked by the catalog tests.

mod estimate;
mod nearest;
mod validate;

pub use estimate::{accuracy, estimate, fitted_on, Accuracy, Comparison, Tally};
pub use nearest::{kinds_for, nearest, nearest_elsewhere, Difference, Nearest, BATCH_TOLERANCE};
pub use validate::violations;

/// One field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Field {
    Text(String),
    Number(f64),
    Flag(bool),
}

/// What a row measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// Generated tokens per second of a language model.
    Decode,
    /// Prompt tokens per second of a language model.
    Prefill,
    /// Training throughput (tokens, images or samples per second).
    Training,
    /// The ratio of two GPUs' training throughput, measured the same way.
    TrainingRatio,
    /// Seconds per generated image.
    Diffusion,
    /// Seconds of audio transcribed per second.
    Speech,
    /// Peak GPU memory of a training or fine-tuning run.
    Memory,
}

impl Kind {
    pub const ALL: [Kind; 7] = [
        Kind::Decode,
        Kind::Prefill,
        Kind::Training,
        Kind::TrainingRatio,
        Kind::Diffusion,
        Kind::Speech,
        Kind::Memory,
    ];

    /// The token in the data file's `kind` field.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Decode => "decode_tokens_per_s",
            Kind::Prefill => "prefill_tokens_per_s",
            Kind::Training => "train_throughput",
            Kind::TrainingRatio => "train_throughput_ratio",
            Kind::Diffusion => "diffusion_seconds_per_image",
            Kind::Speech => "speech_realtime_factor",
            Kind::Memory => "memory_used_gb",
        }
    }

    pub fn parse(token: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.as_str() == token)
    }
}

/// Fields every row has (`runtime` for inference rows, `framework` for training and
/// memory rows; `date` may be null only where the source prints none).
pub const REQUIRED: &[&str] = &[
    "kind",
    "gpu",
    "model",
    "precision",
    "value",
    "unit",
    "date",
    "source_url",
    "note",
];

/// One published measurement: its fields in the order read (a row has a dozen or so, so
/// a lookup is a short scan, and the browser bundle carries no map or sort for them).
#[derive(Debug, Clone, Default)]
pub struct Measurement {
    fields: Vec<(String, Field)>,
}

/// Rows are equal when they hold the same fields, in any order.
impl PartialEq for Measurement {
    fn eq(&self, other: &Self) -> bool {
        self.fields.len() == other.fields.len()
            && self.fields.iter().all(|(k, v)| other.field(k) == Some(v))
    }
}

impl Measurement {
    /// A row of these fields; a key given twice keeps its last value.
    pub fn new(fields: impl IntoIterator<Item = (String, Field)>) -> Self {
        let mut row = Measurement::default();
        for (key, value) in fields {
            match row.fields.iter_mut().find(|(k, _)| *k == key) {
                Some(slot) => slot.1 = value,
                None => row.fields.push((key, value)),
            }
        }
        row
    }

    /// Every row of a JSON array of objects; a null field is left out.
    pub fn parse_all(json: &str) -> Result<Vec<Measurement>, String> {
        let value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        let rows = value.as_array().ok_or("not a list")?;
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                let object = row.as_object().ok_or(format!("row {i} is not an object"))?;
                Ok(Measurement::new(object.iter().filter_map(|(k, v)| {
                    let field = match v {
                        serde_json::Value::String(s) => Field::Text(s.clone()),
                        serde_json::Value::Number(n) => Field::Number(n.as_f64()?),
                        serde_json::Value::Bool(b) => Field::Flag(*b),
                        _ => return None,
                    };
                    Some((k.clone(), field))
                })))
            })
            .collect()
    }

    pub fn field(&self, key: &str) -> Option<&Field> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// A text field, or "" when absent.
    pub fn text(&self, key: &str) -> &str {
        match self.field(key) {
            Some(Field::Text(s)) => s,
            _ => "",
        }
    }

    pub fn number(&self, key: &str) -> Option<f64> {
        match self.field(key) {
            Some(Field::Number(n)) => Some(*n),
            _ => None,
        }
    }

    pub fn flag(&self, key: &str) -> Option<bool> {
        match self.field(key) {
            Some(Field::Flag(b)) => Some(*b),
            _ => None,
        }
    }

    pub fn kind(&self) -> Option<Kind> {
        Kind::parse(self.text("kind"))
    }

    /// The GPU measured (the first of a ratio).
    pub fn gpu(&self) -> &str {
        self.text("gpu")
    }

    pub fn model(&self) -> &str {
        self.text("model")
    }

    /// The published figure in `unit()`.
    pub fn value(&self) -> Option<f64> {
        self.number("value")
    }

    pub fn unit(&self) -> &str {
        self.text("unit")
    }

    /// GPUs in the measured run (1 unless stated).
    pub fn gpus(&self) -> u32 {
        self.number("num_gpus").map_or(1, |n| n.max(1.0) as u32)
    }

    /// The runtime of an inference row, or the framework of a training row.
    pub fn stack(&self) -> &str {
        match self.text("runtime") {
            "" => self.text("framework"),
            runtime => runtime,
        }
    }

    /// The runtime the engine models an inference row with: its own, or for software the
    /// engine does not name, the one whose kernels and scheduling it shares. SGLang serves
    /// as vLLM does (tensor parallel, continuous batching, fused MoE kernels); llamafile, on
    /// which LocalScore runs, is llama.cpp's ggml at a vendored revision. `None` for a
    /// training row or a runtime without an estimate of its own (diffusers, faster-whisper).
    pub fn runtime(&self) -> Option<crate::workload::Runtime> {
        crate::workload::Runtime::parse(match self.text("runtime") {
            "sglang" => "vllm",
            "llamafile" => "llamacpp",
            runtime => runtime,
        })
    }

    pub fn date(&self) -> &str {
        self.text("date")
    }

    pub fn source_url(&self) -> &str {
        self.text("source_url")
    }

    /// Who published it, for a short label: a GitHub figure's owner ("lambdal",
    /// "ggml-org"), otherwise the site's host without `www.`.
    pub fn publisher(&self) -> &str {
        let url = self.source_url();
        let rest = url.split("//").nth(1).unwrap_or(url);
        let mut parts = rest.split('/');
        let host = parts.next().unwrap_or_default();
        if host == "github.com" || host == "raw.githubusercontent.com" {
            parts.next().unwrap_or(host)
        } else {
            host.strip_prefix("www.").unwrap_or(host)
        }
    }

    /// The site a figure was published on, for counting independent sources: a GitHub
    /// figure's repository, otherwise the host.
    pub fn source(&self) -> String {
        let url = self.source_url();
        let rest = url.split("//").nth(1).unwrap_or(url);
        let mut parts = rest.split('/');
        let host = parts.next().unwrap_or_default();
        if host == "github.com" || host == "raw.githubusercontent.com" {
            let owner = parts.next().unwrap_or_default();
            let repo = parts.next().unwrap_or_default();
            format!("{owner}/{repo}")
        } else {
            host.to_string()
        }
    }

    /// The row as one JSON object, fields in the data file's order of importance; what the
    /// contribution form writes (without a JSON library, which the browser bundle lacks).
    pub fn to_json(&self) -> String {
        let order = |k: &str| {
            REQUIRED
                .iter()
                .position(|r| *r == k)
                .unwrap_or(REQUIRED.len())
        };
        let mut fields: Vec<&(String, Field)> = self.fields.iter().collect();
        crate::order::sort_by_key(&mut fields, |(k, _)| (order(k), k.as_str()));
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| {
                let value = match v {
                    Field::Text(s) => crate::json::string(s),
                    Field::Number(n) => crate::decimal::shortest(*n),
                    Field::Flag(b) => b.to_string(),
                };
                format!("  {}: {value}", crate::json::string(k))
            })
            .collect();
        format!("{{\n{}\n}}", body.join(",\n"))
    }
}

/// The file the cards read (`measurements.min.json`, written beside the app at build
/// time): every row without its `note` and `unmatched` texts, which only the accuracy page
/// shows, as compact JSON: 7 KB compressed where the full file is 25 KB, for a visit that
/// only draws cards.
pub fn for_cards(json: &str) -> Result<String, String> {
    let mut value: serde_json::Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
    for row in value.as_array_mut().ok_or("not a list")? {
        if let Some(object) = row.as_object_mut() {
            object.remove("note");
            object.remove("unmatched");
        }
    }
    Ok(value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publisher_is_the_github_owner_or_the_host() {
        let row = |url: &str| {
            Measurement::new([("source_url".to_string(), Field::Text(url.to_string()))])
        };
        assert_eq!(
            row("https://github.com/lambdal/deeplearning-benchmark/blob/x/a.csv").publisher(),
            "lambdal"
        );
        assert_eq!(
            row("https://www.tomshardware.com/a").publisher(),
            "tomshardware.com"
        );
        assert_eq!(
            row("https://github.com/ggml-org/llama.cpp/pull/1").source(),
            "ggml-org/llama.cpp"
        );
    }

    #[test]
    fn a_row_written_as_json_reads_back_the_same() {
        let row = Measurement::new([
            (
                "kind".to_string(),
                Field::Text("decode_tokens_per_s".into()),
            ),
            ("gpu".to_string(), Field::Text("rtx-4090".into())),
            ("value".to_string(), Field::Number(127.5)),
            ("per_gpu".to_string(), Field::Flag(true)),
            (
                "note".to_string(),
                Field::Text("a \"quoted\" note\\ on\ttwo\nlines".into()),
            ),
        ]);
        let back = Measurement::parse_all(&format!("[{}]", row.to_json())).expect("reads back");
        assert_eq!(back, vec![row]);
    }

    #[test]
    fn the_cards_file_is_the_data_file_without_its_texts() {
        let full = crate::data::MEASUREMENTS_JSON;
        let cards = for_cards(full).expect("the data file parses");
        assert!(
            cards.len() * 2 < full.len(),
            "{} of {}",
            cards.len(),
            full.len()
        );
        let (full, cards) = (
            Measurement::parse_all(full).expect("full"),
            Measurement::parse_all(&cards).expect("cards"),
        );
        assert_eq!(full.len(), cards.len());
        for (f, c) in full.iter().zip(&cards) {
            assert!(c.field("note").is_none() && c.field("unmatched").is_none());
            let kept = Measurement::new(
                f.fields
                    .iter()
                    .filter(|(k, _)| k != "note" && k != "unmatched")
                    .cloned(),
            );
            assert_eq!(&kept, c);
        }
    }
}
