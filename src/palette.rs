//! The charts' colours, and the two looks they are shown in: on a screen (Okabe–Ito, colour
//! blind safe on white) and on a projector, where light colours wash out and thin lines
//! vanish at the back of a hall.
//!
//! The projector look re-colours what the charts draw rather than giving each chart a
//! second palette: [`Look::stroke`] swaps each screen colour for its projector counterpart
//! ([`PROJECTOR`]), [`Look::fill`] deepens light tints and [`Look::width`] widens lines.
//! The backend applies it to every shape and word (`crate::backend`), the page's legend
//! to its swatches, so no chart knows which look it is drawn in.

use plotters::style::RGBColor;

/// Observed data points.
pub const DATA: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// The noise-free generating curve.
pub const TRUTH: RGBColor = RGBColor(0x00, 0x9E, 0x73);
/// Predictive mean.
pub const MEAN: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
/// ±1σ predictive band (opaque, so its pixels have exactly this colour).
pub const BAND_1: RGBColor = RGBColor(0xF5, 0xB9, 0x8F);
/// ±2σ predictive band.
pub const BAND_2: RGBColor = RGBColor(0xFB, 0xE3, 0xD1);
/// Functions sampled from the posterior.
pub const SAMPLE: RGBColor = RGBColor(0x88, 0x88, 0x88);
/// Axes, ticks and labels.
pub const INK: RGBColor = RGBColor(0x22, 0x22, 0x22);
/// Distinct colours for many curves (Okabe–Ito without the yellow, which is too pale on white).
pub const CYCLE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x00, 0x00, 0x00),
];

/// Screen colours and what a projector shows instead; colours not listed (blue,
/// vermilion, black, the ink) stay. Every projector colour has a contrast of at least
/// 3.5 : 1 on white (WCAG 2.2 asks 3 : 1 of graphics), where Okabe–Ito's orange and sky
/// blue have 2.3 : 1 and the greys 2.8–3.5 : 1; hues stay close to the screen's so the
/// lesson texts' colour words still hold. Picked so that the set of eight (blue,
/// vermilion, green, purple, orange, sky blue, black, grey) stays as far apart as
/// Okabe–Ito is on screen for normal, protan, deutan and tritan vision (least CIELAB
/// distance 11.7, Okabe–Ito's 9.3; `tests` recomputes both).
pub const PROJECTOR: [(RGBColor, RGBColor); 6] = [
    (RGBColor(0x00, 0x9E, 0x73), RGBColor(0x00, 0x6B, 0x45)), // bluish green, deeper
    (RGBColor(0xCC, 0x79, 0xA7), RGBColor(0x7D, 0x1F, 0x6E)), // reddish purple, deeper
    (RGBColor(0xE6, 0x9F, 0x00), RGBColor(0xB0, 0x7A, 0x45)), // orange → ochre
    (RGBColor(0x56, 0xB4, 0xE9), RGBColor(0x2D, 0x91, 0xC8)), // sky blue, deeper
    (RGBColor(0x88, 0x88, 0x88), RGBColor(0x76, 0x76, 0x76)), // samples' grey
    (RGBColor(0x99, 0x99, 0x99), RGBColor(0x76, 0x76, 0x76)), // inactive grey
];

/// How much deeper the projector draws a light fill: its distance from white grows by
/// this factor (a ±2σ band at 1.2 : 1 on white would be lost in a projector's glare).
const FILL_DEPTH: f64 = 1.3;

/// How much wider the projector draws lines.
const LINE_WIDTH: f64 = 1.5;

/// Where a chart is seen: it decides colours and line widths, never positions or text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Look {
    /// A screen at arm's length: the palette as written.
    #[default]
    Screen,
    /// A projector in a lecture hall: [`PROJECTOR`] colours, deeper fills, wider lines.
    Projector,
}

impl Look {
    /// The colour a line, an outline, a mark or a word of colour `c` is drawn in.
    pub fn stroke(self, c: RGBColor) -> RGBColor {
        match self {
            Look::Screen => c,
            Look::Projector => PROJECTOR.iter().find(|(screen, _)| *screen == c).map_or(c, |&(_, projected)| projected),
        }
    }

    /// The colour an area filled with `c` is drawn in: a listed colour as
    /// [`Look::stroke`], a light tint (under 3 : 1 on white: bands, class maps, surfaces)
    /// deeper by [`FILL_DEPTH`], any other as it is.
    pub fn fill(self, c: RGBColor) -> RGBColor {
        let listed = PROJECTOR.iter().any(|(screen, _)| *screen == c);
        match self {
            Look::Screen => c,
            Look::Projector if listed => self.stroke(c),
            Look::Projector if contrast_on_white(c) < 3.0 => {
                let deepen = |v: u8| (255.0 - FILL_DEPTH * (255.0 - f64::from(v))).round().max(0.0) as u8;
                RGBColor(deepen(c.0), deepen(c.1), deepen(c.2))
            }
            Look::Projector => c,
        }
    }

    /// The width of a line drawn `width` pixels wide on a screen.
    pub fn width(self, width: u32) -> u32 {
        match self {
            Look::Screen => width,
            Look::Projector => (f64::from(width) * LINE_WIDTH).round() as u32,
        }
    }

    /// A legend swatch `#rrggbb` as this look draws that colour's areas (`area`) or its
    /// lines and marks (text that is not such a colour is returned as it is).
    pub fn swatch(self, colour: &str, area: bool) -> String {
        let shown = |c| if area { self.fill(c) } else { self.stroke(c) };
        parse_hex(colour).map_or_else(|| colour.to_owned(), |c| hex(shown(c)))
    }
}

/// `#rrggbb` of a colour, as CSS and SVG write it.
pub fn hex(c: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// The colour `#rrggbb` names, if it is one. (Read byte by byte: slicing the text would
/// bring the wasm module the formatting of a slicing panic, 5 KB.)
fn parse_hex(text: &str) -> Option<RGBColor> {
    let &[b'#', r1, r0, g1, g0, b1, b0] = text.as_bytes() else { return None };
    let channel = |high: u8, low: u8| {
        let digit = |b: u8| char::from(b).to_digit(16);
        Some((digit(high)? * 16 + digit(low)?) as u8)
    };
    Some(RGBColor(channel(r1, r0)?, channel(g1, g0)?, channel(b1, b0)?))
}

/// sRGB channel to linear light (IEC 61966-2-1).
fn linear(v: u8) -> f64 {
    let c = f64::from(v) / 255.0;
    if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) }
}

/// Relative luminance (WCAG 2.2).
fn luminance(c: RGBColor) -> f64 {
    0.2126 * linear(c.0) + 0.7152 * linear(c.1) + 0.0722 * linear(c.2)
}

/// Contrast ratio of `c` on white (WCAG 2.2).
fn contrast_on_white(c: RGBColor) -> f64 {
    1.05 / (luminance(c) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Machado, Oliveira & Fernandes (2009) simulation matrices at full severity, on
    /// linear RGB: protanopia, deuteranopia, tritanopia.
    const DEFICIENCIES: [[[f64; 3]; 3]; 3] = [
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
    ];

    /// CIELAB (D65) of linear RGB.
    fn lab(rgb: [f64; 3]) -> [f64; 3] {
        let [r, g, b] = rgb.map(|v| v.clamp(0.0, 1.0));
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
        let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    /// The least CIELAB distance between any two of `colours`, seen with normal vision
    /// and with each deficiency.
    fn least_distance(colours: &[RGBColor]) -> f64 {
        let seen = |c: RGBColor, m: Option<&[[f64; 3]; 3]>| {
            let v = [linear(c.0), linear(c.1), linear(c.2)];
            lab(m.map_or(v, |m| std::array::from_fn(|i| (0..3).map(|j| m[i][j] * v[j]).sum())))
        };
        let mut least = f64::INFINITY;
        for m in [None].into_iter().chain(DEFICIENCIES.iter().map(Some)) {
            for (i, &a) in colours.iter().enumerate() {
                for &b in &colours[i + 1..] {
                    let (p, q) = (seen(a, m), seen(b, m));
                    least = least.min((0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f64>().sqrt());
                }
            }
        }
        least
    }

    /// The eight colours lines and marks are told apart by.
    fn screen_set() -> Vec<RGBColor> {
        CYCLE.iter().copied().chain([SAMPLE]).collect()
    }

    #[test]
    fn every_projector_line_colour_has_three_to_one_on_white() {
        for c in screen_set().into_iter().chain([INK, RGBColor(0x99, 0x99, 0x99)]) {
            let shown = Look::Projector.stroke(c);
            assert!(contrast_on_white(shown) >= 3.5, "{} → {}: {:.2}", hex(c), hex(shown), contrast_on_white(shown));
        }
        // The screen palette is why there is a projector look.
        assert!(contrast_on_white(CYCLE[4]) < 3.0 && contrast_on_white(CYCLE[5]) < 3.0);
    }

    #[test]
    fn projector_colours_stay_apart_for_every_colour_vision() {
        let screen = least_distance(&screen_set());
        let projected: Vec<_> = screen_set().into_iter().map(|c| Look::Projector.stroke(c)).collect();
        let projector = least_distance(&projected);
        assert!(projector >= screen, "projector {projector:.1} < screen {screen:.1}");
        assert!((screen - 9.3).abs() < 0.1 && (projector - 11.7).abs() < 0.1, "{screen:.2} {projector:.2}");
    }

    #[test]
    fn fills_deepen_by_the_factor_and_listed_colours_map_as_lines() {
        // ±2σ band: each channel's distance from white × 1.3.
        assert_eq!(Look::Projector.fill(BAND_2), RGBColor(250, 219, 195));
        assert_eq!(Look::Projector.fill(TRUTH), Look::Projector.stroke(TRUTH));
        assert_eq!(Look::Projector.fill(RGBColor(0, 0, 0)), RGBColor(0, 0, 0));
        // A strong colour that is not listed (the data's blue) stays.
        assert_eq!(Look::Projector.fill(DATA), DATA);
        assert_eq!(Look::Screen.fill(BAND_2), BAND_2);
    }

    #[test]
    fn widths_and_swatches() {
        assert_eq!((Look::Projector.width(2), Look::Projector.width(3), Look::Screen.width(3)), (3, 5, 3));
        assert_eq!(Look::Projector.swatch("#e69f00", false), "#b07a45");
        assert_eq!(Look::Projector.swatch("#0072b2", false), "#0072b2");
        assert_eq!(Look::Projector.swatch("#E69F00", false), "#b07a45");
        assert_eq!(Look::Projector.swatch("tomato", false), "tomato");
        assert_eq!(Look::Screen.swatch("#e69f00", false), "#e69f00");
        // The ±2σ band's swatch deepens as its area does; as a line the tint would stay.
        assert_eq!(Look::Projector.swatch("#fbe3d1", true), "#fadbc3");
        assert_eq!(Look::Projector.swatch("#fbe3d1", false), "#fbe3d1");
    }
}
