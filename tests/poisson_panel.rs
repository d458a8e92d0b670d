//! The "Poisson RVM" panel: its run is the library's fast Poisson RVM on the same design
//! (run here directly, step for step), its band is exp(a ± kσ) with σ² = φᵀH⁻¹φ from the
//! Laplace Hessian recomputed densely here at the mode, its state goes through the URL and
//! back, and counts that are not counts are refused wherever they come in.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::sync::Arc;

use common::glm::{Link, hessian};
use nalgebra::{DMatrix, DVector};
use rvm_lab::app::panels::poisson::{PoissonPanel, PoissonSettings};
use rvm_lab::app::plotted::Name;
use rvm_lab::app::{Live, PanelModel};
use rvm_lab::basis::kernel_design;
use rvm_lab::data::Counts;
use rvm_lab::rvm::classification::FastRvmClassifier;
use rvm_lab::rvm::likelihood::Likelihood;
use rvm_lab::rvm::{FastSettings, Problem};
use rvm_lab::solver::{Budget, Solver};

/// The counts' link for the dense checks: y = eᵃ, b = y.
const COUNTS: Link = Link { mean: f64::exp, weight: |y| y };

/// The panel with its defaults, its background work done.
fn finished_panel() -> Live<PoissonPanel> {
    let mut panel = Live::<PoissonPanel>::try_default().unwrap();
    while panel.work(Budget::unlimited()) {}
    panel
}

/// The design written out here: φ₀ = 1 (the bias), φⱼ(x) = exp(−(x − xⱼ₋₁)²/2s²).
fn kernel_row(x: f64, centres: &[f64], s: f64) -> Vec<f64> {
    std::iter::once(1.0).chain(centres.iter().map(|&c| (-(x - c).powi(2) / (2.0 * s * s)).exp())).collect()
}

/// The default data: 60 counts from seed 1.
fn default_data() -> (Vec<f64>, Vec<f64>) {
    let data = Counts { n: 60, seed: 1 }.generate().unwrap();
    (data.x, data.t)
}

#[test]
fn the_panel_runs_the_librarys_fast_poisson_rvm_on_the_same_design() {
    let panel = finished_panel();
    // The same design as the panel's (the library's kernel; the band's test below writes
    // the kernel out itself).
    let (x, t) = default_data();
    let phi = kernel_design(&x, 0.1, true).unwrap();
    let problem = Arc::new(Problem::new(phi, DVector::from_vec(t)).unwrap());
    let options = FastSettings { seed: 1, max_steps: 3_000, ..FastSettings::default() };
    let mut direct = FastRvmClassifier::with_likelihood(Likelihood::Poisson, problem, options).unwrap();
    direct.run().unwrap();
    let run = panel.panel().run();
    // Every step the same: the action, the basis function, s, q, α and L.
    assert_eq!(run.events(), direct.events());
    let last = direct.iterations();
    let report = panel.report();
    assert_eq!(report.position, Some((0, last)));
    assert_eq!(report.readout("steps-to-converge"), Some(last as f64));
    let mut at_end = panel.clone();
    at_end.set("step", &last.to_string()).unwrap();
    let shown = at_end.panel().run().current();
    let mut active = shown.active().to_vec();
    let mut want = direct.active().to_vec();
    active.sort_unstable();
    want.sort_unstable();
    assert_eq!(active, want);
    let report = at_end.report();
    assert_eq!(report.readout("laplace-log-ml"), Some(direct.log_ml()));
    assert_eq!(report.readout("relevance-vectors"), Some(direct.active().len() as f64));
    assert_eq!(report.readout("mean-deviance"), direct.fit().mean_deviance);
    // The run of tests/poisson.rs: 55 steps, four relevance vectors.
    assert_eq!((last, direct.active().len()), (55, 4));
}

#[test]
fn the_band_is_exp_of_a_plus_or_minus_k_sigma_with_sigma_from_the_dense_laplace_hessian() {
    let (x, _) = default_data();
    let mut panel = finished_panel();
    for step in ["3", "12", "55"] {
        panel.set("step", step).unwrap();
        let run = panel.panel().run().current();
        let (active, alpha, w) = (run.active().to_vec(), run.alpha().to_vec(), run.mode().w.clone());
        // Φ of the active columns at the data, H = Φ_𝒜ᵀBΦ_𝒜 + A at w* (PRML 7.111), Σ = H⁻¹.
        let rows: Vec<Vec<f64>> = x.iter().map(|&xn| kernel_row(xn, &x, 0.1)).collect();
        let phi_a = DMatrix::from_fn(x.len(), active.len(), |n, j| rows[n][active[j]]);
        let sigma = hessian(COUNTS, &phi_a, &alpha, &w).try_inverse().expect("H is invertible");
        let scene = panel.panel().scene();
        let tables = panel.plotted();
        let curves = tables.iter().find(|t| t.caption.name == Name::Chart("curves")).expect("the curves' table");
        let columns = curves.headings.len();
        for (i, &xg) in scene.grid.iter().enumerate().step_by(17) {
            let phi = DVector::from_iterator(active.len(), active.iter().map(|&m| kernel_row(xg, &x, 0.1)[m]));
            let a = w.dot(&phi);
            let var = (phi.transpose() * &sigma * &phi)[(0, 0)];
            assert!((scene.mean[i] - a).abs() < 1e-12 * (1.0 + a.abs()), "step {step}, x = {xg}");
            assert!(
                (scene.std_dev[i].powi(2) - var).abs() < 1e-9 * var,
                "step {step}, x = {xg}: {} vs {var}",
                scene.std_dev[i].powi(2)
            );
            let (lower, upper) = scene.band_at(i, 1.0);
            let sd = var.sqrt();
            assert!(
                (lower - (a - sd).exp()).abs() < 1e-9 * (a - sd).exp()
                    && (upper - (a + sd).exp()).abs() < 1e-9 * (a + sd).exp()
            );
            // The data table: x, the true rate, the rate and the ±2σ band's edges.
            let row = &curves.values[i * columns..(i + 1) * columns];
            assert_eq!(row[0], xg);
            assert!((row[1] - Counts::rate(xg)).abs() < 1e-12);
            assert!((row[2] - a.exp()).abs() < 1e-9 * a.exp());
            assert!(
                (row[3] - (a - 2.0 * sd).exp()).abs() < 1e-9 * row[3]
                    && (row[4] - (a + 2.0 * sd).exp()).abs() < 1e-9 * row[4]
            );
        }
    }
}

#[test]
fn the_state_goes_through_the_url_and_back() {
    let mut panel = Live::<PoissonPanel>::try_default().unwrap();
    for (key, value) in
        [("s", "0.15"), ("bias", "0"), ("selection", "cyclic"), ("align", "0"), ("N", "40"), ("seed", "7")]
    {
        panel.set(key, value).unwrap();
    }
    panel.add_point(0.25, 6.4).unwrap();
    while panel.work(Budget::unlimited()) {}
    panel.step(5);
    let query = panel.query();
    let value = |key: &str| query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
    assert_eq!(value("points"), Some("0.25:6"), "a placed count is rounded to a whole count");
    assert_eq!(value("step"), Some("5"));
    assert_eq!(value("noise"), None, "counts have no noise σ");
    let mut copy = Live::<PoissonPanel>::try_default().unwrap();
    assert!(copy.apply_query(&query).is_empty());
    while copy.work(Budget::unlimited()) {}
    assert_eq!(copy.query(), query);
    // The same run and step (the methods table's times aside).
    assert_eq!(copy.report().readouts, panel.report().readouts);
    assert_eq!(copy.panel().run().events(), panel.panel().run().events());
    assert_eq!(copy.settings(), panel.settings());
    assert_ne!(copy.settings(), &PoissonSettings::default());
}

#[test]
fn counts_that_are_not_counts_are_refused_where_they_come_in() {
    let mut panel = Live::<PoissonPanel>::try_default().unwrap();
    let before = panel.query();
    // CSV: the first bad count is named by its line; the data stay.
    for (csv, line, text) in [
        ("x,t\n0.1,2\n0.2,-1\n", 3, "0.2, -1"),
        ("x,t\n0.1,2.5\n", 2, "0.1, 2.5"),
        ("0.1,1\n0.3,4\n0.5,1e10\n", 3, "0.5, 10000000000"),
    ] {
        let error = panel.import_csv(csv).unwrap_err();
        assert_eq!(error.code(), "bad-count", "{csv}");
        assert!(
            error.args().contains(&("line", line.to_string())) && error.args().contains(&("text", text.to_owned())),
            "{error}"
        );
        assert_eq!(panel.query(), before);
    }
    assert_eq!(
        panel.import_csv("x,t\n0.1,2\n0.2,inf\n").unwrap_err().to_string(),
        "line 3 (0.2,inf) is not a row of x, t"
    );
    assert_eq!(panel.query(), before);
    panel.import_csv("x,t\n0.1,2\n0.5,0\n0.9,7\n").unwrap();
    assert_eq!(panel.export_csv().unwrap().as_deref(), Some("x,t\n0.1,2\n0.5,0\n0.9,7\n"));
    // A placed point: t rounded to the nearest whole count, at least 0; NaN or a count
    // beyond the largest refused.
    panel.add_point(0.3, -0.4).unwrap();
    panel.add_point(0.7, 2.5).unwrap();
    assert_eq!(panel.value("points").as_deref(), Some("0.1:2,0.5:0,0.9:7,0.3:0,0.7:3"));
    assert_eq!(panel.add_point(0.2, f64::NAN).unwrap_err().code(), "not-finite");
    assert_eq!(panel.add_point(0.2, 2e9).unwrap_err().code(), "out-of-range");
    // A URL's points: a count that is not one is a notice, and the default stays.
    let mut fresh = Live::<PoissonPanel>::try_default().unwrap();
    for bad in ["0.5:-1", "0.5:2.5", "0.5:nan"] {
        let notices = fresh.apply_query(&[("points".to_owned(), bad.to_owned())]);
        assert_eq!(notices.len(), 1, "{bad}");
        assert_eq!(notices[0].key, "points");
        assert!(fresh.query().iter().all(|(key, _)| key != "points"), "{bad}");
    }
    // A moved point keeps a whole count too.
    fresh.edit_point(rvm_lab::app::editing::PointEdit::Move { index: 0, x: 0.4, y: 3.7 }).unwrap();
    assert_eq!(fresh.points()[0], (0.4, 4.0));
}

#[test]
fn degenerate_counts_run_or_are_refused_with_a_typed_error() {
    use plotters::prelude::IntoDrawingArea;
    use rvm_lab::backend::PageBackend;
    use rvm_lab::palette::Look;
    use rvm_lab::plot::Labels;
    // All zeros (the rate goes to 0, held by the prior), one point, one huge count, a
    // count far from the others' x.
    for csv in ["0.1,0\n0.5,0\n0.9,0\n", "0.5,3\n", "0.2,1\n0.4,1000000000\n0.8,2\n", "0.2,1\n0.4,3\n7.5,2\n"] {
        let mut panel = Live::<PoissonPanel>::try_default().unwrap();
        match panel.import_csv(csv) {
            Ok(()) => {
                while panel.work(Budget::unlimited()) {}
                let last = panel.report().position.unwrap().1;
                panel.set("step", &last.to_string()).unwrap();
                let report = panel.report();
                assert!(report.readouts.iter().all(|r| !r.value.is_nan()), "{csv:?}: {:?}", report.readouts);
                let mut svg = String::new();
                let root = PageBackend::svg(&mut svg, (900, 600), Look::Screen).into_drawing_area();
                if let Err(error) = panel.draw(&root, 1.0, &Labels::default()) {
                    assert!(!error.code().is_empty(), "{csv:?}");
                }
                eprintln!("{csv:?}: {} steps, {:?}", last, report.readouts);
            }
            Err(error) => {
                eprintln!("{csv:?}: refused, {error}");
                assert!(!error.code().is_empty());
            }
        }
    }
}
