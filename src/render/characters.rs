//! Draws the collide-and-slide characters (Fauerby's ellipsoids, `physics::character`): each
//! as a solid ellipsoid with three outline rings, and for the selected one the last move's
//! recursion as the step really made it ([`crate::physics::character::SlideStep`]): per
//! sweep, the ellipsoid where it started (faint rings) and where it ended, the displacement
//! asked for (dashed) and the one made, the touch point, the sliding plane (a translucent
//! square with its normal) and the displacement left for the next step. Displacements are a
//! few centimetres per step, so their arrows are drawn [`ARROW_SCALE`] times longer.

use super::draw::{FillVertex, MeshDraw, MeshRef, Segment, ViewDraw};
use crate::physics::character::{Pass, SlideStep};
use crate::physics::world::WorldCharacter;
use glam::{Mat4, Vec3};

/// Character body colour.
pub const CHARACTER: [f32; 3] = [0.22, 0.62, 0.72];
/// The walking (velocity) pass.
pub const PASS_VELOCITY: [f32; 3] = [0.05, 0.6, 0.2];
/// The gravity pass.
pub const PASS_GRAVITY: [f32; 3] = [0.55, 0.2, 0.85];
/// Touch points.
pub const TOUCH: [f32; 3] = [0.9, 0.1, 0.1];
/// Sliding planes.
pub const PLANE: [f32; 3] = [1.0, 0.6, 0.1];
/// Displacement arrows are drawn this many times their length.
pub const ARROW_SCALE: f32 = 10.0;

const RING: [f32; 3] = [0.08, 0.08, 0.1];

/// Colour of a pass.
pub fn pass_color(p: Pass) -> [f32; 3] {
    match p {
        Pass::Velocity => PASS_VELOCITY,
        Pass::Gravity => PASS_GRAVITY,
    }
}

/// Three rings (about x, y and z) of the ellipsoid with semi-axes `r` centred at `c`.
pub(super) fn rings(out: &mut Vec<Segment>, c: Vec3, r: Vec3, color: [f32; 3], width: f32, alpha: f32) {
    const N: usize = 40;
    for axis in 0..3 {
        let (u, v) = (Vec3::AXES[(axis + 1) % 3] * r, Vec3::AXES[(axis + 2) % 3] * r);
        for k in 0..N {
            let (a0, a1) =
                (k as f32 / N as f32 * std::f32::consts::TAU, (k + 1) as f32 / N as f32 * std::f32::consts::TAU);
            let p0 = c + u * a0.cos() + v * a0.sin();
            let p1 = c + u * a1.cos() + v * a1.sin();
            out.push(Segment::line(p0, p1, color, width).with_alpha(alpha));
        }
    }
}

type Arrow = fn(&mut Vec<Segment>, Vec3, Vec3, [f32; 3], f32);

/// The characters of a world; the recursion of `selected`.
pub fn draw(v: &mut ViewDraw, chars: &[WorldCharacter], selected: Option<usize>, arrow: Arrow) {
    for (i, c) in chars.iter().enumerate() {
        let (p, r) = (c.body.position, c.body.radii);
        let model = Mat4::from_translation(p) * Mat4::from_scale(r);
        v.meshes.push(MeshDraw::new(MeshRef::UnitSphere, model, CHARACTER, 1.0));
        let sel = selected == Some(i);
        let (color, width) = if sel { (crate::view::colors::SELECTED, 3.0) } else { (RING, 1.4) };
        rings(&mut v.lines, p, r * 1.002, color, width, 1.0);
        if sel {
            for s in &c.body.steps {
                recursion_step(v, s, r, arrow);
            }
        }
    }
}

/// One recursion step: rings at its start and end, the asked and made displacements, the
/// touch point, the sliding plane and the displacement left.
fn recursion_step(v: &mut ViewDraw, s: &SlideStep, r: Vec3, arrow: Arrow) {
    let col = pass_color(s.pass);
    rings(&mut v.overlay, s.start, r, col, 1.0, 0.35);
    rings(&mut v.overlay, s.end, r, col, 1.6, 0.8);
    // Asked for: dashed; made: solid.
    let asked = s.motion * ARROW_SCALE;
    for k in 0..10 {
        let (a, b) = (k as f32 / 10.0, (k as f32 + 0.5) / 10.0);
        v.overlay.push(Segment::line(s.start + asked * a, s.start + asked * b, col, 2.0).with_alpha(0.7));
    }
    arrow(&mut v.overlay, s.start, s.start + (s.end - s.start) * ARROW_SCALE, col, 3.0);
    if let Some(h) = &s.hit {
        v.overlay.push(Segment::point(h.point, RING, 13.0));
        v.overlay.push(Segment::point(h.point, TOUCH, 9.0));
        // The sliding plane: a square about the plane point, as wide as the ellipsoid.
        let n = h.plane_normal;
        let t1 = n.any_orthonormal_vector();
        let t2 = n.cross(t1);
        let half = r.max_element() * 1.2;
        let q = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .map(|(a, b): (f32, f32)| h.plane_point + (t1 * a + t2 * b) * half);
        for (a, b, c) in [(0, 1, 2), (0, 2, 3)] {
            for k in [a, b, c] {
                v.fills.push(FillVertex { position: q[k].to_array(), color: [PLANE[0], PLANE[1], PLANE[2], 0.3] });
            }
        }
        for k in 0..4 {
            v.overlay.push(Segment::line(q[k], q[(k + 1) % 4], PLANE, 2.0));
        }
        arrow(&mut v.overlay, h.plane_point, h.plane_point + n * half * 0.8, PLANE, 2.5);
        if s.new_motion.length_squared() > 0.0 {
            arrow(&mut v.overlay, s.end, s.end + s.new_motion * ARROW_SCALE, TOUCH, 3.0);
        }
    }
}
