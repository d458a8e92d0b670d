//! Support shared by the integration tests.

#![allow(dead_code)] // each test binary uses a part

pub mod fixtures;
pub mod glm;
pub mod softmax;
pub mod svg;

/// `solver` run to its end (it must not fail).
pub fn finished<S: rvm_lab::solver::Solver>(mut solver: S) -> S {
    solver.run().expect("the run ends without an error");
    solver
}
