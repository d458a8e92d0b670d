#![cfg(not(target_arch = "wasm32"))]
//! A student's own links and numbers (issue 53): a key given many times counts once, a
//! count beyond the run is refused with a notice, and
//! every value a control shows reads in the lab's one number format ([`Compact`]: exponent
//! form below 1e-5 and from 1e16, never `0.000001` or thirty digits).

use rvm_lab::app::panel::{PointEdit, value_of};
use rvm_lab::app::{Control, names, open_panel};
use rvm_lab::error::Compact;
use rvm_lab::plot::Mark;

fn pairs(query: &[(&str, &str)]) -> Vec<(String, String)> {
    query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn every_real_control_shows_its_value_in_the_one_number_format() {
    let mut checked = 0;
    for name in names() {
        let mut panel = open_panel(name).unwrap();
        for spec in panel.describe().params {
            let Control::Real { min, max, .. } = spec.control else { continue };
            // Both ends of the slider, and values the box accepts beyond them where the
            // panel does (a tiny α, a huge β).
            for value in [min, max, 1e-20, 1.23e29] {
                if value <= 0.0 && min > 0.0 || panel.set(spec.key, &format!("{value:e}")).is_err() {
                    continue;
                }
                let shown = panel.value(spec.key).unwrap();
                assert_eq!(shown, Compact(value).to_string(), "{name}: {} = {value:e} shows as {shown}", spec.key);
                assert_eq!(shown.parse::<f64>().unwrap(), value, "{name}: {} reads back", spec.key);
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "{checked} values checked");
}

#[test]
fn a_key_given_five_thousand_times_is_one_notice() {
    let query: Vec<(&str, &str)> =
        std::iter::repeat_n(("a", "b"), 5000).chain([("alpha", "3"), ("alpha", "4")]).collect();
    let mut panel = open_panel("predictive").unwrap();
    let notices = panel.apply_query(&pairs(&query));
    assert_eq!(notices.len(), 1, "{} notices", notices.len());
    assert_eq!(notices[0].key, "a");
    assert_eq!(panel.value("alpha").as_deref(), Some("4"), "the last value given stands");
}

#[test]
fn the_sequential_count_beyond_the_run_is_refused_and_follows_a_smaller_run() {
    let mut panel = open_panel("sequential").unwrap();
    let notices = panel.apply_query(&pairs(&[("k", "99")]));
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].key, "k");
    assert!(notices[0].error.to_string().contains("25"), "{}", notices[0].error);
    assert_eq!(panel.value("k").as_deref(), Some("1"), "k stays its default");
    // A link's k after a larger N stands, wherever it is in the link.
    assert!(panel.apply_query(&pairs(&[("k", "40"), ("N", "50")])).is_empty());
    assert_eq!(panel.value("k").as_deref(), Some("40"));
    // A smaller run takes k down with it: the box says what the chart shows.
    panel.set("N", "10").unwrap();
    assert_eq!(panel.value("k").as_deref(), Some("10"));
}

#[test]
fn moving_or_removing_an_added_point_leaves_the_generated_data_generated() {
    for (name, placed) in [("predictive", (0.5, 0.25)), ("classification", (0.25, -0.5))] {
        let mut panel = open_panel(name).unwrap();
        let n = panel.value("N").unwrap();
        let generated = panel.points();
        panel.add_point(placed.0, placed.1).unwrap();
        let added = generated.len();
        panel.edit_point(PointEdit::Move { index: added, x: 0.75, y: 0.5 }).unwrap();
        assert_eq!(panel.value("N").unwrap(), n, "{name}: N stays");
        let points = panel.points();
        assert_eq!(points[..added], generated[..], "{name}: the generated points stay");
        assert_eq!(points[added], (0.75, 0.5), "{name}: the added point moved");
        // Its link keeps N and one added point, not every point written out.
        assert_eq!(value_of(&panel.query(), "N"), Some(n.as_str()), "{name}");
        panel.edit_point(PointEdit::Remove(added)).unwrap();
        assert_eq!(panel.points(), generated, "{name}: removed, the generated data are as they were");
        // A generated point moved makes every point the student's own, the others where they were.
        panel.edit_point(PointEdit::Move { index: 0, x: 0.75, y: 0.5 }).unwrap();
        assert_eq!(panel.value("N").as_deref(), Some("0"), "{name}");
        assert_eq!(panel.points()[1..], generated[1..], "{name}");
    }
}

#[test]
fn quoted_csv_numbers_are_read_as_the_numbers() {
    let quoted = rvm_lab::data::parse_rows("\"x\",\"t\"\n\"0.2\",\"0.7\"\n\"0.5\";\"-1e-3\"\n", &["x", "t"]).unwrap();
    let plain = rvm_lab::data::parse_rows("x,t\n0.2,0.7\n0.5;-1e-3\n", &["x", "t"]).unwrap();
    assert_eq!(quoted, plain);
    // A quote left open is no number.
    assert!(rvm_lab::data::parse_rows("0.2,\"0.7\n", &["x", "t"]).is_err());
}

#[test]
fn the_results_csv_holds_the_whole_event_log() {
    for name in ["fast-rvm", "classification", "poisson"] {
        let mut panel = open_panel(name).unwrap();
        while panel.work(rvm_lab::solver::Budget::unlimited()) {}
        while panel.step(usize::MAX) {}
        let steps = panel.report().readout("step").unwrap() as usize;
        assert!(steps >= 10, "{name}: a run of {steps} steps shows the point");
        let csv = rvm_lab::app::panel::results_csv(panel.as_ref(), false);
        let log = csv.split("\n\n").find(|section| section.starts_with("events\n")).unwrap();
        let rows: Vec<&str> = log.lines().skip(2).collect();
        assert_eq!(rows.len(), steps + 1, "{name}: every step from 0 to {steps}");
        assert!(
            rows[0].starts_with(&format!("{steps},")) && rows[steps].starts_with("0,"),
            "{name}: newest first: {rows:?}"
        );
        // The page's table keeps the newest ten.
        assert_eq!(panel.report().tables[0].rows.len(), 10, "{name}");
    }
}

#[test]
fn the_evidence_panel_takes_and_gives_its_data_as_every_panel_does() {
    let mut panel = open_panel("evidence").unwrap();
    assert!(panel.describe().takes_points, "the point editor and the CSV box are offered");
    assert!(!panel.points_on_chart(), "its chart is the (ln α, ln β) plane");
    // Its data as CSV: a header and the N generated points.
    let csv = panel.export_csv().unwrap().unwrap();
    assert_eq!(csv.lines().count(), 1 + panel.value("N").unwrap().parse::<usize>().unwrap());
    assert!(csv.starts_with("x,t\n"), "{csv}");
    let text = "x,t\n0.1,0.3\n0.5,-0.2\n0.9,0.4\n";
    panel.import_csv(text).unwrap();
    assert_eq!(panel.export_csv().unwrap().as_deref(), Some(text));
    assert_eq!(panel.points(), vec![(0.1, 0.3), (0.5, -0.2), (0.9, 0.4)]);
}

#[test]
fn a_legend_shows_the_mark_its_chart_draws() {
    // Drawn as crosses: the evidence surface's maximum and the true weights (plot::surface),
    // the target in the space of targets (plot::target_space); as triangles: the centres'
    // handles under the basis functions (plot::basis).
    for (name, key, mark) in [
        ("evidence", "surface-max", Mark::Cross),
        ("sequential", "true-weights", Mark::Cross),
        ("sparsity", "target", Mark::Cross),
        ("basis", "centres", Mark::Triangle),
    ] {
        let legend = open_panel(name).unwrap().report().legend;
        let entry =
            legend.iter().find(|entry| entry.key == key).unwrap_or_else(|| panic!("{name}: {key} in {legend:?}"));
        assert_eq!(entry.mark, mark, "{name}: {key}");
    }
}

#[test]
fn a_bad_key_in_a_link_drops_that_key_alone() {
    // A formula with no value beside other keys (issue 53's link): α, M and N stand.
    let link = pairs(&[("basis", "formula"), ("formula", "log(-1)+mu*x"), ("alpha", "5"), ("M", "20"), ("N", "30")]);
    let (panel, notices) = rvm_lab::app::open_panel_at("predictive", &link).unwrap();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].key, "formula");
    assert_eq!(notices[0].error.code(), "formula-fault", "{}", notices[0].error);
    for (key, value) in [("alpha", "5"), ("M", "20"), ("N", "30"), ("basis", "formula")] {
        assert_eq!(panel.value(key).as_deref(), Some(value), "{key}");
    }
    // A value refused as such is refused alone, as it always was, beside one the whole refuses.
    let link = pairs(&[("beta", "-1"), ("formula", "1/(x-x)+mu"), ("basis", "formula"), ("alpha", "3")]);
    let (panel, notices) = rvm_lab::app::open_panel_at("predictive", &link).unwrap();
    let mut keys: Vec<&str> = notices.iter().map(|notice| notice.key.as_str()).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["beta", "formula"], "{notices:?}");
    assert_eq!(panel.value("alpha").as_deref(), Some("3"));
}
