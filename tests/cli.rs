//! The command line, run as a user would: the real binary, its exit codes, its output and
//! the trace it writes.

use serde_json::Value;
use std::process::Command;

fn contactlab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_contactlab"))
}

fn scene(name: &str) -> String {
    format!("{}/scenes/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn help_documents_every_flag() {
    let out = contactlab().arg("--help").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--headless",
        "--steps",
        "--solver",
        "--iterations",
        "--trace",
        "--trace-every",
        "--screenshot",
        "--size",
        "--overlay",
        "--select",
        "--camera",
        "--clip-stage",
        "--compare",
        "--frames",
        "--every",
        "--scale",
        "--plots",
        "--replay",
        "--theme",
        "--transparent",
        "--labels",
        "--ccd",
        "--threads",
    ] {
        assert!(text.contains(flag), "--help lacks {flag}");
    }
}

#[test]
fn headless_run_prints_the_summary() {
    let out = contactlab().args([&scene("stack_10.ron"), "--headless", "--steps", "120"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for key in [
        "steps            120",
        "bodies           11",
        "awake bodies",
        "contact points   40",
        "max penetration",
        "(deepest over all 120 steps)",
        "penetration now",
        "total energy",
        "mean step time",
    ] {
        assert!(text.contains(key), "summary lacks '{key}':\n{text}");
    }
}

#[test]
fn solver_override_switches_the_method() {
    // The naive method cannot hold the stack: it sinks far more than the iterative one.
    let pen = |solver: &str| {
        let out = contactlab()
            .args([&scene("stack_10.ron"), "--headless", "--steps", "120", "--solver", solver])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let line = text.lines().find(|l| l.starts_with("max penetration")).unwrap().to_string();
        line.split_whitespace().nth(2).unwrap().parse::<f32>().unwrap()
    };
    let (naive, iterative) = (pen("naive"), pen("iterative"));
    assert!(naive > 5.0 * iterative, "naive {naive} vs iterative {iterative}");
}

#[test]
fn trace_matches_the_documented_schema() {
    let dir = std::env::temp_dir().join(format!("contactlab-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.jsonl");
    let out = contactlab()
        .args([
            &scene("box_on_box.ron"),
            "--headless",
            "--steps",
            "30",
            "--trace",
            path.to_str().unwrap(),
            "--trace-every",
            "10",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 1 + 4, "header, step 0 and steps 10, 20, 30");
    let h = &lines[0];
    assert_eq!(h["contactlab_trace"], 1);
    assert_eq!(h["scene"], "Box resting on box");
    assert!((h["timestep"].as_f64().unwrap() - 1.0 / 60.0).abs() < 1e-6);
    assert_eq!(h["bodies"], serde_json::json!(["ground", "base", "box"]));
    let steps: Vec<u64> = lines[1..].iter().map(|s| s["step"].as_u64().unwrap()).collect();
    assert_eq!(steps, vec![0, 10, 20, 30]);
    assert_eq!(lines[1]["contacts"].as_array().unwrap().len(), 0, "step 0 is the initial state");
    assert_eq!(lines[1]["time"], 0.0);
    for s in &lines[1..] {
        let bodies = s["bodies"].as_array().unwrap();
        assert_eq!(bodies.len(), 3);
        for b in bodies {
            assert!(b["name"].is_string() && b["asleep"].is_boolean());
            assert_eq!(b["position"].as_array().unwrap().len(), 3);
            assert_eq!(b["rotation"].as_array().unwrap().len(), 4);
            assert_eq!(b["velocity"].as_array().unwrap().len(), 3);
            assert_eq!(b["angular_velocity"].as_array().unwrap().len(), 3);
        }
    }
    // The box rests on the base: one face contact with four points carrying its weight.
    let last = &lines[4];
    let c = last["contacts"].as_array().unwrap().iter().find(|c| c["b"] == "box").unwrap();
    assert_eq!(c["a"], "base");
    assert!(["face_a", "face_b", "edge"].contains(&c["feature"].as_str().unwrap()));
    let n: Vec<f64> = c["normal"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
    assert!((n[1] - 1.0).abs() < 1e-3, "normal from base to box points up: {n:?}");
    let pts = c["points"].as_array().unwrap();
    assert_eq!(pts.len(), 4);
    let mut total = 0.0;
    for p in pts {
        assert_eq!(p["position"].as_array().unwrap().len(), 3);
        assert!(p["depth"].is_number());
        assert_eq!(p["friction_impulse"].as_array().unwrap().len(), 2);
        total += p["normal_impulse"].as_f64().unwrap();
    }
    // Resting: the normal impulses of one step carry m·g·dt = 0.8³·1000·9.81/60 N·s.
    let expected = 0.512 * 1000.0 * 9.81 / 60.0;
    assert!((total - expected).abs() < 0.02 * expected, "impulse {total} vs weight·dt {expected}");
    std::fs::remove_dir_all(&dir).ok();
}

fn fails_with(args: &[&str], needle: &str) {
    let out = contactlab().args(args).output().unwrap();
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "{args:?}: stderr lacks '{needle}':\n{err}");
    assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
}

#[test]
fn bad_input_exits_non_zero_with_a_message() {
    fails_with(&["no_such_scene.ron", "--headless"], "cannot read scene file no_such_scene.ron");
    fails_with(&[&scene("stack_10.ron"), "--headless", "--solver", "fancy"], "fancy");
    fails_with(&[&scene("stack_10.ron"), "--headless", "--iterations", "0"], "iterations");
    fails_with(&[&scene("stack_10.ron"), "--headless", "--select", "box0,nobody"], "no body is named 'nobody'");
    fails_with(&[&scene("stack_10.ron"), "--headless", "--size", "12by9"], "WIDTHxHEIGHT");
    // An unknown name lists the scene's bodies; a pair overlay without a pair says to pick one.
    fails_with(&[&scene("box_on_box.ron"), "--headless", "--select", "base,boxx"], "bodies are: ground, base, box");
    for o in ["gauss", "minkowski", "clip"] {
        let out = std::env::temp_dir().join("contactlab-never-written.png");
        let args = [&scene("stack_10.ron"), "--headless", "--overlay", o, "--screenshot", out.to_str().unwrap()];
        fails_with(&args, &format!("--overlay {o} draws the selected pair, and none is selected: add --select A,B"));
        let args = [&scene("stack_10.ron"), "--headless", "--view", o, "--screenshot", out.to_str().unwrap()];
        fails_with(&args, &format!("--view {o} draws the selected pair, and none is selected: add --select A,B"));
    }
    let dir = std::env::temp_dir().join(format!("contactlab-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scene(\n  name: \"bad\",\n  bodies: [(name: \"a\", shape: Sphere(radius: -1.0))],\n)\n")
        .unwrap();
    fails_with(&[bad.to_str().unwrap(), "--headless"], "body 'a', field 'radius'");
    std::fs::write(&bad, "Scene(\n  name: \"bad\"\n  bodies: [],\n)\n").unwrap();
    fails_with(&[bad.to_str().unwrap(), "--headless"], "bad.ron:3:");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--scalar` runs the textbook solver path, and `--select` puts what each step did for the
/// pair into the trace (`watched`): a box set down on a box is a new pair (full SAT), then
/// recycled until it falls asleep.
#[test]
fn scalar_flag_and_watched_pair_in_the_trace() {
    let dir = std::env::temp_dir().join(format!("contactlab-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = dir.join("watch.jsonl");
    let out = contactlab()
        .args([&scene("box_on_box.ron"), "--headless", "--steps", "90", "--scalar", "--select", "base,box", "--trace"])
        .arg(&trace)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(lines[1].get("watched").is_none(), "step 0 has no record");
    let paths: Vec<String> = lines[2..]
        .iter()
        .map(|l| {
            let w = &l["watched"][0];
            assert_eq!((w["a"].as_str(), w["b"].as_str()), (Some("base"), Some("box")));
            w["path"].as_str().unwrap().to_string()
        })
        .collect();
    let known = ["asleep", "recycled", "cached_feature", "full_sat"];
    assert!(paths.iter().all(|p| known.contains(&p.as_str())), "{paths:?}");
    assert_eq!(paths[0], "full_sat", "a new pair runs the full SAT");
    assert!(paths.iter().filter(|p| *p == "recycled").count() > 10, "{paths:?}");
    let last = &lines.last().unwrap()["watched"][0];
    assert_eq!(last["points"].as_array().unwrap().len(), 4);
    // Each point's features in words beside the hexadecimal ID (a box's corner on a face).
    for p in last["points"].as_array().unwrap() {
        let words = p["features"].as_str().unwrap_or_default();
        assert!(["vertex", "edge", "corner"].iter().any(|w| words.contains(w)), "{p}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_camera_and_clip_stage_give_clear_errors() {
    let run = |args: &[&str]| {
        let out = contactlab()
            .arg(scene("twisted_boxes.ron"))
            .arg("--headless")
            .args(["--steps", "1"])
            .args(args)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stderr).to_string())
    };
    let (code, err) = run(&["--camera", "1,2,3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("six numbers"), "{err}");
    let (code, err) = run(&["--camera", "1,2,3,1,2,3"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("must differ"), "{err}");
    let (code, err) = run(&["--camera", "1,2,x,0,0,0"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("'x'"), "{err}");
    // A scene without a selected pair of its own (the twisted boxes have one).
    let out = contactlab()
        .args([&scene("dominoes.ron"), "--headless", "--steps", "1", "--clip-stage", "1", "--screenshot", "/dev/null"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--select"), "{err}");
    let (code, err) = run(&["--clip-stage", "99", "--select", "lower,upper", "--screenshot", "/dev/null"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("stage 99 does not exist") && err.contains("stages 0 to"), "{err}");
}

/// `--compare A,B` runs both methods from the same start: side A's trace is exactly the
/// trace of a plain `--solver A` run (the sides share nothing), side B's is another
/// method's run, and each header names its method.
#[test]
fn compare_writes_one_trace_per_side() {
    let dir = std::env::temp_dir().join(format!("contactlab-compare-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |extra: &[&str], trace: &std::path::Path| {
        let out = contactlab()
            .args([&scene("naive_stack.ron"), "--headless", "--steps", "120"])
            .args(extra)
            .arg("--trace")
            .arg(trace)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let text = run(&["--compare", "naive,iterative"], &dir.join("ab.jsonl"));
    assert!(text.contains("side A: Naive") && text.contains("side B: Iterative"), "{text}");
    let solo = run(&["--solver", "naive"], &dir.join("solo.jsonl"));
    assert!(solo.contains("steps            120"));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let (a, b) = (read("ab.a.jsonl"), read("ab.b.jsonl"));
    assert_eq!(a, read("solo.jsonl"), "side A is the plain naive run");
    let header = |t: &str| serde_json::from_str::<Value>(t.lines().next().unwrap()).unwrap();
    assert_eq!(header(&a)["method"], "naive");
    assert_eq!(header(&b)["method"], "iterative");
    assert_eq!(a.lines().count(), 122);
    assert_eq!(b.lines().count(), 122);
    // The naive stack falls while the iterative one stands: the top box's height differs.
    let top_y = |t: &str| {
        let last: Value = serde_json::from_str(t.lines().last().unwrap()).unwrap();
        last["bodies"].as_array().unwrap().last().unwrap()["position"][1].as_f64().unwrap()
    };
    assert!(top_y(&b) - top_y(&a) > 1.0, "top box: naive {} m, iterative {} m", top_y(&a), top_y(&b));
    fails_with(&[&scene("stack_10.ron"), "--headless", "--compare", "naive"], "--compare: expected two methods");
    fails_with(&[&scene("stack_10.ron"), "--headless", "--compare", "naive,fancy"], "fancy");
    fails_with(
        &[&scene("stack_10.ron"), "--headless", "--compare", "naive,iterative", "--solver", "naive"],
        "cannot be used with",
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `contactlab diff`: two runs of the same scene are identical (exit 0); the scalar path
/// differs from the SIMD one by rounding at a named step and body (exit 1), within a
/// tolerance that says so; a missing file is an error (exit 2).
#[test]
fn diff_names_where_two_traces_part() {
    let dir = std::env::temp_dir().join(format!("contactlab-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let trace = |name: &str, extra: &[&str]| {
        let path = dir.join(name);
        let out = contactlab()
            .args([&scene("box_on_box.ron"), "--headless", "--steps", "60", "--trace"])
            .arg(&path)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        path
    };
    let (a, b, c) = (trace("a.jsonl", &[]), trace("b.jsonl", &[]), trace("c.jsonl", &["--scalar"]));
    let diff = |x: &std::path::Path, y: &std::path::Path, extra: &[&str]| {
        let out = contactlab().arg("diff").arg(x).arg(y).args(extra).output().unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, text) = diff(&a, &b, &[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("identical"), "{text}");
    let (code, text) = diff(&a, &c, &[]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("first difference at step") && text.contains("body 'box'"), "{text}");
    let (code, text) = diff(&a, &c, &["--tolerance", "1e-4"]);
    assert_eq!(code, Some(0), "rounding only: {text}");
    fails_with(&["diff", a.to_str().unwrap(), "/no/such/trace.jsonl"], "cannot read trace /no/such/trace.jsonl");
    fails_with(&["diff", a.to_str().unwrap(), b.to_str().unwrap(), "--tolerance", "-1"], "expected a number");
    std::fs::remove_dir_all(&dir).ok();
}

/// `--frames N --every K --screenshot OUT.gif`: one animated GIF of N frames of the asked
/// size, K steps apart from step 0; with OUT.png, N numbered PNG files.
#[test]
fn frames_write_an_animated_gif_or_numbered_pngs() {
    use image::AnimationDecoder;
    let dir = std::env::temp_dir().join(format!("contactlab-frames-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gif = dir.join("drop.gif");
    let out = contactlab()
        .args([&scene("single_box_drop.ron"), "--headless", "--frames", "6", "--every", "4", "--size", "200x120"])
        .arg("--screenshot")
        .arg(&gif)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // The frames start at step 0 and are 4 steps apart: the summary counts the 20 steps run.
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("steps            20"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let file = std::io::BufReader::new(std::fs::File::open(&gif).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(file).unwrap().into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), 6);
    for f in &frames {
        assert_eq!(f.buffer().dimensions(), (200, 120));
        // 4 steps of 1/60 s between frames: 67 ms, 7 centiseconds in a GIF.
        assert_eq!(f.delay().numer_denom_ms(), (70, 1));
    }
    // The box falls: the first and last frames differ.
    assert_ne!(frames[0].buffer(), frames[5].buffer(), "the frames show motion");
    let png = dir.join("seq.png");
    let out = contactlab()
        .args([&scene("single_box_drop.ron"), "--headless", "--steps", "10", "--frames", "3", "--size", "160x90"])
        .arg("--screenshot")
        .arg(&png)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for k in 0..3 {
        let img = image::open(dir.join(format!("seq_{k:04}.png"))).unwrap();
        assert_eq!((img.width(), img.height()), (160, 90));
    }
    assert!(!dir.join("seq_0003.png").exists());
    fails_with(&[&scene("single_box_drop.ron"), "--headless", "--frames", "3"], "--screenshot");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn plots_csv_has_a_row_per_step_and_free_fall_matches_the_closed_form() {
    let dir = std::env::temp_dir().join(format!("contactlab-plots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("drop.csv");
    let out = contactlab()
        .args(["--headless", "--steps", "60", "--select", "box,ground", "--plots"])
        .arg(&csv)
        .arg(scene("single_box_drop.ron"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap_or_else(|| panic!("no column {name}"));
    let rows: Vec<Vec<String>> = lines.map(|l| l.split(',').map(String::from).collect()).collect();
    assert_eq!(rows.len(), 60, "one row per step");
    assert!(rows.iter().all(|r| r.len() == header.len()));
    let num = |r: &Vec<String>, c: &str| r[col(c)].parse::<f64>().unwrap();
    // Step 10 (t = 1/6 s): still falling freely (the box starts 2 m up, its lowest corner
    // about 1.2 m up). Speed g·t, kinetic energy ½·m·(g·t)², total energy as at the start.
    let r = &rows[9];
    let t = num(r, "time_s");
    assert!((t - 10.0 / 60.0).abs() < 1e-6);
    let m = 1000.0; // unit cube, density 1000
    let v = num(r, "body_speed_m_per_s");
    let g = 9.81;
    // Semi-implicit Euler: v = g·n·dt exactly after n steps.
    assert!((v - g * t).abs() < 1e-3, "speed {v} vs {}", g * t);
    assert!((num(r, "kinetic_J") - 0.5 * m * v * v).abs() < 0.5, "kinetic {}", num(r, "kinetic_J"));
    // Position after N = 10 steps × 4 substeps of semi-implicit Euler: y₀ − g·t²·(1 + 1/N)/2.
    let y = num(r, "body_height_m");
    assert!((y - (2.0 - g * t * t * (1.0 + 1.0 / 40.0) / 2.0)).abs() < 1e-4, "height {y}");
    assert_eq!(num(r, "contact_points"), 0.0);
    // The iterative method records its convergence.
    assert!(!rows[59][col("residual_first_Ns")].is_empty());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn replay_of_a_missing_trace_is_a_clear_error() {
    let out = contactlab().args(["--replay", "/nonexistent/run.jsonl"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--replay") && err.contains("/nonexistent/run.jsonl"), "{err}");
}

/// `--clip-stage all` writes one captioned picture per clip stage, and `--clip-strip` one
/// strip of them all: the captions differ from stage to stage (pixels in the caption's line),
/// and the strip is the stages side by side.
#[test]
fn clip_stages_as_captioned_pictures_and_a_strip() {
    let dir = std::env::temp_dir().join(format!("contactlab-clip-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, strip) = (dir.join("clip.png"), dir.join("strip.png"));
    // One step of the twisted boxes with their clip shown, and `extra` flags.
    let clip_run = |extra: &[&str]| {
        contactlab()
            .args([&scene("twisted_boxes.ron"), "--headless", "--steps", "1", "--overlay", "clip"])
            .args(["--select", "lower,upper"])
            .args(extra)
            .output()
            .unwrap()
    };
    let run = clip_run(&[
        "--size",
        "480x320",
        "--clip-stage",
        "all",
        "--screenshot",
        out.to_str().unwrap(),
        "--clip-strip",
        strip.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let stages: Vec<image::RgbaImage> = (0..)
        .map(|k| dir.join(format!("clip_{k}.png")))
        .take_while(|p| p.exists())
        .map(|p| image::open(p).unwrap().to_rgba8())
        .collect();
    // Two boxes in face contact: the incident face, four side planes, kept, reduced.
    assert_eq!(stages.len(), 7);
    // The caption's line: below the title and the pair's path line.
    let caption = |img: &image::RgbaImage| -> Vec<u8> {
        (52..72).flat_map(|y| (0..300).flat_map(move |x| img.get_pixel(x, y).0)).collect()
    };
    for k in 1..stages.len() {
        assert_ne!(caption(&stages[k - 1]), caption(&stages[k]), "stages {} and {k} have the same caption", k - 1);
    }
    let s = image::open(&strip).unwrap().to_rgba8();
    assert_eq!(s.dimensions(), (7 * 480, 320));
    assert_eq!(*s.get_pixel(2 * 480 + 10, 60), *stages[2].get_pixel(10, 60), "stage 2 is third in the strip");
    // A strip beside a plain screenshot writes both; the series needs a headless run of one method.
    let (plain, strip2) = (dir.join("plain.png"), dir.join("strip2.png"));
    let run = clip_run(&[
        "--size",
        "320x200",
        "--clip-strip",
        strip2.to_str().unwrap(),
        "--screenshot",
        plain.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(plain.exists() && strip2.exists());
    let run = clip_run(&["--compare", "naive,iterative", "--clip-strip", strip2.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("a headless run of one method"));
    // Without `--select` the strip draws the scene's own selected pair (lower, upper): the
    // same picture; a scene with no pair of its own asks for one.
    let strip3 = dir.join("strip3.png");
    let run = contactlab()
        .args([&scene("twisted_boxes.ron"), "--headless", "--steps", "1", "--overlay", "clip", "--size", "320x200"])
        .args(["--clip-strip", strip3.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(std::fs::read(&strip2).unwrap(), std::fs::read(&strip3).unwrap());
    let run = contactlab()
        .args([&scene("dominoes.ron"), "--headless", "--steps", "1", "--clip-strip", strip3.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("select a pair with --select A,B"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--threads N` sets the thread count and changes no number of the run: the traces of one
/// and three threads are the same bytes apart from the timings; a count past 64 is refused.
#[test]
fn threads_flag_changes_nothing_but_the_threads() {
    let dir = std::env::temp_dir().join(format!("contactlab-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut traces = Vec::new();
    for n in ["1", "3"] {
        let path = dir.join(format!("t{n}.jsonl"));
        let out = contactlab()
            .args([&scene("hull_pile.ron"), "--headless", "--steps", "90", "--threads", n, "--trace"])
            .arg(&path)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&path).unwrap();
        // Drop the timings (they differ from run to run); keep every other field.
        let lines: Vec<Value> = text
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                strip_timings(&mut v);
                v
            })
            .collect();
        traces.push(lines);
    }
    assert_eq!(traces[0].len(), 92, "a header and steps 0 to 90");
    assert!(traces[0] == traces[1], "the traces of one and three threads differ");
    let out = contactlab().args([&scene("stack_10.ron"), "--headless", "--threads", "65"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Removes every field whose name ends in `_ms` (timings), at any depth.
fn strip_timings(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|k, _| !k.ends_with("_ms") && k != "profile");
            m.values_mut().for_each(strip_timings);
        }
        Value::Array(a) => a.iter_mut().for_each(strip_timings),
        _ => {}
    }
}

/// The Minkowski figure's legend names what the figure has: the resting boxes' difference
/// has no edge × edge face and its nearest face passes through the origin (no arrow to
/// key); the crossed edges' has edge × edge faces. The separation that rounds to zero is
/// written without a sign.
#[test]
fn the_minkowski_legend_names_what_the_figure_has() {
    let dir = std::env::temp_dir().join(format!("contactlab-mk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let texts = |name: &str, steps: &str| {
        let out = dir.join(format!("{name}.svg"));
        let status = contactlab()
            .args([
                &scene(&format!("{name}.ron")),
                "--headless",
                "--steps",
                steps,
                "--view",
                "minkowski",
                "--screenshot",
            ])
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        let svg = std::fs::read_to_string(&out).unwrap();
        let doc = roxmltree::Document::parse(&svg).unwrap();
        doc.descendants()
            .filter(|n| n.has_tag_name("text"))
            .map(|n| n.text().unwrap_or("").to_string())
            .collect::<Vec<_>>()
    };
    let resting = texts("box_on_box", "60");
    assert!(resting.iter().any(|s| s == "nearest face (the winner)"), "{resting:?}");
    assert!(!resting.iter().any(|s| s == "edge × edge" || s == "origin to nearest face"), "{resting:?}");
    assert!(resting.iter().any(|s| s == "separation 0.0000 m"), "{resting:?}");
    let crossed = texts("crossed_edges", "1");
    assert!(crossed.iter().any(|s| s == "edge × edge"), "{crossed:?}");
    std::fs::remove_dir_all(&dir).ok();
}
