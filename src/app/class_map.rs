//! A panel's class map of the frame shown (classification, multiclass), made once per frame,
//! a band of rows at a time, then its cells' colours, then a class's decision boundary at a
//! time, so that the drawing's preparation can spread it over tasks (tracing multiclass's
//! three boundaries at once was a task of 20–30 ms on this machine's first run of the code).

use std::cell::RefCell;
use std::rc::Rc;

use crate::grid::evenly_spaced;
use crate::plot::classes::ClassMap;
use crate::solver::{Budget, CLOCK_EVERY_UNITS};

/// Rows of cells a class map computes at once: the drawing's preparation computes bands
/// within a task's time ([`MapCache::prepare`]). Multiclass's first fit, every data point a
/// centre, made its 200 × 200 map one task of about 50 ms on this machine's first run of the
/// code, over 200 ms on a phone 4× slower; in bands of 50 rows, a band on the code's first
/// run was still a task of about 25 ms here.
pub const MAP_BAND_ROWS: usize = 20;

/// The K class probabilities at the nodes xs × ys, each class row by row from `ys[0]`
/// (index iy·|xs| + ix): what a panel's class map is made of ([`MapSource`]).
pub type Probabilities<'a> = &'a dyn Fn(&[f64], &[f64]) -> Vec<Vec<f64>>;

/// How a panel's class map is made: its square, its cells along each axis, and
/// `probabilities(xs, ys)`, the K class probabilities at the nodes xs × ys (ys a band of
/// rows), each class row by row from `ys[0]` (index iy·|xs| + ix).
pub struct MapSource<'a> {
    /// The square covered, ((x₁ from, to), (x₂ from, to)).
    pub square: ((f64, f64), (f64, f64)),
    /// Cells along each axis.
    pub cells: usize,
    /// The probabilities at the nodes of a band.
    pub probabilities: Probabilities<'a>,
}

/// A class map being made: the probabilities of the bands of rows done so far (each class
/// row by row), then the map being prepared for drawing (its cells' colours, then its
/// boundaries a class at a time: [`ClassMap::prepare_next`]), then the whole map.
#[derive(Debug, Clone)]
enum MapStage {
    Rows(Vec<Vec<f64>>),
    Preparing(ClassMap),
    Done(Rc<ClassMap>),
}

/// A panel's class map of the frame shown, computed once per frame, a band of
/// [`MAP_BAND_ROWS`] rows at a time, then its cells' colours, then a class's decision
/// boundary at a time: by the drawing's preparation ([`crate::app::Panel::prepare_drawing`],
/// a task per piece before the frame) or at once by the first drawing or table that needs
/// it. A new panel (new data, new settings) starts with none.
#[derive(Debug, Clone, Default)]
pub struct MapCache(RefCell<Option<(usize, MapStage)>>);

impl MapCache {
    /// The map of frame `frame`: the one kept if it is that frame's, else made from `source`
    /// (the bands not made yet), kept.
    pub fn get(&self, frame: usize, source: &MapSource<'_>) -> Rc<ClassMap> {
        loop {
            if let (Some(map), _) = self.advance(frame, source) {
                return map;
            }
        }
    }

    /// Makes more pieces of frame `frame`'s map from `source` — bands of rows, then the
    /// cells' colours, then the boundaries a class at a time — within `budget`, at least
    /// one; whether there was anything to compute. A piece is counted as work enough for the
    /// budget to read the clock after it.
    pub fn prepare(&self, frame: usize, source: &MapSource<'_>, budget: &mut Budget) -> bool {
        let mut computed = false;
        loop {
            let (whole, band) = self.advance(frame, source);
            computed |= band;
            budget.spend(CLOCK_EVERY_UNITS);
            if whole.is_some() || !budget.allows() {
                return computed;
            }
        }
    }

    /// The map of frame `frame` if it is whole after one more piece (none when it was
    /// already), and whether a piece was computed.
    fn advance(&self, frame: usize, source: &MapSource<'_>) -> (Option<Rc<ClassMap>>, bool) {
        let mut kept = self.0.borrow_mut();
        let done = match kept.take() {
            Some((at, MapStage::Done(map))) if at == frame => {
                *kept = Some((frame, MapStage::Done(Rc::clone(&map))));
                return (Some(map), false);
            }
            Some((at, MapStage::Preparing(mut map))) if at == frame => {
                map.prepare_next();
                return (Self::keep(&mut kept, frame, map), true);
            }
            Some((at, MapStage::Rows(rows))) if at == frame => rows,
            _ => vec![],
        };
        let ((x0, x1), (y0, y1)) = source.square;
        let n = source.cells;
        let (xs, ys) = (cell_centres(x0, x1, n), cell_centres(y0, y1, n));
        let from = done.first().map_or(0, |class| class.len() / n.max(1));
        let to = (from + MAP_BAND_ROWS).min(n);
        let band = (source.probabilities)(&xs, &ys[from..to]);
        let rows: Vec<Vec<f64>> = if done.is_empty() {
            band
        } else {
            done.into_iter()
                .zip(band)
                .map(|(mut class, more)| {
                    class.extend(more);
                    class
                })
                .collect()
        };
        if to < n {
            *kept = Some((frame, MapStage::Rows(rows)));
            return (None, true);
        }
        let map = ClassMap::unprepared((x0, x1), (y0, y1), (n, n), rows);
        (Self::keep(&mut kept, frame, map), true)
    }

    /// Keeps frame `frame`'s `map` in `kept`: done (and returned) once it is prepared for
    /// drawing, else still being prepared.
    fn keep(kept: &mut Option<(usize, MapStage)>, frame: usize, map: ClassMap) -> Option<Rc<ClassMap>> {
        if !map.is_prepared() {
            *kept = Some((frame, MapStage::Preparing(map)));
            return None;
        }
        let map = Rc::new(map);
        *kept = Some((frame, MapStage::Done(Rc::clone(&map))));
        Some(map)
    }
}

/// The centres of `n` equal cells from `lo` to `hi`.
fn cell_centres(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let half = 0.5 * (hi - lo) / n as f64;
    evenly_spaced(lo + half, hi - half, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Surface;

    #[test]
    fn a_map_made_in_bands_is_the_map_made_at_once() {
        // Three classes whose probabilities depend on both coordinates of a node: the
        // softmax of (0, 3x₁ − 2x₂, 2x₂ − x₁ − ½).
        let probabilities = |xs: &[f64], ys: &[f64]| -> Vec<Vec<f64>> {
            let mut classes = vec![vec![]; 3];
            for &y in ys {
                for &x in xs {
                    let e = [1.0, (3.0 * x - 2.0 * y).exp(), (2.0 * y - x - 0.5).exp()];
                    let sum: f64 = e.iter().sum();
                    for (class, e) in classes.iter_mut().zip(e) {
                        class.push(e / sum);
                    }
                }
            }
            classes
        };
        let source = MapSource { square: ((-1.0, 2.0), (0.0, 1.5)), cells: 130, probabilities: &probabilities };
        // The same probabilities of every row at once, at the cells' centres.
        let (xs, ys) = (cell_centres(-1.0, 2.0, 130), cell_centres(0.0, 1.5, 130));
        let whole = ClassMap::new((-1.0, 2.0), (0.0, 1.5), (130, 130), probabilities(&xs, &ys));
        let probe = Surface { x_range: (-1.0, 2.0), y_range: (0.0, 1.5), nx: 130, ny: 130, ..Surface::default() };
        for (i, j) in [(0, 0), (7, 129), (129, 64)] {
            let (x, y) = probe.cell_centre(i, j);
            assert!((x - xs[i]).abs() < 1e-12 && (y - ys[j]).abs() < 1e-12, "the centres of the cells");
        }
        let cache = MapCache::default();
        // 130 rows: six bands of 20 and one of 10, then the cells' colours, then each class's
        // boundary, then nothing left to compute.
        for piece in 0..11 {
            assert!(cache.prepare(4, &source, &mut Budget::units(1)), "piece {piece}");
        }
        assert!(!cache.prepare(4, &source, &mut Budget::unlimited()));
        let banded = cache.get(4, &source);
        assert!(banded.probabilities == whole.probabilities, "bit for bit");
        assert!(whole.boundaries().len() >= 3, "every class has its boundary");
        assert_eq!(banded.boundaries(), whole.boundaries());
        // Another frame starts again; a map asked for at once is made whole.
        assert!(cache.prepare(5, &source, &mut Budget::units(1)));
        assert!(cache.get(5, &source).probabilities == whole.probabilities);
        assert!(!cache.prepare(5, &source, &mut Budget::units(1)));
        // Without a limit, the bands left are made in one call.
        assert!(cache.prepare(6, &source, &mut Budget::units(1)));
        assert!(cache.prepare(6, &source, &mut Budget::unlimited()));
        assert!(cache.get(6, &source).probabilities == whole.probabilities);
        assert!(!cache.prepare(6, &source, &mut Budget::unlimited()));
    }
}
