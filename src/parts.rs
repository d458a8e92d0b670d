//! A drawing made in parts, a few charts per call. A page's first drawing runs the module's
//! drawing code for the first time (the browser compiles each function then, and runs it
//! slowly until it is hot), which on a slow phone is a long task for a multi-chart panel.
//! Cut between its charts into calls of a few milliseconds each, one per task, it leaves
//! the page free to respond in between.
//!
//! A drawing is a sequence of charts, each begun by [`begin_chart`] (`plot::axes` calls
//! it); what is drawn before the first chart (the background) belongs to the first part.
//! [`draw_part`] runs the drawing from its start, letting through only the shapes of the
//! part asked for (the backend asks [`drawing`] before each shape), and stops it at the
//! first chart of the next part ([`Error::PartEnded`]), so the charts after a part are
//! not laid out in it. Outside [`draw_part`] every shape is drawn (an SVG export, a drawing
//! at once).
//!
//! The parts are cut by time, so they differ from run to run, but together they are always
//! the whole drawing, each shape once, in order (`tests/drawing_parts.rs` checks it).

use std::cell::Cell;

use crate::clock;
use crate::error::{Error, Result};

/// Which shapes pass: those of the charts from `from` on, until `next` is set.
#[derive(Debug, Clone, Copy)]
struct Gate {
    /// Charts begun so far in this drawing (0 while the background is drawn).
    chart: usize,
    /// The first chart of the part (0: the background first).
    from: usize,
    /// When no further chart may begin in this part, in [`clock::now_ms`] milliseconds.
    deadline: f64,
    /// The chart the next part begins with, once this part has ended.
    next: Option<usize>,
}

impl Gate {
    /// Everything drawn: the gate outside [`draw_part`].
    const ALL: Gate = Gate { chart: 0, from: 0, deadline: f64::INFINITY, next: None };

    fn open(self) -> bool {
        self.chart >= self.from && self.next.is_none()
    }
}

thread_local! {
    static GATE: Cell<Gate> = const { Cell::new(Gate::ALL) };
}

/// What a part of a drawing came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part<T> {
    /// The drawing is complete, and returned this.
    Complete(T),
    /// The part ended; the next one begins with this chart.
    Next(usize),
}

/// Runs `draw` (a whole drawing) letting through only the shapes of the charts from `from`
/// on, and stops it at the first chart that begins after `ms` milliseconds (a chart begun
/// is finished, and a part has at least one chart).
///
/// # Errors
/// Those of `draw` before the part's end.
pub fn draw_part<T>(from: usize, ms: f64, draw: impl FnOnce() -> Result<T>) -> Result<Part<T>> {
    let deadline = clock::now_ms() + ms;
    GATE.with(|gate| gate.set(Gate { chart: 0, from, deadline, next: None }));
    let out = draw();
    match (GATE.with(|gate| gate.replace(Gate::ALL)).next, out) {
        (Some(next), Err(Error::PartEnded)) => Ok(Part::Next(next)),
        (_, out) => out.map(Part::Complete),
    }
}

/// A chart begins: it is drawn if it belongs to the part being drawn and the part's time is
/// not up (a clock that reads NaN never ends a part).
///
/// # Errors
/// [`Error::PartEnded`] when the chart belongs to the next part: the drawing stops.
pub fn begin_chart() -> Result<()> {
    GATE.with(|cell| {
        let mut gate = cell.get();
        gate.chart += 1;
        let begun_one = gate.chart > gate.from.max(1);
        if gate.open() && begun_one && clock::now_ms() >= gate.deadline {
            gate.next = Some(gate.chart);
        }
        cell.set(gate);
        if gate.next.is_some() { Err(Error::PartEnded) } else { Ok(()) }
    })
}

/// Whether a shape drawn now belongs to the part being drawn.
pub fn drawing() -> bool {
    GATE.with(|gate| gate.get().open())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The charts a drawing of `charts` charts draws from `from` within `ms` (each chart
    /// ends the drawing if it is the next part's), and the next part's first chart.
    fn drawn(charts: usize, from: usize, ms: f64) -> (Vec<usize>, Option<usize>) {
        let mut drawn = vec![];
        let part = draw_part(from, ms, || {
            if drawing() {
                drawn.push(0);
            }
            for chart in 1..=charts {
                begin_chart()?;
                if drawing() {
                    drawn.push(chart);
                }
            }
            Ok(())
        });
        match part {
            Ok(Part::Complete(())) => (drawn, None),
            Ok(Part::Next(next)) => (drawn, Some(next)),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn with_no_time_each_part_is_one_chart_the_background_with_the_first() {
        assert_eq!(drawn(3, 0, 0.0), (vec![0, 1], Some(2)));
        assert_eq!(drawn(3, 2, 0.0), (vec![2], Some(3)));
        assert_eq!(drawn(3, 3, 0.0), (vec![3], None));
    }

    #[test]
    fn with_time_enough_a_part_is_the_rest_of_the_drawing() {
        assert_eq!(drawn(3, 0, f64::INFINITY), (vec![0, 1, 2, 3], None));
        assert_eq!(drawn(3, 2, f64::INFINITY), (vec![2, 3], None));
        assert_eq!(drawn(0, 0, 0.0), (vec![0], None));
    }

    #[test]
    fn a_part_stops_the_drawing_at_the_next_parts_first_chart() {
        let mut begun = 0;
        let part = draw_part(0, 0.0, || {
            for _ in 0..3 {
                begin_chart()?;
                begun += 1;
            }
            Ok(())
        });
        assert_eq!(part.ok(), Some(Part::Next(2)));
        assert_eq!(begun, 1, "the second chart is not begun");
    }

    #[test]
    fn an_error_within_the_part_is_the_drawings() {
        let part: Result<Part<()>> = draw_part(0, f64::INFINITY, || {
            begin_chart()?;
            Err(Error::NoData)
        });
        assert!(matches!(part, Err(Error::NoData)));
    }

    #[test]
    fn outside_a_part_everything_is_drawn() {
        let _ = drawn(3, 0, 0.0);
        assert!(begin_chart().is_ok());
        assert!(drawing());
    }
}
