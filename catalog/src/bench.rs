//! Arithmetic of the in-page WebGPU benchmark: deterministic inputs, the CPU
//! reference, sizes that keep every dispatch short, statistics over timed batches,
//! and placing a measurement among the catalog. The WebGPU calls themselves live in
//! the app's `webgpu` module.

use crate::data::Catalog;

/// Longest a single dispatch may be predicted to take: 20× under Windows' 2 s GPU
/// reset timeout (TdrDelay).
pub const MAX_DISPATCH_S: f64 = 0.100;
/// Longest one submit (a timed batch) may be predicted to take.
pub const MAX_SUBMIT_S: f64 = 0.250;
/// Target length of one timed batch, long enough to dwarf timer resolution.
pub const TARGET_BATCH_S: f64 = 0.050;
/// Timed batches per kernel; the median is reported and the best as peak.
pub const BATCHES: usize = 5;
/// Matrix sizes tried, smallest first; all multiples of every kernel's tile (64).
pub const MATMUL_SIZES: [u32; 5] = [256, 512, 1024, 2048, 4096];
/// Size used to check every matmul kernel against the CPU before timing.
pub const VERIFY_N: u32 = 128;
/// Largest relative error accepted from an FP32 kernel.
pub const MAX_REL_ERROR: f64 = 1e-3;
/// Share of spec bandwidth WebGPU streaming kernels reach: an expectation from native
/// memcpy (about 87% of spec on an A100), widened downward for browser overheads.
pub const WEBGPU_BANDWIDTH_EFFICIENCY: (f64, f64) = (0.55, 0.90);
/// Share of FP32 peak that WGSL matmuls reach: 7% (shared-memory tiling) to 67%
/// (warp-tiled kernels) in published WebGPU measurements.
pub const WEBGPU_FP32_EFFICIENCY: (f64, f64) = (0.07, 0.67);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    Fp32Matmul,
    Fp16Matmul,
    BandwidthRead,
    BandwidthWrite,
    BandwidthCopy,
}

impl Kernel {
    pub fn as_str(self) -> &'static str {
        match self {
            Kernel::Fp32Matmul => "fp32-matmul",
            Kernel::Fp16Matmul => "fp16-matmul",
            Kernel::BandwidthRead => "bandwidth-read",
            Kernel::BandwidthWrite => "bandwidth-write",
            Kernel::BandwidthCopy => "bandwidth-copy",
        }
    }
    pub fn unit(self) -> &'static str {
        match self {
            Kernel::Fp32Matmul | Kernel::Fp16Matmul => "GFLOP/s",
            _ => "GB/s",
        }
    }
}

/// Deterministic inputs in [0, 1): a 32-bit linear congruential generator.
pub fn test_matrix(n: usize, seed: u32) -> Vec<f32> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..n * n)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

/// C = A × B on the CPU, in f64 for a trustworthy reference.
pub fn matmul_reference(a: &[f32], b: &[f32], n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut sum = 0.0f64;
            for k in 0..n {
                sum += f64::from(a[i * n + k]) * f64::from(b[k * n + j]);
            }
            c[i * n + j] = sum as f32;
        }
    }
    c
}

/// Largest |got − want| / max(|want|, 1e-6) over all elements; infinite on a length mismatch.
pub fn max_relative_error(got: &[f32], want: &[f32]) -> f64 {
    if got.len() != want.len() {
        return f64::INFINITY;
    }
    got.iter()
        .zip(want)
        .map(|(g, w)| {
            let (g, w) = (f64::from(*g), f64::from(*w));
            if g.is_finite() {
                (g - w).abs() / w.abs().max(1e-6)
            } else {
                f64::INFINITY
            }
        })
        .fold(0.0, f64::max)
}

pub fn matmul_flops(n: u32) -> f64 {
    2.0 * f64::from(n).powi(3)
}

/// The largest matrix size whose one dispatch is predicted under `MAX_DISPATCH_S` at the
/// rate the probe measured (FLOP/s), and never above the probe's size × 8 in work.
pub fn matmul_size(probe_flops_per_s: f64) -> u32 {
    MATMUL_SIZES
        .iter()
        .copied()
        .filter(|n| {
            probe_flops_per_s > 0.0 && matmul_flops(*n) / probe_flops_per_s <= MAX_DISPATCH_S
        })
        .max()
        .unwrap_or(MATMUL_SIZES[0])
}

/// Dispatches per timed batch so a batch lasts about `TARGET_BATCH_S` and never more
/// than `MAX_SUBMIT_S`, from the predicted time of one dispatch.
pub fn repeats(seconds_per_dispatch: f64) -> u32 {
    if seconds_per_dispatch.is_nan() || seconds_per_dispatch <= 0.0 {
        return 1;
    }
    let wanted = (TARGET_BATCH_S / seconds_per_dispatch).ceil();
    let cap = (MAX_SUBMIT_S / seconds_per_dispatch).floor().max(1.0);
    wanted.clamp(1.0, cap.min(1000.0)) as u32
}

/// Median and best (largest) of rates, and whether the last batch fell under 0.9× the best.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Summary {
    pub median: f64,
    pub best: f64,
    pub worst: f64,
    pub throttled: bool,
}

pub fn summarize(rates: &[f64]) -> Option<Summary> {
    let mut sorted: Vec<f64> = rates
        .iter()
        .copied()
        .filter(|r| r.is_finite() && *r > 0.0)
        .collect();
    if sorted.is_empty() {
        return None;
    }
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    };
    let best = sorted[sorted.len() - 1];
    let last = rates.last().copied().unwrap_or(best);
    Some(Summary {
        median,
        best,
        worst: sorted[0],
        throttled: last < 0.9 * best,
    })
}

/// Bytes per bandwidth buffer: working sets of at least 4× the largest GPU caches
/// (96 MB) want 256 MiB in all; each of the two buffers is capped by the binding limit.
pub fn bandwidth_buffer_bytes(max_binding_bytes: f64, max_buffer_bytes: f64) -> u64 {
    let wanted: f64 = 128.0 * 1024.0 * 1024.0;
    let cap = max_binding_bytes.min(max_buffer_bytes).max(16.0);
    // A whole number of vec4<f32> (16 bytes).
    ((wanted.min(cap) / 16.0).floor() * 16.0) as u64
}

/// A catalog GPU the measurement is consistent with, and how well.
#[derive(Debug, Clone, PartialEq)]
pub struct Match {
    pub gpu_id: String,
    /// 0–1: 1 when both measurements sit at the middle of their expected ranges.
    pub confidence: f64,
}

/// Catalog GPUs whose spec bandwidth (and FP32 rate, when measured) are consistent
/// with the measurement through the WebGPU efficiency ranges, best first.
pub fn place(catalog: &Catalog, bandwidth_gbs: f64, fp32_gflops: Option<f64>) -> Vec<Match> {
    let fit = |measured: f64, spec: f64, (lo, hi): (f64, f64)| -> Option<f64> {
        let eff = measured / spec;
        if eff < lo || eff > hi {
            return None;
        }
        // 1 at the geometric middle of the range, falling to 0 at its ends.
        let mid = (lo * hi).sqrt();
        let half = (hi / mid).ln();
        Some((1.0 - ((eff / mid).ln().abs() / half)).max(0.0))
    };
    let mut out: Vec<Match> = catalog
        .gpus
        .iter()
        .filter_map(|g| {
            let bw = fit(
                bandwidth_gbs,
                g.memory_bandwidth_gbs?,
                WEBGPU_BANDWIDTH_EFFICIENCY,
            )?;
            let confidence = match (fp32_gflops, g.fp32_tflops) {
                (Some(m), Some(spec)) => {
                    (bw * fit(m, spec * 1000.0, WEBGPU_FP32_EFFICIENCY)?).sqrt()
                }
                _ => bw * 0.8,
            };
            Some(Match {
                gpu_id: g.id.clone(),
                confidence,
            })
        })
        .collect();
    out.sort_by(|a, b| {
        b.confidence
            .total_cmp(&a.confidence)
            .then(a.gpu_id.cmp(&b.gpu_id))
    });
    out.truncate(5);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_matmul_matches_a_hand_computed_product() {
        let a = [1.0, 2.0, 3.0, 4.0];
        let b = [5.0, 6.0, 7.0, 8.0];
        assert_eq!(matmul_reference(&a, &b, 2), vec![19.0, 22.0, 43.0, 50.0]);
    }

    #[test]
    fn relative_error_flags_wrong_and_non_finite_results() {
        let want = [1.0, 2.0];
        assert!(max_relative_error(&[1.0, 2.0005], &want) < MAX_REL_ERROR);
        assert!(max_relative_error(&[1.0, 2.1], &want) > MAX_REL_ERROR);
        assert!(max_relative_error(&[f32::NAN, 2.0], &want).is_infinite());
        assert!(max_relative_error(&[1.0], &want).is_infinite());
    }

    #[test]
    fn test_matrices_are_deterministic_and_in_unit_range() {
        let m = test_matrix(16, 7);
        assert_eq!(m, test_matrix(16, 7));
        assert_ne!(m, test_matrix(16, 8));
        assert!(m.iter().all(|x| (0.0..1.0).contains(x)));
    }

    #[test]
    fn matmul_size_keeps_one_dispatch_under_the_limit() {
        // SwiftShader-like 0.3 GFLOP/s: only the smallest size.
        assert_eq!(matmul_size(0.3e9), 256);
        // 10 TFLOP/s: 4096³ takes 14 ms.
        assert_eq!(matmul_size(10e12), 4096);
        for rate in [1e9, 5e10, 3e11, 2e12] {
            let n = matmul_size(rate);
            assert!(matmul_flops(n) / rate <= MAX_DISPATCH_S || n == MATMUL_SIZES[0]);
        }
        assert_eq!(matmul_size(0.0), 256);
    }

    #[test]
    fn repeats_fill_a_batch_without_exceeding_a_submit() {
        assert_eq!(repeats(0.001), 50);
        assert_eq!(repeats(0.2), 1);
        assert!(f64::from(repeats(0.03)) * 0.03 <= MAX_SUBMIT_S);
        assert_eq!(repeats(f64::NAN), 1);
    }

    #[test]
    fn summary_reports_median_best_and_throttling() {
        let s = summarize(&[10.0, 12.0, 11.0, 12.5, 9.0]).expect("summary");
        assert_eq!(s.median, 11.0);
        assert_eq!(s.best, 12.5);
        assert!(s.throttled, "last batch 9 < 0.9 × 12.5");
        assert!(!summarize(&[10.0, 10.5, 10.2]).expect("summary").throttled);
        assert_eq!(summarize(&[]), None);
    }

    #[test]
    fn bandwidth_buffers_respect_limits_and_vec4_alignment() {
        assert_eq!(bandwidth_buffer_bytes(1e12, 1e12), 128 * 1024 * 1024);
        let small = bandwidth_buffer_bytes(1000.0, 1e9);
        assert!(small <= 1000 && small % 16 == 0);
    }

    #[test]
    fn a_measurement_places_near_cards_of_that_bandwidth() {
        let catalog = Catalog::embedded();
        // 0.75 × an RTX 4090's 1008 GB/s, and 30% of its 82.6 TFLOPS.
        let matches = place(catalog, 756.0, Some(24_800.0));
        assert!(!matches.is_empty());
        assert!(
            matches.iter().any(|m| m.gpu_id == "rtx-4090"),
            "{matches:?}"
        );
        assert!(matches
            .windows(2)
            .all(|w| w[0].confidence >= w[1].confidence));
        // Far below every GPU in the catalog: nothing is claimed.
        assert!(place(catalog, 1.0, None).is_empty());
    }
}
