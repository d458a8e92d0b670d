#![cfg(not(target_arch = "wasm32"))]
//! The `rvm-lab` binary end to end: it is run on CSV files written to a temporary folder,
//! and its JSON is compared with the library's own numbers for the same Φ and t
//! (`bayes::Posterior` with α, β given; `evidence::maximise` from `initial_guess` without),
//! and, for the committed fixture, with scikit-learn's (see tests/evidence.rs for that
//! fixture's provenance). `rvm-lab rvm` runs on the committed sinc fixture
//! (tests/fixtures/rvm_sinc_*.csv, made by scripts/fixtures/rvm_sinc.py) and is compared with
//! `FastRvm`/`ClassicRvm` called directly, and its L recomputed from the printed relevant
//! columns, α and β alone. Bad inputs must exit non-zero with a message naming the file
//! and line. `rvm-lab rvm --likelihood bernoulli|softmax` runs on the committed classifier
//! problems of scripts/fixtures/logistic_mode.py and is compared with
//! `ClassicRvmClassifier`/`ClassicMulticlassRvm` called directly, and with the softmax
//! model written out in tests/common/softmax.rs: the printed weights a mode (gradient ≈ 0),
//! L and the accuracy recomputed from the printed columns, weights and α alone.
//! `rvm-lab design` prints Φ as `Basis::from_spec(…).design_matrix(…)` computes it — the
//! call the page's panels make through `app::settings::BasisParams::basis`, on the page's
//! domain `app::settings::X_RANGE` — bit for bit, for every family and a typed formula, and
//! its file is read back by `rvm --design` to the fit of the library's own Φ.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use common::{finished, fixtures, softmax};
use nalgebra::{DMatrix, DVector};
use rvm_lab::app::settings::X_RANGE;
use rvm_lab::basis::{Basis, BasisSpec, Family};
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::data::Sinusoid;
use rvm_lab::evidence::{Scheme, initial_guess, maximise};
use rvm_lab::rvm::classification::{ClassicRvmClassifier, ClassifierSettings, FastRvmClassifier};
use rvm_lab::rvm::likelihood::Likelihood;
use rvm_lab::rvm::multiclass::ClassicMulticlassRvm;
use rvm_lab::rvm::{
    Action, ActivePosterior, ClassicRvm, ClassicSettings, FastRvm, FastSettings, Problem as RvmProblem, Rule, RvmFit,
    Selection,
};
use rvm_lab::solver::Solver;
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
    // The default method is the fixed point; without --column, t is the column named t (the
    // file has x, t: taking the first column would fit x).
    let json = run_json(&["evidence", "--design", d, "--targets", t, "--column", "t"]);
    assert_eq!(json["method"], "fixed-point");
    assert_eq!(run_json(&["evidence", "--design", d, "--targets", t]), json);
}

#[test]
fn without_column_the_targets_are_the_only_or_the_conventional_column_else_refused() {
    let p = problem();
    let dir = Scratch::new("which-column");
    let d = write(&dir, "PHI.csv", &p.design_csv);
    let only_t: String = p.targets_csv.lines().map(|l| l.split(',').nth(1).unwrap().to_owned() + "\n").collect();
    let (only, ambiguous) =
        (write(&dir, "only.csv", &only_t), write(&dir, "xy.csv", &p.targets_csv.replacen("x,t", "x,y", 1)));
    let (d, only, ambiguous) = (d.to_str().unwrap(), only.to_str().unwrap(), ambiguous.to_str().unwrap());
    let named = run_json(&["evidence", "--design", d, "--targets", only, "--column", "t"]);
    assert_eq!(run_json(&["evidence", "--design", d, "--targets", only]), named, "the only column");
    for command in ["evidence", "rvm"] {
        let (code, stderr) = run_error(&[command, "--design", d, "--targets", ambiguous]);
        assert_eq!(code, 1, "{command}");
        assert!(stderr.contains("xy.csv line 1: which column holds the targets? The file has x, y"), "{stderr}");
        assert!(stderr.contains("--column"), "{stderr}");
    }
    // Class labels are looked for under `label`: a file x, t is refused for them.
    let t = write(&dir, "T.csv", &p.targets_csv);
    let (code, stderr) =
        run_error(&["rvm", "--likelihood", "bernoulli", "--design", d, "--targets", t.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(stderr.contains("not exactly one is named 'label'"), "{stderr}");
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

/// The committed sinc fixture: its two paths, and Φ and t read independently of the binary.
struct Sinc {
    design: String,
    targets: String,
    problem: Arc<RvmProblem>,
}

fn sinc_fixture() -> Sinc {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let rows = |name: &str| -> Vec<Vec<f64>> {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        text.lines().skip(1).map(|l| l.split(',').map(|c| c.parse().unwrap()).collect()).collect()
    };
    let (design, targets) = (rows("rvm_sinc_design.csv"), rows("rvm_sinc_targets.csv"));
    let phi = DMatrix::from_fn(design.len(), design[0].len(), |n, m| design[n][m]);
    // The targets file has the columns x, t.
    let t = DVector::from_iterator(targets.len(), targets.iter().map(|row| row[1]));
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    Sinc {
        design: path("rvm_sinc_design.csv"),
        targets: path("rvm_sinc_targets.csv"),
        problem: Arc::new(RvmProblem::new(phi, t).unwrap()),
    }
}

/// A JSON array of numbers.
fn numbers(json: &Value, what: &str) -> Vec<f64> {
    let array = json.as_array().unwrap_or_else(|| panic!("{what}: not an array: {json}"));
    array.iter().map(|v| v.as_f64().unwrap_or_else(|| panic!("{what}: {v} is not a number"))).collect()
}

/// Checks the printed fit against the library's, field by field.
fn assert_fit(json: &Value, fit: &RvmFit, what: &str) {
    let relevant: Vec<usize> =
        json["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert_eq!(relevant, fit.relevant, "{what}: relevant");
    for (key, want) in [("weights", &fit.weights), ("alpha", &fit.alpha)] {
        let got = json[key].as_array().unwrap_or_else(|| panic!("{what}: no {key}"));
        assert_eq!(got.len(), want.len(), "{what}: {key}");
        for (j, (g, w)) in got.iter().zip(want).enumerate() {
            assert_num(g, *w, &format!("{what}: {key}[{j}]"));
        }
    }
    assert_num(&json["beta"], fit.beta, &format!("{what}: beta"));
    assert_num(&json["log_marginal_likelihood"], fit.log_marginal_likelihood, &format!("{what}: L"));
    assert_eq!(json["iterations"].as_u64(), Some(fit.iterations as u64), "{what}: iterations");
    assert_eq!(json["converged"].as_bool(), Some(fit.converged), "{what}: converged");
}

/// L and μ recomputed from the printed relevant columns, α and β alone: through
/// `ActivePosterior::compute` (Σ⁻¹ = A + βΦ_𝒜ᵀΦ_𝒜, PRML 7.83) and through the N × N
/// covariance C = β⁻¹I + Φ_𝒜A⁻¹Φ_𝒜ᵀ, L = −½(N ln 2π + ln|C| + tᵀC⁻¹t) (PRML 7.85).
fn assert_recomputed(json: &Value, problem: &RvmProblem, tolerance: f64, what: &str) {
    let relevant: Vec<usize> =
        json["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    let (alpha, weights) = (numbers(&json["alpha"], "alpha"), numbers(&json["weights"], "weights"));
    let (beta, log_ml) = (json["beta"].as_f64().unwrap(), json["log_marginal_likelihood"].as_f64().unwrap());
    assert!(relevant.windows(2).all(|w| w[0] < w[1]), "{what}: relevant not ascending: {relevant:?}");
    assert!(alpha.iter().all(|a| a.is_finite() && *a > 0.0) && beta > 0.0, "{what}: α {alpha:?}, β {beta}");
    let posterior = ActivePosterior::compute(problem, &relevant, &alpha, beta).unwrap();
    let n = problem.n() as f64;
    assert!((posterior.log_ml - log_ml).abs() <= tolerance * n, "{what}: L {log_ml} vs {}", posterior.log_ml);
    let scale = weights.iter().fold(0.0_f64, |m, w| m.max(w.abs()));
    for (j, w) in weights.iter().enumerate() {
        assert!((posterior.mu[j] - w).abs() <= tolerance * scale, "{what}: weight {j}: {w} vs {}", posterior.mu[j]);
    }
    let phi_a = problem.design().select_columns(&relevant);
    let a_inv = DMatrix::from_diagonal(&DVector::from_iterator(alpha.len(), alpha.iter().map(|a| 1.0 / a)));
    let c = DMatrix::identity(problem.n(), problem.n()) / beta + &phi_a * a_inv * phi_a.transpose();
    let chol = c.cholesky().expect("C is positive definite");
    let t = problem.targets();
    let dense = -0.5 * (n * (2.0 * std::f64::consts::PI).ln() + chol.ln_determinant() + t.dot(&chol.solve(t)));
    assert!((dense - log_ml).abs() <= tolerance * n, "{what}: L {log_ml} vs {dense} through C");
}

#[test]
fn rvm_prints_the_fit_of_each_method_as_the_library_finds_it() {
    let sinc = sinc_fixture();
    let base = ["rvm", "--design", &sinc.design, "--targets", &sinc.targets, "--column", "t"];
    let with = |extra: &[&'static str]| -> Vec<&str> { base.iter().copied().chain(extra.iter().copied()).collect() };
    let fast = |settings: FastSettings| finished(FastRvm::new(Arc::clone(&sinc.problem), settings).unwrap()).fit();
    let cases: Vec<(Vec<&str>, &str, RvmFit)> = vec![
        (with(&[]), "fast", fast(FastSettings::default())),
        (
            with(&["--selection", "cyclic", "--no-alignment-test"]),
            "fast",
            fast(FastSettings { selection: Selection::Cyclic, alignment_test: false, ..FastSettings::default() }),
        ),
        (
            with(&["--selection", "random"]),
            "fast",
            fast(FastSettings { selection: Selection::Random, ..FastSettings::default() }),
        ),
        (
            with(&["--method", "classic"]),
            "classic",
            finished(ClassicRvm::new(Arc::clone(&sinc.problem), ClassicSettings::with_rule(Rule::MacKay)).unwrap())
                .fit(),
        ),
        (
            with(&["--method", "em"]),
            "em",
            finished(
                ClassicRvm::new(
                    Arc::clone(&sinc.problem),
                    ClassicSettings { max_sweeps: 10_000, ..ClassicSettings::with_rule(Rule::Em) },
                )
                .unwrap(),
            )
            .fit(),
        ),
    ];
    for (args, method, fit) in cases {
        let what = args[7..].join(" ");
        let json = run_json(&args);
        assert_eq!(json["method"], method, "{what}");
        assert!(json.get("events").is_none(), "{what}: events without --events");
        assert_fit(&json, &fit, &what);
        // Fast: L is updated step by step, so it agrees with a recompute to rounding;
        // classic and EM recompute it every sweep.
        assert_recomputed(&json, &sinc.problem, 1e-10, &what);
        // Fast and MacKay converge on the fixture; EM creeps, and uses up its 10 000 sweeps.
        assert_eq!(fit.converged, method != "em", "{what}: converged");
    }
}

#[test]
fn rvm_events_start_with_the_initial_addition_and_end_converged() {
    let sinc = sinc_fixture();
    let json = run_json(&["rvm", "--design", &sinc.design, "--targets", &sinc.targets, "--column=t", "--events"]);
    let events = json["events"].as_array().expect("events");
    let mut rvm = FastRvm::new(Arc::clone(&sinc.problem), FastSettings::default()).unwrap();
    rvm.run().unwrap();
    assert_eq!(events.len(), rvm.events().len());
    assert_eq!(events.len() as u64, json["iterations"].as_u64().unwrap() + 1);
    assert_eq!(events[0]["step"], 0);
    assert_eq!(events[0]["action"], "add");
    assert_eq!(events.last().unwrap()["action"], "converged");
    let mut last = f64::NEG_INFINITY;
    for (k, (event, want)) in events.iter().zip(rvm.events()).enumerate() {
        assert_eq!(event["step"].as_u64(), Some(k as u64));
        assert_eq!(event["action"], want.action.name(), "step {k}");
        assert_eq!(event["basis"].as_u64().map(|b| b as usize), want.basis, "step {k}");
        assert_num(&event["log_ml"], want.log_ml, &format!("step {k}: log_ml"));
        let log_ml = event["log_ml"].as_f64().unwrap();
        assert!(log_ml >= last - 1e-9 * log_ml.abs(), "step {k}: L fell from {last} to {log_ml}");
        last = log_ml;
    }
    assert_num(&events.last().unwrap()["log_ml"], json["log_marginal_likelihood"].as_f64().unwrap(), "final L");
}

#[test]
fn event_actions_serialise_under_their_names() {
    for action in [Action::Add, Action::Reestimate, Action::Delete, Action::Noise, Action::Converged] {
        assert_eq!(serde_json::to_value(action).unwrap(), action.name());
    }
}

#[test]
fn rvm_argument_errors_exit_2_with_the_usage() {
    let sinc = sinc_fixture();
    let base = ["rvm", "--design", sinc.design.as_str(), "--targets", sinc.targets.as_str()];
    for (extra, message) in [
        (&["--method", "em", "--events"][..], "--events applies only to --method fast"),
        (&["--method", "classic", "--selection", "cyclic"], "--selection applies only to --method fast"),
        (&["--method", "newton"], "--method must be fast, classic or em, but is 'newton'"),
        (&["--selection", "best"], "--selection must be greedy, cyclic or random, but is 'best'"),
        (&["--events=1"], "--events takes no value"),
        (&["--alpha", "1"], "unknown option '--alpha'"),
    ] {
        let args: Vec<&str> = base.iter().copied().chain(extra.iter().copied()).collect();
        let (code, stderr) = run_error(&args);
        assert_eq!(code, 2, "{extra:?}");
        assert!(stderr.contains(message) && stderr.contains("usage: rvm-lab evidence"), "{extra:?}: {stderr}");
        assert!(stderr.contains("rvm-lab rvm --design"), "{extra:?}: the usage names the rvm command");
    }
    let (code, stderr) = run_error(&["rvm", "--design", &sinc.design]);
    assert!(code == 2 && stderr.contains("--targets is required"), "{stderr}");
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
            "cell beyond the range the lab reads",
            g(&good_design),
            g(&write(&dir, "huge.csv", "t\n1\n1e308\n2\n")),
            vec![],
            "huge.csv line 3, column 1: 1e308 is beyond the range the lab reads, -1e50 to 1e50".to_owned(),
        ),
        (
            "β beyond the range the lab reads",
            g(&good_design),
            g(&good_targets),
            vec!["--alpha", "1", "--beta", "1e308"],
            "--beta must be between -1e50 and 1e50, but is 1e308".to_owned(),
        ),
        (
            "negative β",
            g(&good_design),
            g(&good_targets),
            vec!["--alpha", "1", "--beta", "-2"],
            "β must be > 0, but is -2".to_owned(),
        ),
    ];
    // Both commands read the files the same way and give the same messages (the negative β
    // is the evidence command's own).
    for (what, design, targets, extra, message) in cases {
        for command in ["evidence", "rvm"] {
            if command == "rvm" && extra.contains(&"--alpha") {
                continue;
            }
            let mut args = vec![command, "--design", &design, "--targets", &targets];
            args.extend(extra.iter().copied());
            let (code, stderr) = run_error(&args);
            assert_eq!(code, 1, "{command}, {what}: exit code");
            assert!(stderr.contains(&message), "{command}, {what}: stderr {stderr:?} lacks {message:?}");
        }
    }
    // A design the model refuses: an all-zero Φ has no basis function to start from.
    let zeros = write(&dir, "zeros.csv", "a,b\n0,0\n0,0\n0,0\n");
    let (code, stderr) = run_error(&["rvm", "--design", &g(&zeros), "--targets", &g(&good_targets)]);
    assert_eq!(code, 1, "{stderr}");
    // Argument errors exit with 2 and print the usage.
    let (code, stderr) = run_error(&["evidence", "--design", &g(&good_design)]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--targets is required") && stderr.contains("usage: rvm-lab evidence"), "{stderr}");
    let (code, _) = run_error(&[]);
    assert_eq!(code, 2);
    let help = run(&["--help"]);
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(help.status.success() && text.contains("--method"));
    for line in [
        "usage: rvm-lab evidence --design",
        "rvm-lab rvm --design",
        "--no-alignment-test",
        "--events",
        "[--likelihood gaussian|bernoulli|poisson|softmax]",
    ] {
        assert!(text.contains(line), "--help lacks {line:?}: {text}");
    }
}

/// Every kind of run, on data at the edge of the range the lab reads (10⁵⁰, where the
/// precisions are 10⁻¹⁰⁰ and their squares 10⁻²⁰⁰, and where a design with columns of
/// such sizes overflows): each either
/// prints JSON whose numbers are all finite — `null` only for a pruned α of softmax — or
/// exits 1 with one line naming what went wrong. Never a NaN written as `null`.
#[test]
fn every_kind_of_run_at_the_edge_of_the_range_prints_finite_numbers_or_exits_1() {
    let dir = Scratch::new("edge");
    let n = 40;
    let rows = |f: &dyn Fn(usize) -> String| (0..n).map(|i| f(i) + "\n").collect::<String>();
    let g = |p: PathBuf| p.to_str().unwrap().to_owned();
    let design = g(write(
        &dir,
        "PHI.csv",
        &format!(
            "a,b,c\n{}",
            rows(&|i| {
                let x = i as f64 / n as f64;
                format!("1e50,{:e},{:e}", x * 1e50, x * x * 1e50)
            })
        ),
    ));
    let signs = g(write(
        &dir,
        "SIGNS.csv",
        &format!("a,b\n{}", rows(&|i| format!("1,{}", if i % 3 == 0 { "1e50" } else { "-1e50" }))),
    ));
    let targets =
        g(write(&dir, "T.csv", &format!("t\n{}", rows(&|i| if i % 2 == 1 { "1e50".into() } else { "0".into() }))));
    let counts = g(write(&dir, "COUNTS.csv", &format!("t\n{}", rows(&|i| (i % 3).to_string()))));
    let labels = g(write(&dir, "LABELS.csv", &format!("label\n{}", rows(&|i| (i % 2).to_string()))));
    let runs: Vec<Vec<&str>> = vec![
        vec!["evidence", "--design", &design, "--targets", &targets],
        vec!["evidence", "--design", &design, "--targets", &targets, "--method", "em"],
        vec!["evidence", "--design", &design, "--targets", &targets, "--alpha", "1e-50", "--beta", "1e50"],
        vec!["rvm", "--design", &design, "--targets", &targets],
        vec!["rvm", "--design", &design, "--targets", &targets, "--method", "classic"],
        vec!["rvm", "--design", &design, "--targets", &targets, "--method", "em"],
        vec!["rvm", "--design", &signs, "--targets", &counts, "--likelihood", "poisson"],
        vec!["rvm", "--design", &signs, "--targets", &counts, "--likelihood", "poisson", "--method", "classic"],
        vec!["rvm", "--design", &signs, "--targets", &labels, "--likelihood", "bernoulli"],
        vec!["rvm", "--design", &signs, "--targets", &labels, "--likelihood", "bernoulli", "--method", "classic"],
        vec!["rvm", "--design", &signs, "--targets", &labels, "--likelihood", "softmax"],
    ];
    let (mut printed, mut refused) = (0, 0);
    for args in runs {
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.success() {
            printed += 1;
            let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
            let softmax = args.contains(&"softmax");
            assert_no_null(&json, "", softmax, &args);
        } else {
            refused += 1;
            assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
            assert!(
                out.stdout.is_empty() && stderr.starts_with("rvm-lab: ") && stderr.lines().count() == 1,
                "{args:?}: {stderr}"
            );
        }
    }
    assert!(printed > 0 && refused > 0, "{printed} printed, {refused} refused");
}

/// Asserts that `json` holds no `null` but (for softmax) in its `alpha`.
fn assert_no_null(json: &Value, path: &str, softmax: bool, args: &[&str]) {
    match json {
        Value::Null => assert!(softmax && path.starts_with("alpha"), "{args:?}: null at {path}"),
        Value::Array(items) => {
            items.iter().enumerate().for_each(|(i, v)| assert_no_null(v, &format!("{path}[{i}]"), softmax, args))
        }
        Value::Object(fields) => {
            fields.iter().for_each(|(k, v)| assert_no_null(v, &format!("{path}{k}"), softmax, args))
        }
        _ => {}
    }
}

/// A committed classifier problem (`logistic_binary` or `logistic_multi`): the paths of its
/// two files, Φ and the labels read independently of the binary.
struct Labelled {
    design: String,
    labels: String,
    phi: DMatrix<f64>,
    t: Vec<f64>,
}

fn labelled(name: &str) -> Labelled {
    let (design, labels) =
        (common::fixtures::path(&format!("{name}_design.csv")), common::fixtures::path(&format!("{name}_labels.csv")));
    let (_, rows) = common::fixtures::read_csv(&design);
    let (header, points) = common::fixtures::read_csv(&labels);
    assert_eq!(header, ["x1", "x2", "t"]);
    Labelled {
        design: design.to_str().unwrap().to_owned(),
        labels: labels.to_str().unwrap().to_owned(),
        phi: DMatrix::from_fn(rows.len(), rows[0].len(), |n, i| rows[n][i]),
        t: points.iter().map(|p| p[2]).collect(),
    }
}

/// The printed fit as W and α, M × K, +∞ where pruned: `weights[r]` and `alpha[r]` are
/// K numbers (softmax) or one number (bernoulli: class 1's weight, class 0's fixed at 0,
/// since σ(a) = e^a/(e^0 + e^a)).
fn printed_model(json: &Value, m: usize, classes: usize) -> (DMatrix<f64>, DMatrix<f64>) {
    let relevant: Vec<usize> =
        json["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
    assert!(relevant.windows(2).all(|p| p[0] < p[1]), "relevant not ascending: {relevant:?}");
    let mut w = DMatrix::zeros(m, classes);
    let mut alpha = DMatrix::from_element(m, classes, f64::INFINITY);
    for (r, &i) in relevant.iter().enumerate() {
        let (weights, alphas) = (&json["weights"][r], &json["alpha"][r]);
        if classes == 2 && !weights.is_array() {
            w[(i, 1)] = weights.as_f64().unwrap();
            alpha[(i, 1)] = alphas.as_f64().unwrap();
            continue;
        }
        for k in 0..classes {
            w[(i, k)] = weights[k].as_f64().unwrap();
            match alphas[k].as_f64() {
                Some(a) => alpha[(i, k)] = a,
                None => assert_eq!(w[(i, k)], 0.0, "a pruned weight of column {i} is not 0"),
            }
        }
    }
    (w, alpha)
}

/// The printed fit checked against the softmax model written out: a mode (the gradient
/// below 10⁻⁸ of its terms), L = Ψ + ½Σ ln α − ½ ln|H| (PRML 7.114) and the accuracy
/// recomputed from the printed columns, weights and α.
fn assert_classifier_recomputed(json: &Value, problem: &Labelled, classes: usize, what: &str) {
    let labels: Vec<usize> = problem.t.iter().map(|&t| t as usize).collect();
    let (w, alpha) = printed_model(json, problem.phi.ncols(), classes);
    assert!(alpha.iter().all(|&a| a > 0.0), "{what}: α {alpha}");
    let (g, size) = softmax::gradient(&problem.phi, &labels, &alpha, &w);
    assert!(g.norm() <= 1e-8 * size, "{what}: ‖g‖ = {} of {size}", g.norm());
    let log_ml = json["log_marginal_likelihood"].as_f64().unwrap();
    let recomputed = softmax::laplace_log_ml(&problem.phi, &labels, &alpha, &w);
    assert!((recomputed - log_ml).abs() <= 1e-10 * log_ml.abs(), "{what}: L {log_ml} vs {recomputed}");
    let correct = labels
        .iter()
        .enumerate()
        .filter(|&(n, &c)| {
            let y = softmax::class_probabilities(&softmax::logits(&problem.phi, &w, n));
            (0..classes).all(|k| y[k] < y[c] || (k >= c && y[k] <= y[c]))
        })
        .count();
    assert_num(&json["accuracy"], correct as f64 / labels.len() as f64, &format!("{what}: accuracy"));
}

#[test]
fn rvm_fits_the_classifiers_as_the_library_does() {
    let settings = ClassifierSettings::default();
    // Two classes: bernoulli, fast by default (with its events if asked for), classic by name.
    let binary = labelled("logistic_binary");
    let t = DVector::from_column_slice(&binary.t);
    let classic = finished(ClassicRvmClassifier::new(binary.phi.clone(), t.clone(), settings).unwrap()).fit();
    let problem = Arc::new(RvmProblem::new(binary.phi.clone(), t).unwrap());
    let mut fast = FastRvmClassifier::new(problem, FastSettings::default()).unwrap();
    fast.run().unwrap();
    let fast_fit = fast.fit();
    for (extra, method, want) in [
        (&["--events"][..], "fast", &fast_fit),
        (&["--method", "fast", "--selection", "greedy"][..], "fast", &fast_fit),
        (&["--method", "classic"][..], "classic", &classic),
    ] {
        let mut args = vec!["rvm", "--design", &binary.design, "--targets", &binary.labels, "--column", "t"];
        args.extend(["--likelihood", "bernoulli"]);
        args.extend(extra);
        let json = run_json(&args);
        let what = format!("bernoulli {extra:?}");
        assert_eq!(json["method"], method, "{what}");
        if extra.contains(&"--events") {
            let events = json["events"].as_array().unwrap();
            assert_eq!(events.len(), fast.events().len(), "{what}");
            assert_eq!(events.last().unwrap()["action"], "converged", "{what}");
            assert!(events.iter().all(|e| e.get("beta").is_none()), "{what}: a classifier has no β");
            assert_num(&events[3]["log_ml"], fast.events()[3].log_ml, &what);
        } else {
            assert!(json.get("events").is_none(), "{what}");
        }
        assert!(json.get("beta").is_none() && json.get("classes").is_none(), "{what}: {json}");
        let relevant: Vec<usize> =
            json["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        assert_eq!(relevant, want.relevant, "{what}");
        for (key, values) in [("weights", &want.weights), ("alpha", &want.alpha)] {
            for (j, v) in values.iter().enumerate() {
                assert_num(&json[key][j], *v, &format!("{what}: {key}[{j}]"));
            }
        }
        assert_num(&json["log_marginal_likelihood"], want.log_marginal_likelihood, &what);
        assert_num(&json["accuracy"], want.accuracy.unwrap(), &what);
        assert_eq!(json["iterations"].as_u64(), Some(want.iterations as u64), "{what}");
        assert_eq!(json["converged"].as_bool(), Some(true), "{what}");
        assert_classifier_recomputed(&json, &binary, 2, &what);
    }
    // Three classes: softmax, K from the largest label.
    let multi = labelled("logistic_multi");
    let mut rvm = ClassicMulticlassRvm::new(multi.phi.clone(), &multi.t, 3, settings).unwrap();
    rvm.run().unwrap();
    let want = rvm.fit();
    let json = run_json(&[
        "rvm",
        "--design",
        &multi.design,
        "--targets",
        &multi.labels,
        "--column",
        "t",
        "--likelihood",
        "softmax",
    ]);
    assert_eq!(json["method"], "classic");
    assert_eq!(json["classes"].as_u64(), Some(3));
    assert!(json.get("beta").is_none());
    assert_eq!(serde_json::to_value(&want.relevant).unwrap(), json["relevant"]);
    for (r, (weights, alphas)) in want.weights.iter().zip(&want.alpha).enumerate() {
        for k in 0..3 {
            assert_num(&json["weights"][r][k], weights[k], &format!("softmax: weights[{r}][{k}]"));
            match alphas[k] {
                Some(a) => assert_num(&json["alpha"][r][k], a, &format!("softmax: alpha[{r}][{k}]")),
                None => assert!(json["alpha"][r][k].is_null(), "softmax: alpha[{r}][{k}]"),
            }
        }
    }
    assert_num(&json["log_marginal_likelihood"], want.log_marginal_likelihood, "softmax: L");
    assert_eq!(json["iterations"].as_u64(), Some(want.iterations as u64));
    assert_eq!(json["converged"].as_bool(), Some(true));
    assert_classifier_recomputed(&json, &multi, 3, "softmax");
    eprintln!(
        "softmax: {} relevant, {} active weights, accuracy {}",
        want.relevant.len(),
        rvm.active_weights().len(),
        want.accuracy
    );
}

#[test]
fn bad_labels_exit_1_naming_the_row() {
    let dir = Scratch::new("labels");
    let design = write(&dir, "PHI.csv", "bias,x\n1,0\n1,1\n1,2\n1,3\n");
    let g = |p: &Path| p.to_str().unwrap().to_owned();
    let cases: Vec<(&str, &str, &str)> = vec![
        ("bernoulli", "t\n0\n1\n0.5\n1\n", "T.csv data row 3 (column t): 0.5 is not a class label (labels are 0 or 1"),
        ("bernoulli", "t\n0\n2\n1\n0\n", "data row 2 (column t): 2 is not a class label"),
        (
            "softmax",
            "t\n0\n1\n-1\n2\n",
            "data row 3 (column t): -1 is not a class label (labels are a whole number 0, 1, 2",
        ),
        ("softmax", "t\n0\n0\n0\n0\n", "every label is 0, but --likelihood softmax needs at least two classes"),
        ("softmax", "t\n0\n1\n1000\n0\n", "K must be a whole number from 2 to 100, but is 1001"),
        ("poisson", "t\n0\n3\n-1\n2\n", "T.csv data row 3 (column t): -1 is not a count (counts are whole numbers"),
        ("poisson", "t\n0\n2.5\n1\n2\n", "T.csv data row 2 (column t): 2.5 is not a count"),
    ];
    for (likelihood, text, message) in cases {
        let targets = write(&dir, "T.csv", text);
        let (code, stderr) =
            run_error(&["rvm", "--design", &g(&design), "--targets", &g(&targets), "--likelihood", likelihood]);
        assert_eq!(code, 1, "{likelihood} {text:?}: {stderr}");
        assert!(stderr.contains(message), "{likelihood} {text:?}: {stderr:?} lacks {message:?}");
    }
    for (extra, message) in [
        (
            &["--likelihood", "bernoulli", "--method", "em"][..],
            "--method must be fast or classic for --likelihood bernoulli, but is 'em'",
        ),
        (
            &["--likelihood", "softmax", "--method", "em"],
            "--method must be classic for --likelihood softmax, but is 'em'",
        ),
        (
            &["--likelihood", "softmax", "--events"],
            "--events applies only to --likelihood gaussian, bernoulli or poisson",
        ),
        (
            &["--likelihood", "logistic"],
            "--likelihood must be gaussian, bernoulli, poisson or softmax, but is 'logistic'",
        ),
    ] {
        let targets = write(&dir, "T.csv", "t\n0\n1\n0\n1\n");
        let mut args = vec!["rvm", "--design", design.to_str().unwrap(), "--targets", targets.to_str().unwrap()];
        args.extend(extra);
        let (code, stderr) = run_error(&args);
        assert_eq!(code, 2, "{extra:?}");
        assert!(
            stderr.contains(message) && stderr.contains("--likelihood gaussian|bernoulli|poisson|softmax"),
            "{extra:?}: {stderr}"
        );
    }
}

/// `rvm --likelihood poisson` on the counts of the scikit-learn fixture
/// (scripts/fixtures/poisson_mode.py): the fast and the classic fit print what the library
/// finds (relevant columns, weights, α, L, steps), the mean Poisson deviance recomputed
/// from the printed weights, and neither accuracy nor β.
#[test]
fn rvm_fits_counts_as_the_library_does() {
    let (design, counts) = (fixtures::path("poisson_design.csv"), fixtures::path("poisson_counts.csv"));
    let (_, rows) = fixtures::read_csv(&design);
    let phi = DMatrix::from_fn(rows.len(), rows[0].len(), |r, c| rows[r][c]);
    let (_, count_rows) = fixtures::read_csv(&counts);
    let t = DVector::from_iterator(count_rows.len(), count_rows.iter().map(|row| row[1]));
    let problem = Arc::new(RvmProblem::new(phi.clone(), t.clone()).unwrap());
    let mut fast = FastRvmClassifier::with_likelihood(Likelihood::Poisson, problem, FastSettings::default()).unwrap();
    fast.run().unwrap();
    let mut classic = ClassicRvmClassifier::with_likelihood(
        Likelihood::Poisson,
        phi.clone(),
        t.clone(),
        ClassifierSettings::default(),
    )
    .unwrap();
    classic.run().unwrap();
    let g = |p: &Path| p.to_str().unwrap().to_owned();
    for (method, want) in [("fast", fast.fit()), ("classic", classic.fit())] {
        // The counts file has the columns x and t: without --column, t is read.
        let json = run_json(&[
            "rvm",
            "--design",
            &g(&design),
            "--targets",
            &g(&counts),
            "--likelihood",
            "poisson",
            "--method",
            method,
        ]);
        assert_eq!(json["method"], method);
        assert!(json.get("accuracy").is_none() && json.get("beta").is_none(), "{method}: {json}");
        let relevant: Vec<usize> =
            json["relevant"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as usize).collect();
        assert_eq!(relevant, want.relevant, "{method}");
        for (key, values) in [("weights", &want.weights), ("alpha", &want.alpha)] {
            for (j, v) in values.iter().enumerate() {
                assert_num(&json[key][j], *v, &format!("{method}: {key}[{j}]"));
            }
        }
        assert_num(&json["log_marginal_likelihood"], want.log_marginal_likelihood, method);
        assert_eq!(json["iterations"].as_u64(), Some(want.iterations as u64), "{method}");
        assert_eq!(json["converged"].as_bool(), Some(true), "{method}");
        // The deviance from the printed weights: y = exp(Φ_𝒜w), 2/N Σ t ln(t/y) − (t − y).
        let weights = numbers(&json["weights"], method);
        let y = phi.select_columns(&relevant) * DVector::from_vec(weights);
        let deviance = y
            .iter()
            .zip(t.iter())
            .map(|(&a, &t)| {
                let y = a.exp();
                2.0 * (if t > 0.0 { t * (t / y).ln() } else { 0.0 } - (t - y))
            })
            .sum::<f64>()
            / t.len() as f64;
        assert!((json["mean_deviance"].as_f64().unwrap() - deviance).abs() < 1e-9 * deviance, "{method}: {deviance}");
        eprintln!(
            "poisson {method}: {} relevant, L = {}, mean deviance {deviance}",
            relevant.len(),
            want.log_marginal_likelihood
        );
    }
}

// ---------------------------------------------------------------------------------------
// rvm-lab design.
// ---------------------------------------------------------------------------------------

/// Runs `design`, which must succeed, and reads its CSV: the header and Φ.
fn run_design(args: &[&str]) -> (Vec<String>, DMatrix<f64>) {
    let out = run(args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(str::to_owned).collect();
    let rows: Vec<Vec<f64>> = lines.map(|l| l.split(',').map(|c| c.parse().unwrap()).collect()).collect();
    assert!(rows.iter().all(|row| row.len() == header.len()), "{args:?}: ragged");
    let phi = DMatrix::from_fn(rows.len(), header.len(), |n, j| rows[n][j]);
    (header, phi)
}

#[test]
fn design_prints_the_pages_design_for_every_family() {
    let dir = Scratch::new("design-families");
    let d = Sinusoid { n: 30, noise: 0.25, seed: 9 }.generate().unwrap();
    let inputs: String = d.x.iter().map(|x| format!("{x}\n")).collect();
    let headed = write(&dir, "X.csv", &format!("x\n{inputs}"));
    let headerless = write(&dir, "X-plain.csv", &inputs);
    let (headed, headerless) = (headed.to_str().unwrap(), headerless.to_str().unwrap());
    let gaussian = "exp(-(x - mu)^2/(2*s^2))";
    let cases: Vec<(Vec<&str>, BasisSpec, (f64, f64))> = vec![
        (vec!["--basis", "polynomial", "--M", "4", "--bias"], spec(Family::Polynomial, 4, 0.1, 3, true, ""), X_RANGE),
        (vec!["--basis", "gaussian"], spec(Family::Gaussian, 9, 0.1, 3, false, ""), X_RANGE),
        (
            vec!["--basis", "sigmoid", "--M", "6", "--s", "0.2", "--bias"],
            spec(Family::Sigmoid, 6, 0.2, 3, true, ""),
            X_RANGE,
        ),
        (
            vec!["--basis", "fourier", "--M", "7", "--lo", "-1", "--hi", "2"],
            spec(Family::Fourier, 7, 0.1, 3, false, ""),
            (-1.0, 2.0),
        ),
        (
            vec!["--basis", "bspline", "--M", "8", "--degree", "2", "--bias"],
            spec(Family::BSpline, 8, 0.1, 2, true, ""),
            X_RANGE,
        ),
        (vec!["--basis", "wavelet", "--M", "7", "--s", "0.5"], spec(Family::Wavelet, 7, 0.5, 3, false, ""), X_RANGE),
        (vec!["--basis", "kernel", "--s", "0.3", "--bias"], spec(Family::Kernel, 9, 0.3, 3, true, ""), X_RANGE),
        (
            vec!["--basis", "formula", "--formula", "x^j*sin(pi*x/s) + erf(x - mu)", "--M", "5", "--s", "0.4"],
            spec(Family::Formula, 5, 0.4, 3, false, "x^j*sin(pi*x/s) + erf(x - mu)"),
            X_RANGE,
        ),
        (
            vec!["--basis", "formula", "--formula", gaussian, "--M", "10", "--bias", "--lo", "0.1", "--hi", "0.9"],
            spec(Family::Formula, 10, 0.1, 3, true, gaussian),
            (0.1, 0.9),
        ),
    ];
    for (extra, spec, domain) in cases {
        let what = extra.join(" ");
        let want = Basis::from_spec(&spec, domain, &d.x).unwrap().design_matrix(&d.x).unwrap();
        for file in [headed, headerless] {
            let args: Vec<&str> = ["design", "--x", file].into_iter().chain(extra.iter().copied()).collect();
            let (header, phi) = run_design(&args);
            assert_eq!(phi, want, "{what}: Φ bit for bit");
            let k = want.ncols() - usize::from(spec.bias);
            let mut names: Vec<String> = (1..=k).map(|j| format!("phi{j}")).collect();
            if spec.bias {
                names.insert(0, "bias".to_owned());
            }
            assert_eq!(header, names, "{what}");
        }
    }
    // The formula of the Gaussian family is its design, to rounding.
    let family = run_design(&["design", "--x", headed, "--basis", "gaussian", "--M", "6", "--s", "0.15"]).1;
    let typed =
        run_design(&["design", "--x", headed, "--basis", "formula", "--formula", gaussian, "--M", "6", "--s", "0.15"])
            .1;
    assert!((family - typed).amax() < 1e-14);
}

fn spec(family: Family, m: usize, width: f64, degree: usize, bias: bool, formula: &str) -> BasisSpec {
    let formula = if formula.is_empty() { BasisSpec::default().formula } else { formula.into() };
    BasisSpec { family, m, width, degree, bias, formula }
}

#[test]
fn a_design_file_is_what_rvm_reads() {
    let dir = Scratch::new("design-rvm");
    let d = Sinusoid { n: 25, noise: 0.2, seed: 3 }.generate().unwrap();
    let inputs: String = d.x.iter().map(|x| format!("{x}\n")).collect();
    let x_file = write(&dir, "X.csv", &inputs);
    let targets: String = d.t.iter().map(|t| format!("{t}\n")).collect();
    let t_file = write(&dir, "t.csv", &format!("t\n{targets}"));
    let out =
        run(&["design", "--x", x_file.to_str().unwrap(), "--basis", "gaussian", "--M", "8", "--s", "0.2", "--bias"]);
    assert!(out.status.success() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let phi_file = dir.join("phi.csv");
    std::fs::write(&phi_file, &out.stdout).unwrap();
    let json = run_json(&["rvm", "--design", phi_file.to_str().unwrap(), "--targets", t_file.to_str().unwrap()]);
    let spec = spec(Family::Gaussian, 8, 0.2, 3, true, "");
    let phi = Basis::from_spec(&spec, X_RANGE, &d.x).unwrap().design_matrix(&d.x).unwrap();
    let problem = Arc::new(RvmProblem::new(phi, DVector::from_vec(d.t.clone())).unwrap());
    assert_fit(&json, &finished(FastRvm::new(problem, FastSettings::default()).unwrap()).fit(), "design | rvm");
}

#[test]
fn design_errors_say_what_is_wrong() {
    let dir = Scratch::new("design-errors");
    let x = write(&dir, "X.csv", "x\n0.1\n0.5\n0.9\n");
    let x = x.to_str().unwrap();
    let formula = |text: &str| run_error(&["design", "--x", x, "--basis", "formula", "--formula", text, "--M", "4"]);
    assert_eq!(
        formula("exp(-(x - sigma)^2)"),
        (1, "rvm-lab: unknown name 'sigma' at character 11 — did you mean s?\n".into())
    );
    assert_eq!(
        formula("2x + mu"),
        (1, "rvm-lab: missing an operator before 'x' at character 2: write 2*x, not 2x\n".into())
    );
    assert_eq!(
        formula("x^2"),
        (1, "rvm-lab: every function is the same: the formula does not depend on mu or j\n".into())
    );
    let (code, message) = formula("1/(x - mu)");
    assert_eq!(code, 1);
    assert_eq!(message, "rvm-lab: φ_1(x) has no finite value at x = 0: 1/0 is inf, a division by zero\n");
    let (code, message) = run_error(&["design", "--x", x, "--basis", "formula"]);
    assert_eq!(code, 2);
    assert!(message.starts_with("rvm-lab: --basis formula needs --formula"), "{message}");
    assert!(message.contains("rvm-lab design --x X.csv --basis FAMILY"), "the usage names the design command");
    // The inputs: one column, or the one named x; numbers; a file that is there.
    let two = write(&dir, "two.csv", "a,b\n1,2\n");
    assert_eq!(
        run_error(&["design", "--x", two.to_str().unwrap(), "--basis", "gaussian"]).1,
        format!("rvm-lab: {}: 2 columns (a, b), but the inputs are one column, or the one named x\n", two.display())
    );
    let named = write(&dir, "named.csv", "t,x\n1,0.25\n");
    let (header, phi) = run_design(&["design", "--x", named.to_str().unwrap(), "--basis", "polynomial", "--M", "2"]);
    assert_eq!((header.len(), phi.as_slice()), (2, &[0.25, 0.0625][..]), "the column named x");
    let bad = write(&dir, "bad.csv", "0.5\nabc\n");
    assert_eq!(
        run_error(&["design", "--x", bad.to_str().unwrap(), "--basis", "gaussian"]).1,
        format!("rvm-lab: {} line 2, column 1: 'abc' is not a number\n", bad.display())
    );
    let (code, message) =
        run_error(&["design", "--x", &dir.join("missing.csv").to_string_lossy(), "--basis", "gaussian"]);
    assert!(code == 1 && message.contains("cannot read"), "{message}");
    // A built-in family's overflow is an error, not inf in the file.
    let huge = write(&dir, "huge.csv", "1e50\n");
    assert_eq!(
        run_error(&["design", "--x", huge.to_str().unwrap(), "--basis", "polynomial", "--M", "8"]).1,
        "rvm-lab: φ_7(x) has no finite value at x = 1e50 (it comes out inf): a division by zero, an overflow, or a \
         root or logarithm of a negative number\n"
    );
    // Inputs outside the page's domain are laid out all the same, with a note.
    let far = write(&dir, "far.csv", "3e6\n5e6\n");
    let out = run(&["design", "--x", far.to_str().unwrap(), "--basis", "gaussian", "--M", "3"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("note: some inputs lie outside [0, 1]"));
    let far = far.to_str().unwrap();
    let in_units =
        ["design", "--x", far, "--basis", "gaussian", "--M", "3", "--lo", "3e6", "--hi", "5e6", "--s", "1e6"];
    let out = run(&in_units);
    assert!(out.status.success() && out.stderr.is_empty());
    // The polynomial and the kernel do not lay their functions out on the domain: no note.
    for family in ["polynomial", "kernel"] {
        let out = run(&["design", "--x", far, "--basis", family]);
        assert!(out.status.success() && out.stderr.is_empty(), "{family}");
    }
}
