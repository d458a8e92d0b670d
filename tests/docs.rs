#![cfg(not(target_arch = "wasm32"))]
//! The generated parts of the docs are what the code generates: the URL-key tables of
//! `docs/panels.md` (between its `<!-- keys:<panel> begin -->` … `<!-- keys:<panel> end -->`
//! markers) are written by `rvm-lab docs panels` from the panels' parameter lists, defaults
//! and the page's English labels, and this test runs it with `--check`, which fails when
//! the committed file differs. A copy of the repository's doc and strings, with a table
//! edited, shows the check failing and the generator mending it.
//!
//! The action keys of `docs/lessons.md` exist only in the page's JavaScript; they are
//! compared with what `www/lesson.js` accepts by `tests/e2e/docs.test.mjs` (Node, no browser).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The command that brings `docs/panels.md` up to date, as the failures say.
const FIX: &str = "cargo run -- docs panels";

/// The repository.
fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `rvm-lab docs panels --root root` with `extra` arguments.
fn docs_panels(root: &Path, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rvm-lab"))
        .args(["docs", "panels", "--root"])
        .arg(root)
        .args(extra)
        .output()
        .expect("the rvm-lab binary runs")
}

/// A fresh folder holding a copy of `docs/panels.md` and the English strings, removed when
/// dropped.
struct Copy(PathBuf);

impl Copy {
    fn new(name: &str) -> Self {
        let root = std::env::temp_dir().join(format!("rvm-lab-docs-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&root);
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::create_dir_all(root.join("www/strings/en")).unwrap();
        fs::copy(repository().join("docs/panels.md"), root.join("docs/panels.md")).unwrap();
        fs::copy(repository().join("www/strings/en.js"), root.join("www/strings/en.js")).unwrap();
        for file in fs::read_dir(repository().join("www/strings/en")).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_some_and(|e| e == "js") {
                fs::copy(&path, root.join("www/strings/en").join(path.file_name().unwrap())).unwrap();
            }
        }
        Self(root)
    }

    fn doc(&self) -> PathBuf {
        self.0.join("docs/panels.md")
    }
}

impl Drop for Copy {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[test]
fn the_key_tables_of_panels_md_are_what_the_panels_generate() {
    let out = docs_panels(repository(), &["--check"]);
    assert!(
        out.status.success(),
        "{}\ndocs/panels.md differs from what the panels generate: run `{FIX}` and commit it",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_edited_table_fails_the_check_and_the_generator_mends_it() {
    let copy = Copy::new("edited");
    let committed = fs::read_to_string(copy.doc()).unwrap();
    let end = "<!-- keys:fast-rvm end -->";
    assert!(committed.contains(end), "docs/panels.md has the fast-rvm block");
    let edited = committed.replacen(end, &format!("| `bogus` | a key no panel has | — | `1` |\n{end}"), 1);
    fs::write(copy.doc(), &edited).unwrap();

    let check = docs_panels(&copy.0, &["--check"]);
    let message = String::from_utf8_lossy(&check.stderr);
    assert_eq!(check.status.code(), Some(1), "{message}");
    assert!(message.contains("keys:fast-rvm") && message.contains(FIX), "{message}");
    assert_eq!(fs::read_to_string(copy.doc()).unwrap(), edited, "--check writes nothing");

    let mend = docs_panels(&copy.0, &[]);
    assert!(mend.status.success(), "{}", String::from_utf8_lossy(&mend.stderr));
    assert_eq!(fs::read_to_string(copy.doc()).unwrap(), committed, "the generator writes the committed file back");
}

#[test]
fn a_missing_block_is_named() {
    let copy = Copy::new("missing");
    let committed = fs::read_to_string(copy.doc()).unwrap();
    fs::write(copy.doc(), committed.replace("<!-- keys:poisson begin -->\n", "")).unwrap();
    let out = docs_panels(&copy.0, &[]);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{message}");
    assert!(message.contains("<!-- keys:poisson begin -->") && message.contains("panel poisson"), "{message}");
}

#[test]
fn every_panel_has_a_section_and_its_keys() {
    let doc = fs::read_to_string(repository().join("docs/panels.md")).unwrap();
    for name in rvm_lab::app::names() {
        assert!(doc.contains(&format!("`?panel={name}`")), "docs/panels.md says how to open {name}");
        let panel = rvm_lab::app::open_panel(name).unwrap();
        for spec in panel.describe().params {
            assert!(doc.contains(&format!("| `{}` |", spec.key)), "{name}: key {}", spec.key);
        }
    }
}
