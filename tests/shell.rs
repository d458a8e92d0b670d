//! The page's shell lays the chart's box out before the module arrives, from the stylesheet
//! (www/style.css): every panel the module lists needs its aspect ratio there, and the width
//! below which the box takes the narrow ratio must be the one below which the charts stack
//! (`plot::NARROW`), or the stacked charts would be drawn into a wide box.

use rvm_lab::app::panels;
use rvm_lab::plot::NARROW;

fn stylesheet() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/style.css")).expect("www/style.css")
}

/// The declarations of the rule whose selector names `[data-panel="name"]`.
fn panel_rule<'s>(css: &'s str, name: &str) -> Option<&'s str> {
    let at = css.find(&format!("[data-panel=\"{name}\"]"))?;
    let open = at + css[at..].find('{')?;
    let close = open + css[open..].find('}')?;
    Some(&css[open + 1..close])
}

/// The number a custom property is set to in `rule`.
fn property(rule: &str, name: &str) -> Option<f64> {
    let value = rule.split(';').find_map(|d| d.trim().strip_prefix(name)?.trim().strip_prefix(':'))?;
    value.trim().parse().ok()
}

#[test]
fn every_panel_has_its_aspect_ratios_in_the_stylesheet() {
    let css = stylesheet();
    let names: Vec<_> = panels::names().collect();
    assert!(names.len() >= 13, "{names:?}");
    for name in names {
        let rule = panel_rule(&css, name).unwrap_or_else(|| panic!("no [data-panel=\"{name}\"] in www/style.css"));
        for ratio in ["--aspect", "--aspect-narrow"] {
            let value = property(rule, ratio).unwrap_or_else(|| panic!("{name}: no {ratio} in `{rule}`"));
            assert!((0.2..=5.0).contains(&value), "{name}: {ratio} {value}");
        }
    }
}

#[test]
fn the_narrow_box_starts_where_the_charts_stack() {
    let css = stylesheet();
    let query = format!("@container (width < {NARROW}px)");
    assert!(css.contains(&query), "www/style.css has no `{query}`");
}
