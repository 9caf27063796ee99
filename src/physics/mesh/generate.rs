//! Generated meshes for levels and tests: heightfield terrain, a ramp, stairs and a closed
//! room. Each face is wound so its normal points to the side a body or the character is on
//! (up for ground, towards the walker for risers, inwards for the room).

use super::{MeshError, TriMesh};
use glam::Vec3;

/// Collects quads as triangle pairs, wound to face a given side.
#[derive(Default)]
struct Builder {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
}

impl Builder {
    /// The quad `a b c d` (corners in order round it) as two triangles whose normals point
    /// along `facing`.
    fn quad(&mut self, [a, b, c, d]: [Vec3; 4], facing: Vec3) {
        let k = self.vertices.len() as u32;
        self.vertices.extend([a, b, c, d]);
        if (b - a).cross(c - a).dot(facing) >= 0.0 {
            self.triangles.extend([[k, k + 1, k + 2], [k, k + 2, k + 3]]);
        } else {
            self.triangles.extend([[k, k + 2, k + 1], [k, k + 3, k + 2]]);
        }
    }

    fn build(self) -> Result<TriMesh, MeshError> {
        TriMesh::new(self.vertices, self.triangles)
    }
}

/// Terrain over `nx × nz` square cells of side `cell`, centred on the origin, the height of
/// each grid point given by `height(x, z)`; two triangles per cell, normals up. Shared
/// vertices, so neighbouring triangles share their edges (what the internal-edge handling
/// of a mesh needs).
pub fn heightfield(nx: usize, nz: usize, cell: f32, height: impl Fn(f32, f32) -> f32) -> Result<TriMesh, MeshError> {
    let (ox, oz) = (nx as f32 * cell * 0.5, nz as f32 * cell * 0.5);
    let mut vertices = Vec::with_capacity((nx + 1) * (nz + 1));
    for i in 0..=nx {
        for k in 0..=nz {
            let (x, z) = (i as f32 * cell - ox, k as f32 * cell - oz);
            vertices.push(Vec3::new(x, height(x, z), z));
        }
    }
    let at = |i: usize, k: usize| (i * (nz + 1) + k) as u32;
    let mut triangles = Vec::with_capacity(2 * nx * nz);
    for i in 0..nx {
        for k in 0..nz {
            // (z+1) × (x+1) = +y: counter-clockwise seen from above.
            triangles.push([at(i, k), at(i, k + 1), at(i + 1, k)]);
            triangles.push([at(i + 1, k), at(i, k + 1), at(i + 1, k + 1)]);
        }
    }
    TriMesh::new(vertices, triangles)
}

/// A flat ramp `length` long and `width` wide, rising along +x at `angle` (radians) from
/// the origin; normal up the slope.
pub fn ramp(angle: f32, length: f32, width: f32) -> Result<TriMesh, MeshError> {
    let top = Vec3::new(angle.cos(), angle.sin(), 0.0) * length;
    let w = Vec3::Z * (width * 0.5);
    let mut b = Builder::default();
    b.quad([-w, w, top + w, top - w], Vec3::new(-angle.sin(), angle.cos(), 0.0));
    b.build()
}

/// `steps` stairs climbing along +x from the origin: each a riser `rise` high facing −x and
/// a tread `run` deep facing up, `width` wide.
pub fn stairs(steps: usize, rise: f32, run: f32, width: f32) -> Result<TriMesh, MeshError> {
    let w = Vec3::Z * (width * 0.5);
    let mut b = Builder::default();
    for s in 0..steps {
        let (x, y) = (s as f32 * run, s as f32 * rise);
        let foot = Vec3::new(x, y, 0.0);
        let lip = Vec3::new(x, y + rise, 0.0);
        let back = Vec3::new(x + run, y + rise, 0.0);
        b.quad([foot - w, foot + w, lip + w, lip - w], -Vec3::X);
        b.quad([lip - w, lip + w, back + w, back - w], Vec3::Y);
    }
    b.build()
}

/// A closed box room with half extents `half`, centred on the origin, faces pointing in.
pub fn room(half: Vec3) -> Result<TriMesh, MeshError> {
    let mut b = Builder::default();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let n = Vec3::AXES[axis] * sign;
            let (u, v) = (Vec3::AXES[(axis + 1) % 3], Vec3::AXES[(axis + 2) % 3]);
            let c = n * half[axis];
            let (hu, hv) = (u * half[(axis + 1) % 3], v * half[(axis + 2) % 3]);
            b.quad([c - hu - hv, c + hu - hv, c + hu + hv, c - hu + hv], -n);
        }
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_meshes_face_their_users() {
        let hf = heightfield(10, 8, 0.5, |x, z| 0.1 * (x + z).sin()).unwrap();
        assert_eq!(hf.len(), 160);
        assert!((0..hf.len() as u32).all(|i| hf.normal(i).y > 0.9));
        let r = ramp(30f32.to_radians(), 4.0, 2.0).unwrap();
        let up_slope = Vec3::new(-0.5, 3f32.sqrt() / 2.0, 0.0);
        assert!((r.normal(0) - up_slope).length() < 1e-5 && (r.normal(1) - up_slope).length() < 1e-5);
        let s = stairs(5, 0.2, 0.3, 1.0).unwrap();
        assert_eq!(s.len(), 20);
        assert!((0..s.len() as u32).all(|i| s.normal(i) == -Vec3::X || s.normal(i) == Vec3::Y));
        assert!((s.aabb().max.y - 1.0).abs() < 1e-6);
        let room = room(Vec3::new(2.0, 1.0, 3.0)).unwrap();
        assert_eq!(room.len(), 12);
        // Every face points at the centre.
        for i in 0..12 {
            let [a, _, _] = room.triangle(i);
            assert!(room.normal(i).dot(-a) > 0.0, "face {i} points out");
        }
    }
}
