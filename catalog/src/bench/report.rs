//! What a benchmark run reports, and the text form it travels in.
//!
//! The measurement runs in its own WebAssembly module, loaded only when the person
//! starts a run, so the first visit does not pay for it. The two modules share no
//! memory: the measurement sends each progress step and the final outcome to the
//! page as one line of tab-separated fields per record, which `decode` reads back.
//! Keeping that codec here lets it be tested natively, on both ends at once.

use std::fmt::Write as _;

use super::{Kernel, Summary};

/// How timed batches were measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Timing {
    /// GPU timestamps written at the start and end of each timed pass (`timestamp-query`).
    GpuTimestamps,
    /// `performance.now()` from submit to `onSubmittedWorkDone`, minus the latency of an
    /// empty submit.
    WallClock,
}

impl Timing {
    pub fn as_str(self) -> &'static str {
        match self {
            Timing::GpuTimestamps => "timestamp-query",
            Timing::WallClock => "wall-clock",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        [Timing::GpuTimestamps, Timing::WallClock]
            .into_iter()
            .find(|t| t.as_str() == s)
    }
}

/// What the browser says about the adapter.
#[derive(Debug, Clone, PartialEq)]
pub struct AdapterInfo {
    pub vendor: String,
    pub architecture: String,
    /// A fallback or software adapter (SwiftShader): not the visitor's GPU.
    pub software: bool,
    pub shader_f16: bool,
}

/// One kernel's result: verified and timed, or why not.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelResult {
    pub kernel: Kernel,
    /// Which kernel variant was timed (the fastest, for matmuls).
    pub variant: String,
    /// The result matched the CPU reference before any timing.
    pub verified: bool,
    pub summary: Option<Summary>,
    /// How its batches were timed, when they were.
    pub timing: Option<Timing>,
    /// Why it was not timed, when it was not.
    pub failure: Option<String>,
}

impl KernelResult {
    /// A kernel that was not timed, and why.
    pub fn failed(kernel: Kernel, variant: &str, why: impl Into<String>) -> Self {
        KernelResult {
            kernel,
            variant: variant.into(),
            verified: false,
            summary: None,
            timing: None,
            failure: Some(why.into()),
        }
    }
}

/// A step of a run in progress.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// Now working on `stage` (`device` or a kernel's name), step `index` of `total`.
    Step {
        stage: String,
        index: u32,
        total: u32,
    },
    /// A kernel finished.
    Kernel(KernelResult),
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// No `navigator.gpu`, or no adapter.
    Unsupported,
    Done {
        adapter: AdapterInfo,
        results: Vec<KernelResult>,
    },
    Error {
        adapter: Option<AdapterInfo>,
        message: String,
    },
}

impl Outcome {
    pub fn data_state(&self) -> &'static str {
        match self {
            Outcome::Unsupported => "unsupported",
            Outcome::Error { .. } => "error",
            Outcome::Done { adapter, .. } if adapter.software => "software",
            Outcome::Done { .. } => "done",
        }
    }

    /// The memory bandwidth a finished run on a real GPU measured, in GB/s: the better
    /// of the read and copy kernels. `None` for a software renderer or without either.
    pub fn bandwidth_gbs(&self) -> Option<f64> {
        match self {
            Outcome::Done { adapter, .. } if !adapter.software => {
                [Kernel::BandwidthRead, Kernel::BandwidthCopy]
                    .into_iter()
                    .filter_map(|k| self.rate(k))
                    .reduce(f64::max)
                    .filter(|bw| *bw > 0.0)
            }
            _ => None,
        }
    }

    /// The median rate of a verified kernel, if it was measured.
    pub fn rate(&self, kernel: Kernel) -> Option<f64> {
        match self {
            Outcome::Done { results, .. } => results
                .iter()
                .find(|r| r.kernel == kernel && r.verified)
                .and_then(|r| r.summary)
                .map(|s| s.median),
            _ => None,
        }
    }
}

/// A run as the page shows it: in progress with the results so far, or finished.
#[derive(Debug, Clone, PartialEq)]
pub enum Run {
    Running {
        /// The current step, if one was reported yet.
        step: Option<(String, u32, u32)>,
        results: Vec<KernelResult>,
    },
    Finished(Outcome),
}

impl Run {
    /// Reads the progress records received so far and, once the run has ended, its
    /// outcome (empty until then).
    pub fn read(progress: &str, outcome: &str) -> Result<Run, ReportError> {
        if !outcome.trim().is_empty() {
            return Outcome::decode(outcome).map(Run::Finished);
        }
        let mut step = None;
        let mut results = Vec::new();
        for line in progress.lines().filter(|l| !l.is_empty()) {
            match Progress::decode(line)? {
                Progress::Step {
                    stage,
                    index,
                    total,
                } => step = Some((stage, index, total)),
                Progress::Kernel(r) => results.push(r),
            }
        }
        Ok(Run::Running { step, results })
    }
}

/// A report line that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportError {
    #[error("benchmark report line {line}: unknown record `{record}`")]
    UnknownRecord { line: usize, record: String },
    #[error("benchmark report line {line}: field {field} is missing or invalid")]
    BadField { line: usize, field: usize },
    #[error("benchmark report: no final record")]
    Incomplete,
}

/// Tabs and line breaks separate fields and records, so they may not appear in one.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

fn flag(b: bool) -> &'static str {
    if b {
        "1"
    } else {
        "0"
    }
}

fn write_adapter(out: &mut String, a: &AdapterInfo) {
    let _ = writeln!(
        out,
        "adapter\t{}\t{}\t{}\t{}",
        clean(&a.vendor),
        clean(&a.architecture),
        flag(a.software),
        flag(a.shader_f16)
    );
}

fn write_kernel(out: &mut String, r: &KernelResult) {
    let _ = write!(
        out,
        "kernel\t{}\t{}\t{}",
        r.kernel.as_str(),
        clean(&r.variant),
        flag(r.verified)
    );
    match &r.summary {
        // Rates travel as their bits in hex: exact, and far cheaper to read back in
        // WebAssembly than decimal floats.
        Some(s) => {
            let _ = write!(
                out,
                "\t{:x}\t{:x}\t{:x}\t{}",
                s.median.to_bits(),
                s.best.to_bits(),
                s.worst.to_bits(),
                flag(s.throttled)
            );
        }
        None => out.push_str("\t\t\t\t"),
    }
    let _ = writeln!(
        out,
        "\t{}\t{}",
        r.timing.map_or("", Timing::as_str),
        clean(r.failure.as_deref().unwrap_or(""))
    );
}

impl Progress {
    pub fn encode(&self) -> String {
        let mut out = String::new();
        match self {
            Progress::Step {
                stage,
                index,
                total,
            } => {
                let _ = writeln!(out, "step\t{}\t{index}\t{total}", clean(stage));
            }
            Progress::Kernel(r) => write_kernel(&mut out, r),
        }
        out
    }

    pub fn decode(text: &str) -> Result<Progress, ReportError> {
        let line = text.lines().next().unwrap_or("");
        let f = Fields::new(line, 1);
        match f.record() {
            "step" => Ok(Progress::Step {
                stage: f.text(1)?,
                index: f.parse(2)?,
                total: f.parse(3)?,
            }),
            "kernel" => Ok(Progress::Kernel(read_kernel(&f)?)),
            other => Err(ReportError::UnknownRecord {
                line: 1,
                record: other.into(),
            }),
        }
    }
}

impl Outcome {
    pub fn encode(&self) -> String {
        let mut out = String::new();
        match self {
            Outcome::Unsupported => out.push_str("unsupported\n"),
            Outcome::Done { adapter, results } => {
                write_adapter(&mut out, adapter);
                for r in results {
                    write_kernel(&mut out, r);
                }
                out.push_str("done\n");
            }
            Outcome::Error { adapter, message } => {
                if let Some(a) = adapter {
                    write_adapter(&mut out, a);
                }
                let _ = writeln!(out, "error\t{}", clean(message));
            }
        }
        out
    }

    pub fn decode(text: &str) -> Result<Outcome, ReportError> {
        let mut adapter = None;
        let mut results = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let f = Fields::new(line, i + 1);
            match f.record() {
                "adapter" => {
                    adapter = Some(AdapterInfo {
                        vendor: f.text(1)?,
                        architecture: f.text(2)?,
                        software: f.flag(3)?,
                        shader_f16: f.flag(4)?,
                    })
                }
                "kernel" => results.push(read_kernel(&f)?),
                "unsupported" => return Ok(Outcome::Unsupported),
                "error" => {
                    return Ok(Outcome::Error {
                        adapter,
                        message: f.text(1)?,
                    })
                }
                "done" => {
                    return Ok(Outcome::Done {
                        adapter: adapter.ok_or(f.bad(0))?,
                        results,
                    })
                }
                other => {
                    return Err(ReportError::UnknownRecord {
                        line: i + 1,
                        record: other.into(),
                    })
                }
            }
        }
        Err(ReportError::Incomplete)
    }
}

fn read_kernel(f: &Fields) -> Result<KernelResult, ReportError> {
    let kernel = Kernel::parse(f.get(1)?).ok_or(f.bad(1))?;
    let summary = if f.get(4)?.is_empty() {
        None
    } else {
        Some(Summary {
            median: f.rate(4)?,
            best: f.rate(5)?,
            worst: f.rate(6)?,
            throttled: f.flag(7)?,
        })
    };
    let timing = match f.get(8)? {
        "" => None,
        t => Some(Timing::parse(t).ok_or(f.bad(8))?),
    };
    let failure = f.text(9)?;
    Ok(KernelResult {
        kernel,
        variant: f.text(2)?,
        verified: f.flag(3)?,
        summary,
        timing,
        failure: (!failure.is_empty()).then_some(failure),
    })
}

/// The tab-separated fields of one line; field 0 names the record.
struct Fields<'a> {
    fields: Vec<&'a str>,
    line: usize,
}

impl<'a> Fields<'a> {
    fn new(line_text: &'a str, line: usize) -> Self {
        Fields {
            fields: line_text.split('\t').collect(),
            line,
        }
    }
    fn record(&self) -> &'a str {
        self.fields[0]
    }
    fn bad(&self, field: usize) -> ReportError {
        ReportError::BadField {
            line: self.line,
            field,
        }
    }
    fn get(&self, i: usize) -> Result<&'a str, ReportError> {
        self.fields.get(i).copied().ok_or(self.bad(i))
    }
    fn text(&self, i: usize) -> Result<String, ReportError> {
        self.get(i).map(str::to_string)
    }
    fn flag(&self, i: usize) -> Result<bool, ReportError> {
        match self.get(i)? {
            "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(self.bad(i)),
        }
    }
    fn parse<T: std::str::FromStr>(&self, i: usize) -> Result<T, ReportError> {
        self.get(i)?.parse().map_err(|_| self.bad(i))
    }
    fn rate(&self, i: usize) -> Result<f64, ReportError> {
        u64::from_str_radix(self.get(i)?, 16)
            .map(f64::from_bits)
            .map_err(|_| self.bad(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn adapter() -> AdapterInfo {
        AdapterInfo {
            vendor: "nvidia".into(),
            architecture: "ada lovelace".into(),
            software: false,
            shader_f16: true,
        }
    }

    fn measured(kernel: Kernel, median: f64) -> KernelResult {
        KernelResult {
            kernel,
            variant: "128x128 tile, 8x8 per invocation".into(),
            verified: true,
            summary: Some(Summary {
                median,
                best: median * 1.01,
                worst: median * 0.97,
                throttled: false,
            }),
            timing: Some(Timing::GpuTimestamps),
            failure: None,
        }
    }

    #[test]
    fn a_finished_run_reads_back_exactly() {
        let outcome = Outcome::Done {
            adapter: adapter(),
            results: vec![
                measured(Kernel::Fp32Matmul, 31_234.567_891),
                KernelResult::failed(Kernel::Fp16Matmul, "", "relative error 2.1e-1"),
                measured(Kernel::BandwidthRead, 0.1 + 0.2),
            ],
        };
        assert_eq!(Outcome::decode(&outcome.encode()), Ok(outcome.clone()));
        assert_eq!(outcome.rate(Kernel::BandwidthRead), Some(0.1 + 0.2));
        assert_eq!(outcome.rate(Kernel::Fp16Matmul), None, "failed: no rate");
        assert_eq!(outcome.data_state(), "done");
    }

    #[test]
    fn errors_and_unsupported_read_back() {
        for outcome in [
            Outcome::Unsupported,
            Outcome::Error {
                adapter: None,
                message: "no window".into(),
            },
            Outcome::Error {
                adapter: Some(adapter()),
                message: "the GPU device was lost: destroyed".into(),
            },
        ] {
            assert_eq!(Outcome::decode(&outcome.encode()), Ok(outcome));
        }
    }

    #[test]
    fn tabs_and_line_breaks_in_browser_strings_cannot_forge_records() {
        let outcome = Outcome::Error {
            adapter: Some(AdapterInfo {
                vendor: "evil\tvendor".into(),
                ..adapter()
            }),
            message: "first\ndone".into(),
        };
        let Ok(Outcome::Error { adapter, message }) = Outcome::decode(&outcome.encode()) else {
            panic!("still an error outcome");
        };
        assert_eq!(adapter.map(|a| a.vendor), Some("evil vendor".into()));
        assert_eq!(message, "first done");
    }

    #[test]
    fn progress_reads_back() {
        for p in [
            Progress::Step {
                stage: "fp32-matmul".into(),
                index: 2,
                total: 6,
            },
            Progress::Kernel(KernelResult {
                timing: Some(Timing::WallClock),
                ..measured(Kernel::BandwidthCopy, 812.5)
            }),
        ] {
            assert_eq!(Progress::decode(&p.encode()), Ok(p));
        }
    }

    #[test]
    fn a_run_reads_from_its_progress_until_the_outcome_arrives() {
        let step = Progress::Step {
            stage: "bandwidth-read".into(),
            index: 3,
            total: 5,
        };
        let kernel = measured(Kernel::Fp32Matmul, 900.0);
        let progress = Progress::Kernel(kernel.clone()).encode() + &step.encode();
        assert_eq!(
            Run::read(&progress, ""),
            Ok(Run::Running {
                step: Some(("bandwidth-read".into(), 3, 5)),
                results: vec![kernel],
            })
        );
        assert_eq!(
            Run::read("", ""),
            Ok(Run::Running {
                step: None,
                results: vec![]
            })
        );
        let done = Outcome::Unsupported;
        assert_eq!(
            Run::read(&progress, &done.encode()),
            Ok(Run::Finished(done))
        );
        assert!(Run::read("bogus\n", "").is_err());
    }

    #[test]
    fn malformed_reports_name_the_line_and_field() {
        assert_eq!(Outcome::decode(""), Err(ReportError::Incomplete));
        assert_eq!(
            Outcome::decode("adapter\tx\ty\t1\t0\nbogus"),
            Err(ReportError::UnknownRecord {
                line: 2,
                record: "bogus".into()
            })
        );
        assert_eq!(
            Outcome::decode("kernel\tfp64-matmul\tv\t1\t\t\t\t\t\t\n"),
            Err(ReportError::BadField { line: 1, field: 1 })
        );
        assert_eq!(
            Outcome::decode("adapter\tx\ty\tyes\t0\n"),
            Err(ReportError::BadField { line: 1, field: 3 })
        );
        assert_eq!(
            Outcome::decode("done\n"),
            Err(ReportError::BadField { line: 1, field: 0 }),
            "done without an adapter"
        );
        assert!(Progress::decode("step\tdevice\tone\t6").is_err());
        assert_eq!(
            Outcome::decode("kernel\tfp32-matmul\tv\t1\t12.5\t1\t1\t0\t\t\n"),
            Err(ReportError::BadField { line: 1, field: 4 }),
            "rates are hex bits, not decimals"
        );
    }
}
