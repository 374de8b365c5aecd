//! Chart geometry and SVG markup for the compare view's scatter plots: scales, tick
//! values and layout as pure functions, tested natively. The markup is built here as
//! a string (every text escaped), so the app only places it.

use std::fmt::Write as _;

use crate::decimal::{fixed, shortest};
use crate::html::escape;

/// A coordinate with one decimal, as the SVG is written.
fn one(v: f64) -> String {
    fixed(v, 1)
}

/// A point to plot: `label` is shown in its tooltip; `highlight` marks the compared GPUs.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    pub label: String,
    pub x: f64,
    pub y: f64,
    pub highlight: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scatter {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_log: bool,
    pub y_log: bool,
    pub points: Vec<Point>,
    /// Legend texts for plain and highlighted points.
    pub legend: (String, String),
}

/// Plot area inside the SVG's view box, in view-box units.
pub const WIDTH: f64 = 640.0;
pub const HEIGHT: f64 = 400.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 56.0;

/// Maps a data interval onto a pixel interval, linearly or logarithmically.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub domain: (f64, f64),
    pub range: (f64, f64),
    pub log: bool,
}

impl Scale {
    pub fn map(&self, v: f64) -> f64 {
        let t = |x: f64| {
            if self.log {
                x.max(f64::MIN_POSITIVE).log10()
            } else {
                x
            }
        };
        let (d0, d1) = (t(self.domain.0), t(self.domain.1));
        let span = if d1 - d0 == 0.0 { 1.0 } else { d1 - d0 };
        self.range.0 + (t(v) - d0) / span * (self.range.1 - self.range.0)
    }
}

/// Round tick values covering [min, max]: 1-2-5 steps on a linear axis, powers of ten
/// (with 2 and 5 between when the span is short) on a log axis.
pub fn ticks(min: f64, max: f64, log: bool) -> Vec<f64> {
    if !(min.is_finite() && max.is_finite()) || max < min {
        return Vec::new();
    }
    if log {
        let lo = min.max(f64::MIN_POSITIVE).log10().floor() as i32;
        let hi = max.max(f64::MIN_POSITIVE).log10().ceil() as i32;
        let decades = max.log10() - min.max(f64::MIN_POSITIVE).log10();
        let mantissas: &[f64] = if decades <= 2.0 {
            &[1.0, 2.0, 5.0]
        } else {
            &[1.0]
        };
        let mut out = Vec::new();
        for e in lo..=hi {
            for m in mantissas {
                let v = m * 10f64.powi(e);
                if v >= min * 0.999 && v <= max * 1.001 {
                    out.push(v);
                }
            }
        }
        return out;
    }
    let span = (max - min).max(f64::EPSILON);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| span / s <= 6.0)
        .unwrap_or(10.0 * magnitude);
    let mut v = (min / step).ceil() * step;
    let mut out = Vec::new();
    while v <= max + step * 1e-9 {
        out.push(if v.abs() < step * 1e-9 { 0.0 } else { v });
        v += step;
    }
    out
}

/// Domain padded so points do not sit on the frame; log domains stay positive.
pub fn domain(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (mut lo, mut hi) = values
        .filter(|v| v.is_finite() && (!log || *v > 0.0))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !lo.is_finite() {
        return (1.0, 10.0);
    }
    if log {
        lo /= 1.3;
        hi *= 1.3;
    } else {
        let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.05).max(1e-9);
        lo = (lo - pad).max(if lo >= 0.0 { 0.0 } else { f64::NEG_INFINITY });
        hi += pad;
    }
    (lo, hi)
}

/// Short tick label: 1500 → "1.5k", 2000000 → "2M".
pub fn tick_label(v: f64) -> String {
    let (x, suffix) = if v.abs() >= 1e6 {
        (v / 1e6, "M")
    } else if v.abs() >= 1e3 {
        (v / 1e3, "k")
    } else {
        (v, "")
    };
    let text = if (x - x.round()).abs() < 1e-9 {
        shortest(x.round())
    } else if x.abs() >= 10.0 {
        fixed(x, 0)
    } else {
        fixed(x, 1)
    };
    format!("{text}{suffix}")
}

/// A compared GPU's name beside its point: `x` is where the text starts, or ends when it
/// runs `leftwards`; `y` is its baseline.
struct Label<'a> {
    x: f64,
    y: f64,
    leftwards: bool,
    text: &'a str,
}

/// Line height of a point label (12 px text, `.pt-label` in `style/views.css`) and the
/// width of one of its characters, generous for bold Latin and CJK alike.
const LABEL_LINE: f64 = 14.0;
const LABEL_CHAR: f64 = 7.5;

impl Label<'_> {
    /// The label's horizontal extent.
    fn span(&self) -> (f64, f64) {
        let width = self.text.chars().count() as f64 * LABEL_CHAR;
        if self.leftwards {
            (self.x - width, self.x)
        } else {
            (self.x, self.x + width)
        }
    }
}

/// Moves labels down, top to bottom, until none overlaps a label above it: compared GPUs
/// with equal memory or similar speed and price otherwise print their names on one line.
fn separate(labels: &mut [Label]) {
    crate::order::sort_by(labels, |a, b| a.y.total_cmp(&b.y));
    for i in 1..labels.len() {
        loop {
            let (a0, a1) = labels[i].span();
            let clash = labels[..i].iter().any(|o| {
                let (b0, b1) = o.span();
                a0 < b1 && b0 < a1 && (labels[i].y - o.y).abs() < LABEL_LINE
            });
            if !clash {
                break;
            }
            labels[i].y += LABEL_LINE;
        }
    }
}

/// The scatter plot as an SVG element: axes with ticks and labels, a legend, and one
/// circle per point whose `<title>` is its hover tooltip.
pub fn scatter_svg(chart: &Scatter) -> String {
    let xs = Scale {
        domain: domain(chart.points.iter().map(|p| p.x), chart.x_log),
        range: (LEFT, WIDTH - RIGHT),
        log: chart.x_log,
    };
    let ys = Scale {
        domain: domain(chart.points.iter().map(|p| p.y), chart.y_log),
        range: (HEIGHT - BOTTOM, TOP),
        log: chart.y_log,
    };
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}"><title>{}</title>"#,
        shortest(WIDTH),
        shortest(HEIGHT),
        escape(&chart.title),
        escape(&chart.title)
    );
    let (x0, x1) = (xs.range.0, xs.range.1);
    let (y0, y1) = (ys.range.0, ys.range.1);
    let _ = write!(svg, r#"<g class="grid">"#);
    for t in ticks(xs.domain.0, xs.domain.1, xs.log) {
        let x = xs.map(t);
        let _ = write!(
            svg,
            r#"<line x1="{x}" x2="{x}" y1="{}" y2="{}"/><text class="tick" x="{x}" y="{}" text-anchor="middle">{}</text>"#,
            one(y1),
            one(y0),
            one(y0 + 16.0),
            tick_label(t),
            x = one(x),
        );
    }
    for t in ticks(ys.domain.0, ys.domain.1, ys.log) {
        let y = ys.map(t);
        let _ = write!(
            svg,
            r#"<line x1="{}" x2="{}" y1="{y}" y2="{y}"/><text class="tick" x="{}" y="{}" text-anchor="end">{}</text>"#,
            one(x0),
            one(x1),
            one(x0 - 6.0),
            one(y + 4.0),
            tick_label(t),
            y = one(y),
        );
    }
    let _ = write!(svg, "</g>");
    let _ = write!(
        svg,
        r#"<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
        one((x0 + x1) / 2.0),
        one(HEIGHT - 12.0),
        escape(&chart.x_label)
    );
    let _ = write!(
        svg,
        r#"<text class="axis-label" transform="translate(16 {}) rotate(-90)" text-anchor="middle">{}</text>"#,
        one((y0 + y1) / 2.0),
        escape(&chart.y_label)
    );
    // Plain points first so the highlighted ones are drawn on top.
    let mut points: Vec<&Point> = chart
        .points
        .iter()
        .filter(|p| p.x.is_finite() && p.y.is_finite())
        .collect();
    crate::order::sort_by_key(&mut points, |p| p.highlight);
    let mut labels = Vec::new();
    for p in points {
        if (chart.x_log && p.x <= 0.0) || (chart.y_log && p.y <= 0.0) {
            continue;
        }
        let class = if p.highlight { "pt hl" } else { "pt" };
        let r = if p.highlight { "6.5" } else { "4" };
        let _ = write!(
            svg,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{r}"><title>{}: {}, {}</title></circle>"#,
            one(xs.map(p.x)),
            one(ys.map(p.y)),
            escape(&p.label),
            tick_label(p.x),
            tick_label(p.y)
        );
        if p.highlight {
            // Labels on the right half of the plot run leftwards so they stay inside it.
            let x = xs.map(p.x);
            let dx = if x > (x0 + x1) / 2.0 { -8.0 } else { 8.0 };
            labels.push(Label {
                x: x + dx,
                y: ys.map(p.y) - 8.0,
                leftwards: dx < 0.0,
                text: &p.label,
            });
        }
    }
    // Labels drawn over the points, moved apart where compared GPUs sit close together.
    separate(&mut labels);
    for l in &labels {
        let anchor = if l.leftwards { "end" } else { "start" };
        let _ = write!(
            svg,
            r#"<text class="pt-label" x="{}" y="{}" text-anchor="{anchor}">{}</text>"#,
            one(l.x),
            one(l.y),
            escape(l.text)
        );
    }
    let _ = write!(
        svg,
        r#"<g class="legend"><circle class="pt" cx="{}" cy="16" r="4"/><text x="{}" y="20">{}</text><circle class="pt hl" cx="{}" cy="16" r="6"/><text x="{}" y="20">{}</text></g></svg>"#,
        one(LEFT),
        one(LEFT + 10.0),
        escape(&chart.legend.0),
        one(LEFT + 200.0),
        one(LEFT + 212.0),
        escape(&chart.legend.1)
    );
    svg
}

/// The same data as an HTML table, the chart's text alternative for screen readers.
pub fn data_table(chart: &Scatter, name_header: &str) -> String {
    let mut html = format!(
        "<table class=\"chart-data\"><caption>{}</caption><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
        escape(&chart.title),
        escape(name_header),
        escape(&chart.x_label),
        escape(&chart.y_label)
    );
    for p in &chart.points {
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
            escape(&p.label),
            tick_label(p.x),
            tick_label(p.y)
        );
    }
    html.push_str("</tbody></table>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_use_round_steps_inside_the_domain() {
        assert_eq!(
            ticks(0.0, 100.0, false),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        let t = ticks(3.0, 47.0, false);
        assert!(t.iter().all(|v| (3.0..=47.0).contains(v)), "{t:?}");
        assert!(t.len() >= 3 && t.len() <= 7, "{t:?}");
    }

    #[test]
    fn log_ticks_are_powers_of_ten_over_wide_spans() {
        assert_eq!(
            ticks(5.0, 50_000.0, true),
            vec![10.0, 100.0, 1000.0, 10_000.0]
        );
        assert_eq!(
            ticks(8.0, 300.0, true),
            vec![10.0, 20.0, 50.0, 100.0, 200.0]
        );
    }

    #[test]
    fn ticks_of_an_empty_or_reversed_domain_are_empty() {
        assert!(ticks(5.0, 1.0, false).is_empty());
        assert!(ticks(f64::NAN, 1.0, true).is_empty());
    }

    #[test]
    fn scales_map_domain_ends_to_range_ends() {
        let s = Scale {
            domain: (10.0, 1000.0),
            range: (0.0, 200.0),
            log: true,
        };
        assert!((s.map(10.0) - 0.0).abs() < 1e-9);
        assert!((s.map(100.0) - 100.0).abs() < 1e-9);
        assert!((s.map(1000.0) - 200.0).abs() < 1e-9);
        let flipped = Scale {
            domain: (0.0, 10.0),
            range: (300.0, 100.0),
            log: false,
        };
        assert!((flipped.map(5.0) - 200.0).abs() < 1e-9);
    }

    #[test]
    fn domain_pads_and_keeps_log_axes_positive() {
        let (lo, hi) = domain([10.0, 100.0, -3.0, 0.0].into_iter(), true);
        assert!(lo > 0.0 && lo < 10.0 && hi > 100.0);
        let (lo, hi) = domain([2.0, 4.0].into_iter(), false);
        assert!(lo < 2.0 && hi > 4.0 && lo >= 0.0);
    }

    #[test]
    fn tick_labels_are_short() {
        assert_eq!(tick_label(1500.0), "1.5k");
        assert_eq!(tick_label(2_000_000.0), "2M");
        assert_eq!(tick_label(20.0), "20");
        assert_eq!(tick_label(0.5), "0.5");
    }

    #[test]
    fn svg_escapes_text_and_has_one_circle_per_point_plus_legend() {
        let chart = Scatter {
            title: "A <b>&</b>".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_log: true,
            y_log: false,
            points: vec![
                Point {
                    label: "<script>".into(),
                    x: 10.0,
                    y: 1.0,
                    highlight: true,
                },
                Point {
                    label: "b".into(),
                    x: 100.0,
                    y: 2.0,
                    highlight: false,
                },
                Point {
                    label: "skipped on a log axis".into(),
                    x: 0.0,
                    y: 2.0,
                    highlight: false,
                },
            ],
            legend: ("all".into(), "compared".into()),
        };
        let svg = scatter_svg(&chart);
        assert!(!svg.contains("<script>") && !svg.contains("<b>"));
        assert_eq!(svg.matches("<circle").count(), 2 + 2);
        assert!(svg.contains("<title>&lt;script&gt;: 10, 1</title>"));
        let table = data_table(&chart, "GPU");
        assert_eq!(table.matches("<tr>").count(), 1 + 3);
    }

    #[test]
    fn labels_of_points_at_one_spot_get_lines_of_their_own() {
        let point = |label: &str| Point {
            label: label.into(),
            x: 24.0,
            y: 1000.0,
            highlight: true,
        };
        let chart = Scatter {
            title: "t".into(),
            x_label: "x".into(),
            y_label: "y".into(),
            x_log: true,
            y_log: true,
            points: vec![point("RTX 4090"), point("RTX 3090"), point("RX 7900 XTX")],
            legend: ("all".into(), "compared".into()),
        };
        let svg = scatter_svg(&chart);
        let baselines: Vec<f64> = svg
            .split(r#"<text class="pt-label""#)
            .skip(1)
            .map(|t| {
                let y = t.split(r#"y=""#).nth(1).expect("y");
                y[..y.find('"').expect("quote")].parse().expect("number")
            })
            .collect();
        assert_eq!(baselines.len(), 3);
        for (i, a) in baselines.iter().enumerate() {
            for b in &baselines[i + 1..] {
                assert!((a - b).abs() >= LABEL_LINE, "labels overlap: {baselines:?}");
            }
        }
    }
}
