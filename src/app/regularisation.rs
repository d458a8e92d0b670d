//! The regularisation panel (F4, 001 eq 11–21): ridge in closed form and by gradient
//! descent (they agree), lasso by proximal gradient (ISTA) with soft thresholding, and
//! both coefficient paths against ln λ with the current λ marked.

use std::collections::BTreeMap;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use super::groups::{BasisParams, DataParams, ParamGroup, X_RANGE, assign_in, value_in};
use super::params::{Control, ParamSpec, parse_real};
use super::{Cell, Grab, Message, Panel, Readout, Settings, Table, View};
use crate::basis::{BasisSpec, Family, evenly_spaced};
use crate::data::Sinusoid;
use crate::error::{Result, ensure_positive};
use crate::linear::gradient::{GradientDescent, GradientDescentSettings, GradientEvent, Schedule, Termination};
use crate::linear::regularised::{self, LassoSettings};
use crate::plot::basis::curve_colour;
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, clear, drawing_error, palette, split_pair};

/// The families the panel offers.
pub const FAMILIES: &[&str] = &Family::NAMES;
/// ln λ covered by the coefficient paths.
const LN_LAMBDA_RANGE: (f64, f64) = (-12.0, 5.0);
/// Points along each path.
const PATH_POINTS: usize = 35;
/// ISTA along the drawn lasso path stops earlier than at the current λ: warm starts keep
/// neighbouring fits close, and the path is a picture, not a reported number.
const PATH_LASSO: LassoSettings = LassoSettings { max_iterations: 1_000, tolerance: 1e-8 };
/// Ridge by GD stops once a step is this small relative to ‖w‖.
const RIDGE_GD_TOLERANCE: f64 = 1e-13;
/// Points at which fitted functions are drawn.
const GRID_POINTS: usize = 201;
/// Batch-GD updates allowed for ridge by gradient descent.
const RIDGE_GD_ITERATIONS: usize = 50_000;
/// Ridge GD counts as agreeing with the closed form below this relative gap.
const AGREEMENT: f64 = 1e-6;

const LAMBDA: ParamSpec =
    ParamSpec { key: "lambda", symbol: "λ", control: Control::Real { min: 1e-5, max: 100.0, log: true } };

/// Basis, data and λ.
#[derive(Debug, Clone, PartialEq)]
pub struct RegularisationSettings {
    /// Family, M, width, degree, bias.
    pub basis: BasisParams,
    /// The training data.
    pub data: DataParams,
    /// The regularisation coefficient λ of both ridge (λ/2‖w‖²) and lasso (λ‖w‖₁).
    pub lambda: f64,
}

impl Default for RegularisationSettings {
    /// Ten Gaussian bumps and a bias on 15 points: flexible enough to over-fit without λ.
    fn default() -> Self {
        let spec = BasisSpec { family: Family::Gaussian, m: 10, width: 0.08, degree: 3, bias: true };
        Self { basis: BasisParams { spec, families: FAMILIES }, data: DataParams::new(15, 0.3, 1), lambda: 0.05 }
    }
}

impl Settings for RegularisationSettings {
    fn params(&self) -> Vec<ParamSpec> {
        let mut params = self.basis.params();
        params.push(LAMBDA);
        params.extend(self.data.params());
        params
    }
    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "lambda" => self.lambda = ensure_positive("λ", parse_real("λ", text)?)?,
            _ => assign_in(&mut [&mut self.basis, &mut self.data], key, text)?,
        }
        Ok(())
    }
    fn value(&self, key: &str) -> Option<String> {
        match key {
            "lambda" => Some(self.lambda.to_string()),
            _ => value_in(&[&self.basis, &self.data], key),
        }
    }
    fn hidden_keys(&self) -> Vec<&'static str> {
        self.data.hidden_keys()
    }
    fn is_active(&self, key: &str) -> bool {
        self.basis.is_active(key)
    }
}

/// Ridge (both ways) and lasso at λ, and both paths.
#[derive(Debug, Clone)]
pub struct RegularisationView {
    ridge: DVector<f64>,
    ridge_gd: DVector<f64>,
    ridge_gd_end: Termination,
    lasso: regularised::LassoFit,
    n: usize,
    lambda: f64,
    fit_chart: LineChart,
    ridge_chart: LineChart,
    lasso_chart: LineChart,
}

impl RegularisationView {
    /// Ridge weights from (ΦᵀΦ + λI)w = Φᵀt.
    pub fn ridge(&self) -> &DVector<f64> {
        &self.ridge
    }

    /// Ridge weights by batch gradient descent.
    pub fn ridge_gd(&self) -> &DVector<f64> {
        &self.ridge_gd
    }

    /// The lasso fit.
    pub fn lasso(&self) -> &regularised::LassoFit {
        &self.lasso
    }

    /// ‖w_GD − w_closed‖ / ‖w_closed‖.
    pub fn ridge_gap(&self) -> f64 {
        (&self.ridge_gd - &self.ridge).norm() / self.ridge.norm().max(f64::MIN_POSITIVE)
    }

    /// Number of lasso weights that are exactly zero.
    pub fn lasso_zeros(&self) -> usize {
        self.lasso.weights.iter().filter(|&&w| w == 0.0).count()
    }
}

/// Steps `run` until a step is below [`RIDGE_GD_TOLERANCE`]·‖w‖ or the run ends.
fn descend_until_still(run: &mut GradientDescent) -> Termination {
    loop {
        match run.step() {
            GradientEvent::Update { step_norm, iteration, .. } => {
                if step_norm <= RIDGE_GD_TOLERANCE * run.weights().norm() {
                    return Termination::Finished { iterations: iteration };
                }
            }
            GradientEvent::Stopped { termination } => return termination,
        }
    }
}

/// One line per weight j across the path.
fn path_chart(
    ln_lambdas: &[f64],
    path: &[DVector<f64>],
    ln_lambda: f64,
    title: (&'static str, &'static str),
) -> LineChart {
    let m = path.first().map_or(0, |w| w.len());
    let curves = (0..m)
        .map(|j| Curve::solid(ln_lambdas.iter().zip(path).map(|(&l, w)| (l, w[j])).collect(), curve_colour(j), 1.5))
        .collect();
    let y = widen(path.iter().flat_map(|w| w.iter().copied()), (-0.1, 0.1), 0.0);
    let pad = 0.05 * (y.1 - y.0);
    LineChart {
        x_range: LN_LAMBDA_RANGE,
        y_range: (y.0 - pad, y.1 + pad),
        x_name: ("ln-lambda", "ln λ"),
        y_name: ("weight", "wⱼ"),
        title: Some(title),
        curves,
        points: vec![],
        marker: Some(ln_lambda),
    }
}

impl View for RegularisationView {
    type Settings = RegularisationSettings;

    fn compute(settings: &RegularisationSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let lambda = settings.lambda;
        let ridge = regularised::ridge(&phi, &data.t, lambda)?;
        // Batch GD on E_D + λ/2‖w‖² with step 1/(L + λ), L = σ_max(Φ)²: stable and monotone.
        let rate = 1.0 / (regularised::lipschitz(&phi) + lambda);
        let gd = GradientDescentSettings {
            schedule: Schedule::Batch,
            learning_rate: rate,
            epochs: RIDGE_GD_ITERATIONS,
            seed: 0,
            ridge: lambda,
        };
        let mut run = GradientDescent::new(phi.clone(), data.t.clone(), DVector::zeros(basis.len()), gd)?;
        let ridge_gd_end = descend_until_still(&mut run);
        let lasso = regularised::lasso(&phi, &data.t, lambda, &LassoSettings::default(), None)?;

        let ln_lambdas = evenly_spaced(LN_LAMBDA_RANGE.0, LN_LAMBDA_RANGE.1, PATH_POINTS);
        let ridge_path = regularised::ridge_path(&phi, &data.t, &ln_lambdas)?;
        let lasso_path: Vec<_> =
            regularised::lasso_path(&phi, &data.t, &ln_lambdas, &PATH_LASSO)?.into_iter().map(|f| f.weights).collect();

        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        let features: Vec<_> = grid.iter().map(|&x| basis.features(x)).collect();
        let curve =
            |w: &DVector<f64>| -> Vec<(f64, f64)> { grid.iter().zip(&features).map(|(&x, f)| (x, f.dot(w))).collect() };
        let points: Vec<(f64, f64)> = data.x.iter().copied().zip(data.t.iter().copied()).collect();
        let fit_chart = LineChart {
            x_range: widen(points.iter().map(|p| p.0), X_RANGE, 0.0),
            y_range: widen(points.iter().map(|p| p.1), (-1.6, 1.6), 0.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: None,
            curves: vec![
                Curve::truth(grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect()),
                Curve::solid(curve(&ridge), palette::DATA, 3.0),
                Curve {
                    points: curve(run.weights()),
                    colour: palette::CYCLE[3],
                    width: 1.5,
                    dashed: true,
                    dotted: false,
                },
                Curve::solid(curve(&lasso.weights), palette::MEAN, 2.0),
            ],
            points,
            marker: None,
        };
        let ln_lambda = lambda.ln();
        Ok(Self {
            ridge_gd: run.weights().clone(),
            ridge,
            ridge_gd_end,
            lasso,
            n: data.len(),
            lambda,
            fit_chart,
            ridge_chart: path_chart(&ln_lambdas, &ridge_path, ln_lambda, ("ridge", "ridge")),
            lasso_chart: path_chart(&ln_lambdas, &lasso_path, ln_lambda, ("lasso", "lasso")),
        })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        clear(root)?;
        let (left, right) = split_pair(root, scale, 0.5);
        let area = self.fit_chart.draw(&left, scale, labels)?;
        let (top, bottom) = right.split_vertically(right.dim_in_pixel().1 / 2);
        self.ridge_chart.draw(&top, scale, labels)?;
        self.lasso_chart.draw(&bottom, scale, labels)?;
        root.present().map_err(drawing_error)?;
        Ok(area)
    }

    fn aspect(&self, width: f64) -> f64 {
        if width < crate::plot::NARROW { 1.9 } else { 0.62 }
    }

    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
            LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "ridge", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "ridge-gd", colour: "#cc79a7", mark: Mark::Dashed },
            LegendEntry { key: "lasso", colour: "#d55e00", mark: Mark::Line },
        ]
    }

    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "N", value: self.n as f64 },
            Readout { key: "M", value: self.ridge.len() as f64 },
            Readout { key: "lambda", value: self.lambda },
            Readout { key: "lasso-zeros", value: self.lasso_zeros() as f64 },
            Readout { key: "ridge-gap", value: self.ridge_gap() },
            Readout { key: "lasso-iterations", value: self.lasso.iterations as f64 },
        ]
    }

    fn tables(&self) -> Vec<Table> {
        let rows = (0..self.ridge.len())
            .map(|j| vec![Cell::Number(j as f64), Cell::Number(self.ridge[j]), Cell::Number(self.lasso.weights[j])])
            .collect();
        vec![Table { key: "weights", columns: vec!["j", "ridge", "lasso"], rows }]
    }

    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        if self.ridge_gap() > AGREEMENT {
            let args = BTreeMap::from([
                ("gap", format!("{:.1e}", self.ridge_gap())),
                ("iterations", RIDGE_GD_ITERATIONS.to_string()),
            ]);
            messages.push(Message { code: "ridge-gd-slow".into(), args, warning: false });
        }
        if let Termination::Diverged { iteration } = self.ridge_gd_end {
            let args = BTreeMap::from([("method", "BGD".to_owned()), ("iteration", iteration.to_string())]);
            messages.push(Message { code: "diverged".into(), args, warning: true });
        }
        if !self.lasso.converged {
            messages.push(Message { code: "lasso-slow".into(), args: BTreeMap::new(), warning: false });
        }
        messages
    }

    fn press(&self, settings: &mut RegularisationSettings, x: f64, y: f64) -> Result<Option<Grab>> {
        settings.data.add_point(x, y)?;
        Ok(None)
    }

    const TAKES_POINTS: bool = true;

    fn add_point(settings: &mut RegularisationSettings, x: f64, t: f64) -> Result<()> {
        settings.data.add_point(x, t)
    }
}

/// The regularisation panel.
pub type RegularisationPanel = Panel<RegularisationView>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;

    #[test]
    fn ridge_by_gd_agrees_with_the_closed_form() {
        let panel = RegularisationPanel::try_default().unwrap();
        assert!(panel.view().ridge_gap() < AGREEMENT, "gap {}", panel.view().ridge_gap());
        assert!(panel.messages().is_empty(), "{:?}", panel.messages());
    }

    #[test]
    fn a_large_lambda_zeroes_every_lasso_weight() {
        let mut panel = RegularisationPanel::try_default().unwrap();
        let before = panel.view().lasso_zeros();
        panel.set("lambda", "1000").unwrap();
        assert_eq!(panel.view().lasso_zeros(), 10);
        assert!(before < 10);
    }
}
