//! Contacts involving curved shapes: spheres and capsules (a capsule is a segment along its
//! local Y axis swept by a sphere).
//!
//! - sphere–sphere: along the centre line;
//! - sphere–hull: the closest point on the hull (on a face the sphere's centre projects
//!   into, else on an edge of a face it is in front of); if the centre is inside, the face
//!   of least penetration;
//! - sphere–capsule: sphere against the closest point of the segment;
//! - capsule–capsule: closest points of the segments; two points when nearly parallel
//!   (so a capsule lying on another does not rock about a single point);
//! - capsule–hull: SAT with the segment (hull faces; segment × hull edges for edges whose
//!   Gauss-map arc crosses the segment's great circle), then the segment clipped against
//!   the reference face's side planes for up to two points.
//!
//! All functions write a manifold whose normal points from the *first* shape named to the
//! second, e.g. `sphere_hull` from the hull to the sphere; the dispatcher flips as needed.

use super::sat::{beats, edge_separation, REL_EDGE_TOLERANCE};
use super::{CollideConfig, ContactKind, ContactPoint, FeatureId, Manifold};
use crate::physics::hull::Hull;
use crate::physics::math::{closest_point_segment, closest_points_segments, Iso};
use glam::Vec3;

/// World endpoints of a capsule's core segment.
pub fn capsule_segment(x: &Iso, half_height: f32) -> (Vec3, Vec3) {
    (x.transform_point(Vec3::new(0.0, -half_height, 0.0)), x.transform_point(Vec3::new(0.0, half_height, 0.0)))
}

fn any_perpendicular(v: Vec3) -> Vec3 {
    let v = v.normalize_or(Vec3::Y);
    v.any_orthonormal_vector()
}

/// Sphere A at `ca` against sphere B at `cb`.
pub fn sphere_sphere(ca: Vec3, ra: f32, cb: Vec3, rb: f32, cfg: &CollideConfig, out: &mut Manifold) {
    out.clear();
    let d = cb - ca;
    let dist = d.length();
    let sep = dist - ra - rb;
    if sep > cfg.margin {
        return;
    }
    let n = if dist > 1e-6 { d / dist } else { Vec3::Y };
    out.normal = n;
    out.kind = ContactKind::FaceA;
    let pa = ca + n * ra;
    let pb = cb - n * rb;
    out.points.push(ContactPoint { position: 0.5 * (pa + pb), depth: -sep, id: FeatureId::round(0, 0) });
}

/// Sphere B (centre `cb`, radius `rb`) against segment-sphere A (`p q`, radius `ra`)… the
/// argument order is sphere first: normal from the sphere to the capsule.
pub fn sphere_capsule(c: Vec3, rs: f32, p: Vec3, q: Vec3, rc: f32, cfg: &CollideConfig, out: &mut Manifold) {
    let (cp, _) = closest_point_segment(p, q, c);
    sphere_sphere(c, rs, cp, rc, cfg, out);
}

/// Closest point of face `f` (a convex polygon) to `x`, all in the hull frame.
fn closest_on_face(h: &Hull, f: usize, x: Vec3) -> Vec3 {
    let face = &h.faces[f];
    let proj = x - face.normal * (face.normal.dot(x) - face.offset);
    let mut inside = true;
    let mut best = (proj, f32::MAX);
    for e in h.face_edges(f) {
        let a = h.vertices[h.edges[e as usize].origin as usize];
        let b = h.vertices[h.target(e) as usize];
        if (b - a).cross(proj - a).dot(face.normal) < 0.0 {
            inside = false;
        }
        let (c, _) = closest_point_segment(a, b, x);
        let d = c.distance_squared(x);
        if d < best.1 {
            best = (c, d);
        }
    }
    if inside {
        proj
    } else {
        best.0
    }
}

/// Hull A (pose `xh`) against sphere B (world centre `c`). Normal from hull to sphere.
pub fn sphere_hull(c: Vec3, r: f32, h: &Hull, xh: &Iso, cfg: &CollideConfig, out: &mut Manifold) {
    out.clear();
    let cl = xh.inv_transform_point(c);
    let mut best = (0usize, f32::NEG_INFINITY);
    for (i, f) in h.faces.iter().enumerate() {
        let s = f.normal.dot(cl) - f.offset;
        if s > best.1 {
            best = (i, s);
        }
    }
    if best.1 - r > cfg.margin {
        return;
    }
    let (n, surface, sep, kind) = if best.1 <= 0.0 {
        let f = &h.faces[best.0];
        (f.normal, cl - f.normal * best.1, best.1 - r, ContactKind::FaceA)
    } else {
        let mut cp = (Vec3::ZERO, f32::MAX, ContactKind::FaceA, Vec3::Y);
        for (i, f) in h.faces.iter().enumerate() {
            if f.normal.dot(cl) - f.offset <= 0.0 {
                continue;
            }
            let p = closest_on_face(h, i, cl);
            let d = p.distance(cl);
            if d < cp.1 {
                let on_face = (f.normal.dot(cl) - f.offset - d).abs() <= 1e-5 * (1.0 + d);
                cp = (p, d, if on_face { ContactKind::FaceA } else { ContactKind::FaceB }, f.normal);
            }
        }
        let n = if cp.1 > 1e-6 { (cl - cp.0) / cp.1 } else { cp.3 };
        (n, cp.0, cp.1 - r, cp.2)
    };
    if sep > cfg.margin {
        return;
    }
    let deepest = cl - n * r;
    out.normal = xh.transform_vector(n);
    out.kind = kind;
    out.points.push(ContactPoint {
        position: xh.transform_point(0.5 * (surface + deepest)),
        depth: -sep,
        id: FeatureId::round(0, 0),
    });
}

/// Capsule A (`pa qa`, `ra`) against capsule B (`pb qb`, `rb`).
#[allow(clippy::too_many_arguments)]
pub fn capsule_capsule(
    pa: Vec3,
    qa: Vec3,
    ra: f32,
    pb: Vec3,
    qb: Vec3,
    rb: f32,
    cfg: &CollideConfig,
    out: &mut Manifold,
) {
    out.clear();
    let (c1, c2, _, _) = closest_points_segments(pa, qa, pb, qb);
    let d = c2 - c1;
    let dist = d.length();
    if dist - ra - rb > cfg.margin {
        return;
    }
    let da = qa - pa;
    let db = qb - pb;
    let n = if dist > 1e-6 { d / dist } else { any_perpendicular(da) };
    out.normal = n;
    out.kind = ContactKind::FaceA;
    let push = |out: &mut Manifold, a: Vec3, b: Vec3, slot: u32| {
        let depth = ra + rb - (b - a).dot(n);
        if depth >= -cfg.margin {
            let mid = 0.5 * ((a + n * ra) + (b - n * rb));
            out.points.push(ContactPoint { position: mid, depth, id: FeatureId::round(slot, 0) });
        }
    };
    let la = da.length_squared();
    let lb = db.length_squared();
    let parallel = la > 1e-10 && lb > 1e-10 && da.cross(db).length() < 0.05 * (la * lb).sqrt();
    if parallel {
        let t0 = (pb - pa).dot(da) / la;
        let t1 = (qb - pa).dot(da) / la;
        let lo = t0.min(t1).max(0.0);
        let hi = t0.max(t1).min(1.0);
        if hi - lo > 1e-3 {
            for (slot, t) in [(0, lo), (1, hi)] {
                let a = pa + da * t;
                let (b, _) = closest_point_segment(pb, qb, a);
                push(out, a, b, slot);
            }
            return;
        }
    }
    push(out, c1, c2, 0);
}

/// Hull A (pose `xh`) against capsule B (world segment `p q`, radius `r`). Normal from the
/// hull to the capsule.
pub fn capsule_hull(p: Vec3, q: Vec3, r: f32, h: &Hull, xh: &Iso, cfg: &CollideConfig, out: &mut Manifold) {
    out.clear();
    let pl = xh.inv_transform_point(p);
    let ql = xh.inv_transform_point(q);
    let u = ql - pl;
    // Face queries: the segment's support in −n is its lower endpoint.
    let mut face = (0usize, f32::NEG_INFINITY);
    for (i, f) in h.faces.iter().enumerate() {
        let s = f.normal.dot(pl).min(f.normal.dot(ql)) - f.offset - r;
        if s > face.1 {
            face = (i, s);
        }
    }
    if face.1 > cfg.margin {
        return;
    }
    // Edge queries: hull edges whose arc crosses the great circle ⟂ u.
    let mut edge = (0usize, f32::NEG_INFINITY, Vec3::ZERO);
    if u.length_squared() > 1e-12 {
        for e in (0..h.edges.len()).step_by(2) {
            let na = h.faces[h.edges[e].face as usize].normal;
            let nb = h.faces[h.edges[e + 1].face as usize].normal;
            if na.dot(u) * nb.dot(u) >= 0.0 {
                continue;
            }
            let e0 = h.vertices[h.edges[e].origin as usize];
            // The edge's direction as the hull–hull query takes it (`Hull::axes`).
            if let Some((s, n)) = edge_separation(e0, h.axes[e / 2], pl, u, h.centroid) {
                if s - r > edge.1 {
                    edge = (e, s - r, n);
                }
            }
        }
    }
    if edge.1 > cfg.margin {
        return;
    }
    if beats(edge.1, face.1, REL_EDGE_TOLERANCE, 0.5 * cfg.slop) {
        let e = edge.0;
        let e0 = h.vertices[h.edges[e].origin as usize];
        let e1 = h.vertices[h.edges[e + 1].origin as usize];
        let (c1, c2, _, _) = closest_points_segments(e0, e1, pl, ql);
        let n = edge.2;
        out.normal = xh.transform_vector(n);
        out.kind = ContactKind::Edge;
        out.points.push(ContactPoint {
            position: xh.transform_point(0.5 * (c1 + c2 - n * r)),
            depth: -edge.1,
            id: FeatureId::round(0, e as u32),
        });
        return;
    }
    // Face contact: clip the segment to the reference face's side planes.
    let f = h.faces[face.0];
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    for e in h.face_edges(face.0) {
        let a = h.vertices[h.edges[e as usize].origin as usize];
        let b = h.vertices[h.target(e) as usize];
        let s = (b - a).cross(f.normal);
        let da = s.dot(pl - a);
        let db = s.dot(ql - a);
        if da > 0.0 && db > 0.0 {
            t1 = -1.0;
            break;
        }
        if da > 0.0 {
            t0 = t0.max(da / (da - db));
        } else if db > 0.0 {
            t1 = t1.min(da / (da - db));
        }
    }
    out.normal = xh.transform_vector(f.normal);
    out.kind = ContactKind::FaceA;
    if t1 >= t0 {
        let (ts, count) = if t1 - t0 > 1e-4 { ([t0, t1], 2) } else { ([0.5 * (t0 + t1); 2], 1) };
        for (slot, &t) in ts[..count].iter().enumerate() {
            let x = pl + u * t;
            let h_above = f.normal.dot(x) - f.offset;
            let depth = r - h_above;
            if depth >= -cfg.margin {
                out.points.push(ContactPoint {
                    position: xh.transform_point(x - f.normal * (0.5 * (r + h_above))),
                    depth,
                    id: FeatureId::round(slot as u32, face.0 as u32),
                });
            }
        }
    }
    if out.points.is_empty() {
        // The segment misses the face region: fall back to the sphere at the segment point
        // nearest the hull's centroid (the capsule touches with an end or its side).
        let (cp, _) = closest_point_segment(p, q, xh.transform_point(h.centroid));
        let mut best = Manifold::default();
        for x in [p, q, cp] {
            let mut m = Manifold::default();
            sphere_hull(x, r, h, xh, cfg, &mut m);
            if m.max_depth() > best.max_depth() {
                best = m;
            }
        }
        *out = best;
    }
}
