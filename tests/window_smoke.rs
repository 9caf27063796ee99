//! Smoke test of the real window under a virtual X server: it opens, renders frames, writes
//! a screenshot through the same code path as F12, and exits 0. Needs `xvfb-run` (the CI
//! script installs it); without it the test fails with a message saying so.

use std::process::Command;

#[test]
fn window_opens_renders_and_writes_a_screenshot() {
    let have_xvfb =
        Command::new("sh").args(["-c", "command -v xvfb-run"]).output().map(|o| o.status.success()).unwrap_or(false);
    assert!(have_xvfb, "xvfb-run is needed for this test: apt-get install xvfb xauth");
    let dir = std::env::temp_dir().join(format!("contactlab-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("window.png");
    let out = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1600x900x24"])
        .arg(env!("CARGO_BIN_EXE_contactlab"))
        .arg(format!("{}/scenes/twisted_boxes.ron", env!("CARGO_MANIFEST_DIR")))
        .args(["--play", "--quit-after", "20", "--screenshot"])
        .arg(&shot)
        .env("WGPU_BACKEND", "vulkan")
        .output()
        .unwrap();
    assert!(out.status.success(), "exit {:?}\nstderr:\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    let img = image::open(&shot).expect("screenshot written").to_rgba8();
    assert!(img.width() >= 800 && img.height() >= 450, "{}x{}", img.width(), img.height());
    // The panel (light egui background) and the 3D view (bodies) are both in the picture.
    let distinct: std::collections::HashSet<[u8; 3]> =
        img.pixels().map(|p| [p.0[0] / 8, p.0[1] / 8, p.0[2] / 8]).collect();
    assert!(distinct.len() > 50, "the screenshot is nearly uniform ({} colours)", distinct.len());
    std::fs::remove_dir_all(&dir).ok();
}
