//! No circular imports between the modules of any crate in the workspace: a module that
//! names `crate::x` depends on `x`, and the dependencies must form no cycle, so each
//! module can be read (and moved to its own crate) after the ones it uses. A module's
//! submodules (`rank/*.rs`) count as the module. The check reads the sources as text.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The identifiers a source names after `crate::`, alone or in `crate::{a, b::c}`.
fn crate_paths(text: &str) -> BTreeSet<String> {
    let code: String = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = BTreeSet::new();
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let group = &group[..group.find('}').unwrap_or(group.len())];
            for part in group.split(',') {
                let name = ident(part.trim());
                if !name.is_empty() {
                    out.insert(name);
                }
            }
        } else {
            let name = ident(rest);
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

/// The crate's modules and the modules each one names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    sources(src, &mut files);
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).expect("under src");
        let first = rel.components().next().expect("a component");
        let first = first.as_os_str().to_string_lossy();
        let module = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        if module == "lib" || module == "main" || module == "bin" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable source");
        let deps = crate_paths(&text);
        g.entry(module.clone())
            .or_default()
            .extend(deps.into_iter().filter(|d| *d != module));
    }
    g
}

/// A cycle through `start`, if there is one: the modules in order.
fn cycle_from(g: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    fn walk(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        start: &str,
        path: &mut Vec<String>,
        seen: &mut BTreeSet<String>,
    ) -> bool {
        for next in g.get(at).into_iter().flatten() {
            if next == start {
                return true;
            }
            if g.contains_key(next) && seen.insert(next.clone()) {
                path.push(next.clone());
                if walk(g, next, start, path, seen) {
                    return true;
                }
                path.pop();
            }
        }
        false
    }
    let mut path = vec![start.to_string()];
    walk(g, start, start, &mut path, &mut BTreeSet::new()).then_some(path)
}

fn crates() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut dirs = vec![root.join("catalog/src")];
    for entry in std::fs::read_dir(root.join("app")).expect("app/").flatten() {
        let src = entry.path().join("src");
        if src.is_dir() {
            dirs.push(src);
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn no_module_imports_another_that_imports_it_back() {
    let dirs = crates();
    assert!(dirs.len() >= 5, "catalog and the four app crates: {dirs:?}");
    let mut cycles = Vec::new();
    for dir in &dirs {
        let g = graph(dir);
        assert!(g.len() >= 2, "{} has modules", dir.display());
        for module in g.keys() {
            if let Some(cycle) = cycle_from(&g, module) {
                cycles.push(format!("{}: {}", dir.display(), cycle.join(" -> ")));
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "circular imports:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_check_sees_a_cycle() {
    let mut g = BTreeMap::new();
    g.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    g.insert("b".to_string(), BTreeSet::from(["c".to_string()]));
    g.insert("c".to_string(), BTreeSet::from(["a".to_string()]));
    g.insert("d".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        cycle_from(&g, "a"),
        Some(vec!["a".into(), "b".into(), "c".into()])
    );
    assert_eq!(cycle_from(&g, "d"), None);
    assert_eq!(
        crate_paths("use crate::{share::Nav, rank};\nlet x = crate::html::escape(y); // crate::no"),
        BTreeSet::from(["share".into(), "rank".into(), "html".into()])
    );
}
