//! The least-squares panel (lecture notes on linear models, eq 4–8): w_ML = Φ†t and 1/β_ML
//! on the noisy sinusoid, beside the train and test RMS error for every M (PRML Fig 1.5).

use crate::app::plotted::{Plotted, tabulate_all};
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::panel::Panel;
use crate::app::report::{Cell, Message, Readout, Report, Sentence, Table};
use crate::app::settings::PointSink;
use crate::app::settings::{BasisParams, DataParams, ModelSettings, X_RANGE};
use crate::basis::{BasisSpec, Family};
use crate::data::{Dataset, Sinusoid};
use crate::error::Result;
use crate::grid::evenly_spaced;
use crate::linear::least_squares::{self, LeastSquares};
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::{Labels, LegendEntry, Mark, PlotArea, palette, split_pair};

/// The error curve covers M = 1 ..= this.
const CURVE_MAX_M: usize = 12;
/// Points at which the fit is drawn.
const GRID_POINTS: usize = 201;
/// Largest RMS error shown (larger values leave the chart).
const RMS_CEILING: f64 = 1.5;

/// Basis and data of the panel.
#[derive(Debug, Clone, PartialEq)]
pub struct LeastSquaresSettings {
    /// Family, M, width, degree, bias.
    pub basis: BasisParams,
    /// The training data.
    pub data: DataParams,
}

impl Default for LeastSquaresSettings {
    /// PRML Fig 1.4: ten points with σ = 0.3, a cubic (M = 4 with the bias).
    fn default() -> Self {
        let spec =
            BasisSpec { family: Family::Polynomial, m: 4, width: 0.1, degree: 3, bias: true, ..BasisSpec::default() };
        Self { basis: BasisParams::new(spec).with_max_m(100), data: DataParams::new(10, 0.3, 1) }
    }
}

impl ModelSettings for LeastSquaresSettings {
    fn groups(&self) -> (&BasisParams, &DataParams) {
        (&self.basis, &self.data)
    }

    fn groups_mut(&mut self) -> (&mut BasisParams, &mut DataParams) {
        (&mut self.basis, &mut self.data)
    }
}

/// Train and test RMS error of the least-squares fit with M functions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorAtM {
    /// M.
    pub m: usize,
    /// E_RMS on the training data.
    pub train: f64,
    /// E_RMS on the held-out data.
    pub test: f64,
}

/// The fit for the chosen M and the error curve over M.
#[derive(Debug, Clone)]
pub struct LeastSquaresPanel {
    fit: LeastSquares,
    current: ErrorAtM,
    curve: Vec<ErrorAtM>,
    n: usize,
    fit_chart: LineChart,
    error_chart: LineChart,
}

impl LeastSquaresPanel {
    /// The least-squares fit for the chosen M.
    pub fn fit(&self) -> &LeastSquares {
        &self.fit
    }

    /// Train and test error for M = 1 ..= [`CURVE_MAX_M`] (empty for the kernel basis).
    pub fn curve(&self) -> &[ErrorAtM] {
        &self.curve
    }

    /// Train and test error for the chosen M.
    pub fn current(&self) -> ErrorAtM {
        self.current
    }
}

/// Fits with M functions of the chosen family; the errors on both sets.
fn fit_with(
    spec: &BasisParams,
    train: &Dataset,
    test: &Dataset,
) -> Result<(LeastSquares, ErrorAtM, crate::basis::Basis)> {
    let basis = spec.basis(&train.x)?;
    let phi = basis.design_matrix(&train.x)?;
    let fit = least_squares::fit(&phi, &train.t)?;
    let train_rms = least_squares::rms_error(&phi, &train.t, fit.weights())?;
    let test_rms = least_squares::rms_error(&basis.design_matrix(&test.x)?, &test.t, fit.weights())?;
    Ok((fit, ErrorAtM { m: basis.len(), train: train_rms, test: test_rms }, basis))
}

impl Panel for LeastSquaresPanel {
    const NAME: &'static str = "least-squares";
    type Settings = LeastSquaresSettings;

    fn compute(settings: &LeastSquaresSettings) -> Result<Self> {
        let train = settings.data.dataset()?;
        let test = settings.data.test_set()?;
        let (fit, current, basis) = fit_with(&settings.basis, &train, &test)?;
        let curve = if settings.basis.spec.family.count_is_free() {
            (1..=CURVE_MAX_M)
                .filter_map(|m| {
                    let mut spec = settings.basis.clone();
                    spec.spec.m = m;
                    // An M the family cannot build (too few for a spline) is left out of the curve.
                    fit_with(&spec, &train, &test).ok().map(|(_, e, _)| e)
                })
                .collect()
        } else {
            vec![]
        };

        let grid = evenly_spaced(X_RANGE.0, X_RANGE.1, GRID_POINTS);
        let fitted: Vec<(f64, f64)> =
            grid.iter().zip(basis.features_on(&grid)?).map(|(&x, f)| (x, f.dot(fit.weights()))).collect();
        let points: Vec<(f64, f64)> = train.x.iter().copied().zip(train.t.iter().copied()).collect();
        let fit_chart = LineChart {
            x_range: widen(points.iter().map(|p| p.0), X_RANGE, 0.0),
            y_range: widen(points.iter().map(|p| p.1), (-1.6, 1.6), 0.2),
            x_name: ("x", "x"),
            y_name: ("t", "t"),
            title: None,
            curves: vec![
                Curve::truth(grid.iter().map(|&x| (x, Sinusoid::truth(x))).collect()),
                Curve::solid(fitted, palette::MEAN, 2.5).named("fit"),
            ],
            points,
            marker: None,
        };
        let series = |pick: fn(&ErrorAtM) -> f64, colour, series| Curve {
            points: curve.iter().map(|e| (e.m as f64, pick(e).min(10.0 * RMS_CEILING))).collect(),
            colour,
            width: 2.0,
            dashed: false,
            dotted: true,
            series: Some(series),
        };
        let error_chart = LineChart {
            x_range: (0.5, CURVE_MAX_M.max(current.m) as f64 + 0.5),
            y_range: (0.0, RMS_CEILING),
            x_name: ("M", "M"),
            y_name: ("rms", "E_RMS"),
            title: None,
            curves: vec![
                series(|e| e.train, palette::DATA, "train-rms"),
                series(|e| e.test, palette::MEAN, "test-rms"),
            ],
            points: vec![],
            marker: Some(current.m as f64),
        };
        Ok(Self { fit, current, curve, n: train.len(), fit_chart, error_chart })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let (left, right) = split_pair(root, scale, 0.55);
        let area = self.fit_chart.draw(&left, scale, labels)?;
        self.error_chart.draw(&right, scale, labels)?;
        Ok(area)
    }

    fn plotted(&self) -> Vec<Plotted> {
        tabulate_all(&[&self.fit_chart, &self.error_chart])
    }

    fn report(&self) -> Report {
        Report {
            readouts: self.readouts(),
            tables: self.tables(),
            messages: self.messages(),
            legend: self.legend(),
            summary: vec![Sentence::new(
                "least-squares",
                [
                    ("M", self.current.m.into()),
                    ("N", self.n.into()),
                    ("train", self.current.train.into()),
                    ("test", self.current.test.into()),
                ],
            )],
            ..Report::default()
        }
    }

    fn data_points(settings: &mut LeastSquaresSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.data)
    }
}

impl LeastSquaresPanel {
    /// The chart's series, for the page's legend.
    fn legend(&self) -> Vec<LegendEntry> {
        vec![
            LegendEntry { key: "data", colour: "#0072b2", mark: Mark::Dot },
            LegendEntry { key: "truth", colour: "#009e73", mark: Mark::Dashed },
            LegendEntry { key: "fit", colour: "#d55e00", mark: Mark::Line },
            LegendEntry { key: "train-rms", colour: "#0072b2", mark: Mark::Line },
            LegendEntry { key: "test-rms", colour: "#d55e00", mark: Mark::Line },
        ]
    }

    /// The numbers beside the chart.
    fn readouts(&self) -> Vec<Readout> {
        vec![
            Readout { key: "N", value: self.n as f64 },
            Readout { key: "M", value: self.current.m as f64 },
            Readout { key: "rank", value: self.fit.rank() as f64 },
            Readout { key: "sigma2-ml", value: 1.0 / self.fit.beta() },
            Readout { key: "train-rms", value: self.current.train },
            Readout { key: "test-rms", value: self.current.test },
        ]
    }

    /// The tables beside the chart.
    fn tables(&self) -> Vec<Table> {
        let rows = self.fit.weights().iter().enumerate().map(|(j, &w)| vec![Cell::Number(j as f64), Cell::Number(w)]);
        vec![Table { key: "weights", columns: vec!["j", "w-ml"], rows: rows.collect() }]
    }

    /// Notes on the state (e.g. "diverged at iteration k").
    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        let (rank, m) = (self.fit.rank(), self.current.m);
        if rank < m {
            let args = Vec::from([("rank", rank.to_string()), ("m", m.to_string())]);
            messages.push(Message { code: "rank-deficient".into(), args, warning: false });
        }
        if self.fit.beta().is_infinite() {
            messages.push(Message { code: "exact-fit".into(), args: Vec::new(), warning: false });
        }
        messages
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::PanelModel;
    use crate::app::panel::Live;

    #[test]
    fn the_error_curve_shows_over_fitting() {
        let panel = Live::<LeastSquaresPanel>::try_default().unwrap();
        let curve = panel.panel().curve();
        assert_eq!(curve.first().map(|e| e.m), Some(1));
        assert_eq!(curve.len(), CURVE_MAX_M);
        // Training error never grows with M (nested models), and is ≈ 0 from M = N = 10 on.
        for pair in curve.windows(2) {
            assert!(pair[1].train <= pair[0].train + 1e-9, "{pair:?}");
        }
        assert!(curve[9].train < 1e-6, "{:?}", curve[9]);
        // The test error of M = 10 (interpolating the noise) is far above its best value.
        let best = curve.iter().map(|e| e.test).fold(f64::INFINITY, f64::min);
        assert!(curve[9].test > 3.0 * best, "{curve:?}");
    }

    #[test]
    fn m_above_n_gives_the_minimum_norm_answer_with_a_message() {
        let mut panel = Live::<LeastSquaresPanel>::try_default().unwrap();
        panel.set("M", "14").unwrap();
        let view = panel.panel();
        assert!(view.fit().rank() <= 10);
        assert!(view.fit().weights().iter().all(|w| w.is_finite()));
        let codes: Vec<_> = view.report().messages.into_iter().map(|m| m.code).collect();
        assert!(codes.contains(&"rank-deficient".to_string()), "{codes:?}");
        assert!(panel.report().readouts.iter().all(|r| r.value.is_finite()));
    }
}
