//! The comparisons beside a panel's own run — classic and EM beside the fast RVM, the classic
//! sweeps beside the classifiers — computed elsewhere (as the page's worker does: the same
//! panel opened from the permalink's query, its outcomes sent as numbers and text) and adopted
//! give the methods table the same numbers, to the bit, as the comparisons run in the panel's
//! own work; outcomes for other inputs are not taken, nor ones that would show NaN.

use rvm_lab::app::background::{Outcome, decode_outcomes, encode_outcomes};
use rvm_lab::app::{Cell, PanelModel, Table, open_panel};
use rvm_lab::solver::Budget;

/// `name` with the state `query`, its work done (the comparisons too, unless they are left to
/// run elsewhere).
fn worked(name: &str, query: &[(String, String)], elsewhere: bool) -> Box<dyn PanelModel> {
    let mut panel = open_panel(name).unwrap();
    assert!(panel.apply_query(query).is_empty(), "{name}: the query applies");
    panel.run_comparisons_elsewhere(elsewhere);
    while panel.work(Budget::units(5_000)) {}
    panel
}

/// The methods table, without its time column (the time a run took where it ran).
fn methods(panel: &dyn PanelModel) -> Vec<Vec<Cell>> {
    let report = panel.report();
    let table: &Table = report.tables.iter().find(|t| t.key.ends_with("methods")).expect("a methods table");
    let time = table.columns.iter().position(|&c| c == "time-ms").unwrap();
    table
        .rows
        .iter()
        .map(|row| row.iter().enumerate().filter(|&(i, _)| i != time).map(|(_, c)| c.clone()).collect())
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|&(k, v)| (k.to_owned(), v.to_owned())).collect()
}

/// What the worker sends: its comparisons' fingerprint and outcomes, through their encoding.
fn sent(worker: &mut dyn PanelModel) -> (u64, Vec<Outcome>) {
    let (fingerprint, outcomes, elsewhere) = worker.comparisons().expect("the worker's panel has comparisons");
    assert!(!elsewhere);
    let (numbers, failures) = encode_outcomes(&outcomes);
    let decoded = decode_outcomes(&numbers, &failures).unwrap();
    assert_eq!(decoded, outcomes, "outcomes read back as they were written");
    (fingerprint, decoded)
}

#[test]
fn comparisons_from_elsewhere_give_the_rows_of_comparisons_run_here() {
    let cases = [
        ("fast-rvm", pairs(&[])),
        ("fast-rvm", pairs(&[("N", "80"), ("seed", "7"), ("noise", "0.3")])),
        ("fast-rvm", pairs(&[("basis", "gaussian"), ("M", "12"), ("N", "40")])),
        ("classification", pairs(&[])),
        ("classification", pairs(&[("N", "60"), ("seed", "3")])),
        ("poisson", pairs(&[])),
    ];
    for (name, query) in cases {
        let here = worked(name, &query, false);
        let mut main = worked(name, &query, true);
        let (fingerprint, pending, elsewhere) = main.comparisons().unwrap();
        assert!(elsewhere && pending.iter().any(|o| !o.is_done()), "{name} {query:?}: the comparisons wait");
        assert!(pending.iter().all(|o| o.row.is_none_or(|r| r.steps == 0)), "{name}: no sweep taken here");
        // The worker opens the panel from the main page's permalink.
        let mut worker = worked(name, &main.query(), false);
        let (from, outcomes) = sent(worker.as_mut());
        assert_eq!(from, fingerprint, "{name} {query:?}: the worker's inputs are the page's");
        // Outcomes for other inputs are not taken.
        assert!(!main.adopt_comparisons(fingerprint ^ 1, outcomes.clone()).unwrap());
        assert!(main.adopt_comparisons(fingerprint, outcomes).unwrap());
        assert!(main.comparisons().unwrap().1.iter().all(Outcome::is_done));
        assert_eq!(methods(main.as_ref()), methods(here.as_ref()), "{name} {query:?}");
        assert!(!main.work(Budget::unlimited()), "nothing left to do");
    }
}

#[test]
fn partial_outcomes_show_as_running_and_the_page_can_take_the_work_back() {
    let mut main = worked("fast-rvm", &[], true);
    let mut worker = open_panel("fast-rvm").unwrap();
    worker.apply_query(&main.query());
    // A few slices in: the rows say running.
    for _ in 0..3 {
        worker.work(Budget::units(2_000));
    }
    let (fingerprint, outcomes) = sent(worker.as_mut());
    assert!(outcomes.iter().any(|o| !o.is_done()));
    assert!(main.adopt_comparisons(fingerprint, outcomes).unwrap());
    let (done, all) = main.report().work.unwrap();
    assert!(done < all, "the progress bar shows the worker's part still to come ({done}/{all})");
    assert!(methods(main.as_ref()).iter().any(|row| row.last() == Some(&Cell::Label("running"))));
    // The worker failed: the comparisons run here again, to the rows run here give.
    main.run_comparisons_elsewhere(false);
    while main.work(Budget::units(5_000)) {}
    assert_eq!(methods(main.as_ref()), methods(worked("fast-rvm", &[], false).as_ref()));
}

#[test]
fn outcomes_that_would_show_nan_are_refused_and_the_rows_stay() {
    let mut main = worked("classification", &[], true);
    let mut worker = worked("classification", &main.query(), false);
    let (fingerprint, mut outcomes) = sent(worker.as_mut());
    let before = methods(main.as_ref());
    let row = outcomes[0].row.as_mut().unwrap();
    row.log_ml = f64::NAN;
    let error = main.adopt_comparisons(fingerprint, outcomes).unwrap_err();
    assert_eq!(error.code(), "overflow");
    assert_eq!(methods(main.as_ref()), before);
}

#[test]
fn outcomes_that_are_not_outcomes_are_refused() {
    let good = [3.0, 10.0, 1.0, 3.0, 1.5, -2.0, 4.0, 3.0];
    assert_eq!(decode_outcomes(&good, "").unwrap()[0].row.unwrap().steps, 3);
    assert_eq!(decode_outcomes(&good[..7], "").unwrap_err().code(), "dimension-mismatch");
    assert_eq!(decode_outcomes(&good, "a\nb").unwrap_err().code(), "dimension-mismatch");
    for (at, bad) in [(0, -1.0), (3, 2.5), (6, f64::NAN), (7, 4.0)] {
        let mut numbers = good;
        numbers[at] = bad;
        assert_eq!(decode_outcomes(&numbers, "").unwrap_err().code(), "out-of-range", "number {at} = {bad}");
    }
    assert!(decode_outcomes(&[], "").unwrap().is_empty());
}
