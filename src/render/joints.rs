//! Joints in the main view, from the world's plain [`JointRecord`]s: each body's line to its
//! anchor, the two anchors (joined in red, and ringed in red, when the joint is stretched
//! by more than `STRETCHED`; in grey along a
//! slider's or a wheel's axis, where their gap is the joint's travel), the axis of hinges,
//! sliders, wheels and angle joints, hinge limits as an arc about the axis with a tick at the
//! current angle, slider and wheel travel as a bar along the axis with a marker at the
//! current translation, a cone circle for angle joints, and the force on body B as an arrow
//! (the impulse over the step divided by the step; its label in newtons is drawn by the
//! window's labels; on body A where B is the world). The selected joint is drawn thicker.
//! [`key`] reads back which of these a drawing shows, for the picture's key.
//!
//! Limits: the hinge arc is measured from the current direction of B's centre about the axis
//! (the record holds the angle, not its zero direction), so the arc turns with B and the
//! tick stays in the arc while the limit holds.

use super::draw::Segment;
use crate::physics::joint::WORLD;
use crate::physics::world::JointRecord;
use crate::physics::{JointKind, World};
use glam::{Quat, Vec3};

/// Anchor colour on A and on B, and the stretched-joint colour.
const ANCHOR_A: [f32; 3] = [0.9, 0.45, 0.05];
const ANCHOR_B: [f32; 3] = [0.1, 0.45, 0.9];
const STRETCH: [f32; 3] = [0.9, 0.05, 0.05];
const LINK: [f32; 3] = [0.25, 0.25, 0.3];
/// Anchor to anchor where that is the joint itself: a pulley's rope, a distance joint's rod,
/// a slider's or a wheel's travel along its axis.
const SPAN: [f32; 3] = [0.6, 0.42, 0.25];
const AXIS: [f32; 3] = [0.1, 0.6, 0.25];
const LIMIT: [f32; 3] = [0.55, 0.2, 0.7];
/// A joint's anchors further apart than this (m) are drawn as stretched: a soft joint's
/// give under load (the rope bridge's planks hang 2–3 mm apart at each joint) is not, a
/// ragdoll's joint pulled 24 mm apart as it lands is.
const STRETCHED: f32 = 5e-3;
/// Joint force arrows.
pub const FORCE: [f32; 3] = [0.85, 0.1, 0.45];
/// Longest force arrow (m): a light body hanging under a heavy one would otherwise get an
/// arrow across the scene (the label gives the number).
const MAX_ARROW: f32 = 0.75;

/// Length (m) the force arrow of joint `r` gets per newton: B's weight (the world's side:
/// A's) draws 2.5 of the body's bounding radii, from 0.2 to 0.5 m, so the arrows read alike
/// across scenes and small bodies hung close together (a cradle's balls) keep their arrows
/// apart.
pub fn force_scale(world: &World, r: &JointRecord) -> f32 {
    let body = if r.b != WORLD { r.b } else { r.a };
    let body = world.bodies().get(body as usize);
    let m = body.map_or(1.0, |b| b.mass());
    let length = body.map_or(0.5, |b| (2.5 * b.shape.bounding_radius()).clamp(0.2, 0.5));
    let weight = m * world.gravity.length().max(1.0);
    length / weight.max(1e-6)
}

/// Where the force arrow starts and the force (N) over the last step of length `dt`: on B
/// at B's anchor, or on A at A's when B is the world.
pub fn force(r: &JointRecord, dt: f32) -> (Vec3, Vec3) {
    let f = r.linear_impulse / dt.max(1e-6);
    if r.b == WORLD {
        (r.anchor_a, -f)
    } else {
        (r.anchor_b, f)
    }
}

/// The tip of joint `r`'s force arrow, if it is drawn.
pub fn force_tip(world: &World, r: &JointRecord, dt: f32) -> Option<Vec3> {
    let (at, f) = force(r, dt);
    let len = (f.length() * force_scale(world, r)).min(MAX_ARROW);
    (len > 0.02 && !r.broken).then(|| at + f.normalize() * len)
}

/// Scenes with more joints than this draw each joint's axis, limits and force only for the
/// selected joint (and a drag's mouse joint): a ragdoll's or a chain's would hide the bodies.
pub const DETAILED_JOINTS: usize = 6;

/// Draws every joint of `records`; `selected` is drawn thicker, and in a scene of more than
/// [`DETAILED_JOINTS`] joints it alone shows its axis, limits and force.
pub fn draw(
    out: &mut Vec<Segment>,
    world: &World,
    records: &[JointRecord],
    selected: Option<usize>,
    dt: f32,
    arrow: impl Fn(&mut Vec<Segment>, Vec3, Vec3, [f32; 3], f32),
) {
    let all = records.len() <= DETAILED_JOINTS;
    for (k, r) in records.iter().enumerate() {
        let w = if selected == Some(k) { 2.0 } else { 1.0 };
        let detailed = all || selected == Some(k) || matches!(r.params, JointKind::Mouse { .. });
        let centre = |i: u32| (i != WORLD).then(|| world.bodies().get(i as usize).map(|b| b.pose.pos)).flatten();
        let (pa, pb) = (r.anchor_a, r.anchor_b);
        // Scale for axes and arcs: a third of the distance between the bodies' centres, 0.15–0.8 m.
        let reach = match (centre(r.a), centre(r.b)) {
            (Some(a), Some(b)) => (a - b).length() / 3.0,
            (Some(a), None) => (a - pa).length() / 3.0,
            (None, Some(b)) => (b - pb).length() / 3.0,
            (None, None) => 0.3,
        }
        .clamp(0.15, 0.8);
        if r.broken {
            out.push(Segment::point(pa, STRETCH, 9.0 * w));
            continue;
        }
        if let Some(c) = centre(r.a) {
            out.push(Segment::line(c, pa, LINK, 1.5 * w));
        }
        if let Some(c) = centre(r.b) {
            out.push(Segment::line(c, pb, LINK, 1.5 * w));
        }
        let gap = (pb - pa).length();
        if let JointKind::Pulley { ground_a, ground_b, .. } = r.params {
            // The rope over its two pulleys: A's anchor up to A's pulley, across, and down to
            // B's anchor; each pulley a ring.
            out.push(Segment::line(pa, ground_a, SPAN, 2.0 * w));
            out.push(Segment::line(ground_a, ground_b, SPAN, 2.0 * w));
            out.push(Segment::line(ground_b, pb, SPAN, 2.0 * w));
            for g in [ground_a, ground_b] {
                out.push(Segment::point(g, [0.05, 0.05, 0.07], 14.0 * w));
                out.push(Segment::point(g, [0.85, 0.86, 0.9], 9.0 * w));
            }
        } else if matches!(r.params, JointKind::Distance { .. }) {
            out.push(Segment::line(pa, pb, SPAN, 2.0 * w));
        } else if stretch(r) > STRETCHED {
            // The gap in red, and a red ring around the anchors: a few millimetres' gap is
            // shorter than the dots at most zooms.
            out.push(Segment::line(pa, pb, STRETCH, 2.5 * w));
            out.push(Segment::point(pa, STRETCH, 18.0 * w));
        } else if gap > 1e-3 && matches!(r.params, JointKind::Slider { .. } | JointKind::Wheel { .. }) {
            // A slider's or a wheel's travel along its axis: its motion, not an error.
            out.push(Segment::line(pa, pb, SPAN, 2.0 * w));
        }
        // A chain's or a ragdoll's many anchors drawn small, so the links between them show.
        let dot = if detailed { w } else { 0.55 * w };
        out.push(Segment::point(pa, [0.05, 0.05, 0.07], 12.0 * dot));
        out.push(Segment::point(pa, ANCHOR_A, 8.0 * dot));
        out.push(Segment::point(pb, ANCHOR_B, 6.0 * dot));
        if !detailed {
            continue;
        }
        let axis = r.axis.normalize_or_zero();
        if axis != Vec3::ZERO {
            arrow(out, pa, pa + axis * reach * 2.5, AXIS, 2.0 * w);
        }
        match (&r.params, r.limits) {
            (JointKind::Hinge { .. }, Some((lo, hi))) if axis != Vec3::ZERO => {
                // Zero direction: B's centre about the axis, turned back by the angle.
                let to_b = centre(r.b).map_or(Vec3::ZERO, |c| c - pa);
                let mut u = (to_b - axis * to_b.dot(axis)).normalize_or_zero();
                if u == Vec3::ZERO {
                    u = axis.any_orthonormal_vector();
                }
                let at = |angle: f32| pa + Quat::from_axis_angle(axis, angle - r.position) * u * reach * 2.0;
                let n = 24;
                for s in 0..n {
                    let (t0, t1) = (s as f32 / n as f32, (s + 1) as f32 / n as f32);
                    out.push(Segment::line(at(lo + (hi - lo) * t0), at(lo + (hi - lo) * t1), LIMIT, 2.0 * w));
                }
                for end in [lo, hi] {
                    out.push(Segment::line(pa, at(end), LIMIT, 1.0 * w));
                }
                out.push(Segment::line(pa, at(r.position), AXIS, 2.5 * w));
            }
            (JointKind::Slider { .. } | JointKind::Wheel { .. }, Some((lo, hi))) if axis != Vec3::ZERO => {
                let (p0, p1) = (pa + axis * lo, pa + axis * hi);
                out.push(Segment::line(p0, p1, LIMIT, 3.0 * w));
                out.push(Segment::point(p0, LIMIT, 8.0 * w));
                out.push(Segment::point(p1, LIMIT, 8.0 * w));
                out.push(Segment::point(pa + axis * r.position, AXIS, 10.0 * w));
            }
            (JointKind::Angle { cone: Some(cone), .. }, _) if axis != Vec3::ZERO => {
                let (u, v) = axis.any_orthonormal_pair();
                // The cone's rim on the sphere of radius `reach`: bounded for any cone angle.
                let cone = cone.clamp(0.0, std::f32::consts::PI);
                let (radius, along) = (reach * cone.sin(), reach * cone.cos());
                let ring = |t: f32| pa + axis * along + (u * t.cos() + v * t.sin()) * radius;
                let n = 32;
                for s in 0..n {
                    let (t0, t1) = (s as f32, (s + 1) as f32);
                    let step = std::f32::consts::TAU / n as f32;
                    out.push(Segment::line(ring(t0 * step), ring(t1 * step), LIMIT, 1.5 * w));
                }
                for s in 0..4 {
                    out.push(Segment::line(pa, ring(s as f32 * std::f32::consts::FRAC_PI_2), LIMIT, 1.0 * w));
                }
            }
            _ => {}
        }
        if let Some(tip) = force_tip(world, r, dt) {
            arrow(out, force(r, dt).0, tip, FORCE, 2.5 * w);
        }
    }
}

/// How far the anchors of joint `r` are apart where the joint holds them together (m):
/// across the axis for a slider or a wheel (their travel along it is their motion), else
/// the whole gap.
fn stretch(r: &JointRecord) -> f32 {
    let gap = r.anchor_b - r.anchor_a;
    match r.params {
        JointKind::Slider { .. } | JointKind::Wheel { .. } => {
            let axis = r.axis.normalize_or_zero();
            (gap - axis * gap.dot(axis)).length()
        }
        _ => gap.length(),
    }
}

/// The key of what [`draw`] shows of `records` (same arguments): each of its colours that
/// the drawing uses, with its meaning, read from the drawing itself.
pub fn key(world: &World, records: &[JointRecord], selected: Option<usize>, dt: f32) -> Vec<([f32; 3], &'static str)> {
    let mut drawn = Vec::new();
    draw(&mut drawn, world, records, selected, dt, |out, a, b, c, w| out.push(Segment::line(a, b, c, w)));
    let used = |c: &[f32; 3]| drawn.iter().any(|s| s.color[..3] == c[..]);
    let items = [
        (ANCHOR_A, "anchor on body A"),
        (ANCHOR_B, "anchor on body B"),
        (LINK, "body centre to anchor"),
        (SPAN, "rope, rod or travel"),
        (AXIS, "axis"),
        (LIMIT, "limits"),
        (FORCE, "joint force (N)"),
        (STRETCH, "stretched or broken"),
    ];
    items.into_iter().filter(|(c, _)| used(c)).collect()
}
