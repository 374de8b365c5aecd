//! What a workload costs: the purchase, the rental, the job's electricity or rent, per
//! unit of output, and when buying pays off.

use super::*;

#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    /// The price of one, and what kind of price it is.
    pub purchase: Option<Purchase>,
    /// Buying the GPUs the job uses, when a price is known.
    pub hardware_usd: Option<f64>,
    /// Renting them, per hour.
    pub rent_usd_per_hour: Option<f64>,
    /// Training: the whole job (rent: rental; buy: electricity). Inference: None.
    pub job_usd: Option<Range>,
    /// Training: renting the job, its start-up included (`rent_start_hours`), in either
    /// mode; buying, what the card and the rent-instead pick compare with.
    pub rent_job_usd: Option<Range>,
    /// Training: the hours a rental pays for before the first step (`rent_start_hours`).
    pub rent_start_hours: Option<Range>,
    /// Electricity for the job (buy) at the workload's price per kWh.
    pub energy_usd: Option<Range>,
    /// Inference: dollars per million generated tokens (or samples).
    pub per_million_usd: Option<Range>,
    /// The figure compared with the budget, in the chosen mode.
    pub budget_figure: Option<f64>,
    /// Hours of use after which buying the GPUs costs less than renting them: the
    /// purchase over the hourly rental less the hourly electricity of owning them.
    pub break_even_hours: Option<f64>,
}

/// Minutes a rented machine is billed before it can run a command: from the request to a
/// booted machine with its image loaded. io.net's measured spin-up for single GPUs is
/// 32–52 s on average with cached images, 60–120 s from command to running workload (its
/// FAQ, March–April 2026 data, https://io.net/p/faq-how-long-does-it-take-to-spin-up-a-gpu-on-io-net);
/// SF Compute says the image download and boot take up to 10 minutes before SSH is
/// available (https://docs.sfcompute.com/preview/nodes). Billing covers that time: Lambda
/// bills from launch once the instance passes its health checks, in one-minute increments
/// (https://docs.lambda.ai/public-cloud/billing); Scaleway bills GPU instances per minute
/// of uptime including start-up (scaleway/docs-content PR 5727, October 2025).
pub const RENT_START_MINUTES: (f64, f64) = (1.0, 10.0);

/// Bytes per second at which a rented machine fetches a model's weights from the
/// Hugging Face Hub: about where a Python client tops out, per the `hf_transfer` README
/// ("to go beyond ~500MB/s on very high bandwidth network, where Python cannot cap out the
/// available bandwidth", https://pypi.org/project/hf-transfer/).
pub const WEIGHTS_FETCH_BYTES_PER_S: f64 = 500e6;

/// The hours a rented training job pays for before its first step: the machine's start-up
/// (`RENT_START_MINUTES`) and, for a fine-tune, fetching the model's 16-bit weights
/// (`WEIGHTS_FETCH_BYTES_PER_S`). Training from scratch fetches no weights; the dataset's
/// download and the final checkpoint's upload are not counted.
pub fn rent_start_hours(task: Task, params: f64) -> Range {
    let fetch_s = match task {
        Task::Train | Task::Infer => 0.0,
        Task::Finetune | Task::Lora | Task::Qlora => 2.0 * params / WEIGHTS_FETCH_BYTES_PER_S,
    };
    let (lo, hi) = RENT_START_MINUTES;
    Range::new(
        (lo * 60.0 + fetch_s) / 3600.0,
        (hi * 60.0 + fetch_s) / 3600.0,
    )
}

/// What the job costs on `gpus` of this GPU, buying each at `purchase` (see `Gpu::purchase`).
/// `params`: the model's parameters, whose weights a rented fine-tune fetches.
pub fn cost(
    gpu: &Gpu,
    workload: &Workload,
    speed: Option<&Speed>,
    gpus: u32,
    bought: u32,
    purchase: Option<&Purchase>,
    params: f64,
) -> Cost {
    let n = f64::from(gpus);
    // Bought: whole servers for a module (`Gpu::sold_in`), which may hold more GPUs than
    // the job uses; rented, power drawn: the GPUs used.
    let hardware = purchase.map(|p| p.usd * f64::from(bought.max(gpus)));
    let rent = gpu.price.cloud_usd_per_hour.map(|p| p * n);
    let power_kw = gpu.tdp_w.map(|w| w * n / 1000.0);
    let energy = match (speed.and_then(|s| s.job_hours), power_kw) {
        (Some(h), Some(kw)) => Some(h.scale(kw * workload.electricity_usd_per_kwh)),
        _ => None,
    };
    // Every GPU rented is billed from its machine's start, before the first step.
    let start = speed
        .and_then(|s| s.job_hours)
        .map(|_| rent_start_hours(workload.task, params));
    let rent_job = match (speed.and_then(|s| s.job_hours), start, rent) {
        (Some(h), Some(s), Some(r)) => Some(Range::new((h.low + s.low) * r, (h.high + s.high) * r)),
        _ => None,
    };
    let job = match workload.mode {
        Mode::Rent => rent_job,
        Mode::Buy => energy,
    };
    let per_million = speed
        .filter(|_| workload.task == Task::Infer)
        .and_then(|s| {
            let hourly = match workload.mode {
                Mode::Rent => rent?,
                // Buying: electricity per hour of serving (the hardware is a one-off).
                Mode::Buy => power_kw? * workload.electricity_usd_per_kwh,
            };
            Some(Range::new(
                hourly / (s.throughput.high * 3600.0) * 1e6,
                hourly / (s.throughput.low * 3600.0) * 1e6,
            ))
        });
    let budget_figure = match workload.mode {
        Mode::Buy => hardware,
        Mode::Rent => match workload.task {
            Task::Infer => rent.map(|r| r * HOURS_PER_MONTH),
            _ => job.map(|j| j.mid),
        },
    };
    let break_even = match (hardware, rent, power_kw) {
        (Some(h), Some(r), Some(kw)) if r > kw * workload.electricity_usd_per_kwh => {
            Some(h / (r - kw * workload.electricity_usd_per_kwh))
        }
        (Some(h), Some(r), None) if r > 0.0 => Some(h / r),
        _ => None,
    };
    Cost {
        break_even_hours: break_even,
        purchase: purchase.cloned(),
        hardware_usd: hardware,
        rent_usd_per_hour: rent,
        job_usd: job,
        rent_job_usd: rent_job,
        rent_start_hours: start,
        energy_usd: energy,
        per_million_usd: per_million,
        budget_figure,
    }
}
