//! The export: valid JSON in the documented schema, every GPU in it, and CSV with the
//! same rows and fields.

use catalog::export::{to_csv, to_json, CSV_HEADER, SCHEMA};
use catalog::rank::rank;
use catalog::share::parse;
use catalog::Catalog;
use serde_json::Value;

fn export(query: &str) -> (Value, String, usize) {
    let catalog = Catalog::embedded();
    let (state, _) = parse(query, catalog);
    let ranking = rank(catalog, &state.workload, &state.filters);
    let evidence = catalog::evidence::Measurement::parse_all(catalog::data::MEASUREMENTS_JSON)
        .expect("measurements.json parses");
    let json = to_json(
        &ranking,
        &state,
        "https://example.org/?x=\"1\"",
        catalog.date(),
        &evidence,
    );
    let value: Value = serde_json::from_str(&json).expect("the export is valid JSON");
    (
        value,
        to_csv(&ranking, &state, &evidence),
        ranking.items.len(),
    )
}

#[test]
fn json_export_follows_the_schema_and_lists_every_gpu() {
    let (v, _, n) = export("task=qlora&seq=2048&budget=1500");
    assert_eq!(v["schema"], SCHEMA);
    assert_eq!(v["link"], "https://example.org/?x=\"1\"");
    assert!(v["catalog_date"].as_str().is_some_and(|d| d.len() == 7));
    assert_eq!(v["workload"]["task"], "qlora");
    assert_eq!(v["workload"]["budget_usd"], 1500.0);
    assert!(v["memory_bytes"]["total"].as_f64().is_some_and(|b| b > 5e9));
    for tier in ["flagship", "value", "entry", "non_nvidia", "rent_instead"] {
        assert!(v["picks"].get(tier).is_some(), "picks.{tier}");
    }
    let items = v["items"].as_array().expect("items");
    assert_eq!(items.len(), n);
    assert_eq!(n, Catalog::embedded().gpus.len());
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item["rank"], i + 1);
        let fits = item["fits"].as_bool().expect("fits");
        assert_eq!(fits, item["why_not"].is_null(), "{}", item["id"]);
        if fits {
            let price = item["price"]["usd"]
                .as_f64()
                .expect("a fitting GPU under a budget has a price");
            assert!(price <= 1500.0);
            assert!(item["reasons"].as_array().is_some_and(|r| !r.is_empty()));
        }
    }
    let flagship = v["picks"]["flagship"].as_str().expect("a flagship");
    assert!(items
        .iter()
        .any(|i| i["id"] == flagship && i["fits"] == true));
}

#[test]
fn inference_rows_carry_per_user_speed_and_time_to_first_token() {
    let (v, _, _) = export("task=infer&model=llama-3.1-8b&prec=int4&batch=8&seq=2048");
    let item = v["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "rtx-4090")
        .expect("rtx-4090");
    let total = item["throughput"]["mid"].as_f64().expect("throughput");
    let per_user = item["per_user_tokens_s"]["mid"].as_f64().expect("per user");
    assert!(
        (per_user * 8.0 - total).abs() / total < 1e-6,
        "{per_user} × 8 vs {total}"
    );
    assert!(item["time_to_first_token_s"]["mid"]
        .as_f64()
        .is_some_and(|t| t > 0.0));
    assert_eq!(item["throughput"]["unit"], "tokens/s");
}

#[test]
fn csv_export_has_the_header_and_one_row_per_gpu_with_quoted_names() {
    let (v, csv, n) = export("task=lora&model=mistral-7b&seq=1024");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], CSV_HEADER);
    assert_eq!(lines.len(), n + 1);
    let columns = CSV_HEADER.split(',').count();
    for line in &lines[1..] {
        // No name in the catalog holds a quote, so splitting outside quotes counts fields.
        let mut fields = 1;
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => fields += 1,
                _ => {}
            }
        }
        assert_eq!(fields, columns, "{line}");
    }
    let first = v["items"][0]["id"].as_str().expect("id");
    assert!(lines[1].starts_with(&format!("1,{first},")));
}

/// The software column names what each estimate models, by family and deployment, and the
/// workload's `runtime` is the link's alone.
#[test]
fn each_item_names_the_software_its_estimate_models() {
    let software = |query: &str, id: &str| {
        let (v, _, _) = export(query);
        let item = v["items"]
            .as_array()
            .and_then(|a| a.iter().find(|i| i["id"] == id).cloned())
            .expect("listed");
        (v["workload"]["runtime"].clone(), item["software"].clone())
    };
    let (runtime, sdxl) = software("model=sdxl", "rtx-4090");
    assert!(runtime.is_null(), "no runtime named: {runtime}");
    assert_eq!(sdxl, "diffusers");
    assert_eq!(
        software("model=whisper-large-v3", "rtx-4090").1,
        "faster-whisper"
    );
    assert_eq!(
        software("model=llama-3.1-8b&prec=int4", "rtx-4090").1,
        "llamacpp"
    );
    // Rented, or in 16 bits on a datacenter card, a language model is served by vLLM.
    assert_eq!(
        software("model=llama-3.1-8b&prec=int4&mode=rent", "rtx-4090").1,
        "vllm"
    );
    assert_eq!(software("model=llama-3.1-8b", "h100-pcie-80gb").1, "vllm");
    assert_eq!(
        software("task=train&model=resnet-50", "rtx-4090").1,
        "pytorch"
    );
    let (named, _) = software("model=llama-3.1-8b&runtime=transformers", "rtx-4090");
    assert_eq!(named, "transformers");
}

/// The workload block is the parameter table's: each of the workload's keys under its
/// export name, in the table's order, with the value the estimate used; the keys that are
/// not the workload's (view, compared GPUs, filters, language, theme, embedding) are left
/// out, and nothing else is written.
#[test]
fn the_workload_block_is_the_parameter_tables() {
    let (v, _, _) =
        export("task=qlora&model=llama-3.1-8b&batch=4&samples=1281167&ckpt=0&price=rtx-3090:700");
    let block = v["workload"].as_object().expect("workload object");
    let declared: Vec<&str> = catalog::share::PARAMS
        .iter()
        .filter_map(|p| p.export.map(|(name, _)| name))
        .collect();
    let mut written: Vec<&str> = block.keys().map(String::as_str).collect();
    let mut expected = declared.clone();
    written.sort_unstable();
    expected.sort_unstable();
    assert_eq!(written, expected);
    let outside: Vec<&str> = catalog::share::PARAMS
        .iter()
        .filter(|p| p.export.is_none())
        .map(|p| p.key)
        .collect();
    assert_eq!(
        outside,
        ["view", "ids", "mine", "seg", "vendor", "cond", "lang", "theme", "embed"]
    );
    // Values as the estimate used them: whole numbers exact, the fine-tuning default
    // length when the link sets none, flags as booleans, your prices by id.
    assert_eq!(block["samples"], 1_281_167);
    assert_eq!(block["batch"], 4);
    assert_eq!(block["seq"], 2048);
    assert_eq!(block["checkpointing"], false);
    assert_eq!(block["model"], "llama-3.1-8b");
    assert_eq!(block["params_b"], Value::Null);
    assert_eq!(block["your_prices"]["rtx-3090"], 700.0);
}

#[test]
fn each_item_carries_the_measurement_its_card_shows() {
    // Lambda measured ResNet-50 training on the RTX 3090 (against the RTX 4090).
    let (v, csv, _) = export("task=train&model=resnet-50");
    let items = v["items"].as_array().expect("items");
    let item = items
        .iter()
        .find(|i| i["id"] == "rtx-3090")
        .expect("the RTX 3090 is listed");
    let m = &item["measured"];
    assert_eq!(m["kind"], "train_throughput_ratio");
    assert_eq!(m["unit"], "images/s");
    assert!(m["value"].as_f64().is_some_and(|v| v > 100.0), "{m}");
    assert!(m["source_url"]
        .as_str()
        .is_some_and(|u| u.starts_with("https://github.com/lambdal/")));
    assert!(
        m["estimate_off"].as_f64().is_some_and(|o| o.abs() < 0.25),
        "{m}"
    );
    // A GPU nobody measured training: the same model trained on another GPU, named first
    // among the differences.
    let rtx3080 = items
        .iter()
        .find(|i| i["id"] == "rtx-3080")
        .expect("the RTX 3080 is listed");
    let first = rtx3080["measured"]["differs"][0]
        .as_str()
        .unwrap_or_default();
    assert!(
        first.starts_with("gpu:") && first != "gpu:rtx-3080",
        "{}",
        rtx3080["measured"]
    );
    // The CSV row holds the same figure.
    let header: Vec<&str> = CSV_HEADER.split(',').collect();
    let at = header
        .iter()
        .position(|h| *h == "measured_source_url")
        .expect("column");
    let row = csv
        .lines()
        .find(|l| l.contains(",rtx-3090,"))
        .expect("the RTX 3090's row");
    assert!(
        row.split(',')
            .nth(at)
            .is_some_and(|u| u.contains("lambdal")),
        "{row}"
    );
}
