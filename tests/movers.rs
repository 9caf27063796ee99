//! The per-body stages' short lists (`world/movers.rs`): in a world of many static bodies
//! and a few moving ones, the broad phase's per-body loop, the prepare stage and the
//! integration visit only the bodies that move once the static bodies' records hold. The
//! result must be the one a step that recomputes every body's records gives, bit for bit:
//! the reference world below has a static body edited (with no change) before every step,
//! which makes every stage start afresh over every body.

use contactlab::physics::{BodyDesc, BodyHandle, Hull, Settings, Shape, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

/// A floor of `side × side` static slabs (2 m square, 0.5 m thick) with a few walls
/// standing on it, and onto it spheres, boxes and hulls thrown in from above: far fewer
/// moving bodies than static ones.
fn slab_world(side: usize, settings: Settings) -> World {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), settings);
    let slab = Shape::cuboid(Vec3::new(1.0, 0.25, 1.0)).expect("a slab");
    let half = side as f32;
    for i in 0..side {
        for j in 0..side {
            let at = Vec3::new(-half + 1.0 + 2.0 * i as f32, -0.25, -half + 1.0 + 2.0 * j as f32);
            w.add_body(BodyDesc::new(format!("slab{i}_{j}"), slab.clone(), at).fixed()).expect("slab");
        }
    }
    let wall = Shape::cuboid(Vec3::new(0.2, 1.0, 3.0)).expect("a wall");
    for k in 0..4 {
        let at = Vec3::new(-6.0 + 4.0 * k as f32, 1.0, 0.0);
        w.add_body(BodyDesc::new(format!("wall{k}"), wall.clone(), at).fixed()).expect("wall");
    }
    let ball = Shape::Sphere { radius: 0.3 };
    let cube = Shape::cuboid(Vec3::splat(0.25)).expect("a cube");
    let points: Vec<Vec3> = (0..12)
        .map(|k| {
            let a = k as f32 * 2.399;
            let z = 1.0 - (2.0 * k as f32 + 1.0) / 12.0;
            let r = (1.0 - z * z).sqrt();
            0.35 * Vec3::new(r * a.cos(), z, r * a.sin())
        })
        .collect();
    let hull = Shape::Hull(Arc::new(Hull::from_points(&points).expect("a hull")));
    for k in 0..24 {
        let shape = [&ball, &cube, &hull][k % 3].clone();
        let at = Vec3::new(-7.0 + 0.65 * k as f32, 2.0 + 0.4 * (k % 5) as f32, -1.5 + 0.13 * k as f32);
        let v = Vec3::new(((k * 7) % 5) as f32 - 2.0, -1.0, ((k * 3) % 4) as f32 - 1.5);
        let mut d = BodyDesc::new(format!("thrown{k}"), shape, at).with_velocity(v);
        d.rotation = Quat::from_rotation_y(0.3 * k as f32) * Quat::from_rotation_x(0.2 * k as f32);
        d.angular_velocity = Vec3::new(0.5, -1.0, 0.25) * (k % 4) as f32;
        w.add_body(d).expect("a thrown body");
    }
    w
}

/// Every body's pose and velocities, as bits.
fn state(w: &World) -> Vec<[u32; 13]> {
    w.bodies()
        .iter()
        .map(|b| {
            let (p, q, v, o) = (b.pose.pos, b.pose.rot, b.velocity, b.angular_velocity);
            [p.x, p.y, p.z, q.x, q.y, q.z, q.w, v.x, v.y, v.z, o.x, o.y, o.z].map(f32::to_bits)
        })
        .collect()
}

/// Per body, whether it is dynamic and asleep.
fn asleep(w: &World) -> Vec<bool> {
    w.bodies().iter().map(|b| b.is_dynamic() && b.asleep).collect()
}

/// How many of the bodies `now` and `last` (each step's start, this one and the last) mark
/// asleep in both: the sleeping bodies whose records a step keeps (asleep now, and when
/// they were last computed).
fn still(now: &[bool], last: &[bool]) -> usize {
    now.iter().zip(last).filter(|(a, b)| **a && **b).count()
}

/// [`slab_world`] with a kinematic paddle sweeping across the floor at 1.5 m/s, turning at
/// 0.5 rad/s, through the thrown bodies.
fn paddle_world(settings: Settings) -> World {
    let mut w = slab_world(40, settings);
    let paddle = Shape::cuboid(Vec3::new(0.2, 0.6, 2.5)).expect("a paddle");
    let d = BodyDesc::new("paddle", paddle, Vec3::new(-10.0, 0.62, -1.0));
    w.add_body(d.kinematic(Vec3::new(1.5, 0.0, 0.0), Vec3::new(0.0, 0.5, 0.0))).expect("the paddle");
    w
}

/// Steps `plain` and `edited` side by side (`edited` with slab 0 edited, unchanged, before
/// every step) and checks that they agree bit for bit, that the plain world's broad phase
/// visited only its dynamic bodies after its first step (with sleeping on, but those asleep
/// at this step's start and the last's) and the edited one every body. Returns the plain
/// world, the steps that visited the short list and the fewest bodies a step visited.
fn agree(settings: Settings, steps: usize) -> (World, usize, usize) {
    agree_on(slab_world(40, settings), steps)
}

/// [`agree`] on the world `plain` (its kinematic bodies visited with the dynamic ones).
fn agree_on(mut plain: World, steps: usize) -> (World, usize, usize) {
    let mut edited = plain.clone();
    let n = plain.bodies().len();
    let dynamic = plain.bodies().iter().filter(|b| b.is_dynamic() || b.is_kinematic()).count();
    let slab: BodyHandle = edited.handle(0);
    let (mut short_steps, mut fewest) = (0, n);
    let mut last = asleep(&plain);
    for step in 0..steps {
        let now = asleep(&plain);
        plain.step(1.0 / 60.0);
        let _ = edited.body_mut(slab).expect("slab 0");
        edited.step(1.0 / 60.0);
        assert_eq!(state(&plain), state(&edited), "step {step}: the short lists changed the result");
        assert_eq!(edited.profile.visited, n, "step {step}: an edited world visits every body");
        if step > 0 {
            let want = dynamic - still(&now, &last);
            assert_eq!(plain.profile.visited, want, "step {step}: only the dynamic bodies should be visited");
            short_steps += 1;
            fewest = fewest.min(want);
        }
        last = now;
    }
    (plain, short_steps, fewest)
}

#[test]
fn short_lists_give_the_same_steps_as_visiting_every_body() {
    let settings = Settings { sleeping: false, ..Default::default() };
    let (w, short, fewest) = agree(settings, 180);
    assert_eq!((short, fewest), (179, 24));
    // The thrown bodies came down onto the slabs' top faces (y = 0) and rest there: the balls
    // (radius 0.3 m, still rolling) and the cubes (half extent 0.25 m, lying flat) at their
    // radius within a millimetre, the hulls settled.
    for (k, b) in w.bodies().iter().filter(|b| b.is_dynamic()).enumerate() {
        match k % 3 {
            0 => assert!((b.pose.pos.y - 0.3).abs() < 1e-3 && b.velocity.y.abs() < 1e-3, "{}: {:?}", b.name, b.pose),
            1 => assert!((b.pose.pos.y - 0.25).abs() < 1e-3 && b.velocity.length() < 1e-3, "{}: {:?}", b.name, b.pose),
            _ => assert!(b.pose.pos.y > 0.15 && b.velocity.length() < 0.1, "{}: {:?}", b.name, b.velocity),
        }
    }
}

#[test]
fn a_kinematic_paddle_is_visited_with_the_moving_bodies_and_gives_the_same_steps() {
    // The paddle's records are made again every step while the slabs' are kept, with
    // sleeping off and on (the paddle wakes what it reaches).
    for sleeping in [false, true] {
        let settings = Settings { sleeping, threads: 2, ..Default::default() };
        let (w, short, _) = agree_on(paddle_world(settings), 300);
        assert_eq!(short, 299);
        // It swept 7.5 m through the thrown bodies and moved some of them: against the same
        // world without it, some end a metre or more from where they came to rest.
        let paddle = w.bodies().last().expect("the paddle");
        assert!((paddle.pose.pos.x - (-10.0 + 1.5 * 5.0)).abs() < 1e-3, "paddle at {}", paddle.pose.pos);
        let mut alone = slab_world(40, settings);
        for _ in 0..300 {
            alone.step(1.0 / 60.0);
        }
        let moved = w.bodies().iter().zip(alone.bodies()).filter(|(a, b)| a.pose.pos.distance(b.pose.pos) > 1.0);
        assert!(moved.count() >= 3, "the paddle moved too few bodies");
    }
}

#[test]
fn short_lists_hold_while_bodies_fall_asleep_and_on_two_threads() {
    let settings = Settings { sleeping: true, threads: 2, ..Default::default() };
    let (w, _, fewest) = agree(settings, 420);
    // Most of them rested long enough to sleep: the broad phase keeps their records, and the
    // integration visits only the awake ones.
    let asleep = w.bodies().iter().filter(|b| b.is_dynamic() && b.asleep).count();
    assert!(asleep >= 12, "{asleep} of 24 thrown bodies asleep");
    assert!(fewest <= 24 - 12, "the fewest bodies a step visited: {fewest}");
}

#[test]
fn a_new_body_and_a_changed_margin_are_picked_up() {
    let settings = Settings { sleeping: false, ..Default::default() };
    let mut w = slab_world(40, settings);
    for _ in 0..30 {
        w.step(1.0 / 60.0);
    }
    let dynamic = w.bodies().iter().filter(|b| b.is_dynamic()).count();
    assert_eq!(w.profile.visited, dynamic);
    // A ball dropped onto slab (5, 5), far from the others: it must land on the slab.
    let at = Vec3::new(-40.0 + 11.0, 1.0, -40.0 + 11.0);
    w.add_body(BodyDesc::new("late", Shape::Sphere { radius: 0.2 }, at)).expect("a late ball");
    w.step(1.0 / 60.0);
    assert_eq!(w.profile.visited, dynamic + 1, "a new body is visited with the dynamic ones");
    assert!(!w.profile.grid_built, "one new body joins the grid's pairs without a rebuild");
    w.settings.margin *= 2.0;
    w.step(1.0 / 60.0);
    assert_eq!(w.profile.visited, w.bodies().len(), "a changed margin makes every record new");
    for _ in 0..90 {
        w.step(1.0 / 60.0);
    }
    assert_eq!(w.profile.visited, dynamic + 1);
    let late = w.bodies().last().expect("the late ball");
    // Resting on the slab's top face at y = 0 (a soft contact sinks it by well under a
    // millimetre under gravity alone).
    assert!((late.pose.pos.y - 0.2).abs() < 2e-3, "the late ball rests at y = {}", late.pose.pos.y);
}

/// A body of each kind thrown in every fifth step (Box3D's `large_world` drops a ball every
/// five), and a static slab added now and then.
fn add_late(w: &mut World, step: usize) -> Option<BodyHandle> {
    let k = step / 5;
    let at = Vec3::new(-12.0 + 0.9 * (k % 25) as f32, 2.5 + 0.1 * (k % 3) as f32, -4.0 + 0.35 * (k % 19) as f32);
    let desc = match k % 4 {
        0 => BodyDesc::new(format!("late ball {k}"), Shape::Sphere { radius: 0.25 }, at),
        1 => BodyDesc::new(format!("late cube {k}"), Shape::cuboid(Vec3::splat(0.2)).expect("a cube"), at),
        2 => BodyDesc::new(format!("late capsule {k}"), Shape::Capsule { half_height: 0.2, radius: 0.15 }, at)
            .with_velocity(Vec3::new(1.0, -2.0, 0.5)),
        _ => BodyDesc::new(format!("late slab {k}"), Shape::cuboid(Vec3::new(1.0, 0.1, 1.0)).expect("a slab"), at)
            .fixed(),
    };
    w.add_body(desc).ok()
}

#[test]
fn bodies_added_while_it_runs_give_the_same_steps() {
    // Two worlds get the same bodies every fifth step; the reference also has slab 0 edited
    // (unchanged) before every step, so it starts every stage afresh over every body. The
    // plain one takes the new bodies into its short lists and its grid in place.
    let settings = Settings { sleeping: true, threads: 2, ..Default::default() };
    let mut plain = slab_world(40, settings);
    let mut edited = plain.clone();
    let slab = edited.handle(0);
    let (mut added, mut in_place) = (0, 0);
    let mut last = asleep(&plain);
    for step in 0..240 {
        let new = step > 0 && step % 5 == 0;
        // The sleeping bodies whose records the step keeps (asleep at its start and at the
        // last one's), counted before the new body joins.
        let now = asleep(&plain);
        let kept = still(&now, &last);
        if new {
            let (a, b) = (add_late(&mut plain, step), add_late(&mut edited, step));
            assert_eq!(a.is_some(), b.is_some());
        }
        plain.step(1.0 / 60.0);
        let _ = edited.body_mut(slab).expect("slab 0");
        edited.step(1.0 / 60.0);
        assert_eq!(state(&plain), state(&edited), "step {step}: a body added in place changed the result");
        let dynamic = plain.bodies().iter().filter(|b| b.is_dynamic()).count();
        if new {
            added += 1;
            in_place += usize::from(!plain.profile.grid_built);
            // The dynamic bodies but the still sleeping ones, and a new static slab with them.
            let slab_added = !plain.bodies().last().expect("a body").is_dynamic();
            assert_eq!(plain.profile.visited, dynamic - kept + usize::from(slab_added), "step {step}");
        } else if step > 0 {
            assert_eq!(plain.profile.visited, dynamic - kept, "step {step}");
        }
        last = now;
        if new {
            last.push(false);
        }
    }
    assert_eq!(added, 47);
    assert!(in_place >= 40, "{in_place} of {added} additions kept the grid");
    // The late bodies landed: every dynamic one rests on a slab's top face or on another
    // body (none fell through the floor or was left hanging).
    for b in plain.bodies().iter().filter(|b| b.is_dynamic()) {
        assert!(b.pose.pos.y > 0.1 && b.pose.pos.y < 3.5, "{} at {:?}", b.name, b.pose.pos);
    }
}

#[test]
fn room_made_for_bodies_keeps_them_in_place_and_changes_no_step() {
    // A clone has no spare room; `reserve_bodies` gives it room for the bodies to come, so
    // adding them moves no body, and the steps are those of a clone without it, bit for bit.
    let settings = Settings { sleeping: true, ..Default::default() };
    let source = slab_world(30, settings);
    let mut plain = source.clone();
    let mut roomy = source.clone();
    roomy.reserve_bodies(24);
    let at = roomy.bodies().as_ptr();
    for step in 0..120 {
        if step > 0 && step % 5 == 0 {
            let (a, b) = (add_late(&mut plain, step), add_late(&mut roomy, step));
            assert_eq!(a.is_some(), b.is_some());
        }
        plain.step(1.0 / 60.0);
        roomy.step(1.0 / 60.0);
        assert_eq!(state(&plain), state(&roomy), "step {step}: making room changed the result");
    }
    assert_eq!(roomy.bodies().len(), source.bodies().len() + 23);
    assert_eq!(roomy.bodies().as_ptr(), at, "adding the bodies moved the body storage");
}

#[test]
fn a_sleeping_body_on_a_static_level_wakes_when_struck() {
    // The thrown bodies fall asleep on the slabs (the islands are found over the dynamic
    // bodies only); a ball dropped onto a sleeping cube wakes it, and the cube then comes
    // to rest and sleeps again.
    let settings = Settings { sleeping: true, ..Default::default() };
    let mut w = slab_world(40, settings);
    for _ in 0..420 {
        w.step(1.0 / 60.0);
    }
    let (cube, at) = w
        .bodies()
        .iter()
        .enumerate()
        .find(|(_, b)| b.asleep && b.name.starts_with("thrown") && matches!(b.shape, Shape::Box { .. }))
        .map(|(i, b)| (i, b.pose.pos))
        .expect("a sleeping thrown cube");
    let ball = BodyDesc::new("striker", Shape::Sphere { radius: 0.2 }, at + Vec3::new(0.05, 0.8, 0.0))
        .with_velocity(Vec3::new(0.0, -3.0, 0.0));
    w.add_body(ball).expect("a striker");
    let mut woke = None;
    for step in 0..30 {
        w.step(1.0 / 60.0);
        if !w.bodies()[cube].asleep {
            woke = Some(step);
            break;
        }
    }
    assert!(woke.is_some(), "the struck cube never woke");
    for _ in 0..600 {
        w.step(1.0 / 60.0);
    }
    let c = &w.bodies()[cube];
    assert!(c.asleep, "the cube did not fall asleep again (v = {:?})", c.velocity);
    assert!((c.pose.pos.y - 0.25).abs() < 2e-3, "the cube rests at y = {}", c.pose.pos.y);
}

/// Per body, its island by brute force: the lowest index among the dynamic bodies it is
/// joined to through contacts with points (labels spread until none changes); `None` for a
/// body that is not dynamic. What `World::islands` must give in a world without joints.
fn islands_by_brute_force(w: &World) -> Vec<Option<u32>> {
    let dynamic = |i: u32| w.bodies()[i as usize].is_dynamic();
    let edges: Vec<(usize, usize)> = w
        .contacts()
        .iter()
        .filter(|c| !c.manifold.points.is_empty() && dynamic(c.a) && dynamic(c.b))
        .map(|c| (c.a as usize, c.b as usize))
        .collect();
    let mut label: Vec<u32> = (0..w.bodies().len() as u32).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for &(a, b) in &edges {
            let low = label[a].min(label[b]);
            if label[a] != low || label[b] != low {
                (label[a], label[b], changed) = (low, low, true);
            }
        }
    }
    (0..label.len() as u32).map(|i| dynamic(i).then_some(label[i as usize])).collect()
}

/// Checks `World::islands` against [`islands_by_brute_force`], naming the first body that
/// differs.
fn same_islands(w: &World, when: &str) {
    let (got, want) = (w.islands(), islands_by_brute_force(w));
    let wrong: Vec<usize> = (0..want.len()).filter(|&i| got[i] != want[i]).collect();
    if let Some(&i) = wrong.first() {
        panic!("{when}: {} bodies in the wrong island, first body {i}: {:?}, not {:?}", wrong.len(), got[i], want[i]);
    }
}

/// A pile asleep is left alone: its steps test none of its pairs in the broad phase's
/// filter, open none of its contacts in the narrow phase, solve no contact and move no
/// body. A ball then dropped onto it wakes it, and from there each step is the one a world
/// that recomputes everything gives (a static body edited before every step), bit for bit,
/// with the same pairs and contacts; the struck pile's pairs are tested and opened again.
#[test]
fn a_sleeping_pile_leaves_its_pairs_alone_until_struck() {
    for threads in [1, 2] {
        let settings = Settings { sleeping: true, threads, ..Default::default() };
        let mut plain = contactlab::scene::stock::box_pile(200, settings);
        let mut settled = None;
        for step in 0..1200 {
            plain.step(1.0 / 60.0);
            if plain.stats().awake == 0 {
                settled = Some(step);
                break;
            }
        }
        assert!(settled.is_some(), "{threads} thread(s): the pile of 200 boxes never fell asleep");
        // One step more: the boxes' records are made again once, now that they sleep.
        plain.step(1.0 / 60.0);
        let (asleep, stats) = (state(&plain), plain.stats());
        assert!(stats.pairs > 200 && stats.touching > 200, "{stats:?}");
        for _ in 0..3 {
            plain.step(1.0 / 60.0);
            let p = plain.profile;
            assert_eq!((p.pairs_tested, p.pairs_opened), (0, 0), "{threads} thread(s): a sleeping pile's pairs");
            assert!(plain.graph_colours().iter().all(Option::is_none), "a sleeping pile's contacts were solved");
            assert_eq!(state(&plain), asleep, "a sleeping pile moved");
            assert_eq!((plain.stats().pairs, plain.stats().touching), (stats.pairs, stats.touching));
            // The islands still hold the sleeping contacts (so a strike wakes the whole pile).
            same_islands(&plain, &format!("{threads} thread(s), asleep"));
        }
        // A ball from above the pile, falling fast, and the reference world beside it.
        let top = plain.bodies().iter().filter(|b| b.is_dynamic()).map(|b| b.pose.pos.y).fold(0.0, f32::max);
        let ball = BodyDesc::new("ball", Shape::Sphere { radius: 0.5 }, Vec3::new(0.2, top + 2.0, 0.1))
            .with_velocity(Vec3::new(0.0, -6.0, 0.0));
        plain.add_body(ball).expect("a ball");
        let mut edited = plain.clone();
        let ground = edited.bodies().iter().position(|b| !b.is_dynamic()).expect("a static body");
        let ground = edited.handle(ground);
        let (mut woken, mut opened) = (0, 0);
        for step in 0..120 {
            plain.step(1.0 / 60.0);
            let _ = edited.body_mut(ground).expect("the ground");
            edited.step(1.0 / 60.0);
            assert_eq!(state(&plain), state(&edited), "{threads} thread(s), step {step} after the strike");
            let (a, b) = (plain.stats(), edited.stats());
            assert_eq!((a.pairs, a.touching, a.points), (b.pairs, b.touching, b.points), "step {step}");
            same_islands(&plain, &format!("{threads} thread(s), step {step} after the strike"));
            woken = woken.max(a.awake);
            opened = opened.max(plain.profile.pairs_opened);
        }
        // The boxes the ball struck woke with their island, and their pairs were opened.
        assert!(woken > 20, "{threads} thread(s): {woken} bodies awake at most after the strike");
        assert!(opened > 100, "{threads} thread(s): {opened} pairs opened at most after the strike");
    }
}
