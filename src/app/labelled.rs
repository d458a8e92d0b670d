//! The data of the classification panels: a seeded mixture layout in the plane plus the
//! points the user placed, each with its class.

use super::params::{Control, ParamSpec, parse_choice, parse_integer, parse_real};
use super::settings::{ParamGroup, PointSink, own_point, round_to};
use crate::data::{LabelledPoints, Mixture, MixtureLayout};
use crate::error::{Bound, Compact, Error, Result, ensure_in_range};

/// A point placed by hand: its input (x₁, x₂) and its class.
pub type Placed = ([f64; 2], usize);

/// Key of the placed points, `x₁:x₂:class,…` in the URL.
pub const POINTS_KEY: &str = "points";
/// Placed points are rounded to this many decimals, so the URL holds them exactly.
const POINT_DECIMALS: i32 = 3;
/// Class names, as the `class` control offers them.
const CLASS_NAMES: [&str; 5] = ["0", "1", "2", "3", "4"];

/// A mixture layout (N, seed) plus placed points, and the class the next placed point gets.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledData {
    /// The layout of the generated points.
    pub layout: MixtureLayout,
    /// Names of the layouts this panel offers (all with the same number of classes).
    pub layouts: &'static [&'static str],
    /// Number of generated points N.
    pub n: usize,
    /// Seed of the generated points.
    pub seed: u64,
    /// Points the user placed: input and class.
    pub extra: Vec<Placed>,
    /// The class of the next placed point.
    pub place: usize,
    /// Most points in all.
    pub max_n: usize,
}

impl LabelledData {
    /// N points of `layout` from `seed`, at most `max_n` in all; `layouts` are the names
    /// offered, all with as many classes as `layout`.
    pub fn new(layout: MixtureLayout, layouts: &'static [&'static str], n: usize, seed: u64, max_n: usize) -> Self {
        Self { layout, layouts, n, seed, extra: vec![], place: 0, max_n }
    }

    /// Number of classes K.
    pub fn classes(&self) -> usize {
        self.layout.classes()
    }

    /// The generated points followed by the placed ones.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] naming the limit for too many points.
    pub fn points(&self) -> Result<LabelledPoints> {
        let total = self.n.saturating_add(self.extra.len());
        if total > self.max_n {
            let bound = Bound::AtMost { max: self.max_n as u64 };
            return Err(Error::OutOfRange { name: "N", value: total.to_string(), bound });
        }
        let mut data = Mixture { layout: self.layout, n: self.n, seed: self.seed }.generate()?;
        for &(x, class) in &self.extra {
            data.x.push(x);
            data.t.push(class as f64);
        }
        Ok(data)
    }

    /// Parses `x₁:x₂:class,…` (empty text: no points).
    fn parse_points(&self, text: &str) -> Result<Vec<([f64; 2], usize)>> {
        text.split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|triple| {
                let parts: Vec<&str> = triple.split(':').collect();
                let [x1, x2, class] = parts[..] else {
                    return Err(Error::NotFinite { name: "point".into(), value: triple.into() });
                };
                let class = parse_integer("class", class, 0, self.classes() as u64 - 1)? as usize;
                Ok(([parse_real("x₁", x1)?, parse_real("x₂", x2)?], class))
            })
            .collect()
    }
}

impl PointSink for LabelledData {
    /// Places (x₁, x₂), rounded to [`POINT_DECIMALS`] decimals, in the class `place`.
    fn add_point(&mut self, x1: f64, x2: f64) -> Result<()> {
        self.extra.push((
            [
                round_to(ensure_in_range("x₁", x1)?, POINT_DECIMALS),
                round_to(ensure_in_range("x₂", x2)?, POINT_DECIMALS),
            ],
            self.place,
        ));
        Ok(())
    }

    /// The rows (x₁, x₂, class) become the data: no generated points, every row a placed
    /// one; a class must be a whole number from 0 to K − 1.
    fn import_csv(&mut self, text: &str) -> Result<()> {
        const COLUMNS: [&str; 3] = ["x₁", "x₂", "class"];
        let rows = crate::data::parse_rows(text, &COLUMNS)?;
        if rows.len() > self.max_n {
            let bound = Bound::AtMost { max: self.max_n as u64 };
            return Err(Error::OutOfRange { name: "N", value: rows.len().to_string(), bound });
        }
        let classes = self.classes() as f64;
        let mut extra = Vec::with_capacity(rows.len());
        for (line, row) in rows {
            let class = row[2];
            if class.fract() != 0.0 || !(0.0..classes).contains(&class) {
                let text = format!("{}, {}, {class}", row[0], row[1]);
                let max = self.classes() - 1;
                let mut error = crate::data::bad_row(line, &text, &["x₁", "x₂", &format!("class 0 to {max}")]);
                if let Error::BadRow { classes, .. } = &mut error {
                    *classes = Some(max);
                }
                return Err(error);
            }
            extra.push(([row[0], row[1]], class as usize));
        }
        self.n = 0;
        self.extra = extra;
        Ok(())
    }

    fn to_csv(&self) -> Result<String> {
        let data = self.points()?;
        let rows = data.x.iter().zip(&data.t).map(|(x, t)| format!("{},{},{t}\n", Compact(x[0]), Compact(x[1])));
        Ok(std::iter::once("x1,x2,class\n".to_owned()).chain(rows).collect())
    }

    fn points(&self) -> Result<Vec<(f64, f64)>> {
        Ok(self.points()?.x.into_iter().map(|[a, b]| (a, b)).collect())
    }

    /// The point keeps its class.
    fn move_point(&mut self, index: usize, x1: f64, x2: f64) -> Result<()> {
        let (x1, x2) = (ensure_in_range("x₁", x1)?, ensure_in_range("x₂", x2)?);
        let (placed, index) = self.own_points(index)?;
        placed[index].0 = [round_to(x1, POINT_DECIMALS), round_to(x2, POINT_DECIMALS)];
        Ok(())
    }

    fn remove_point(&mut self, index: usize) -> Result<()> {
        let (placed, index) = self.own_points(index)?;
        placed.remove(index);
        Ok(())
    }
}

impl LabelledData {
    /// The placed points and where point `index` is among them ([`own_point`]).
    fn own_points(&mut self, index: usize) -> Result<(&mut Vec<Placed>, usize)> {
        let data = self.points()?;
        let points = data.x.into_iter().zip(data.t).map(|(x, t)| (x, t as usize)).collect();
        own_point(&mut self.n, &mut self.extra, points, index)
    }
}

impl ParamGroup for LabelledData {
    fn params(&self) -> Vec<ParamSpec> {
        vec![
            ParamSpec { key: "layout", symbol: "layout", control: Control::Choice { options: self.layouts } },
            ParamSpec { key: "N", symbol: "N", control: Control::Integer { min: 0, max: self.max_n as u64 } },
            ParamSpec { key: "seed", symbol: "seed", control: Control::Integer { min: 0, max: 9999 } },
            ParamSpec {
                key: "class",
                symbol: "class",
                control: Control::Choice { options: &CLASS_NAMES[..self.classes()] },
            },
        ]
    }

    fn assign(&mut self, key: &str, text: &str) -> Option<Result<()>> {
        let result = match key {
            "layout" => parse_choice("layout", text, self.layouts)
                .and_then(MixtureLayout::from_name)
                .map(|layout| self.layout = layout),
            "N" => parse_integer("N", text, 0, self.max_n as u64).map(|n| self.n = n as usize),
            "seed" => parse_integer("seed", text, 0, u64::from(u32::MAX)).map(|s| self.seed = s),
            "class" => parse_integer("class", text, 0, self.classes() as u64 - 1).map(|c| self.place = c as usize),
            POINTS_KEY => self.parse_points(text).map(|p| self.extra = p),
            _ => return None,
        };
        Some(result)
    }

    fn value(&self, key: &str) -> Option<String> {
        Some(match key {
            "layout" => self.layout.name().to_owned(),
            "N" => self.n.to_string(),
            "seed" => self.seed.to_string(),
            "class" => self.place.to_string(),
            POINTS_KEY => self
                .extra
                .iter()
                .map(|(x, c)| format!("{}:{}:{c}", Compact(x[0]), Compact(x[1])))
                .collect::<Vec<_>>()
                .join(","),
            _ => return None,
        })
    }
    /// The key of the placed points, when there are any.
    fn hidden_keys(&self) -> Vec<&'static str> {
        if self.extra.is_empty() { vec![] } else { vec![POINTS_KEY] }
    }

    /// The class of the next placed point is not data.
    fn changes_data(&self, key: &str) -> bool {
        key != "class"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO: &[&str] = &["ripley", "xor"];

    #[test]
    fn placed_points_round_trip_through_the_url_and_are_limited() {
        let mut data = LabelledData::new(MixtureLayout::Ripley, TWO, 10, 1, 12);
        data.place = 1;
        data.add_point(0.12345, -0.5).unwrap();
        data.place = 0;
        data.add_point(0.3, 0.25).unwrap();
        let text = data.value(POINTS_KEY).unwrap();
        assert_eq!(text, "0.123:-0.5:1,0.3:0.25:0");
        let mut copy = LabelledData::new(MixtureLayout::Ripley, TWO, 10, 1, 12);
        copy.assign(POINTS_KEY, &text).unwrap().unwrap();
        assert_eq!(copy.extra, data.extra);
        let points = data.points().unwrap();
        assert_eq!((points.x.len(), points.t[10], points.t[11]), (12, 1.0, 0.0));
        data.add_point(0.0, 0.0).unwrap();
        assert_eq!(data.points().unwrap_err().code(), "out-of-range");
        assert_eq!(copy.assign(POINTS_KEY, "0.1:0.2:2").unwrap().unwrap_err().code(), "out-of-range");
        assert!(copy.assign(POINTS_KEY, "0.1:0.2").unwrap().is_err());
        assert_eq!(copy.assign("layout", "triangle").unwrap().unwrap_err().code(), "unknown-choice");
    }
}
