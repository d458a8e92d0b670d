//! Plain geometry on regular grids, below both the mathematics and the charts: evenly
//! spaced points, and a scalar field sampled on a grid of cells with its band edges and
//! contour lines (marching squares). The evidence surface over (ln α, ln β), the error
//! surface over the weight plane and the class maps are all [`Surface`]s; `plot` draws
//! them, `evidence` computes one.

use serde::Serialize;

/// `k` points evenly spaced on `[lo, hi]`, both ends included (the last is exactly `hi`);
/// one point sits in the middle.
pub fn evenly_spaced(lo: f64, hi: f64, k: usize) -> Vec<f64> {
    match k {
        0 => vec![],
        1 => vec![0.5 * (lo + hi)],
        _ => (0..k).map(|i| if i + 1 == k { hi } else { lo + (hi - lo) * i as f64 / (k - 1) as f64 }).collect(),
    }
}

/// A scalar field z(x, y) on an nx × ny grid of cell centres.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Surface {
    /// Range along x covered by the grid.
    pub x_range: (f64, f64),
    /// Range along y covered by the grid.
    pub y_range: (f64, f64),
    /// Cells along x.
    pub nx: usize,
    /// Cells along y.
    pub ny: usize,
    /// z at the cell centres, row by row from the bottom (index = iy·nx + ix).
    pub values: Vec<f64>,
    /// Increasing band edges: a cell's colour is the number of edges below its value.
    pub levels: Vec<f64>,
}

impl Surface {
    /// Samples `f` at the centres of an nx × ny grid over the given ranges.
    pub fn sample(x_range: (f64, f64), y_range: (f64, f64), nx: usize, ny: usize, f: impl Fn(f64, f64) -> f64) -> Self {
        let values = (0..ny)
            .flat_map(|iy| (0..nx).map(move |ix| (ix, iy)))
            .map(|(ix, iy)| f(centre(x_range, ix, nx), centre(y_range, iy, ny)))
            .collect();
        Self { x_range, y_range, nx, ny, values, levels: vec![] }
    }

    /// `bands` evenly spaced band edges between the minimum and the maximum.
    pub fn with_linear_levels(mut self, bands: usize) -> Self {
        let finite = self.values.iter().copied().filter(|v| v.is_finite());
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        if lo.is_finite() && hi > lo && bands > 0 {
            self.levels = (1..=bands).map(|i| lo + (hi - lo) * i as f64 / bands as f64).collect();
        }
        self
    }

    /// The centre (x, y) of cell (ix, iy), the point whose value `values[iy·nx + ix]` holds.
    pub fn cell_centre(&self, ix: usize, iy: usize) -> (f64, f64) {
        (centre(self.x_range, ix, self.nx), centre(self.y_range, iy, self.ny))
    }

    /// Band edges spaced geometrically above the minimum: min + Δ·rⁱ, so that a bowl
    /// shows rings of similar width from its floor to its rim.
    pub fn with_geometric_levels(mut self, bands: usize) -> Self {
        let finite = self.values.iter().copied().filter(|v| v.is_finite());
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
        if lo.is_finite() && hi > lo && bands > 1 {
            let span = hi - lo;
            let first = span * 1e-3;
            let ratio = (span / first).powf(1.0 / (bands - 1) as f64);
            self.levels = (0..bands).map(|i| lo + first * ratio.powi(i as i32)).collect();
            // The top edge is the maximum itself, not a rounding of it.
            self.levels[bands - 1] = hi;
        }
        self
    }

    /// The contour lines of every level, by marching squares over the cell centres, in one
    /// pass: each square of four neighbouring centres is crossed only by the levels between
    /// its lowest and highest corner; the crossings of its edges (linearly interpolated,
    /// always from the smaller grid node) are joined in pairs, and segments sharing a
    /// crossing are chained into polylines.
    pub fn contours(&self) -> Vec<Vec<(f64, f64)>> {
        let mut segments: Vec<Vec<[Edge; 2]>> = vec![vec![]; self.levels.len()];
        for iy in 0..self.ny.saturating_sub(1) {
            for ix in 0..self.nx.saturating_sub(1) {
                let (below, above) = (iy * self.nx + ix, (iy + 1) * self.nx + ix);
                let z = [self.values[below], self.values[below + 1], self.values[above + 1], self.values[above]];
                if z.iter().any(|v| !v.is_finite()) {
                    continue;
                }
                let lo = z[0].min(z[1]).min(z[2].min(z[3]));
                let hi = z[0].max(z[1]).max(z[2].max(z[3]));
                // Only squares some level crosses go on.
                let first = self.levels.partition_point(|&l| l < lo);
                if first == self.levels.len() || self.levels[first] >= hi {
                    continue;
                }
                let corners = [(ix, iy), (ix + 1, iy), (ix + 1, iy + 1), (ix, iy + 1)];
                for (k, &level) in self.levels.iter().enumerate().skip(first).take_while(|(_, l)| **l < hi) {
                    let mut crossed = [((0, 0), (0, 0)); 4];
                    let mut count = 0;
                    for e in 0..4 {
                        let (a, b) = (corners[e], corners[(e + 1) % 4]);
                        if (z[e] < level) != (z[(e + 1) % 4] < level) {
                            crossed[count] = if a < b { (a, b) } else { (b, a) };
                            count += 1;
                        }
                    }
                    // Two crossings: one segment; four (a saddle): two, paired in order.
                    segments[k].extend(crossed[..count].chunks_exact(2).map(|p| [p[0], p[1]]));
                }
            }
        }
        let mut table = vec![LOOSE; 2 * self.nx * self.ny];
        let mut lines = vec![];
        for (&level, segs) in self.levels.iter().zip(&segments) {
            let chained = chain(segs, self.nx, &mut table);
            lines.extend(chained.into_iter().map(|line| line.iter().map(|&e| self.crossing(e, level)).collect()));
        }
        lines
    }

    /// The contour z = `level` alone (see [`Surface::contours`]).
    pub fn contour(&self, level: f64) -> Vec<Vec<(f64, f64)>> {
        Surface { levels: vec![level], ..self.clone() }.contours()
    }

    /// Where z = `level` crosses the grid edge between two cell centres.
    fn crossing(&self, ((i0, j0), (i1, j1)): Edge, level: f64) -> (f64, f64) {
        let (z0, z1) = (self.values[j0 * self.nx + i0], self.values[j1 * self.nx + i1]);
        let f = (level - z0) / (z1 - z0);
        let (p, q) = (self.cell_centre(i0, j0), self.cell_centre(i1, j1));
        (p.0 + f * (q.0 - p.0), p.1 + f * (q.1 - p.1))
    }

    /// The band of value `z`: how many levels lie below it.
    pub fn band(&self, z: f64) -> usize {
        self.levels.partition_point(|&level| level < z)
    }
}

/// Centre of cell `i` of `n` equal cells over `lo..hi`.
fn centre((lo, hi): (f64, f64), i: usize, n: usize) -> f64 {
    lo + (hi - lo) * (i as f64 + 0.5) / n as f64
}

/// A grid edge between two cell centres (ix, iy), the smaller first.
type Edge = ((usize, usize), (usize, usize));

/// No end: an edge no other segment shares ([`chain`]).
const LOOSE: usize = usize::MAX;

/// The index of a grid edge of a surface `nx` cells wide: two per node, along x then along y.
fn edge_index(((i0, j0), (_, j1)): Edge, nx: usize) -> usize {
    2 * (j0 * nx + i0) + usize::from(j1 > j0)
}

/// Joins segments that share an end into polylines (each edge is shared by at most two), on
/// a grid `nx` cells wide. End 2k + s of segment k is its edge `segments[k][s]`; `table`,
/// [`LOOSE`] at every edge's index ([`edge_index`]) and left so, holds the first end met at
/// each edge while the segments' ends are joined in pairs. (A hash map of the edges took more
/// than half of gradient descent's error surface's contours, 14 levels over 72 × 72 cells.)
fn chain(segments: &[[Edge; 2]], nx: usize, table: &mut [usize]) -> Vec<Vec<Edge>> {
    let mut joined = vec![LOOSE; 2 * segments.len()];
    for (end, &edge) in segments.iter().flatten().enumerate() {
        let at = &mut table[edge_index(edge, nx)];
        if *at == LOOSE {
            *at = end;
        } else {
            (joined[end], joined[*at]) = (*at, end);
        }
    }
    for &edge in segments.iter().flatten() {
        table[edge_index(edge, nx)] = LOOSE;
    }
    let mut used = vec![false; segments.len()];
    let mut lines = vec![];
    // Start at loose ends first, so open lines are walked whole; closed loops come after.
    let loose = (0..segments.len()).filter(|&k| joined[2 * k] == LOOSE || joined[2 * k + 1] == LOOSE);
    for start in loose.chain(0..segments.len()) {
        if used[start] {
            continue;
        }
        used[start] = true;
        // The end the line goes on from: the second if the first is loose, else the first.
        let mut end = if joined[2 * start] == LOOSE { 2 * start + 1 } else { 2 * start };
        let mut line = vec![segments[start][(end & 1) ^ 1], segments[start][end & 1]];
        while let Some(next) = joined.get(end).copied().filter(|&e| e != LOOSE && !used[e / 2]) {
            used[next / 2] = true;
            end = next ^ 1;
            line.push(segments[end / 2][end & 1]);
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evenly_spaced_ends_exactly_on_hi() {
        // −3 + (0.1 − (−3))·1 rounds to 0.10000000000000009, past hi; the last point must be 0.1.
        let (lo, hi) = std::hint::black_box((-3.0, 0.1));
        assert!(lo + (hi - lo) * 1.0 > hi);
        let points = evenly_spaced(lo, hi, 4);
        assert_eq!((points[0], points[3]), (-3.0, 0.1));
        // Step 3.1/3: −3 + 1.0333… = −1.9666…, −3 + 2.0666… = −0.9333….
        assert!((points[1] + 59.0 / 30.0).abs() < 1e-14 && (points[2] + 28.0 / 30.0).abs() < 1e-14);
    }

    #[test]
    fn sampling_visits_cell_centres_row_by_row() {
        let s = Surface::sample((0.0, 2.0), (0.0, 1.0), 2, 2, |x, y| 10.0 * y + x);
        // Centres x ∈ {0.5, 1.5}, y ∈ {0.25, 0.75}.
        assert_eq!(s.values, vec![3.0, 4.0, 8.0, 9.0]);
        assert_eq!(s.cell_centre(1, 0), (1.5, 0.25));
    }

    #[test]
    fn contours_of_a_plane_are_straight_and_on_the_level() {
        // z = x + y on [0, 4]²: the contour z = 4.2 is the line x + y = 4.2 (a level that
        // misses the cell centres, where crossings would sit on grid nodes).
        let s = Surface::sample((0.0, 4.0), (0.0, 4.0), 4, 4, |x, y| x + y);
        let lines = s.contour(4.2);
        // One straight line, chained from the squares it crosses, every point on x + y = 4.2.
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].len() >= 3, "{lines:?}");
        for p in &lines[0] {
            assert!((p.0 + p.1 - 4.2).abs() < 1e-12, "{p:?}");
        }
        assert!(s.contour(100.0).is_empty());

        // A bowl: the contour of a level inside it is one closed loop around the centre.
        let bowl = Surface::sample((-2.0, 2.0), (-2.0, 2.0), 20, 20, |x, y| x * x + y * y);
        let rings = bowl.contour(1.0);
        assert_eq!(rings.len(), 1);
        let ring = &rings[0];
        assert_eq!(ring.first(), ring.last(), "closed");
        for p in ring {
            let r = (p.0 * p.0 + p.1 * p.1).sqrt();
            assert!((r - 1.0).abs() < 0.05, "{p:?} at radius {r}");
        }
    }

    #[test]
    fn contour_lines_take_every_segment_once_and_end_only_at_the_border() {
        let (nx, ny) = (31, 23);
        let s = Surface::sample((0.0, 3.0), (0.0, 2.0), nx, ny, |x, y| (3.0 * x).sin() * (2.0 * y).cos() + 0.3 * x * y);
        let z = |ix: usize, iy: usize| s.values[iy * nx + ix];
        let (lo, hi) = (s.cell_centre(0, 0), s.cell_centre(nx - 1, ny - 1));
        let mut closed = 0;
        for level in [-0.8, -0.6, -0.3, 0.01, 0.25, 0.7, 1.1] {
            // Brute force: a square whose corners lie on both sides of the level holds one
            // segment, a saddle two.
            let mut segments = 0;
            for iy in 0..ny - 1 {
                for ix in 0..nx - 1 {
                    let c = [z(ix, iy), z(ix + 1, iy), z(ix + 1, iy + 1), z(ix, iy + 1)];
                    segments += (0..4).filter(|&e| (c[e] < level) != (c[(e + 1) % 4] < level)).count() / 2;
                }
            }
            let lines = s.contour(level);
            assert!(segments > 5, "{level}: {segments}");
            closed += lines.iter().filter(|line| line.first() == line.last()).count();
            assert_eq!(lines.iter().map(|line| line.len() - 1).sum::<usize>(), segments, "{level}");
            // Every edge inside the grid is shared by two squares, so a line that is not closed
            // was walked whole only if both its ends are on the grid's border.
            for line in lines.iter().filter(|line| line.first() != line.last()) {
                for p in [line[0], line[line.len() - 1]] {
                    let gaps = [p.0 - lo.0, hi.0 - p.0, p.1 - lo.1, hi.1 - p.1];
                    assert!(gaps.iter().any(|gap| gap.abs() < 1e-12), "{level}: a line ends inside, at {p:?}");
                }
            }
        }
        assert!(closed > 0, "no closed line walked");
    }

    #[test]
    fn geometric_levels_bracket_the_values() {
        let s = Surface::sample((0.0, 1.0), (0.0, 1.0), 4, 4, |x, y| x * x + y * y).with_geometric_levels(8);
        assert_eq!(s.levels.len(), 8);
        assert!(s.levels.windows(2).all(|w| w[0] < w[1]));
        let lo = s.values.iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(s.band(lo), 0);
        let hi = s.values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        assert_eq!(s.band(hi), 7);
    }
}
