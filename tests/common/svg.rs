//! A minimal SVG reader for the chart tests: the elements plotters' SVG backend writes,
//! with their attributes, points and colours.
#![allow(dead_code)] // each test file uses its own part of it

use plotters::style::RGBColor;

/// One SVG element: its tag, the text of its attributes, and the text after it.
#[derive(Debug)]
pub struct Element<'a> {
    pub tag: &'a str,
    pub attrs: &'a str,
    pub text: &'a str,
}

impl<'a> Element<'a> {
    pub fn attr(&self, name: &str) -> Option<&'a str> {
        let key = format!(" {name}=\"");
        let start = self.attrs.find(&key)? + key.len();
        let len = self.attrs[start..].find('"')?;
        Some(&self.attrs[start..start + len])
    }

    pub fn num(&self, name: &str) -> f64 {
        self.attr(name).unwrap_or_else(|| panic!("{name} missing in {self:?}")).parse().unwrap()
    }

    /// `points="x,y x,y …"` of a polyline or polygon.
    pub fn points(&self) -> Vec<(f64, f64)> {
        self.attr("points")
            .expect("points")
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect()
    }

    pub fn has_colour(&self, name: &str, colour: RGBColor) -> bool {
        self.attr(name).is_some_and(|c| c.eq_ignore_ascii_case(&hex(colour)))
    }

    /// The pixels that place the element: vertices, centre, end points or corners.
    pub fn anchors(&self) -> Vec<(f64, f64)> {
        match self.tag {
            "polyline" | "polygon" => self.points(),
            "circle" => vec![(self.num("cx"), self.num("cy"))],
            "line" => vec![(self.num("x1"), self.num("y1")), (self.num("x2"), self.num("y2"))],
            "rect" => {
                let (x, y) = (self.num("x"), self.num("y"));
                vec![(x, y), (x + self.num("width"), y + self.num("height"))]
            }
            _ => vec![],
        }
    }
}

pub fn elements(svg: &str) -> Vec<Element<'_>> {
    svg.split('<')
        .filter(|chunk| !chunk.is_empty() && !chunk.starts_with('/') && !chunk.starts_with('?'))
        .map(|chunk| {
            let close = chunk.find('>').expect("tag closes");
            let tag_end = chunk.find(|c: char| c.is_whitespace() || c == '>' || c == '/').unwrap();
            Element { tag: &chunk[..tag_end], attrs: &chunk[tag_end..close], text: chunk[close + 1..].trim() }
        })
        .collect()
}

/// `#RRGGBB` of a palette colour.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}
