//! The regularisation panel (lecture notes on linear models, eq 11–21): ridge in closed
//! form and by gradient descent (they agree), lasso by proximal gradient (ISTA) with soft
//! thresholding, and both coefficient paths against ln λ with the current λ marked.

use crate::app::plotted::{Plotted, tabulate_all};
use std::sync::Arc;

use nalgebra::DVector;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::background::Background;
use crate::app::panel::Panel;
use crate::app::params::{Control, ParamSpec, parse_real};
use crate::app::report::{Cell, Message, Readout, Report, Sentence, Table};
use crate::app::settings::PointSink;
use crate::app::settings::{BasisParams, DataParams, ModelSettings, X_RANGE};
use crate::basis::{BasisSpec, Family};
use crate::data::Sinusoid;
use crate::error::{Compact, Result, ensure_positive};
use crate::grid::evenly_spaced;
use crate::linear::gradient::{GradientDescent, GradientDescentSettings, Schedule};
use crate::linear::regularised::{self, Ista, LassoProblem, LassoSettings};
use crate::plot::fit::{Curve, LineChart, weight_curves, widen};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, palette, split_pair};
use crate::solver::{Budget, Solver, Termination};

/// ln λ covered by the coefficient paths.
const LN_LAMBDA_RANGE: (f64, f64) = (-12.0, 5.0);
/// Points along each path.
const PATH_POINTS: usize = 35;
/// ISTA along the drawn lasso path stops earlier than at the current λ: warm starts keep
/// neighbouring fits close, and the path is a picture, not a reported number.
const PATH_LASSO: LassoSettings = LassoSettings { max_iterations: 1_000, tolerance: 1e-8 };
/// ISTA iterations allowed at the current λ.
const LASSO_ITERATIONS: usize = 10_000;
/// Iterations done at once when the panel is computed; the rest follows frame by frame.
const FIRST_SLICE: usize = 2_000;
/// Ridge by GD stops once a step is this small relative to ‖w‖.
const RIDGE_GD_TOLERANCE: f64 = 1e-13;
/// Points at which fitted functions are drawn.
const GRID_POINTS: usize = 201;
/// Batch-GD updates allowed for ridge by gradient descent.
const RIDGE_GD_ITERATIONS: usize = 12_000;
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
        let spec =
            BasisSpec { family: Family::Gaussian, m: 10, width: 0.08, degree: 3, bias: true, ..BasisSpec::default() };
        Self {
            basis: BasisParams::new(spec).with_max_m(20),
            data: DataParams::new(15, 0.3, 1).with_max_n(100),
            lambda: 0.05,
        }
    }
}

impl ModelSettings for RegularisationSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }

    fn own_params(&self) -> Vec<ParamSpec> {
        vec![LAMBDA]
    }

    fn assign_own(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        (key == "lambda").then(|| {
            self.lambda = ensure_positive("λ", parse_real("λ", text)?)?;
            Ok(())
        })
    }

    fn value_own(&self, key: &str) -> Option<String> {
        (key == "lambda").then(|| Compact(self.lambda).to_string())
    }
}

/// Ridge (both ways) and lasso at λ, and both paths. The iterative parts — ISTA at λ,
/// ridge by gradient descent, ISTA along the path — continue in slices ([`Panel::work`]),
/// so that no single change blocks the page for longer than a frame or two.
#[derive(Debug, Clone)]
pub struct RegularisationPanel {
    problem: Arc<LassoProblem>,
    lambda: f64,
    points: Vec<(f64, f64)>,
    grid: Vec<f64>,
    features: Vec<DVector<f64>>,
    ln_lambdas: Vec<f64>,
    ridge: DVector<f64>,
    ridge_path: Vec<DVector<f64>>,
    /// Ridge by batch gradient descent, until a step is tiny.
    ridge_gd: Background<GradientDescent>,
    /// ISTA at λ.
    lasso: Background<Ista>,
    /// Lasso fits along the path, filled from the largest λ down (warm starts).
    lasso_path: Vec<Option<DVector<f64>>>,
    /// Set if a solver refused to go on; the work then stops where it is.
    abandoned: bool,
}

impl RegularisationPanel {
    /// Ridge weights from (ΦᵀΦ + λI)w = Φᵀt.
    pub fn ridge(&self) -> &DVector<f64> {
        &self.ridge
    }

    /// Ridge weights by batch gradient descent (so far).
    pub fn ridge_gd(&self) -> &DVector<f64> {
        self.ridge_gd.run().weights()
    }

    /// The lasso fit at λ (so far).
    pub fn lasso(&self) -> regularised::LassoFit {
        self.lasso.run().fit()
    }

    /// ‖w_GD − w_closed‖ / ‖w_closed‖.
    pub fn ridge_gap(&self) -> f64 {
        (self.ridge_gd() - &self.ridge).norm() / self.ridge.norm().max(f64::MIN_POSITIVE)
    }

    /// Number of lasso weights that are exactly zero.
    pub fn lasso_zeros(&self) -> usize {
        self.lasso.run().weights().iter().filter(|&&w| w == 0.0).count()
    }

    /// Fits the next λ of the path (largest first, warm-started); returns the iterations used.
    fn work_on_lasso_path(&mut self) -> Result<usize> {
        let Some(i) = self.lasso_path.iter().rposition(Option::is_none) else { return Ok(0) };
        let warm = self.lasso_path.get(i + 1).and_then(Option::as_ref);
        let mut run = Ista::new(Arc::clone(&self.problem), self.ln_lambdas[i].exp(), &PATH_LASSO, warm)?;
        run.run()?;
        self.lasso_path[i] = Some(run.weights().clone());
        Ok(run.iterations().max(1))
    }

    fn curve(&self, w: &DVector<f64>) -> Vec<(f64, f64)> {
        self.grid.iter().zip(&self.features).map(|(&x, f)| (x, f.dot(w))).collect()
    }

    fn fit_chart(&self) -> LineChart {
        let gd = Curve {
            points: self.curve(self.ridge_gd()),
            colour: palette::CYCLE[3],
            width: 1.5,
            dashed: true,
            dotted: false,
            series: Some("ridge-gd"),
        };
        LineChart {
            x_range: widen(self.points.iter().map(|p| p.0), X_RANGE, 0.0),
            y_range: widen(self.points.iter().map(|p| p.1), (-1.6, 1.6), 0.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: None,
            curves: vec![
                Curve::truth(self.grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect()),
                Curve::solid(self.curve(&self.ridge), palette::DATA, 3.0).named("ridge"),
                gd,
                Curve::solid(self.curve(self.lasso.run().weights()), palette::MEAN, 2.0).named("lasso"),
            ],
            points: self.points.clone(),
            marker: None,
        }
    }
}

/// One line per weight j across the path (the λ not yet fitted are left out).
fn path_chart(
    ln_lambdas: &[f64],
    path: &[Option<&DVector<f64>>],
    ln_lambda: f64,
    title: (&'static str, &'static str),
) -> LineChart {
    let fitted: Vec<(f64, &DVector<f64>)> =
        ln_lambdas.iter().zip(path).filter_map(|(&l, w)| Some((l, (*w)?))).collect();
    let curves = weight_curves(&fitted);
    let y = widen(fitted.iter().flat_map(|(_, w)| w.iter().copied()), (-0.1, 0.1), 0.0);
    let pad = 0.05 * (y.1 - y.0);
    LineChart {
        x_range: (ln_lambdas[0], ln_lambdas[ln_lambdas.len() - 1]),
        y_range: (y.0 - pad, y.1 + pad),
        x_name: ("ln-lambda", "ln λ"),
        y_name: ("weight", "wⱼ"),
        title: Some(title),
        curves,
        points: vec![],
        marker: Some(ln_lambda),
    }
}

impl Panel for RegularisationPanel {
    const NAME: &'static str = "regularisation";
    type Settings = RegularisationSettings;

    fn compute(settings: &RegularisationSettings) -> Result<Self> {
        let data = settings.data.dataset()?;
        let basis = settings.basis.basis(&data.x)?;
        let phi = basis.design_matrix(&data.x)?;
        let lambda = settings.lambda;
        // The paths span LN_LAMBDA_RANGE, widened to hold the current λ and its marker.
        let ln_lambda = lambda.ln();
        let ln_lambdas = evenly_spaced(LN_LAMBDA_RANGE.0.min(ln_lambda), LN_LAMBDA_RANGE.1.max(ln_lambda), PATH_POINTS);
        // Batch GD on E_D + λ/2‖w‖² with step 1/(L + λ), L = σ_max(Φ)²: stable and monotone.
        let problem = Arc::new(LassoProblem::new(&phi, &data.t)?);
        let gd = GradientDescentSettings {
            schedule: Schedule::Batch,
            learning_rate: 1.0 / (regularised::lipschitz(&phi) + lambda),
            epochs: RIDGE_GD_ITERATIONS,
            seed: 0,
            ridge: lambda,
            tolerance: RIDGE_GD_TOLERANCE,
        };
        let ridge_gd = GradientDescent::new(phi.clone(), data.t.clone(), DVector::zeros(basis.len()), gd)?;
        let lasso_settings = LassoSettings { max_iterations: LASSO_ITERATIONS, ..LassoSettings::default() };
        let lasso = Ista::new(Arc::clone(&problem), lambda, &lasso_settings, None)?;
        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        let mut panel = Self {
            ridge: regularised::ridge(&phi, &data.t, lambda)?,
            ridge_path: regularised::ridge_path(&phi, &data.t, &ln_lambdas)?,
            ridge_gd: Background::new(ridge_gd, RIDGE_GD_ITERATIONS),
            lasso: Background::new(lasso, LASSO_ITERATIONS),
            lasso_path: vec![None; ln_lambdas.len()],
            abandoned: false,
            features: basis.features_on(&grid)?,
            grid,
            ln_lambdas,
            points: data.x.iter().copied().zip(data.t.iter().copied()).collect(),
            problem,
            lambda,
        };
        // A first slice, so that small problems are complete at once; a failure of the
        // iterative parts surfaces here, as an error of this change, not in a later frame.
        panel.lasso.work(&mut Budget::units(FIRST_SLICE), |_| {});
        if let Some(error) = panel.lasso.failure() {
            return Err(error.clone());
        }
        Ok(panel)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let (left, right) = split_pair(root, scale, 0.5);
        let area = self.fit_chart().draw(&left, scale, labels)?;
        let (top, bottom) = right.split_vertically(right.dim_in_pixel().1 / 2);
        let ln_lambda = self.lambda.ln();
        let ridge: Vec<_> = self.ridge_path.iter().map(Some).collect();
        path_chart(&self.ln_lambdas, &ridge, ln_lambda, ("ridge", "ridge")).draw(&top, scale, labels)?;
        let lasso: Vec<_> = self.lasso_path.iter().map(Option::as_ref).collect();
        path_chart(&self.ln_lambdas, &lasso, ln_lambda, ("lasso", "lasso")).draw(&bottom, scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        let ln_lambda = self.lambda.ln();
        let ridge: Vec<_> = self.ridge_path.iter().map(Some).collect();
        let lasso: Vec<_> = self.lasso_path.iter().map(Option::as_ref).collect();
        let ridge = path_chart(&self.ln_lambdas, &ridge, ln_lambda, ("ridge", "ridge"));
        let lasso = path_chart(&self.ln_lambdas, &lasso, ln_lambda, ("lasso", "lasso"));
        tabulate_all(&[&self.fit_chart(), &ridge, &lasso])
    }

    fn report(&self) -> Report {
        let ridge = &self.ridge;
        let lasso = self.lasso.run().weights();
        let readouts = vec![
            Readout { key: "N", value: self.points.len() as f64 },
            Readout { key: "M", value: ridge.len() as f64 },
            Readout { key: "lambda", value: self.lambda },
            Readout { key: "lasso-zeros", value: self.lasso_zeros() as f64 },
            Readout { key: "ridge-gap", value: self.ridge_gap() },
            Readout { key: "lasso-iterations", value: self.lasso.run().iterations() as f64 },
        ];
        let rows = (0..ridge.len())
            .map(|j| vec![Cell::Number(j as f64), Cell::Number(ridge[j]), Cell::Number(lasso[j])])
            .collect();
        Report {
            summary: vec![Sentence::of_readouts("regularisation", &readouts, [])],
            readouts,
            tables: vec![Table { key: "weights", columns: vec!["j", "ridge", "lasso"], rows }],
            messages: self.messages(),
            legend: vec![
                LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
                LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
                LegendEntry { key: "ridge", colour: "#0072b2", mark: Mark::Line },
                LegendEntry { key: "ridge-gd", colour: "#cc79a7", mark: Mark::Dashed },
                LegendEntry { key: "lasso", colour: "#d55e00", mark: Mark::Line },
            ],
            ..Report::default()
        }
    }

    /// ISTA at λ first, then ridge by GD, then the lasso path, within `budget` (an
    /// iteration a unit).
    fn work(&mut self, budget: &mut Budget) -> bool {
        let mut first = true;
        while !self.abandoned && (first || budget.allows()) {
            first = false;
            if !self.lasso.is_done() {
                self.lasso.work(budget, |_| {});
            } else if !self.ridge_gd.is_done() {
                self.ridge_gd.work(budget, |_| {});
            } else {
                match self.work_on_lasso_path() {
                    Ok(0) => return false,
                    Ok(used) => budget.spend(used),
                    Err(_) => self.abandoned = true,
                }
            }
            // `compute` accepted these inputs, so the solvers have no reason to refuse
            // them now; should one fail anyway, the remaining work is dropped.
            if self.lasso.failure().is_some() || self.ridge_gd.failure().is_some() {
                self.abandoned = true;
            }
        }
        !self.abandoned && self.work_progress().is_some_and(|(done, total)| done < total)
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        let path = self.lasso_path.iter().filter(|w| w.is_some()).count();
        let done = usize::from(self.lasso.is_done()) + usize::from(self.ridge_gd.is_done()) + path;
        let total = 2 + self.lasso_path.len();
        Some((if self.abandoned { total } else { done }, total))
    }

    fn data_points(settings: &mut RegularisationSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }
}

impl RegularisationPanel {
    /// The notes on the iterative fits: ridge by GD slow or divergent, ISTA slow.
    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        if self.ridge_gd.is_done() && self.ridge_gap() > AGREEMENT {
            let args = Vec::from([
                ("gap", crate::plot::scientific(self.ridge_gap(), 1)),
                ("iterations", RIDGE_GD_ITERATIONS.to_string()),
            ]);
            messages.push(Message { code: "ridge-gd-slow".into(), args, warning: false });
        }
        if let Some(Termination::Diverged { iteration }) = self.ridge_gd.run().status().termination() {
            let args = Vec::from([("method", "BGD".to_owned()), ("iteration", iteration.to_string())]);
            messages.push(Message { code: "diverged".into(), args, warning: true });
        }
        if self.lasso.is_done() && !self.lasso.run().status().termination().is_some_and(|t| t.converged()) {
            messages.push(Message { code: "lasso-slow".into(), args: Vec::new(), warning: false });
        }
        messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    fn finished(query: &[(&str, &str)]) -> Live<RegularisationPanel> {
        let mut panel = Live::<RegularisationPanel>::try_default().unwrap();
        let pairs: Vec<_> = query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        assert!(panel.apply_query(&pairs).is_empty());
        while panel.work(Budget::units(1_000)) {}
        panel
    }

    #[test]
    fn ridge_by_gd_agrees_with_the_closed_form() {
        let panel = finished(&[]);
        assert!(panel.panel().ridge_gap() < AGREEMENT, "gap {}", panel.panel().ridge_gap());
        assert!(panel.report().messages.is_empty(), "{:?}", panel.report().messages);
        assert_eq!(panel.report().work, Some((2 + PATH_POINTS, 2 + PATH_POINTS)));
    }

    #[test]
    fn the_work_comes_in_slices_and_ends_where_one_go_would() {
        let mut panel = Live::<RegularisationPanel>::try_default().unwrap();
        let (done, total) = panel.report().work.unwrap();
        assert!(done < total);
        assert!(panel.work(Budget::units(100)));
        while panel.work(Budget::units(100)) {}
        let mut whole = Live::<RegularisationPanel>::try_default().unwrap();
        while whole.work(Budget::unlimited()) {}
        assert_eq!(panel.panel().ridge_gd(), whole.panel().ridge_gd());
        assert!((&panel.panel().lasso().weights - &whole.panel().lasso().weights).norm() < 1e-8);
    }

    #[test]
    fn the_paths_reach_a_lambda_outside_their_usual_range() {
        let panel = finished(&[("lambda", "1000")]);
        let ln = panel.panel().ln_lambdas.clone();
        assert_eq!((ln[0], ln[ln.len() - 1]), (LN_LAMBDA_RANGE.0, 1000f64.ln()));
    }

    #[test]
    fn a_large_lambda_zeroes_every_lasso_weight() {
        let before = finished(&[]).panel().lasso_zeros();
        let panel = finished(&[("lambda", "1000")]);
        assert_eq!(panel.panel().lasso_zeros(), 10);
        assert!(before < 10);
    }
}
