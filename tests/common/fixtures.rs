//! The stored fixtures under `tests/fixtures` (written by the scripts in
//! `scripts/fixtures`).

use std::path::{Path, PathBuf};

/// The path of fixture file `name`.
pub fn path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

/// A numeric CSV with one header line (the fixtures are written by scripts; no quoting).
pub fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines.next().expect("header").split(',').map(str::to_owned).collect();
    let rows = lines.map(|l| l.split(',').map(|c| c.trim().parse().expect("number")).collect()).collect();
    (header, rows)
}

/// A JSON fixture.
pub fn read_json(name: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}
