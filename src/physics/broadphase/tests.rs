//! The grid's pairs against brute force: full builds, moved and added bodies, passive
//! bodies, several threads.

use super::*;
use crate::physics::hull::builders::SplitMix64;
use glam::Vec3;

/// `n` boxes of half extents 0.05–0.65 m, centred at random in `0..span` per axis.
fn random_boxes(seed: u64, n: usize, span: Vec3) -> Vec<Aabb> {
    let mut rng = SplitMix64(seed);
    (0..n)
        .map(|_| {
            let c = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * span;
            let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.6 + 0.05;
            Aabb::new(c - h, c + h)
        })
        .collect()
}

fn brute_force(boxes: &[Aabb]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            if boxes[i].overlaps(&boxes[j]) {
                out.push((i as u32, j as u32));
            }
        }
    }
    out
}

#[test]
fn grid_matches_all_pairs_with_large_bodies_far_clusters_and_nan() {
    let mut rng = SplitMix64(11);
    let mut boxes = vec![
        // Ground, a wall and a NaN box (a body that blew up) among ordinary boxes.
        Aabb::new(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0)),
        Aabb::new(Vec3::new(4.0, 0.0, -50.0), Vec3::new(5.0, 10.0, 50.0)),
        Aabb::new(Vec3::splat(f32::NAN), Vec3::splat(f32::NAN)),
    ];
    for k in 0..600 {
        // Two dense clusters 10 km apart, sizes from 0.05 to 1.2 m, negative coordinates.
        let off = if k % 2 == 0 { Vec3::new(-3.0, 0.0, -2.0) } else { Vec3::new(1.0e4, 5.0, -1.0e4) };
        let c = off + Vec3::new(rng.next_f32() * 8.0, rng.next_f32() * 4.0 - 0.5, rng.next_f32() * 4.0);
        let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.6 + 0.025;
        boxes.push(Aabb::new(c - h, c + h));
    }
    let mut bp = BroadPhase::default();
    bp.update(&boxes, |a, b| a == 0 && b == 1);
    let brute: Vec<_> = brute_force(&boxes).into_iter().filter(|&(a, b)| !(a == 0 && b == 1)).collect();
    assert!(brute.len() > 1000, "{}", brute.len());
    assert!(brute.iter().any(|&(a, _)| a == 0) && brute.iter().any(|&(a, _)| a == 1));
    assert_eq!(bp.pairs, brute);
    // The same boxes again, reusing the buffers: the same pairs.
    bp.update(&boxes, |a, b| a == 0 && b == 1);
    assert_eq!(bp.pairs, brute);
}

#[test]
fn moving_a_few_bodies_gives_the_pairs_of_a_full_build() {
    // A ground, a wall and 400 boxes; each step some boxes drift (a few far; now and then
    // a few grow past the cell size, a little or by two cells, and now and then most of
    // them move), enlarged boxes are kept as the world keeps them, and the pairs after
    // `update_moved` (or its fallback) must equal brute force every step.
    let mut rng = SplitMix64(17);
    let mut boxes = vec![
        Aabb::new(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0)),
        Aabb::new(Vec3::new(6.0, 0.0, -50.0), Vec3::new(7.0, 10.0, 50.0)),
    ];
    for _ in 0..400 {
        let c = Vec3::new(rng.next_f32() * 8.0, rng.next_f32() * 3.0, rng.next_f32() * 8.0);
        let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.3 + 0.1;
        boxes.push(Aabb::new(c - h, c + h));
    }
    let skip = |a: u32, b: u32| a < 2 && b < 2;
    let fatten = |b: &Aabb| Aabb::new(b.min - Vec3::splat(0.1), b.max + Vec3::splat(0.1));
    let mut fat: Vec<Aabb> = boxes.iter().map(fatten).collect();
    let mut bp = BroadPhase::default();
    bp.update(&fat, skip);
    let (mut incremental, mut full, mut wide) = (0, 0, 0);
    for step in 0..300 {
        // Every box at once, now and then: more than an incremental update pays for.
        let all = step % 60 == 30;
        let movers = if all { 400 } else { 1 + (rng.next_f32() * 12.0) as usize };
        for k in 0..movers {
            let i = if all { 2 + k } else { 2 + (rng.next_f32() * 400.0) as usize % 400 };
            let far = rng.next_f32() < 0.05;
            let d = (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5) * if far { 6.0 } else { 0.3 };
            let d = if all { d + Vec3::splat(0.25) } else { d };
            let grow = match step % 97 {
                50 => Vec3::splat(1.5),
                20 => Vec3::splat(0.3),
                _ => Vec3::ZERO,
            };
            boxes[i] = Aabb::new(boxes[i].min + d - grow, boxes[i].max + d + grow);
        }
        let mut moved = Vec::new();
        for (i, (f, b)) in fat.iter_mut().zip(&boxes).enumerate() {
            if !f.contains(b) {
                *f = fatten(b);
                moved.push(i as u32);
            }
        }
        let cell = bp.built.map_or(0.0, |b| b.1);
        if bp.update_moved(&fat, &moved, skip) {
            incremental += 1;
            wide +=
                usize::from(moved.iter().any(|&m| (fat[m as usize].max - fat[m as usize].min).max_element() > cell));
        } else {
            bp.update(&fat, skip);
            full += 1;
        }
        let brute: Vec<_> = brute_force(&fat).into_iter().filter(|&(a, b)| !skip(a, b)).collect();
        assert_eq!(bp.pairs, brute, "step {step}");
    }
    assert!(incremental > 200 && full > 3, "{incremental} incremental, {full} full");
    // Boxes grown past a cell are found by the incremental search too.
    assert!(wide > 0, "no incremental update moved a box wider than a cell");
}

#[test]
fn added_bodies_give_the_pairs_of_a_full_build() {
    // A ground and 300 boxes; each step one to three boxes are added (now and then one too
    // large for the grid's cells, or one spanning too many cells) and a few drift. The
    // pairs after `update_moved` with the moved and the new bodies (or its fallback) must
    // equal brute force every step, and most additions must not rebuild the grid.
    let mut rng = SplitMix64(29);
    let mut boxes = vec![Aabb::new(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0))];
    let random_box = |rng: &mut SplitMix64, half: f32| {
        let c = Vec3::new(rng.next_f32() * 12.0, rng.next_f32() * 3.0, rng.next_f32() * 12.0);
        let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * half + 0.1;
        Aabb::new(c - h, c + h)
    };
    for _ in 0..300 {
        boxes.push(random_box(&mut rng, 0.3));
    }
    // Every body below 100 is "static": those never pair with each other.
    let skip = |a: u32, b: u32| a < 100 && b < 100;
    let mut bp = BroadPhase::default();
    bp.update(&boxes, skip);
    let (mut incremental, mut full) = (0, 0);
    for step in 0..200 {
        let built = boxes.len();
        let mut moved = Vec::new();
        for _ in 0..(rng.next_f32() * 4.0) as usize {
            let i = 1 + (rng.next_f32() * (built - 1) as f32) as usize % (built - 1);
            let d = (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5) * 0.4;
            if !moved.contains(&(i as u32)) {
                boxes[i] = Aabb::new(boxes[i].min + d, boxes[i].max + d);
                moved.push(i as u32);
            }
        }
        for k in 0..1 + step % 3 {
            // Step 40 and 120: a box far wider than the cells (a new large body); step 80: a
            // long thin one, within the cell size across but spanning many cells.
            let b = match (step, k) {
                (40 | 120, 0) => random_box(&mut rng, 6.0),
                (80, 0) => Aabb::new(Vec3::new(0.0, 0.5, 0.0), Vec3::new(12.0, 0.6, 0.1)),
                _ => random_box(&mut rng, 0.3),
            };
            moved.push(boxes.len() as u32);
            boxes.push(b);
        }
        if step == 0 {
            // A new body left out of the moved ones is refused.
            assert!(!bp.update_moved(&boxes, &moved[..moved.len() - 1], skip));
        }
        if bp.update_moved(&boxes, &moved, skip) {
            incremental += 1;
        } else {
            bp.update(&boxes, skip);
            full += 1;
        }
        let brute: Vec<_> = brute_force(&boxes).into_iter().filter(|&(a, b)| !skip(a, b)).collect();
        assert_eq!(bp.pairs, brute, "step {step}");
    }
    assert!(incremental > 150 && (3..40).contains(&full), "{incremental} incremental, {full} full");
}

#[test]
fn tiny_worlds_never_pair_a_body_with_itself() {
    // Two to five boxes: 4–16 buckets, so forward cells often hash to the own bucket.
    let mut rng = SplitMix64(3);
    let mut bp = BroadPhase::default();
    for _ in 0..2000 {
        let n = 2 + (rng.next_f32() * 4.0) as usize;
        let boxes: Vec<Aabb> = (0..n)
            .map(|_| {
                let c = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 3.0;
                Aabb::new(c - 0.5, c + 0.5)
            })
            .collect();
        bp.update(&boxes, |_, _| false);
        assert_eq!(bp.pairs, brute_force(&boxes));
    }
}

#[test]
fn grid_matches_all_pairs() {
    let boxes = random_boxes(5, 300, Vec3::new(10.0, 3.0, 10.0));
    let mut bp = BroadPhase::default();
    bp.update(&boxes, |_, _| false);
    let brute = brute_force(&boxes);
    assert!(brute.len() > 100);
    assert!(bp.pairs.windows(2).all(|w| w[0] < w[1]), "pairs sorted and unique");
    assert_eq!(bp.pairs, brute);
}

/// The pair search shared out between threads (every thread joining every round, one
/// slot per block) finds exactly the pairs of the brute-force test, with a filter.
#[test]
fn grid_on_several_threads_matches_all_pairs() {
    let mut boxes = random_boxes(8, 900, Vec3::new(14.0, 4.0, 14.0));
    // Two large bodies (a floor and a wall), outside the grid: the grid bodies meet them
    // in their turn of the pair search, and their own pair joins the shortest thread
    // list before the lists are sorted and merged.
    boxes.insert(300, Aabb::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(15.0, 0.3, 15.0)));
    boxes.push(Aabb::new(Vec3::new(6.0, -1.0, -1.0), Vec3::new(6.4, 5.0, 15.0)));
    let skip = |a: u32, b: u32| (a + b) % 7 == 0;
    let want: Vec<(u32, u32)> = brute_force(&boxes).into_iter().filter(|&(a, b)| !skip(a, b)).collect();
    assert!(want.len() > 300);
    for threads in [2, 3, 4] {
        let mut workers = Workers::default();
        workers.set_threads(threads);
        workers.set_fine(true);
        let (mut bp, mut shared) = (BroadPhase::default(), false);
        for _ in 0..20 {
            bp.update_on(&boxes, &[], skip, &workers);
            assert_eq!(bp.pairs, want, "{threads} threads");
            shared |= bp.thread_keys[1..].iter().any(|k| !k.is_empty());
        }
        assert!(shared, "the other threads took blocks");
        assert_eq!(bp.large.len(), 2);
    }
}

/// Passive bodies (every other box of a dense field, and one of the two large bodies)
/// do not search, and the others search behind them for passive ones: the pairs are
/// still brute force's, less the passive pairs, on one thread and on three.
#[test]
fn passive_bodies_that_do_not_search_are_still_found() {
    let mut boxes = random_boxes(23, 1200, Vec3::new(12.0, 4.0, 12.0));
    boxes.insert(0, Aabb::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(13.0, 0.3, 13.0)));
    boxes.push(Aabb::new(Vec3::new(6.0, -1.0, -1.0), Vec3::new(6.4, 5.0, 13.0)));
    let passive: Vec<bool> = (0..boxes.len()).map(|i| i % 2 == 0 || i == 0).collect();
    let skip = |a: u32, b: u32| passive[a as usize] && passive[b as usize];
    let want: Vec<(u32, u32)> = brute_force(&boxes).into_iter().filter(|&(a, b)| !skip(a, b)).collect();
    assert!(want.len() > 1000, "{}", want.len());
    assert!(want.iter().any(|&(a, b)| passive[a as usize] != passive[b as usize]));
    for threads in [1, 3] {
        let mut workers = Workers::default();
        workers.set_threads(threads);
        workers.set_fine(true);
        let mut bp = BroadPhase::default();
        bp.update_on(&boxes, &passive, skip, &workers);
        assert_eq!(bp.pairs, want, "{threads} threads");
        // And the same pairs without the passive marks.
        bp.update_on(&boxes, &[], skip, &workers);
        assert_eq!(bp.pairs, want, "{threads} threads, no marks");
    }
}
