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
    let mut lab = Lab::new("predictive").unwrap();
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
    let error = Lab::new("nonsense").err().expect("refused");
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("unknown-choice"));
    let mut lab = Lab::new("predictive").unwrap();
    let error = lab.set("N", "0").unwrap_err();
    assert_eq!(property(&error, "code").as_string().as_deref(), Some("no-data"));
    assert_eq!(lab.value("N").as_deref(), Some("10"));
}

#[wasm_bindgen_test]
fn query_notices_name_their_key() {
    let mut lab = Lab::new("predictive").unwrap();
    let pairs = js_sys::Array::of2(
        &js_sys::Array::of2(&"M".into(), &"4".into()),
        &js_sys::Array::of2(&"alpha".into(), &"-3".into()),
    );
    let notices = lab.apply_query(pairs.into()).unwrap();
    assert_eq!(notices.len(), 1);
    assert_eq!(property(&notices[0], "key").as_string().as_deref(), Some("alpha"));
    assert_eq!(lab.value("M").as_deref(), Some("4"));
}

#[wasm_bindgen_test]
fn draws_on_a_canvas_and_maps_clicks_back() {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas").unwrap().dyn_into().unwrap();
    canvas.set_width(600);
    canvas.set_height(400);
    let mut lab = Lab::new("predictive").unwrap();
    lab.draw(canvas.clone(), 1.0).unwrap();
    let area = lab.plot_area().unwrap();
    let [left, top, right, bottom] = ["left", "top", "right", "bottom"].map(|k| property(&area, k).as_f64().unwrap());
    assert!(0.0 < left && left < right && right <= 600.0 && 0.0 <= top && top < bottom && bottom <= 400.0);
    // A click in the middle of the plotting area adds one point; one outside adds none.
    assert!(lab.press_at_pixel((left + right) / 2.0, (top + bottom) / 2.0).unwrap());
    assert!(!lab.press_at_pixel(1.0, 1.0).unwrap());
    let n = lab.value("points").unwrap();
    assert_eq!(n.split(',').count(), 1);
    // The centre of the plotting area is x = 0.5, t = 0 (ranges [0, 1] × [−2, 2]), to a pixel.
    let (x, t) = n.split_once(':').unwrap();
    assert!((x.parse::<f64>().unwrap() - 0.5).abs() < 2.0 / (right - left));
    assert!(t.parse::<f64>().unwrap().abs() < 2.0 * 4.0 / (bottom - top));
}
