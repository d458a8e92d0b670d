use plotters::prelude::*;
use rvm_lab::app::{AnyPanel, PanelModel};
use rvm_lab::plot::Labels;
#[test]
fn dump() {
    for name in ["basis", "least-squares", "gradient-descent", "regularisation"] {
        let mut p = AnyPanel::new(name).unwrap();
        while p.work(1_000_000) {}
        for (w, h) in [(1100u32, 600u32), (360, 900)] {
            let mut s = String::new();
            let a = {
                let root = SVGBackend::with_string(&mut s, (w, h)).into_drawing_area();
                p.draw(&root, 1.0, &Labels::default()).unwrap()
            };
            println!("{name} {w}x{h}: {a:?}");
            std::fs::write(format!("/tmp/svgdump/{name}_{w}.svg"), s).unwrap();
        }
    }
}
