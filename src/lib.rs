//! # RVM Lab
//!
//! The numeric core of an in-browser lab for Bayesian linear regression, the evidence
//! approximation and the relevance vector machine (Bishop, *PRML* §3.1–3.5, §7.2;
//! Tipping 2001; Tipping & Faul 2003). In layers, each using only those below
//! (docs/ARCHITECTURE.md; `tests/layers.rs` checks it):
//!
//! - the ground floor: [`error`] (the typed [`Error`] and the checks that produce it),
//!   [`grid`] (evenly spaced points, surfaces and their contours), [`clock`] (milliseconds,
//!   for timings and the deadlines of work in slices), [`solver`] (the one contract of every
//!   iterative method: `step`, `status`, one [`solver::Termination`], and the
//!   [`solver::Budget`] of a slice), [`linalg`] (checked Cholesky, also in slices);
//! - data and bases: [`data`], [`basis`];
//! - the mathematics, on nalgebra types, returning [`Result`]: [`linear`] (maximum
//!   likelihood, batch/stochastic/mini-batch gradient descent, ridge and lasso), [`bayes`],
//!   [`evidence`] (the evidence surface over (ln α, ln β) and its maximisation by the
//!   lecture's fixed-point schemes and by EM), [`rvm`] (the relevance vector machine;
//!   [`rvm::sparsity`] the analysis of why it is sparse, PRML §7.2.2);
//! - [`problems`]: the fixed problems the benchmarks time;
//! - [`plot`]: charts as functions generic over plotters' `DrawingBackend`, drawing plain
//!   scene values; [`backend`]: the page's backend (the canvas, or SVG); [`parts`]: a
//!   drawing made a few charts per call;
//! - [`app`]: the panels as platform-free state machines (settings → panel → report and
//!   chart), one contract and one list;
//! - `web` (wasm32 only): the one module that names `wasm_bindgen`; it forwards, and holds no
//!   mathematics. Built with the feature `formula-module`, the crate is the formula module
//!   instead (`formula_module`: the formula family's parser, which the page loads when a
//!   formula is first asked for), and `web` is left out.
//!
//! The `rvm-lab` command-line binary (src/main.rs, native only) evaluates or maximises the
//! evidence, or fits the relevance vector machine, for a design matrix and targets read
//! from CSV files, printing JSON.

pub mod app;
pub mod basis;
pub mod bayes;
pub mod clock;
pub mod data;
pub mod error;
pub mod evidence;
pub mod grid;
pub mod linalg;
pub mod linear;
pub mod palette;
pub mod parts;
pub mod plot;
pub mod problems;
pub mod rvm;
pub mod solver;

pub mod backend;
#[cfg(all(target_arch = "wasm32", feature = "formula-module"))]
pub mod formula_module;
#[cfg(all(target_arch = "wasm32", not(feature = "formula-module")))]
pub mod web;

pub use error::{Error, Result};

/// The wasm modules' allocator: talc, in place of Rust's default dlmalloc, which took about
/// 2 KB more of the page's module gzipped (the page's first load keeps to its 350 KB budget).
/// The page is single-threaded (no `atomics`), which talc's dynamic allocator asks for.
#[cfg(all(target_family = "wasm", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
