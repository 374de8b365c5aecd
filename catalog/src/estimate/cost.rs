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

/// What the job costs on `gpus` of this GPU, buying each at `purchase` (see `Gpu::purchase`).
pub fn cost(
    gpu: &Gpu,
    workload: &Workload,
    speed: Option<&Speed>,
    gpus: u32,
    bought: u32,
    purchase: Option<&Purchase>,
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
    let job = match (workload.mode, speed.and_then(|s| s.job_hours)) {
        (Mode::Rent, Some(h)) => rent.map(|r| h.scale(r)),
        (Mode::Buy, Some(_)) => energy,
        _ => None,
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
        energy_usd: energy,
        per_million_usd: per_million,
        budget_figure,
    }
}
