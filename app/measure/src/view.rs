//! The measurement's part of the bench view, drawn as one escaped HTML fragment: the
//! run's status, the adapter, the results table and the placement among the catalog.
//! It is compiled into the measurement module (this crate) with the measurement, so
//! the first visit carries none of it; the your-GPU view asks the loaded module to draw
//! the records it has received, in the current language.

use catalog::bench::report::{AdapterInfo, KernelResult, Outcome, Run, Timing};
use catalog::bench::{self, Kernel};
use catalog::decimal::fixed;
use catalog::html::escape;
use catalog::share::Lang;
use catalog::Catalog;

use web::i18n::{fill, num, tr, MeasureKey};

/// What the page shows for a run.
pub struct Rendered {
    /// `running`, `done`, `software`, `unsupported` or `error`.
    pub state: &'static str,
    pub status: String,
    pub html: String,
}

/// The browser and its major version, from its user-agent string.
fn browser(ua: &str) -> String {
    ["Edg/", "Chrome/", "Firefox/", "Version/"]
        .iter()
        .find_map(|brand| {
            let at = ua.find(brand)?;
            let version: String = ua[at + brand.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let name = match *brand {
                "Edg/" => "Edge",
                "Chrome/" => "Chrome",
                "Firefox/" => "Firefox",
                _ => "Safari",
            };
            Some(format!("{name} {version}"))
        })
        .unwrap_or_else(|| "unknown browser".into())
}

fn kernel_key(k: Kernel) -> MeasureKey {
    match k {
        Kernel::Fp32Matmul => MeasureKey::Fp32,
        Kernel::Fp16Matmul => MeasureKey::Fp16,
        Kernel::BandwidthRead => MeasureKey::Read,
        Kernel::BandwidthWrite => MeasureKey::Write,
        Kernel::BandwidthCopy => MeasureKey::Copy,
    }
}

fn stage_key(stage: &str) -> MeasureKey {
    match Kernel::parse(stage) {
        Some(k) => kernel_key(k),
        None => MeasureKey::StageDevice,
    }
}

/// One result as a table row: kernel, median, CPU check, and spread, timing and variant
/// (or why it was not timed). The `data-*` attributes are the page's test contract.
fn result_row(lang: Lang, r: &KernelResult) -> String {
    let value = r.summary.map(|s| s.median).unwrap_or(0.0);
    let detail = match (&r.summary, &r.failure) {
        (Some(s), _) => {
            let timing = match r.timing {
                Some(Timing::GpuTimestamps) => MeasureKey::TimedGpu,
                _ => MeasureKey::TimedWall,
            };
            fill(
                tr(lang, MeasureKey::Spread),
                &[
                    ("best", num(s.best)),
                    ("worst", num(s.worst)),
                    ("timing", tr(lang, timing).into()),
                    ("variant", r.variant.clone()),
                ],
            ) + if s.throttled {
                tr(lang, MeasureKey::Throttled)
            } else {
                ""
            }
        }
        (None, Some(f)) => fill(tr(lang, MeasureKey::Failed), &[("why", f.clone())]),
        _ => String::new(),
    };
    let shown = if r.summary.is_some() {
        format!("{} {}", num(value), r.kernel.unit())
    } else {
        "—".into()
    };
    let check = tr(
        lang,
        if r.verified {
            MeasureKey::Verified
        } else {
            MeasureKey::NotVerified
        },
    );
    format!(
        r#"<tr data-testid="bench-result" data-kernel="{}" data-value="{}" data-unit="{}" data-verified="{}"><th scope="row">{}</th><td>{}</td><td>{}</td><td>{}</td></tr>"#,
        r.kernel.as_str(),
        fixed(value, 3),
        r.kernel.unit(),
        r.verified,
        escape(tr(lang, kernel_key(r.kernel))),
        escape(&shown),
        escape(check),
        escape(&detail),
    )
}

/// The adapter line, the timing method, the results table and, for a real GPU, the
/// catalog GPUs the measurement is consistent with, as one escaped fragment: this view
/// is drawn from a string so that the first visit's bundle stays small.
fn results_html(
    lang: Lang,
    catalog: &Catalog,
    results: &[KernelResult],
    adapter: Option<&AdapterInfo>,
    placed: Option<&[bench::Match]>,
    user_agent: &str,
) -> String {
    let mut html = String::new();
    if let Some(a) = adapter {
        let line = fill(
            tr(lang, MeasureKey::Adapter),
            &[
                ("vendor", a.vendor.clone()),
                ("arch", a.architecture.clone()),
                ("browser", browser(user_agent)),
            ],
        );
        html += &format!(
            r#"<p class="meta" data-testid="bench-adapter">{}</p>"#,
            escape(&line)
        );
    }
    if results.is_empty() {
        return html;
    }
    html += &format!(
        r#"<p class="meta">{}</p><table class="spec-table"><thead><tr>"#,
        escape(tr(lang, MeasureKey::Method))
    );
    for key in [
        MeasureKey::ColKernel,
        MeasureKey::ColMedian,
        MeasureKey::ColCheck,
        MeasureKey::ColDetail,
    ] {
        html += &format!(r#"<th scope="col">{}</th>"#, escape(tr(lang, key)));
    }
    html += "</tr></thead><tbody>";
    for r in results {
        html += &result_row(lang, r);
    }
    html += "</tbody></table>";
    let Some(matches) = placed else {
        return html;
    };
    let pct = |(lo, hi): (f64, f64)| format!("{}–{}%", fixed(lo * 100.0, 0), fixed(hi * 100.0, 0));
    html += &format!(
        r#"<h2>{}</h2><p class="meta">{}</p>"#,
        escape(tr(lang, MeasureKey::Nearest)),
        escape(&fill(
            tr(lang, MeasureKey::Efficiency),
            &[
                ("bw", pct(bench::WEBGPU_BANDWIDTH_EFFICIENCY)),
                ("fp32", pct(bench::WEBGPU_FP32_EFFICIENCY)),
            ],
        ))
    );
    if matches.is_empty() {
        html += &format!(
            r#"<p data-testid="bench-no-match">{}</p>"#,
            escape(tr(lang, MeasureKey::NoMatch))
        );
        return html;
    }
    html += r#"<ul class="matches">"#;
    for m in matches {
        let name = catalog.gpu(&m.gpu_id).map_or("", |g| g.name.as_str());
        let confidence = fill(
            tr(lang, MeasureKey::Confidence),
            &[("pct", fixed(m.confidence * 100.0, 0))],
        );
        html += &format!(
            r#"<li>{} — {} <button class="link" data-gpu="{}">{}</button></li>"#,
            escape(name),
            escape(&confidence),
            escape(&m.gpu_id),
            escape(tr(lang, MeasureKey::ThisIsMine)),
        );
    }
    html + "</ul>"
}

/// Draws a run from the progress records received so far and its outcome record
/// (empty while it runs); `user_agent` names the browser beside the adapter.
pub fn render(progress: &str, outcome: &str, lang: Lang, user_agent: &str) -> Rendered {
    let catalog = Catalog::embedded();
    let run = match Run::read(progress, outcome) {
        Ok(run) => run,
        Err(e) => Run::Finished(Outcome::Error {
            adapter: None,
            message: e.to_string(),
        }),
    };
    let (results, adapter, placed) = match &run {
        Run::Running { results, .. } => (results.as_slice(), None, None),
        Run::Finished(Outcome::Done { adapter, results }) if adapter.software => {
            (results.as_slice(), Some(adapter), None)
        }
        // Placement only for a real GPU: bandwidth (best of read and copy) and FP32.
        Run::Finished(outcome @ Outcome::Done { adapter, results }) => {
            let matches = outcome.bandwidth_gbs().map_or_else(Vec::new, |bw| {
                bench::place(catalog, bw, outcome.rate(Kernel::Fp32Matmul))
            });
            (results.as_slice(), Some(adapter), Some(matches))
        }
        Run::Finished(Outcome::Error { adapter, .. }) => (&[][..], adapter.as_ref(), None),
        Run::Finished(Outcome::Unsupported) => (&[][..], None, None),
    };
    let html = results_html(
        lang,
        catalog,
        results,
        adapter,
        placed.as_deref(),
        user_agent,
    );
    let (state, status) = match run {
        Run::Running { step, .. } => {
            let (stage, index, total) = step.unwrap_or_else(|| ("device".into(), 1, 1));
            (
                "running",
                fill(
                    tr(lang, MeasureKey::Running),
                    &[
                        ("step", tr(lang, stage_key(&stage)).into()),
                        ("index", index.to_string()),
                        ("total", total.to_string()),
                    ],
                ),
            )
        }
        Run::Finished(outcome) => {
            let status = match &outcome {
                Outcome::Unsupported => tr(lang, MeasureKey::Unsupported).to_string(),
                Outcome::Error { message, .. } => {
                    fill(tr(lang, MeasureKey::Error), &[("why", message.clone())])
                }
                Outcome::Done { adapter, .. } if adapter.software => {
                    tr(lang, MeasureKey::Software).to_string()
                }
                Outcome::Done { .. } => tr(lang, MeasureKey::Done).to_string(),
            };
            (outcome.data_state(), status)
        }
    };
    Rendered {
        state,
        status,
        html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use catalog::bench::report::Progress;
    use catalog::bench::Summary;

    const CHROME: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";

    fn adapter(software: bool) -> AdapterInfo {
        AdapterInfo {
            vendor: "<b>vendor</b>".into(),
            architecture: "ada".into(),
            software,
            shader_f16: false,
        }
    }

    fn measured(kernel: Kernel, median: f64) -> KernelResult {
        KernelResult {
            kernel,
            variant: "v".into(),
            verified: true,
            summary: Some(Summary {
                median,
                best: median,
                worst: median,
                throttled: false,
            }),
            timing: Some(Timing::GpuTimestamps),
            failure: None,
        }
    }

    fn done(software: bool) -> String {
        Outcome::Done {
            adapter: adapter(software),
            results: vec![
                // 75% of an RTX 4090's 1008 GB/s and 30% of its 82.6 TFLOPS.
                measured(Kernel::Fp32Matmul, 24_800.0),
                measured(Kernel::BandwidthRead, 756.0),
            ],
        }
        .encode()
    }

    #[test]
    fn browsers_are_named_from_their_user_agent() {
        assert_eq!(browser(CHROME), "Chrome 156");
        assert_eq!(
            browser("Mozilla/5.0 (Windows NT 10.0) Chrome/140.0 Safari/537.36 Edg/140.0"),
            "Edge 140"
        );
        assert_eq!(browser("Mozilla/5.0 Firefox/145.0"), "Firefox 145");
        assert_eq!(browser("curl/8"), "unknown browser");
    }

    #[test]
    fn a_running_measurement_shows_its_step_and_the_results_so_far() {
        let progress = Progress::Kernel(measured(Kernel::Fp32Matmul, 900.0)).encode()
            + &Progress::Step {
                stage: "bandwidth-read".into(),
                index: 3,
                total: 5,
            }
            .encode();
        let drawn = render(&progress, "", Lang::En, CHROME);
        assert_eq!(drawn.state, "running");
        assert_eq!(drawn.status, "Measuring, step 3 of 5: Memory read…");
        assert!(drawn
            .html
            .contains(r#"data-kernel="fp32-matmul" data-value="900.000""#));
        assert!(drawn.html.contains("GPU timestamps"));
    }

    #[test]
    fn a_real_gpu_is_placed_among_the_catalog_and_a_software_one_is_not() {
        let real = render("", &done(false), Lang::En, CHROME);
        assert_eq!(real.state, "done");
        assert!(
            real.html.contains(r#"data-gpu="rtx-4090""#),
            "{}",
            real.html
        );
        let software = render("", &done(true), Lang::En, CHROME);
        assert_eq!(software.state, "software");
        assert!(!software.html.contains("data-gpu="));
        assert!(software.status.contains("not your GPU"));
    }

    #[test]
    fn browser_strings_are_escaped_and_drawn_in_either_language() {
        let drawn = render("", &done(false), Lang::Zh, CHROME);
        assert!(drawn
            .html
            .contains("&lt;b&gt;vendor&lt;/b&gt; ada · Chrome 156"));
        assert!(!drawn.html.contains("<b>"));
        assert!(drawn.status.contains("完成"));
    }

    #[test]
    fn unreadable_records_end_in_an_error_not_a_panic() {
        let drawn = render("step\tx\n", "", Lang::En, CHROME);
        assert_eq!(drawn.state, "error");
        assert!(drawn.status.contains("line 1"), "{}", drawn.status);
    }
}
