//! Ray casts for clicking bodies and for the labels' line of sight: exact for spheres,
//! capsules, hulls and triangle meshes (through the mesh's tree).

use crate::physics::{Body, Iso, Shape, World};
use glam::Vec3;

/// Distance along the unit ray (o, d) to sphere (c, r), if hit.
fn ray_sphere(o: Vec3, d: Vec3, c: Vec3, r: f32) -> Option<f32> {
    let m = o - c;
    let b = m.dot(d);
    let cc = m.length_squared() - r * r;
    if cc > 0.0 && b > 0.0 {
        return None;
    }
    let disc = b * b - cc;
    if disc < 0.0 {
        return None;
    }
    Some((-b - disc.sqrt()).max(0.0))
}

/// Ray against a body; returns the hit distance.
pub fn ray_body(o: Vec3, d: Vec3, b: &Body) -> Option<f32> {
    ray_shape(o, d, &b.shape, &b.pose)
}

/// Ray against a shape at pose `x`; returns the hit distance.
fn ray_shape(o: Vec3, d: Vec3, shape: &Shape, x: &Iso) -> Option<f32> {
    match shape {
        Shape::Sphere { radius } => ray_sphere(o, d, x.pos, *radius),
        Shape::Capsule { radius, half_height } => {
            // Exact: the side (an infinite cylinder about local Y clipped to the core
            // segment), then the two end spheres.
            let (lo, ld) = (x.inv_transform_point(o), x.inv_transform_vector(d));
            let mut best: Option<f32> = None;
            let a = ld.x * ld.x + ld.z * ld.z;
            if a > 1e-12 {
                let b = lo.x * ld.x + lo.z * ld.z;
                let c = lo.x * lo.x + lo.z * lo.z - radius * radius;
                let disc = b * b - a * c;
                if disc >= 0.0 {
                    let t = (-b - disc.sqrt()) / a;
                    if t >= 0.0 && (lo.y + t * ld.y).abs() <= *half_height {
                        best = Some(t);
                    }
                }
            }
            for cy in [-half_height, *half_height] {
                if let Some(t) = ray_sphere(lo, ld, Vec3::new(0.0, cy, 0.0), *radius) {
                    best = Some(best.map_or(t, |b| b.min(t)));
                }
            }
            best
        }
        Shape::Box { hull, .. } | Shape::Hull(hull) => {
            // Cyrus–Beck: clip the ray against every face plane in body space.
            let (lo, ld) = (x.inv_transform_point(o), x.inv_transform_vector(d));
            hull.clip_line(lo, ld, 0.0, (0.0, f32::MAX)).map(|(t0, _)| t0)
        }
        Shape::Mesh(mesh) => {
            // The triangles the ray reaches in the mesh's tree (Möller–Trumbore, both sides):
            // the labels ask this every frame, so not every triangle of a terrain.
            let (lo, ld) = (x.inv_transform_point(o), x.inv_transform_vector(d));
            mesh.bvh().ray(lo, ld, f32::MAX, |i| ray_triangle(lo, ld, mesh.triangle(i)))
        }
        // The nearest child hit.
        Shape::Compound(c) => {
            c.children().iter().filter_map(|ch| ray_shape(o, d, &ch.shape, &x.mul(&ch.pose))).min_by(f32::total_cmp)
        }
    }
}

/// Ray `o + t·d` (t ≥ 0) against a triangle, either side (Möller–Trumbore).
fn ray_triangle(o: Vec3, d: Vec3, [a, b, c]: [Vec3; 3]) -> Option<f32> {
    let (e1, e2) = (b - a, c - a);
    let p = d.cross(e2);
    let det = e1.dot(p);
    if det.abs() < 1e-12 {
        return None;
    }
    let inv = 1.0 / det;
    let s = o - a;
    let u = s.dot(p) * inv;
    let q = s.cross(e1);
    let v = d.dot(q) * inv;
    let t = e2.dot(q) * inv;
    (u >= 0.0 && v >= 0.0 && u + v <= 1.0 && t >= 0.0).then_some(t)
}

/// The nearest body hit by the ray, with the hit distance.
pub fn pick(world: &World, o: Vec3, d: Vec3) -> Option<(usize, f32)> {
    world
        .bodies()
        .iter()
        .enumerate()
        .filter_map(|(i, b)| ray_body(o, d, b).map(|t| (i, t)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::{BodyDesc, Settings};

    /// A terrain's ray cast through its tree hits where a test of every triangle does.
    #[test]
    fn a_ray_into_a_terrain_hits_its_nearest_triangle() {
        let mesh =
            crate::physics::mesh::generate::heightfield(40, 40, 0.5, |x, z| (x * 0.7).sin() + (z * 0.4).cos()).unwrap();
        let body = BodyDesc::new("terrain", Shape::Mesh(std::sync::Arc::new(mesh.clone())), Vec3::new(0.3, -0.2, 0.1));
        let mut w = World::new(Vec3::ZERO, Settings::default());
        w.add_body(body.fixed()).unwrap();
        let b = &w.bodies()[0];
        let mut hits = 0;
        for k in 0..400 {
            let a = k as f32 * 0.37;
            let o = Vec3::new(12.0 * a.cos(), 6.0 + (k % 7) as f32, 12.0 * a.sin());
            let d = (Vec3::new(3.0 * (a * 1.9).sin(), 0.0, 3.0 * (a * 2.3).cos()) - o).normalize();
            let (lo, ld) = (b.pose.inv_transform_point(o), b.pose.inv_transform_vector(d));
            let brute =
                (0..mesh.len() as u32).filter_map(|i| ray_triangle(lo, ld, mesh.triangle(i))).min_by(f32::total_cmp);
            assert_eq!(ray_body(o, d, b), brute, "ray {k}");
            hits += usize::from(brute.is_some());
        }
        assert!(hits > 300, "{hits} of 400 rays hit");
    }

    #[test]
    fn picks_the_nearest_body_at_the_right_distance() {
        let mut w = World::new(Vec3::ZERO, Settings::default());
        w.add_body(BodyDesc::new("far", Shape::cuboid(Vec3::splat(0.5)).unwrap(), Vec3::new(0.0, 0.0, -5.0))).unwrap();
        w.add_body(BodyDesc::new("near", Shape::Sphere { radius: 0.5 }, Vec3::new(0.0, 0.0, -2.0))).unwrap();
        w.add_body(BodyDesc::new("pill", Shape::Capsule { radius: 0.3, half_height: 0.5 }, Vec3::new(3.0, 0.0, 0.0)))
            .unwrap();
        let (i, t) = pick(&w, Vec3::ZERO, -Vec3::Z).unwrap();
        assert_eq!((i, (t * 1000.0).round() / 1000.0), (1, 1.5));
        let (i, t) = pick(&w, Vec3::new(0.0, 0.2, 0.0), -Vec3::Z).unwrap();
        assert_eq!(i, 1);
        assert!(t > 1.5);
        let (i, t) = pick(&w, Vec3::new(0.9, 0.0, -10.0), Vec3::Z).unwrap_or((9, 0.0));
        assert_eq!(i, 9, "misses everything");
        let _ = t;
        let (i, t) = pick(&w, Vec3::new(0.3, 0.1, -10.0), Vec3::Z).unwrap();
        assert_eq!(i, 0);
        assert!((t - 4.5).abs() < 1e-4);
        let (i, t) = pick(&w, Vec3::new(0.0, 0.4, 0.0), Vec3::X).unwrap();
        assert_eq!(i, 2);
        assert!((t - 2.7).abs() < 1e-3);
    }
}
