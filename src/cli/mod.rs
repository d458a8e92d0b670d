//! The `rvm-lab` command line (native only):
//!
//! ```text
//! rvm-lab evidence --design PHI.csv --targets T.csv [--column NAME]
//!                  [--alpha A --beta B] [--method fixed-point|em]
//! rvm-lab rvm --design PHI.csv --targets T.csv [--column NAME]
//!             [--likelihood gaussian|bernoulli|poisson|softmax]
//!             [--method fast|classic|em] [--selection greedy|cyclic|random]
//!             [--no-alignment-test] [--events]
//! rvm-lab design --x X.csv --basis FAMILY [--formula F] [--M M] [--s S] [--degree P]
//!                [--bias] [--lo A --hi B]
//! rvm-lab docs panels [--root DIR] [--check]
//! ```
//!
//! `evidence`: with α and β given, prints ln p(t|α,β), m_N and S_N
//! ([`rvm_lab::bayes::Posterior`]); without, the (α, β) that maximise the evidence
//! ([`rvm_lab::evidence::maximise`], from [`rvm_lab::evidence::initial_guess`]).
//!
//! `rvm`: the relevance vector machine, one αᵢ per column of Φ (PRML §7.2), by the fast
//! sequential method ([`rvm_lab::rvm::FastRvm`], Tipping & Faul 2003) or by re-estimating
//! every αᵢ at once ([`rvm_lab::rvm::ClassicRvm`]: MacKay's rule PRML 7.87–7.88, or EM
//! PRML 9.67–9.68); prints [`rvm_lab::rvm::RvmFit`] and, for the fast method on request,
//! its [`rvm_lab::rvm::Event`]s. The classic methods have no events (`--events` with them
//! is an argument error): a sweep changes every αᵢ at once. With `--likelihood bernoulli`
//! or `softmax` the targets are class labels and `rvm` fits the classifier instead
//! ([`rvm_lab::rvm::classification::ClassicRvmClassifier`], PRML 7.108–7.116, or
//! [`rvm_lab::rvm::multiclass::ClassicMulticlassRvm`], PRML 7.120–7.122) and prints its
//! fit with the accuracy; with `--likelihood poisson` the targets are counts with rate
//! exp(wᵀφ) (the same machinery, [`rvm_lab::rvm::likelihood::Likelihood::Poisson`]) and the
//! fit comes with the mean Poisson deviance.
//!
//! `design`: the design matrix Φ of a basis ([`rvm_lab::basis::Basis::from_spec`] and
//! [`rvm_lab::basis::Basis::design_matrix`], as the page's panels call them) at the inputs
//! of a CSV file, written as CSV for `--design`; the domain is the page's,
//! [`rvm_lab::app::settings::X_RANGE`], unless `--lo` and `--hi` say otherwise.
//!
//! `docs panels`: the URL-key tables of `docs/panels.md`, generated from the panels' own
//! parameter lists ([`docs`]).
//!
//! `evidence` and `rvm` read Φ and t with the same CSV rules ([`csv::Table`],
//! [`read_problem`]). Output is JSON on stdout (CSV for `design`); errors go to stderr with
//! exit code 2 (bad arguments) or 1 (bad data, or no maximum).

use std::path::PathBuf;
use std::process::ExitCode;

use std::collections::BTreeMap;
use std::sync::Arc;

use nalgebra::{DMatrix, DVector};
use rvm_lab::app::settings::X_RANGE;
use rvm_lab::basis::{Basis, BasisSpec, DEFAULT_FORMULA, Family};
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::error::Compact;
use rvm_lab::evidence::{Scheme, initial_guess, maximise};
use rvm_lab::rvm::classification::{ClassicRvmClassifier, ClassifierSettings, FastRvmClassifier, GlmFit};
use rvm_lab::rvm::likelihood::{Likelihood, MAX_COUNT};
use rvm_lab::rvm::multiclass::{ClassicMulticlassRvm, MulticlassFit};
use rvm_lab::rvm::{ClassicRvm, ClassicSettings, Event, FastRvm, FastSettings, Problem, Rule, RvmFit, Selection};
use rvm_lab::solver::Solver;
use serde::Serialize;
use thiserror::Error as ThisError;

mod csv;
mod docs;
mod finite;

use csv::{CsvError, Table};

/// The usage text, printed by `--help` and after an argument error.
const USAGE: &str = "\
usage: rvm-lab evidence --design PHI.csv --targets T.csv [--column NAME]
                        [--alpha A --beta B] [--method fixed-point|em]
       rvm-lab rvm --design PHI.csv --targets T.csv [--column NAME]
                   [--likelihood gaussian|bernoulli|poisson|softmax]
                   [--method fast|classic|em] [--selection greedy|cyclic|random]
                   [--no-alignment-test] [--events]
       rvm-lab design --x X.csv --basis FAMILY [--formula F] [--M M] [--s S]
                      [--degree P] [--bias] [--lo A --hi B]
       rvm-lab docs panels [--root DIR] [--check]
       rvm-lab --help

  --design PHI.csv   design matrix Φ: a header line, then one row per point and one
                     column per basis function
  --targets T.csv    targets t: a header line, then one row per point
  --column NAME      the targets' column, by header name (default: the only column, or
                     the one named t — label with --likelihood bernoulli or softmax;
                     otherwise the command refuses and lists the columns)

evidence: one prior precision α for all weights (PRML 3.5). Prints the maximising alpha,
beta, gamma, log_evidence, iterations and method; given --alpha and --beta, log_evidence,
mean (m_N) and covariance (S_N).
  --alpha A          prior precision α > 0 } give both to evaluate ln p(t|α,β), m_N, S_N;
  --beta B           noise precision β > 0 } give neither to maximise the evidence
  --method M         fixed-point (PRML 3.92 and 3.95 together, the default) or em (PRML 9.63)

rvm: the relevance vector machine, one αᵢ per column of Φ (PRML 7.2). Prints method,
relevant (0-based columns of Φ), weights, alpha (theirs), beta, log_marginal_likelihood
(ln p(t|α,β), −N/2 ln 2π included), iterations (steps or sweeps) and converged.
  --method M         fast (Tipping & Faul 2003, the default), classic (MacKay's
                     re-estimation, PRML 7.87–7.88) or em (PRML 9.67–9.68, ≤ 10000 sweeps)
  --selection S      fast only: the basis function of each step: greedy (the largest gain
                     in L, deletions first; the default), cyclic or random (seed 0)
  --no-alignment-test  fast only: do not refuse candidates nearly parallel to an active one
  --events           fast only: also print events, every step (step 0: the first add)
  --likelihood L     gaussian (regression, the default); bernoulli: two classes, the targets
                     are labels 0 or 1, y = σ(wᵀφ) (PRML 7.108–7.116); softmax: K classes,
                     labels 0 … K − 1 with K = the largest label + 1, one weight per column
                     and class (PRML 7.120–7.122). bernoulli takes --method fast (the default:
                     the fast method on the Laplace linearisation, PRML 7.117–7.119, with
                     --selection, --no-alignment-test, --events) or classic; softmax takes
                     classic only (αᵢ = γᵢ/wᵢ*² sweeps around the Laplace mode, ≤ 2000). Both
                     print accuracy (the fraction of points whose most probable class is
                     their label) instead of beta; softmax also prints classes (K), and for
                     each relevant column K weights and K alpha (null where pruned).
                     poisson: counts 0, 1, 2, … with rate exp(wᵀφ) (Tipping 2001 §4), the
                     methods and options of bernoulli; prints mean_deviance (the mean Poisson
                     deviance, 2/N Σ t ln(t/y) − (t − y)) instead of accuracy

design: the design matrix Φ of a basis at the inputs, as the page computes it, written as
CSV: a header line (bias, phi1, phi2, …), then one row per input — a file for --design.
  --x X.csv          the inputs: one column (or the one named x), with or without a header
  --basis FAMILY     polynomial, gaussian, sigmoid, fourier, bspline, wavelet, kernel (a
                     Gaussian on each input) or formula
  --formula F        for formula: φ_j(x) written with x, mu (the centre μ_j, spread as the
                     Gaussians'), s (the width), j = 1 … K and K (the functions besides the
                     bias), e.g. 'exp(-(x - mu)^2/(2*s^2))'; + - * / ^, pi, e, exp, ln,
                     log10, sqrt, abs, sin, cos, tan, sinh, cosh, tanh, sigmoid, erf, sign,
                     floor, ceil, min(a, b), max(a, b)
  --M M              functions, the bias included (default 9; kernel: one per input)
  --s S              width s > 0 of gaussian, sigmoid, wavelet, kernel, formula (default 0.1)
  --degree P         bspline degree 0 … 5 (default 3)
  --bias             a first column φ_0(x) = 1 (counted in M)
  --lo A --hi B      the domain the functions are laid out on (default 0 and 1, the page's)

docs panels: writes the URL-key tables of docs/panels.md (between its <!-- keys:… -->
markers) from the panels' parameter lists, defaults and the page's English labels.
  --root DIR         the repository's folder (default: the current one)
  --check            write nothing; exit 1 if the file is not what the panels generate";

/// Everything that can go wrong, with its message.
#[derive(Debug, ThisError)]
enum CliError {
    /// The command line is wrong.
    #[error("{0}\n\n{USAGE}")]
    Usage(String),
    /// A CSV file is wrong.
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// A target is not a class label (or a count) of the chosen likelihood, or there is one
    /// class only.
    #[error("{0}")]
    Labels(String),
    /// The inputs of `design` are not one column.
    #[error("{0}")]
    Inputs(String),
    /// The two files disagree on N.
    #[error("{targets} has {target_rows} data rows, but {design} has {design_rows}")]
    RowMismatch { design: String, design_rows: usize, targets: String, target_rows: usize },
    /// The numeric core refused the data or found no maximum.
    #[error(transparent)]
    Model(#[from] rvm_lab::Error),
    /// The output could not be written.
    #[error("cannot write the output: {0}")]
    Output(String),
    /// A documentation file could not be generated, or is not what the code generates.
    #[error("{0}")]
    Docs(String),
}

impl CliError {
    fn exit_code(&self) -> ExitCode {
        match self {
            CliError::Usage(_) => ExitCode::from(2),
            _ => ExitCode::FAILURE,
        }
    }
}

/// How α and β are chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mode {
    /// Both given.
    Given { alpha: f64, beta: f64 },
    /// Maximise the evidence, by the fixed point of the lecture notes on linear models' eq
    /// 45 or by EM.
    Maximise(Method),
}

/// The `--method` choices.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Method {
    FixedPoint,
    Em,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::FixedPoint => "fixed-point",
            Method::Em => "em",
        }
    }

    fn scheme(self) -> Scheme {
        match self {
            Method::FixedPoint => Scheme::Both,
            Method::Em => Scheme::Em,
        }
    }
}

/// The data files, as both commands name them.
#[derive(Debug, Clone, PartialEq)]
struct Input {
    design: PathBuf,
    targets: PathBuf,
    column: Option<String>,
}

/// The parsed command line of `rvm-lab evidence`.
#[derive(Debug, Clone, PartialEq)]
struct EvidenceArgs {
    input: Input,
    mode: Mode,
}

/// The `--method` choices of `rvm-lab rvm`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum RvmMethod {
    /// Tipping & Faul's sequential method, with its options.
    Fast { selection: Selection, alignment_test: bool, events: bool },
    /// All αᵢ re-estimated at once by `rule`.
    Classic(Rule),
}

impl RvmMethod {
    fn name(self) -> &'static str {
        match self {
            RvmMethod::Fast { .. } => "fast",
            RvmMethod::Classic(Rule::MacKay) => "classic",
            RvmMethod::Classic(Rule::Em) => "em",
        }
    }
}

/// Most EM sweeps of `rvm --method em` (EM creeps: the default budget of the classic
/// method, 100 000 sweeps, would take minutes on a large problem that does not converge).
const EM_MAX_SWEEPS: usize = 10_000;

/// The methods of the classifiers and of counts (`--likelihood bernoulli|poisson|softmax`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum ClassifierMethod {
    /// Tipping & Faul's sequential method on the Laplace linearisation (PRML 7.117–7.119),
    /// with the regression method's options; binary only.
    Fast { selection: Selection, alignment_test: bool, events: bool },
    /// All αᵢ re-estimated at once around the Laplace mode (PRML 7.116).
    Classic,
}

impl ClassifierMethod {
    fn name(self) -> &'static str {
        match self {
            ClassifierMethod::Fast { .. } => "fast",
            ClassifierMethod::Classic => "classic",
        }
    }
}

/// The model `rvm-lab rvm` fits, by `--likelihood`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Model {
    /// `gaussian`: regression, t = Φw + ε.
    Regression(RvmMethod),
    /// `bernoulli`: two classes, labels 0 and 1.
    Binary(ClassifierMethod),
    /// `poisson`: counts 0, 1, 2, … with rate exp(wᵀφ).
    Counts(ClassifierMethod),
    /// `softmax`: K classes, labels 0 … K − 1.
    Multiclass(ClassifierMethod),
}

/// The parsed command line of `rvm-lab rvm`.
#[derive(Debug, Clone, PartialEq)]
struct RvmArgs {
    input: Input,
    model: Model,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
enum Command {
    Help,
    Evidence(EvidenceArgs),
    Rvm(RvmArgs),
    Design(DesignArgs),
    Docs(docs::DocsArgs),
}

/// The parsed command line of `rvm-lab design`.
#[derive(Debug, Clone, PartialEq)]
struct DesignArgs {
    /// The inputs' file.
    x: PathBuf,
    /// The basis, as the page's settings hold it.
    spec: BasisSpec,
    /// `--lo`, `--hi`; the page's domain without them.
    domain: Option<(f64, f64)>,
}

/// Runs the command line `args` (without the program name): JSON on stdout, or the error on
/// stderr and a non-zero exit code.
pub fn main(args: impl IntoIterator<Item = String>) -> ExitCode {
    match parse_command(args.into_iter().collect()).and_then(execute) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rvm-lab: {e}");
            e.exit_code()
        }
    }
}

/// Carries out `command`.
fn execute(command: Command) -> Result<(), CliError> {
    let json = match command {
        Command::Help => {
            println!("{USAGE}");
            return Ok(());
        }
        Command::Evidence(args) => evidence(&args)?,
        Command::Rvm(args) => rvm(&args)?,
        Command::Design(args) => design(&args)?,
        Command::Docs(args) => docs::run(&args)?,
    };
    println!("{json}");
    Ok(())
}

/// `rvm-lab evidence`: the JSON text of the result.
fn evidence(args: &EvidenceArgs) -> Result<String, CliError> {
    let (phi, t, _) = read_problem(&args.input, "t")?;
    match args.mode {
        Mode::Given { alpha, beta } => to_json(&Evaluated::new(&phi, &t, alpha, beta)?),
        Mode::Maximise(method) => to_json(&Maximised::new(&phi, &t, method)?),
    }
}

/// `rvm-lab rvm`: the JSON text of the fit.
fn rvm(args: &RvmArgs) -> Result<String, CliError> {
    let conventional = match args.model {
        Model::Regression(_) | Model::Counts(_) => "t",
        Model::Binary(_) | Model::Multiclass(_) => "label",
    };
    let (phi, t, column) = read_problem(&args.input, conventional)?;
    let file = args.input.targets.display().to_string();
    match args.model {
        Model::Regression(method) => {
            let problem = Arc::new(Problem::new(phi, DVector::from_vec(t))?);
            to_json(&Relevance::new(problem, method)?)
        }
        Model::Binary(method) => {
            class_count(&t, (&file, &column), Some(2))?;
            to_json(&Classified::glm(Likelihood::Bernoulli, phi, t, method)?)
        }
        Model::Counts(method) => {
            check_counts(&t, (&file, &column))?;
            to_json(&Classified::glm(Likelihood::Poisson, phi, t, method)?)
        }
        Model::Multiclass(method) => {
            let classes = class_count(&t, (&file, &column), None)?;
            to_json(&Classified::multiclass(phi, &t, classes, method)?)
        }
    }
}

/// `rvm-lab design`: the CSV text of Φ, a header line and one row per input. A note goes to
/// stderr when the page's domain is taken, the family lays its functions out on it (all but
/// the polynomial and the kernel) and an input lies outside it.
fn design(args: &DesignArgs) -> Result<String, CliError> {
    let x = read_inputs(&args.x)?;
    let (lo, hi) = args.domain.unwrap_or(X_RANGE);
    let basis = Basis::from_spec(&args.spec, (lo, hi), &x)?;
    let phi = basis.design_matrix(&x)?;
    let laid_out = !matches!(args.spec.family, Family::Polynomial | Family::Kernel);
    if laid_out && args.domain.is_none() && x.iter().any(|v| !(lo..=hi).contains(v)) {
        eprintln!(
            "rvm-lab: note: some inputs lie outside [{lo}, {hi}], the domain the functions are laid out on; \
             give --lo and --hi to lay them out over the inputs"
        );
    }
    let offset = usize::from(basis.bias());
    let names = (0..phi.ncols()).map(|c| if c < offset { "bias".to_owned() } else { format!("phi{}", c + 1 - offset) });
    let mut text = names.collect::<Vec<_>>().join(",");
    for row in phi.row_iter() {
        let cells: Vec<String> = row.iter().map(|&v| Compact(v).to_string()).collect();
        text.push('\n');
        text.push_str(&cells.join(","));
    }
    Ok(text)
}

/// The inputs of `design`: the only column of the file, or the one named x.
fn read_inputs(path: &std::path::Path) -> Result<Vec<f64>, CliError> {
    let table = Table::read_optional_header(path)?;
    let named: Vec<usize> = (0..table.header.len()).filter(|&j| table.header[j] == "x").collect();
    match (table.header.len(), named.as_slice()) {
        (1, _) => Ok(table.column(0)),
        (_, &[j]) => Ok(table.column(j)),
        (columns, _) => Err(CliError::Inputs(format!(
            "{}: {columns} columns ({}), but the inputs are one column, or the one named x",
            table.file,
            table.header.join(", ")
        ))),
    }
}

/// K for the class labels `t` (read from `column` of `file`): each must be a whole number
/// from 0 to `classes` − 1 (when given), else an error naming the file, the data row and the
/// label; without `classes`, K is the largest label + 1 and must be at least 2.
fn class_count(t: &[f64], (file, column): (&str, &str), classes: Option<usize>) -> Result<usize, CliError> {
    let column = format!("column {column}");
    let (rule, top) = match classes {
        Some(k) => ("0 or 1 for --likelihood bernoulli".to_owned(), (k - 1) as f64),
        None => ("a whole number 0, 1, 2, … for --likelihood softmax".to_owned(), f64::MAX),
    };
    if let Some((row, value)) = t.iter().enumerate().find(|&(_, &v)| v.fract() != 0.0 || !(0.0..=top).contains(&v)) {
        let row = row + 1;
        return Err(CliError::Labels(format!(
            "{file} data row {row} ({column}): {value} is not a class label (labels are {rule})"
        )));
    }
    let largest = t.iter().fold(0.0_f64, |m, &v| m.max(v));
    match classes {
        Some(k) => Ok(k),
        None if largest >= 1.0 => Ok((largest as usize).saturating_add(1)),
        None => Err(CliError::Labels(format!(
            "{file} ({column}): every label is 0, but --likelihood softmax needs at least two classes"
        ))),
    }
}

/// Checks that every target is a count, a whole number from 0 to [`MAX_COUNT`]: else an
/// error naming the file, the data row and the value.
fn check_counts(t: &[f64], (file, column): (&str, &str)) -> Result<(), CliError> {
    match t.iter().enumerate().find(|&(_, &v)| !Likelihood::Poisson.admits(v)) {
        Some((row, value)) => Err(CliError::Labels(format!(
            "{file} data row {} (column {column}): {value} is not a count (counts are whole numbers from 0 to \
             {MAX_COUNT} for --likelihood poisson)",
            row + 1
        ))),
        None => Ok(()),
    }
}

/// The JSON text of an output, which is where the command line commits a result: a number
/// in it that is NaN or ±∞ (which JSON would write as `null`) is [`rvm_lab::Error::Overflow`]
/// instead, naming its field.
fn to_json<T: Serialize>(value: &T) -> Result<String, CliError> {
    if let Some((quantity, value)) = finite::first_non_finite(value) {
        return Err(rvm_lab::Error::overflow(quantity, value).into());
    }
    serde_json::to_string_pretty(value).map_err(|e| CliError::Output(e.to_string()))
}

/// The output with α and β given.
#[derive(Debug, Serialize)]
struct Evaluated {
    alpha: f64,
    beta: f64,
    /// ln p(t|α,β) (PRML 3.86).
    log_evidence: f64,
    /// m_N (PRML 3.53).
    mean: Vec<f64>,
    /// S_N (PRML 3.54), row by row.
    covariance: Vec<Vec<f64>>,
}

impl Evaluated {
    fn new(phi: &DMatrix<f64>, t: &[f64], alpha: f64, beta: f64) -> Result<Self, CliError> {
        let posterior = Posterior::fit(phi, t, Hyperparameters::new(alpha, beta)?)?;
        let covariance = posterior.covariance();
        Ok(Self {
            alpha,
            beta,
            log_evidence: posterior.log_evidence(),
            mean: posterior.mean().iter().copied().collect(),
            covariance: covariance.row_iter().map(|row| row.iter().copied().collect()).collect(),
        })
    }
}

/// The output of a maximisation.
#[derive(Debug, Serialize)]
struct Maximised {
    method: &'static str,
    alpha: f64,
    beta: f64,
    gamma: f64,
    log_evidence: f64,
    iterations: usize,
}

impl Maximised {
    fn new(phi: &DMatrix<f64>, t: &[f64], method: Method) -> Result<Self, CliError> {
        let best = maximise(phi, t, method.scheme(), initial_guess(t)?)?;
        Ok(Self {
            method: method.name(),
            alpha: best.alpha,
            beta: best.beta,
            gamma: best.gamma,
            log_evidence: best.log_evidence,
            iterations: best.iterations,
        })
    }
}

/// The output of `rvm-lab rvm`: the fit, and the fast method's events if asked for.
#[derive(Debug, Serialize)]
struct Relevance {
    method: &'static str,
    /// The fast method's selection rule.
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<&'static str>,
    #[serde(flatten)]
    fit: RvmFit,
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<Vec<Event>>,
}

impl Relevance {
    fn new(problem: Arc<Problem>, method: RvmMethod) -> Result<Self, CliError> {
        let (fit, selection, events) = match method {
            RvmMethod::Fast { selection, alignment_test, events } => {
                let settings = FastSettings { selection, alignment_test, ..FastSettings::default() };
                let mut fast = FastRvm::new(problem, settings)?;
                fast.run()?;
                let fit = fast.fit();
                (fit, Some(selection.name()), events.then(|| fast.events().to_vec()))
            }
            RvmMethod::Classic(rule) => {
                let mut settings = ClassicSettings::with_rule(rule);
                if rule == Rule::Em {
                    settings.max_sweeps = EM_MAX_SWEEPS;
                }
                let mut classic = ClassicRvm::new(problem, settings)?;
                classic.run()?;
                (classic.fit(), None, None)
            }
        };
        Ok(Self { method: method.name(), selection, fit, events })
    }
}

/// The output of `rvm-lab rvm --likelihood bernoulli|poisson|softmax`: the method, the fit, and
/// the fast method's selection and events if asked for.
#[derive(Debug, Serialize)]
struct Classified<F> {
    method: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    selection: Option<&'static str>,
    #[serde(flatten)]
    fit: F,
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<Vec<Event>>,
}

impl Classified<GlmFit> {
    /// The fit of classes (`Bernoulli`) or counts (`Poisson`).
    fn glm(likelihood: Likelihood, phi: DMatrix<f64>, t: Vec<f64>, method: ClassifierMethod) -> Result<Self, CliError> {
        let t = DVector::from_vec(t);
        let (fit, selection, events) = match method {
            ClassifierMethod::Fast { selection, alignment_test, events } => {
                let settings = FastSettings { selection, alignment_test, ..FastSettings::default() };
                let problem = Arc::new(Problem::new(phi, t)?);
                let mut fast = FastRvmClassifier::with_likelihood(likelihood, problem, settings)?;
                fast.run()?;
                let fit = fast.fit();
                (fit, Some(selection.name()), events.then(|| fast.events().to_vec()))
            }
            ClassifierMethod::Classic => {
                let mut classic =
                    ClassicRvmClassifier::with_likelihood(likelihood, phi, t, ClassifierSettings::default())?;
                classic.run()?;
                (classic.fit(), None, None)
            }
        };
        Ok(Self { method: method.name(), selection, fit, events })
    }
}

impl Classified<MulticlassFit> {
    fn multiclass(phi: DMatrix<f64>, t: &[f64], classes: usize, method: ClassifierMethod) -> Result<Self, CliError> {
        let mut classic = ClassicMulticlassRvm::new(phi, t, classes, ClassifierSettings::default())?;
        classic.run()?;
        let fit = classic.fit();
        Ok(Self { method: method.name(), selection: None, fit, events: None })
    }
}

/// Φ from the design file and t from the chosen column of the targets file: the reading
/// both commands share.
/// Without `--column`, t is the only column or the one named `conventional`
/// ([`Table::targets_column`]). Returns Φ, t and the name of t's column.
fn read_problem(input: &Input, conventional: &str) -> Result<(DMatrix<f64>, Vec<f64>, String), CliError> {
    let design = Table::read(&input.design)?;
    let targets = Table::read(&input.targets)?;
    let column = targets.targets_column(input.column.as_deref(), conventional)?;
    if targets.rows.len() != design.rows.len() {
        return Err(CliError::RowMismatch {
            design: design.file,
            design_rows: design.rows.len(),
            targets: targets.file,
            target_rows: targets.rows.len(),
        });
    }
    let phi = DMatrix::from_fn(design.rows.len(), design.header.len(), |n, j| design.rows[n][j]);
    Ok((phi, targets.column(column), targets.header[column].clone()))
}

/// Parses the whole command line.
fn parse_command(args: Vec<String>) -> Result<Command, CliError> {
    match args.split_first() {
        None => Err(CliError::Usage("no command given".to_owned())),
        Some((first, _)) if first == "--help" || first == "-h" || first == "help" => Ok(Command::Help),
        Some((first, rest)) if first == "evidence" => parse_evidence(rest).map(Command::Evidence),
        Some((first, rest)) if first == "rvm" => parse_rvm(rest).map(Command::Rvm),
        Some((first, rest)) if first == "design" => parse_design(rest).map(Command::Design),
        Some((first, rest)) if first == "docs" => parse_docs(rest).map(Command::Docs),
        Some((first, _)) => {
            Err(CliError::Usage(format!("unknown command '{first}' (the commands are: evidence, rvm, design, docs)")))
        }
    }
}

/// An option's name (without `--`) and whether it takes a value.
type Spec = (&'static str, Takes);

/// Whether an option takes a value.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Takes {
    /// `--name value` or `--name=value`.
    Value,
    /// `--name` alone: a switch.
    Nothing,
}

/// The options both commands take.
const INPUT_OPTIONS: [Spec; 3] = [("design", Takes::Value), ("targets", Takes::Value), ("column", Takes::Value)];

/// The options of `rvm-lab evidence`.
const EVIDENCE_OPTIONS: [Spec; 3] = [("alpha", Takes::Value), ("beta", Takes::Value), ("method", Takes::Value)];

/// The options of `rvm-lab rvm`.
const RVM_OPTIONS: [Spec; 5] = [
    ("likelihood", Takes::Value),
    ("method", Takes::Value),
    ("selection", Takes::Value),
    ("no-alignment-test", Takes::Nothing),
    ("events", Takes::Nothing),
];

/// The options given, each at most once: name → value (`None` for a switch).
#[derive(Debug, Default)]
struct Options {
    given: BTreeMap<&'static str, Option<String>>,
}

/// The options of `rvm-lab design`.
const DESIGN_OPTIONS: [Spec; 9] = [
    ("x", Takes::Value),
    ("basis", Takes::Value),
    ("formula", Takes::Value),
    ("M", Takes::Value),
    ("s", Takes::Value),
    ("degree", Takes::Value),
    ("bias", Takes::Nothing),
    ("lo", Takes::Value),
    ("hi", Takes::Value),
];

/// The options of `rvm-lab docs panels`.
const DOCS_OPTIONS: [Spec; 2] = [("root", Takes::Value), ("check", Takes::Nothing)];

impl Options {
    /// Sorts `--name value`, `--name=value` and `--name` (switches) into [`Options`],
    /// accepting the options of [`INPUT_OPTIONS`] and `own`.
    fn collect(args: &[String], own: &[Spec]) -> Result<Self, CliError> {
        let accepted: Vec<Spec> = INPUT_OPTIONS.iter().chain(own).copied().collect();
        Self::collect_only(args, &accepted)
    }

    /// The same, accepting the options of `accepted` alone.
    fn collect_only(args: &[String], accepted: &[Spec]) -> Result<Self, CliError> {
        let mut given = BTreeMap::new();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            let Some(flag) = arg.strip_prefix("--") else {
                return Err(CliError::Usage(format!("unexpected argument '{arg}'")));
            };
            let (name, inline) = match flag.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (flag, None),
            };
            let &(name, takes) = accepted
                .iter()
                .find(|(known, _)| *known == name)
                .ok_or_else(|| CliError::Usage(format!("unknown option '--{name}'")))?;
            if given.contains_key(name) {
                return Err(CliError::Usage(format!("--{name} is given twice")));
            }
            let value = match (takes, inline) {
                (Takes::Nothing, None) => None,
                (Takes::Nothing, Some(_)) => return Err(CliError::Usage(format!("--{name} takes no value"))),
                (Takes::Value, Some(value)) => Some(value),
                (Takes::Value, None) => {
                    Some(rest.next().cloned().ok_or_else(|| CliError::Usage(format!("--{name} needs a value")))?)
                }
            };
            given.insert(name, value);
        }
        Ok(Self { given })
    }

    /// The value of `--name`, if given.
    fn value(&self, name: &str) -> Option<&str> {
        self.given.get(name).and_then(|v| v.as_deref())
    }

    /// Whether `--name` is given.
    fn has(&self, name: &str) -> bool {
        self.given.contains_key(name)
    }

    /// The data files.
    fn input(&self) -> Result<Input, CliError> {
        let required = |flag: &str| {
            self.value(flag).map(PathBuf::from).ok_or_else(|| CliError::Usage(format!("--{flag} is required")))
        };
        Ok(Input {
            design: required("design")?,
            targets: required("targets")?,
            column: self.value("column").map(str::to_owned),
        })
    }
}

/// Parses the arguments after `evidence`.
fn parse_evidence(args: &[String]) -> Result<EvidenceArgs, CliError> {
    let options = Options::collect(args, &EVIDENCE_OPTIONS)?;
    let mode = match (options.value("alpha"), options.value("beta")) {
        (Some(alpha), Some(beta)) if !options.has("method") => {
            Mode::Given { alpha: parse_number("--alpha", alpha)?, beta: parse_number("--beta", beta)? }
        }
        (Some(_), Some(_)) => {
            return Err(CliError::Usage("--method applies only when α and β are to be found".to_owned()));
        }
        (None, None) => Mode::Maximise(parse_method(options.value("method"))?),
        _ => return Err(CliError::Usage("give both --alpha and --beta, or neither".to_owned())),
    };
    Ok(EvidenceArgs { input: options.input()?, mode })
}

/// Parses the arguments after `docs`: `panels`, then its options.
fn parse_docs(args: &[String]) -> Result<docs::DocsArgs, CliError> {
    match args.split_first() {
        Some((what, rest)) if what == "panels" => {
            let options = Options::collect_only(rest, &DOCS_OPTIONS)?;
            let root = PathBuf::from(options.value("root").unwrap_or("."));
            Ok(docs::DocsArgs { root, check: options.has("check") })
        }
        Some((what, _)) => Err(CliError::Usage(format!("unknown docs '{what}' (there is: panels)"))),
        None => Err(CliError::Usage("docs needs what to generate: panels".to_owned())),
    }
}

/// The names of the families (the page's, [`Family::ALL`]) that `keep`, as a list ("a, b or c").
fn family_names(keep: fn(Family) -> bool) -> String {
    let names: Vec<&str> = Family::ALL.into_iter().filter(|&f| keep(f)).map(Family::name).collect();
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => names.concat(),
    }
}

/// Parses the arguments after `design`. An option the family does not use is an error, as
/// is `--formula` without `--basis formula` and the reverse.
fn parse_design(args: &[String]) -> Result<DesignArgs, CliError> {
    let options = Options::collect_only(args, &DESIGN_OPTIONS)?;
    let required = |flag: &str| options.value(flag).ok_or_else(|| CliError::Usage(format!("--{flag} is required")));
    let x = PathBuf::from(required("x")?);
    let name = required("basis")?;
    let family = Family::from_name(name)
        .ok_or_else(|| CliError::Usage(format!("--basis must be {}, but is '{name}'", family_names(|_| true))))?;
    let applies = |flag: &str, used: bool, only: &str| {
        if options.has(flag) && !used {
            return Err(CliError::Usage(format!("--{flag} applies only to --basis {only}")));
        }
        Ok(())
    };
    applies("formula", family == Family::Formula, "formula")?;
    applies("M", family.count_is_free(), &family_names(Family::count_is_free))?;
    applies("s", family.uses_width(), &family_names(Family::uses_width))?;
    applies("degree", family.uses_degree(), &family_names(Family::uses_degree))?;
    let mut spec = BasisSpec { family, bias: options.has("bias"), ..BasisSpec::default() };
    match options.value("formula") {
        Some(text) => spec.formula = text.into(),
        None if family == Family::Formula => {
            return Err(CliError::Usage(format!("--basis formula needs --formula, e.g. '{DEFAULT_FORMULA}'")));
        }
        None => {}
    }
    let whole = |flag: &str, text: &str| {
        text.trim().parse::<usize>().map_err(|_| CliError::Usage(format!("--{flag}: '{text}' is not a whole number")))
    };
    if let Some(m) = options.value("M") {
        spec.m = whole("M", m)?;
    }
    if let Some(degree) = options.value("degree") {
        spec.degree = whole("degree", degree)?;
    }
    if let Some(width) = options.value("s") {
        spec.width = parse_number("--s", width)?;
    }
    let domain = match (options.value("lo"), options.value("hi")) {
        (Some(lo), Some(hi)) => Some((parse_number("--lo", lo)?, parse_number("--hi", hi)?)),
        (None, None) => None,
        _ => return Err(CliError::Usage("give both --lo and --hi, or neither".to_owned())),
    };
    Ok(DesignArgs { x, spec, domain })
}

/// The options that belong to the fast regression method.
const FAST_ONLY: [&str; 3] = ["selection", "no-alignment-test", "events"];

/// Parses the arguments after `rvm`.
fn parse_rvm(args: &[String]) -> Result<RvmArgs, CliError> {
    let options = Options::collect(args, &RVM_OPTIONS)?;
    let model = match options.value("likelihood") {
        None | Some("gaussian") => Model::Regression(parse_regression_method(&options)?),
        Some("bernoulli") => Model::Binary(parse_glm_method(&options, "bernoulli")?),
        Some("poisson") => Model::Counts(parse_glm_method(&options, "poisson")?),
        Some("softmax") => Model::Multiclass(parse_softmax_method(&options)?),
        Some(other) => {
            return Err(CliError::Usage(format!(
                "--likelihood must be gaussian, bernoulli, poisson or softmax, but is '{other}'"
            )));
        }
    };
    Ok(RvmArgs { input: options.input()?, model })
}

/// The `--method` of the binary classifier and of counts (`likelihood`): fast (the
/// default, with the regression method's options) or classic.
fn parse_glm_method(options: &Options, likelihood: &str) -> Result<ClassifierMethod, CliError> {
    match options.value("method") {
        None | Some("fast") => {
            let (selection, alignment_test, events) = parse_fast_options(options)?;
            Ok(ClassifierMethod::Fast { selection, alignment_test, events })
        }
        Some("classic") => {
            refuse_fast_options(options, "--method fast")?;
            Ok(ClassifierMethod::Classic)
        }
        Some(other) => Err(CliError::Usage(format!(
            "--method must be fast or classic for --likelihood {likelihood}, but is '{other}'"
        ))),
    }
}

/// The `--method` of the multiclass classifier: classic, the only one.
fn parse_softmax_method(options: &Options) -> Result<ClassifierMethod, CliError> {
    refuse_fast_options(options, "--likelihood gaussian, bernoulli or poisson")?;
    match options.value("method") {
        None | Some("classic") => Ok(ClassifierMethod::Classic),
        Some(other) => {
            Err(CliError::Usage(format!("--method must be classic for --likelihood softmax, but is '{other}'")))
        }
    }
}

/// The fast method's options: `--selection` (greedy when absent), `--no-alignment-test`,
/// `--events`.
fn parse_fast_options(options: &Options) -> Result<(Selection, bool, bool), CliError> {
    let selection = match options.value("selection") {
        None => Selection::Greedy,
        Some(name) => Selection::from_name(name)
            .map_err(|_| CliError::Usage(format!("--selection must be greedy, cyclic or random, but is '{name}'")))?,
    };
    Ok((selection, !options.has("no-alignment-test"), options.has("events")))
}

/// Refuses the fast method's options where they do not apply (`only` says where they do).
fn refuse_fast_options(options: &Options, only: &str) -> Result<(), CliError> {
    match FAST_ONLY.iter().find(|o| options.has(o)) {
        Some(fast_only) => Err(CliError::Usage(format!("--{fast_only} applies only to {only}"))),
        None => Ok(()),
    }
}

/// The `--method` of the regression RVM and its options.
fn parse_regression_method(options: &Options) -> Result<RvmMethod, CliError> {
    let method = match options.value("method") {
        None | Some("fast") => {
            let (selection, alignment_test, events) = parse_fast_options(options)?;
            RvmMethod::Fast { selection, alignment_test, events }
        }
        Some(other) => {
            let rule = match other {
                "classic" => Rule::MacKay,
                "em" => Rule::Em,
                _ => {
                    return Err(CliError::Usage(format!("--method must be fast, classic or em, but is '{other}'")));
                }
            };
            refuse_fast_options(options, "--method fast")?;
            RvmMethod::Classic(rule)
        }
    };
    Ok(method)
}

/// A number given on the command line, within the range the lab reads
/// ([`rvm_lab::error::ensure_in_range`], the page's rule too); its own range is checked by
/// the core.
fn parse_number(flag: &str, text: &str) -> Result<f64, CliError> {
    let value = text.trim().parse().map_err(|_| CliError::Usage(format!("{flag}: '{text}' is not a number")))?;
    Ok(rvm_lab::error::ensure_in_range(flag, value)?)
}

/// The `--method` value of `evidence`; fixed-point when absent.
fn parse_method(text: Option<&str>) -> Result<Method, CliError> {
    match text {
        None | Some("fixed-point") => Ok(Method::FixedPoint),
        Some("em") => Ok(Method::Em),
        Some(other) => Err(CliError::Usage(format!("--method must be fixed-point or em, but is '{other}'"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Command, CliError> {
        parse_command(args.iter().map(|s| (*s).to_owned()).collect())
    }

    fn usage_error(args: &[&str]) -> String {
        match parse(args) {
            Err(CliError::Usage(message)) => message,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn parses_both_modes() {
        let given = parse(&["evidence", "--design", "p.csv", "--targets=t.csv", "--alpha", "2", "--beta", "0.5"]);
        let input = Input { design: "p.csv".into(), targets: "t.csv".into(), column: None };
        let want = EvidenceArgs { input, mode: Mode::Given { alpha: 2.0, beta: 0.5 } };
        assert_eq!(given.unwrap(), Command::Evidence(want));
        let em = parse(&["evidence", "--design", "p", "--targets", "t", "--column", "y", "--method", "em"]).unwrap();
        let Command::Evidence(em) = em else { panic!("not evidence") };
        assert_eq!((em.input.column.as_deref(), em.mode), (Some("y"), Mode::Maximise(Method::Em)));
        assert_eq!(parse(&["--help"]).unwrap(), Command::Help);
    }

    fn rvm_method(args: &[&str]) -> RvmMethod {
        let mut all = vec!["rvm", "--design", "p", "--targets", "t"];
        all.extend(args);
        match parse(&all) {
            Ok(Command::Rvm(RvmArgs { model: Model::Regression(method), .. })) => method,
            other => panic!("{all:?}: {other:?}"),
        }
    }

    #[test]
    fn parses_the_rvm_methods_and_switches() {
        let fast = |selection, alignment_test, events| RvmMethod::Fast { selection, alignment_test, events };
        assert_eq!(rvm_method(&[]), fast(Selection::Greedy, true, false));
        assert_eq!(
            rvm_method(&["--events", "--method=fast", "--selection", "cyclic", "--no-alignment-test"]),
            fast(Selection::Cyclic, false, true)
        );
        assert_eq!(rvm_method(&["--selection=random"]), fast(Selection::Random, true, false));
        assert_eq!(rvm_method(&["--method", "classic"]), RvmMethod::Classic(Rule::MacKay));
        assert_eq!(rvm_method(&["--method", "em"]), RvmMethod::Classic(Rule::Em));
        let Ok(Command::Rvm(args)) = parse(&["rvm", "--targets", "t", "--column", "y", "--design", "p"]) else {
            panic!("rvm not parsed");
        };
        assert_eq!(args.input, Input { design: "p".into(), targets: "t".into(), column: Some("y".into()) });
    }

    #[test]
    fn parses_the_likelihoods() {
        let model = |extra: &[&str]| {
            let mut all = vec!["rvm", "--design", "p", "--targets", "t"];
            all.extend(extra);
            match parse(&all) {
                Ok(Command::Rvm(args)) => args.model,
                other => panic!("{all:?}: {other:?}"),
            }
        };
        let fast = RvmMethod::Fast { selection: Selection::Greedy, alignment_test: true, events: false };
        assert_eq!(model(&["--likelihood", "gaussian"]), Model::Regression(fast));
        assert_eq!(
            model(&["--likelihood=gaussian", "--method", "classic"]),
            Model::Regression(RvmMethod::Classic(Rule::MacKay))
        );
        let fast_binary = ClassifierMethod::Fast { selection: Selection::Greedy, alignment_test: true, events: false };
        assert_eq!(model(&["--likelihood", "bernoulli"]), Model::Binary(fast_binary));
        assert_eq!(
            model(&["--likelihood", "bernoulli", "--selection", "cyclic", "--events"]),
            Model::Binary(ClassifierMethod::Fast { selection: Selection::Cyclic, alignment_test: true, events: true })
        );
        assert_eq!(
            model(&["--likelihood", "bernoulli", "--method", "classic"]),
            Model::Binary(ClassifierMethod::Classic)
        );
        assert_eq!(
            model(&["--method=classic", "--likelihood", "softmax"]),
            Model::Multiclass(ClassifierMethod::Classic)
        );
        let rvm = |extra: &[&'static str]| {
            let mut args = vec!["rvm", "--design", "p", "--targets", "t"];
            args.extend(extra);
            usage_error(&args)
        };
        assert_eq!(
            model(&["--likelihood", "poisson", "--method", "classic"]),
            Model::Counts(ClassifierMethod::Classic)
        );
        assert_eq!(model(&["--likelihood", "poisson"]), Model::Counts(fast_binary));
        assert_eq!(
            rvm(&["--likelihood", "gamma"]),
            "--likelihood must be gaussian, bernoulli, poisson or softmax, but is 'gamma'"
        );
        assert_eq!(
            rvm(&["--likelihood", "poisson", "--method", "em"]),
            "--method must be fast or classic for --likelihood poisson, but is 'em'"
        );
        assert_eq!(
            rvm(&["--likelihood", "bernoulli", "--method", "em"]),
            "--method must be fast or classic for --likelihood bernoulli, but is 'em'"
        );
        assert_eq!(
            rvm(&["--likelihood", "softmax", "--method", "em"]),
            "--method must be classic for --likelihood softmax, but is 'em'"
        );
        assert_eq!(
            rvm(&["--likelihood", "softmax", "--events"]),
            "--events applies only to --likelihood gaussian, bernoulli or poisson"
        );
        assert_eq!(
            rvm(&["--likelihood", "bernoulli", "--method", "classic", "--selection", "cyclic"]),
            "--selection applies only to --method fast"
        );
    }

    #[test]
    fn counts_are_checked_row_by_row() {
        let input = ("T.csv", "t");
        assert!(check_counts(&[0.0, 3.0, 12.0], input).is_ok());
        let message = |t: &[f64]| match check_counts(t, input) {
            Err(CliError::Labels(message)) => message,
            other => panic!("{t:?}: {other:?}"),
        };
        let rule = "(counts are whole numbers from 0 to 1000000000 for --likelihood poisson)";
        assert_eq!(message(&[1.0, -2.0]), format!("T.csv data row 2 (column t): -2 is not a count {rule}"));
        assert_eq!(message(&[0.5]), format!("T.csv data row 1 (column t): 0.5 is not a count {rule}"));
        assert_eq!(message(&[1.0, 2.0, f64::NAN]), format!("T.csv data row 3 (column t): NaN is not a count {rule}"));
        assert_eq!(message(&[f64::INFINITY]), format!("T.csv data row 1 (column t): inf is not a count {rule}"));
    }

    #[test]
    fn class_labels_are_checked_row_by_row() {
        let input = ("T.csv", "t");
        let message = |t: &[f64], classes| match class_count(t, input, classes) {
            Err(CliError::Labels(message)) => message,
            other => panic!("{t:?}: {other:?}"),
        };
        assert_eq!(class_count(&[0.0, 1.0, 1.0], input, Some(2)).unwrap(), 2);
        assert_eq!(class_count(&[0.0, 0.0], input, Some(2)).unwrap(), 2);
        assert_eq!(class_count(&[2.0, 0.0, 1.0, 4.0], input, None).unwrap(), 5);
        assert_eq!(
            message(&[0.0, 1.0, 0.5], Some(2)),
            "T.csv data row 3 (column t): 0.5 is not a class label (labels are 0 or 1 for --likelihood bernoulli)"
        );
        assert_eq!(
            message(&[2.0, 0.0], Some(2)),
            "T.csv data row 1 (column t): 2 is not a class label (labels are 0 or 1 for --likelihood bernoulli)"
        );
        assert_eq!(
            message(&[1.0, -1.0], None),
            "T.csv data row 2 (column t): -1 is not a class label (labels are a whole number 0, 1, 2, … for \
             --likelihood softmax)"
        );
        assert_eq!(
            message(&[0.0, 0.0], None),
            "T.csv (column t): every label is 0, but --likelihood softmax needs at least two classes"
        );
        assert_eq!(class_count(&[1e300, 0.0], input, None).unwrap(), usize::MAX);
    }

    #[test]
    fn parses_design_and_refuses_what_the_family_does_not_use() {
        let design = |extra: &[&str]| {
            let mut all = vec!["design", "--x", "X.csv"];
            all.extend(extra);
            match parse(&all) {
                Ok(Command::Design(args)) => args,
                other => panic!("{all:?}: {other:?}"),
            }
        };
        let args = design(&["--basis", "gaussian"]);
        assert_eq!(args.x, PathBuf::from("X.csv"));
        assert_eq!(args.spec, BasisSpec { bias: false, ..BasisSpec::default() });
        assert_eq!(args.domain, None);
        let args = design(&[
            "--basis=formula",
            "--formula",
            "x^j",
            "--M",
            "4",
            "--s",
            "0.5",
            "--bias",
            "--lo",
            "-1",
            "--hi=2",
        ]);
        let want =
            BasisSpec { family: Family::Formula, m: 4, width: 0.5, formula: "x^j".into(), ..BasisSpec::default() };
        assert_eq!((args.spec, args.domain), (want, Some((-1.0, 2.0))));
        assert_eq!(design(&["--basis", "bspline", "--degree", "2"]).spec.degree, 2);
        let refused = |extra: &[&str]| {
            let mut all = vec!["design", "--x", "X.csv"];
            all.extend(extra);
            usage_error(&all)
        };
        assert_eq!(
            refused(&["--basis", "spline"]),
            "--basis must be polynomial, gaussian, sigmoid, fourier, bspline, wavelet, kernel or formula, but is 'spline'"
        );
        assert_eq!(
            refused(&["--basis", "formula"]),
            "--basis formula needs --formula, e.g. 'exp(-(x - mu)^2/(2*s^2))'"
        );
        assert_eq!(refused(&["--basis", "gaussian", "--formula", "x"]), "--formula applies only to --basis formula");
        assert_eq!(
            refused(&["--basis", "polynomial", "--s", "1"]),
            "--s applies only to --basis gaussian, sigmoid, wavelet, kernel or formula"
        );
        assert_eq!(refused(&["--basis", "gaussian", "--degree", "1"]), "--degree applies only to --basis bspline");
        assert_eq!(
            refused(&["--basis", "kernel", "--M", "5"]),
            "--M applies only to --basis polynomial, gaussian, sigmoid, fourier, bspline, wavelet or formula"
        );
        assert_eq!(refused(&["--basis", "gaussian", "--M", "five"]), "--M: 'five' is not a whole number");
        assert_eq!(refused(&["--basis", "gaussian", "--lo", "0"]), "give both --lo and --hi, or neither");
        assert_eq!(refused(&["--basis", "gaussian", "--s", "abc"]), "--s: 'abc' is not a number");
        assert_eq!(refused(&["--basis", "gaussian", "--targets", "t"]), "unknown option '--targets'");
        assert_eq!(usage_error(&["design", "--basis", "gaussian"]), "--x is required");
        assert_eq!(usage_error(&["design", "--x", "X.csv"]), "--basis is required");
    }

    #[test]
    fn parses_docs_panels_and_refuses_the_data_options() {
        let default = docs::DocsArgs { root: ".".into(), check: false };
        assert_eq!(parse(&["docs", "panels"]).unwrap(), Command::Docs(default));
        let checked = docs::DocsArgs { root: "/repo".into(), check: true };
        assert_eq!(parse(&["docs", "panels", "--check", "--root=/repo"]).unwrap(), Command::Docs(checked));
        assert_eq!(usage_error(&["docs"]), "docs needs what to generate: panels");
        assert_eq!(usage_error(&["docs", "lessons"]), "unknown docs 'lessons' (there is: panels)");
        assert_eq!(usage_error(&["docs", "panels", "--design", "p"]), "unknown option '--design'");
    }

    #[test]
    fn argument_errors_say_what_is_wrong() {
        assert_eq!(usage_error(&[]), "no command given");
        assert_eq!(usage_error(&["fit"]), "unknown command 'fit' (the commands are: evidence, rvm, design, docs)");
        assert_eq!(usage_error(&["evidence", "--targets", "t"]), "--design is required");
        assert_eq!(
            usage_error(&["evidence", "--design", "p", "--targets", "t", "--alpha", "1"]),
            "give both --alpha and --beta, or neither"
        );
        assert_eq!(usage_error(&["evidence", "--design"]), "--design needs a value");
        assert_eq!(usage_error(&["evidence", "--design", "a", "--design", "b"]), "--design is given twice");
        assert_eq!(usage_error(&["evidence", "--seed", "1"]), "unknown option '--seed'");
        assert_eq!(usage_error(&["evidence", "p.csv"]), "unexpected argument 'p.csv'");
        assert_eq!(
            usage_error(&["evidence", "--design", "p", "--targets", "t", "--alpha", "x", "--beta", "1"]),
            "--alpha: 'x' is not a number"
        );
        assert_eq!(
            usage_error(&["evidence", "--design", "p", "--targets", "t", "--method", "newton"]),
            "--method must be fixed-point or em, but is 'newton'"
        );
        // The rvm command's own options, and the evidence command's refused there.
        let rvm = |extra: &[&'static str]| {
            let mut args = vec!["rvm", "--design", "p", "--targets", "t"];
            args.extend(extra);
            usage_error(&args)
        };
        assert_eq!(rvm(&["--method", "fixed-point"]), "--method must be fast, classic or em, but is 'fixed-point'");
        assert_eq!(rvm(&["--selection", "best"]), "--selection must be greedy, cyclic or random, but is 'best'");
        assert_eq!(rvm(&["--method", "em", "--events"]), "--events applies only to --method fast");
        assert_eq!(rvm(&["--method", "classic", "--selection", "cyclic"]), "--selection applies only to --method fast");
        assert_eq!(
            rvm(&["--method", "em", "--no-alignment-test"]),
            "--no-alignment-test applies only to --method fast"
        );
        assert_eq!(rvm(&["--events=yes"]), "--events takes no value");
        assert_eq!(rvm(&["--events", "--events"]), "--events is given twice");
        assert_eq!(rvm(&["--alpha", "1"]), "unknown option '--alpha'");
        assert_eq!(usage_error(&["rvm", "--design", "p"]), "--targets is required");
        assert_eq!(usage_error(&["evidence", "--events"]), "unknown option '--events'");
    }
}
