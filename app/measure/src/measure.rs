//! The measurement itself: adapter, device, kernels, verification and timing.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use catalog::bench::report::{AdapterInfo, KernelResult, Outcome, Progress, Timing};
use catalog::bench::{self, Kernel, Summary};
use js_sys::{Array, Float32Array, Object, Reflect, Uint32Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use web::JsError;
use web_sys::{
    gpu_buffer_usage as usage, gpu_map_mode, GpuAdapter, GpuAutoLayoutMode, GpuBindGroup,
    GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBuffer, GpuBufferDescriptor,
    GpuComputePassDescriptor, GpuComputePassTimestampWrites, GpuComputePipeline,
    GpuComputePipelineDescriptor, GpuDevice, GpuDeviceDescriptor, GpuErrorFilter,
    GpuPowerPreference, GpuProgrammableStage, GpuQuerySet, GpuQuerySetDescriptor, GpuQueryType,
    GpuRequestAdapterOptions, GpuShaderModuleDescriptor,
};

/// A JavaScript error's message (`web::JsError`), for the run's errors.
fn js_error(e: impl AsRef<JsValue>) -> String {
    JsError::from(e.as_ref()).to_string()
}

const MATMUL_32: &str = include_str!("matmul_32.wgsl");
const MATMUL_128: &str = include_str!("matmul_128.wgsl");
const BANDWIDTH: &str = include_str!("bandwidth.wgsl");
/// Warm-up before timing a kernel, to let clocks ramp up.
const WARM_UP_MS: f64 = 300.0;
/// Workgroups of the grid-stride bandwidth kernels (256 invocations each).
const BANDWIDTH_WORKGROUPS: u32 = 4096;

/// A matmul kernel variant: its label, WGSL (over `alias scalar = f32;` where it has an
/// FP16 form) and output tile edge.
struct Variant {
    label: &'static str,
    code: &'static str,
    tile: u32,
}

const FP32_VARIANTS: [Variant; 2] = [
    Variant {
        label: "32x32 tile, 4x4 per invocation, vec4 loads",
        code: MATMUL_32,
        tile: 32,
    },
    Variant {
        label: "128x128 tile, 8x8 per invocation, vec4 loads",
        code: MATMUL_128,
        tile: 128,
    },
];

/// Run with `bench::f16_kernel` applied to the code.
const FP16_VARIANTS: [Variant; 1] = [Variant {
    label: "128x128 tile, 8x8 per invocation, vec4<f16> loads, shader cores (no tensor cores)",
    code: MATMUL_128,
    tile: 128,
}];

async fn wait<T>(promise: js_sys::Promise<T>) -> Result<JsValue, String> {
    let promise: js_sys::Promise = promise.unchecked_into();
    JsFuture::from(promise).await.map_err(js_error)
}

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

async fn sleep(ms: u32) {
    gloo_timers::future::TimeoutFuture::new(ms).await;
}

/// Waits while the tab is hidden: a background tab's timings mean nothing.
async fn while_hidden() {
    while web_sys::window()
        .and_then(|w| w.document())
        .is_some_and(|d| d.hidden())
    {
        sleep(250).await;
    }
}

/// GPU timestamps around each timed pass: a two-entry query set, resolved into a
/// buffer and copied out for reading.
struct Timestamps {
    set: GpuQuerySet,
    resolved: GpuBuffer,
    readback: GpuBuffer,
    /// Set once the GPU returned an unusable pair; wall clock from then on.
    failed: Cell<bool>,
}

struct Bench {
    device: GpuDevice,
    lost: Rc<RefCell<Option<String>>>,
    buffers: Vec<GpuBuffer>,
    /// Latency of an empty submit, subtracted from every wall-clock batch.
    idle_ms: f64,
    timestamps: Option<Timestamps>,
}

/// One timed batch: milliseconds and how they were measured.
struct Batch {
    ms: f64,
    timing: Timing,
}

impl Bench {
    fn check_lost(&self) -> Result<(), String> {
        match self.lost.borrow().as_ref() {
            Some(m) => Err(format!("the GPU device was lost: {m}")),
            None => Ok(()),
        }
    }

    fn buffer(&mut self, bytes: u64, flags: u32) -> Result<GpuBuffer, String> {
        let desc = GpuBufferDescriptor::new(0, flags);
        desc.set_size_f64(bytes as f64);
        let buffer = self.device.create_buffer(&desc).map_err(js_error)?;
        self.buffers.push(buffer.clone());
        Ok(buffer)
    }

    fn upload_bytes(&mut self, bytes: &[u8]) -> Result<GpuBuffer, String> {
        let buffer = self.buffer(bytes.len() as u64, usage::STORAGE | usage::COPY_DST)?;
        self.device
            .queue()
            .write_buffer_with_u32_and_u8_slice(&buffer, 0, bytes)
            .map_err(js_error)?;
        Ok(buffer)
    }

    fn uniform(&mut self, words: &[u32]) -> Result<GpuBuffer, String> {
        let mut bytes: Vec<u8> = words.iter().flat_map(|x| x.to_le_bytes()).collect();
        bytes.resize(16, 0);
        let buffer = self.buffer(16, usage::UNIFORM | usage::COPY_DST)?;
        self.device
            .queue()
            .write_buffer_with_u32_and_u8_slice(&buffer, 0, &bytes)
            .map_err(js_error)?;
        Ok(buffer)
    }

    fn enable_timestamps(&mut self) -> Result<(), String> {
        let set = self
            .device
            .create_query_set(&GpuQuerySetDescriptor::new(2, GpuQueryType::Timestamp))
            .map_err(js_error)?;
        let resolved = self.buffer(16, usage::QUERY_RESOLVE | usage::COPY_SRC)?;
        let readback = self.buffer(16, usage::MAP_READ | usage::COPY_DST)?;
        self.timestamps = Some(Timestamps {
            set,
            resolved,
            readback,
            failed: Cell::new(false),
        });
        Ok(())
    }

    async fn pipeline(&self, code: &str, entry: &str) -> Result<GpuComputePipeline, String> {
        self.device.push_error_scope(GpuErrorFilter::Validation);
        let module = self
            .device
            .create_shader_module(&GpuShaderModuleDescriptor::new(code));
        let stage = GpuProgrammableStage::new(&module);
        stage.set_entry_point(entry);
        let desc = GpuComputePipelineDescriptor::new_with_gpu_auto_layout_mode(
            GpuAutoLayoutMode::Auto,
            &stage,
        );
        let pipeline = wait(self.device.create_compute_pipeline_async(&desc)).await;
        let scope = wait(self.device.pop_error_scope()).await?;
        if !scope.is_null() && !scope.is_undefined() {
            return Err(js_error(scope));
        }
        Ok(pipeline?.unchecked_into())
    }

    /// A bind group of (binding, buffer) pairs. With `layout: "auto"` a pipeline's layout
    /// holds only the bindings its entry point uses, so each kernel binds just those.
    fn bind(&self, pipeline: &GpuComputePipeline, buffers: &[(u32, &GpuBuffer)]) -> GpuBindGroup {
        let entries: Vec<GpuBindGroupEntry> = buffers
            .iter()
            .map(|(i, b)| GpuBindGroupEntry::new_with_gpu_buffer(*i, b))
            .collect();
        self.device.create_bind_group(&GpuBindGroupDescriptor::new(
            &entries,
            &pipeline.get_bind_group_layout(0),
        ))
    }

    /// Submits `repeats` dispatches in one pass and waits for them. With `timed` and
    /// timestamps available, the pass is timed on the GPU; otherwise by the wall clock
    /// less the latency of an empty submit.
    async fn run(
        &self,
        pipeline: &GpuComputePipeline,
        group: &GpuBindGroup,
        grid: (u32, u32),
        repeats: u32,
        timed: bool,
    ) -> Result<Batch, String> {
        self.check_lost()?;
        let stamps = self
            .timestamps
            .as_ref()
            .filter(|t| timed && !t.failed.get());
        let encoder = self.device.create_command_encoder();
        let desc = GpuComputePassDescriptor::new();
        if let Some(t) = stamps {
            let writes = GpuComputePassTimestampWrites::new(&t.set);
            writes.set_beginning_of_pass_write_index(0);
            writes.set_end_of_pass_write_index(1);
            desc.set_timestamp_writes(&writes);
        }
        let pass = encoder.begin_compute_pass_with_descriptor(&desc);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, Some(group));
        for _ in 0..repeats {
            pass.dispatch_workgroups_with_workgroup_count_y(grid.0, grid.1);
        }
        pass.end();
        if let Some(t) = stamps {
            encoder.resolve_query_set_with_u32(&t.set, 0, 2, &t.resolved, 0);
            encoder
                .copy_buffer_to_buffer_with_u32_and_u32_and_u32(&t.resolved, 0, &t.readback, 0, 16)
                .map_err(js_error)?;
        }
        let start = now();
        self.device.queue().submit(&[encoder.finish()]);
        wait(self.device.queue().on_submitted_work_done()).await?;
        let wall = Batch {
            ms: (now() - start - self.idle_ms).max(0.001),
            timing: Timing::WallClock,
        };
        self.check_lost()?;
        let Some(t) = stamps else {
            return Ok(wall);
        };
        wait(t.readback.map_async(gpu_map_mode::READ)).await?;
        let range = t.readback.get_mapped_range().map_err(js_error)?;
        let words = Uint32Array::new(&range).to_vec();
        t.readback.unmap();
        // Two little-endian u64 nanosecond counters.
        let tick = |i: usize| f64::from(words[i]) + f64::from(words[i + 1]) * 4_294_967_296.0;
        let ns = tick(2) - tick(0);
        if ns > 0.0 && ns.is_finite() {
            Ok(Batch {
                ms: ns / 1e6,
                timing: Timing::GpuTimestamps,
            })
        } else {
            // Some drivers return zeros: trust the wall clock instead, from now on.
            t.failed.set(true);
            Ok(wall)
        }
    }

    async fn read_back(&mut self, source: &GpuBuffer, bytes: u64) -> Result<Vec<f32>, String> {
        let staging = self.buffer(bytes, usage::MAP_READ | usage::COPY_DST)?;
        let encoder = self.device.create_command_encoder();
        encoder
            .copy_buffer_to_buffer_with_f64_and_f64_and_f64(
                source,
                0.0,
                &staging,
                0.0,
                bytes as f64,
            )
            .map_err(js_error)?;
        self.device.queue().submit(&[encoder.finish()]);
        wait(staging.map_async(gpu_map_mode::READ)).await?;
        let range = staging.get_mapped_range().map_err(js_error)?;
        let out = Float32Array::new(&range).to_vec();
        staging.unmap();
        Ok(out)
    }

    /// Times `repeats`-dispatch batches after a warm-up; rates in units per second given
    /// the work of one dispatch. The timing is the one the last batch used.
    async fn time(
        &self,
        pipeline: &GpuComputePipeline,
        group: &GpuBindGroup,
        grid: (u32, u32),
        repeats: u32,
        work: f64,
    ) -> Result<(Summary, Timing), String> {
        let warm_start = now();
        while now() - warm_start < WARM_UP_MS {
            self.run(pipeline, group, grid, repeats.max(1), false)
                .await?;
        }
        let mut rates = Vec::new();
        let mut timing = Timing::WallClock;
        for _ in 0..bench::BATCHES {
            while_hidden().await;
            let batch = self.run(pipeline, group, grid, repeats, true).await?;
            rates.push(work * f64::from(repeats) / (batch.ms / 1000.0));
            timing = batch.timing;
            sleep(0).await;
        }
        let summary = bench::summarize(&rates).ok_or_else(|| "no valid timing".to_string())?;
        Ok((summary, timing))
    }

    fn destroy(&self) {
        for b in &self.buffers {
            b.destroy();
        }
        if let Some(t) = &self.timestamps {
            t.set.destroy();
        }
        self.device.destroy();
    }
}

async fn adapter() -> Result<Option<GpuAdapter>, String> {
    let navigator = web_sys::window().ok_or("no window")?.navigator();
    let gpu = Reflect::get(&navigator, &"gpu".into()).map_err(js_error)?;
    if gpu.is_undefined() || gpu.is_null() {
        return Ok(None);
    }
    let options = GpuRequestAdapterOptions::new();
    options.set_power_preference(GpuPowerPreference::HighPerformance);
    let adapter = wait(navigator.gpu().request_adapter_with_options(&options)).await?;
    Ok((!adapter.is_null() && !adapter.is_undefined()).then(|| adapter.unchecked_into()))
}

fn describe(adapter: &GpuAdapter) -> AdapterInfo {
    let info = adapter.info();
    let architecture = info.architecture();
    AdapterInfo {
        software: info.is_fallback_adapter() || architecture.contains("swiftshader"),
        vendor: info.vendor(),
        architecture,
        shader_f16: adapter.features().has("shader-f16"),
    }
}

/// Runs the whole benchmark, reporting progress as it goes.
pub async fn run(progress: impl Fn(Progress)) -> Outcome {
    let adapter = match adapter().await {
        Ok(Some(a)) => a,
        Ok(None) => return Outcome::Unsupported,
        Err(message) => {
            return Outcome::Error {
                adapter: None,
                message,
            }
        }
    };
    let info = describe(&adapter);
    let mut kernels = vec![Kernel::Fp32Matmul];
    if info.shader_f16 {
        kernels.push(Kernel::Fp16Matmul);
    }
    kernels.extend([
        Kernel::BandwidthRead,
        Kernel::BandwidthWrite,
        Kernel::BandwidthCopy,
    ]);
    let total = kernels.len() as u32 + 1;
    progress(Progress::Step {
        stage: "device".into(),
        index: 1,
        total,
    });
    let limits = adapter.limits();
    let buffer_bytes = bench::bandwidth_buffer_bytes(
        limits.max_storage_buffer_binding_size(),
        limits.max_buffer_size(),
    );
    let timestamps = adapter.features().has("timestamp-query");
    let desc = GpuDeviceDescriptor::new();
    let required = Object::new();
    for limit in ["maxStorageBufferBindingSize", "maxBufferSize"] {
        let _ = Reflect::set(&required, &limit.into(), &(buffer_bytes as f64).into());
    }
    let _ = Reflect::set(&desc, &"requiredLimits".into(), &required);
    let features = Array::new();
    if timestamps {
        features.push(&"timestamp-query".into());
    }
    if info.shader_f16 {
        features.push(&"shader-f16".into());
    }
    let _ = Reflect::set(&desc, &"requiredFeatures".into(), &features);
    let device: GpuDevice = match wait(adapter.request_device_with_descriptor(&desc)).await {
        Ok(d) => d.unchecked_into(),
        Err(message) => {
            return Outcome::Error {
                adapter: Some(info),
                message: format!("the GPU device could not be created: {message}"),
            }
        }
    };
    let lost = Rc::new(RefCell::new(None));
    {
        let lost = lost.clone();
        let promise: js_sys::Promise = device.lost().unchecked_into();
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(info) = JsFuture::from(promise).await {
                let message = Reflect::get(&info, &"message".into())
                    .ok()
                    .and_then(|m| m.as_string())
                    .unwrap_or_default();
                *lost.borrow_mut() = Some(if message.is_empty() {
                    "no reason given".into()
                } else {
                    message
                });
            }
        });
    }
    let mut b = Bench {
        device,
        lost,
        buffers: Vec::new(),
        idle_ms: 0.0,
        timestamps: None,
    };
    let outcome = async {
        if timestamps {
            b.enable_timestamps()?;
        }
        measure(&mut b, &kernels, buffer_bytes, &progress).await
    }
    .await;
    b.destroy();
    match outcome {
        Ok(results) => Outcome::Done {
            adapter: info,
            results,
        },
        Err(message) => Outcome::Error {
            adapter: Some(info),
            message,
        },
    }
}

async fn measure(
    b: &mut Bench,
    kernels: &[Kernel],
    buffer_bytes: u64,
    progress: &impl Fn(Progress),
) -> Result<Vec<KernelResult>, String> {
    // Empty-submit latency: the median of a few submits with no work.
    let mut idle = Vec::new();
    for _ in 0..5 {
        let start = now();
        b.device.queue().submit(&[]);
        wait(b.device.queue().on_submitted_work_done()).await?;
        idle.push(now() - start);
    }
    catalog::order::sort_by(&mut idle, f64::total_cmp);
    b.idle_ms = idle[idle.len() / 2];
    let mut results = Vec::new();
    for (i, &kernel) in kernels.iter().enumerate() {
        progress(Progress::Step {
            stage: kernel.as_str().into(),
            index: i as u32 + 2,
            total: kernels.len() as u32 + 1,
        });
        let measured = match kernel {
            Kernel::Fp32Matmul => matmul(b, kernel, &FP32_VARIANTS).await,
            Kernel::Fp16Matmul => matmul(b, kernel, &FP16_VARIANTS).await,
            _ => bandwidth(b, kernel, buffer_bytes).await,
        };
        // A kernel that fails is reported and the run goes on, unless the device is gone.
        let result = match measured {
            Ok(r) => r,
            Err(message) => {
                b.check_lost()?;
                KernelResult::failed(kernel, "", message)
            }
        };
        progress(Progress::Kernel(result.clone()));
        results.push(result);
    }
    Ok(results)
}

/// A matmul input as the kernel reads it: f32, or f16 bits for the FP16 kernel.
fn matrix_bytes(kernel: Kernel, n: u32, seed: u32) -> (Vec<f32>, Vec<u8>) {
    if kernel == Kernel::Fp16Matmul {
        let m = bench::test_matrix_f16(n as usize, seed);
        let bytes = m
            .iter()
            .flat_map(|x| bench::f16_bits(*x).to_le_bytes())
            .collect();
        (m, bytes)
    } else {
        let m = bench::test_matrix(n as usize, seed);
        let bytes = m.iter().flat_map(|x| x.to_le_bytes()).collect();
        (m, bytes)
    }
}

/// Verifies each variant against the CPU at a small size, probes its speed, then times
/// it at the largest size a dispatch stays short for; reports the fastest variant.
async fn matmul(
    b: &mut Bench,
    kernel: Kernel,
    variants: &[Variant],
) -> Result<KernelResult, String> {
    let tolerance = if kernel == Kernel::Fp16Matmul {
        bench::MAX_REL_ERROR_F16
    } else {
        bench::MAX_REL_ERROR
    };
    let mut best: Option<KernelResult> = None;
    let mut failures = Vec::new();
    for variant in variants {
        let code = if kernel == Kernel::Fp16Matmul {
            bench::f16_kernel(variant.code).ok_or("the FP16 kernel has no scalar alias")?
        } else {
            variant.code.to_string()
        };
        let pipeline = b.pipeline(&code, "main").await?;
        let tile = variant.tile;
        let setup = |b: &mut Bench, n: u32| -> Result<(GpuBindGroup, GpuBuffer), String> {
            let a = b.upload_bytes(&matrix_bytes(kernel, n, 1).1)?;
            let m = b.upload_bytes(&matrix_bytes(kernel, n, 2).1)?;
            let c = b.buffer(u64::from(n * n) * 4, usage::STORAGE | usage::COPY_SRC)?;
            let dims = b.uniform(&[n])?;
            Ok((
                b.bind(&pipeline, &[(0, &a), (1, &m), (2, &c), (3, &dims)]),
                c,
            ))
        };
        // Correctness first: a kernel that fails is reported, never timed.
        let n = bench::VERIFY_N;
        let (group, c) = setup(b, n)?;
        b.run(&pipeline, &group, (n / tile, n / tile), 1, false)
            .await?;
        let got = b.read_back(&c, u64::from(n * n) * 4).await?;
        let want = bench::matmul_reference(
            &matrix_bytes(kernel, n, 1).0,
            &matrix_bytes(kernel, n, 2).0,
            n as usize,
        );
        let error = bench::max_relative_error(&got, &want);
        if error > tolerance {
            failures.push(format!("{}: relative error {error:.2e}", variant.label));
            continue;
        }
        // Probe at the smallest size, then size the timed runs from what it measured.
        let probe_n = bench::MATMUL_SIZES[0];
        let (group, _) = setup(b, probe_n)?;
        let grid = |n: u32| (n / tile, n / tile);
        let probe = b.run(&pipeline, &group, grid(probe_n), 1, false).await?;
        let rate = bench::matmul_flops(probe_n) / (probe.ms.max(0.01) / 1000.0);
        let n = bench::matmul_size(rate);
        let group = if n == probe_n { group } else { setup(b, n)?.0 };
        let repeats = bench::repeats(bench::matmul_flops(n) / rate);
        let (summary, timing) = b
            .time(
                &pipeline,
                &group,
                grid(n),
                repeats,
                bench::matmul_flops(n) / 1e9,
            )
            .await?;
        if best
            .as_ref()
            .and_then(|r| r.summary)
            .is_none_or(|s| s.median < summary.median)
        {
            best = Some(KernelResult {
                kernel,
                variant: variant.label.into(),
                verified: true,
                summary: Some(summary),
                timing: Some(timing),
                failure: None,
            });
        }
    }
    best.ok_or_else(|| format!("no kernel passed the CPU check ({})", failures.join("; ")))
}

/// Verifies a bandwidth kernel on a small buffer, probes it over a part of the working
/// set, then times it over as much of the working set as keeps a dispatch short.
async fn bandwidth(b: &mut Bench, kernel: Kernel, bytes: u64) -> Result<KernelResult, String> {
    let entry = match kernel {
        Kernel::BandwidthRead => "bw_read",
        Kernel::BandwidthWrite => "bw_write",
        _ => "bw_copy",
    };
    let pipeline = b.pipeline(BANDWIDTH, entry).await?;
    let stride = BANDWIDTH_WORKGROUPS * 256;
    // Check on 4 Ki vec4 with negative inputs, so even the read kernel writes its sums.
    let len = 4096u32;
    let small_stride = 256u32;
    let input: Vec<f32> = (0..len * 4).map(|i| -1.0 - (i % 7) as f32).collect();
    let input_bytes: Vec<u8> = input.iter().flat_map(|x| x.to_le_bytes()).collect();
    let src = b.upload_bytes(&input_bytes)?;
    let dst = b.buffer(u64::from(len) * 16, usage::STORAGE | usage::COPY_SRC)?;
    let params = b.uniform(&[len, small_stride])?;
    let bindings = |src, dst, params| -> Vec<(u32, &GpuBuffer)> {
        match kernel {
            Kernel::BandwidthWrite => vec![(1, dst), (2, params)],
            _ => vec![(0, src), (1, dst), (2, params)],
        }
    };
    let group = b.bind(&pipeline, &bindings(&src, &dst, &params));
    b.run(&pipeline, &group, (1, 1), 1, false).await?;
    let got = b.read_back(&dst, u64::from(len) * 16).await?;
    let ok = match kernel {
        Kernel::BandwidthCopy => got == input,
        Kernel::BandwidthWrite => {
            (0..len as usize).all(|i| got[i * 4..i * 4 + 4] == [i as f32, 1.0, 2.0, 3.0])
        }
        _ => (0..small_stride as usize).all(|g| {
            (0..4).all(|lane| {
                let want: f32 = (g..len as usize)
                    .step_by(small_stride as usize)
                    .map(|i| input[i * 4 + lane])
                    .sum();
                (got[g * 4 + lane] - want).abs() <= want.abs() * 1e-5
            })
        }),
    };
    if !ok {
        return Ok(KernelResult::failed(
            kernel,
            entry,
            "result differs from the CPU check",
        ));
    }
    // The working set; zero-filled, so non-negative and the read kernel only reads.
    b.device.push_error_scope(GpuErrorFilter::OutOfMemory);
    let src = b.buffer(bytes, usage::STORAGE | usage::COPY_DST)?;
    let dst = b.buffer(bytes, usage::STORAGE)?;
    let scope = wait(b.device.pop_error_scope()).await?;
    if !scope.is_null() && !scope.is_undefined() {
        return Err(format!("out of GPU memory: {}", js_error(scope)));
    }
    let moved_per_byte = if kernel == Kernel::BandwidthCopy {
        2.0
    } else {
        1.0
    };
    let grid = (BANDWIDTH_WORKGROUPS, 1);
    let probe_bytes = bench::BANDWIDTH_PROBE_BYTES.min(bytes);
    let params = b.uniform(&[(probe_bytes / 16) as u32, stride])?;
    let group = b.bind(&pipeline, &bindings(&src, &dst, &params));
    let probe = b.run(&pipeline, &group, grid, 1, false).await?;
    let timed_bytes =
        bench::bandwidth_bytes(probe_bytes as f64 / (probe.ms.max(0.01) / 1000.0), bytes);
    let params = b.uniform(&[(timed_bytes / 16) as u32, stride])?;
    let group = b.bind(&pipeline, &bindings(&src, &dst, &params));
    let seconds = timed_bytes as f64 / (probe_bytes as f64 / (probe.ms.max(0.01) / 1000.0));
    let repeats = bench::repeats(seconds);
    let (summary, timing) = b
        .time(
            &pipeline,
            &group,
            grid,
            repeats,
            moved_per_byte * timed_bytes as f64 / 1e9,
        )
        .await?;
    Ok(KernelResult {
        kernel,
        variant: format!("{entry}, {} MiB", timed_bytes / (1024 * 1024)),
        verified: true,
        summary: Some(summary),
        timing: Some(timing),
        failure: None,
    })
}
