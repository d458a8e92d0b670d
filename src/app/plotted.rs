//! What the charts plot, as tables of numbers: the page's "data table" view of a chart (for
//! a screen reader, or to read a value off exactly) and its "plotted data as CSV".
//!
//! Each chart type of [`crate::plot`] writes its own tables ([`Tabulate`]) from the very
//! scene it draws, so the table and the pixels cannot disagree: the curves at their grid
//! points, the data, the marked points, and a surface or a class map on a coarse grid.

use crate::grid::Surface;
use crate::plot::basis::BasisScene;
use crate::plot::classes::ClassMapChart;
use crate::plot::fit::LineChart;
use crate::plot::lambda::{LambdaChart, Optimum, QualityPlaneChart};
use crate::plot::predictive::PredictiveScene;
use crate::plot::surface::SurfaceChart;
use crate::plot::target_space::TargetSpaceChart;

/// A surface or a class map is tabulated on at most this many points along each side.
pub const COARSE_SIDE: usize = 13;

/// Words of the string table naming a column or a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Name {
    /// A chart's word (`chart.<key>`): an axis name or a title.
    Chart(&'static str),
    /// A series of the legend (`legend.<key>`).
    Series(&'static str),
}

impl Name {
    /// Its key in the page's string table.
    pub fn text_key(self) -> String {
        match self {
            Name::Chart(key) => format!("chart.{key}"),
            Name::Series(key) => format!("legend.{key}"),
        }
    }
}

/// A column's heading: its name, numbered for one of a family (φ₃, the second sample).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Heading {
    /// The words.
    pub name: Name,
    /// The member of the family, if any.
    pub number: Option<usize>,
}

impl Heading {
    /// The heading `name`, unnumbered.
    pub fn new(name: Name) -> Self {
        Self { name, number: None }
    }

    /// An axis of a chart (`chart.<key>`).
    pub fn axis(key: &'static str) -> Self {
        Self::new(Name::Chart(key))
    }

    /// Member `number` of the family `name`.
    pub fn numbered(name: Name, number: usize) -> Self {
        Self { name, number: Some(number) }
    }

    /// The heading in a CSV file: the key, then `_` and the number (`samples_2`).
    fn csv(self) -> String {
        let key = match self.name {
            Name::Chart(key) | Name::Series(key) => key,
        };
        self.number.map_or_else(|| key.to_owned(), |n| format!("{key}_{n}"))
    }
}

impl From<Name> for Heading {
    fn from(name: Name) -> Self {
        Self::new(name)
    }
}

/// A table of what a chart plots.
#[derive(Debug, Clone, PartialEq)]
pub struct Plotted {
    /// What it holds (the chart's title, or the series), numbered for one of a family.
    pub caption: Heading,
    /// One heading per column.
    pub headings: Vec<Heading>,
    /// The numbers, row after row, one per column.
    pub values: Vec<f64>,
}

impl Plotted {
    /// An empty table of `caption` with columns `headings`.
    pub fn new(caption: impl Into<Heading>, headings: Vec<Heading>) -> Self {
        Self { caption: caption.into(), headings, values: vec![] }
    }

    /// Points (x, y) under the headings of a chart's two axes.
    pub fn points(caption: impl Into<Heading>, axes: (&'static str, &'static str), points: &[(f64, f64)]) -> Self {
        let mut table = Self::new(caption, vec![Heading::axis(axes.0), Heading::axis(axes.1)]);
        for &(x, y) in points {
            table.values.extend([x, y]);
        }
        table
    }

    /// The rows.
    pub fn rows(&self) -> std::slice::Chunks<'_, f64> {
        self.values.chunks(self.headings.len().max(1))
    }
}

/// A chart that can list what it plots.
pub trait Tabulate {
    /// Appends the tables of what the chart plots to `tables`.
    fn tabulate(&self, tables: &mut Vec<Plotted>);
}

/// The tables of `charts`, in order: a panel's [`super::Panel::plotted`].
pub fn tabulate_all(charts: &[&dyn Tabulate]) -> Vec<Plotted> {
    let mut tables = vec![];
    for chart in charts {
        chart.tabulate(&mut tables);
    }
    tables
}

/// Every `step`-th of `0..n` with `step` chosen so that at most [`COARSE_SIDE`] remain,
/// always including the first.
fn coarse(n: usize) -> Vec<usize> {
    let step = n.div_ceil(COARSE_SIDE).max(1);
    (0..n.div_ceil(step)).map(|k| k * step).collect()
}

/// The predictive chart: the data; and on the grid the true curve (when it is known there),
/// the mean, the ±2σ band's edges and each posterior sample (as shown: through the scene's
/// link, and named by it).
impl Tabulate for PredictiveScene {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        if !self.points.is_empty() {
            tables.push(Plotted::points(Name::Series("data"), ("x", "t"), &self.points));
        }
        let truth_on_grid = self.truth.len() == self.grid.len() && !self.truth.is_empty();
        let [truth, mean, lower, upper] = self.link.names();
        let mut headings = vec![Heading::axis("x")];
        if truth_on_grid {
            headings.push(Heading::new(Name::Series(truth)));
        }
        headings.extend([Heading::new(Name::Series(mean)), Heading::axis(lower), Heading::axis(upper)]);
        for k in 1..=self.samples.len() {
            headings.push(Heading::numbered(Name::Series("samples"), k));
        }
        let mut table = Plotted::new(Name::Chart("curves"), headings);
        for i in 0..self.grid.len().min(self.mean.len()).min(self.std_dev.len()) {
            let (lower, upper) = self.band_at(i, 2.0);
            table.values.push(self.grid[i]);
            if truth_on_grid {
                table.values.push(self.truth[i].1);
            }
            table.values.extend([self.mean_at(i), lower, upper]);
            for sample in &self.samples {
                table.values.push(sample.get(i).copied().unwrap_or(f64::NAN));
            }
        }
        tables.push(table);
        if !self.truth.is_empty() && !truth_on_grid {
            tables.push(Plotted::points(Name::Series(truth), ("x", "t"), &self.truth));
        }
    }
}

/// The basis functions: φⱼ(x) of each on the grid.
impl Tabulate for BasisScene {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let numbers: Vec<usize> = (0..self.curves.len()).collect();
        tables.push(curves_on_grid(Name::Series("functions"), &self.grid, "phi", &self.curves, &numbers));
    }
}

/// Curves on one grid as a table: x, then each curve, named `family` with its number from
/// `numbers`.
pub fn curves_on_grid(
    caption: Name,
    grid: &[f64],
    family: &'static str,
    curves: &[Vec<f64>],
    numbers: &[usize],
) -> Plotted {
    let mut headings = vec![Heading::axis("x")];
    for &j in numbers {
        headings.push(Heading::numbered(Name::Chart(family), j));
    }
    let mut table = Plotted::new(caption, headings);
    for (i, &x) in grid.iter().enumerate() {
        table.values.push(x);
        for curve in curves {
            table.values.push(curve.get(i).copied().unwrap_or(f64::NAN));
        }
    }
    table
}

/// A chart of curves: in one table with a column per curve when they share their x values
/// (a regularisation path), otherwise a table per curve; then its data points. A curve is
/// headed by its series' name (numbered from 1 when several share it), or else by the
/// y-axis name and its index (wⱼ).
impl Tabulate for LineChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let curves = &self.curves;
        let x = Heading::axis(self.x_name.0);
        let headings: Vec<Heading> = (0..curves.len()).map(|k| self.heading(k)).collect();
        let xs = |k: usize| curves[k].points.iter().map(|p| p.0);
        if curves.len() > 1 && (1..curves.len()).all(|k| xs(k).eq(xs(0))) {
            let caption = Name::Chart(self.title.map_or("curves", |t| t.0));
            let mut table = Plotted::new(caption, [x].into_iter().chain(headings).collect());
            for (i, &(at, _)) in curves[0].points.iter().enumerate() {
                table.values.push(at);
                for curve in curves {
                    table.values.push(curve.points[i].1);
                }
            }
            tables.push(table);
        } else {
            for (curve, heading) in curves.iter().zip(headings) {
                let caption = match self.title {
                    Some((title, _)) if curve.series.is_none() => Heading::new(Name::Chart(title)),
                    _ => heading,
                };
                tables.push(Plotted::points(caption, (self.x_name.0, self.y_name.0), &curve.points));
            }
        }
        if !self.points.is_empty() {
            tables.push(Plotted::points(Name::Series("data"), (self.x_name.0, self.y_name.0), &self.points));
        }
    }
}

impl LineChart {
    /// The heading of curve `k` in the chart's table: its series' name (numbered from 1
    /// when several curves share it), or else the y-axis name with its index (wⱼ).
    fn heading(&self, k: usize) -> Heading {
        let Some(series) = self.curves[k].series else {
            return if self.curves.len() > 1 {
                Heading::numbered(Name::Chart(self.y_name.0), k)
            } else {
                Heading::axis(self.y_name.0)
            };
        };
        let same: Vec<usize> = (0..self.curves.len()).filter(|&j| self.curves[j].series == Some(series)).collect();
        match same.iter().position(|&j| j == k) {
            Some(n) if same.len() > 1 => Heading::numbered(Name::Series(series), n + 1),
            _ => Heading::new(Name::Series(series)),
        }
    }
}

/// A surface: z = a + b·value (its `z_of_value`) at the centres of a coarse grid of its
/// cells, each path point by point (named by its series), the marked points.
impl Tabulate for SurfaceChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let (surface, (a, b)) = (&self.surface, self.z_of_value);
        let caption = Name::Chart(self.title.map_or("surface", |t| t.0));
        let headings = vec![Heading::axis(self.x_name.0), Heading::axis(self.y_name.0), Heading::axis(self.z_name)];
        let mut table = Plotted::new(caption, headings);
        for iy in coarse(surface.ny) {
            for ix in coarse(surface.nx) {
                let (x, y) = surface.cell_centre(ix, iy);
                let z = surface.values.get(iy * surface.nx + ix).map_or(f64::NAN, |v| a + b * v);
                table.values.extend([x, y, z]);
            }
        }
        tables.push(table);
        let axes = (self.x_name.0, self.y_name.0);
        for path in &self.paths {
            tables.push(Plotted::points(Name::Series(path.series), axes, &path.points));
        }
        if !self.crosses.is_empty() {
            tables.push(Plotted::points(Name::Chart("marked"), axes, &self.crosses));
        }
    }
}

/// A class map: p(C_k | x) of every class at the centres of a coarse grid of its cells, the
/// data with their classes, the relevance vectors.
impl Tabulate for ClassMapChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let map = &self.map;
        let mut headings = vec![Heading::axis("x1"), Heading::axis("x2")];
        for k in 0..map.classes() {
            headings.push(Heading::numbered(Name::Chart("p-class"), k));
        }
        let mut table = Plotted::new(Name::Chart("class-map"), headings);
        let probe =
            Surface { x_range: map.x_range, y_range: map.y_range, nx: map.nx, ny: map.ny, ..Surface::default() };
        for iy in coarse(map.ny) {
            for ix in coarse(map.nx) {
                let (x, y) = probe.cell_centre(ix, iy);
                table.values.extend([x, y]);
                for class in &map.probabilities {
                    table.values.push(class.get(iy * map.nx + ix).copied().unwrap_or(f64::NAN));
                }
            }
        }
        tables.push(table);
        let mut data =
            Plotted::new(Name::Series("data"), vec![Heading::axis("x1"), Heading::axis("x2"), Heading::axis("class")]);
        for &([a, b], k) in &self.points {
            data.values.extend([a, b, k as f64]);
        }
        tables.push(data);
        if !self.relevant.is_empty() {
            let points: Vec<_> = self.relevant.iter().map(|&[a, b]| (a, b)).collect();
            tables.push(Plotted::points(Name::Series("relevance-vectors"), ("x1", "x2"), &points));
        }
    }
}

/// λ(α) (or ln p(t|α)) against ln α, then α* and the current α where they are marked.
impl Tabulate for LambdaChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let axes = ("ln-alpha", self.y_name.0);
        let caption = Name::Chart(self.title.map_or(self.y_name.0, |t| t.0));
        tables.push(Plotted::points(caption, axes, &self.curve));
        if let Optimum::At { point, .. } = self.optimum {
            tables.push(Plotted::points(Name::Series("alpha-star"), axes, &[point]));
        }
        if let Some((_, point)) = self.current {
            tables.push(Plotted::points(Name::Series("current-alpha"), axes, &[point]));
        }
    }
}

/// The (s, q²) plane: the basis vector's point.
impl Tabulate for QualityPlaneChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        tables.push(Plotted::points(Name::Series("this-basis"), ("sparsity", "quality-squared"), &[self.point]));
    }
}

/// The target space: t, the tip of φ, and the ellipse of C point by point.
impl Tabulate for TargetSpaceChart {
    fn tabulate(&self, tables: &mut Vec<Plotted>) {
        let axes = ("t1", "t2");
        tables.push(Plotted::points(Name::Series("target"), axes, &[self.target]));
        tables.push(Plotted::points(Name::Series("basis-vector"), axes, &[self.basis]));
        tables.push(Plotted::points(Name::Series("ellipse"), axes, &self.ellipse));
    }
}

/// The tables as CSV text, for "Save plotted data as CSV": for each table a line with its
/// caption, one with its headings, then its rows; tables separated by a blank line. Names
/// are the string-table keys (language-neutral), numbers written in full as in
/// [`super::report::results_csv`].
pub fn plotted_csv(tables: &[Plotted]) -> String {
    let mut text = String::new();
    for table in tables {
        let headings: Vec<String> = table.headings.iter().map(|h| h.csv()).collect();
        let mut lines = table.rows().map(|row| row.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(","));
        push_csv_section(&mut text, &table.caption.csv(), &headings.join(","), &mut lines);
    }
    text
}

/// Appends a section of a CSV file to `text`: a blank line if `text` is not empty, a line
/// with `caption`, one with the `headings`, then the `lines` of the rows.
pub fn push_csv_section(text: &mut String, caption: &str, headings: &str, lines: &mut dyn Iterator<Item = String>) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(&format!("{caption}\n{headings}\n"));
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use nalgebra::{DMatrix, DVector};

    use super::*;
    use crate::app::panels::evidence::EvidencePanel;
    use crate::app::panels::predictive::PredictivePanel;
    use crate::app::{Live, Panel, names, open_panel};

    /// The table captioned `caption`.
    fn table(tables: &[Plotted], caption: impl Into<Heading>) -> &Plotted {
        let caption = caption.into();
        tables.iter().find(|t| t.caption == caption).unwrap_or_else(|| panic!("no table {caption:?}"))
    }

    /// The column headed `heading` of `table`.
    fn column(table: &Plotted, heading: Heading) -> usize {
        table.headings.iter().position(|&h| h == heading).unwrap_or_else(|| panic!("no column {heading:?}"))
    }

    /// Φ and t of a panel's settings, from its data and basis groups.
    fn design(
        data: &crate::app::settings::DataParams,
        basis: &crate::app::settings::BasisParams,
    ) -> (DMatrix<f64>, DVector<f64>) {
        let data = data.dataset().unwrap();
        let basis = basis.basis(&data.x).unwrap();
        (basis.design_matrix(&data.x).unwrap(), DVector::from_vec(data.t))
    }

    /// S_N = (αI + βΦᵀΦ)⁻¹ and m_N = βS_NΦᵀt (PRML 3.53–3.54), by an explicit inverse.
    fn posterior(phi: &DMatrix<f64>, t: &DVector<f64>, alpha: f64, beta: f64) -> (DMatrix<f64>, DVector<f64>) {
        let m = phi.ncols();
        let a = DMatrix::identity(m, m) * alpha + phi.transpose() * phi * beta;
        let s = a.try_inverse().unwrap();
        let mean = &s * phi.transpose() * t * beta;
        (s, mean)
    }

    #[test]
    fn the_predictive_table_holds_the_mean_and_band_of_a_from_scratch_posterior() {
        let live = Live::<PredictivePanel>::try_default().unwrap();
        let settings = live.settings();
        let (phi, t) = design(&settings.data, &settings.basis);
        let (alpha, beta) = (settings.precisions.alpha, settings.precisions.beta);
        let (s, mean) = posterior(&phi, &t, alpha, beta);
        let data = settings.data.dataset().unwrap();
        let basis = settings.basis.basis(&data.x).unwrap();
        let tables = live.panel().plotted();
        let curves = table(&tables, Name::Chart("curves"));
        assert_eq!(curves.rows().len(), 201, "every grid point");
        let (m, lo, hi) = (
            column(curves, Heading::new(Name::Series("mean"))),
            column(curves, Heading::axis("lower-2sd")),
            column(curves, Heading::axis("upper-2sd")),
        );
        assert_eq!(curves.headings.len(), 5 + 5, "x, truth, mean, band edges, five samples");
        for row in curves.rows().step_by(20) {
            let f = basis.features(row[0]);
            let sd = (1.0 / beta + (f.transpose() * &s * &f)[0]).sqrt();
            let expected = mean.dot(&f);
            assert!((row[m] - expected).abs() < 1e-9, "mean at {}", row[0]);
            assert!((row[lo] - (expected - 2.0 * sd)).abs() < 1e-9 && (row[hi] - (expected + 2.0 * sd)).abs() < 1e-9);
        }
        let points = table(&tables, Name::Series("data"));
        let expected: Vec<f64> = data.x.iter().zip(&data.t).flat_map(|(&x, &t)| [x, t]).collect();
        assert_eq!(points.values, expected);
    }

    #[test]
    fn the_evidence_table_is_the_surface_on_a_coarse_grid_computed_from_scratch() {
        let live = Live::<EvidencePanel>::try_default().unwrap();
        let settings = live.settings();
        let (phi, t) = design(&settings.data, &settings.basis);
        let (n, m) = (phi.nrows() as f64, phi.ncols() as f64);
        let tables = live.panel().plotted();
        let surface = table(&tables, Name::Chart("surface"));
        assert_eq!(
            surface.headings,
            [Heading::axis("ln-alpha"), Heading::axis("ln-beta"), Heading::axis("log-evidence")]
        );
        assert!(surface.rows().len() <= COARSE_SIDE * COARSE_SIDE && surface.rows().len() >= 100);
        for row in surface.rows() {
            let (alpha, beta) = (row[0].exp(), row[1].exp());
            let (s, mean) = posterior(&phi, &t, alpha, beta);
            // PRML 3.86 with E(m_N) of 3.82 and |A| = 1/|S_N|.
            let e = 0.5 * beta * (&t - &phi * &mean).norm_squared() + 0.5 * alpha * mean.norm_squared();
            let expected = 0.5 * m * alpha.ln() + 0.5 * n * beta.ln() - e + 0.5 * s.determinant().ln()
                - 0.5 * n * (2.0 * std::f64::consts::PI).ln();
            assert!((row[2] - expected).abs() < 1e-6 * expected.abs().max(1.0), "{row:?}: {expected}");
        }
        // The four schemes' paths start where the settings say.
        let first = table(&tables, Name::Series("alpha-only"));
        assert_eq!(first.values[..2], [settings.start.0, settings.start.1]);
    }

    #[test]
    fn every_panel_tabulates_what_it_plots_and_the_csv_reads_back() {
        for name in names() {
            let mut panel = open_panel(name).unwrap();
            while panel.work(crate::solver::Budget::unlimited()) {}
            let tables = panel.plotted();
            assert!(!tables.is_empty(), "{name}");
            for table in &tables {
                assert!(!table.headings.is_empty(), "{name}: {:?}", table.caption);
                assert_eq!(table.values.len() % table.headings.len(), 0, "{name}: {:?}", table.caption);
                assert!(table.values.iter().all(|v| !v.is_nan()), "{name}: {:?}", table.caption);
            }
            let text = plotted_csv(&tables);
            let sections: Vec<&str> = text.split("\n\n").collect();
            assert_eq!(sections.len(), tables.len(), "{name}");
            for (section, table) in sections.iter().zip(&tables) {
                let mut lines = section.lines();
                assert_eq!(lines.next(), Some(table.caption.csv().as_str()));
                assert_eq!(lines.next().map(|l| l.split(',').count()), Some(table.headings.len()));
                let values: Vec<f64> = lines.flat_map(|l| l.split(',').map(|v| v.parse::<f64>().unwrap())).collect();
                assert_eq!(values, table.values, "{name}: the numbers read back exactly");
            }
        }
    }

    #[test]
    fn class_maps_give_probabilities_and_densities_are_positive() {
        for name in ["classification", "multiclass"] {
            let mut panel = open_panel(name).unwrap();
            while panel.work(crate::solver::Budget::unlimited()) {}
            let tables = panel.plotted();
            let map = table(&tables, Name::Chart("class-map"));
            assert_eq!(map.rows().len(), COARSE_SIDE * COARSE_SIDE, "{name}");
            for row in map.rows() {
                let total: f64 = row[2..].iter().sum();
                assert!((total - 1.0).abs() < 1e-9 && row[2..].iter().all(|p| (0.0..=1.0).contains(p)), "{name}");
            }
        }
        let tables = open_panel("sequential").unwrap().plotted();
        let density = table(&tables, Name::Chart("posterior"));
        assert!(density.rows().all(|row| row[2] > 0.0), "the density, not its negation");
    }

    #[test]
    fn headings_number_the_members_of_a_family() {
        let phi = Heading::numbered(Name::Chart("phi"), 3);
        assert_eq!((phi.csv(), phi.name.text_key()), ("phi_3".to_owned(), "chart.phi".to_owned()));
        assert_eq!(Heading::new(Name::Series("mean")).name.text_key(), "legend.mean");
        assert_eq!(coarse(160), (0..13).map(|k| 13 * k).collect::<Vec<_>>());
        assert_eq!(coarse(5), [0, 1, 2, 3, 4]);
        assert_eq!(coarse(26), (0..13).map(|k| 2 * k).collect::<Vec<_>>());
    }
}
