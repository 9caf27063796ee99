//! Separating-axis test between two boxes: the 15 axes of the OBB overlap test (Gottschalk,
//! Lin and Manocha, "OBBTree", SIGGRAPH 1996; Ericson, *Real-Time Collision Detection*
//! §4.4.1), with the separation along each axis instead of a yes/no answer.
//!
//! Everything runs in A's frame with B's axes as the columns of `R` (B's rotation relative
//! to A) and B's centre at `t`. For a unit axis L the boxes project to intervals of radius
//! `rA = Σ hA_k |L·a_k|` and `rB = Σ hB_k |L·b_k|`, so the separation along L is
//! `|L·t| − rA − rB`:
//!
//! - A's face normals e_k and B's face normals b_k: six axes, whose radii are sums over the
//!   entries of |R|.
//! - Edge pairs e_i × b_j: nine axes, divided by |e_i × b_j| to make them unit; pairs
//!   closer to parallel than [`PARALLEL_TOLERANCE`] are skipped, as in the hull SAT (a face
//!   axis covers that direction).
//!
//! The answer is a [`SatResult`] naming the same faces, support vertices and edges as the
//! general hull SAT ([`super::sat::sat`]) on the box's half-edge mesh (through the feature
//! tables of [`Cuboid`]), with the same early exits: A's faces, then B's, then the edges,
//! stopping as soon as one separates by more than the margin. Contact building, feature IDs
//! and the pair's cache therefore do not know which SAT ran. Every edge axis of two boxes
//! builds a face of the Minkowski difference (the supporting edges' Gauss-map arcs both hold
//! it), so no Gauss-map pruning is needed.
//!
//! Limits: only for boxes centred on their body's origin (a translated box hull loses its
//! [`Cuboid`] tag and takes the hull SAT).

use super::sat::{EdgeQuery, FaceQuery, SatResult, PARALLEL_TOLERANCE};
use crate::physics::hull::builders::Cuboid;
use crate::physics::math::Iso;
use glam::{Mat3A, Vec3A};

/// Index of the largest lane and its value.
#[inline]
fn arg_max(v: Vec3A) -> (usize, f32) {
    if v.x >= v.y && v.x >= v.z {
        (0, v.x)
    } else if v.y >= v.z {
        (1, v.y)
    } else {
        (2, v.z)
    }
}

/// Edge-table index of the edge along axis `i` supporting direction `d` (signs of the two
/// other components, see [`Cuboid::edge`]).
#[inline]
fn edge_corner(d: Vec3A, i: usize) -> usize {
    usize::from(d[(i + 1) % 3] > 0.0) | usize::from(d[(i + 2) % 3] > 0.0) << 1
}

/// Best face and edge axes of two boxes (`rel` = B's pose in A's frame). Stops
/// early once a separation exceeds `margin`; see the module docs.
pub fn sat_boxes(a: &Cuboid, b: &Cuboid, rel: &Iso, margin: f32) -> SatResult {
    let none_e = EdgeQuery { edge_a: 0, edge_b: 0, separation: f32::NEG_INFINITY };
    let none_f = FaceQuery { face: 0, separation: f32::NEG_INFINITY };
    let r = Mat3A::from_quat(rel.rot);
    let t = Vec3A::from(rel.pos);
    let (ha, hb) = (Vec3A::from(a.half), Vec3A::from(b.half));
    let abs = Mat3A::from_cols(r.x_axis.abs(), r.y_axis.abs(), r.z_axis.abs());

    // A's faces: B's radius along e_k is row k of |R| times hB.
    let sep_a = t.abs() - ha - abs * hb;
    let (k, s) = arg_max(sep_a);
    let positive = t[k] > 0.0;
    let face_a = FaceQuery { face: a.face[k][usize::from(positive)], separation: s };
    if s > margin {
        return SatResult { face_a, face_b: none_f, edge: none_e, separated: true };
    }

    // B's faces: A's radius along b_j is column j of |R| dotted with hA.
    let tb = r.transpose() * t;
    let sep_b = tb.abs() - hb - abs.transpose() * ha;
    let (j, s) = arg_max(sep_b);
    // B's face towards A has outward normal −sign(tB_j)·e_j (in B's frame).
    let toward = tb[j] < 0.0;
    let face_b = FaceQuery { face: b.face[j][usize::from(toward)], separation: s };
    if s > margin {
        return SatResult { face_a, face_b, edge: none_e, separated: true };
    }

    // Edge pairs e_i × b_j.
    let mut best = (none_e.separation, 0usize, 0usize, Vec3A::ZERO);
    let tol2 = PARALLEL_TOLERANCE * PARALLEL_TOLERANCE;
    'outer: for i in 0..3 {
        for j in 0..3 {
            let c = r.col(j);
            let l = match i {
                0 => Vec3A::new(0.0, -c.z, c.y),
                1 => Vec3A::new(c.z, 0.0, -c.x),
                _ => Vec3A::new(-c.y, c.x, 0.0),
            };
            let len2 = l.length_squared();
            if len2 < tol2 {
                continue;
            }
            let ra = ha.dot(l.abs());
            let rb = hb.dot((r.transpose() * l).abs());
            let d = l.dot(t);
            let s = (d.abs() - ra - rb) / len2.sqrt();
            if s > best.0 {
                best = (s, i, j, if d < 0.0 { -l } else { l });
                if s > margin {
                    break 'outer;
                }
            }
        }
    }
    let (s, i, j, n) = best;
    if !s.is_finite() {
        return SatResult { face_a, face_b, edge: none_e, separated: false };
    }
    // A's edge along e_i supporting n; B's edge along b_j supporting −n (in B's frame).
    let nb = r.transpose() * n;
    let edge =
        EdgeQuery { edge_a: a.edge[i][edge_corner(n, i)], edge_b: b.edge[j][edge_corner(-nb, j)], separation: s };
    SatResult { face_a, face_b, edge, separated: s > margin }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::collide::sat::{sat, EdgeSoa};
    use crate::physics::hull::Hull;
    use glam::{Quat, Vec3};

    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f32 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (self.0 >> 40) as f32 / (1u64 << 24) as f32
        }
        fn v(&mut self) -> Vec3 {
            Vec3::new(self.f() - 0.5, self.f() - 0.5, self.f() - 0.5)
        }
    }

    /// The box SAT against the general hull SAT on the same half-edge meshes, which
    /// enumerates every edge pair that builds a Minkowski face: same separations, same
    /// separated flag, and the same faces, support vertices and edges wherever the best
    /// axis is not a near tie.
    #[test]
    fn box_sat_names_the_same_axes_as_the_hull_sat() {
        let mut rng = Rng(7);
        let mut soa = EdgeSoa::default();
        let (mut faces, mut edges, mut apart) = (0, 0, 0);
        for _ in 0..20_000 {
            let ha = Vec3::new(0.1, 0.1, 0.1) + Vec3::new(rng.f(), rng.f(), rng.f());
            let hb = Vec3::new(0.1, 0.1, 0.1) + Vec3::new(rng.f(), rng.f(), rng.f());
            let (a, b) = (Hull::cuboid(ha).unwrap(), Hull::cuboid(hb).unwrap());
            let q = Quat::from_axis_angle(rng.v().normalize_or(Vec3::Y), rng.f() * 6.3);
            let dir = rng.v().normalize_or(Vec3::X);
            let dist = (ha.length() + hb.length()) * (0.1 + rng.f());
            let rel = Iso::new(dir * dist, q);
            let margin = 0.02;
            let fast = sat_boxes(a.cuboid.as_ref().unwrap(), b.cuboid.as_ref().unwrap(), &rel, margin);
            let full = sat(&a, &b, &rel, margin, &mut soa);
            assert_eq!(fast.separated, full.separated, "{rel:?}");
            let tol = 1e-5 * (1.0 + dist);
            // The hull SAT stops at the first face over the margin, the box SAT takes the
            // best of three: equal below the margin, never smaller above it.
            if full.face_a.separation > margin {
                assert!(fast.face_a.separation >= full.face_a.separation - tol);
                apart += 1;
                continue;
            }
            assert!((fast.face_a.separation - full.face_a.separation).abs() < tol);
            let second = |f: &dyn Fn(usize) -> f32| {
                // Gap between the best and the second-best value of a 3-axis query.
                let mut v = [f(0), f(1), f(2)];
                v.sort_by(|x, y| y.total_cmp(x));
                v[0] - v[1]
            };
            let ra = Mat3A::from_quat(rel.rot);
            let t = Vec3A::from(rel.pos);
            let abs = Mat3A::from_cols(ra.x_axis.abs(), ra.y_axis.abs(), ra.z_axis.abs());
            let sa = t.abs() - Vec3A::from(ha) - abs * Vec3A::from(hb);
            if second(&|k| sa[k]) > tol {
                assert_eq!(fast.face_a.face, full.face_a.face);
            }
            faces += 1;
            if full.face_b.separation > margin {
                assert!(fast.face_b.separation >= full.face_b.separation - tol);
                continue;
            }
            assert!((fast.face_b.separation - full.face_b.separation).abs() < tol);
            let tb = ra.transpose() * t;
            let sb = tb.abs() - Vec3A::from(hb) - abs.transpose() * Vec3A::from(ha);
            if second(&|k| sb[k]) > tol {
                assert_eq!(fast.face_b.face, full.face_b.face);
            }
            // The hull SAT may stop at an earlier edge over the margin; compare when both
            // searched every pair.
            if !full.separated && full.edge.separation.is_finite() {
                assert!(
                    (fast.edge.separation - full.edge.separation).abs() < tol,
                    "{} vs {}",
                    fast.edge.separation,
                    full.edge.separation
                );
                edges += 1;
                // Same edges unless another pair comes within the tolerance.
                let mut others = f32::NEG_INFINITY;
                for i in 0..3 {
                    for j in 0..3 {
                        let c = ra.col(j);
                        let l = Vec3A::from(Vec3::AXES[i]).cross(c);
                        let len = l.length();
                        if len < PARALLEL_TOLERANCE {
                            continue;
                        }
                        let s = (l.dot(t).abs()
                            - Vec3A::from(ha).dot(l.abs())
                            - Vec3A::from(hb).dot((ra.transpose() * l).abs()))
                            / len;
                        if (s - fast.edge.separation).abs() > tol {
                            others = others.max(s);
                        }
                    }
                }
                if fast.edge.separation - others > 1e-3 {
                    assert_eq!((fast.edge.edge_a, fast.edge.edge_b), (full.edge.edge_a, full.edge.edge_b), "{rel:?}");
                }
            }
        }
        assert!(apart > 3000 && faces > 3000 && edges > 3000, "{apart} {faces} {edges}");
    }
}
