//! Quickhull (Barber, Dobkin & Huhdanpaa 1996; Gregorius, "Implementing Quickhull", GDC 2014).
//!
//! Runs in f64 on f32 input, so orientation tests are exact enough for any cloud an f32
//! scene can describe. The tolerance is the f32 one, `ε = 3·(max|x|+max|y|+max|z|)·FLT_EPSILON`:
//! a point counts as outside a face only if it is more than ε above it, so duplicates and
//! points within rounding of a face never create sliver faces.
//!
//! 0. ([`super::Hull::from_points`]) Weld points closer than [`WELD`] of the cloud's size,
//!    at most [`WELD_MAX`] ([`weld`]).
//! 1. Initial simplex from extreme points; reject clouds that are a point, a line or a plane.
//! 2. Each remaining point goes to the outside set of the first face it is above.
//! 3. Repeatedly take the farthest point of a non-empty outside set (the eye), flood-fill
//!    the faces it sees, replace them by a fan from the eye to the horizon, and hand the
//!    orphaned points to the new faces.
//! 4. Merge coplanar triangles into polygons ([`super::merge`]).
//!
//! Limits: triangles are built first and merged after, so near-coplanar input within ε of
//! a plane becomes one face (by design); the horizon is assumed to be a simple loop, which
//! holds for visibility computed in f64 on f32 input.

use super::{check_points, merge::merge_coplanar, tolerance_for, HullError};
use glam::{DVec3, Vec3};
use std::collections::HashMap;

struct Tri {
    v: [u32; 3],
    n: DVec3,
    d: f64,
    outside: Vec<u32>,
    alive: bool,
}

impl Tri {
    fn new(v: [u32; 3], p: &[DVec3]) -> Tri {
        let n = (p[v[1] as usize] - p[v[0] as usize]).cross(p[v[2] as usize] - p[v[0] as usize]).normalize_or_zero();
        Tri { v, n, d: n.dot(p[v[0] as usize]), outside: Vec::new(), alive: true }
    }
    fn dist(&self, x: DVec3) -> f64 {
        self.n.dot(x) - self.d
    }
}

/// Points closer than this fraction of the cloud's largest extent to a point kept before
/// them are welded into it ([`weld`]), up to [`WELD_MAX`].
pub const WELD: f32 = 1e-4;

/// The largest weld distance (m): a hundredth of the thinnest hull a scene may hold
/// (`limits::HULL_THICKNESS`, 1 mm), so welding never folds a thin hull flat.
pub const WELD_MAX: f32 = 1e-5;
const _: () = assert!(WELD_MAX <= crate::physics::limits::HULL_THICKNESS.min / 100.0);

/// Hull of `points` as (vertices, polygons wound CCW from outside), every point taken as
/// given ([`super::Hull::from_points`] welds them first, [`weld`]). Unused points are left
/// in the vertex list; [`super::Hull::from_polygons`] compacts them.
pub fn hull_polygons(points: &[Vec3]) -> Result<(Vec<Vec3>, Vec<Vec<u32>>), HullError> {
    check_points(points)?;
    let tol = tolerance_for(points.iter().copied()) as f64;
    let p: Vec<DVec3> = points.iter().map(|v| v.as_dvec3()).collect();
    let simplex = initial_simplex(&p, tol)?;

    let mut tris: Vec<Tri> = Vec::new();
    let mut edge_tri: HashMap<(u32, u32), usize> = HashMap::new();
    let [a, b, c, d] = simplex;
    for v in [[a, b, c], [a, d, b], [b, d, c], [c, d, a]] {
        add_tri(&mut tris, &mut edge_tri, v, &p)?;
    }
    for i in 0..p.len() as u32 {
        if simplex.contains(&i) {
            continue;
        }
        if let Some(t) = tris.iter_mut().find(|t| t.dist(p[i as usize]) > tol) {
            t.outside.push(i);
        }
    }

    let mut visible: Vec<usize> = Vec::new();
    let mut horizon: Vec<(u32, u32)> = Vec::new();
    let mut orphans: Vec<u32> = Vec::new();
    while let Some(seed) = tris.iter().position(|t| t.alive && !t.outside.is_empty()) {
        let eye = *tris[seed]
            .outside
            .iter()
            .max_by(|&&x, &&y| {
                tris[seed].dist(p[x as usize]).total_cmp(&tris[seed].dist(p[y as usize])).then(y.cmp(&x))
            })
            .expect("non-empty outside set");
        let e = p[eye as usize];

        // Flood-fill the faces the eye can see.
        visible.clear();
        visible.push(seed);
        let mut is_visible: HashMap<usize, bool> = HashMap::new();
        is_visible.insert(seed, true);
        let mut i = 0;
        while i < visible.len() {
            let t = visible[i];
            i += 1;
            for k in 0..3 {
                let (x, y) = (tris[t].v[k], tris[t].v[(k + 1) % 3]);
                let nb = edge_tri[&(y, x)];
                if is_visible.contains_key(&nb) {
                    continue;
                }
                let vis = tris[nb].dist(e) > 0.0;
                is_visible.insert(nb, vis);
                if vis {
                    visible.push(nb);
                }
            }
        }
        horizon.clear();
        orphans.clear();
        for &t in &visible {
            for k in 0..3 {
                let (x, y) = (tris[t].v[k], tris[t].v[(k + 1) % 3]);
                if !is_visible[&edge_tri[&(y, x)]] {
                    horizon.push((x, y));
                }
            }
            orphans.append(&mut tris[t].outside);
            tris[t].alive = false;
        }
        for &t in &visible {
            for k in 0..3 {
                edge_tri.remove(&(tris[t].v[k], tris[t].v[(k + 1) % 3]));
            }
        }
        let first_new = tris.len();
        for &(x, y) in &horizon {
            add_tri(&mut tris, &mut edge_tri, [x, y, eye], &p)?;
        }
        for &o in &orphans {
            if o == eye {
                continue;
            }
            let q = p[o as usize];
            if let Some(t) = tris[first_new..].iter_mut().find(|t| t.dist(q) > tol) {
                t.outside.push(o);
            }
        }
    }

    let alive: Vec<[u32; 3]> = tris.iter().filter(|t| t.alive).map(|t| t.v).collect();
    let polys = merge_coplanar(&p, &alive, tol)?;
    Ok((points.to_vec(), polys))
}

fn add_tri(
    tris: &mut Vec<Tri>,
    edge_tri: &mut HashMap<(u32, u32), usize>,
    v: [u32; 3],
    p: &[DVec3],
) -> Result<(), HullError> {
    let ti = tris.len();
    for k in 0..3 {
        if edge_tri.insert((v[k], v[(k + 1) % 3]), ti).is_some() {
            return Err(HullError::Degenerate("numerically inconsistent horizon"));
        }
    }
    tris.push(Tri::new(v, p));
    Ok(())
}

/// Four extreme, non-coplanar points, ordered so that face (0, 1, 2) faces away from 3.
fn initial_simplex(p: &[DVec3], tol: f64) -> Result<[u32; 4], HullError> {
    let mut ext = [0usize; 6];
    for (i, q) in p.iter().enumerate() {
        for axis in 0..3 {
            if q[axis] < p[ext[2 * axis]][axis] {
                ext[2 * axis] = i;
            }
            if q[axis] > p[ext[2 * axis + 1]][axis] {
                ext[2 * axis + 1] = i;
            }
        }
    }
    let (mut i0, mut i1, mut best) = (0, 0, -1.0);
    for axis in 0..3 {
        let (a, b) = (ext[2 * axis], ext[2 * axis + 1]);
        let d = p[a].distance_squared(p[b]);
        if d > best {
            (i0, i1, best) = (a, b, d);
        }
    }
    if best.sqrt() <= tol {
        return Err(HullError::Degenerate("all points coincide"));
    }
    let dir = (p[i1] - p[i0]).normalize();
    let (i2, d2) = argmax(p, |q| (q - p[i0]).cross(dir).length());
    if d2 <= tol {
        return Err(HullError::Degenerate("all points lie on one line"));
    }
    let n = (p[i1] - p[i0]).cross(p[i2] - p[i0]).normalize();
    let (i3, d3) = argmax(p, |q| n.dot(q - p[i0]).abs());
    if d3 <= tol {
        return Err(HullError::Degenerate("all points lie on one plane"));
    }
    let (a, mut b, mut c, d) = (i0 as u32, i1 as u32, i2 as u32, i3 as u32);
    if n.dot(p[i3] - p[i0]) > 0.0 {
        std::mem::swap(&mut b, &mut c);
    }
    Ok([a, b, c, d])
}

fn argmax(p: &[DVec3], f: impl Fn(DVec3) -> f64) -> (usize, f64) {
    let mut best = (0, f64::MIN);
    for (i, q) in p.iter().enumerate() {
        let v = f(*q);
        if v > best.1 {
            best = (i, v);
        }
    }
    best
}

/// The weld distance for `points`: [`WELD`] of the cloud's largest extent, at most
/// [`WELD_MAX`] (0 for a cloud of one point).
pub fn weld_distance(points: &[Vec3]) -> f32 {
    let (lo, hi) = points.iter().fold((Vec3::MAX, Vec3::MIN), |(lo, hi), &p| (lo.min(p), hi.max(p)));
    (WELD * (hi - lo).max_element()).min(WELD_MAX)
}

/// `points` without those closer than [`weld_distance`] to a point kept before them (in
/// input order); a cloud with none that close comes back as it was. A small cloud (at most
/// [`WELD_BRUTE_MAX`] points) compares each point with the kept ones; a larger one files
/// the kept points in a hashed grid of cells that wide, and a point looks only at the 27
/// cells around its own (expected linear time). Both keep the same points.
///
/// Quickhull's own tolerance (a few f32 roundings of the coordinates) keeps two points
/// apart by more than that as two vertices. A cloud with copies of a corner moved by
/// 10⁻⁶ of its size (the rounding an exporter or a transform leaves) then hulls into a
/// cluster of vertices joined by sliver faces and edges of micrometres: a face contact took
/// a sliver around the deepest vertex as its incident face and held that corner three times
/// over, with none of the real face's other corners (a tumbling hull of such points sank
/// 46 mm into the ground in one step where its neighbouring corner came down). Welding
/// moves the hull by at most the weld distance, which [`WELD_MAX`] keeps a hundredth of
/// the thinnest hull a scene may hold: a distance in proportion to the size alone would
/// fold a 20 m slab 1 mm thick into a plane.
pub fn weld(points: &[Vec3]) -> std::borrow::Cow<'_, [Vec3]> {
    weld_by(points, points.len() <= WELD_BRUTE_MAX)
}

/// Clouds of at most this many points are welded by comparing every pair (a few thousand
/// distance tests; the hashed grid's 27 lookups a point cost more below it).
pub const WELD_BRUTE_MAX: usize = 64;

/// [`weld`], comparing every pair when `brute`, else through the hashed grid.
pub(crate) fn weld_by(points: &[Vec3], brute: bool) -> std::borrow::Cow<'_, [Vec3]> {
    let w = weld_distance(points);
    if w.is_nan() || w <= 0.0 {
        return std::borrow::Cow::Borrowed(points);
    }
    let mut dropped = vec![false; points.len()];
    if brute {
        for i in 0..points.len() {
            let p = points[i];
            dropped[i] = (0..i).any(|k| !dropped[k] && points[k].distance_squared(p) < w * w);
        }
    } else {
        let cell = |p: Vec3| (p / w).floor().as_i64vec3();
        let mut grid: HashMap<glam::I64Vec3, Vec<u32>> = HashMap::new();
        for (i, &p) in points.iter().enumerate() {
            let c = cell(p);
            let near = (-1..=1).any(|x| {
                (-1..=1).any(|y| {
                    (-1..=1).any(|z| {
                        grid.get(&(c + glam::I64Vec3::new(x, y, z)))
                            .is_some_and(|kept| kept.iter().any(|&k| points[k as usize].distance_squared(p) < w * w))
                    })
                })
            });
            if near {
                dropped[i] = true;
            } else {
                grid.entry(c).or_default().push(i as u32);
            }
        }
    }
    if !dropped.contains(&true) {
        return std::borrow::Cow::Borrowed(points);
    }
    std::borrow::Cow::Owned(points.iter().zip(&dropped).filter(|(_, &d)| !d).map(|(&p, _)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::builders::SplitMix64;

    /// The two ways of welding keep the same points: clouds of 4 to about 200 points in
    /// boxes of 1 mm to 100 m, a third of them with copies moved by up to twice the weld
    /// distance (some welded, some kept), the copies before, after and among the originals.
    #[test]
    fn welding_by_pairs_and_by_the_grid_agree() {
        let mut rng = SplitMix64(0x3E1D);
        let mut welded = 0;
        for case in 0..300 {
            let n = 4 + (rng.next_f32() * 150.0) as usize;
            let size = 10f32.powf(rng.next_f32() * 5.0 - 3.0);
            let mut r = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5;
            let mut points: Vec<Vec3> = (0..n).map(|_| r() * size).collect();
            let w = weld_distance(&points);
            for k in 0..n {
                if k % 3 == 0 {
                    let copy = points[k] + r() * 4.0 * w;
                    let at = (r().x + 0.5) * points.len() as f32;
                    points.insert(at as usize, copy);
                }
            }
            let (brute, grid) = (weld_by(&points, true), weld_by(&points, false));
            assert_eq!(brute, grid, "case {case}: {} points over {size} m", points.len());
            welded += points.len() - brute.len();
        }
        assert!(welded > 300, "{welded} points welded");
    }
}
