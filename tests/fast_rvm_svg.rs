//! The fast-RVM panel drawn to SVG: the relevance vectors circled on their data points, the
//! predictive mean on μᵀφ(x) recomputed from the run's state, and the step's basis function
//! named in the colour of its action.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::svg::{Element, elements};
use nalgebra::DVector;
use plotters::prelude::*;
use rvm_lab::app::Live;
use rvm_lab::app::PanelModel;
use rvm_lab::app::panels::fast_rvm::FastRvmPanel;
use rvm_lab::basis::kernel_column;
use rvm_lab::data::Sinusoid;
use rvm_lab::plot::{Labels, PlotArea, palette};
use rvm_lab::solver::{Budget, Solver};

fn render(panel: &Live<FastRvmPanel>, size: (u32, u32)) -> (String, PlotArea) {
    let mut svg = String::new();
    let area = {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        panel.draw(&root, 1.0, &Labels::default()).unwrap()
    };
    assert!(!svg.contains("NaN"));
    (svg, area)
}

fn pixel(area: &PlotArea, (x, y): (f64, f64)) -> (f64, f64) {
    let fx = (x - area.x_range.0) / (area.x_range.1 - area.x_range.0);
    let fy = (y - area.y_range.0) / (area.y_range.1 - area.y_range.0);
    (area.left + fx * (area.right - area.left), area.bottom - fy * (area.bottom - area.top))
}

#[test]
fn relevance_vectors_mean_and_step_label_are_where_the_run_says() {
    for size in [(1100, 600), (360, 720)] {
        for step in [0, 3, 12] {
            let mut panel = Live::<FastRvmPanel>::try_default().unwrap();
            panel.set("step", &step.to_string()).unwrap();
            let (svg, area) = render(&panel, size);
            let els = elements(&svg);
            let run = panel.panel().current().expect("the run is prepared");
            assert_eq!(run.iterations(), step);
            let data = Sinusoid { n: 50, noise: 0.2, seed: 1 }.generate().unwrap();

            // One ink ring per active kernel, on its data point (the bias has none).
            let on_area = |e: &&Element| {
                (area.left - 8.0..=area.right + 8.0).contains(&e.num("cx"))
                    && (area.top - 8.0..=area.bottom + 8.0).contains(&e.num("cy"))
            };
            let rings: Vec<&Element> = els
                .iter()
                .filter(|e| e.tag == "circle" && e.has_colour("stroke", palette::INK))
                .filter(on_area)
                .collect();
            let kernels: Vec<usize> = run.active().iter().copied().filter(|&m| m > 0).collect();
            assert_eq!(rings.len(), kernels.len(), "{size:?} step {step}");
            for m in kernels {
                let want = pixel(&area, (data.x[m - 1], data.t[m - 1]));
                assert!(rings.iter().any(|c| (c.num("cx") - want.0).hypot(c.num("cy") - want.1) < 1.5), "ring at φ{m}");
            }

            // The predictive mean polyline lies on μᵀφ(x) at its vertices.
            let mean = els
                .iter()
                .filter(|e| e.tag == "polyline" && e.has_colour("stroke", palette::MEAN))
                .max_by_key(|e| e.points().len())
                .unwrap();
            // Vertices sit on whole pixels: the curve may be anywhere within half a pixel in x.
            let mean_at = |x: f64| {
                let phi = DVector::from_iterator(
                    run.active().len(),
                    run.active().iter().map(|&m| kernel_column(&data.x, 0.1, true, m, x)),
                );
                pixel(&area, (x, run.mean().dot(&phi))).1
            };
            let x_per_pixel = (area.x_range.1 - area.x_range.0) / (area.right - area.left);
            for (px, py) in mean.points().into_iter().step_by(7) {
                let x = area.x_range.0 + (px - area.left) * x_per_pixel;
                let (a, b) = (mean_at(x - 0.5 * x_per_pixel), mean_at(x + 0.5 * x_per_pixel));
                if (area.top..=area.bottom).contains(&a) && (area.top..=area.bottom).contains(&b) {
                    // Rounding of y, and plotters maps onto [top, bottom + 1): two pixels.
                    let (lo, hi) = (a.min(b) - 2.0, a.max(b) + 2.0);
                    assert!((lo..=hi).contains(&py), "mean at x = {x}: pixel {py} outside {lo}..{hi}");
                }
            }

            // The step's action is named in its colour.
            let event = &panel.panel().events()[step];
            let label = format!("{} φ{}", event.action.name(), event.basis.unwrap());
            let text =
                els.iter().find(|e| e.tag == "text" && e.text == label).unwrap_or_else(|| panic!("no label {label}"));
            let colour = if step == 12 { "#cc79a7" } else { "#56b4e9" };
            assert!(text.attrs.to_lowercase().contains(colour), "{label} in {colour}: {}", text.attrs);
        }
    }
}

#[test]
fn a_highlighted_basis_is_ringed_named_and_its_lambda_shown_without_a_rerun() {
    let mut panel = Live::<FastRvmPanel>::try_default().unwrap();
    panel.set("step", "12").unwrap();
    // The background comparison's progress survives: the run is not computed again.
    panel.work(Budget::units(40));
    let progress = panel.report().work;
    assert!(progress.is_some_and(|(done, _)| done > 0));
    panel.set("highlight", "17").unwrap();
    assert_eq!(panel.report().work, progress);
    let (svg, area) = render(&panel, (1100, 600));
    let els = elements(&svg);
    // φ17 is the kernel centred on data point 16 (column 0 is the bias).
    let data = Sinusoid { n: 50, noise: 0.2, seed: 1 }.generate().unwrap();
    let want = pixel(&area, (data.x[16], data.t[16]));
    let ring = els
        .iter()
        .filter(|e| e.tag == "circle" && e.has_colour("stroke", palette::INK) && (e.num("r") - 11.0).abs() < 0.5)
        .map(|c| (c.num("cx") - want.0).hypot(c.num("cy") - want.1))
        .fold(f64::INFINITY, f64::min);
    assert!(ring < 1.5, "the ring is {ring} px from data point 16");
    assert!(els.iter().any(|e| e.tag == "text" && e.text == "φ17"));
    assert!(els.iter().any(|e| e.tag == "text" && e.text == "highlighted basis"));
    assert!(panel.query().contains(&("highlight".to_owned(), "17".to_owned())));

    // Beyond the last column (N = 50 points: columns 0 to 50) it is refused and stays.
    assert_eq!(panel.set("highlight", "51").unwrap_err().code(), "out-of-range");
    assert_eq!(panel.value("highlight").as_deref(), Some("17"));
    panel.set("highlight", "none").unwrap();
    assert_eq!(panel.value("highlight"), None);
    assert!(!panel.query().iter().any(|(k, _)| k == "highlight"));
    let (svg, _) = render(&panel, (1100, 600));
    assert!(!elements(&svg).iter().any(|e| e.tag == "text" && (e.text == "highlighted basis" || e.text == "φ17")));
}
