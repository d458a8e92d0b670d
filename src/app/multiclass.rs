//! The "multiclass RVM" panel (F13; PRML 7.120–7.122): K = 3 classes in the plane, a
//! softmax over one weight vector per class on a Gaussian kernel, one αₖᵢ per weight, fitted
//! by classic sweeps around the Laplace mode. The class regions in shades of each class's
//! colour, the decision boundaries, the relevance vectors ringed, and the Laplace L and the
//! number of relevance vectors against sweep.
//!
//! Early sweeps factorise a Hessian of up to K(N + 1) rows, tens of milliseconds each, so
//! the sweeps run in the background a few per frame ([`View::work`]) and every sweep's
//! result is kept: the player steps through the sweeps computed so far.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::clock::now_ms;
use super::groups::{ParamGroup, PointSink, assign_in, restarting_point_sink, value_in};
use super::labelled::LabelledData;
use super::params::{Control, ParamSpec, parse_integer, parse_real};
use super::{Message, Panel, Readout, Settings, View};
use crate::basis::{evenly_spaced, kernel_design_2d, kernel_expansion_on_grid};
use crate::data::{LabelledPoints, MixtureLayout};
use crate::error::{Error, Result, ensure_positive};
use crate::plot::classes::{ClassMap, ClassMapChart, square_around};
use crate::plot::fit::{Curve, LineChart, widen};
use crate::plot::{Labels, LegendEntry, PlotArea, palette};
use crate::rvm::classification::ClassifierSettings;
use crate::rvm::multiclass::{ClassicMulticlassRvm, MulticlassFit, softmax};

/// Most data points: the first sweeps factorise a 3(N + 1)-row Hessian.
const MAX_N: usize = 150;
/// Most sweeps.
const MAX_SWEEPS: usize = 2_000;
/// Cells of the class map along each axis.
const MAP_CELLS: usize = 200;
/// The layouts with three classes.
const LAYOUTS: &[&str] = &["triangle", "bands"];

const PARAMS: &[ParamSpec] = &[
    ParamSpec {
        key: "step",
        symbol: "k",
        control: Control::Steps { min: 0, max: MAX_SWEEPS as u64, presets: &[0, 1, 5, 10, 50] },
    },
    ParamSpec { key: "s", symbol: "s", control: Control::Real { min: 0.05, max: 2.0, log: true } },
];

/// The data, the kernel and the sweep shown.
#[derive(Debug, Clone, PartialEq)]
pub struct MulticlassSettings {
    /// Three-class data in the plane and any placed points.
    pub data: LabelledData,
    /// Kernel width s of exp(−‖x − xₙ‖²/2s²).
    pub width: f64,
    /// The sweep shown.
    pub k: usize,
}

impl Default for MulticlassSettings {
    fn default() -> Self {
        Self { data: LabelledData::new(MixtureLayout::Triangle, LAYOUTS, 90, 1, MAX_N), width: 0.4, k: 0 }
    }
}

impl Settings for MulticlassSettings {
    fn params(&self) -> Vec<ParamSpec> {
        PARAMS.iter().copied().chain(self.data.params()).collect()
    }

    fn assign(&mut self, key: &str, text: &str) -> Result<()> {
        match key {
            "step" => self.k = parse_integer("k", text, 0, MAX_SWEEPS as u64)? as usize,
            "s" => self.width = ensure_positive("s", parse_real("s", text)?)?,
            "class" => assign_in(&mut [&mut self.data], key, text)?,
            _ => {
                assign_in(&mut [&mut self.data], key, text)?;
                // New data: the run starts again.
                self.k = 0;
            }
        }
        Ok(())
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "step" => self.k.to_string(),
            "s" => self.width.to_string(),
            _ => return value_in(&[&self.data], key),
        })
    }

    fn hidden_keys(&self) -> Vec<&'static str> {
        self.data.hidden_keys()
    }
}

restarting_point_sink!(MulticlassSettings);

/// The run, the fit after every sweep so far, and the sweep shown.
#[derive(Debug, Clone)]
pub struct MulticlassView {
    data: LabelledPoints,
    width: f64,
    run: ClassicMulticlassRvm,
    /// The fit at the start and after each sweep.
    fits: Vec<MulticlassFit>,
    /// The sweep shown, once computed.
    shown: usize,
    /// The sweep asked for (the URL's), shown once the background run reaches it.
    wanted: usize,
    /// Why the run stopped early, if it did.
    failed: Option<Error>,
    range: ((f64, f64), (f64, f64)),
    /// The settings computed from, less what the view follows in place.
    source: MulticlassSettings,
}

/// `settings` less what the view follows without recomputing: the sweep shown and the
/// class of the next placed point.
fn source(settings: &MulticlassSettings) -> MulticlassSettings {
    let mut source = settings.clone();
    source.k = 0;
    source.data.place = 0;
    source
}

impl MulticlassView {
    /// Whether the run has nothing left to do.
    fn done(&self) -> bool {
        self.failed.is_some() || self.run.is_converged() || self.fits.len() > MAX_SWEEPS
    }

    /// The fit shown.
    fn fit(&self) -> &MulticlassFit {
        &self.fits[self.shown]
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
        let all: Vec<(f64, f64)> = self.fits.iter().enumerate().map(|(k, f)| (k as f64, value(f))).collect();
        let shown = all[..=self.shown].to_vec();
        let last = all[all.len() - 1].1;
        LineChart {
            x_range: (0.0, ((all.len() - 1) as f64).max(1.0)),
            y_range: widen(all.iter().map(|p| p.1), (last - 1.0, last + 1.0), 0.05),
            x_name: ("sweep", "sweep"),
            y_name,
            title: None,
            curves: vec![Curve::solid(all, palette::SAMPLE, 1.0), Curve::solid(shown, palette::MEAN, 2.0)],
            points: vec![],
            marker: Some(self.shown as f64),
        }
    }
}

impl View for MulticlassView {
    type Settings = MulticlassSettings;

    fn compute(settings: &MulticlassSettings) -> Result<Self> {
        let data = settings.data.points()?;
        if data.x.is_empty() {
            return Err(Error::NoData);
        }
        let design = kernel_design_2d(&data.x, settings.width, true)?;
        let classes = settings.data.classes();
        let run = ClassicMulticlassRvm::new(design, &data.t, classes, ClassifierSettings::default())?;
        let fits = vec![run.fit()];
        Ok(Self {
            range: square_around(&data.x),
            data,
            width: settings.width,
            run,
            fits,
            shown: 0,
            wanted: settings.k,
            failed: None,
            source: source(settings),
        })
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

    const ASPECT: (f64, f64) = (0.6, 1.9);
    const POINT_AXES: [&'static str; 2] = ["x1", "x2"];

    fn data_points(settings: &mut MulticlassSettings) -> Option<&mut dyn PointSink> {
        Some(settings)
    }

    fn legend(&self) -> Vec<LegendEntry> {
        crate::plot::classes::legend(self.fit().classes)
    }

    fn readouts(&self) -> Vec<Readout> {
        let fit = self.fit();
        let active = fit.alpha.iter().flatten().filter(|a| a.is_some()).count();
        vec![
            Readout { key: "sweep", value: self.shown as f64 },
            Readout { key: "relevance-vectors", value: fit.relevant.len() as f64 },
            Readout { key: "active-weights", value: active as f64 },
            Readout { key: "laplace-log-ml", value: fit.log_marginal_likelihood },
            Readout { key: "accuracy", value: fit.accuracy },
        ]
    }

    fn messages(&self) -> Vec<Message> {
        let mut messages = vec![];
        if let Some(error) = &self.failed {
            messages.push(Message::warning("run-failed", [("reason", error.to_string())]));
        } else if self.done() && !self.run.is_converged() {
            messages.push(Message::warning("not-converged-sweeps", [("sweeps", MAX_SWEEPS.to_string())]));
        }
        messages
    }

    fn is_animated(&self) -> bool {
        true
    }

    /// Another sweep or the class of the next placed point: the sweeps computed so far stay.
    fn follow(&mut self, settings: &MulticlassSettings) -> bool {
        if source(settings) != self.source {
            return false;
        }
        self.wanted = settings.k;
        self.shown = self.wanted.min(self.fits.len() - 1);
        true
    }

    /// A sweep every other frame.
    const PLAY_SPEED: u8 = 2;

    fn step(&mut self, steps: usize) -> bool {
        self.shown = (self.shown + steps).min(self.fits.len() - 1);
        self.wanted = self.shown;
        self.shown + 1 < self.fits.len() || !self.done()
    }

    fn step_back(&mut self) -> bool {
        if self.shown == 0 {
            return false;
        }
        self.shown -= 1;
        self.wanted = self.shown;
        true
    }

    fn rewind(&mut self) {
        self.shown = 0;
        self.wanted = 0;
    }

    fn cursor(&self) -> Option<(&'static str, String)> {
        Some(("step", self.shown.to_string()))
    }

    fn progress(&self) -> Option<(usize, usize)> {
        Some((self.shown, self.fits.len() - 1))
    }

    /// Sweeps for about `budget` units, a sweep with P active weights costing P²/1000
    /// (its Cholesky factor is P³/3 operations, and the budget adapts to the frame).
    fn work(&mut self, budget: usize) -> bool {
        let mut spent = 0;
        let start = now_ms();
        while !self.done() && (spent == 0 || spent < budget) {
            let weights = self.run.active_weights().len();
            spent += (weights * weights / 1000).max(1);
            match self.run.sweep() {
                Ok(_) => self.fits.push(self.run.fit()),
                Err(error) => self.failed = Some(error),
            }
            // Never more than a frame, whatever the budget says.
            if now_ms() - start > 12.0 {
                break;
            }
        }
        self.shown = self.wanted.min(self.fits.len() - 1);
        !self.done()
    }

    fn work_progress(&self) -> Option<(usize, usize)> {
        let total = if self.done() { self.fits.len() - 1 } else { (self.fits.len() * 2).min(MAX_SWEEPS) };
        Some((self.fits.len() - 1, total.max(1)))
    }
}

/// The panel.
pub type MulticlassPanel = Panel<MulticlassView>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweeps_run_in_the_background_and_the_cursor_waits_for_them() {
        let settings = MulticlassSettings { k: 5, ..MulticlassSettings::default() };
        let mut view = MulticlassView::compute(&settings).unwrap();
        assert_eq!(view.shown, 0, "sweep 5 is not computed yet");
        while view.work(1_000_000) {}
        assert!(view.run.is_converged());
        assert_eq!(view.shown, 5);
        let last = view.fits.last().unwrap();
        assert!(last.accuracy > 0.85, "{last:?}");
        assert!(last.relevant.len() < 15, "{last:?}");
        assert!(!view.step(1_000_000));
        assert_eq!(view.shown, view.fits.len() - 1);
        let map = view.map();
        let total: f64 = (0..3).map(|k| map.probabilities[k][1234]).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }
}
