//! The wasm API in headless Chromium (wasm-bindgen-test): errors arrive as JS `Error`s
//! with a readable message and a code, the panel keeps its last good state, and a panel
//! draws onto a real canvas.
#![cfg(target_arch = "wasm32")]

use rvm_lab::web::Lab;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn property(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).unwrap()
}

#[wasm_bindgen_test]
fn a_bad_value_is_a_js_error_with_message_and_code() {
    let mut lab = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    let error = lab.set("beta", "-1").unwrap_err();
    let error: js_sys::Error = error.dyn_into().expect("a JS Error");
    assert_eq!(String::from(error.message()), "β must be > 0, but is -1");
    let js: &JsValue = error.as_ref();
    assert_eq!(property(js, "code").as_string().as_deref(), Some("out-of-range"));
    let args = property(js, "args");
    assert_eq!(property(&args, "bound").as_string().as_deref(), Some("positive"));
    assert_eq!(lab.value("beta").as_deref(), Some("25"));
}

#[wasm_bindgen_test]
fn unknown_panel_and_no_data_are_errors() {
    let error = Lab::new("nonsense", JsValue::UNDEFINED).err().expect("refused");
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("unknown-choice"));
    let mut lab = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    let error = lab.set("N", "0").unwrap_err();
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("no-data"));
    assert_eq!(lab.value("N").as_deref(), Some("10"));
}

#[wasm_bindgen_test]
fn query_notices_name_their_key() {
    let pairs = js_sys::Array::of2(
        &js_sys::Array::of2(&"M".into(), &"4".into()),
        &js_sys::Array::of2(&"alpha".into(), &"-3".into()),
    );
    let mut lab = Lab::new("predictive", pairs.into()).unwrap();
    let notices = lab.opening_notices();
    assert_eq!(notices.len(), 1);
    assert_eq!(property(&notices[0], "key").as_string().as_deref(), Some("alpha"));
    assert_eq!(lab.value("M").as_deref(), Some("4"));
    assert_eq!(
        lab.value("alpha"),
        Lab::new("predictive", JsValue::UNDEFINED).unwrap().value("alpha"),
        "alpha kept its default"
    );
    assert!(lab.opening_notices().is_empty(), "the notices are given once");
}

#[wasm_bindgen_test]
fn a_key_that_does_not_compute_is_dropped_alone_with_a_notice() {
    // Each value is allowed alone, but no points at all cannot be fitted: N = 0 goes, M = 4
    // stays.
    let pairs = js_sys::Array::of2(
        &js_sys::Array::of2(&"M".into(), &"4".into()),
        &js_sys::Array::of2(&"N".into(), &"0".into()),
    );
    let mut lab = Lab::new("predictive", pairs.into()).unwrap();
    let notices = lab.opening_notices();
    assert_eq!(notices.len(), 1);
    assert_eq!(property(&notices[0], "key").as_string().as_deref(), Some("N"));
    assert_eq!(property(&notices[0], "code").as_string().as_deref(), Some("no-data"));
    let defaults = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    assert_eq!((lab.value("M"), lab.value("N")), (Some("4".to_owned()), defaults.value("N")));
}

#[wasm_bindgen_test]
fn draws_on_a_canvas_and_maps_clicks_back() {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    canvas.set_width(600);
    canvas.set_height(400);
    let mut lab = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    assert_eq!(lab.draw(canvas.clone(), 1.0, 0, f64::INFINITY).unwrap(), None, "drawn at once");
    let area = lab.plot_area();
    let [left, top, right, bottom] = ["left", "top", "right", "bottom"].map(|k| property(&area, k).as_f64().unwrap());
    assert!(0.0 < left && left < right && right <= 600.0 && 0.0 <= top && top < bottom && bottom <= 400.0);
    // A click in the middle of the plotting area adds one point; one outside adds none.
    assert!(lab.press_at_pixel((left + right) / 2.0, (top + bottom) / 2.0, None).unwrap());
    assert!(!lab.press_at_pixel(1.0, 1.0, None).unwrap());
    let n = lab.value("points").unwrap();
    assert_eq!(n.split(',').count(), 1);
    // The centre of the plotting area is x = 0.5, t = 0 (ranges [0, 1] × [−2, 2]), to a pixel.
    let (x, t) = n.split_once(':').unwrap();
    assert!((x.parse::<f64>().unwrap() - 0.5).abs() < 2.0 / (right - left));
    assert!(t.parse::<f64>().unwrap().abs() < 2.0 * 4.0 / (bottom - top));
}

fn array(value: &JsValue) -> Vec<JsValue> {
    value.dyn_ref::<js_sys::Array>().expect("an array").iter().collect()
}

fn text(value: &JsValue, key: &str) -> String {
    property(value, key).as_string().unwrap_or_else(|| panic!("{key} is not a string"))
}

#[wasm_bindgen_test]
fn reports_arrive_as_plain_objects_of_the_documented_shape() {
    let mut lab = Lab::new("least-squares", JsValue::UNDEFINED).unwrap();
    // Ten points (distinct x) under fourteen polynomial basis functions: Φ has rank 10.
    lab.set("M", "14").unwrap();
    let description = lab.describe();
    assert_eq!(text(&description, "name"), "least-squares");
    assert_eq!(property(&description, "animated").as_bool(), Some(false));
    assert_eq!(array(&property(&description, "pointAxes")).len(), 2, "least squares takes points");
    let params = array(&property(&description, "params"));
    let m = params.iter().find(|p| text(p, "key") == "M").expect("M is a parameter");
    let control = property(m, "control");
    assert_eq!(text(&control, "type"), "integer");
    // The slider ends where the panel's limit is (least squares takes M up to 100).
    assert_eq!((property(&control, "min").as_f64(), property(&control, "max").as_f64()), (Some(1.0), Some(100.0)));
    assert!(Lab::new("least-squares", JsValue::UNDEFINED).unwrap().set("M", "101").is_err(), "and refuses above it");
    let bias = params.iter().find(|p| text(p, "key") == "bias").expect("bias is a parameter");
    assert_eq!(text(&property(bias, "control"), "type"), "toggle");
    let basis = params.iter().find(|p| text(p, "key") == "basis").expect("basis is a parameter");
    let options = array(&property(&property(basis, "control"), "options"));
    assert!(options.iter().any(|o| o.as_string().as_deref() == Some("polynomial")));

    let report = lab.report();
    let readouts = array(&property(&report, "readouts"));
    let rank = readouts.iter().find(|r| text(r, "key") == "rank").expect("a rank readout");
    assert_eq!(property(rank, "value").as_f64(), Some(10.0));
    let messages = array(&property(&report, "messages"));
    let deficient = messages.iter().find(|m| text(m, "code") == "rank-deficient").expect("the rank message");
    let args = property(deficient, "args");
    assert_eq!((text(&args, "rank"), text(&args, "m")), ("10".to_owned(), "14".to_owned()));
    assert_eq!(property(deficient, "warning").as_bool(), Some(false));

    let tables = array(&property(&report, "tables"));
    let rows = array(&property(&tables[0], "rows"));
    assert_eq!(rows.len(), 14);
    assert_eq!(property(&array(&rows[3])[0], "number").as_f64(), Some(3.0));
    let legend = array(&property(&report, "legend"));
    assert!(property(&report, "position").is_undefined(), "least squares does not animate");
    assert!(legend.iter().any(|e| text(e, "key") == "fit" && text(e, "mark") == "line"));

    let query = array(&lab.query());
    let pair = query.iter().find(|p| array(p)[0].as_string().as_deref() == Some("M")).expect("M in the query");
    assert_eq!(array(pair)[1].as_string().as_deref(), Some("14"));
    assert!(lab.plot_area().is_undefined(), "nothing drawn yet");
}

#[wasm_bindgen_test]
fn malformed_pairs_are_type_errors_and_change_nothing() {
    let mut lab = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    let m = lab.value("M");
    for bad in [JsValue::from_str("M=4"), js_sys::Array::of1(&js_sys::Array::of2(&"M".into(), &4.into())).into()] {
        let error = Lab::new("predictive", bad.clone()).err().expect("refused");
        assert!(error.is_instance_of::<js_sys::TypeError>());
        assert!(lab.set_labels(bad).unwrap_err().is_instance_of::<js_sys::TypeError>());
    }
    assert_eq!(lab.value("M"), m);
}

#[wasm_bindgen_test]
fn a_lesson_action_adds_highlights_and_steps_in_that_order() {
    let mut lab = Lab::new("fast-rvm", JsValue::UNDEFINED).unwrap();
    let points = js_sys::Array::of1(&js_sys::Array::of2(&0.5.into(), &2.0.into()));
    lab.apply_action(points.into(), Some(3), 4).unwrap();
    assert_eq!(lab.value("points").as_deref(), Some("0.5:2"));
    assert_eq!(lab.value("highlight").as_deref(), Some("3"));
    let position = array(&property(&lab.report(), "position"));
    assert_eq!(position[0].as_f64(), Some(4.0), "the steps run after the point restarted the run");
    let bad = js_sys::Array::of1(&"0.5:2".into());
    assert!(lab.apply_action(bad.into(), None, 0).unwrap_err().is_instance_of::<js_sys::TypeError>());
}

#[wasm_bindgen_test]
fn point_at_gives_the_count_and_the_entry_of_points() {
    let mut lab = Lab::new("predictive", JsValue::UNDEFINED).unwrap();
    lab.set("N", "7").unwrap();
    let points = array(&lab.points());
    assert_eq!(points.len(), 7);
    for (index, point) in points.iter().enumerate() {
        let at = array(&lab.point_at(index));
        assert_eq!(at[0].as_f64(), Some(7.0));
        let (want, got) = (array(point), array(&at[1]));
        assert_eq!(
            got.iter().map(JsValue::as_f64).collect::<Vec<_>>(),
            want.iter().map(JsValue::as_f64).collect::<Vec<_>>()
        );
    }
    let past = array(&lab.point_at(7));
    assert_eq!((past[0].as_f64(), past[1].is_undefined()), (Some(7.0), true));
}

/// Draws the same marks through `backend`: opaque horizontal, vertical and slanted lines and
/// rings and dots apart from one another, a translucent ring, and a rectangle over a line.
fn draw_marks<DB: plotters::prelude::DrawingBackend>(mut backend: DB) {
    use plotters::prelude::*;
    for k in 0..12 {
        let (x, y) = (10 + 25 * k, 10 + 12 * k);
        backend.draw_line((x, 5), (x, 150), &BLACK.stroke_width(1)).unwrap();
        backend.draw_line((5, y + 160), (290, y + 160), &BLUE.stroke_width(2)).unwrap();
        backend.draw_line((x, 305), (x + 15, 330), &BLACK.stroke_width(1)).unwrap();
        backend.draw_circle((x + 8, 40 + 3 * k), 4, &RED.stroke_width(2), false).unwrap();
        backend.draw_circle((x + 8, 90 + 2 * k), 3, &GREEN.filled(), true).unwrap();
    }
    backend.draw_circle((150, 120), 20, &RED.mix(0.5).stroke_width(3), false).unwrap();
    backend.draw_rect((0, 0), (30, 30), &MAGENTA.filled(), true).unwrap();
    backend.present().unwrap();
}

/// Opaque lines and circles of one style drawn as one path give, where they do not overlap,
/// the same pixels as plotters' canvas backend, which draws each on its own.
#[wasm_bindgen_test]
fn batched_lines_and_circles_are_the_pixels_of_one_by_one() {
    let document = web_sys::window().unwrap().document().unwrap();
    let pixels = |batched: bool| {
        let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
        canvas.set_width(320);
        canvas.set_height(340);
        if batched {
            draw_marks(rvm_lab::backend::PageBackend::canvas(canvas.clone(), rvm_lab::palette::Look::Screen).unwrap());
        } else {
            draw_marks(plotters_canvas::CanvasBackend::with_canvas_object(canvas.clone()).unwrap());
        }
        let context: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
        context.get_image_data(0.0, 0.0, 320.0, 340.0).unwrap().data().0
    };
    let (ours, theirs) = (pixels(true), pixels(false));
    assert!(theirs.iter().any(|&v| v != 0), "something was drawn");
    let differing = ours.iter().zip(&theirs).filter(|(a, b)| a != b).count();
    assert_eq!(differing, 0, "{differing} of {} channel values differ", ours.len());
}

/// A drawing made a chart per call (`draw` with no time for more, as the page makes a
/// panel's first drawing in parts) gives the pixels of the drawing made at once, and ends:
/// on gradient descent (five charts of lines, held back and stroked as one path) and on
/// classification (its class map's cells, held back and drawn as one image).
#[wasm_bindgen_test]
fn a_drawing_in_parts_is_the_pixels_of_the_drawing_at_once() {
    let document = web_sys::window().unwrap().document().unwrap();
    for (panel, charts) in [("classification", 3), ("gradient-descent", 5)] {
        let lab = std::cell::RefCell::new(Lab::new(panel, JsValue::UNDEFINED).unwrap());
        while lab.borrow().prepare_drawing(f64::INFINITY) {}
        let pixels = |ms: f64| {
            let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
            canvas.set_width(900);
            canvas.set_height(700);
            let (mut from, mut parts) = (0, 0);
            loop {
                parts += 1;
                assert!(parts <= 20, "{panel}: the parts end");
                match lab.borrow_mut().draw(canvas.clone(), 1.0, from, ms).unwrap() {
                    Some(next) => from = next,
                    None => break,
                }
            }
            let context: web_sys::CanvasRenderingContext2d =
                canvas.get_context("2d").unwrap().unwrap().dyn_into().unwrap();
            (context.get_image_data(0.0, 0.0, 900.0, 700.0).unwrap().data().0, parts)
        };
        let ((whole, one), (parted, parts)) = (pixels(f64::INFINITY), pixels(0.0));
        assert_eq!(one, 1, "{panel}");
        assert_eq!(parts, charts, "{panel}: a part per chart");
        let differing = whole.iter().zip(&parted).filter(|(a, b)| a != b).count();
        assert_eq!(differing, 0, "{panel}: {differing} of {} channel values differ", whole.len());
    }
}

/// The formula family's parser is a module of its own, which the page puts on
/// `globalThis.rvmLabFormula`; without it a formula is refused, and the panel keeps its basis.
#[wasm_bindgen_test]
fn a_formula_without_the_formula_module_is_refused() {
    // What the page's module does when it starts (wasm-bindgen-test does not call it).
    rvm_lab::web::start();
    let mut lab = Lab::new("basis", JsValue::UNDEFINED).unwrap();
    let error = lab.set("basis", "formula").unwrap_err();
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("formula-module-missing"));
    assert_eq!(lab.value("basis").as_deref(), Some("gaussian"));
}

/// A formula module's error crosses as lines (code, then names and values) and arrives as the
/// JS error the page words: here a stand-in module that refuses every formula so.
#[wasm_bindgen_test]
fn the_formula_module_s_error_reaches_the_page_with_its_code_and_values() {
    rvm_lab::web::start();
    let global = js_sys::global();
    let module = js_sys::Object::new();
    let refuse = js_sys::Function::new_no_args(
        "throw 'formula-unknown-name-suggestion\\nat\\n3\\nname\\nsigma\\nsuggestion\\ns'",
    );
    for name in ["compile", "fill", "free"] {
        js_sys::Reflect::set(&module, &name.into(), &refuse).unwrap();
    }
    js_sys::Reflect::set(&global, &"rvmLabFormula".into(), &module).unwrap();
    let mut lab = Lab::new("basis", JsValue::UNDEFINED).unwrap();
    let error = lab.set("basis", "formula").unwrap_err();
    js_sys::Reflect::delete_property(&global, &"rvmLabFormula".into()).unwrap();
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("formula-unknown-name-suggestion"));
    let args = property(&error, "args");
    for (name, value) in [("at", "3"), ("name", "sigma"), ("suggestion", "s")] {
        assert_eq!(property(&args, name).as_string().as_deref(), Some(value), "{name}");
    }
    assert_eq!(lab.value("basis").as_deref(), Some("gaussian"));
}
