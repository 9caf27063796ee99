//! The testbed in a browser (compiled for `wasm32` only): the scene a page's link opens, the
//! page's own equivalents of what the desktop does with files, and what the page shows its
//! scripts. The app itself — [`Testbed`], panel, views — is the desktop's
//! ([`super::window::start_web`] runs it on a canvas).
//!
//! - Links: `?scene=NAME` opens a shipped scene, `?method=KEY` picks the method,
//!   `#ron=…` carries a whole scene ([`crate::scene::share`]); "Share link" writes the
//!   running scene, with the panel's settings and the camera, into such a link.
//! - Files: "Open…" is the browser's file picker (a `.ron` scene and the `.obj` files it
//!   reads, kept for the session by [`crate::scene::bundle`]); screenshots, GIFs and the
//!   plots' CSV arrive as downloads ([`super::page::download`]).
//! - Scripts: `contactlab_status()` returns the step, body count, method, scene, frame
//!   count, the mean physics step time of the steps taken (`step_ms`, the world's own
//!   profile through the browser's clock) and `bench_ms` as JSON, `contactlab_set_method(key)` switches the method as the panel does, and
//!   `contactlab_share()` asks for a share link (it appears in the status) and
//!   `contactlab_open()` is "Open…"; `contactlab_bench(n)` times the scene's first n steps
//!   (`bench_ms`). Requests wait in
//!   a queue that the window takes at the start of each frame ([`take_requests`]).
//!
//! Limits: the browser's clipboard is written but not read (egui's copy and paste stay
//! inside the page); the view is captured at 1× only.

use super::page::fail;
use super::testbed::Testbed;
use crate::physics::SolverMode;
use crate::scene::{self, bundle};
use std::cell::RefCell;
use std::path::PathBuf;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// What the page asked of the running testbed.
enum Request {
    /// Switch side A's method.
    Method(SolverMode),
    /// Load a scene file the picker brought (by file name).
    Load(String),
    /// Write a share link for the running scene.
    Share,
    /// Say this in the status line (the outcome of something the browser finished later).
    Say(String),
    /// Time the scene's first n steps ([`bench`]).
    Bench(u32),
}

thread_local! {
    static REQUESTS: RefCell<Vec<Request>> = const { RefCell::new(Vec::new()) };
    /// The last status, as JSON.
    static STATUS: RefCell<String> = const { RefCell::new(String::new()) };
    /// The last share link written.
    static LINK: RefCell<String> = const { RefCell::new(String::new()) };
    /// Frames drawn, and the graphics backend in use.
    static FRAMES: RefCell<(u64, String)> = const { RefCell::new((0, String::new())) };
    /// The page's step timer: the step last seen, and the sum and count of the physics
    /// step times (the world's own profile) of the frames that stepped.
    static TIMER: RefCell<(u64, f64, u32)> = const { RefCell::new((0, 0.0, 0)) };
    /// `contactlab_bench(n)`: the mean time of the first n steps of the scene (ms; 0 before),
    /// and how many timings were made.
    static BENCH: RefCell<(f64, u32)> = const { RefCell::new((0.0, 0)) };
}

fn request(r: Request) {
    REQUESTS.with(|q| q.borrow_mut().push(r));
}

/// The testbed the page's address asks for: a `#ron=` scene, else `?scene=NAME`, else the
/// default scene; `?method=KEY` then picks the method. A link that cannot be opened shows
/// why on the page and opens the default scene.
pub fn first_testbed() -> Testbed {
    std::panic::set_hook(Box::new(|info| fail(&format!("contactlab stopped: {info}"))));
    if log::set_logger(&Console).is_ok() {
        log::set_max_level(log::LevelFilter::Warn);
    }
    let location = web_sys::window().map(|w| w.location());
    let search = location.as_ref().and_then(|l| l.search().ok()).unwrap_or_default();
    let hash = location.as_ref().and_then(|l| l.hash().ok()).unwrap_or_default();
    let param = |key: &str| {
        search.trim_start_matches('?').split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=')?;
            (k == key).then(|| js_sys::decode_uri_component(v).ok().and_then(|s| s.as_string())).flatten()
        })
    };
    let opened = if let Some(link) = hash.strip_prefix("#ron=") {
        scene::share::decode(link).and_then(|text| {
            bundle::add("link.ron", text);
            open(PathBuf::from("link.ron"))
        })
    } else if let Some(name) = param("scene") {
        let file = if name.ends_with(".ron") { name } else { format!("{name}.ron") };
        open(scene::scenes_dir().join(file))
    } else {
        open(scene::scenes_dir().join(scene::DEFAULT_SCENE))
    };
    let mut t = opened.unwrap_or_else(|e| {
        fail(&format!("This link's scene could not be opened: {e}"));
        open(scene::scenes_dir().join(scene::DEFAULT_SCENE)).expect("the default scene is shipped")
    });
    if let Some(key) = param("method") {
        match SolverMode::from_key(&key) {
            Some(m) => t.set_mode(m),
            None => fail(&format!("?method={key}: not a method (naive, iterative, cyclone, averaged)")),
        }
    }
    t
}

/// The `log` crate's messages (warnings and errors) on the browser's console.
struct Console;

impl log::Log for Console {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn
    }
    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            let text = format!("{}: {}", r.target(), r.args());
            match r.level() {
                log::Level::Error => web_sys::console::error_1(&text.into()),
                _ => web_sys::console::warn_1(&text.into()),
            }
        }
    }
    fn flush(&self) {}
}

fn open(path: PathBuf) -> Result<Testbed, String> {
    let s = scene::load(&path).map_err(|e| e.to_string())?;
    Ok(Testbed::new(s, Some(path)))
}

/// Applies what the page asked for since the last frame, then publishes the status.
pub fn take_requests(t: &mut Testbed) {
    for r in REQUESTS.with(|q| std::mem::take(&mut *q.borrow_mut())) {
        match r {
            Request::Method(m) => t.set_mode(m),
            Request::Load(name) => {
                if t.load(scene::scenes_dir().join(&name)).is_ok() {
                    t.tools.status = format!("opened {name}");
                }
            }
            Request::Share => share(t),
            Request::Say(s) => t.tools.status = s,
            Request::Bench(n) => bench(t, n),
        }
    }
    let (frames, backend) = FRAMES.with(|f| {
        let mut f = f.borrow_mut();
        f.0 += 1;
        (f.0, f.1.clone())
    });
    let w = t.world();
    let step_ms = TIMER.with(|timer| {
        let mut timer = timer.borrow_mut();
        if w.step_count < timer.0 {
            *timer = (w.step_count, 0.0, 0);
        } else if w.step_count > timer.0 && w.profile.total_ms > 0.0 {
            *timer = (w.step_count, timer.1 + w.profile.total_ms as f64, timer.2 + 1);
        }
        if timer.2 > 0 {
            timer.1 / timer.2 as f64
        } else {
            0.0
        }
    });
    let status = serde_json::json!({
        "step": w.step_count,
        "bodies": w.bodies().len(),
        "method": w.settings.mode.key(),
        "scene": t.session.scene.desc.name,
        "playing": t.session.playing,
        "frames": frames,
        "backend": backend,
        "status": t.tools.status,
        "link": LINK.with(|l| l.borrow().clone()),
        "step_ms": step_ms,
        "bench_ms": BENCH.with(|b| b.borrow().0),
        "bench_runs": BENCH.with(|b| b.borrow().1),
    });
    STATUS.with(|s| *s.borrow_mut() = status.to_string());
}

/// The page's step timer: the mean time (ms) of the first `n` steps of the scene as loaded,
/// on a copy of its world (the running one goes on), through the browser's clock: the
/// figure to set beside the native `--headless --steps n` mean (docs/BENCHMARKS.md).
fn bench(t: &Testbed, n: u32) {
    let (mut world, dt) = (t.session.scene.world.clone(), t.session.timestep());
    // With the method and settings side A runs now.
    world.settings = t.world().settings;
    let start = web_time::Instant::now();
    for _ in 0..n {
        world.step(dt);
    }
    let ms = start.elapsed().as_secs_f64() * 1000.0 / n.max(1) as f64;
    BENCH.with(|b| {
        let mut b = b.borrow_mut();
        *b = (ms, b.1 + 1);
    });
}

/// Says which graphics backend draws (shown to scripts in the status).
pub fn set_backend(name: &str) {
    FRAMES.with(|f| f.borrow_mut().1 = name.to_string());
}

/// The running scene — with the panel's settings and the camera as they are — as a link to
/// this page; it replaces the address shown (so a reload keeps it) and goes to the
/// clipboard.
pub fn share(t: &mut Testbed) {
    let mut desc = t.session.scene.desc.clone();
    desc.solver = t.world().settings;
    desc.camera = Some(t.view.camera.desc());
    let text = match scene::share::scene_text(&desc) {
        Ok(text) => text,
        Err(e) => {
            t.tools.status = format!("no link: {e}");
            return;
        }
    };
    let Some(window) = web_sys::window() else { return };
    let location = window.location();
    let base =
        format!("{}{}", location.origin().unwrap_or_default(), location.pathname().unwrap_or_else(|_| "/".into()));
    let link = format!("{base}#ron={}", scene::share::encode(&text));
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&link));
    }
    let copy = window.navigator().clipboard().write_text(&link);
    let n = link.len();
    t.tools.status = format!("share link in the address bar ({n} characters)");
    LINK.with(|l| *l.borrow_mut() = link);
    // The browser may refuse the clipboard (a page without focus): the address bar has it.
    wasm_bindgen_futures::spawn_local(async move {
        let said = match wasm_bindgen_futures::JsFuture::from(copy).await {
            Ok(_) => format!("share link copied ({n} characters; also in the address bar)"),
            Err(_) => format!("share link in the address bar ({n} characters; the browser refused the clipboard)"),
        };
        request(Request::Say(said));
    });
}

/// "Open…": the browser's file picker for a `.ron` scene and the `.obj` files it reads. The
/// files are kept for the session; the first scene among them is loaded at the next frame.
pub fn open_files() {
    let Some(input) = super::page::file_input() else { return };
    let picked = input.clone();
    let on_change = Closure::once_into_js(move || {
        let Some(files) = picked.files() else { return };
        wasm_bindgen_futures::spawn_local(async move {
            let mut scene_file = None;
            for k in 0..files.length() {
                let Some(file) = files.get(k) else { continue };
                let Ok(text) = wasm_bindgen_futures::JsFuture::from(file.text()).await else { continue };
                let name = file.name();
                bundle::add(&name, text.as_string().unwrap_or_default());
                if name.ends_with(".ron") && scene_file.is_none() {
                    scene_file = Some(name);
                }
            }
            if let Some(name) = scene_file {
                request(Request::Load(name));
            }
        });
    });
    input.set_onchange(Some(on_change.unchecked_ref()));
    input.set_value("");
    input.click();
}

/// The testbed's status for scripts: JSON with `step`, `bodies`, `method`, `scene`,
/// `playing`, `frames`, `backend`, `status`, `link`, `step_ms`, `bench_ms` and `bench_runs`.
#[wasm_bindgen]
pub fn contactlab_status() -> String {
    STATUS.with(|s| s.borrow().clone())
}

/// Switches the method as the panel does (`naive`, `iterative`, `cyclone`, `averaged`);
/// false for another name.
#[wasm_bindgen]
pub fn contactlab_set_method(key: &str) -> bool {
    match SolverMode::from_key(key) {
        Some(m) => {
            request(Request::Method(m));
            true
        }
        None => false,
    }
}

/// Asks for a share link of the running scene ("Share link"); it appears in the status.
#[wasm_bindgen]
pub fn contactlab_share() {
    request(Request::Share);
}

/// Times the first `n` steps of the scene as loaded ([`bench`]); the mean appears in the
/// status as `bench_ms`.
#[wasm_bindgen]
pub fn contactlab_bench(n: u32) {
    request(Request::Bench(n));
}

/// "Open…": opens the browser's file picker, through the page's file input.
#[wasm_bindgen]
pub fn contactlab_open() {
    open_files();
}
