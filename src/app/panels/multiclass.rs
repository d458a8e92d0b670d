//! The "multiclass RVM" panel (PRML 7.120–7.122): K = 3 classes in the plane, a
//! softmax over one weight vector per class on a Gaussian kernel, one αₖᵢ per weight, fitted
//! by classic sweeps around the Laplace mode. The class regions in shades of each class's
//! colour, the decision boundaries, the relevance vectors ringed, and the Laplace L and the
//! number of relevance vectors against sweep.
//!
//! Early sweeps factorise a Hessian of up to K(N + 1) rows, tens of milliseconds each, so
//! the sweeps run in the background a few per frame ([`Panel::work`]) and every sweep's
//! result is kept ([`Recorded`]): the player steps through the sweeps computed so far.

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::app::labelled::LabelledData;
use crate::app::panel::{Layout, Panel};
use crate::app::params::{Control, ParamSpec, parse_real};
use crate::app::replay::{Player, Recorded, Replay};
use crate::app::report::{Message, Readout, Report};
use crate::app::settings::{FRAME_KEY, ParamGroup, PointSink, RunData, Settings, assign_in, value_in};
use crate::basis::{kernel_design_2d, kernel_expansion_on_grid};
use crate::data::{LabelledPoints, MixtureLayout};
use crate::error::{Error, Result, ensure_positive};
use crate::grid::evenly_spaced;
use crate::plot::classes::{ClassMap, ClassMapChart, square_around};
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::{Labels, PlotArea, palette};
use crate::rvm::classification::ClassifierSettings;
use crate::rvm::multiclass::{ClassicMulticlassRvm, MulticlassFit, softmax};
use crate::solver::Solver;

/// Most data points: the first sweeps factorise a 3(N + 1)-row Hessian.
const MAX_N: usize = 150;
/// Most sweeps.
const MAX_SWEEPS: usize = 2_000;
/// Cells of the class map along each axis.
const MAP_CELLS: usize = 200;
/// The layouts with three classes.
const LAYOUTS: &[&str] = &["triangle", "bands"];

/// The data and the sweep shown, and the kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct MulticlassSettings {
    /// Three-class data in the plane and any placed points, and the sweep shown.
    pub run: RunData<LabelledData>,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
}

/// The kernel width's control.
const WIDTH: ParamSpec = ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } };

impl Default for MulticlassSettings {
    fn default() -> Self {
        let data = LabelledData::new(MixtureLayout::Triangle, LAYOUTS, 90, 1, MAX_N);
        Self { run: RunData::new(data, MAX_SWEEPS as u64, &[0, 1, 5, 10, 50]), width: 0.4 }
    }
}

impl Settings for MulticlassSettings {
    fn params(&self) -> Vec<ParamSpec> {
        [self.run.frame_param(), WIDTH].into_iter().chain(self.run.data.params()).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            _ => assign_in(&mut [&mut self.run], key, text)?,
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        match key {
            "s" => Some(self.width.to_string()),
            _ => value_in(&[&self.run], key),
        }
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.run.hidden_keys()
    }
}

/// The run, the fit after every sweep so far, and the sweep shown.
#[derive(Debug, Clone)]
pub struct MulticlassPanel {
    data: LabelledPoints,
    width: f64,
    /// The sweeps so far, their fits, and the sweep shown.
    replay: Replay<Recorded<ClassicMulticlassRvm, MulticlassFit>>,
    range: ((f64, f64), (f64, f64)),
}

impl MulticlassPanel {
    /// The fit after every sweep so far.
    fn fits(&self) -> &[MulticlassFit] {
        self.replay.frames().records()
    }

    /// The fit shown.
    fn fit(&self) -> &MulticlassFit {
        &self.fits()[self.replay.shown()]
    }

    /// The input a column of the design is centred on (`None`: the bias, column 0).
    fn centre(&self, m: usize) -> Option<[f64; 2]> {
        m.checked_sub(1).and_then(|n| self.data.x.get(n).copied())
    }

    /// p(C_k|x) = softmax(w_kᵀφ(x)) of the fit shown on a [`MAP_CELLS`]² grid (PRML
    /// 7.120): each class's activation is a kernel expansion, evaluated on the grid.
    fn map(&self) -> ClassMap {
        let fit = self.fit();
        let classes = fit.classes;
        let ((x0, x1), (y0, y1)) = self.range;
        let half = |lo: f64, hi: f64| 0.5 * (hi - lo) / MAP_CELLS as f64;
        let xs = evenly_spaced(x0 + half(x0, x1), x1 - half(x0, x1), MAP_CELLS);
        let ys = evenly_spaced(y0 + half(y0, y1), y1 - half(y0, y1), MAP_CELLS);
        let activations: Vec<Vec<f64>> = (0..classes)
            .map(|k| {
                let (mut centres, mut weights, mut bias) = (vec![], vec![], 0.0);
                for (&m, w) in fit.relevant.iter().zip(&fit.weights) {
                    match self.centre(m) {
                        Some(c) => {
                            centres.push(c);
                            weights.push(w[k]);
                        }
                        None => bias = w[k],
                    }
                }
                kernel_expansion_on_grid(&xs, &ys, &centres, &weights, bias, self.width)
            })
            .collect();
        let mut probabilities = vec![Vec::with_capacity(MAP_CELLS * MAP_CELLS); classes];
        let mut cell = vec![0.0; classes];
        for i in 0..MAP_CELLS * MAP_CELLS {
            for (a, column) in cell.iter_mut().zip(&activations) {
                *a = column[i];
            }
            for (p, column) in softmax(&cell).into_iter().zip(probabilities.iter_mut()) {
                column.push(p);
            }
        }
        ClassMap { x_range: (x0, x1), y_range: (y0, y1), nx: MAP_CELLS, ny: MAP_CELLS, probabilities }
    }

    /// L (top) or the number of relevance vectors (bottom) against sweep, to the sweep
    /// shown in colour, the rest of the run so far faint.
    fn history_chart(&self, value: fn(&MulticlassFit) -> f64, y_name: (&'static str, &'static str)) -> LineChart {
        let all: Vec<(f64, f64)> = self.fits().iter().enumerate().map(|(k, f)| (k as f64, value(f))).collect();
        let shown = all[..=self.replay.shown()].to_vec();
        let last = all[all.len() - 1].1;
        LineChart {
            x_range: (0.0, ((all.len() - 1) as f64).max(1.0)),
            y_range: widen(all.iter().map(|p| p.1), (last - 1.0, last + 1.0), 0.05),
            x_name: ("sweep", "sweep"),
            y_name,
            title: None,
            curves: vec![Curve::solid(all, palette::SAMPLE, 1.0), Curve::solid(shown, palette::MEAN, 2.0)],
            points: vec![],
            marker: Some(self.replay.shown() as f64),
        }
    }
}

impl Panel for MulticlassPanel {
    const NAME: &'static str = "multiclass";
    type Settings = MulticlassSettings;
    /// A sweep every other frame.
    const LAYOUT: Layout = Layout { point_axes: ["x1", "x2"], play_speed: 2 };
    const FOLLOWS: &'static [&'static str] = &[FRAME_KEY, "class"];

    fn compute(settings: &MulticlassSettings) -> Result<Self> {
        let data = settings.run.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let classes = settings.run.data.classes();
        let run = ClassicMulticlassRvm::new(design, &data.t, classes, ClassifierSettings::default())?;
        let sweeps = Recorded::new(run, MAX_SWEEPS, ClassicMulticlassRvm::fit);
        let replay = Replay::new(sweeps, Some(FRAME_KEY), settings.run.frame);
        Ok(Self { range: square_around(&data.x), data, width: settings.width, replay })
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>, scale: f64, labels: &Labels) -> Result<PlotArea> {
        let [main, upper, lower] = crate::plot::classes::map_layout(root, scale);
        let fit = self.fit();
        let chart = ClassMapChart {
            map: self.map(),
            points: self.data.x.iter().zip(&self.data.t).map(|(&x, &t)| (x, t as usize)).collect(),
            relevant: fit.relevant.iter().filter_map(|&m| self.centre(m)).collect(),
            highlight: None,
            title: None,
        };
        let area = chart.draw(&main, scale, labels)?;
        let log_ml = |f: &MulticlassFit| f.log_marginal_likelihood;
        self.history_chart(log_ml, ("laplace-log-ml", "ln p(T|α) (Laplace)")).draw(&upper, scale, labels)?;
        let relevant = |f: &MulticlassFit| f.relevant.len() as f64;
        self.history_chart(relevant, ("relevance-vectors", "relevance vectors")).draw(&lower, scale, labels)?;
        Ok(area)
    }

    fn report(&self) -> Report {
        let fit = self.fit();
        let active = fit.alpha.iter().flatten().filter(|a| a.is_some()).count();
        let readouts = vec![
            Readout { key: "sweep", value: self.replay.shown() as f64 },
            Readout { key: "relevance-vectors", value: fit.relevant.len() as f64 },
            Readout { key: "active-weights", value: active as f64 },
            Readout { key: "laplace-log-ml", value: fit.log_marginal_likelihood },
            Readout { key: "accuracy", value: fit.accuracy },
        ];
        let sweeps = self.replay.frames();
        let mut messages = vec![];
        if let Some(error) = sweeps.failure() {
            messages.push(Message::warning("run-failed", [("reason", error.to_string())]));
        } else if sweeps.run().is_done() && !sweeps.run().run().status().termination().is_some_and(|t| t.converged()) {
            messages.push(Message::warning("not-converged-sweeps", [("sweeps", MAX_SWEEPS.to_string())]));
        }
        Report { readouts, messages, legend: crate::plot::classes::legend(fit.classes), ..Report::default() }
    }

    fn data_points(settings: &mut MulticlassSettings) -> Option<&mut dyn PointSink> {
        Some(&mut settings.run)
    }

    fn player(&self) -> Option<&dyn Player> {
        Some(&self.replay)
    }

    fn player_mut(&mut self) -> Option<&mut dyn Player> {
        Some(&mut self.replay)
    }

    /// Sweeps for about `budget` units of [`Solver::cost`], the sweep asked for shown once
    /// it is computed.
    fn work(&mut self, budget: usize) -> bool {
        let more = self.replay.frames_mut().extend(budget);
        self.replay.catch_up();
        more
    }

    /// Sweeps so far, out of twice as many while it runs (the run's length is unknown).
    fn work_progress(&self) -> Option<(usize, usize)> {
        let sweeps = self.fits().len() - 1;
        let done = self.replay.frames().run().is_done();
        let total = if done { sweeps } else { (self.fits().len() * 2).min(MAX_SWEEPS) };
        Some((sweeps, total.max(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_run_in_the_background_and_the_cursor_waits_for_them() {
        let mut settings = MulticlassSettings::default();
        settings.run.frame = 5;
        let mut view = MulticlassPanel::compute(&settings).unwrap();
        assert_eq!(view.replay.shown(), 0, "sweep 5 is not computed yet");
        while view.work(1_000_000) {}
        assert!(view.replay.frames().run().run().status().termination().is_some_and(|t| t.converged()));
        assert_eq!(view.replay.shown(), 5);
        let last = view.fits().last().unwrap();
        assert!(last.accuracy > 0.85, "{last:?}");
        assert!(last.relevant.len() < 15, "{last:?}");
        assert!(!view.replay.step(1_000_000));
        assert_eq!(view.replay.shown(), view.fits().len() - 1);
        let map = view.map();
        let total: f64 = (0..3).map(|k| map.probabilities[k][1234]).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
