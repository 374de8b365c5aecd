//! Compiles `locales/en.json` and `locales/zh.json` into a `Key` enum and two string
//! tables. A key missing from either language, or an empty string, fails the build,
//! so a missing translation cannot ship.

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

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("locales");
    println!("cargo:rerun-if-changed={}", dir.display());
    let en = load(&dir.join("en.json"));
    let zh = load(&dir.join("zh.json"));
    let mut problems = Vec::new();
    for k in en.keys().filter(|k| !zh.contains_key(*k)) {
        problems.push(format!("zh.json lacks {k:?}"));
    }
    for k in zh.keys().filter(|k| !en.contains_key(*k)) {
        problems.push(format!("en.json lacks {k:?}"));
    }
    for (lang, table) in [("en", &en), ("zh", &zh)] {
        for (k, v) in table.iter().filter(|(_, v)| v.trim().is_empty()) {
            problems.push(format!("{lang}.json has an empty {k:?}: {v:?}"));
        }
    }
    if !problems.is_empty() {
        panic!("translations out of step:\n{}", problems.join("\n"));
    }
    let mut out = String::new();
    out.push_str("/// A translated string's key; generated from `locales/*.json` by `build.rs`.\n");
    out.push_str(
        "#[derive(Debug, Clone, Copy, PartialEq, Eq)]\n#[allow(dead_code)]\npub enum Key {\n",
    );
    for k in en.keys() {
        let _ = writeln!(out, "    /// `{k}`\n    {},", variant(k));
    }
    out.push_str("}\n\n");
    for (name, table) in [("EN", &en), ("ZH", &zh)] {
        let _ = writeln!(out, "const {name}: &[&str] = &[");
        for v in table.values() {
            let _ = writeln!(out, "    {v:?},");
        }
        out.push_str("];\n\n");
    }
    out.push_str("impl Key {\n    pub fn text(self, lang: catalog::share::Lang) -> &'static str {\n        let table = match lang {\n            catalog::share::Lang::En => EN,\n            catalog::share::Lang::Zh => ZH,\n        };\n        table[self as usize]\n    }\n}\n");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("i18n_keys.rs");
    std::fs::write(dest, out).expect("write i18n_keys.rs");
}
