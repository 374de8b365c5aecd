//! Arithmetic of the in-page WebGPU benchmark: deterministic inputs, the CPU
//! reference, sizes that keep every dispatch short, statistics over timed batches,
//! and placing a measurement among the catalog. The WebGPU calls themselves live in
//! the app's `webgpu` module.

pub mod report;

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
/// Matrix sizes tried, smallest first; all multiples of every kernel's tile (128).
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
    pub const ALL: [Kernel; 5] = [
        Kernel::Fp32Matmul,
        Kernel::Fp16Matmul,
        Kernel::BandwidthRead,
        Kernel::BandwidthWrite,
        Kernel::BandwidthCopy,
    ];

    pub fn parse(s: &str) -> Option<Kernel> {
        Kernel::ALL.into_iter().find(|k| k.as_str() == s)
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
    crate::order::sort_by(&mut sorted, f64::total_cmp);
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

/// Bytes per bandwidth buffer: 256 MiB where the limits allow, so the read and write
/// kernels stream 256 MiB and the copy kernel 512 MiB, several times any GPU's
/// last-level cache but the largest (an RTX 4090 has 72 MB of L2, an RX 7900 XTX 96 MB
/// of Infinity Cache). Each buffer is capped by the adapter's binding and buffer limits.
pub fn bandwidth_buffer_bytes(max_binding_bytes: f64, max_buffer_bytes: f64) -> u64 {
    let wanted: f64 = 256.0 * 1024.0 * 1024.0;
    let cap = max_binding_bytes.min(max_buffer_bytes).max(16.0);
    // A whole number of vec4<f32> (16 bytes).
    ((wanted.min(cap) / 16.0).floor() * 16.0) as u64
}

/// Bytes of each buffer the bandwidth probe covers before the working set is sized.
pub const BANDWIDTH_PROBE_BYTES: u64 = 16 * 1024 * 1024;

/// Bytes of the buffers one timed bandwidth dispatch covers: all of them, unless the
/// probe (bytes covered per second) predicts a dispatch over `MAX_DISPATCH_S`, as on a
/// software renderer; never under the probe's own size, and a whole number of vec4s.
pub fn bandwidth_bytes(probe_bytes_per_s: f64, allocated: u64) -> u64 {
    let floor = BANDWIDTH_PROBE_BYTES.min(allocated);
    if probe_bytes_per_s.is_nan() || probe_bytes_per_s <= 0.0 {
        return floor / 16 * 16;
    }
    let fits = (probe_bytes_per_s * MAX_DISPATCH_S).min(allocated as f64) as u64;
    fits.max(floor) / 16 * 16
}

/// Largest relative error accepted from the FP16 kernel. Its inputs are multiples of
/// 1/8, so products are exact in FP16 and sums up to 32 are exact; error only comes
/// from the few sums that pass 32 (spacing 1/32), under 1e-3.
pub const MAX_REL_ERROR_F16: f64 = 1e-2;

/// Inputs for the FP16 check: `test_matrix` rounded down to multiples of 1/8, which
/// FP16 holds exactly.
pub fn test_matrix_f16(n: usize, seed: u32) -> Vec<f32> {
    test_matrix(n, seed)
        .into_iter()
        .map(|x| (x * 8.0).floor() / 8.0)
        .collect()
}

/// The line that makes a matmul kernel's element type switchable.
pub const SCALAR_ALIAS: &str = "alias scalar = f32;";

/// The FP16 form of a matmul kernel written over `alias scalar = f32;`: the same code
/// with `scalar` as f16 and the `enable f16;` directive WGSL requires first. `None` if
/// the kernel has no such alias.
pub fn f16_kernel(f32_source: &str) -> Option<String> {
    f32_source.contains(SCALAR_ALIAS).then(|| {
        format!(
            "enable f16;\n{}",
            f32_source.replace(SCALAR_ALIAS, "alias scalar = f16;")
        )
    })
}

/// The IEEE 754 half-precision bits nearest to `x` (ties to even), for uploading FP16
/// matrices: WebGPU takes raw bytes and Rust has no stable `f16`.
pub fn f16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exp = ((bits >> 23) & 0xff) as i32;
    let man = bits & 0x7f_ffff;
    if exp == 0xff {
        // Infinity stays infinity; NaN stays a (quiet) NaN.
        return sign | 0x7c00 | if man != 0 { 0x200 } else { 0 };
    }
    let round = |value: u32, shift: u32| -> u32 {
        let rest = value & ((1 << shift) - 1);
        let half = 1 << (shift - 1);
        let kept = value >> shift;
        kept + u32::from(rest > half || (rest == half && kept & 1 == 1))
    };
    let e = exp - 127 + 15;
    if e >= 0x1f {
        return sign | 0x7c00;
    }
    if e <= 0 {
        // Subnormal in FP16: value = m × 2^-24, with the implicit leading 1 made explicit.
        if e < -10 {
            return sign;
        }
        return sign | round(man | 0x80_0000, (14 - e) as u32) as u16;
    }
    // A carry out of the mantissa correctly bumps the exponent (up to infinity).
    sign | round(((e as u32) << 23) | man, 13) as u16
}

/// Whether a bandwidth measured in the browser is one a card of this datasheet bandwidth
/// measures (`WEBGPU_BANDWIDTH_EFFICIENCY`). A figure outside the range was most likely
/// measured on another GPU (an integrated one the browser chose) or a different part.
pub fn bandwidth_consistent(spec_gbs: f64, measured_gbs: f64) -> bool {
    let (lo, hi) = WEBGPU_BANDWIDTH_EFFICIENCY;
    spec_gbs > 0.0 && (lo..=hi).contains(&(measured_gbs / spec_gbs))
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
    crate::order::sort_by(&mut out, |a, b| {
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
    fn a_bandwidth_is_consistent_only_within_webgpus_share_of_the_datasheet() {
        // An RTX 3090's 936 GB/s: 515–842 GB/s in a browser.
        assert!(bandwidth_consistent(936.0, 600.0));
        assert!(bandwidth_consistent(936.0, 936.0 * 0.55));
        assert!(!bandwidth_consistent(936.0, 1.7), "SwiftShader's figure");
        assert!(
            !bandwidth_consistent(936.0, 900.0),
            "above any browser's share"
        );
        assert!(!bandwidth_consistent(0.0, 600.0), "no datasheet figure");
    }

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
        assert_eq!(bandwidth_buffer_bytes(1e12, 1e12), 256 * 1024 * 1024);
        // WebGPU's default binding limit, when the adapter offers no more.
        assert_eq!(
            bandwidth_buffer_bytes(134_217_728.0, 268_435_456.0),
            128 * 1024 * 1024
        );
        let small = bandwidth_buffer_bytes(1000.0, 1e9);
        assert!(small <= 1000 && small % 16 == 0);
    }

    #[test]
    fn bandwidth_dispatches_shrink_only_when_the_probe_is_slow() {
        let all = 256 * 1024 * 1024;
        // 500 GB/s covers 256 MiB in 0.5 ms: the whole working set.
        assert_eq!(bandwidth_bytes(500e9, all), all);
        // A software renderer at 1.5 GB/s: 150 MB keeps a dispatch at 100 ms.
        let slow = bandwidth_bytes(1.5e9, all);
        assert!(slow < all && slow % 16 == 0);
        assert!(slow as f64 / 1.5e9 <= MAX_DISPATCH_S);
        // Never below the probe's own size, whatever the probe said.
        assert_eq!(bandwidth_bytes(1.0, all), BANDWIDTH_PROBE_BYTES);
        assert_eq!(bandwidth_bytes(f64::NAN, all), BANDWIDTH_PROBE_BYTES);
        assert_eq!(bandwidth_bytes(1e12, 4096), 4096);
    }

    #[test]
    fn the_f16_kernel_changes_only_the_alias() {
        let source = "// x\nalias scalar = f32;\nvar<storage> c: array<f32>;\n";
        assert_eq!(
            f16_kernel(source).as_deref(),
            Some("enable f16;\n// x\nalias scalar = f16;\nvar<storage> c: array<f32>;\n")
        );
        assert_eq!(f16_kernel("var x: f32;"), None);
    }

    #[test]
    fn f16_conversion_rounds_to_nearest_even() {
        assert_eq!(f16_bits(1.0), 0x3c00);
        assert_eq!(f16_bits(0.5), 0x3800);
        assert_eq!(f16_bits(-2.0), 0xc000);
        assert_eq!(f16_bits(0.0), 0x0000);
        assert_eq!(f16_bits(-0.0), 0x8000);
        assert_eq!(f16_bits(0.1), 0x2e66);
        assert_eq!(f16_bits(65504.0), 0x7bff, "largest finite half");
        assert_eq!(
            f16_bits(65520.0),
            0x7c00,
            "ties to even overflow to infinity"
        );
        assert_eq!(f16_bits(f32::INFINITY), 0x7c00);
        assert_eq!(f16_bits(f32::NAN) & 0x7e00, 0x7e00);
        assert_eq!(f16_bits(2f32.powi(-24)), 0x0001, "smallest subnormal");
        assert_eq!(f16_bits(2f32.powi(-26)), 0x0000);
        assert_eq!(f16_bits(2f32.powi(-14)), 0x0400, "smallest normal");
        // 1 + 2^-11 is halfway between 1 and the next half: ties to even (1.0).
        assert_eq!(f16_bits(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f16_bits(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    }

    #[test]
    fn f16_test_inputs_are_exact_in_half_precision() {
        for x in test_matrix_f16(32, 3) {
            let bits = f16_bits(x);
            let exp = i32::from((bits >> 10) & 0x1f) - 15;
            let man = f32::from(bits & 0x3ff) / 1024.0;
            let back = if bits & 0x7c00 == 0 {
                man * 2f32.powi(-14)
            } else {
                (1.0 + man) * 2f32.powi(exp)
            };
            assert_eq!(back, x);
        }
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
