//! Panel parameters: what each control is, and how its text (from a URL or an input box)
//! becomes a checked value. One parser serves both, so a URL and a control can never
//! disagree about what is valid.

use serde::Serialize;

use crate::error::{Bound, Error, Result, ensure_in_range};

/// The kind of control a parameter gets, with the range its slider covers.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Control {
    /// One of a fixed list of names.
    Choice {
        /// Admissible values, in display order.
        options: &'static [&'static str],
    },
    /// A whole number on a linear slider; values outside `min..=max` are refused.
    Integer {
        /// Smallest admissible value.
        min: u64,
        /// Largest admissible value.
        max: u64,
    },
    /// A whole number like [`Control::Integer`], with buttons for the values worth showing
    /// (e.g. the N = 1, 2, 4, 25 of PRML Fig 3.8).
    Steps {
        /// Smallest admissible value.
        min: u64,
        /// Largest value on the slider.
        max: u64,
        /// Values offered as buttons.
        presets: &'static [u64],
    },
    /// On or off (a checkbox); `1` / `0` in the URL.
    Toggle,
    /// A real number on a slider over `[min, max]` (log₁₀-scaled when `log`). The
    /// numeric box beside it accepts any value the model admits, also outside the slider.
    Real {
        /// Left end of the slider.
        min: f64,
        /// Right end of the slider.
        max: f64,
        /// Whether the slider moves in log₁₀ of the value.
        log: bool,
    },
    /// A line of text (a formula), with texts to start from as buttons.
    Text {
        /// Most characters.
        max_len: usize,
        /// (name, text) of each button.
        presets: &'static [(&'static str, &'static str)],
    },
}

/// One parameter of a panel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ParamSpec {
    /// Key in the URL query and the wasm API (`"alpha"`).
    pub key: &'static str,
    /// Symbol in messages (`"α"`).
    pub symbol: &'static str,
    /// Which control edits it.
    pub control: Control,
}

/// A URL parameter that could not be used; the panel kept that parameter's default.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    /// The key as given.
    pub key: String,
    /// Why it was not used.
    pub error: Error,
}

/// Parses a real number the lab reads ([`ensure_in_range`]): of a URL key, or typed.
///
/// # Errors
/// [`Error::NotFinite`] naming `symbol` if `text` is not a finite number,
/// [`Error::BeyondRange`] if it is larger than [`crate::error::MAX_MAGNITUDE`].
pub fn parse_real(symbol: &str, text: &str) -> Result<f64> {
    let value =
        text.trim().parse::<f64>().map_err(|_| Error::NotFinite { name: symbol.to_owned(), value: text.to_owned() })?;
    ensure_in_range(symbol, value)
}

/// Parses a whole number in `min..=max`.
///
/// # Errors
/// [`Error::OutOfRange`] naming `symbol` if `text` is not a whole number in range.
pub fn parse_integer(symbol: &'static str, text: &str, min: u64, max: u64) -> Result<u64> {
    let out_of_range =
        || Error::OutOfRange { name: symbol, value: text.to_owned(), bound: Bound::WholeBetween { min, max } };
    let value = text.trim().parse::<u64>().map_err(|_| out_of_range())?;
    if (min..=max).contains(&value) { Ok(value) } else { Err(out_of_range()) }
}

/// Parses one of `options`.
///
/// # Errors
/// [`Error::UnknownChoice`] listing the options.
pub fn parse_choice<'a>(symbol: &'static str, text: &str, options: &[&'a str]) -> Result<&'a str> {
    options.iter().copied().find(|o| *o == text.trim()).ok_or_else(|| Error::UnknownChoice {
        name: symbol,
        value: text.to_owned(),
        options: options.join(", "),
    })
}

/// Parses `1`/`on`/`true` or `0`/`off`/`false`.
///
/// # Errors
/// [`Error::UnknownChoice`] for anything else.
pub fn parse_toggle(symbol: &'static str, text: &str) -> Result<bool> {
    match text.trim() {
        "1" | "on" | "true" => Ok(true),
        "0" | "off" | "false" => Ok(false),
        _ => Err(Error::UnknownChoice { name: symbol, value: text.to_owned(), options: "1, 0".into() }),
    }
}

/// `value` rounded to a multiple of 1/`per_unit` (a position set by the pointer, kept short
/// in the URL: `rounded(1.40004, 1e3)` is 1.4).
pub fn rounded(value: f64, per_unit: f64) -> f64 {
    (value * per_unit).round() / per_unit
}

/// The URL text of a toggle: `1` or `0`.
pub fn toggle_text(on: bool) -> &'static str {
    if on { "1" } else { "0" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsers_accept_and_refuse() {
        assert_eq!(parse_real("α", " 2.5 ").unwrap(), 2.5);
        assert_eq!(parse_real("α", "abc").unwrap_err().to_string(), "α must be a finite number, but is abc");
        assert_eq!(parse_real("α", "inf").unwrap_err().code(), "not-finite");
        assert_eq!(parse_integer("M", "9", 1, 50).unwrap(), 9);
        for bad in ["0", "51", "9.5", "-3", ""] {
            assert_eq!(parse_integer("M", bad, 1, 50).unwrap_err().code(), "out-of-range", "{bad}");
        }
        assert!(parse_toggle("bias", "1").unwrap() && !parse_toggle("bias", "off").unwrap());
        assert_eq!(parse_toggle("bias", "maybe").unwrap_err().code(), "unknown-choice");
        assert_eq!(parse_choice("basis", "gaussian", &["polynomial", "gaussian"]).unwrap(), "gaussian");
        assert_eq!(
            parse_choice("basis", "spline", &["polynomial", "gaussian"]).unwrap_err().to_string(),
            "basis must be one of polynomial, gaussian, but is spline"
        );
    }
}
