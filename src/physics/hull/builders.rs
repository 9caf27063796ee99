//! Ready-made hulls: box, tetrahedron, n-sided prism (cylinder), geodesic sphere, seeded
//! random clouds. Boxes and prisms are built from explicit faces (no quickhull needed).

use super::{Hull, HullError};
use glam::Vec3;

/// A box hull's features named by sign pattern, so box-specific queries (the 15-axis SAT in
/// `collide::sat_box`) answer with the same face and edge indices as the hull's
/// half-edge mesh, and the clipping, feature IDs and SAT cache work unchanged.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cuboid {
    /// Half-extents (the box is centred on the hull's origin).
    pub half: Vec3,
    /// `face[k][s]`: the face with outward normal −e_k (s = 0) or +e_k (s = 1).
    pub face: [[u32; 2]; 3],
    /// `edge[i][bits]`: the unique (even) half-edge along axis i whose coordinate on axis
    /// (i + 1) % 3 is positive when bit 0 is set, and on axis (i + 2) % 3 when bit 1 is.
    pub edge: [[u32; 4]; 3],
}

impl Cuboid {
    /// Reads the feature tables off a box hull built by [`Hull::cuboid`].
    fn index(h: &Hull, half: Vec3) -> Cuboid {
        let mut c = Cuboid { half, face: [[0; 2]; 3], edge: [[0; 4]; 3] };
        for (f, face) in h.faces.iter().enumerate() {
            let k = face.normal.abs().max_position();
            c.face[k][usize::from(face.normal[k] > 0.0)] = f as u32;
        }
        for e in (0..h.edges.len()).step_by(2) {
            let p = h.vertices[h.edges[e].origin as usize];
            let q = h.vertices[h.edges[e + 1].origin as usize];
            let i = (q - p).abs().max_position();
            let corner = usize::from(p[(i + 1) % 3] > 0.0) | usize::from(p[(i + 2) % 3] > 0.0) << 1;
            c.edge[i][corner] = e as u32;
        }
        c
    }
}

impl Hull {
    /// Axis-aligned box centred at the origin.
    pub fn cuboid(half: Vec3) -> Result<Hull, HullError> {
        if !(half.cmpgt(Vec3::ZERO).all() && half.is_finite()) {
            return Err(HullError::Degenerate("box half-extents must be positive"));
        }
        let v: Vec<Vec3> = (0..8)
            .map(|i| {
                Vec3::new(
                    if i & 1 == 0 { -half.x } else { half.x },
                    if i & 2 == 0 { -half.y } else { half.y },
                    if i & 4 == 0 { -half.z } else { half.z },
                )
            })
            .collect();
        // Faces CCW from outside: -x, +x, -y, +y, -z, +z.
        let faces = vec![
            vec![0, 4, 6, 2],
            vec![1, 3, 7, 5],
            vec![0, 1, 5, 4],
            vec![2, 6, 7, 3],
            vec![0, 2, 3, 1],
            vec![4, 5, 7, 6],
        ];
        let mut hull = Hull::from_polygons(&v, &faces)?;
        hull.cuboid = Some(Cuboid::index(&hull, half));
        Ok(hull)
    }

    /// Regular tetrahedron with circumradius `r`.
    pub fn tetrahedron(r: f32) -> Result<Hull, HullError> {
        let s = r / 3f32.sqrt();
        Hull::from_points(&[Vec3::new(s, s, s), Vec3::new(s, -s, -s), Vec3::new(-s, s, -s), Vec3::new(-s, -s, s)])
    }

    /// Prism with a regular `n`-gon cross-section about the Y axis (a faceted cylinder).
    pub fn prism(radius: f32, half_height: f32, n: usize) -> Result<Hull, HullError> {
        if n < 3 || radius <= 0.0 || half_height <= 0.0 || !radius.is_finite() || !half_height.is_finite() {
            return Err(HullError::Degenerate("a prism needs 3+ sides, positive radius and height"));
        }
        let mut v = Vec::with_capacity(2 * n);
        for i in 0..n {
            let a = i as f32 / n as f32 * std::f32::consts::TAU;
            v.push(Vec3::new(radius * a.cos(), -half_height, -radius * a.sin()));
            v.push(Vec3::new(radius * a.cos(), half_height, -radius * a.sin()));
        }
        let mut faces = Vec::new();
        for i in 0..n as u32 {
            let j = (i + 1) % n as u32;
            faces.push(vec![2 * i, 2 * j, 2 * j + 1, 2 * i + 1]);
        }
        faces.push((0..n as u32).rev().map(|i| 2 * i).collect());
        faces.push((0..n as u32).map(|i| 2 * i + 1).collect());
        Hull::from_polygons(&v, &faces)
    }

    /// Geodesic sphere: an icosahedron subdivided `level` times, projected onto radius `r`.
    /// Level 0 has 12 vertices, 1 has 42, 2 has 162.
    pub fn geodesic_sphere(r: f32, level: u32) -> Result<Hull, HullError> {
        let t = (1.0 + 5f32.sqrt()) / 2.0;
        let mut v: Vec<Vec3> = [
            (-1.0, t, 0.0),
            (1.0, t, 0.0),
            (-1.0, -t, 0.0),
            (1.0, -t, 0.0),
            (0.0, -1.0, t),
            (0.0, 1.0, t),
            (0.0, -1.0, -t),
            (0.0, 1.0, -t),
            (t, 0.0, -1.0),
            (t, 0.0, 1.0),
            (-t, 0.0, -1.0),
            (-t, 0.0, 1.0),
        ]
        .iter()
        .map(|&(x, y, z)| Vec3::new(x, y, z).normalize())
        .collect();
        let mut tris: Vec<[usize; 3]> = vec![
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        for _ in 0..level {
            let mut mid = std::collections::HashMap::new();
            let mut next = Vec::with_capacity(tris.len() * 4);
            let mut midpoint = |a: usize, b: usize, v: &mut Vec<Vec3>| {
                *mid.entry((a.min(b), a.max(b))).or_insert_with(|| {
                    v.push(((v[a] + v[b]) * 0.5).normalize());
                    v.len() - 1
                })
            };
            for [a, b, c] in tris {
                let ab = midpoint(a, b, &mut v);
                let bc = midpoint(b, c, &mut v);
                let ca = midpoint(c, a, &mut v);
                next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
            }
            tris = next;
        }
        let pts: Vec<Vec3> = v.iter().map(|p| *p * r).collect();
        Hull::from_points(&pts)
    }

    /// Hull of `n` points drawn uniformly in a ball of radius `r` (seeded, reproducible).
    pub fn random(n: usize, r: f32, seed: u64) -> Result<Hull, HullError> {
        Hull::from_points(&random_cloud(n, r, seed))
    }
}

/// `n` points uniformly in a ball of radius `r`, from a SplitMix64 stream (deterministic on
/// every platform, no dependency).
pub fn random_cloud(n: usize, r: f32, seed: u64) -> Vec<Vec3> {
    let mut rng = SplitMix64(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let p = Vec3::new(rng.next_f32() * 2.0 - 1.0, rng.next_f32() * 2.0 - 1.0, rng.next_f32() * 2.0 - 1.0);
        if p.length_squared() <= 1.0 {
            out.push(p * r);
        }
    }
    out
}

/// SplitMix64: a tiny, well-distributed seeded generator (Steele, Lea & Flood 2014).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 24) as f32
    }
}
