//! Plain JS values for what the panels report, built by hand: `{key: value}` objects and
//! arrays with the shapes the page reads (documented on each `Lab` method). A general
//! serialiser would cost the page about 17 KB gzipped for these few shapes.

use wasm_bindgen::JsValue;

use crate::app::{
    Cell, Control, Description, Handle, Heading, Message, ParamSpec, Plotted, Readout, Report, Sentence, Table, Word,
};
use crate::plot::{LegendEntry, Mark, PlotArea};
use crate::rvm::RvmFit;
use crate::rvm::classification::GlmFit;

/// A value the page receives as a plain JS value.
pub trait ToJs {
    /// The JS value.
    fn to_js(&self) -> JsValue;
}

/// A fresh object with the given properties.
pub fn object(properties: &[(&str, JsValue)]) -> JsValue {
    let object: JsValue = js_sys::Object::new().into();
    for (key, value) in properties {
        set_property(&object, key, value);
    }
    object
}

/// Sets `target[key] = value`.
pub fn set_property(target: &JsValue, key: &str, value: &JsValue) {
    // Reflect.set only fails on a frozen object or a throwing setter; ours are fresh.
    let _ = js_sys::Reflect::set(target, &JsValue::from_str(key), value);
}

impl ToJs for f64 {
    fn to_js(&self) -> JsValue {
        JsValue::from_f64(*self)
    }
}

impl ToJs for u64 {
    fn to_js(&self) -> JsValue {
        JsValue::from_f64(*self as f64)
    }
}

impl ToJs for usize {
    fn to_js(&self) -> JsValue {
        JsValue::from_f64(*self as f64)
    }
}

impl ToJs for bool {
    fn to_js(&self) -> JsValue {
        JsValue::from_bool(*self)
    }
}

impl ToJs for str {
    fn to_js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl ToJs for String {
    fn to_js(&self) -> JsValue {
        JsValue::from_str(self)
    }
}

impl<T: ToJs + ?Sized> ToJs for &T {
    fn to_js(&self) -> JsValue {
        (**self).to_js()
    }
}

impl<T: ToJs> ToJs for [T] {
    fn to_js(&self) -> JsValue {
        self.iter().map(ToJs::to_js).collect::<js_sys::Array>().into()
    }
}

impl<T: ToJs> ToJs for Vec<T> {
    fn to_js(&self) -> JsValue {
        self.as_slice().to_js()
    }
}

impl<T: ToJs> ToJs for Option<T> {
    fn to_js(&self) -> JsValue {
        self.as_ref().map_or(JsValue::UNDEFINED, ToJs::to_js)
    }
}

impl<A: ToJs, B: ToJs> ToJs for (A, B) {
    fn to_js(&self) -> JsValue {
        js_sys::Array::of2(&self.0.to_js(), &self.1.to_js()).into()
    }
}

/// `{key, symbol, control}`.
impl ToJs for ParamSpec {
    fn to_js(&self) -> JsValue {
        object(&[("key", self.key.to_js()), ("symbol", self.symbol.to_js()), ("control", self.control.to_js())])
    }
}

/// `{type: "choice", options}`, `{type: "integer", min, max}`, `{type: "steps", min, max,
/// presets}`, `{type: "toggle"}`, `{type: "real", min, max, log}` or `{type: "text",
/// maxLength, presets: [[name, text], …]}`.
impl ToJs for Control {
    fn to_js(&self) -> JsValue {
        match *self {
            Control::Choice { options } => object(&[("type", "choice".to_js()), ("options", options.to_js())]),
            Control::Integer { min, max } => {
                object(&[("type", "integer".to_js()), ("min", min.to_js()), ("max", max.to_js())])
            }
            Control::Steps { min, max, presets } => object(&[
                ("type", "steps".to_js()),
                ("min", min.to_js()),
                ("max", max.to_js()),
                ("presets", presets.to_js()),
            ]),
            Control::Toggle => object(&[("type", "toggle".to_js())]),
            Control::Real { min, max, log } => {
                object(&[("type", "real".to_js()), ("min", min.to_js()), ("max", max.to_js()), ("log", log.to_js())])
            }
            Control::Text { max_len, presets } => {
                let presets: Vec<Vec<&str>> = presets.iter().map(|&(name, text)| vec![name, text]).collect();
                object(&[("type", "text".to_js()), ("maxLength", max_len.to_js()), ("presets", presets.to_js())])
            }
        }
    }
}

/// `{key, args: {name: text}, at: [x, y], axes: [name, name | undefined], step: [dx, dy]}`.
impl ToJs for Handle {
    fn to_js(&self) -> JsValue {
        let args = js_sys::Object::new().into();
        for (name, value) in &self.args {
            set_property(&args, name, &value.to_js());
        }
        object(&[
            ("key", self.key.to_js()),
            ("args", args),
            ("at", self.at.to_js()),
            ("axes", self.axes.to_js()),
            ("step", self.step.to_js()),
        ])
    }
}

/// `{key, value}` (value may be `Infinity`).
impl ToJs for Readout {
    fn to_js(&self) -> JsValue {
        object(&[("key", self.key.to_js()), ("value", self.value.to_js())])
    }
}

/// `{label}` or `{number}`.
impl ToJs for Cell {
    fn to_js(&self) -> JsValue {
        match self {
            Cell::Label(key) => object(&[("label", key.to_js())]),
            Cell::Number(value) => object(&[("number", value.to_js())]),
        }
    }
}

/// `{key, columns, rows}`.
impl ToJs for Table {
    fn to_js(&self) -> JsValue {
        object(&[("key", self.key.to_js()), ("columns", self.columns.to_js()), ("rows", self.rows.to_js())])
    }
}

/// `{key, number}`: `key` in the string table (`chart.x`, `legend.mean`), `number` the member
/// of a family or undefined.
impl ToJs for Heading {
    fn to_js(&self) -> JsValue {
        object(&[("key", self.name.text_key().to_js()), ("number", self.number.to_js())])
    }
}

/// `{caption: heading, headings: [heading], values: Float64Array}`: the numbers row after
/// row, one per heading.
impl ToJs for Plotted {
    fn to_js(&self) -> JsValue {
        let values = js_sys::Float64Array::from(self.values.as_slice()).into();
        object(&[("caption", self.caption.to_js()), ("headings", self.headings.to_js()), ("values", values)])
    }
}

/// `{code, args: {name: text}, warning}`.
impl ToJs for Message {
    fn to_js(&self) -> JsValue {
        let args = js_sys::Object::new().into();
        for (name, value) in &self.args {
            set_property(&args, name, &value.to_js());
        }
        object(&[("code", self.code.to_js()), ("args", args), ("warning", self.warning.to_js())])
    }
}

/// `"area"`, `"line"`, `"dashed"`, `"dot"`, `"cross"`, `"triangle"` or `"square"`.
impl ToJs for Mark {
    fn to_js(&self) -> JsValue {
        match self {
            Mark::Area => "area",
            Mark::Line => "line",
            Mark::Dashed => "dashed",
            Mark::Dot => "dot",
            Mark::Cross => "cross",
            Mark::Triangle => "triangle",
            Mark::Square => "square",
        }
        .to_js()
    }
}

/// `{key, colour, mark}`.
impl ToJs for LegendEntry {
    fn to_js(&self) -> JsValue {
        object(&[("key", self.key.to_js()), ("colour", self.colour.to_js()), ("mark", self.mark.to_js())])
    }
}

/// `{readouts, tables, messages, legend, position: [shown, last] | undefined, work:
/// [done, total] | undefined}`.
impl ToJs for Report {
    fn to_js(&self) -> JsValue {
        object(&[
            ("readouts", self.readouts.to_js()),
            ("tables", self.tables.to_js()),
            ("messages", self.messages.to_js()),
            ("legend", self.legend.to_js()),
            ("position", self.position.to_js()),
            ("work", self.work.to_js()),
            ("summary", self.summary.to_js()),
        ])
    }
}

/// `{key, args: {name: number | {key} | {text}}}`.
impl ToJs for Sentence {
    fn to_js(&self) -> JsValue {
        let args = js_sys::Object::new().into();
        for (name, word) in &self.args {
            let value = match word {
                Word::Number(value) => value.to_js(),
                Word::Key(key) => object(&[("key", key.to_js())]),
                Word::Text(text) => object(&[("text", text.to_js())]),
            };
            set_property(&args, name, &value);
        }
        object(&[("key", self.key.to_js()), ("args", args)])
    }
}

/// `{name, params, animated, playSpeed, pointAxes: [a, b] | undefined, counts, frameKey: key |
/// undefined, chartText}`: `pointAxes` is undefined for a panel without data points;
/// `counts` says a point's second coordinate is a whole count;
/// `frameKey` names the setting of the frame shown; `chartText` is the size of tick labels
/// in CSS pixels at scale 1.
impl ToJs for Description {
    fn to_js(&self) -> JsValue {
        let layout = &self.layout;
        let axes = self.takes_points.then(|| layout.point_axes.to_vec());
        object(&[
            ("name", self.name.to_js()),
            ("params", self.params.to_js()),
            ("animated", self.animated.to_js()),
            ("playSpeed", f64::from(layout.play_speed).to_js()),
            ("pointAxes", axes.to_js()),
            ("counts", layout.counts.to_js()),
            ("frameKey", self.frame_key.to_js()),
            ("chartText", crate::plot::TICK_TEXT.to_js()),
        ])
    }
}

/// `{left, top, right, bottom, x_range: [from, to], y_range: [from, to]}`.
impl ToJs for PlotArea {
    fn to_js(&self) -> JsValue {
        object(&[
            ("left", self.left.to_js()),
            ("top", self.top.to_js()),
            ("right", self.right.to_js()),
            ("bottom", self.bottom.to_js()),
            ("x_range", self.x_range.to_js()),
            ("y_range", self.y_range.to_js()),
        ])
    }
}

/// `{relevant, weights, alpha, beta, log_marginal_likelihood, iterations, converged}`.
impl ToJs for RvmFit {
    fn to_js(&self) -> JsValue {
        object(&[
            ("relevant", self.relevant.to_js()),
            ("weights", self.weights.to_js()),
            ("alpha", self.alpha.to_js()),
            ("beta", self.beta.to_js()),
            ("log_marginal_likelihood", self.log_marginal_likelihood.to_js()),
            ("iterations", self.iterations.to_js()),
            ("converged", self.converged.to_js()),
        ])
    }
}

/// `{relevant, weights, alpha, log_marginal_likelihood, iterations, converged, accuracy}`.
impl ToJs for GlmFit {
    fn to_js(&self) -> JsValue {
        object(&[
            ("relevant", self.relevant.to_js()),
            ("weights", self.weights.to_js()),
            ("alpha", self.alpha.to_js()),
            ("log_marginal_likelihood", self.log_marginal_likelihood.to_js()),
            ("iterations", self.iterations.to_js()),
            ("converged", self.converged.to_js()),
            ("accuracy", self.accuracy.to_js()),
        ])
    }
}
