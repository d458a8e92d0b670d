#![cfg(not(target_arch = "wasm32"))]
//! The `rvm-lab` binary end to end: it is run on CSV files written to a temporary folder,
//! and its JSON is compared with the library's own numbers for the same Φ and t
//! (`bayes::Posterior` with α, β given; `evidence::maximise` from `initial_guess` without),
//! and, for the committed fixture, with scikit-learn's (see tests/evidence.rs for that
//! fixture's provenance). Bad inputs must exit non-zero with a message naming the file
//! and line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use nalgebra::DMatrix;
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::data::Sinusoid;
use rvm_lab::evidence::{Scheme, initial_guess, maximise};
use serde_json::Value;

/// A fresh folder for one test's files, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("rvm-lab-cli-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rvm-lab")).args(args).output().expect("the binary runs")
}

/// Runs a command that must succeed, and parses its JSON.
fn run_json(args: &[&str]) -> Value {
    let out = run(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?} failed: {stderr}");
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// Runs a command that must fail, and returns its exit code and stderr.
fn run_error(args: &[&str]) -> (i32, String) {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} succeeded: {}", String::from_utf8_lossy(&out.stdout));
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout on failure");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// serde_json's float parser may be one unit in the last place off: compare to 4 ulp.
fn assert_num(json: &Value, want: f64, what: &str) {
    let got = json.as_f64().unwrap_or_else(|| panic!("{what}: not a number: {json}"));
    assert!((got - want).abs() <= 4.0 * f64::EPSILON * want.abs(), "{what}: {got} vs {want}");
}

/// A small problem: bias + 4 Gaussian bumps on 20 sinusoid points, as CSV text and as
/// the library's Φ and t. The targets file has the columns x, t (t second).
struct Problem {
    phi: DMatrix<f64>,
    t: Vec<f64>,
    design_csv: String,
    targets_csv: String,
}

fn problem() -> Problem {
    let d = Sinusoid { n: 20, noise: 0.25, seed: 4 }.generate().unwrap();
    let centres = [0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0];
    let phi = DMatrix::from_fn(d.len(), 5, |n, j| {
        if j == 0 { 1.0 } else { (-(d.x[n] - centres[j - 1]).powi(2) / (2.0 * 0.2 * 0.2)).exp() }
    });
    // `{}` prints the shortest text that parses back to the same f64.
    let mut design_csv = String::from("bias,g1,g2,g3,g4\n");
    for row in phi.row_iter() {
        let cells: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        design_csv += &(cells.join(",") + "\n");
    }
    let mut targets_csv = String::from("x,t\n");
    for (x, t) in d.x.iter().zip(&d.t) {
        targets_csv += &format!("{x},{t}\n");
    }
    Problem { phi, t: d.t, design_csv, targets_csv }
}

#[test]
fn given_alpha_and_beta_prints_evidence_mean_and_covariance() {
    let dir = Scratch::new("given");
    let p = problem();
    let design = write(&dir, "PHI.csv", &p.design_csv);
    let targets = write(&dir, "T.csv", &p.targets_csv);
    let (d, t) = (design.to_str().unwrap(), targets.to_str().unwrap());
    let json =
        run_json(&["evidence", "--design", d, "--targets", t, "--column", "t", "--alpha", "0.5", "--beta", "16"]);
    let posterior = Posterior::fit(&p.phi, &p.t, Hyperparameters::new(0.5, 16.0).unwrap()).unwrap();
    assert_num(&json["alpha"], 0.5, "alpha");
    assert_num(&json["beta"], 16.0, "beta");
    assert_num(&json["log_evidence"], posterior.log_evidence(), "log_evidence");
    let mean = json["mean"].as_array().expect("mean");
    assert_eq!(mean.len(), 5);
    for (j, m) in mean.iter().enumerate() {
        assert_num(m, posterior.mean()[j], &format!("mean[{j}]"));
    }
    let covariance = json["covariance"].as_array().expect("covariance");
    let s_n = posterior.covariance();
    assert_eq!(covariance.len(), 5);
    for (i, row) in covariance.iter().enumerate() {
        let row = row.as_array().expect("covariance row");
        assert_eq!(row.len(), 5);
        for (j, v) in row.iter().enumerate() {
            assert_num(v, s_n[(i, j)], &format!("covariance[{i}][{j}]"));
        }
    }
}

#[test]
fn without_alpha_and_beta_prints_the_maximum() {
    let dir = Scratch::new("maximum");
    let p = problem();
    let design = write(&dir, "PHI.csv", &p.design_csv);
    let targets = write(&dir, "T.csv", &p.targets_csv);
    let (d, t) = (design.to_str().unwrap(), targets.to_str().unwrap());
    for (method, scheme) in [("fixed-point", Scheme::Both), ("em", Scheme::Em)] {
        let json = run_json(&["evidence", "--design", d, "--targets", t, "--column", "t", "--method", method]);
        let best = maximise(&p.phi, &p.t, scheme, initial_guess(&p.t).unwrap()).unwrap();
        assert_eq!(json["method"], method);
        assert_num(&json["alpha"], best.alpha, "alpha");
        assert_num(&json["beta"], best.beta, "beta");
        assert_num(&json["gamma"], best.gamma, "gamma");
        assert_num(&json["log_evidence"], best.log_evidence, "log_evidence");
        assert_eq!(json["iterations"].as_u64(), Some(best.iterations as u64));
    }
    // The default method is the fixed point; the default column is the first (here x).
    let json = run_json(&["evidence", "--design", d, "--targets", t, "--column", "t"]);
    assert_eq!(json["method"], "fixed-point");
    let x_column: Vec<f64> =
        p.targets_csv.lines().skip(1).map(|l| l.split(',').next().unwrap().parse().unwrap()).collect();
    let on_x = maximise(&p.phi, &x_column, Scheme::Both, initial_guess(&x_column).unwrap()).unwrap();
    let json = run_json(&["evidence", "--design", d, "--targets", t]);
    assert_num(&json["alpha"], on_x.alpha, "alpha of the first column");
}

#[test]
fn fixture_reproduces_scikit_learn() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("evidence_sklearn.json")).unwrap()).unwrap();
    for case in fixture["cases"].as_array().unwrap() {
        let design = dir.join(case["design"].as_str().unwrap());
        let targets = dir.join(case["targets"].as_str().unwrap());
        let json =
            run_json(&["evidence", "--design", design.to_str().unwrap(), "--targets", targets.to_str().unwrap()]);
        for key in ["alpha", "beta", "log_evidence"] {
            let (got, want) = (json[key].as_f64().unwrap(), case[key].as_f64().unwrap());
            assert!((got - want).abs() <= 1e-6 * want.abs(), "{}: {key} {got} vs sklearn {want}", case["name"]);
        }
    }
}

#[test]
fn bad_inputs_exit_non_zero_naming_file_and_line() {
    let dir = Scratch::new("bad");
    let good_design = write(&dir, "PHI.csv", "a,b\n1,0\n1,1\n1,2\n");
    let good_targets = write(&dir, "T.csv", "t\n1\n2\n2.5\n");
    let g = |p: &Path| p.to_str().unwrap().to_owned();
    let cases: Vec<(&str, String, String, Vec<&str>, String)> = vec![
        (
            "non-numeric cell",
            g(&write(&dir, "abc.csv", "a,b,c\n1,2,3\n1,2,3\n1,2,abc\n")),
            g(&good_targets),
            vec![],
            "abc.csv line 4, column 3: 'abc' is not a number".to_owned(),
        ),
        (
            "ragged row",
            g(&write(&dir, "ragged.csv", "a,b\n1,0\n1\n1,2\n")),
            g(&good_targets),
            vec![],
            "ragged.csv line 3: 1 cells, but the header names 2 columns".to_owned(),
        ),
        (
            "empty file",
            g(&good_design),
            g(&write(&dir, "empty.csv", "")),
            vec![],
            "empty.csv: the file is empty".to_owned(),
        ),
        (
            "row-count mismatch",
            g(&good_design),
            g(&write(&dir, "short.csv", "t\n1\n2\n")),
            vec![],
            "short.csv has 2 data rows, but".to_owned(),
        ),
        (
            "unknown column",
            g(&good_design),
            g(&good_targets),
            vec!["--column", "y"],
            "T.csv line 1: no column named 'y' (the columns are: t)".to_owned(),
        ),
        (
            "infinite cell",
            g(&good_design),
            g(&write(&dir, "inf.csv", "t\n1\ninf\n2\n")),
            vec![],
            "inf.csv line 3, column 1: 'inf' is not a finite number".to_owned(),
        ),
        ("missing file", g(&dir.join("nowhere.csv")), g(&good_targets), vec![], "cannot read".to_owned()),
        (
            "negative β",
            g(&good_design),
            g(&good_targets),
            vec!["--alpha", "1", "--beta", "-2"],
            "β must be > 0, but is -2".to_owned(),
        ),
    ];
    for (what, design, targets, extra, message) in cases {
        let mut args = vec!["evidence", "--design", &design, "--targets", &targets];
        args.extend(extra);
        let (code, stderr) = run_error(&args);
        assert_eq!(code, 1, "{what}: exit code");
        assert!(stderr.contains(&message), "{what}: stderr {stderr:?} lacks {message:?}");
    }
    // Argument errors exit with 2 and print the usage.
    let (code, stderr) = run_error(&["evidence", "--design", &g(&good_design)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--targets is required") && stderr.contains("usage: rvm-lab evidence"), "{stderr}");
    let (code, _) = run_error(&[]);
    assert_eq!(code, 2);
    let help = run(&["--help"]);
    assert!(help.status.success() && String::from_utf8_lossy(&help.stdout).contains("--method"));
}
