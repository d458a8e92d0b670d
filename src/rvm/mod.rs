//! The relevance vector machine (PRML §7.2; Tipping 2001; Tipping & Faul 2003).

pub mod sparsity;
