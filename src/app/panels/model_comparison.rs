//! The model-comparison panel (PRML §3.4–3.5): the evidence picks the model order
//! (Fig 3.14, polynomials of every order at fixed α, β) and the prior precision (Fig 3.16:
//! γ against 2αE_W, and ln p(t|α,β) beside the test error, along ln α; Fig 3.17: the
//! weights against the effective number of parameters γ).

use crate::app::plotted::{Plotted, Tabulate, tabulate_all};
use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::Panel;
use crate::app::params::{Control, ParamSpec};
use crate::app::report::{Readout, Report, Sentence};
use crate::app::settings::PointSink;
use crate::app::settings::{BasisParams, DataParams, ModelSettings, ParamGroup, PrecisionParams, X_RANGE};
use crate::basis::{Basis, BasisSpec, Family};
use crate::bayes::{Hyperparameters, Posterior};
use crate::data::Sinusoid;
use crate::error::Result;
use crate::evidence::{Reestimation, Scheme, Spectrum};
use crate::grid::evenly_spaced;
use crate::linear::least_squares::rms_error;
use crate::plot::fit::{Curve, LineChart, weight_curves, widen};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, palette};
use crate::solver::Solver;

/// Polynomial orders compared (M = 1 … 10: degree 0 … 9, as in PRML Fig 3.14).
const ORDERS: usize = 10;
/// ln α swept for Fig 3.16 and 3.17.
const LN_ALPHA: (f64, f64) = (-10.0, 6.0);
/// Points along the sweep.
const SWEEP: usize = 81;

const PRECISIONS: &[ParamSpec; 2] = &[
    ParamSpec { key: "alpha", symbol: "α", control: Control::Real { min: 1e-5, max: 1e2, log: true } },
    ParamSpec { key: "beta", symbol: "β", control: Control::Real { min: 1e-1, max: 1e3, log: true } },
];

/// Data, the basis swept over α, and the (α, β) of the order comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct ComparisonSettings {
    /// The basis of Fig 3.16 and 3.17 (nine Gaussians with a bias, as PRML).
    pub basis: BasisParams,
    /// The data.
    pub data: DataParams,
    /// α of the order comparison (PRML Fig 3.14: 5·10⁻³) and β of every chart (PRML: 11.1 =
    /// 1/0.3², the true noise).
    pub precisions: PrecisionParams,
}

impl Default for ComparisonSettings {
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Gaussian, m: 10, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        Self {
            basis: BasisParams::new(spec).with_max_m(50),
            data: DataParams::new(10, 0.3, 1),
            precisions: PrecisionParams { alpha: 5e-3, beta: 11.1, specs: PRECISIONS },
        }
    }
}

impl ModelSettings for ComparisonSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }

    fn own_params(&self) -> Vec<ParamSpec> {
        self.precisions.params()
    }

    fn assign_own(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        self.precisions.assign(key, text)
    }

    fn value_own(&self, key: &str) -> Option<String> {
        self.precisions.value(key)
    }
}

/// One point of the sweep over α at fixed β.
#[derive(Debug, Clone)]
pub struct SweepPoint {
    /// ln α.
    pub ln_alpha: f64,
    /// γ = Σ βλᵢ/(α + βλᵢ) (PRML 3.91).
    pub gamma: f64,
    /// 2αE_W = α m_Nᵀm_N (PRML Fig 3.16).
    pub two_alpha_ew: f64,
    /// ln p(t|α,β).
    pub log_evidence: f64,
    /// RMS error of the posterior mean on held-out data.
    pub test_rms: f64,
    /// m_N.
    pub weights: DVector<f64>,
}

/// A quantity along the sweep and its colour.
type Series = (fn(&SweepPoint) -> f64, RGBColor, &'static str);

/// Everything the charts show.
#[derive(Debug, Clone)]
pub struct ComparisonPanel {
    /// ln p(t|α,β) of polynomials with M = 1 … [`ORDERS`].
    orders: Vec<f64>,
    sweep: Vec<SweepPoint>,
    /// The α maximising the evidence at the fixed β (lecture notes on linear models, eq 40
    /// iterated).
    best_ln_alpha: f64,
    fit: Vec<(f64, f64)>,
    points: Vec<(f64, f64)>,
}

impl ComparisonPanel {
    /// ln evidence against M.
    pub fn orders(&self) -> &[f64] {
        &self.orders
    }

    /// The sweep over ln α.
    pub fn sweep(&self) -> &[SweepPoint] {
        &self.sweep
    }

    /// ln α at the evidence maximum over α.
    pub fn best_ln_alpha(&self) -> f64 {
        self.best_ln_alpha
    }

    fn best_order(&self) -> usize {
        let best = self.orders.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        best.map_or(1, |(i, _)| i + 1)
    }

    fn sweep_chart(&self, y_name: (&'static str, &'static str), series: &[Series], floor: Option<f64>) -> LineChart {
        let curves: Vec<Curve> = series
            .iter()
            .map(|(pick, colour, name)| {
                Curve::solid(self.sweep.iter().map(|p| (p.ln_alpha, pick(p))).collect(), *colour, 2.0).named(name)
            })
            .collect();
        let values = curves.iter().flat_map(|c| c.points.iter().map(|p| p.1));
        let (lo, hi) = widen(values, (f64::INFINITY, f64::NEG_INFINITY), 0.0);
        let lo = floor.map_or(lo, |f| lo.max(f));
        let pad = 0.05 * (hi - lo).max(1e-9);
        LineChart {
            x_range: LN_ALPHA,
            y_range: (lo - pad, hi + pad),
            x_name: ("ln-alpha", "ln α"),
            y_name,
            title: None,
            curves,
            points: vec![],
            marker: Some(self.best_ln_alpha),
        }
    }

    fn charts(&self) -> Vec<LineChart> {
        let orders: Vec<(f64, f64)> = self.orders.iter().enumerate().map(|(i, &l)| ((i + 1) as f64, l)).collect();
        let top = self.orders.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let evidence_by_order = LineChart {
            x_range: (0.5, ORDERS as f64 + 0.5),
            y_range: widen(self.orders.iter().copied().filter(|&l| l > top - 40.0), (top, top), 1.0),
            x_name: ("M", "M"),
            y_name: ("log-evidence", "ln p(t|α,β)"),
            title: Some(("by-order", "polynomials")),
            curves: vec![Curve {
                points: orders,
                colour: palette::MEAN,
                width: 2.0,
                dashed: false,
                dotted: true,
                series: Some("evidence"),
            }],
            points: vec![],
            marker: Some(self.best_order() as f64),
        };
        let m = self.sweep.first().map_or(0, |p| p.weights.len());
        let weights = LineChart {
            x_range: (0.0, m as f64),
            y_range: widen(self.sweep.iter().flat_map(|p| p.weights.iter().copied()), (-0.5, 0.5), 0.1),
            x_name: ("gamma", "γ"),
            y_name: ("weight", "wⱼ"),
            title: None,
            curves: weight_curves(&self.sweep.iter().map(|p| (p.gamma, &p.weights)).collect::<Vec<_>>()),
            points: vec![],
            marker: None,
        };
        let fit = LineChart {
            x_range: X_RANGE,
            y_range: widen(self.points.iter().map(|p| p.1), (-1.6, 1.6), 0.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: Some(("best-alpha", "fit at the best α")),
            curves: vec![
                Curve::truth(
                    evenly_spaced(X_RANGE.0, X_RANGE.1, 101).into_iter().map(|x| (x, Sinusoid::truth(x))).collect(),
                ),
                Curve::solid(self.fit.clone(), palette::MEAN, 2.5).named("fit"),
            ],
            points: self.points.clone(),
            marker: None,
        };
        vec![
            evidence_by_order,
            self.sweep_chart(
                ("gamma-2aew", "γ, 2αE_W"),
                &[(|p| p.gamma, palette::DATA, "gamma"), (|p| p.two_alpha_ew, palette::MEAN, "two-alpha-ew")],
                None,
            ),
            self.sweep_chart(("log-evidence", "ln p(t|α,β)"), &[(|p| p.log_evidence, palette::MEAN, "evidence")], None),
            self.sweep_chart(("test-rms", "test E_RMS"), &[(|p| p.test_rms, palette::DATA, "test-rms")], None),
            weights,
            fit,
        ]
    }
}

/// ln p(t|α,β) of the polynomial with M functions (bias included).
fn order_evidence(m: usize, x: &[f64], t: &[f64], hyper: Hyperparameters) -> Result<f64> {
    let phi = Basis::polynomial(m, true)?.design_matrix(x)?;
    Ok(Spectrum::new(&phi, t)?.log_evidence(hyper.alpha(), hyper.beta()))
}

impl Panel for ComparisonPanel {
    const NAME: &'static str = "model-comparison";
    type Settings = ComparisonSettings;

    fn compute(settings: &ComparisonSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let test = settings.data.test_set()?;
        let hyper = settings.precisions.hyperparameters()?;
        let beta = hyper.beta();
        let orders = (1..=ORDERS).map(|m| order_evidence(m, &data.x, &data.t, hyper)).collect::<Result<Vec<_>>>()?;

        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let phi_test = basis.design_matrix(&test.x)?;
        let spectrum = Spectrum::new(&phi, &data.t)?;
        let sweep = evenly_spaced(LN_ALPHA.0, LN_ALPHA.1, SWEEP)
            .into_iter()
            .map(|ln_alpha| {
                let alpha = ln_alpha.exp();
                let e = spectrum.evaluate(alpha, beta);
                let mean = spectrum.mean(alpha, beta);
                Ok(SweepPoint {
                    ln_alpha,
                    gamma: e.gamma,
                    two_alpha_ew: alpha * e.mean_norm_sq,
                    log_evidence: e.log_evidence,
                    test_rms: rms_error(&phi_test, &test.t, &mean)?,
                    weights: mean,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let mut run = Reestimation::new(spectrum, Scheme::AlphaOnly, Hyperparameters::new(1.0, beta)?)?;
        run.stop_at(1e-10, 10_000)?.run()?;
        let best = *run.current();
        let posterior = Posterior::fit(&phi, &data.t, Hyperparameters::new(best.alpha, beta)?)?;
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, 101);
        let fit = grid.iter().zip(basis.features_on(&grid)?).map(|(&x, f)| (x, posterior.predict(&f).mean)).collect();
        let points = data.x.iter().copied().zip(data.t.iter().copied()).collect();
        Ok(Self { orders, sweep, best_ln_alpha: best.alpha.ln(), fit, points })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let narrow = crate::plot::is_narrow(root, scale);
        let cells = if narrow { root.split_evenly((6, 1)) } else { root.split_evenly((2, 3)) };
        let mut area = None;
        for (k, (chart, cell)) in self.charts().iter().zip(&cells).enumerate() {
            let drawn = chart.draw(cell, scale, labels)?;
            if k == 5 {
                area = Some(drawn);
            }
        }
        area.ok_or_else(|| crate::Error::Drawing("no chart was drawn".into()))
    }

    fn plotted(&self) -> Vec<Plotted> {
        let charts = self.charts();
        tabulate_all(&charts.iter().map(|c| c as &dyn Tabulate).collect::<Vec<_>>())
    }

    fn report(&self) -> Report {
        let readouts = self.readouts();
        let summary = vec![Sentence::of_readouts("model-comparison", &readouts, [])];
        Report { readouts, legend: self.legend(), summary, ..Report::default() }
    }

    fn data_points(settings: &mut ComparisonSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }
}

impl ComparisonPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "evidence", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "gamma", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "two-alpha-ew", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "test-rms", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "best", colour: "#555555", mark: Mark::Line },
            LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "best-order", value: self.best_order() as f64 },
            Readout { key: "best-ln-alpha", value: self.best_ln_alpha },
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::panel::Live;

    #[test]
    fn the_evidence_prefers_a_middling_order() {
        // PRML Fig 3.14: with N = 10 noisy sinusoid points, α = 5·10⁻³ and β = 11.1, the
        // evidence peaks at a middling polynomial, neither the constant nor the degree 9.
        let panel = Live::<ComparisonPanel>::try_default().unwrap();
        let best = panel.panel().best_order();
        assert!((3..=7).contains(&best), "best M = {best}: {:?}", panel.panel().orders());
    }

    #[test]
    fn gamma_meets_two_alpha_ew_where_the_evidence_peaks() {
        // At the maximum over α, α m_Nᵀm_N = γ (lecture notes on linear models, eq 39–40):
        // the two curves of Fig 3.16 cross there, and the sweep's best ln p sits beside it.
        let panel = Live::<ComparisonPanel>::try_default().unwrap();
        let view = panel.panel();
        let at = view.best_ln_alpha();
        let nearest =
            view.sweep().iter().min_by(|a, b| (a.ln_alpha - at).abs().total_cmp(&(b.ln_alpha - at).abs())).unwrap();
        let spacing = (LN_ALPHA.1 - LN_ALPHA.0) / (SWEEP - 1) as f64;
        assert!((nearest.gamma - nearest.two_alpha_ew).abs() < 0.25 * nearest.gamma.max(1.0), "{nearest:?}");
        let best = view.sweep().iter().max_by(|a, b| a.log_evidence.total_cmp(&b.log_evidence)).unwrap();
        assert!((best.ln_alpha - at).abs() <= spacing, "{} vs {at}", best.ln_alpha);
        // γ falls as α grows, and stays between 0 and M (PRML 3.91: each term is in (0, 1)).
        let m = view.sweep()[0].weights.len() as f64;
        assert!(view.sweep().windows(2).all(|w| w[1].gamma < w[0].gamma));
        assert!(view.sweep().iter().all(|p| 0.0 < p.gamma && p.gamma < m));
    }
}
