//! What the solver-graph overlay draws (`Overlay::Graph`, `app/labels.rs::graph_legend`),
//! checked against the definitions it illustrates: the manifolds of one graph colour share no
//! moving body, and neither do the joints of one joint colour (so one colour's batches can
//! run at once on any number of threads); the per-colour counts in the legend are the
//! colours drawn; and the islands are the connected groups of moving bodies, joined by
//! contacts that hold manifold points (speculative ones too: Box2D links a pair into its
//! island as soon as it has points) and by joints, found here again by a plain search over
//! those links. A sleeping island is not solved: the legend counts the islands asleep and
//! says why nothing has a colour when all of them sleep; below 64 solved joints it says the
//! joints are solved in slot order.

mod common;
use common::*;
use contactlab::app::{vector, Testbed};
use contactlab::physics::solver::colouring::COLOURS;
use contactlab::physics::{BodyDesc, JointDesc, JointKind, Settings, Shape, World, WORLD};
use contactlab::scene;
use contactlab::scene::format::Overlay;
use contactlab::view::Overlays;
use glam::Vec3;
use std::collections::BTreeMap;

/// Checks that no two of `links` with the same colour share a moving body, that `counts`
/// holds how many links took each colour (the last entry: none), and returns how many
/// colours were used.
fn check_colours(what: &str, w: &World, links: &[(u32, u32, Option<u8>)], counts: &[u32; COLOURS + 1]) -> usize {
    let moving = |b: u32| w.bodies().get(b as usize).is_some_and(|b| b.is_dynamic());
    let mut seen: BTreeMap<(u8, u32), usize> = BTreeMap::new();
    let mut tally = [0u32; COLOURS + 1];
    for (i, &(a, b, colour)) in links.iter().enumerate() {
        let Some(colour) = colour else { continue };
        tally[colour as usize] += 1;
        if colour as usize == COLOURS {
            continue; // the overflow is solved in one sequence after the colours
        }
        for body in [a, b].into_iter().filter(|&b| moving(b)) {
            if let Some(j) = seen.insert((colour, body), i) {
                panic!("{what}: {j} and {i} are both in colour {colour} and share moving body {body}");
            }
        }
    }
    assert_eq!(&tally, counts, "{what}: the legend's counts are not the colours drawn");
    tally[..COLOURS].iter().filter(|&&n| n > 0).count()
}

#[test]
fn manifolds_of_one_graph_colour_share_no_moving_body() {
    let mut w = scene::load(&scene::scenes_dir().join("hull_pile.ron")).unwrap().world;
    // Sleeping off: a sleeping body's contacts are not solved, so they have no colour.
    w.settings.sleeping = false;
    for _ in 0..90 {
        w.step(1.0 / 60.0);
    }
    let colours = w.graph_colours();
    let links: Vec<_> = w.contacts().iter().zip(&colours).map(|(c, &k)| (c.a, c.b, k)).collect();
    let solved = links.iter().filter(|l| l.2.is_some()).count();
    assert!(solved > 100, "the pile has {solved} solved manifolds, too few to show anything");
    // Every manifold that touches and moves something was solved, so it has a colour.
    for (c, k) in w.contacts().iter().zip(&colours) {
        let moves = [c.a, c.b].iter().any(|&b| w.bodies()[b as usize].is_dynamic());
        if moves && c.manifold.points.iter().any(|p| p.depth >= 0.0) {
            assert!(k.is_some(), "pair ({}, {}) touches but has no colour", c.a, c.b);
        }
    }
    let used = check_colours("manifolds", &w, &links, &w.colour_counts().expect("the SIMD solver colours"));
    assert!(used >= 4, "a pile needs several colours, found {used}");
}

#[test]
fn joints_of_one_graph_colour_share_no_moving_body() {
    // A 10 × 10 net of balls, each tied to its neighbours: 180 joints, past the count from
    // which the joints are coloured.
    let mut w = world(Settings::default());
    let n = 10;
    let net = ball_net(&mut w, (n, n), Vec3::new(0.0, 10.0, 0.0), [Vec3::X * 0.5, Vec3::Z * 0.5], 0.2);
    w.add_joint(JointDesc::new("hold", JointKind::Ball, WORLD, net[0], Vec3::new(0.0, 10.0, 0.0))).unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0);
    }
    let colours = w.joint_graph_colours();
    let links: Vec<_> = w.joints().iter().zip(&colours).map(|(j, &k)| (j.a, j.b, k)).collect();
    assert_eq!(links.iter().filter(|l| l.2.is_some()).count(), 181, "every joint was solved in a colour");
    let used = check_colours("joints", &w, &links, &w.joint_colour_counts().expect("the joints were coloured"));
    // A grid's links need four colours at least (a node has four neighbours).
    assert!(used >= 4, "found {used} joint colours");
}

/// The islands by a plain search: moving bodies linked by a contact with manifold points or
/// by a joint that is not broken.
fn islands_by_search(w: &World) -> Vec<Option<u32>> {
    let n = w.bodies().len();
    let moving = |b: u32| (b as usize) < n && w.bodies()[b as usize].is_dynamic();
    let mut links: Vec<Vec<u32>> = vec![Vec::new(); n];
    let touching = w.contacts().iter().filter(|c| !c.manifold.points.is_empty()).map(|c| (c.a, c.b));
    let jointed = w.joints().iter().filter(|j| j.is_alive() && !j.broken).map(|j| (j.a, j.b));
    for (a, b) in touching.chain(jointed).filter(|&(a, b)| moving(a) && moving(b)) {
        links[a as usize].push(b);
        links[b as usize].push(a);
    }
    let mut out = vec![None; n];
    for start in (0..n as u32).filter(|&b| moving(b)) {
        if out[start as usize].is_some() {
            continue;
        }
        // `start` is the lowest index of its group: every lower body was labelled already.
        let mut todo = vec![start];
        out[start as usize] = Some(start);
        while let Some(b) = todo.pop() {
            for &c in &links[b as usize] {
                if out[c as usize].is_none() {
                    out[c as usize] = Some(start);
                    todo.push(c);
                }
            }
        }
    }
    out
}

#[test]
fn islands_are_the_bodies_joined_by_contacts_and_joints() {
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    ground(&mut w);
    // Two stacks far apart, a lone box, and two balls on a joint that do not touch.
    let left: Vec<u32> = (0..3)
        .map(|i| {
            w.add_body(BodyDesc::new(format!("l{i}"), cube(0.5), Vec3::new(-5.0, 0.5 + i as f32, 0.0))).unwrap().index
        })
        .collect();
    let right: Vec<u32> = (0..4)
        .map(|i| {
            w.add_body(BodyDesc::new(format!("r{i}"), cube(0.5), Vec3::new(5.0, 0.5 + i as f32, 0.0))).unwrap().index
        })
        .collect();
    let lone = w.add_body(BodyDesc::new("lone", cube(0.5), Vec3::new(0.0, 0.5, 5.0))).unwrap().index;
    let p = w.add_body(BodyDesc::new("p", Shape::Sphere { radius: 0.1 }, Vec3::new(0.0, 3.0, -5.0))).unwrap().index;
    let q = w.add_body(BodyDesc::new("q", Shape::Sphere { radius: 0.1 }, Vec3::new(0.5, 3.0, -5.0))).unwrap().index;
    w.add_joint(JointDesc::new("pq", JointKind::Ball, p, q, Vec3::new(0.25, 3.0, -5.0))).unwrap();
    w.add_joint(JointDesc::new("hang", JointKind::Ball, WORLD, p, Vec3::new(0.0, 3.2, -5.0))).unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0);
    }
    let islands = w.islands();
    assert_eq!(islands, islands_by_search(&w));
    // And as a teacher would read them: the ground belongs to none (static bodies do not
    // join islands), each stack is one island named by its lowest body, the two stacks
    // differ, the lone box is its own, and the jointed balls are one.
    assert_eq!(islands[0], None);
    assert!(left.iter().all(|&b| islands[b as usize] == Some(left[0])));
    assert!(right.iter().all(|&b| islands[b as usize] == Some(right[0])));
    assert_eq!(islands[lone as usize], Some(lone));
    assert_eq!((islands[p as usize], islands[q as usize]), (Some(p), Some(p)));
}

#[test]
fn a_pile_s_islands_match_a_plain_search() {
    let mut w = scene::load(&scene::scenes_dir().join("hull_pile.ron")).unwrap().world;
    w.settings.sleeping = false;
    // The most islands seen at once: the hulls fall apart and land in groups that merge.
    let mut most = 0;
    for step in 1..=120 {
        w.step(1.0 / 60.0);
        if step % 10 == 0 {
            let islands = w.islands();
            assert_eq!(islands, islands_by_search(&w), "at step {step}");
            let mut roots: Vec<u32> = islands.iter().flatten().copied().collect();
            roots.sort_unstable();
            roots.dedup();
            most = most.max(roots.len());
        }
    }
    assert!(most >= 5, "the pile showed at most {most} islands at once, too few to test the grouping");
}

/// The texts of the overlay's picture (the vector screenshot's `<text>` elements: the same
/// legend the window and the PNG draw).
fn picture_texts(t: &mut Testbed) -> Vec<String> {
    let svg = vector::svg(t, (1200, 600));
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or("").to_string()).collect()
}

/// A sleeping island is not solved, so its manifolds take no colour: the legend says which
/// islands sleep, and where nothing was coloured it says why instead of an empty row of
/// swatches (a picture of a pile at rest was blank but for "manifolds per colour:").
#[test]
fn the_legend_says_why_sleeping_islands_have_no_colours() {
    // Two boxes stacked on the ground, and one falling from 40 m far away: the stack sleeps
    // after half a second at rest, the third box falls for about three seconds.
    let mut t = Testbed::new(
        scene::load_str(
            r#"Scene(
                name: "Rest and fall",
                camera: (eye: (0.0, 6.0, 30.0), target: (0.0, 2.0, 0.0)),
                bodies: [
                    (name: "ground", shape: Box(half_extents: (20.0, 0.5, 20.0)), kind: Static, position: (0.0, -0.5, 0.0)),
                    (name: "resting", shape: Box(half_extents: (0.5, 0.5, 0.5)), position: (-4.0, 0.5, 0.0)),
                    (name: "on top", shape: Box(half_extents: (0.5, 0.5, 0.5)), position: (-4.0, 1.5, 0.0)),
                    (name: "falling", shape: Box(half_extents: (0.5, 0.5, 0.5)), position: (4.0, 40.0, 0.0)),
                ],
            )"#,
            "test",
        )
        .unwrap(),
        None,
    );
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Graph);
    let islands = |texts: &[String]| texts.iter().find(|s| s.starts_with("body colour")).cloned().unwrap_or_default();
    let asleep = |t: &Testbed, name: &str| t.world().bodies().iter().find(|b| b.name == name).unwrap().asleep;
    // Awake, touching: the stack's two manifolds share the lower box, so they take two
    // colours, and their swatches are listed: the boxes' manifold the first colour, the
    // ground's the last (a manifold with a static body takes the highest free colour).
    t.step_once();
    let texts = picture_texts(&mut t);
    assert!(texts.iter().any(|s| s.starts_with("solver graph: dot = graph colour")), "{texts:?}");
    assert_eq!(islands(&texts), "body colour = its island (2 islands)");
    assert!(texts.iter().any(|s| s == "manifolds per colour:"), "{texts:?}");
    assert!(texts.iter().any(|s| s == "0: 1") && texts.iter().any(|s| s == "23: 1"), "{texts:?}");
    // The stack asleep, the other box still falling: one island of two sleeps.
    let mut steps = 1;
    while !asleep(&t, "resting") {
        t.step_once();
        steps += 1;
        assert!(steps < 120, "the resting box did not fall asleep");
    }
    // The step that put it to sleep still solved it: the legend counts the last step's
    // colours. One step more, and nothing is solved.
    t.step_once();
    assert!(!asleep(&t, "falling"));
    let texts = picture_texts(&mut t);
    assert_eq!(islands(&texts), "body colour = its island (2 islands, 1 asleep: sleepers are not solved)");
    assert!(texts.iter().any(|s| s == "manifolds per colour: none this step"), "{texts:?}");
    // Both asleep: the row says why there are no colours.
    while !asleep(&t, "falling") {
        t.step_once();
        steps += 1;
        assert!(steps < 600, "the falling box did not come to rest");
    }
    t.step_once();
    let texts = picture_texts(&mut t);
    assert_eq!(islands(&texts), "body colour = its island (2 islands, all asleep)");
    assert!(
        texts.iter().any(|s| s == "manifolds per colour: none — all islands asleep (a sleeping island is not solved)"),
        "{texts:?}"
    );
    // A drag wakes one body, not its island: the stack's top box awake, its lower box (the
    // island's root) still asleep, and the island counts as awake.
    let top = t.world().bodies().iter().position(|b| b.name == "on top").unwrap();
    t.world_mut().wake(top);
    let texts = picture_texts(&mut t);
    assert_eq!(islands(&texts), "body colour = its island (2 islands, 1 asleep: sleepers are not solved)");
}

/// Fewer than 64 solved joints are solved in slot order, one sequence, with no graph colour:
/// the legend says so (the joints' own anchor dots would otherwise read as a colour).
#[test]
fn the_legend_says_when_joints_are_solved_in_slot_order() {
    let mut t = Testbed::new(scene::load(&scene::scenes_dir().join("rope_bridge.ron")).unwrap(), None);
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Graph);
    t.step_once();
    let joints = t.world().joints().iter().filter(|j| j.is_alive()).count();
    assert!((2..64).contains(&joints), "the bridge has {joints} joints");
    assert_eq!(t.world().solved_joint_count(), joints, "every joint of the awake bridge is solved");
    assert!(t.world().joint_colour_counts().is_none());
    let texts = picture_texts(&mut t);
    let line =
        format!("joint order: {joints} solved one after another, in slot order (coloured from 64 solved joints on)");
    assert!(texts.contains(&line), "{texts:?}");
    assert!(!texts.iter().any(|s| s.starts_with("joints per colour")), "{texts:?}");
}
