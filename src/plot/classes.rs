//! A classifier in the plane (PRML Fig 7.12): the predicted class probabilities as a colour
//! map, the decision boundaries, the labelled data, and the relevance vectors circled.

use std::rc::Rc;

use plotters::coord::Shift;
use plotters::prelude::*;
use serde::Serialize;

use super::surface::draw_contours;
use super::{Axes, LabelKey, Labels, LegendEntry, Mark, PlotArea, area_of, axes, drawing_error, palette, px};
use crate::error::{Error, Result};
use crate::grid::Surface;

/// The colours of classes 0, 1, 2, … (Okabe–Ito blue, vermilion, green, purple, orange: the
/// first five of [`palette::CYCLE`]).
pub const CLASS_COLOURS: [RGBColor; 5] =
    [palette::CYCLE[0], palette::CYCLE[1], palette::CYCLE[2], palette::CYCLE[3], palette::CYCLE[4]];

/// [`CLASS_COLOURS`] as the page's legend writes them.
const CLASS_HEX: [&str; 5] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00"];
/// The mark of class k's data points, in the plot and in the legend alike: circle, cross,
/// triangle, square, then again.
pub fn class_mark(k: usize) -> Mark {
    [Mark::Dot, Mark::Cross, Mark::Triangle, Mark::Square][k % 4]
}

/// Legend keys of the classes.
const CLASS_KEYS: [&str; 5] = ["class-0", "class-1", "class-2", "class-3", "class-4"];

/// The legend of a class map with `classes` classes: each class's colour, the decision
/// boundary and the ringed relevance vectors.
pub fn legend(classes: usize) -> Vec<LegendEntry> {
    let classes = (0..classes.min(CLASS_KEYS.len())).map(|k| LegendEntry {
        key: CLASS_KEYS[k],
        colour: CLASS_HEX[k],
        mark: class_mark(k),
    });
    classes
        .chain([
            LegendEntry { key: "decision-boundary", colour: "#222222", mark: Mark::Line },
            LegendEntry { key: "relevance-vectors", colour: "#222222", mark: Mark::Dot },
        ])
        .collect()
}

/// The class map's share of a panel beside its two side charts, in percent of the width
/// (or, stacked on a narrow page, of the height): [`super::main_and_side`].
pub const MAP_SHARE: (u32, u32) = (58, 50);

/// Shades of confidence drawn per class: a cell's colour is its most probable class's,
/// mixed with white in one of this many steps.
const SHADES: usize = 8;
/// The tint of the least and the most confident shade.
const TINT: (f64, f64) = (0.06, 0.5);

/// The colour of class k.
pub fn class_colour(k: usize) -> RGBColor {
    CLASS_COLOURS[k % CLASS_COLOURS.len()]
}

/// The class probabilities p(C_k|x) on an nx × ny grid of cell centres, and what a drawing
/// of them needs, made once ([`ClassMap::new`]): the cells' colours and the decision
/// boundaries.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ClassMap {
    /// Range along x₁ covered by the grid.
    pub x_range: (f64, f64),
    /// Range along x₂ covered by the grid.
    pub y_range: (f64, f64),
    /// Cells along x₁.
    pub nx: usize,
    /// Cells along x₂.
    pub ny: usize,
    /// For each class k, p(C_k|x) at the cell centres, row by row from the bottom.
    pub probabilities: Vec<Vec<f64>>,
    /// The cells' colours as runs along the rows, once coloured ([`ClassMap::prepare_next`]).
    #[serde(skip)]
    runs: Vec<Run>,
    /// [`ClassMap::boundaries`], of the classes traced so far.
    #[serde(skip)]
    boundaries: Vec<Vec<(f64, f64)>>,
    /// How many pieces [`ClassMap::prepare_next`] has made: the colours, then the boundaries
    /// of [`ClassMap::bounded_classes`] in turn.
    #[serde(skip)]
    prepared: usize,
}

impl ClassMap {
    /// The map of `probabilities` (for each class, its nx·ny cells row by row from the
    /// bottom) over the given ranges, its decision boundaries traced.
    pub fn new(
        x_range: (f64, f64),
        y_range: (f64, f64),
        (nx, ny): (usize, usize),
        probabilities: Vec<Vec<f64>>,
    ) -> Self {
        let mut map = Self::unprepared(x_range, y_range, (nx, ny), probabilities);
        while map.prepare_next() {}
        map
    }

    /// The map of `probabilities` as [`ClassMap::new`], its cells not coloured and no
    /// boundary traced yet: [`ClassMap::prepare_next`] makes those a piece at a time (a task
    /// each, in the drawing's preparation).
    pub fn unprepared(
        x_range: (f64, f64),
        y_range: (f64, f64),
        (nx, ny): (usize, usize),
        probabilities: Vec<Vec<f64>>,
    ) -> Self {
        Self { x_range, y_range, nx, ny, probabilities, runs: vec![], boundaries: vec![], prepared: 0 }
    }

    /// Samples `f`, which writes the K class probabilities at (x₁, x₂) into its slice, at the
    /// centres of an nx × ny grid over the given ranges.
    pub fn sample(
        x_range: (f64, f64),
        y_range: (f64, f64),
        (nx, ny): (usize, usize),
        classes: usize,
        mut f: impl FnMut(f64, f64, &mut [f64]),
    ) -> Self {
        let mut probabilities = vec![Vec::with_capacity(nx * ny); classes];
        let mut cell = vec![0.0; classes];
        let probe = Surface { x_range, y_range, nx, ny, ..Surface::default() };
        for iy in 0..ny {
            for ix in 0..nx {
                let (x, y) = probe.cell_centre(ix, iy);
                f(x, y, &mut cell);
                for (column, &p) in probabilities.iter_mut().zip(&cell) {
                    column.push(p);
                }
            }
        }
        Self::new(x_range, y_range, (nx, ny), probabilities)
    }

    /// No cells yet (nothing shaded, no boundary) over the given ranges, for K classes: the
    /// map of a fit still being computed.
    pub fn blank(x_range: (f64, f64), y_range: (f64, f64), classes: usize) -> Self {
        Self::new(x_range, y_range, (0, 0), vec![vec![]; classes])
    }

    /// Number of classes K.
    pub fn classes(&self) -> usize {
        self.probabilities.len()
    }

    /// The decision boundaries: where class k stops being the most probable, the contour
    /// p_k − max_{j≠k} p_j = 0 (for K = 2 the one contour p₁ = ½); none for a blank map.
    pub fn boundaries(&self) -> &[Vec<(f64, f64)>] {
        &self.boundaries
    }

    /// The classes whose boundary is traced: one for K = 2 (p₁ = ½ is p₀'s boundary too),
    /// every class for K > 2; none for a blank map.
    fn bounded_classes(&self) -> std::ops::Range<usize> {
        match self.classes() {
            _ if self.nx * self.ny == 0 => 0..0,
            2 => 1..2,
            k_max => 0..k_max,
        }
    }

    /// Makes the next piece of what a drawing of the map needs, if one is left: the cells'
    /// colours first, then the boundary of each class of [`ClassMap::bounded_classes`] in
    /// turn; whether one was left.
    pub fn prepare_next(&mut self) -> bool {
        match self.prepared.checked_sub(1) {
            None => self.runs = self.colour_runs(),
            Some(traced) => {
                let Some(k) = self.bounded_classes().nth(traced) else { return false };
                let lines = self.boundary_of(k);
                self.boundaries.extend(lines);
            }
        }
        self.prepared += 1;
        true
    }

    /// Whether the cells are coloured and every boundary is traced.
    pub fn is_prepared(&self) -> bool {
        self.prepared > self.bounded_classes().len()
    }

    /// The cells' colours, each row's neighbours of one colour as one run (a 200 × 200 map
    /// of three classes is about four thousand runs): coloured once per map, not once per
    /// drawing (40 000 cells took a class map's drawing about 1.2 ms of its 6 here).
    fn colour_runs(&self) -> Vec<Run> {
        let mut runs: Vec<Run> = vec![];
        for i in 0..self.nx * self.ny {
            let (row, cell) = (i / self.nx, i % self.nx);
            let (class, shade) = self.shade(i);
            match runs.last_mut() {
                Some(run) if run.row == row && (run.class, run.shade) == (class, shade) => run.to = cell + 1,
                _ => runs.push(Run { row, from: cell, to: cell + 1, class, shade }),
            }
        }
        runs
    }

    /// Where class k stops being the most probable: the contour p_k − max_{j≠k} p_j = 0,
    /// traced on the grid.
    fn boundary_of(&self, k: usize) -> Vec<Vec<(f64, f64)>> {
        let k_max = self.classes();
        let margin = (0..self.nx * self.ny)
            .map(|i| {
                let rival = (0..k_max).filter(|&j| j != k).map(|j| self.probabilities[j][i]);
                self.probabilities[k][i] - rival.fold(f64::NEG_INFINITY, f64::max)
            })
            .collect();
        let surface = Surface {
            x_range: self.x_range,
            y_range: self.y_range,
            nx: self.nx,
            ny: self.ny,
            values: margin,
            levels: vec![],
        };
        surface.contour(0.0)
    }

    /// The most probable class of cell i and its shade, 0 (a tie) … [`SHADES`] − 1 (certain).
    fn shade(&self, i: usize) -> (usize, usize) {
        let k_max = self.classes();
        let (best, p) = (0..k_max)
            .map(|k| (k, self.probabilities[k][i]))
            .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
        let floor = 1.0 / k_max as f64;
        let confidence = ((p - floor) / (1.0 - floor)).clamp(0.0, 1.0);
        (best, ((confidence * SHADES as f64) as usize).min(SHADES - 1))
    }
}

/// Cells `from..to` of row `row` (from the bottom), all of one colour: shade `shade` of
/// class `class` ([`ClassMap::shade`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Run {
    row: usize,
    from: usize,
    to: usize,
    class: usize,
    shade: usize,
}

/// The square around `points` with a margin of a tenth of its side.
pub fn square_around(points: &[[f64; 2]]) -> ((f64, f64), (f64, f64)) {
    let bounds =
        |k: usize| points.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| (lo.min(p[k]), hi.max(p[k])));
    let ((x0, x1), (y0, y1)) = (bounds(0), bounds(1));
    if !(x0.is_finite() && y0.is_finite()) {
        return ((-1.0, 1.0), (-1.0, 1.0));
    }
    let side = (x1 - x0).max(y1 - y0).max(0.5) * 1.2;
    let (cx, cy) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
    ((cx - side / 2.0, cx + side / 2.0), (cy - side / 2.0, cy + side / 2.0))
}

/// The colour of a shade of class k: white mixed with the class colour.
fn shade_colour(k: usize, shade: usize) -> RGBColor {
    let tint = TINT.0 + (TINT.1 - TINT.0) * shade as f64 / (SHADES - 1) as f64;
    let c = class_colour(k);
    let mix = |v: u8| (255.0 + (f64::from(v) - 255.0) * tint).round() as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// The data of class k in its shape as well as its colour: circle, cross, triangle,
/// square, then again.
fn draw_marks<DB: DrawingBackend>(
    chart: &mut super::Chart<'_, DB>,
    points: &[(f64, f64)],
    k: usize,
    style: ShapeStyle,
    size: i32,
) -> Result<()> {
    let at = points.iter().copied();
    match class_mark(k) {
        Mark::Dot => chart.draw_series(at.map(|p| Circle::new(p, size, style))),
        Mark::Cross => chart.draw_series(at.map(|p| Cross::new(p, size, style))),
        Mark::Triangle => chart.draw_series(at.map(|p| TriangleMarker::new(p, size + 1, style))),
        _ => chart.draw_series(at.map(|p| EmptyElement::at(p) + Rectangle::new([(-size, -size), (size, size)], style))),
    }
    .map_err(drawing_error)?;
    Ok(())
}

/// `Ok` when every class map made from a kernel expansion with these `weights` (the
/// bias's among them) is finite, without computing one: an activation b + Σⱼ wⱼ k(x, cⱼ)
/// with kernel values 0 ≤ k ≤ 1, or a difference of two (the multiclass map's aₖ − a₀), is
/// at most 2 Σ|w| in size, and so is each of its partial sums. While that bound is finite no
/// activation overflows, and σ or a softmax (with its largest activation subtracted) of
/// finite activations are probabilities.
///
/// # Errors
/// [`Error::Overflow`] naming the class map, with the bound, when it is not finite.
pub fn ensure_map_finite(weights: impl IntoIterator<Item = f64>) -> Result<()> {
    let bound = 2.0 * weights.into_iter().map(f64::abs).sum::<f64>();
    if bound.is_finite() { Ok(()) } else { Err(Error::overflow("chart.class-map", bound)) }
}

/// A class map with the data and the relevance vectors on top.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassMapChart {
    /// The probabilities (shared with the panel's [`crate::app::class_map::MapCache`]).
    pub map: Rc<ClassMap>,
    /// The data: input and class.
    pub points: Vec<([f64; 2], usize)>,
    /// The inputs the relevance vectors are centred on.
    pub relevant: Vec<[f64; 2]>,
    /// The input whose basis function the step acted on, ringed in the action's colour.
    #[serde(skip)]
    pub highlight: Option<([f64; 2], RGBColor)>,
    /// Label key and English text of the title, if any.
    pub title: Option<LabelKey>,
}

impl ClassMapChart {
    /// Draws the chart onto `area`; returns its plotting area.
    ///
    /// # Errors
    /// [`crate::Error::Drawing`] if the backend fails.
    pub fn draw<DB: DrawingBackend>(
        &self,
        area: &DrawingArea<DB, Shift>,
        scale: f64,
        labels: &Labels,
    ) -> Result<PlotArea> {
        let map = &self.map;
        let mut spec = Axes::named(map.x_range, map.y_range, (("x1", "x₁"), ("x2", "x₂"), self.title), labels);
        // The cells cover the grid, once there are any.
        spec.grid = map.nx * map.ny == 0;
        let mut chart = axes(area, &spec, scale)?;
        self.draw_cells(&mut chart)?;
        draw_contours(&mut chart, map.boundaries(), palette::INK.stroke_width(px(2.5, scale)))?;
        let size = px(4.0, scale) as i32;
        for k in 0..map.classes() {
            let points: Vec<(f64, f64)> = self.points.iter().filter(|p| p.1 == k).map(|p| (p.0[0], p.0[1])).collect();
            draw_marks(&mut chart, &points, k, class_colour(k).stroke_width(px(1.5, scale)), size)?;
        }
        let ring = palette::INK.stroke_width(px(2.0, scale));
        let rings = self.relevant.iter().map(|x| Circle::new((x[0], x[1]), px(9.0, scale), ring));
        chart.draw_series(rings).map_err(drawing_error)?;
        if let Some((x, colour)) = self.highlight {
            let style = colour.stroke_width(px(3.5, scale));
            chart.draw_series([Circle::new((x[0], x[1]), px(13.0, scale), style)]).map_err(drawing_error)?;
        }
        Ok(area_of(&chart))
    }

    /// The cells, a rectangle per run of one colour along a row (none before the map is
    /// prepared; [`ClassMap::new`] and a panel's [`crate::app::class_map::MapCache`] give
    /// prepared maps).
    fn draw_cells<DB: DrawingBackend>(&self, chart: &mut super::Chart<'_, DB>) -> Result<()> {
        let map = &self.map;
        let (x0, x1) = map.x_range;
        let (y0, y1) = map.y_range;
        let dx = (x1 - x0) / map.nx as f64;
        let dy = (y1 - y0) / map.ny as f64;
        let rectangles = map.runs.iter().map(|run| {
            let (x, y) = (x0 + run.from as f64 * dx, y0 + run.row as f64 * dy);
            let colour = shade_colour(run.class, run.shade);
            Rectangle::new([(x, y), (x0 + run.to as f64 * dx, y + dy)], colour.filled())
        });
        chart.draw_series(rectangles).map_err(drawing_error)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_map_is_finite_while_its_weights_are_bounded() {
        assert!(ensure_map_finite([1e300, -1e300, 3.0]).is_ok());
        // Two weights of 1e308 could make an activation (or a difference) of ±∞.
        let error = ensure_map_finite([1e308, -1e308]).unwrap_err();
        assert_eq!(error.code(), "overflow");
        assert!(error.args().contains(&("quantity", "chart.class-map".to_owned())), "{:?}", error.args());
        assert!(ensure_map_finite([f64::NAN]).is_err());
        assert!(ensure_map_finite([f64::INFINITY]).is_err());
        // 9e307 is finite, but activations of ±9e307 differ by more than f64 holds.
        assert!(ensure_map_finite([9e307]).is_err());
        assert!(ensure_map_finite([8e307]).is_ok());
    }

    #[test]
    fn the_legend_colours_are_the_class_colours() {
        for (k, entry) in legend(5).iter().take(5).enumerate() {
            assert_eq!(entry.colour, palette::hex(class_colour(k)));
        }
        assert_eq!(legend(3).len(), 5);
    }

    #[test]
    fn a_linear_boundary_is_found_where_the_probability_is_a_half() {
        // p₁ = σ(4(x − 0.3)): the boundary is the line x = 0.3.
        let map = ClassMap::sample((0.0, 1.0), (0.0, 1.0), (50, 40), 2, |x, _, p| {
            p[1] = 1.0 / (1.0 + (-4.0 * (x - 0.3)).exp());
            p[0] = 1.0 - p[1];
        });
        let lines = map.boundaries();
        assert_eq!(lines.len(), 1);
        assert!(lines[0].iter().all(|&(x, _)| (x - 0.3).abs() < 1e-3), "{:?}", lines[0]);
        assert_eq!(map.shade(0).0, 0);
        assert_eq!(map.shade(49).0, 1);
    }

    #[test]
    fn the_runs_colour_every_cell_once_as_its_own_shade() {
        // Three classes over a 37 × 23 grid, the most probable one and its confidence
        // changing along both axes, so that rows hold runs of every length.
        let map = ClassMap::sample((-1.0, 2.0), (0.0, 1.0), (37, 23), 3, |x, y, p| {
            let e = [1.0, (4.0 * x - 3.0 * y).exp(), (5.0 * y - x - 1.0).exp()];
            let sum: f64 = e.iter().sum();
            for (v, e) in p.iter_mut().zip(e) {
                *v = e / sum;
            }
        });
        let runs = &map.runs;
        let mut seen = vec![0; 37 * 23];
        for (i, run) in runs.iter().enumerate() {
            assert!(run.from < run.to && run.to <= 37 && run.row < 23, "{run:?}");
            let cells = run.row * 37 + run.from..run.row * 37 + run.to;
            for (cell, count) in seen.iter_mut().enumerate().take(cells.end).skip(cells.start) {
                *count += 1;
                assert_eq!(map.shade(cell), (run.class, run.shade), "cell {cell}");
            }
            // A run is as long as its colour goes: the next one on its row differs.
            if let Some(next) = runs.get(i + 1).filter(|next| next.row == run.row) {
                assert_eq!(next.from, run.to);
                assert_ne!((next.class, next.shade), (run.class, run.shade));
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "every cell in one run");
        assert!(runs.len() > 23 && runs.len() < 37 * 23, "{} runs", runs.len());
        // A map made a piece at a time has the same runs.
        let mut pieces = ClassMap::unprepared(map.x_range, map.y_range, (37, 23), map.probabilities.clone());
        assert!(!pieces.is_prepared());
        assert!(pieces.prepare_next() && &pieces.runs == runs);
        while pieces.prepare_next() {}
        assert!(pieces.is_prepared() && pieces == map);
    }

    #[test]
    fn three_classes_meet_along_their_bisectors() {
        // Class k most probable in its third of the square along x.
        let map = ClassMap::sample((0.0, 3.0), (0.0, 1.0), (60, 10), 3, |x, _, p| {
            for (k, v) in p.iter_mut().enumerate() {
                *v = (-(x - 0.5 - k as f64).powi(2)).exp();
            }
            let sum: f64 = p.iter().sum();
            p.iter_mut().for_each(|v| *v /= sum);
        });
        let xs: Vec<f64> = map.boundaries().iter().flatten().map(|p| p.0).collect();
        // Linear interpolation between cell centres 0.05 apart: within 10⁻³ of the bisector.
        assert!(xs.iter().all(|&x| (x - 1.0).abs() < 1e-3 || (x - 2.0).abs() < 1e-3), "{xs:?}");
        assert!(xs.iter().any(|&x| (x - 1.0).abs() < 1e-3) && xs.iter().any(|&x| (x - 2.0).abs() < 1e-3));
    }
}
