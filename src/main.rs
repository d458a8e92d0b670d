//! `rvm-lab`: the evidence of a Bayesian linear model, or its relevance vector machine fit,
//! from CSV files, as JSON; the design matrix of a basis, as CSV (`design`); and the
//! generated parts of the docs (`docs panels`).
//!
//! ```text
//! rvm-lab evidence --design PHI.csv --targets T.csv [--column NAME]
//!                  [--alpha A --beta B] [--method fixed-point|em]
//! rvm-lab rvm --design PHI.csv --targets T.csv [--column NAME]
//!             [--method fast|classic|em] [--selection greedy|cyclic|random]
//!             [--no-alignment-test] [--events]
//! rvm-lab design --x X.csv --basis FAMILY [--formula F] [--M M] [--s S] [--degree P]
//!                [--bias] [--lo A --hi B]
//! rvm-lab docs panels [--root DIR] [--check]
//! ```
//!
//! See the `cli` module (native only; the wasm build has no command line).

#[cfg(not(target_arch = "wasm32"))]
mod cli;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    cli::main(std::env::args().skip(1))
}

/// There is no command line in the browser.
#[cfg(target_arch = "wasm32")]
fn main() {}
