//! A unit sphere swept against one triangle: the earliest time it touches the triangle's
//! face, one of its three vertices or one of its three edges (Fauerby, *Improved Collision
//! Detection and Response*, 2003, §3.2–3.4). Everything here is in the character's
//! ellipsoid space, where the ellipsoid is the unit sphere.
//!
//! The sphere's centre moves `p(t) = base + t·vel`, t ∈ [0, 1].
//! 1. **The plane.** With the triangle's unit normal n and signed distance
//!    `s(t) = n·p(t) + d`, the sphere touches the plane while |s(t)| ≤ 1: between
//!    `t₀ = (−1 − s(0)) / n·vel` and `t₁ = (1 − s(0)) / n·vel` (swapped so t₀ ≤ t₁). No
//!    overlap of [t₀, t₁] with [0, 1]: no hit. Moving parallel to the plane (n·vel = 0): a
//!    hit is possible only if the sphere is already within 1 of the plane (embedded), and
//!    then only through a vertex or an edge.
//! 2. **The face.** At t₀ the sphere touches the plane at `p(t₀) − n`; if that point lies
//!    inside the triangle, it is the first contact.
//! 3. **Vertices.** |p(t) − P|² = 1 is the quadratic `a·t² + b·t + c = 0` with
//!    `a = |vel|²`, `b = 2·vel·(base − P)`, `c = |P − base|² − 1`; its smaller root, if in
//!    [0, t_best], is a hit.
//! 4. **Edges.** For the edge P₁ + f·e (f ∈ [0, 1]) the sphere touches the infinite line when
//!    the distance from p(t) to the line is 1; with `g = P₁ − base`:
//!    `a = |e|²·(−|vel|²) + (e·vel)²`, `b = |e|²·(2·vel·g) − 2·(e·vel)(e·g)`,
//!    `c = |e|²·(1 − |g|²) + (e·g)²`; the smaller root t is a hit if the contact point's
//!    parameter `f = ((e·vel)·t − e·g) / |e|²` is in [0, 1].
//!
//! Known limits: one-sided, as in the paper — a triangle whose normal points along the motion
//! (n·vel > 0) is skipped, so a mesh's faces must point at the side the character is on. A
//! sphere already deeper than its radius behind a face is not pushed out.

use glam::Vec3;

/// Which part of the triangle the sphere touched first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Inside the face.
    Face,
    /// Edge k: from corner k to corner (k + 1) mod 3.
    Edge(u8),
    /// Corner k.
    Vertex(u8),
}

impl Feature {
    /// "face", "edge 1", "vertex 2" (panel text).
    pub fn label(&self) -> String {
        match self {
            Feature::Face => "face".into(),
            Feature::Edge(k) => format!("edge {k}"),
            Feature::Vertex(k) => format!("vertex {k}"),
        }
    }
}

/// The first touch of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Fraction of the motion at the touch, in [0, 1].
    pub t: f32,
    /// The touching point on the triangle.
    pub point: Vec3,
    /// Where it is.
    pub feature: Feature,
}

/// The smallest root of `a·t² + b·t + c = 0` in `[0, max]`, if any.
#[inline]
pub fn lowest_root(a: f32, b: f32, c: f32, max: f32) -> Option<f32> {
    let det = b * b - 4.0 * a * c;
    if det < 0.0 || a == 0.0 {
        return None;
    }
    let sq = det.sqrt();
    let (mut r1, mut r2) = ((-b - sq) / (2.0 * a), (-b + sq) / (2.0 * a));
    if r1 > r2 {
        std::mem::swap(&mut r1, &mut r2);
    }
    if r1 > 0.0 && r1 < max {
        return Some(r1);
    }
    // Fauerby keeps the second root when the first is behind the start (the sphere is
    // already past the first touch, inside the feature's reach).
    if r2 > 0.0 && r2 < max {
        return Some(r2);
    }
    None
}

/// Whether point `p`, on the plane of triangle `[a, b, c]`, lies inside it (same side of all
/// three edges as the normal says; on an edge counts as inside).
#[inline]
pub fn inside_triangle(p: Vec3, [a, b, c]: [Vec3; 3], n: Vec3) -> bool {
    (b - a).cross(p - a).dot(n) >= 0.0 && (c - b).cross(p - b).dot(n) >= 0.0 && (a - c).cross(p - c).dot(n) >= 0.0
}

/// The unit sphere at `base` moving by `vel` against triangle `tri` with unit normal `n`
/// (module docs): the first touch within the motion, if any.
pub fn sweep_unit_sphere(base: Vec3, vel: Vec3, tri: [Vec3; 3], n: Vec3) -> Option<SweepHit> {
    let n_dot_v = n.dot(vel);
    if n_dot_v > 0.0 {
        return None; // back-facing: one-sided (module docs)
    }
    let s0 = n.dot(base - tri[0]);
    let embedded;
    let (t0, t1);
    if n_dot_v == 0.0 {
        if s0.abs() >= 1.0 {
            return None;
        }
        embedded = true;
        (t0, t1) = (0.0, 1.0);
    } else {
        let (a, b) = ((-1.0 - s0) / n_dot_v, (1.0 - s0) / n_dot_v);
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        if lo > 1.0 || hi < 0.0 {
            return None;
        }
        embedded = false;
        (t0, t1) = (lo.max(0.0), hi.min(1.0));
    }
    let _ = t1;
    if !embedded {
        let at_plane = base - n + vel * t0;
        if inside_triangle(at_plane, tri, n) {
            return Some(SweepHit { t: t0, point: at_plane, feature: Feature::Face });
        }
    }
    // The face was not touched first: the earliest vertex or edge touch, if any.
    let mut best: Option<SweepHit> = None;
    let mut t_max = 1.0f32;
    let v2 = vel.length_squared();
    for (k, &p) in tri.iter().enumerate() {
        let (b, c) = (2.0 * vel.dot(base - p), (p - base).length_squared() - 1.0);
        if let Some(t) = lowest_root(v2, b, c, t_max) {
            t_max = t;
            best = Some(SweepHit { t, point: p, feature: Feature::Vertex(k as u8) });
        }
    }
    for k in 0..3 {
        let (p1, p2) = (tri[k], tri[(k + 1) % 3]);
        let e = p2 - p1;
        let g = p1 - base;
        let (e2, e_v, e_g) = (e.length_squared(), e.dot(vel), e.dot(g));
        let a = e2 * -v2 + e_v * e_v;
        let b = e2 * (2.0 * vel.dot(g)) - 2.0 * e_v * e_g;
        let c = e2 * (1.0 - g.length_squared()) + e_g * e_g;
        if let Some(t) = lowest_root(a, b, c, t_max) {
            let f = (e_v * t - e_g) / e2;
            if (0.0..=1.0).contains(&f) {
                t_max = t;
                best = Some(SweepHit { t, point: p1 + e * f, feature: Feature::Edge(k as u8) });
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The triangle (0,0,0), (4,0,0), (0,0,−4) in the plane y = 0, normal +y.
    fn floor() -> ([Vec3; 3], Vec3) {
        ([Vec3::ZERO, Vec3::new(4.0, 0.0, 0.0), Vec3::new(0.0, 0.0, -4.0)], Vec3::Y)
    }

    /// Falling straight onto the face from height 3 by 4: the sphere touches when its centre
    /// is at height 1, t = (3 − 1)/4 = 0.5, at the point below the centre.
    #[test]
    fn a_face_hit_at_the_analytic_time() {
        let (tri, n) = floor();
        let base = Vec3::new(1.0, 3.0, -1.0);
        let h = sweep_unit_sphere(base, Vec3::new(0.0, -4.0, 0.0), tri, n).unwrap();
        assert_eq!(h.feature, Feature::Face);
        assert!((h.t - 0.5).abs() < 1e-5, "{}", h.t);
        assert!((h.point - Vec3::new(1.0, 0.0, -1.0)).length() < 1e-5, "{}", h.point);
        // Slanted: centre from (1, 3, −1) by (2, −4, 0): height 1 at t = 0.5, contact below
        // the centre then, at x = 2.
        let h = sweep_unit_sphere(base, Vec3::new(2.0, -4.0, 0.0), tri, n).unwrap();
        assert!((h.t - 0.5).abs() < 1e-5 && (h.point - Vec3::new(2.0, 0.0, -1.0)).length() < 1e-5, "{h:?}");
    }

    /// Moving along −z at height 0.5 past the triangle's edge z = 0 (from the +z side): the
    /// distance from the centre (x, 0.5, z) to the edge line (y = 0, z = 0) is
    /// √(0.25 + z²) = 1 at z = √0.75; from z = 3 at speed 4, t = (3 − √0.75)/4, at the point
    /// (x, 0, 0) of the edge.
    #[test]
    fn an_edge_hit_at_the_analytic_time() {
        let (tri, n) = floor();
        // Moving parallel to the plane (n·vel = 0) and within 1 of it: embedded, so only the
        // vertices and edges can be touched.
        let base = Vec3::new(1.5, 0.5, 3.0);
        let h = sweep_unit_sphere(base, Vec3::new(0.0, 0.0, -4.0), tri, n).unwrap();
        let want = (3.0 - 0.75f32.sqrt()) / 4.0;
        assert_eq!(h.feature, Feature::Edge(0));
        assert!((h.t - want).abs() < 1e-5, "{} vs {want}", h.t);
        assert!((h.point - Vec3::new(1.5, 0.0, 0.0)).length() < 1e-5, "{}", h.point);
    }

    /// Moving along +x at height 0.6 and z = 0.3 towards the corner (0, 0, 0) from x = −3:
    /// the corner is at distance 1 when (x² + 0.36 + 0.09) = 1, x = −√0.55; t = (3 − √0.55)/4.
    #[test]
    fn a_vertex_hit_at_the_analytic_time() {
        let (tri, n) = floor();
        let base = Vec3::new(-3.0, 0.6, 0.3);
        let h = sweep_unit_sphere(base, Vec3::new(4.0, 0.0, 0.0), tri, n).unwrap();
        let want = (3.0 - 0.55f32.sqrt()) / 4.0;
        assert_eq!(h.feature, Feature::Vertex(0));
        assert!((h.t - want).abs() < 1e-5, "{} vs {want}", h.t);
        assert_eq!(h.point, Vec3::ZERO);
    }

    #[test]
    fn misses_are_misses() {
        let (tri, n) = floor();
        // Passes beside the triangle.
        assert!(sweep_unit_sphere(Vec3::new(8.0, 3.0, 2.0), Vec3::new(0.0, -4.0, 0.0), tri, n).is_none());
        // Stops short of it.
        assert!(sweep_unit_sphere(Vec3::new(1.0, 3.0, -1.0), Vec3::new(0.0, -1.5, 0.0), tri, n).is_none());
        // Moves away from it, and comes at it from behind (one-sided).
        assert!(sweep_unit_sphere(Vec3::new(1.0, 3.0, -1.0), Vec3::new(0.0, 4.0, 0.0), tri, n).is_none());
        assert!(sweep_unit_sphere(Vec3::new(1.0, -3.0, -1.0), Vec3::new(0.0, 4.0, 0.0), tri, n).is_none());
        // Parallel and more than a radius above the plane.
        assert!(sweep_unit_sphere(Vec3::new(1.0, 1.5, 3.0), Vec3::new(0.0, 0.0, -4.0), tri, n).is_none());
    }

    /// Against dense sampling: no touch is found later than the first time the sphere comes
    /// within its radius of the triangle, and none when it never does.
    #[test]
    fn sweeps_agree_with_dense_sampling() {
        let mut s = 11u64;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let tri = [Vec3::new(-1.0, 0.0, 1.0), Vec3::new(2.0, 0.3, 0.5), Vec3::new(0.0, -0.2, -2.0)];
        let n = (tri[1] - tri[0]).cross(tri[2] - tri[0]).normalize();
        let mut hits = 0;
        for _ in 0..500 {
            let base = Vec3::new(rnd(), rnd(), rnd()) * 3.0 + n * 2.5;
            let vel = Vec3::new(rnd(), rnd(), rnd()) * 4.0 - n * 2.0;
            // Start in front of the face and clear of the triangle, moving towards its side.
            let clear = (crate::physics::mesh::closest_point_on_triangle(base, tri) - base).length() > 1.01;
            if n.dot(vel) > 0.0 || n.dot(base - tri[0]) <= 0.0 || !clear {
                continue;
            }
            let steps = 4000;
            let first = (0..=steps).map(|i| i as f32 / steps as f32).find(|&t| {
                let c = base + vel * t;
                (crate::physics::mesh::closest_point_on_triangle(c, tri) - c).length() <= 1.0
            });
            match (sweep_unit_sphere(base, vel, tri, n), first) {
                (Some(h), Some(t)) => {
                    hits += 1;
                    assert!(h.t <= t + 1e-4, "sweep {} after sampled touch {t}", h.t);
                    assert!(h.t >= t - 2.0 / steps as f32 - 1e-4, "sweep {} before sampled touch {t}", h.t);
                    let c = base + vel * h.t;
                    assert!(((h.point - c).length() - 1.0).abs() < 1e-3, "contact not on the sphere");
                }
                (None, None) => {}
                (h, t) => panic!("sweep {h:?}, sampling {t:?} (base {base}, vel {vel})"),
            }
        }
        assert!(hits > 50, "{hits} hits");
    }
}
