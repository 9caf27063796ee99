//! Triangle meshes and outline edges for shapes (body space).
//!
//! Boxes and spheres use shared unit meshes scaled by the instance matrix; capsules and hulls
//! get their own. Hull faces are fan-triangulated with the face normal (flat shading);
//! spheres and capsules carry smooth normals.

use crate::physics::{Hull, Shape};
use bytemuck::{Pod, Zeroable};
use glam::Vec3;

/// A mesh vertex.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct Vertex {
    /// Position.
    pub position: [f32; 3],
    /// Normal.
    pub normal: [f32; 3],
}

/// CPU mesh: triangles plus outline segments.
#[derive(Clone, Debug, Default)]
pub struct MeshData {
    /// Vertices.
    pub vertices: Vec<Vertex>,
    /// Triangle indices.
    pub indices: Vec<u32>,
    /// Outline segments (body space), drawn as dark lines.
    pub edges: Vec<(Vec3, Vec3)>,
}

/// Which mesh a shape uses and how it is scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MeshKey {
    /// The shared unit cube, scaled by half extents.
    UnitCube(Vec3),
    /// The shared unit sphere, scaled by the radius.
    UnitSphere(f32),
    /// A mesh of its own (capsules, hulls).
    Own,
}

/// How a shape maps to a mesh.
pub fn mesh_key(shape: &Shape) -> MeshKey {
    match shape {
        Shape::Box { half_extents, .. } => MeshKey::UnitCube(*half_extents),
        Shape::Sphere { radius } => MeshKey::UnitSphere(*radius),
        _ => MeshKey::Own,
    }
}

/// Appends face `f` of `h` as a flat triangle fan with the face normal.
pub fn push_face(m: &mut MeshData, h: &Hull, f: usize) {
    let n = h.faces()[f].normal.to_array();
    let base = m.vertices.len() as u32;
    let first = m.vertices.len();
    m.vertices.extend(h.face_vertices(f).map(|v| Vertex { position: h.vertices()[v as usize].to_array(), normal: n }));
    for i in 1..(m.vertices.len() - first) as u32 - 1 {
        m.indices.extend([base, base + i, base + i + 1]);
    }
}

/// Mesh of a hull: one flat polygon per face.
pub fn hull_mesh(h: &Hull) -> MeshData {
    let mut m = MeshData::default();
    for f in 0..h.faces().len() {
        push_face(&mut m, h, f);
    }
    for e in (0..h.edges().len()).step_by(2) {
        let a = h.vertices()[h.edges()[e].origin as usize];
        let b = h.vertices()[h.target(e as u32) as usize];
        m.edges.push((a, b));
    }
    m
}

/// Unit sphere (radius 1) with smooth normals.
pub fn sphere_mesh(segments: u32, rings: u32) -> MeshData {
    let mut m = MeshData::default();
    for r in 0..=rings {
        let phi = std::f32::consts::PI * r as f32 / rings as f32;
        for s in 0..=segments {
            let theta = std::f32::consts::TAU * s as f32 / segments as f32;
            let p = Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin());
            m.vertices.push(Vertex { position: p.to_array(), normal: p.to_array() });
        }
    }
    let stride = segments + 1;
    for r in 0..rings {
        for s in 0..segments {
            let (a, b) = (r * stride + s, (r + 1) * stride + s);
            m.indices.extend([a, a + 1, b, b, a + 1, b + 1]);
        }
    }
    m
}

/// Capsule along Y with smooth normals; outline rings where the cylinder meets the caps.
pub fn capsule_mesh(radius: f32, half_height: f32, segments: u32) -> MeshData {
    let mut m = MeshData::default();
    let rings = 8; // per hemisphere
    let mut rows: Vec<(f32, f32)> = Vec::new(); // (y offset sign, polar angle)
    for r in 0..=rings {
        rows.push((1.0, std::f32::consts::FRAC_PI_2 * r as f32 / rings as f32));
    }
    for r in 0..=rings {
        rows.push((-1.0, std::f32::consts::FRAC_PI_2 * (1.0 + r as f32 / rings as f32)));
    }
    for &(side, phi) in &rows {
        for s in 0..=segments {
            let theta = std::f32::consts::TAU * s as f32 / segments as f32;
            let n = Vec3::new(phi.sin() * theta.cos(), phi.cos(), phi.sin() * theta.sin());
            let p = n * radius + Vec3::Y * half_height * side;
            m.vertices.push(Vertex { position: p.to_array(), normal: n.to_array() });
        }
    }
    let stride = segments + 1;
    for r in 0..rows.len() as u32 - 1 {
        for s in 0..segments {
            let (a, b) = (r * stride + s, (r + 1) * stride + s);
            m.indices.extend([a, a + 1, b, b, a + 1, b + 1]);
        }
    }
    for side in [1.0f32, -1.0] {
        for s in 0..segments {
            let t0 = std::f32::consts::TAU * s as f32 / segments as f32;
            let t1 = std::f32::consts::TAU * (s + 1) as f32 / segments as f32;
            let y = Vec3::Y * half_height * side;
            m.edges.push((
                y + Vec3::new(t0.cos(), 0.0, t0.sin()) * radius,
                y + Vec3::new(t1.cos(), 0.0, t1.sin()) * radius,
            ));
        }
    }
    m
}

/// The mesh a shape draws with (for `MeshKey::Own` shapes).
pub fn own_mesh(shape: &Shape) -> MeshData {
    match shape {
        Shape::Capsule { radius, half_height } => capsule_mesh(*radius, *half_height, 32),
        Shape::Hull(h) | Shape::Box { hull: h, .. } => hull_mesh(h),
        Shape::Sphere { .. } => sphere_mesh(32, 20),
        Shape::Mesh(mesh) => tri_mesh(mesh),
        Shape::Compound(c) => compound_mesh(c),
    }
}

/// A compound's mesh: each child's, moved to its pose in the body's frame, with its
/// outlines.
pub fn compound_mesh(c: &crate::physics::Compound) -> MeshData {
    let mut out = MeshData::default();
    for child in c.children() {
        let mut m = match &child.shape {
            Shape::Sphere { radius } => {
                let mut m = sphere_mesh(32, 20);
                m.vertices.iter_mut().for_each(|v| v.position = (Vec3::from(v.position) * *radius).to_array());
                m
            }
            s => own_mesh(s),
        };
        let x = child.pose;
        let base = out.vertices.len() as u32;
        for v in &mut m.vertices {
            v.position = x.transform_point(Vec3::from(v.position)).to_array();
            v.normal = x.transform_vector(Vec3::from(v.normal)).to_array();
        }
        out.vertices.append(&mut m.vertices);
        out.indices.extend(m.indices.iter().map(|i| i + base));
        out.edges.extend(m.edges.iter().map(|(a, b)| (x.transform_point(*a), x.transform_point(*b))));
    }
    out
}

/// Crease angle above which a shared edge of a triangle mesh is drawn as an outline (cos of
/// 40°): the edges of a flat floor or of rolling terrain are not drawn, a step's edge is.
const CREASE_COS: f32 = 0.766;

/// A triangle mesh drawn flat-shaded (three vertices per triangle, its face normal), with
/// its feature edges as the outline: boundary edges and edges whose two triangles meet at
/// more than 40°. [`wire_edges`] gives every edge (the wireframe overlay).
pub fn tri_mesh(mesh: &crate::physics::mesh::TriMesh) -> MeshData {
    let mut m = MeshData::default();
    for (i, tri) in mesh.triangles().iter().enumerate() {
        let n = mesh.normal(i as u32).to_array();
        let base = m.vertices.len() as u32;
        for &v in tri {
            m.vertices.push(Vertex { position: mesh.vertices()[v as usize].to_array(), normal: n });
        }
        m.indices.extend([base, base + 1, base + 2]);
    }
    // Edge → (first triangle, shared by a second one with a crease?).
    let mut edges: std::collections::HashMap<(u32, u32), (u32, Option<u32>)> = Default::default();
    for (i, tri) in mesh.triangles().iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            edges.entry((a.min(b), a.max(b))).and_modify(|e| e.1 = Some(i as u32)).or_insert((i as u32, None));
        }
    }
    let mut keys: Vec<_> = edges.into_iter().collect();
    keys.sort_unstable_by_key(|(k, _)| *k);
    for ((a, b), (t0, t1)) in keys {
        let crease = t1.is_none_or(|t1| mesh.normal(t0).dot(mesh.normal(t1)) < CREASE_COS);
        if crease {
            m.edges.push((mesh.vertices()[a as usize], mesh.vertices()[b as usize]));
        }
    }
    m
}

/// Every edge of a triangle mesh once (the wireframe overlay), in the mesh's frame.
pub fn wire_edges(mesh: &crate::physics::mesh::TriMesh) -> Vec<(Vec3, Vec3)> {
    let mut seen: Vec<(u32, u32)> = mesh
        .triangles()
        .iter()
        .flat_map(|t| (0..3).map(move |k| (t[k].min(t[(k + 1) % 3]), t[k].max(t[(k + 1) % 3]))))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    seen.into_iter().map(|(a, b)| (mesh.vertices()[a as usize], mesh.vertices()[b as usize])).collect()
}

/// The meshes a frame's draws refer to ([`super::draw::MeshRef`]), kept on the CPU: the
/// shared unit cube and sphere, each body's own mesh and every body's outline (body space).
/// The GPU renderer uploads them; the SVG writer ([`super::svg`]) projects them itself.
#[derive(Clone, Debug)]
pub struct MeshCache {
    /// The shared unit cube (±1).
    pub unit_cube: MeshData,
    /// The shared unit sphere (radius 1).
    pub unit_sphere: MeshData,
    /// Each body's own mesh (`MeshKey::Own` shapes), else None.
    pub own: Vec<Option<MeshData>>,
    /// Outline segments of each body (body space).
    pub outlines: Vec<Vec<(Vec3, Vec3)>>,
    /// Whether each body's mesh is a closed surface (every shape but a triangle mesh): its
    /// faces turned away from the eye are hidden behind its others.
    pub closed: Vec<bool>,
    signature: Vec<usize>,
}

impl Default for MeshCache {
    fn default() -> MeshCache {
        let cube = Hull::cuboid(Vec3::ONE).expect("unit cube");
        MeshCache {
            unit_cube: hull_mesh(&cube),
            unit_sphere: sphere_mesh(40, 24),
            own: Vec::new(),
            outlines: Vec::new(),
            closed: Vec::new(),
            signature: Vec::new(),
        }
    }
}

impl MeshCache {
    /// Rebuilds the per-body meshes when the world's shapes changed (a new scene); returns
    /// whether it did.
    pub fn sync(&mut self, world: &crate::physics::World) -> bool {
        let signature: Vec<usize> = world
            .bodies()
            .iter()
            .map(|b| match &b.shape {
                Shape::Hull(h) | Shape::Box { hull: h, .. } => std::sync::Arc::as_ptr(h) as usize,
                Shape::Mesh(m) => std::sync::Arc::as_ptr(m) as usize,
                Shape::Compound(c) => std::sync::Arc::as_ptr(c) as usize,
                Shape::Sphere { radius } => radius.to_bits() as usize,
                Shape::Capsule { radius, half_height } => {
                    (radius.to_bits() as usize) ^ ((half_height.to_bits() as usize) << 1)
                }
            })
            .collect();
        if signature == self.signature && !signature.is_empty() {
            return false;
        }
        self.signature = signature;
        self.own.clear();
        self.outlines.clear();
        self.closed.clear();
        for b in world.bodies() {
            self.closed.push(b.shape.mesh().is_none());
            match mesh_key(&b.shape) {
                MeshKey::Own => {
                    let m = own_mesh(&b.shape);
                    self.outlines.push(m.edges.clone());
                    self.own.push(Some(m));
                }
                MeshKey::UnitCube(_) => {
                    self.outlines.push(hull_mesh(b.shape.hull().expect("box hull")).edges);
                    self.own.push(None);
                }
                MeshKey::UnitSphere(_) => {
                    self.outlines.push(Vec::new());
                    self.own.push(None);
                }
            }
        }
        true
    }

    /// The mesh a draw uses (`dynamic`: the view's generated meshes), and whether it is closed.
    pub fn get<'a>(&'a self, r: super::draw::MeshRef, dynamic: &'a [MeshData]) -> Option<(&'a MeshData, bool)> {
        use super::draw::MeshRef;
        match r {
            MeshRef::UnitCube => Some((&self.unit_cube, true)),
            MeshRef::UnitSphere => Some((&self.unit_sphere, true)),
            MeshRef::Body(i) => Some((self.own.get(i)?.as_ref()?, self.closed.get(i).copied().unwrap_or(false))),
            MeshRef::Dynamic(d) => Some((dynamic.get(d)?, true)),
        }
    }
}
