//! The lab's panels as platform-free state machines, and what they share.
//!
//! - [`panel`]: the contract — a [`Panel`] is computed from its [`Settings`], draws itself,
//!   reports one [`Report`] and answers the pointer and the clock; [`Live`] holds it on the
//!   page (every change commits only if it computes) and [`PanelModel`] is what the page may
//!   ask of any panel.
//! - [`panels`]: one module per panel and the list of them ([`panels::PANELS`]).
//! - [`settings`], [`params`], [`labelled`]: what the user sets, parsed from text (a URL,
//!   a control) and shared in groups (the data, the basis, the precisions).
//! - [`replay`], [`background`]: the one replay every animated panel uses (a cursor over
//!   the frames of a solver's run) and solvers run in slices in the background;
//!   [`glm_run`]: the fast RVM on classes or counts, step by step, with the classic sweeps
//!   beside it (the classification and Poisson panels).
//! - [`report`], [`scene`], [`fast_steps`]: what panels show besides their charts, and
//!   scenes several of them draw; [`plotted`]: what the charts plot, as tables.
//! - [`lesson`]: a lesson step's action on a panel, in its one order.
//! - [`editing`]: data by hand on any panel — a point held, dragged, removed; undo and redo.
//!
//! The wasm layer only forwards calls to a [`PanelModel`].

pub mod background;
pub mod centres;
pub mod class_map;
pub mod editing;
pub mod fast_steps;
pub mod glm_run;
pub mod labelled;
pub mod lesson;
pub mod panel;
pub mod panels;
pub mod params;
pub mod plotted;
pub mod replay;
pub mod report;
pub mod scene;
pub mod settings;

pub use panel::{Description, Grab, Handle, Layout, Live, Panel, PanelModel};
pub use panels::{PANELS, names, open_panel, open_panel_at};
pub use params::{Control, Notice, ParamSpec};
pub use plotted::{Heading, Name, Plotted};
pub use report::{Cell, Message, Readout, Report, Sentence, Table, Word};
pub use settings::Settings;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_opens_with_its_defaults() {
        for name in names() {
            let panel = open_panel(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(!panel.describe().params.is_empty(), "{name}");
            assert_eq!(panel.describe().name, name);
            let mut copy = open_panel(name).unwrap();
            assert!(copy.apply_query(&panel.query()).is_empty(), "{name}: its own query applies cleanly");
            if panel.describe().params.iter().any(|p| p.key == "step") {
                // A permalink opens at its step even when the step comes before the data.
                let pairs = [("step", "3"), ("seed", "2")].map(|(k, v)| (k.to_owned(), v.to_owned()));
                assert!(copy.apply_query(&pairs).is_empty(), "{name}");
                while copy.work(crate::solver::Budget::unlimited()) {}
                assert_eq!(copy.report().position.map(|p| p.0), Some(3), "{name}");
            }
        }
        assert_eq!(open_panel("nope").err().map(|e| e.code()), Some("unknown-choice"));
    }

    #[test]
    fn opening_at_a_state_is_applying_it_to_the_defaults() {
        let pairs = |list: &[(&str, &str)]| list.iter().map(|&(k, v)| (k.to_owned(), v.to_owned())).collect::<Vec<_>>();
        let finished = |mut panel: Box<dyn PanelModel>| {
            while panel.work(crate::solver::Budget::unlimited()) {}
            crate::app::panel::plotted_data_csv(&*panel)
        };
        let codes = |notices: &[Notice]| notices.iter().map(|n| (n.key.clone(), n.error.code())).collect::<Vec<_>>();
        for name in names() {
            // The frame before the data, a key the panel has not, and (for some) no data at all.
            for state in
                [pairs(&[("step", "3"), ("seed", "2"), ("nonsense", "1")]), pairs(&[("seed", "2"), ("N", "0")])]
            {
                let (opened, notices) = open_panel_at(name, &state).unwrap();
                let mut applied = open_panel(name).unwrap();
                let mut expected = codes(&applied.apply_query(&state));
                if expected.iter().any(|(key, _)| key.is_empty()) {
                    // The whole does not compute (no data): N = 0 is dropped alone, the seed stands.
                    let kept: Vec<_> = state.iter().filter(|(key, _)| key != "N").cloned().collect();
                    applied = open_panel(name).unwrap();
                    expected = codes(&applied.apply_query(&kept));
                    expected.push(("N".to_owned(), "no-data"));
                }
                assert_eq!(codes(&notices), expected, "{name} at {state:?}");
                assert_eq!(finished(opened), finished(applied), "{name} at {state:?}");
            }
        }
        let (predictive, notices) = open_panel_at("predictive", &pairs(&[("N", "0")])).unwrap();
        assert_eq!(codes(&notices), [("N".to_owned(), "no-data")], "the key that does not compute is named");
        assert_eq!(predictive.query(), open_panel("predictive").unwrap().query(), "its defaults stand");
    }

    #[test]
    fn the_list_has_each_name_once() {
        let mut list: Vec<_> = names().collect();
        let count = list.len();
        list.sort_unstable();
        list.dedup();
        assert_eq!(list.len(), count);
    }

    #[test]
    fn csv_replaces_the_data_or_names_the_bad_line_and_keeps_them() {
        let mut panel = open_panel("predictive").unwrap();
        let before = panel.query();
        let error = panel.import_csv("x,t\n0.1,0.5\n0.2,oops\n").unwrap_err();
        assert_eq!(error.to_string(), "line 3 (0.2,oops) is not a row of x, t");
        assert_eq!(panel.query(), before, "the data stay");
        panel.import_csv("x,t\n0.1,0.5\n0.7,-0.25\n").unwrap();
        assert_eq!(panel.export_csv().unwrap().as_deref(), Some("x,t\n0.1,0.5\n0.7,-0.25\n"));
        let mut classes = open_panel("classification").unwrap();
        let error = classes.import_csv("0,0,0\n1,1,1\n0.5,0.5,2\n").unwrap_err();
        assert_eq!(error.to_string(), "line 3 (0.5, 0.5, 2) is not a row of x₁, x₂, class 0 to 1");
        assert!(error.args().contains(&("classes", "1".to_owned())), "the page words the class range itself");
        classes.import_csv("x1,x2,class\n0,0,0\n1,1,1\n0,1,0\n1,0,1\n").unwrap();
        assert_eq!(classes.export_csv().unwrap().unwrap().lines().count(), 5);
        assert_eq!(open_panel("basis").unwrap().export_csv().unwrap(), None);
    }

    #[test]
    fn moving_the_step_keeps_the_work_done() {
        for name in ["fast-rvm", "classification", "multiclass"] {
            let mut panel = open_panel(name).unwrap();
            while panel.work(crate::solver::Budget::unlimited()) {}
            let done = panel.report().work;
            panel.set("step", "3").unwrap();
            assert_eq!(panel.report().position.map(|p| p.0), Some(3), "{name}");
            assert!(!panel.work(crate::solver::Budget::unlimited()), "{name}: nothing to redo");
            assert_eq!(panel.report().work, done, "{name}");
            panel.set("seed", "5").unwrap();
            assert_eq!(panel.report().position.map(|p| p.0), Some(0), "{name}: new data start again");
        }
    }
}
