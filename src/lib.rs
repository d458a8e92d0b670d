//! # RVM Lab
//!
//! The numeric core of an in-browser lab for Bayesian linear regression, the evidence
//! approximation and the relevance vector machine (Bishop, *PRML* §3.1–3.5, §7.2;
//! Tipping 2001; Tipping & Faul 2003).
//!
//! - [`basis`], [`data`], [`linear`], [`bayes`], [`evidence`], [`linalg`]: the mathematics,
//!   on nalgebra types, returning [`Result`] with the typed [`Error`]. [`linear`] holds
//!   maximum likelihood, batch/stochastic/mini-batch gradient descent, ridge and lasso;
//!   [`evidence`] the evidence surface over (ln α, ln β) and its maximisation by the
//!   lecture's fixed-point schemes and by EM.
//! - [`rvm`]: the relevance vector machine; [`rvm::sparsity`] the analysis of why it is
//!   sparse (PRML §7.2.2).
//! - [`plot`]: charts as functions generic over plotters' `DrawingBackend`, drawing plain
//!   scene values.
//! - [`app`]: the panels as platform-free state machines (settings → fit → scene).
//! - `web` (wasm32 only): the one module that names `wasm_bindgen`, with `backend`, the
//!   plotters backend it draws through (the canvas, or SVG for export); no mathematics.
//!
//! The `rvm-lab` command-line binary (src/main.rs, native only) evaluates or maximises the
//! evidence, or fits the relevance vector machine, for a design matrix and targets read
//! from CSV files, printing JSON.

pub mod app;
pub mod basis;
pub mod bayes;
pub mod data;
pub mod error;
pub mod evidence;
pub mod linalg;
pub mod linear;
pub mod plot;
pub mod rvm;

#[cfg(target_arch = "wasm32")]
mod backend;
#[cfg(target_arch = "wasm32")]
pub mod web;

pub use error::{Error, Result};
