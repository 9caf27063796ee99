//! Debug drawing of the static triangle meshes: every triangle edge (the wireframe overlay;
//! the solid view outlines only the creases) and one level of a mesh's bounding volume
//! hierarchy ([`crate::physics::mesh::bvh`]): the root is level 0, each level splits its
//! boxes in two along their longest axis, down to leaves of at most four triangles (a leaf
//! above the chosen level is drawn at its own depth too, so the level covers the mesh).

use super::draw::{Segment, ViewDraw};
use crate::physics::{Iso, Shape, World};
use glam::Vec3;

/// Colour of the wireframe edges.
pub const WIRE: [f32; 3] = [0.15, 0.15, 0.2];

/// Colours of the hierarchy's levels (cycled).
pub const LEVELS: [[f32; 3]; 4] = [[0.85, 0.2, 0.2], [0.1, 0.55, 0.2], [0.15, 0.35, 0.9], [0.8, 0.5, 0.0]];

/// Every triangle edge of every mesh body.
pub fn wireframe(v: &mut ViewDraw, world: &World) {
    for b in world.bodies() {
        if let Shape::Mesh(m) = &b.shape {
            for (p, q) in super::mesh::wire_edges(m) {
                v.lines.push(Segment::line(b.pose.transform_point(p), b.pose.transform_point(q), WIRE, 1.0));
            }
        }
    }
}

/// The deepest level of any mesh's hierarchy (0 without meshes).
pub fn max_level(world: &World) -> u32 {
    world.bodies().iter().filter_map(|b| b.shape.mesh()).flat_map(|m| m.bvh().depths()).max().unwrap_or(0)
}

/// The boxes of level `level` of every mesh's hierarchy (and the leaves above it).
pub fn bvh_level(v: &mut ViewDraw, world: &World, level: u32) {
    for b in world.bodies() {
        let Some(m) = b.shape.mesh() else { continue };
        let bvh = m.bvh();
        let depths = bvh.depths();
        let color = LEVELS[level as usize % LEVELS.len()];
        for (n, d) in bvh.nodes().iter().zip(depths) {
            if d == level || (n.is_leaf() && d < level) {
                oriented_box(
                    &mut v.overlay,
                    &b.pose,
                    n.aabb.min,
                    n.aabb.max,
                    color,
                    if n.is_leaf() { 1.2 } else { 2.0 },
                );
            }
        }
    }
}

/// The twelve edges of a box given in a body's frame.
fn oriented_box(out: &mut Vec<Segment>, x: &Iso, lo: Vec3, hi: Vec3, color: [f32; 3], width: f32) {
    let corner = |k: usize| {
        x.transform_point(Vec3::new(
            if k & 1 == 0 { lo.x } else { hi.x },
            if k & 2 == 0 { lo.y } else { hi.y },
            if k & 4 == 0 { lo.z } else { hi.z },
        ))
    };
    for (a, b) in [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)] {
        out.push(Segment::line(corner(a), corner(b), color, width));
    }
}
