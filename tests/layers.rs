//! The crate's layers (docs/ARCHITECTURE.md): each top-level module of `src/` uses, in code
//! (`crate::…` paths outside comments), only the modules listed for it here, and each of
//! those comes earlier in the list — so the ground floor imports nothing from above and
//! the modules form no cycle. A new module must be placed in the list to pass.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Every module of the library, bottom up, with the modules it may use.
const LAYERS: &[(&str, &[&str])] = &[
    // The ground floor: the error type and its checks, grids and surfaces as plain
    // geometry, the charts' colours, the contract of iterative solvers, dense linear algebra.
    ("error", &[]),
    ("grid", &[]),
    ("palette", &[]),
    ("clock", &[]),
    ("parts", &["error", "clock"]),
    ("solver", &["error", "clock"]),
    ("linalg", &["error", "clock", "solver"]),
    // Data and bases.
    ("data", &["error", "grid"]),
    ("basis", &["error", "grid", "clock", "solver", "linalg"]),
    // The mathematics.
    ("linear", &["error", "grid", "solver", "linalg", "basis"]),
    ("bayes", &["error", "grid", "linalg", "basis"]),
    ("evidence", &["error", "grid", "solver", "linalg", "basis", "bayes", "linear"]),
    ("rvm", &["error", "grid", "clock", "solver", "linalg", "basis"]),
    // The problems the benchmarks time.
    ("problems", &["error", "grid", "solver", "data", "basis", "evidence", "rvm"]),
    // Charts draw numbers: they know nothing of solvers.
    ("plot", &["error", "grid", "palette", "parts"]),
    ("backend", &["error", "palette", "parts"]),
    // The panels, over all of the above.
    (
        "app",
        &[
            "error", "grid", "palette", "clock", "solver", "linalg", "data", "basis", "linear", "bayes", "evidence",
            "rvm", "plot", "backend",
        ],
    ),
    // The wasm layer forwards to the panels and to the benchmarks' problems (of `rvm` it
    // names only the fits it hands to the page, of `solver` only the budget of a slice, of
    // `basis` only the hook for the formula module's calls).
    ("web", &["error", "palette", "clock", "parts", "solver", "basis", "rvm", "problems", "plot", "backend", "app"]),
    // The formula module's face (built instead of `web` with the feature `formula-module`).
    ("formula_module", &["error", "basis"]),
];

/// The `.rs` files of module `name`: `src/name.rs` and everything under `src/name/`.
fn files(name: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = vec![];
    let single = src.join(format!("{name}.rs"));
    if single.exists() {
        found.push(single);
    }
    let mut dirs = vec![src.join(name)];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }
    found
}

/// The top-level modules `text` names through `crate::…` in code (comments skipped; the
/// crate root's `Error` and `Result` are the `error` module's).
fn uses(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            used.insert(if name == "Error" || name == "Result" { "error".to_owned() } else { name });
        }
    }
    used
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    for (k, (name, allowed)) in LAYERS.iter().enumerate() {
        let below: Vec<&str> = LAYERS[..k].iter().map(|(n, _)| *n).collect();
        for module in *allowed {
            assert!(below.contains(module), "{name} may use {module}, which is not below it in the list");
        }
        let paths = files(name);
        assert!(!paths.is_empty(), "no source for module {name}");
        for path in paths {
            let text = fs::read_to_string(&path).unwrap();
            for used in uses(&text) {
                assert!(
                    used == *name || allowed.contains(&used.as_str()),
                    "{} uses crate::{used}, which {name} may not use",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn every_module_of_the_library_is_placed() {
    let lib = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs")).unwrap();
    let declared: BTreeSet<&str> = lib
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub mod ").or_else(|| line.trim().strip_prefix("mod ")))
        .map(|rest| rest.trim_end_matches(';'))
        .collect();
    let placed: BTreeSet<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    assert_eq!(declared, placed);
}

#[test]
fn the_reader_finds_what_it_must() {
    // A use in code is seen, one in a comment is not, and the root's re-exports count as
    // the error module.
    let found = uses("use crate::rvm::Event;\n// crate::app is only mentioned\nfn f() -> crate::Result<()> {}");
    assert_eq!(found, BTreeSet::from(["rvm".to_owned(), "error".to_owned()]));
}

/// The children of the folder `dir` (relative to `src/`): its files but `mod.rs`, and its
/// folders, by name.
fn children(dir: &Path) -> Vec<(String, PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found: Vec<(String, PathBuf)> = fs::read_dir(src.join(dir))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .filter(|path| path.file_name().is_some_and(|name| name != "mod.rs"))
        .map(|path| (path.file_stem().unwrap().to_string_lossy().into_owned(), path))
        .collect();
    found.sort();
    found
}

/// The `.rs` files under `path` (itself, if it is one), each with whether `super::` in it
/// names the folder `path` is in (a file of it, or a folder's `mod.rs`).
fn sources(path: &Path) -> Vec<(PathBuf, bool)> {
    if path.is_file() {
        return vec![(path.to_owned(), true)];
    }
    let mut found = vec![];
    let mut dirs = vec![path.to_owned()];
    while let Some(dir) = dirs.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let file = entry.path();
            if file.is_dir() {
                dirs.push(file);
            } else if file.extension().is_some_and(|e| e == "rs") {
                let own_mod = dir == path && file.file_name().is_some_and(|n| n == "mod.rs");
                found.push((file, own_mod));
            }
        }
    }
    found
}

/// The siblings (of `names`) that `text` names as `super::name` (if `parent_is_super`) or
/// as `crate::<module path>::name`, in code before its tests.
fn sibling_uses(text: &str, module: &str, names: &[String], parent_is_super: bool) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    let full = format!("crate::{module}::");
    for line in text.lines().take_while(|line| !line.starts_with("#[cfg(test)]")) {
        let code = line.split("//").next().unwrap_or("");
        let mut prefixes = vec![full.as_str()];
        if parent_is_super {
            prefixes.push("super::");
        }
        for prefix in prefixes {
            let mut rest = code;
            while let Some(at) = rest.find(prefix) {
                rest = &rest[at + prefix.len()..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if names.contains(&name) {
                    used.insert(name);
                }
            }
        }
    }
    used
}

/// Within every folder of `src/`, its files and folders use one another without a cycle:
/// each stands above what it uses, so each can be read (and tested) from the bottom up.
#[test]
fn no_folder_of_the_library_has_an_import_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut dirs = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        let kids = children(&dir);
        let names: Vec<String> = kids.iter().map(|(name, _)| name.clone()).collect();
        let module = dir.to_string_lossy().replace('/', "::");
        let mut edges: Vec<(String, BTreeSet<String>)> = vec![];
        for (name, path) in &kids {
            if path.is_dir() {
                dirs.push(path.strip_prefix(&src).unwrap().to_owned());
            }
            let mut used = BTreeSet::new();
            for (file, parent_is_super) in sources(path) {
                let text = fs::read_to_string(&file).unwrap();
                used.extend(sibling_uses(&text, &module, &names, parent_is_super));
            }
            used.remove(name);
            edges.push((name.clone(), used));
        }
        if let Some(cycle) = find_cycle(&edges) {
            panic!("in src/{}: {} use one another in a circle", dir.display(), cycle.join(" → "));
        }
    }
}

/// A cycle of the graph `edges` (each node with the nodes it points to), if there is one.
fn find_cycle(edges: &[(String, BTreeSet<String>)]) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &[(String, BTreeSet<String>)],
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut cycle = path[at..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        let next = edges.iter().find(|(n, _)| n == node).map(|(_, e)| e.clone()).unwrap_or_default();
        for to in next {
            if let Some(cycle) = visit(&to, edges, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges.iter().find_map(|(node, _)| visit(node, edges, &mut vec![], &mut done))
}

#[test]
fn a_cycle_is_found_and_a_chain_is_not() {
    let graph = |pairs: &[(&str, &[&str])]| -> Vec<(String, BTreeSet<String>)> {
        pairs.iter().map(|(n, to)| (n.to_string(), to.iter().map(|t| t.to_string()).collect())).collect()
    };
    assert_eq!(find_cycle(&graph(&[("a", &["b"]), ("b", &["c"]), ("c", &[])])), None);
    let cycle = find_cycle(&graph(&[("a", &["b"]), ("b", &["c"]), ("c", &["a"])])).unwrap();
    assert_eq!(cycle.first(), cycle.last());
    assert_eq!(cycle.len(), 4);
    let names = ["panel".to_owned(), "editing".to_owned()];
    let used = sibling_uses("use super::panel::X; // super::editing\nuse crate::app::editing::Y;", "app", &names, true);
    assert_eq!(used, BTreeSet::from(["panel".to_owned(), "editing".to_owned()]));
    let not_super = sibling_uses("use super::panel::X;", "app", &names, false);
    assert!(not_super.is_empty());
}

/// The wasm layer owns no mathematics: it starts no solver and makes no problem (the
/// benchmarks' runs are `problems`'), so none of these names appears in its code.
#[test]
fn the_web_layer_runs_no_solver() {
    const SOLVERS: [&str; 8] =
        ["FastRvm", "FastRvmClassifier", "ClassicRvm", "Problem", "Solver", "Spectrum", "GradientDescent", ".run("];
    for path in files("web") {
        let text = fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let code = line.split("//").next().unwrap_or("");
            for name in SOLVERS {
                // The name as a word of its own (`FormulaProblem` does not name `Problem`).
                let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                let named = code.match_indices(name).any(|(at, _)| {
                    let (before, after) = (code[..at].chars().next_back(), code[at + name.len()..].chars().next());
                    name.starts_with('.') || !(word(before) || word(after))
                });
                assert!(!named, "{} names {name}: {line}", path.display());
            }
        }
    }
}
