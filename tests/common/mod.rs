//! Support shared by the integration tests.

pub mod svg;
