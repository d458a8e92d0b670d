//! What the built-in lessons say about the numbers holds: each claim is checked on the
//! panel state and action the lesson file sets (so editing either breaks this test).

#![cfg(not(target_arch = "wasm32"))]

use rvm_lab::app::lesson::LessonAction;
use rvm_lab::app::panels::fast_rvm::FastRvmPanel;
use rvm_lab::app::panels::poisson::PoissonPanel;
use rvm_lab::app::{Cell, Live, Panel, PanelModel};
use rvm_lab::solver::{Budget, Solver};
use serde_json::Value;

/// The steps of www/lessons/`id`.json.
fn steps(id: &str) -> Vec<Value> {
    let path = format!("{}/www/lessons/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let lesson: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    lesson["steps"].as_array().unwrap().clone()
}

/// Panel `P` in the state of `step` (its work done), before any action.
fn state<P: Panel>(step: &Value) -> Live<P> {
    let pairs: Vec<(String, String)> = step["state"]
        .as_str()
        .unwrap()
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .filter(|(key, _)| *key != "panel")
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect();
    let mut panel = Live::<P>::try_default().unwrap();
    assert!(panel.apply_query(&pairs).is_empty());
    while panel.work(Budget::unlimited()) {}
    panel
}

/// The fast-RVM panel in the state of `step` (its work done), before any action.
fn fast_rvm_state(step: &Value) -> Live<FastRvmPanel> {
    state(step)
}

/// The fast-RVM panel in the state of `step`, its action applied as the page applies it.
fn fast_rvm_at(step: &Value) -> (Live<FastRvmPanel>, usize) {
    let mut panel = fast_rvm_state(step);
    let m = step["action"]["highlight"].as_u64().unwrap() as usize;
    let n = step["action"]["steps"].as_u64().unwrap_or(0) as usize;
    LessonAction { points: vec![], highlight: Some(m), steps: n }.apply(&mut panel).unwrap();
    (panel, m)
}

#[test]
fn the_fast_rvm_lessons_candidate_is_out_then_worth_adding() {
    let steps = steps("fast-rvm");
    let find = |title: &str| steps.iter().find(|s| s["title"]["en"] == title).unwrap_or_else(|| panic!("{title}"));

    // "Here q₁₇² < s₁₇ (θ₁₇ < 0) … φ₁₇ stays out."
    let (panel, m) = fast_rvm_at(find("One candidate up close: φ₁₇ stays out"));
    let run = panel.panel().current().expect("the run is prepared");
    assert_eq!((run.iterations(), m), (1, 17));
    assert!(!run.active().contains(&m));
    let (s, q) = run.sparsity_quality(m);
    assert!(q * q - s < 0.0, "θ = {}", q * q - s);

    // "… θ₁₇ = q₁₇² − s₁₇ is now positive … α₁₇* = s₁₇²/θ₁₇ (about 23)."
    let (panel, m) = fast_rvm_at(find("The same candidate one step later"));
    let run = panel.panel().current().expect("the run is prepared");
    assert_eq!(run.iterations(), 2);
    let (s, q) = run.sparsity_quality(m);
    let theta = q * q - s;
    assert!(theta > 0.0 && (s * s / theta - 23.0).abs() < 1.0, "α* = {}", s * s / theta);
}

#[test]
fn the_polynomial_step_says_how_many_powers_the_rvm_keeps() {
    let steps = steps("fast-rvm");
    let step = steps.iter().find(|s| s["title"]["en"] == "Your own basis: powers of x").unwrap();
    let panel = fast_rvm_state(step);
    let report = panel.report();
    let (shown, last) = report.position.unwrap();
    assert_eq!(shown, last, "the run at its end");
    let kept = report.readout("relevance-vectors").unwrap() as usize;
    // "of these 10 functions the run keeps 4 and prunes the other 6"
    let columns = panel
        .plotted()
        .iter()
        .find_map(|t| (t.caption == rvm_lab::app::Name::Series("active-bases").into()).then(|| t.headings.len() - 1));
    assert_eq!(columns, Some(kept), "one column per function kept");
    let text = step["text"]["en"].as_str().unwrap();
    assert!(
        text.contains(&format!("of these 10 functions the run keeps {kept} and prunes the other {}", 10 - kept)),
        "{kept}"
    );
    let run = panel.panel().current().unwrap();
    assert!(run.active().iter().all(|&m| m <= 9), "powers x⁰ … x⁹");
    // Ten columns: φ₉ can be highlighted, φ₁₀ does not exist.
    let mut panel = panel;
    panel.set("highlight", "9").unwrap();
    assert_eq!(panel.set("highlight", "10").unwrap_err().code(), "out-of-range");
}

#[test]
fn the_classification_lessons_counts_step_holds() {
    let steps = steps("classification");
    let step = steps.iter().find(|s| s["title"]["en"] == "Counts: the same machinery, a Poisson likelihood").unwrap();
    let panel = state::<PoissonPanel>(step);
    // "… converges after 55 steps with 4 relevance vectors, the bias among them …"
    let run = panel.panel().run().current();
    assert_eq!(run.iterations(), 55);
    assert!(run.status().termination().is_some_and(|t| t.converged()));
    assert_eq!(run.active().len(), 4);
    assert!(run.active().contains(&0), "the bias");
    // "… the classic sweeps end within 0.1 of the same L."
    let report = panel.report();
    let methods = &report.tables[1];
    let l = |row: usize| match methods.rows[row][3] {
        Cell::Number(l) => l,
        Cell::Label(_) => panic!("L is a number"),
    };
    assert_eq!(methods.rows.len(), 2);
    assert!((l(0) - l(1)).abs() < 0.1, "fast {} and classic {}", l(0), l(1));
}

#[test]
fn the_your_basis_lessons_formulas_and_counts_hold() {
    use rvm_lab::app::panels::basis::BasisPanel;
    use rvm_lab::app::panels::least_squares::LeastSquaresPanel;
    let steps = steps("your-basis");
    let find = |title: &str| steps.iter().find(|s| s["title"]["en"] == title).unwrap_or_else(|| panic!("{title}"));
    let text = |step: &Value| step["text"]["en"].as_str().unwrap().to_owned();

    // "Type the formula": the typed formula draws the Gaussian family's functions.
    let family = state::<BasisPanel>(find("The Gaussian family is one formula")).plotted();
    let typed = state::<BasisPanel>(find("Type the formula")).plotted();
    assert_eq!(family.len(), typed.len());
    for (a, b) in family.iter().zip(&typed) {
        assert_eq!(a.values.len(), b.values.len());
        assert!(a.values.iter().zip(&b.values).all(|(u, v)| (u - v).abs() < 1e-12), "{:?}", a.caption);
    }

    // "… fits the ten points with the bias and seven Laplace bumps (M = 8)".
    let step = find("Fit with your functions");
    let fit = state::<LeastSquaresPanel>(step);
    assert_eq!(
        (fit.value("N").as_deref(), fit.value("M").as_deref(), fit.value("bias").as_deref()),
        (Some("10"), Some("8"), Some("1"))
    );
    assert!(text(step).contains("ten points with the bias and seven Laplace bumps (M = 8)"));

    // "… it keeps 4 of the 30 functions, with L = 4.9" and "… keeps 12 of them, … L = 6.7".
    let kept_and_l = |title: &str| {
        let step = find(title);
        let report = fast_rvm_state(step).report();
        let (shown, last) = report.position.unwrap();
        assert_eq!(shown, last, "{title}: the run at its end");
        let kept = report.readout("relevance-vectors").unwrap();
        let l = report.readout("log-ml").unwrap();
        (text(step), kept, l)
    };
    let (words, kept, gaussian_l) = kept_and_l("The RVM chooses among Gaussians");
    assert!(
        words.contains(&format!("it keeps {kept} of the 30 functions, with L = {gaussian_l:.1}.")),
        "{kept} {gaussian_l}"
    );
    let (words, kept, laplace_l) = kept_and_l("… and among your bumps");
    assert!(
        words.contains(&format!("the RVM keeps {kept} of them, and the evidence is higher, L = {laplace_l:.1}.")),
        "{kept} {laplace_l}"
    );
    assert!(laplace_l > gaussian_l);
}
