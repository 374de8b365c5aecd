//! Writes the default view into the built `index.html`, moves its inline scripts into
//! files beside it and writes the cards' measurements (`measurements.min.json`) there (Trunk's post-build hook runs this with `TRUNK_STAGING_DIR` set; a path
//! argument works too).

use std::path::PathBuf;

fn main() {
    let path = std::env::args()
        .nth(1)
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("TRUNK_STAGING_DIR").map(|d| PathBuf::from(d).join("index.html"))
        })
        .unwrap_or_else(|| {
            eprintln!("usage: prerender INDEX_HTML (or set TRUNK_STAGING_DIR)");
            std::process::exit(2);
        });
    let html = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(1);
    });
    match shell::prerender::write_into(&html) {
        Ok(out) => {
            // Inline scripts into files beside the page, for a strict Content-Security-Policy.
            let (out, scripts) = shell::prerender::external_scripts(&out);
            for (name, text) in scripts {
                let file = path.with_file_name(&name);
                if let Err(e) = std::fs::write(&file, text) {
                    eprintln!("{}: {e}", file.display());
                    std::process::exit(1);
                }
            }
            if let Err(e) = std::fs::write(&path, out) {
                eprintln!("{}: {e}", path.display());
                std::process::exit(1);
            }
            // The measurements the cards show, without the notes only the accuracy page reads.
            let cards = catalog::evidence::for_cards(catalog::data::MEASUREMENTS_JSON)
                .unwrap_or_else(|e| {
                    eprintln!("measurements.json: {e}");
                    std::process::exit(1);
                });
            let file = path.with_file_name("measurements.min.json");
            if let Err(e) = std::fs::write(&file, cards) {
                eprintln!("{}: {e}", file.display());
                std::process::exit(1);
            }
            println!("prerender: wrote the default view into {}", path.display());
        }
        Err(e) => {
            eprintln!("prerender: {e}");
            std::process::exit(1);
        }
    }
}
