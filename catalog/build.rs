//! Writes the compact form of the catalog that the app embeds: `gpus.json` and
//! `models.json` minified and without `notes` and `sources`, which the GPU view
//! fetches from the full `gpus.json` published beside the app. Keeps the first
//! visit small while the full files stay the one source of truth.

use std::path::Path;

fn compact(name: &str) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(name);
    println!("cargo:rerun-if-changed={}", src.display());
    let text = std::fs::read_to_string(&src).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut value: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some(entries) = value.as_array_mut() {
        for entry in entries.iter_mut().filter_map(|e| e.as_object_mut()) {
            entry.remove("notes");
            entry.remove("sources");
        }
    }
    let out = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join(name);
    std::fs::write(out, value.to_string()).unwrap_or_else(|e| panic!("{name}: {e}"));
}

fn main() {
    compact("gpus.json");
    compact("models.json");
}
