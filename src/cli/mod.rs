//! The `rvm-lab` command line (native only):
//!
//! ```text
//! rvm-lab evidence --design PHI.csv --targets T.csv [--column NAME]
//!                  [--alpha A --beta B] [--method fixed-point|em]
//! ```
//!
//! With α and β given, prints ln p(t|α,β), m_N and S_N ([`rvm_lab::bayes::Posterior`]);
//! without, the (α, β) that maximise the evidence ([`rvm_lab::evidence::maximise`], from
//! [`rvm_lab::evidence::initial_guess`]). Output is JSON on stdout; errors go to stderr
//! with exit code 2 (bad arguments) or 1 (bad data, or no maximum).

use std::path::PathBuf;
use std::process::ExitCode;

use nalgebra::DMatrix;
use rvm_lab::bayes::{Hyperparameters, Posterior};
use rvm_lab::evidence::{Scheme, initial_guess, maximise};
use serde::Serialize;
use thiserror::Error as ThisError;

mod csv;

use csv::{CsvError, Table};

/// The usage text, printed by `--help` and after an argument error.
const USAGE: &str = "\
usage: rvm-lab evidence --design PHI.csv --targets T.csv [--column NAME]
                        [--alpha A --beta B] [--method fixed-point|em]

  --design PHI.csv   design matrix Φ: a header line, then one row per point and one
                     column per basis function
  --targets T.csv    targets t: a header line, then one row per point
  --column NAME      the targets' column, by header name (default: the first column)
  --alpha A          prior precision α > 0 } give both to evaluate ln p(t|α,β), m_N, S_N;
  --beta B           noise precision β > 0 } give neither to maximise the evidence
  --method M         fixed-point (001 eq 45, the default) or em (PRML 9.63)";

/// Everything that can go wrong, with its message.
#[derive(Debug, ThisError)]
enum CliError {
    /// The command line is wrong.
    #[error("{0}\n\n{USAGE}")]
    Usage(String),
    /// A CSV file is wrong.
    #[error(transparent)]
    Csv(#[from] CsvError),
    /// The two files disagree on N.
    #[error("{targets} has {target_rows} data rows, but {design} has {design_rows}")]
    RowMismatch { design: String, design_rows: usize, targets: String, target_rows: usize },
    /// The numeric core refused the data or found no maximum.
    #[error(transparent)]
    Model(#[from] rvm_lab::Error),
    /// The output could not be written.
    #[error("cannot write the output: {0}")]
    Output(String),
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
    /// Maximise the evidence, by the fixed point of 001 eq 45 or by EM.
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

/// The parsed command line of `rvm-lab evidence`.
#[derive(Debug, Clone, PartialEq)]
struct EvidenceArgs {
    design: PathBuf,
    targets: PathBuf,
    column: Option<String>,
    mode: Mode,
}

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
enum Command {
    Help,
    Evidence(EvidenceArgs),
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
    };
    println!("{json}");
    Ok(())
}

/// `rvm-lab evidence`: the JSON text of the result.
fn evidence(args: &EvidenceArgs) -> Result<String, CliError> {
    let (phi, t) = read_problem(args)?;
    let json = match args.mode {
        Mode::Given { alpha, beta } => to_json(&Evaluated::new(&phi, &t, alpha, beta)?),
        Mode::Maximise(method) => to_json(&Maximised::new(&phi, &t, method)?),
    };
    json.map_err(|e| CliError::Output(e.to_string()))
}

fn to_json<T: Serialize>(value: &T) -> serde_json::Result<String> {
    serde_json::to_string_pretty(value)
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

/// Φ from the design file and t from the chosen column of the targets file.
fn read_problem(args: &EvidenceArgs) -> Result<(DMatrix<f64>, Vec<f64>), CliError> {
    let design = Table::read(&args.design)?;
    let targets = Table::read(&args.targets)?;
    let column = match &args.column {
        Some(name) => targets.column_index(name)?,
        None => 0,
    };
    if targets.rows.len() != design.rows.len() {
        return Err(CliError::RowMismatch {
            design: design.file,
            design_rows: design.rows.len(),
            targets: targets.file,
            target_rows: targets.rows.len(),
        });
    }
    let phi = DMatrix::from_fn(design.rows.len(), design.header.len(), |n, j| design.rows[n][j]);
    Ok((phi, targets.column(column)))
}

/// Parses the whole command line.
fn parse_command(args: Vec<String>) -> Result<Command, CliError> {
    match args.split_first() {
        None => Err(CliError::Usage("no command given".to_owned())),
        Some((first, _)) if first == "--help" || first == "-h" || first == "help" => Ok(Command::Help),
        Some((first, rest)) if first == "evidence" => parse_evidence(rest).map(Command::Evidence),
        Some((first, _)) => Err(CliError::Usage(format!("unknown command '{first}' (the command is: evidence)"))),
    }
}

/// The options of `rvm-lab evidence`, as `--name value` or `--name=value`, each at most once.
#[derive(Debug, Default)]
struct Options {
    design: Option<String>,
    targets: Option<String>,
    column: Option<String>,
    alpha: Option<String>,
    beta: Option<String>,
    method: Option<String>,
}

impl Options {
    /// The slot of option `--name`.
    fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        Some(match name {
            "design" => &mut self.design,
            "targets" => &mut self.targets,
            "column" => &mut self.column,
            "alpha" => &mut self.alpha,
            "beta" => &mut self.beta,
            "method" => &mut self.method,
            _ => return None,
        })
    }
}

/// Parses the arguments after `evidence`.
fn parse_evidence(args: &[String]) -> Result<EvidenceArgs, CliError> {
    let options = collect_options(args)?;
    let required =
        |value: Option<String>, flag: &str| value.ok_or_else(|| CliError::Usage(format!("{flag} is required")));
    let mode = match (options.alpha, options.beta) {
        (Some(alpha), Some(beta)) if options.method.is_none() => {
            Mode::Given { alpha: parse_number("--alpha", &alpha)?, beta: parse_number("--beta", &beta)? }
        }
        (Some(_), Some(_)) => {
            return Err(CliError::Usage("--method applies only when α and β are to be found".to_owned()));
        }
        (None, None) => Mode::Maximise(parse_method(options.method.as_deref())?),
        _ => return Err(CliError::Usage("give both --alpha and --beta, or neither".to_owned())),
    };
    Ok(EvidenceArgs {
        design: required(options.design, "--design")?.into(),
        targets: required(options.targets, "--targets")?.into(),
        column: options.column,
        mode,
    })
}

/// Sorts `--name value` / `--name=value` pairs into [`Options`].
fn collect_options(args: &[String]) -> Result<Options, CliError> {
    let mut options = Options::default();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let Some(flag) = arg.strip_prefix("--") else {
            return Err(CliError::Usage(format!("unexpected argument '{arg}'")));
        };
        let (name, inline) = match flag.split_once('=') {
            Some((name, value)) => (name, Some(value.to_owned())),
            None => (flag, None),
        };
        let slot = options.slot(name).ok_or_else(|| CliError::Usage(format!("unknown option '--{name}'")))?;
        if slot.is_some() {
            return Err(CliError::Usage(format!("--{name} is given twice")));
        }
        let value = inline.or_else(|| rest.next().cloned());
        *slot = Some(value.ok_or_else(|| CliError::Usage(format!("--{name} needs a value")))?);
    }
    Ok(options)
}

/// A number given on the command line; its range is checked by the core.
fn parse_number(flag: &str, text: &str) -> Result<f64, CliError> {
    text.trim().parse().map_err(|_| CliError::Usage(format!("{flag}: '{text}' is not a number")))
}

/// The `--method` value; fixed-point when absent.
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
        let want = EvidenceArgs {
            design: "p.csv".into(),
            targets: "t.csv".into(),
            column: None,
            mode: Mode::Given { alpha: 2.0, beta: 0.5 },
        };
        assert_eq!(given.unwrap(), Command::Evidence(want));
        let em = parse(&["evidence", "--design", "p", "--targets", "t", "--column", "y", "--method", "em"]).unwrap();
        let Command::Evidence(em) = em else { panic!("not evidence") };
        assert_eq!((em.column.as_deref(), em.mode), (Some("y"), Mode::Maximise(Method::Em)));
        assert_eq!(parse(&["--help"]).unwrap(), Command::Help);
    }

    #[test]
    fn argument_errors_say_what_is_wrong() {
        assert_eq!(usage_error(&[]), "no command given");
        assert_eq!(usage_error(&["fit"]), "unknown command 'fit' (the command is: evidence)");
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
    }
}
