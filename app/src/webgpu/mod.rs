//! The WebGPU microbenchmark: every call into WebGPU lives here. Sizes, repeat counts,
//! statistics and placement come from `catalog::bench`; the kernels are the `.wgsl`
//! files beside this module, validated natively by the catalog crate's tests.
//!
//! Timing: wall clock (`performance.now()`) from submit to `onSubmittedWorkDone`,
//! over batches of about 50 ms, minus the latency of an empty submit.

use std::cell::RefCell;
use std::rc::Rc;

use catalog::bench::{self, Kernel, Summary};
use js_sys::{Float32Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    gpu_buffer_usage as usage, gpu_map_mode, GpuAdapter, GpuAutoLayoutMode, GpuBindGroup,
    GpuBindGroupDescriptor, GpuBindGroupEntry, GpuBuffer, GpuBufferDescriptor, GpuComputePipeline,
    GpuComputePipelineDescriptor, GpuDevice, GpuDeviceDescriptor, GpuErrorFilter,
    GpuPowerPreference, GpuProgrammableStage, GpuRequestAdapterOptions, GpuShaderModuleDescriptor,
};

const MATMUL_TILED: &str = include_str!("matmul_tiled.wgsl");
const MATMUL_REG: &str = include_str!("matmul_reg4x4.wgsl");
const BANDWIDTH: &str = include_str!("bandwidth.wgsl");
/// Warm-up before timing a kernel, to let clocks ramp up.
const WARM_UP_MS: f64 = 300.0;
/// Workgroups of the grid-stride bandwidth kernels (256 invocations each).
const BANDWIDTH_WORKGROUPS: u32 = 4096;

#[derive(Debug, Clone, PartialEq)]
pub struct AdapterInfo {
    pub vendor: String,
    pub architecture: String,
    /// A fallback or software adapter (SwiftShader): not the visitor's GPU.
    pub software: bool,
    pub shader_f16: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct KernelResult {
    pub kernel: Kernel,
    /// Which kernel variant (the best one, for matmuls).
    pub variant: &'static str,
    pub verified: bool,
    pub summary: Option<Summary>,
    /// Why it was not timed, when it was not.
    pub failure: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    Step(&'static str),
    Kernel(KernelResult),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// No `navigator.gpu` or no adapter.
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

fn js_error(e: JsValue) -> String {
    Reflect::get(&e, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "unknown error".into())
}

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

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
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

struct Bench {
    device: GpuDevice,
    lost: Rc<RefCell<Option<String>>>,
    buffers: Vec<GpuBuffer>,
    /// Latency of an empty submit, subtracted from every timed batch.
    idle_ms: f64,
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

    fn upload(&mut self, data: &[f32], extra: u32) -> Result<GpuBuffer, String> {
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_le_bytes()).collect();
        let buffer = self.buffer(bytes.len() as u64, usage::STORAGE | usage::COPY_DST | extra)?;
        self.device
            .queue()
            .write_buffer_with_u32_and_u8_slice(&buffer, 0, &bytes)
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

    /// Submits `repeats` dispatches in one pass and waits for them; milliseconds elapsed.
    async fn run(
        &self,
        pipeline: &GpuComputePipeline,
        group: &GpuBindGroup,
        grid: (u32, u32),
        repeats: u32,
    ) -> Result<f64, String> {
        self.check_lost()?;
        let encoder = self.device.create_command_encoder();
        let pass = encoder.begin_compute_pass();
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, Some(group));
        for _ in 0..repeats {
            pass.dispatch_workgroups_with_workgroup_count_y(grid.0, grid.1);
        }
        pass.end();
        let start = now();
        self.device.queue().submit(&[encoder.finish()]);
        wait(self.device.queue().on_submitted_work_done()).await?;
        self.check_lost()?;
        Ok(now() - start)
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
    /// the work of one dispatch.
    async fn time(
        &self,
        pipeline: &GpuComputePipeline,
        group: &GpuBindGroup,
        grid: (u32, u32),
        repeats: u32,
        work: f64,
    ) -> Result<Summary, String> {
        let warm_start = now();
        while now() - warm_start < WARM_UP_MS {
            self.run(pipeline, group, grid, repeats.max(1)).await?;
        }
        let mut rates = Vec::new();
        for _ in 0..bench::BATCHES {
            while_hidden().await;
            let ms = (self.run(pipeline, group, grid, repeats).await? - self.idle_ms).max(0.001);
            rates.push(work * f64::from(repeats) / (ms / 1000.0));
            sleep(0).await;
        }
        bench::summarize(&rates).ok_or_else(|| "no valid timing".to_string())
    }

    fn destroy(&self) {
        for b in &self.buffers {
            b.destroy();
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
    progress(Progress::Step("device"));
    let limits = adapter.limits();
    let buffer_bytes = bench::bandwidth_buffer_bytes(
        limits.max_storage_buffer_binding_size(),
        limits.max_buffer_size(),
    );
    let desc = GpuDeviceDescriptor::new();
    let required = Object::new();
    let _ = Reflect::set(
        &required,
        &"maxStorageBufferBindingSize".into(),
        &(buffer_bytes as f64).into(),
    );
    let _ = Reflect::set(
        &required,
        &"maxBufferSize".into(),
        &(buffer_bytes as f64).into(),
    );
    let _ = Reflect::set(&desc, &"requiredLimits".into(), &required);
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
    };
    let outcome = measure(&mut b, buffer_bytes, &progress).await;
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
    idle.sort_by(f64::total_cmp);
    b.idle_ms = idle[idle.len() / 2];
    let mut results = Vec::new();

    progress(Progress::Step("fp32-matmul"));
    let matmul = matmul(b).await;
    let result = match matmul {
        Ok(r) => r,
        Err(message) => {
            b.check_lost()?;
            KernelResult {
                kernel: Kernel::Fp32Matmul,
                variant: "",
                verified: false,
                summary: None,
                failure: Some(message),
            }
        }
    };
    progress(Progress::Kernel(result.clone()));
    results.push(result);

    for (kernel, entry) in [
        (Kernel::BandwidthRead, "bw_read"),
        (Kernel::BandwidthWrite, "bw_write"),
        (Kernel::BandwidthCopy, "bw_copy"),
    ] {
        progress(Progress::Step(kernel.as_str()));
        let result = match bandwidth(b, kernel, entry, buffer_bytes).await {
            Ok(r) => r,
            Err(message) => {
                b.check_lost()?;
                KernelResult {
                    kernel,
                    variant: entry,
                    verified: false,
                    summary: None,
                    failure: Some(message),
                }
            }
        };
        progress(Progress::Kernel(result.clone()));
        results.push(result);
    }
    Ok(results)
}

/// Verifies each matmul variant against the CPU at a small size, probes its speed, then
/// times it at the largest size a dispatch stays short for; reports the best variant.
async fn matmul(b: &mut Bench) -> Result<KernelResult, String> {
    let mut best: Option<KernelResult> = None;
    let mut failures = Vec::new();
    for (variant, code, tile) in [
        ("32x32 tile, 2x2 per invocation", MATMUL_TILED, 32u32),
        ("64x64 tile, 4x4 per invocation", MATMUL_REG, 64u32),
    ] {
        let pipeline = b.pipeline(code, "main").await?;
        let setup = |b: &mut Bench, n: u32| -> Result<(GpuBindGroup, GpuBuffer), String> {
            let a = b.upload(&bench::test_matrix(n as usize, 1), 0)?;
            let m = b.upload(&bench::test_matrix(n as usize, 2), 0)?;
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
        b.run(&pipeline, &group, (n / tile, n / tile), 1).await?;
        let got = b.read_back(&c, u64::from(n * n) * 4).await?;
        let want = bench::matmul_reference(
            &bench::test_matrix(n as usize, 1),
            &bench::test_matrix(n as usize, 2),
            n as usize,
        );
        let error = bench::max_relative_error(&got, &want);
        if error > bench::MAX_REL_ERROR {
            failures.push(format!("{variant}: relative error {error:.2e}"));
            continue;
        }
        // Probe at the smallest size, then size the timed runs from what it measured.
        let probe_n = bench::MATMUL_SIZES[0];
        let (group, _) = setup(b, probe_n)?;
        let probe_ms = (b
            .run(&pipeline, &group, (probe_n / tile, probe_n / tile), 1)
            .await?
            - b.idle_ms)
            .max(0.01);
        let rate = bench::matmul_flops(probe_n) / (probe_ms / 1000.0);
        let n = bench::matmul_size(rate);
        let (group, _) = if n == probe_n {
            (group, c)
        } else {
            setup(b, n)?
        };
        let repeats = bench::repeats(bench::matmul_flops(n) / rate);
        let summary = b
            .time(
                &pipeline,
                &group,
                (n / tile, n / tile),
                repeats,
                bench::matmul_flops(n) / 1e9,
            )
            .await?;
        let result = KernelResult {
            kernel: Kernel::Fp32Matmul,
            variant,
            verified: true,
            summary: Some(summary),
            failure: None,
        };
        if best
            .as_ref()
            .and_then(|r| r.summary)
            .is_none_or(|s| s.median < summary.median)
        {
            best = Some(result);
        }
    }
    best.ok_or_else(|| format!("no kernel passed the CPU check ({})", failures.join("; ")))
}

/// Verifies a bandwidth kernel on a small buffer, then times it over the full working set.
async fn bandwidth(
    b: &mut Bench,
    kernel: Kernel,
    entry: &'static str,
    bytes: u64,
) -> Result<KernelResult, String> {
    let pipeline = b.pipeline(BANDWIDTH, entry).await?;
    let stride = BANDWIDTH_WORKGROUPS * 256;
    // Check on 4 Ki vec4 with negative inputs, so even the read kernel writes its sums.
    let len = 4096u32;
    let small_stride = 256u32;
    let input: Vec<f32> = (0..len * 4).map(|i| -1.0 - (i % 7) as f32).collect();
    let src = b.upload(&input, 0)?;
    let dst = b.buffer(u64::from(len) * 16, usage::STORAGE | usage::COPY_SRC)?;
    let params = b.uniform(&[len, small_stride])?;
    let bindings = |src, dst, params| -> Vec<(u32, &GpuBuffer)> {
        match kernel {
            Kernel::BandwidthWrite => vec![(1, dst), (2, params)],
            _ => vec![(0, src), (1, dst), (2, params)],
        }
    };
    let group = b.bind(&pipeline, &bindings(&src, &dst, &params));
    b.run(&pipeline, &group, (1, 1), 1).await?;
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
        return Ok(KernelResult {
            kernel,
            variant: entry,
            verified: false,
            summary: None,
            failure: Some("result differs from the CPU check".into()),
        });
    }
    // Full working set; inputs are non-negative, so the read kernel only reads.
    b.device.push_error_scope(GpuErrorFilter::OutOfMemory);
    let src = b.buffer(bytes, usage::STORAGE | usage::COPY_DST)?;
    let dst = b.buffer(bytes, usage::STORAGE)?;
    let scope = wait(b.device.pop_error_scope()).await?;
    if !scope.is_null() && !scope.is_undefined() {
        return Err(format!("out of GPU memory: {}", js_error(scope)));
    }
    let vec4s = (bytes / 16) as u32;
    let params = b.uniform(&[vec4s, stride])?;
    let group = b.bind(&pipeline, &bindings(&src, &dst, &params));
    let moved = match kernel {
        Kernel::BandwidthCopy => 2.0 * bytes as f64,
        _ => bytes as f64,
    };
    let probe_ms = (b
        .run(&pipeline, &group, (BANDWIDTH_WORKGROUPS, 1), 1)
        .await?
        - b.idle_ms)
        .max(0.01);
    let repeats = bench::repeats(probe_ms / 1000.0);
    let summary = b
        .time(
            &pipeline,
            &group,
            (BANDWIDTH_WORKGROUPS, 1),
            repeats,
            moved / 1e9,
        )
        .await?;
    Ok(KernelResult {
        kernel,
        variant: entry,
        verified: true,
        summary: Some(summary),
        failure: None,
    })
}
