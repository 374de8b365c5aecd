//! Compiles each module's pair of string files (`locales/{en,zh}.json` the page's,
//! `locales/views/` and `locales/measure/` the other modules') into a key enum and its
//! tables. A key missing from either language, an empty string, or a key in two modules'
//! files fails the build, so a missing translation cannot ship.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

fn load(path: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn variant(key: &str) -> String {
    key.split(['.', '_', '-'])
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut c = p.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// A fingerprint of the files a separately loaded module is built from (every file under
/// `dirs` and the `files`, relative to the app's manifest; FNV-1a over their bytes), which
/// the page appends to the module's address so caches never mix versions.
fn module_version(manifest_dir: &Path, dirs: &[&str], files: &[&str]) -> String {
    fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, files);
            } else {
                files.push(path);
            }
        }
    }
    let mut all = Vec::new();
    for dir in dirs {
        let dir = manifest_dir.join(dir);
        println!("cargo:rerun-if-changed={}", dir.display());
        walk(&dir, &mut all);
    }
    for file in files {
        let file = manifest_dir.join(file);
        println!("cargo:rerun-if-changed={}", file.display());
        all.push(file);
    }
    all.sort();
    let bytes: Vec<u8> = all
        .iter()
        .flat_map(|f| std::fs::read(f).unwrap_or_default())
        .collect();
    fnv(&bytes)
}

/// FNV-1a of some bytes, as hex: a version for a file's address, so caches never mix them.
fn fnv(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

fn main() {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    // The measurement module: its crate, this one, the catalog's measurement code.
    println!(
        "cargo:rustc-env=MEASURE_MODULE_VERSION={}",
        module_version(
            manifest_dir,
            &["../measure", "src", "locales", "../../catalog/src/bench"],
            &["../../Cargo.lock"]
        )
    );
    // The views module: its crate, this one, the catalog's sources and data, and the
    // views' style sheet.
    println!(
        "cargo:rustc-env=VIEWS_MODULE_VERSION={}",
        module_version(
            manifest_dir,
            &["../views", "src", "locales", "../../catalog/src"],
            &[
                "../../catalog/gpus.json",
                "../../catalog/models.json",
                "../../style/views.css",
                "../../Cargo.lock"
            ]
        )
    );
    let measurements = manifest_dir.join("../../catalog/measurements.json");
    println!("cargo:rerun-if-changed={}", measurements.display());
    println!(
        "cargo:rustc-env=MEASUREMENTS_VERSION={}",
        fnv(&std::fs::read(measurements).unwrap_or_default())
    );
    let dir = manifest_dir.join("locales");
    println!("cargo:rerun-if-changed={}", dir.display());
    println!(
        "cargo:rustc-env=ZH_STRINGS_VERSION={}",
        fnv(&std::fs::read(dir.join("zh.json")).unwrap_or_default())
    );
    // One table per module, each from its own files: the page's (`locales/*.json`, the
    // `zh.json` the page fetches), the views module's (`locales/views/`) and the
    // measurement module's (`locales/measure/`). The views and measurement modules compile
    // their Chinese in, so a page shown in Chinese downloads only its own.
    let tables = [
        ("Key", "", dir.clone(), false),
        ("ViewKey", "", dir.join("views"), true),
        ("MeasureKey", "measure.", dir.join("measure"), true),
    ];
    let mut problems = Vec::new();
    let mut loaded = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (name, prefix, dir, compiled) in &tables {
        let en = load(&dir.join("en.json"));
        let zh = load(&dir.join("zh.json"));
        let at = dir.display();
        for k in en.keys().filter(|k| !zh.contains_key(*k)) {
            problems.push(format!("{at}/zh.json lacks {k:?}"));
        }
        for k in zh.keys().filter(|k| !en.contains_key(*k)) {
            problems.push(format!("{at}/en.json lacks {k:?}"));
        }
        for (lang, table) in [("en", &en), ("zh", &zh)] {
            for (k, v) in table.iter().filter(|(_, v)| v.trim().is_empty()) {
                problems.push(format!("{at}/{lang}.json has an empty {k:?}: {v:?}"));
            }
        }
        for k in en.keys() {
            if !seen.insert(k.clone()) {
                problems.push(format!("{k:?} is in two modules' tables"));
            }
            if !k.starts_with(prefix) {
                problems.push(format!("{at}/en.json: {k:?} lacks the prefix {prefix:?}"));
            }
        }
        loaded.push((*name, *prefix, en, zh, *compiled));
    }
    if !problems.is_empty() {
        panic!("translations out of step:\n{}", problems.join("\n"));
    }
    let mut out = String::new();
    for (name, prefix, en, zh, wanted) in &loaded {
        let wanted = *wanted;
        let keys: Vec<&String> = en.keys().collect();
        let _ = writeln!(
            out,
            "/// A translated string's key; generated from `locales/` by `build.rs`.\n\
             #[derive(Debug, Clone, Copy, PartialEq, Eq)]\n#[allow(dead_code)]\npub enum {name} {{"
        );
        for k in &keys {
            let _ = writeln!(
                out,
                "    /// `{k}`\n    {},",
                variant(k.strip_prefix(prefix).unwrap_or(k))
            );
        }
        out.push_str("}\n\n");
        let table = |t: &BTreeMap<String, String>| {
            let rows: Vec<String> = keys
                .iter()
                .map(|k| format!("        {:?},", t[*k]))
                .collect();
            format!("&[\n{}\n    ]", rows.join("\n"))
        };
        if wanted {
            let _ = writeln!(
                out,
                "impl Text for {name} {{\n    fn text(self, lang: catalog::share::Lang) -> &'static str {{\n        \
                 const EN: &[&str] = {};\n        const ZH: &[&str] = {};\n        \
                 let table = match lang {{\n            catalog::share::Lang::En => EN,\n            \
                 catalog::share::Lang::Zh => ZH,\n        }};\n        table[self as usize]\n    }}\n}}\n",
                table(en),
                table(zh)
            );
        } else {
            // The page's Chinese strings are fetched (`zh.json`) when the page is shown in
            // Chinese, in this enum's order: the keys sorted.
            let _ = writeln!(
                out,
                "/// Keys of the page's table; `zh.json` must yield this many strings.\n\
                 pub const KEY_COUNT: usize = {};\n\n\
                 impl Text for {name} {{\n    fn text(self, lang: catalog::share::Lang) -> &'static str {{\n        \
                 const EN: &[&str] = {};\n        \
                 let chinese = match lang {{\n            catalog::share::Lang::Zh => zh_text(self as usize),\n            \
                 catalog::share::Lang::En => None,\n        }};\n        chinese.unwrap_or(EN[self as usize])\n    }}\n}}\n",
                keys.len(),
                table(en)
            );
        }
    }
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("i18n_keys.rs");
    std::fs::write(dest, out).expect("write i18n_keys.rs");
}
