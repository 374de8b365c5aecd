//! A scatter chart: the SVG and its text alternative come ready from `catalog::chart`.

use catalog::chart::{data_table, scatter_svg, Scatter};
use leptos::prelude::*;

/// Shows the chart, with the same data as a table for screen readers.
#[component]
pub fn ScatterChart(chart: Scatter, name_header: &'static str) -> impl IntoView {
    let svg = scatter_svg(&chart);
    let table = data_table(&chart, name_header);
    view! {
        <figure class="chart-figure" data-testid="chart">
            <div class="chart-svg" aria-hidden="true" inner_html=svg></div>
            <div class="sr-only" inner_html=table></div>
        </figure>
    }
}
