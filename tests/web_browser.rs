//! The browser build (issue 36), in headless Chromium: `web/test_browser.py` loads `dist/`
//! from a static server on 127.0.0.1 with software rendering and checks that the page draws
//! the default scene, steps on ".", switches methods, opens `?scene=` and `#ron=` links and
//! logs no error. Ignored in `cargo test` (it needs the web build and Chromium; `.ci/run`
//! runs the script itself):
//!
//! ```sh
//! apt-get install chromium chromium-driver
//! web/build.sh && cargo test --test web_browser -- --ignored --nocapture
//! ```

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs web/build.sh and chromium: web/build.sh && cargo test --test web_browser -- --ignored --nocapture"]
fn the_browser_build_draws_steps_switches_methods_and_opens_links() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(root.join("dist/index.html").is_file(), "dist/ is not built: run web/build.sh first");
    let status = Command::new("python3").arg(root.join("web/test_browser.py")).status().expect("python3 runs");
    assert!(status.success(), "the browser checks failed (their output is above)");
}
