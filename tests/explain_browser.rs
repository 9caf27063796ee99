//! A worked example seen as a reader sees it: headless Chromium opens the generated
//! `index.html` and takes a screenshot (into `target/explain-test/`), which must show the
//! page's text and its inline figures. Ignored in `cargo test` (it needs Chromium);
//! `.ci/run` runs it:
//!
//! ```sh
//! apt-get install chromium
//! cargo test --test explain_browser -- --ignored --nocapture
//! ```

use contactlab::app::explain;
use contactlab::scene;
use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs chromium: cargo test --test explain_browser -- --ignored --nocapture"]
fn chromium_shows_the_worked_example_with_its_figures() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = root.join("target/explain-test");
    let path = scene::scenes_dir().join("twisted_boxes.ron");
    let s = scene::load(&path).unwrap();
    let (a, b) = (s.body_index("lower").unwrap(), s.body_index("upper").unwrap());
    let doc = explain::explain(s, "scenes/twisted_boxes.ron", 1, (a, b), Some((960, 600))).unwrap();
    let written = explain::write(&doc, &out).unwrap();
    let shot = out.join("page.png");
    std::fs::remove_file(&shot).ok();
    let html = std::fs::canonicalize(&written.html).unwrap();
    let status = Command::new("chromium")
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1000,2600"])
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", html.display()))
        .status()
        .expect("chromium runs (apt-get install chromium)");
    assert!(status.success(), "chromium failed");
    let img = image::open(&shot).expect("a screenshot").to_rgba8();
    eprintln!("screenshot: {}", shot.display());
    // Text: dark pixels in the title's band.
    let dark = |x0: u32, y0: u32, x1: u32, y1: u32| {
        (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .filter(|&(x, y)| img.get_pixel(x, y).0[..3].iter().all(|&c| c < 90))
            .count()
    };
    assert!(dark(0, 0, 1000, 80) > 500, "the title is drawn");
    // The first figure (the scene): the view's light background and the bodies' yellow
    // selection outline, somewhere below the first tables.
    let count = |want: [u8; 3], tol: i32| {
        img.pixels().filter(|p| (0..3).all(|i| (p.0[i] as i32 - want[i] as i32).abs() <= tol)).count()
    };
    let background = count([235, 238, 243], 6);
    let outline = count([255, 236, 110], 40);
    assert!(background > 20_000, "the scene figure's background shows: {background} pixels");
    assert!(outline > 200, "the selected pair's outline shows: {outline} pixels");
}
