//! contactlab against parry3d, rapier3d, box3d-rust and the upstream Box3D (C), in one run
//! on one machine:
//!
//! ```text
//! cargo bench -p contactlab-peers                 # everything, then the ratio table
//! cargo bench -p contactlab-peers -- pyramid      # only rows whose name contains "pyramid"
//! PEERS_QUICK=1 cargo bench -p contactlab-peers   # a tenth of the world steps (smoke run)
//! cargo bench -p contactlab-peers --features rapier-parallel -- NAME   # with rapier3d's threads
//! ```
//!
//! On a machine of several cores every world row also runs contactlab and the upstream Box3D
//! on every core ("contactlab mt", "box3d (C) mt"; with the feature, "rapier3d mt"), and the
//! threads table sets each against its own one-thread row.
//!
//! Narrow phase: criterion benchmarks (`iter_custom`, so the table reports the median of the
//! very samples criterion took). Whole worlds: a fixed protocol — every engine steps the same
//! mirrored world the same number of steps from the same initial state, the engines taking
//! turns in 20 segments of steps (so a drift in machine speed hits all alike), and the mean
//! time per step is reported with the quality figures at the end (criterion's resampling
//! would let each engine run a different number of steps of an evolving pile). As in Box3D's
//! own benchmark runner, each engine's first step is left out of the mean ("Initial step can
//! be expensive and skew benchmark"): it is where an engine that files its bodies lazily
//! (contactlab's grid) does what another did while the bodies were created (Box3D's tree),
//! untimed. It is timed on its own and reported in a table of its own. The table is printed
//! and written to `target/peers-table.md`.

use contactlab::physics::World;
use contactlab::scene::stock::{barrage, box_pile, heightfield_pile, hull_pile, joint_grid, pyramid};
use contactlab_peers::narrow::{engines, pairs, wobble};
use contactlab_peers::{
    below_terrain, contactlab_settings, escaped, joint_error, joint_error_over_run, max_penetration, out_of_washer,
    Box3d, Contactlab, ContactlabDefault, Engine, Rapier, RowScript,
};
use criterion::{black_box, Criterion};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

struct NarrowRow {
    label: String,
    engine: &'static str,
    ns: f64,
    points: usize,
}

struct WorldRow {
    scene: String,
    engine: &'static str,
    bodies: usize,
    /// Mean per step, the first step left out.
    ms: f64,
    /// The first step alone.
    first_ms: f64,
    max_penetration: f32,
    drift: Option<f32>,
    /// Largest and mean anchor separation of the ball joints at the end (m).
    joint_error: Option<(f32, f32)>,
    /// The same after every segment of the run, untimed (m): the largest of the samples'
    /// largest, and the means of their largest and of their means. A net that still swings
    /// is caught anywhere in its swing by one snapshot at the end.
    joint_error_run: Option<(f32, f32, f32)>,
    /// The barrage: bodies outside the room at the end (the heightfield: below the terrain;
    /// the washer: cubes out of the drum).
    escaped: Option<usize>,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn narrow_phase(c: &mut Criterion, filter: &str) -> Vec<NarrowRow> {
    let mut rows = Vec::new();
    for pair in pairs() {
        for mode in ["cold", "warm"] {
            let cold = mode == "cold";
            for mut eng in engines(&pair) {
                let id = format!("narrow/{}/{mode}/{}", pair.label, eng.name());
                if !id.contains(filter) {
                    continue;
                }
                let points = eng.run(&pair.xb, true);
                let mut samples = Vec::new();
                let mut k = 0u32;
                c.bench_function(&id, |b| {
                    b.iter_custom(|iters| {
                        let start = Instant::now();
                        for _ in 0..iters {
                            k = k.wrapping_add(1);
                            let xb = if cold { pair.xb } else { wobble(&pair.xb, k) };
                            black_box(eng.run(black_box(&xb), cold));
                        }
                        let t = start.elapsed();
                        samples.push(t.as_secs_f64() * 1e9 / iters as f64);
                        t
                    })
                });
                rows.push(NarrowRow {
                    label: format!("{}/{mode}", pair.label),
                    engine: eng.name(),
                    ns: median(&mut samples),
                    points,
                });
            }
        }
    }
    rows
}

/// Segments the engines take turns in (see `run_world`).
const SEGMENTS: usize = 20;

/// Most bodies a world row mirrors into box3d-rust (see `run_world`).
const BOX3D_RUST_MOST: usize = 50_000;

/// Steps every engine through `template` (with what `script` does while it runs, inside
/// the timing, as Box3D's runner does it).
fn run_world(
    scene: &str,
    template: &contactlab::physics::World,
    steps: usize,
    top: Option<usize>,
    script: &RowScript,
) -> Vec<WorldRow> {
    // The first step and at least one timed one.
    let steps = steps.max(2);
    // contactlab's worlds are clones of the template, and a clone has no spare room for
    // bodies: the first drop into the large world's clone copied all its bodies, where the
    // peers, built body by body, had room to spare (docs/BENCHMARKS.md). Each gets room for
    // the drops, as the template built body by body had.
    let room = script.drops.as_ref().map_or(0, |d| d.bodies.len());
    let roomy = |mut w: World| {
        w.reserve_bodies(room);
        w
    };
    let mut engines: Vec<Box<dyn Engine>> =
        vec![Box::new(Contactlab(roomy(template.clone()))), Box::new(Rapier::mirror(template))];
    // box3d-rust adds static bodies in a time that grows with the square of their number
    // (145 s for the large world's 90,000 slabs): no row past `BOX3D_RUST_MOST` bodies.
    if template.bodies().len() <= BOX3D_RUST_MOST {
        engines.push(Box::new(Box3d::mirror(template)));
    }
    engines.push(Box::new(ContactlabDefault(roomy(ContactlabDefault::mirror(template).0))));
    // The upstream Box3D on one thread, and on every core with its own scheduler; contactlab
    // on every core too.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    if cores > 1 {
        engines.push(Box::new(Contactlab(roomy(Contactlab::threaded(template).0))));
        // rapier3d's parallel pipeline on every core (`--features rapier-parallel`).
        #[cfg(feature = "rapier-parallel")]
        engines.push(Box::new(Rapier::mirror_threads(template, cores as usize)));
    }
    for workers in if cores > 1 { vec![1, cores] } else { vec![1] } {
        match contactlab_peers::boxddd::Box3dUpstream::mirror(template, workers) {
            Ok(e) => engines.push(Box::new(e)),
            Err(e) => eprintln!("{scene}: the upstream Box3D could not mirror this world: {e}"),
        }
    }
    let start_poses: Vec<_> = engines.iter().map(|e| top.map(|i| e.poses()[i].pos)).collect();
    // The engines take turns, a segment of steps each, so that a change in the machine's
    // speed during the run (a shared virtual machine drifts by 20 % and more) slows every
    // engine alike instead of whichever ran at the time.
    // The first step on its own (Box3D's runner leaves it out of its time), then the
    // segments.
    let first: Vec<f64> = engines
        .iter_mut()
        .map(|e| {
            let t = Instant::now();
            e.step();
            t.elapsed().as_secs_f64()
        })
        .collect();
    let mut elapsed = vec![0.0f64; engines.len()];
    let mut joint_samples = vec![Vec::new(); engines.len()];
    let timed = steps.saturating_sub(1).max(1);
    let seg = timed.div_ceil(SEGMENTS).max(1);
    let mut done = 1;
    while done < steps {
        let n = seg.min(steps - done);
        for ((e, total), samples) in engines.iter_mut().zip(&mut elapsed).zip(&mut joint_samples) {
            let t = Instant::now();
            for k in done..done + n {
                script.before_step(e.as_mut(), k);
                e.step();
            }
            *total += t.elapsed().as_secs_f64();
            if !template.joints().is_empty() {
                samples.extend(joint_error(template, &e.poses()));
            }
        }
        done += n;
    }
    // The poses at the end are judged against the world with the bodies dropped so far.
    let judge = &script.judge(template, steps);
    let mut rows = Vec::new();
    let runs = engines.iter().zip(elapsed).zip(first).zip(start_poses).zip(&joint_samples);
    for ((((e, secs), first), start_pose), samples) in runs {
        let ms = secs * 1e3 / timed as f64;
        let poses = e.poses();
        let row = WorldRow {
            scene: scene.to_string(),
            engine: e.name(),
            bodies: judge.bodies().len(),
            ms,
            first_ms: first * 1e3,
            max_penetration: max_penetration(judge, &poses),
            drift: top.zip(start_pose).map(|(i, p0)| (poses[i].pos - p0).length()),
            joint_error: joint_error(judge, &poses),
            joint_error_run: joint_error_over_run(samples),
            escaped: if scene.starts_with("barrage-") {
                Some(escaped(judge, &poses))
            } else if scene.starts_with("heightfield-") {
                Some(below_terrain(judge, &poses))
            } else if scene.starts_with("washer-") {
                Some(out_of_washer(judge, &poses))
            } else {
                None
            },
        };
        eprintln!(
            "{scene:>16} {:>11}: {:8.3} ms/step (first step {:.2} ms), max penetration {:.4} m{}",
            row.engine,
            row.ms,
            row.first_ms,
            row.max_penetration,
            row.drift.map(|d| format!(", top-box drift {d:.4} m")).unwrap_or_default()
                + &row
                    .joint_error
                    .map(|(m, a)| format!(", joint error max {m:.5} m mean {a:.5} m"))
                    .unwrap_or_default()
                + &row.escaped.map(|n| format!(", {n} bodies outside (room, terrain or drum)")).unwrap_or_default()
        );
        rows.push(row);
    }
    rows
}

fn worlds(filter: &str, quick: bool) -> Vec<WorldRow> {
    let s = contactlab_settings();
    let div = if quick { 10 } else { 1 };
    let mut rows = Vec::new();
    let mut scene = |name: &str, build: &dyn Fn() -> contactlab::physics::World, steps: usize, top: bool| {
        if name.contains(filter) {
            let w = build();
            let top = top.then(|| w.bodies().len() - 1);
            let script = contactlab_peers::stock_script(name, &w);
            rows.extend(run_world(name, &w, steps / div, top, &script));
        }
    };
    scene("pyramid-210", &|| pyramid(20, s), 600, true);
    scene("pyramid-5050", &|| pyramid(100, s), 600, true);
    scene("hull-pile-640", &|| hull_pile(640, s), 600, false);
    for n in [1000usize, 2000, 5000, 10000] {
        scene(&format!("box-pile-{}k", n / 1000), &|| box_pile(n, s), 180, false);
    }
    scene("joint-grid-100", &|| joint_grid(100, s), 300, false);
    scene("barrage-200", &|| barrage(200, s), 120, false);
    scene("heightfield-1000", &|| heightfield_pile(1000, s), 300, false);
    // Box3D's own benchmark scene, at its own step count.
    scene("many-pyramids-10780", &|| contactlab_peers::box3d_scenes::many_pyramids(14, 14, 10, s), 100, false);
    scene("convex-pile-5120", &|| contactlab_peers::box3d_scenes::convex_pile(8, 8, 80, s), 500, false);
    // Box3D's large world at 300 × 300 of its 1,000 × 1,000 slabs, a ball dropped every five
    // steps as Box3D's runner drops them (`peers-run large-world-1000` runs its own size;
    // docs/BENCHMARKS.md).
    scene("large-world-300", &|| contactlab_peers::box3d_scenes::large_world_floor(300, s), 500, false);
    // Box3D's junkyard: 10,584 rocks and a kinematic pusher driven round the yard.
    scene("junkyard-10584", &|| contactlab_peers::box3d_scenes::junkyard(s), 500, false);
    // Box3D's washer: 8,000 cubes in a kinematic drum of 40 hulls (one compound body) that
    // turns at a constant speed (no script).
    scene("washer-8000", &|| contactlab_peers::box3d_scenes::washer(s), 1000, false);
    // Box3D's trees100: 50 trees of 22 hulls each (one compound body a tree) toppling onto a
    // wave mesh and rolling over it, with rolling resistance (none in rapier3d).
    scene("trees-100", &|| contactlab_peers::box3d_scenes::trees(1, s), 500, false);
    rows
}

/// A table cell: the text, or a dash when the engine has no row.
fn cell(text: Option<String>) -> String {
    text.unwrap_or_else(|| "–".into())
}

fn ratio(ours: f64, theirs: Option<f64>) -> String {
    cell(theirs.map(|t| format!("{:.2}", ours / t)))
}

fn table(narrow: &[NarrowRow], world: &[WorldRow], quick: bool) -> String {
    let mut out = String::new();
    let find_n = |label: &str, engine: &str| narrow.iter().find(|r| r.label == label && r.engine == engine);
    let mut labels: Vec<&str> = narrow.iter().map(|r| r.label.as_str()).collect();
    labels.dedup();
    if !labels.is_empty() {
        out += "### Narrow phase (median ns per manifold; ratio = contactlab / peer, < 1 is faster)\n\n";
        out += "| pair / regime / mode | contactlab | parry3d | box3d-rust | ÷ parry3d | ÷ box3d-rust | ÷ fastest peer | points (cl / parry / b3d) |\n";
        out += "|---|---:|---:|---:|---:|---:|---:|---|\n";
        for l in labels {
            let (cl, pa, b3) = (find_n(l, "contactlab"), find_n(l, "parry3d"), find_n(l, "box3d-rust"));
            let Some(cl) = cl else { continue };
            let fastest = [pa, b3].iter().flatten().map(|r| r.ns).reduce(f64::min);
            let ns = |r: Option<&NarrowRow>| cell(r.map(|r| format!("{:.0}", r.ns)));
            let pts = |r: Option<&NarrowRow>| cell(r.map(|r| r.points.to_string()));
            let _ = writeln!(
                out,
                "| {l} | {:.0} | {} | {} | {} | {} | {} | {} / {} / {} |",
                cl.ns,
                ns(pa),
                ns(b3),
                ratio(cl.ns, pa.map(|r| r.ns)),
                ratio(cl.ns, b3.map(|r| r.ns)),
                ratio(cl.ns, fastest),
                cl.points,
                pts(pa),
                pts(b3)
            );
        }
        out += "\n";
    }
    let mut scenes: Vec<&str> = world.iter().map(|r| r.scene.as_str()).collect();
    scenes.dedup();
    if !scenes.is_empty() {
        let find = |s: &str, e: &str| world.iter().find(|r| r.scene == s && r.engine == e);
        let _ = writeln!(
            out,
            "### Whole world (mean ms per step after the first{}; max penetration and top-box drift at the end, by contactlab's SAT)\n",
            if quick { ", QUICK run: a tenth of the steps" } else { "" }
        );
        out += "| scene | bodies | contactlab | rapier3d | box3d-rust | box3d (C) | ÷ rapier3d | ÷ box3d-rust | ÷ box3d (C) | ÷ fastest peer | max penetration mm (cl / rapier / b3d / C) | top-box drift mm (cl / rapier / b3d / C) | contactlab 4×3: ms, pen. mm, drift mm |\n";
        out += "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n";
        for s in &scenes {
            let (cl, ra, b3) = (find(s, "contactlab"), find(s, "rapier3d"), find(s, "box3d-rust"));
            let bc = find(s, "box3d (C)");
            let Some(cl) = cl else { continue };
            let def = find(s, "contactlab 4×3");
            let fastest = [ra, b3, bc].iter().flatten().map(|r| r.ms).reduce(f64::min);
            let ms = |r: Option<&WorldRow>| cell(r.map(|r| format!("{:.2}", r.ms)));
            let pen = |r: Option<&WorldRow>| cell(r.map(|r| format!("{:.1}", r.max_penetration * 1e3)));
            let drift = |r: Option<&WorldRow>| cell(r.and_then(|r| r.drift).map(|d| format!("{:.1}", d * 1e3)));
            let _ = writeln!(
                out,
                "| {s} | {} | {:.2} | {} | {} | {} | {} | {} | {} | {} | {} / {} / {} / {} | {} / {} / {} / {} | {}, {}, {} |",
                cl.bodies,
                cl.ms,
                ms(ra),
                ms(b3),
                ms(bc),
                ratio(cl.ms, ra.map(|r| r.ms)),
                ratio(cl.ms, b3.map(|r| r.ms)),
                ratio(cl.ms, bc.map(|r| r.ms)),
                ratio(cl.ms, fastest),
                pen(Some(cl)),
                pen(ra),
                pen(b3),
                pen(bc),
                drift(Some(cl)),
                drift(ra),
                drift(b3),
                drift(bc),
                ms(def),
                pen(def),
                drift(def)
            );
        }
        // Each engine's first step, left out of the rows above.
        out += "\nThe first step, timed on its own and left out of the means above as Box3D's runner leaves it out (ms; an engine that files its bodies in its broad phase at the first step, as contactlab does, pays here what another pays when the bodies are created, untimed):\n\n";
        out += "| scene | contactlab | rapier3d | box3d-rust | box3d (C) | contactlab mt | box3d (C) mt |\n|---|---:|---:|---:|---:|---:|---:|\n";
        for s in &scenes {
            let first = |e: &str| cell(find(s, e).map(|r| format!("{:.2}", r.first_ms)));
            let _ = writeln!(
                out,
                "| {s} | {} | {} | {} | {} | {} | {} |",
                first("contactlab"),
                first("rapier3d"),
                first("box3d-rust"),
                first("box3d (C)"),
                first("contactlab mt"),
                first("box3d (C) mt")
            );
        }
        // Threads: the upstream Box3D and contactlab on one thread and on every core (the
        // other peers step on one thread here).
        let threaded: Vec<&str> = scenes
            .iter()
            .copied()
            .filter(|s| world.iter().any(|r| r.scene == *s && r.engine == "box3d (C) mt"))
            .collect();
        if !threaded.is_empty() {
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            let _ = writeln!(
                out,
                "\nThe upstream Box3D (its own scheduler) and contactlab on {cores} threads against one (ms per step; ratio = contactlab / box3d (C) at the same thread count):\n"
            );
            out += "| scene | box3d (C), 1 | box3d (C), all | speed-up | contactlab, 1 | contactlab, all | speed-up | ratio, 1 | ratio, all | rapier3d, 1 | rapier3d, all | speed-up |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
            for s in threaded {
                let (one, all) = (find(s, "box3d (C)"), find(s, "box3d (C) mt"));
                let (cl, cl_all) = (find(s, "contactlab"), find(s, "contactlab mt"));
                let ms = |r: Option<&WorldRow>| cell(r.map(|r| format!("{:.2}", r.ms)));
                let ratio = |a: Option<&WorldRow>, b: Option<&WorldRow>, unit: &str| {
                    cell(a.zip(b).map(|(a, b)| format!("{:.2}{unit}", a.ms / b.ms)))
                };
                // rapier3d's threaded row exists with `--features rapier-parallel` only.
                let (ra, ra_all) = (find(s, "rapier3d"), find(s, "rapier3d mt"));
                let _ = writeln!(
                    out,
                    "| {s} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                    ms(one),
                    ms(all),
                    ratio(one, all, "×"),
                    ms(cl),
                    ms(cl_all),
                    ratio(cl, cl_all, "×"),
                    ratio(cl, one, ""),
                    ratio(cl_all, all, ""),
                    ms(ra.filter(|_| ra_all.is_some())),
                    ms(ra_all),
                    ratio(ra, ra_all, "×")
                );
            }
        }
        // Joint scenes: how far apart each engine lets the joined anchors drift.
        let jointed: Vec<&str> =
            scenes.iter().copied().filter(|s| world.iter().any(|r| r.scene == *s && r.joint_error.is_some())).collect();
        if !jointed.is_empty() {
            out += "\nJoint error at the end (ball-joint anchor separation, by the same measure for every engine; mm, max / mean):\n\n";
            out += "| scene | contactlab | rapier3d | box3d-rust | box3d (C) | contactlab 4×3 |\n|---|---|---|---|---|---|\n";
            for s in &jointed {
                let err = |e: &str| {
                    cell(
                        find(s, e).and_then(|r| r.joint_error).map(|(m, a)| format!("{:.2} / {:.3}", m * 1e3, a * 1e3)),
                    )
                };
                let _ = writeln!(
                    out,
                    "| {s} | {} | {} | {} | {} | {} |",
                    err("contactlab"),
                    err("rapier3d"),
                    err("box3d-rust"),
                    err("box3d (C)"),
                    err("contactlab 4×3")
                );
            }

            out += &format!("\nJoint error over the run (the same measure after each of the {SEGMENTS} segments of steps, untimed; mm, largest / mean of the largest / mean of the means):\n\n");
            out += "| scene | contactlab | rapier3d | box3d-rust | box3d (C) | contactlab 4×3 |\n|---|---|---|---|---|---|\n";
            for s in &jointed {
                let err = |e: &str| {
                    cell(
                        find(s, e)
                            .and_then(|r| r.joint_error_run)
                            .map(|(top, m, a)| format!("{:.2} / {:.2} / {:.3}", top * 1e3, m * 1e3, a * 1e3)),
                    )
                };
                let _ = writeln!(
                    out,
                    "| {s} | {} | {} | {} | {} | {} |",
                    err("contactlab"),
                    err("rapier3d"),
                    err("box3d-rust"),
                    err("box3d (C)"),
                    err("contactlab 4×3")
                );
            }
        }
        // Continuous collision: bodies that ended outside the barrage's room.
        let barrages: Vec<&str> = scenes
            .iter()
            .copied()
            .filter(|s| ["barrage-", "heightfield-", "washer-"].iter().any(|p| s.starts_with(p)))
            .collect();
        if !barrages.is_empty() {
            out += "\nBodies that got through at the end: barrage (continuous collision on in every engine: contactlab fast mode, rapier3d CCD, box3d-rust bullets) — dynamic bodies outside the room; heightfield — dynamic bodies whose centre is below the terrain; washer — cubes out of the drum (fallen out of its open ends, or through its rim):\n\n";
            out += "| scene | contactlab | rapier3d | box3d-rust | box3d (C) | contactlab 4×3 |\n|---|---:|---:|---:|---:|---:|\n";
            for s in barrages {
                let n = |e: &str| cell(find(s, e).and_then(|r| r.escaped).map(|n| n.to_string()));
                let _ = writeln!(
                    out,
                    "| {s} | {} | {} | {} | {} | {} |",
                    n("contactlab"),
                    n("rapier3d"),
                    n("box3d-rust"),
                    n("box3d (C)"),
                    n("contactlab 4×3")
                );
            }
        }
        // Growth of the step time with body count (box piles): exponent of t ∝ n^k.
        let piles: Vec<&WorldRow> = world.iter().filter(|r| r.scene.starts_with("box-pile-")).collect();
        if piles.len() >= 6 {
            out += "\nScaling exponent k in t ∝ n^k between the smallest and largest box pile (n log n from 1k to 10k is k ≈ 1.1):\n\n";
            for e in ["contactlab", "rapier3d", "box3d-rust"] {
                let mine: Vec<&&WorldRow> = piles.iter().filter(|r| r.engine == e).collect();
                if let (Some(a), Some(b)) = (mine.first(), mine.last()) {
                    let k = (b.ms / a.ms).ln() / (b.bodies as f64 / a.bodies as f64).ln();
                    let _ = writeln!(out, "- {e}: k = {k:.2}");
                }
            }
        }
    }
    out
}

/// The first argument that is neither an option nor an option's value.
fn free_argument(args: impl Iterator<Item = String>) -> String {
    const WITH_VALUE: [&str; 14] = [
        "--profile-time",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--save-baseline",
        "--baseline",
        "--load-baseline",
        "--output-format",
        "--color",
        "--plotting-backend",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--nresamples",
    ];
    let mut skip_next = false;
    for a in args {
        if skip_next {
            skip_next = false;
        } else if WITH_VALUE.contains(&a.as_str()) {
            skip_next = true;
        } else if !a.starts_with('-') {
            return a;
        }
    }
    String::new()
}

/// The character row (`contactlab_peers::character`): three rounds, the engines taking turns,
/// each round from the start; the median time per move, the quality of the last round.
fn characters(filter: &str, quick: bool) -> Vec<(contactlab_peers::character::CharacterRun, f64)> {
    use contactlab_peers::character::{level, movers, run, MOVES};
    if !"character-level".contains(filter) {
        return Vec::new();
    }
    let mesh = level();
    let moves = if quick { MOVES / 10 } else { MOVES };
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); 3];
    let mut last = Vec::new();
    for _ in 0..3 {
        last.clear();
        for (k, mut m) in movers(&mesh).into_iter().enumerate() {
            let r = run(m.as_mut(), &mesh, moves);
            times[k].push(r.us_per_move);
            last.push(r);
        }
    }
    last.into_iter()
        .zip(times)
        .map(|(r, mut t)| {
            let us = median(&mut t);
            eprintln!(
                "character-level {:>11}: {us:.2} us/move, path {:.1} m, top {:.2} m, deepest {:.1} mm",
                r.engine,
                r.path,
                r.top,
                r.penetration * 1e3
            );
            (r, us)
        })
        .collect()
}

fn character_table(rows: &[(contactlab_peers::character::CharacterRun, f64)]) -> String {
    let mut out = String::new();
    if rows.is_empty() {
        return out;
    }
    out += "\n### Character through the OBJ level (10,000 moves; µs per move; reached the platform = highest centre above 2.0 m)\n\n";
    out += "| engine | µs / move | ÷ fastest peer | path (m) | highest centre (m) | deepest penetration (mm) |\n|---|---:|---:|---:|---:|---:|\n";
    let fastest = rows.iter().filter(|(r, _)| r.engine != "contactlab").map(|(_, us)| *us).reduce(f64::min);
    for (r, us) in rows {
        let ratio = if r.engine == "contactlab" { ratio(*us, fastest) } else { "–".into() };
        let _ = writeln!(
            out,
            "| {} | {us:.2} | {ratio} | {:.1} | {:.2} | {:.1} |",
            r.engine,
            r.path,
            r.top,
            r.penetration * 1e3
        );
    }
    out
}

fn main() {
    let quick = std::env::var_os("PEERS_QUICK").is_some();
    // The first free argument (after cargo's `--bench`) filters rows, as criterion does.
    let filter = free_argument(std::env::args().skip(1));
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    let narrow = narrow_phase(&mut c, &filter);
    let world = worlds(&filter, quick);
    let chars = characters(&filter, quick);
    let md = table(&narrow, &world, quick) + &character_table(&chars);
    println!("\n{md}");
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/peers-table.md");
    if let Err(e) = std::fs::write(&path, &md) {
        eprintln!("could not write {}: {e}", path.display());
    } else {
        eprintln!("table written to {}", path.display());
    }
}
