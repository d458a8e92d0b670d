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
    ("problems", &["error", "data", "basis", "evidence", "rvm"]),
    // Charts draw numbers: they know nothing of solvers.
    ("plot", &["error", "grid", "palette"]),
    ("backend", &["error", "palette"]),
    // The panels, over all of the above.
    (
        "app",
        &[
            "error", "grid", "palette", "clock", "solver", "linalg", "data", "basis", "linear", "bayes", "evidence",
            "rvm", "plot", "backend",
        ],
    ),
    // The wasm layer forwards to the panels and to the benchmarks' problems.
    ("web", &["error", "palette", "clock", "solver", "evidence", "rvm", "problems", "plot", "backend", "app"]),
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
