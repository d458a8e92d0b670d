//! Support shared by the integration tests.

#![allow(dead_code)] // each test binary uses a part

pub mod fixtures;
pub mod softmax;
pub mod svg;
