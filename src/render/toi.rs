//! Draws what continuous collision did in a step ([`ContinuousRecord`]), as Box2D's "Time of
//! Impact" sample does: for every body that had a time of impact, three ghosts of its shape —
//! where the step started (t0), where it hit (the time of impact) and where it would have
//! ended without continuous collision (t1) — joined by the path of its centre, and
//! optionally the bounds of its sweep. The body itself is tinted by the main view.
//!
//! The ghosts read the record only; in earliest-collision mode `end` is the pose the body
//! did end at (the record's own definition), so the t1 ghost sits on the body.

use super::draw::{MeshDraw, Segment, ViewDraw};
use super::views::{mesh_ref, model_at};
use crate::physics::world::ContinuousRecord;
use crate::physics::World;
use glam::Vec3;

/// Ghost at the step's start (t0): cool grey-blue.
pub const GHOST_START: [f32; 3] = [0.35, 0.45, 0.65];
/// Ghost at the time of impact: orange, the pose the body was put back to.
pub const GHOST_IMPACT: [f32; 3] = [1.0, 0.5, 0.05];
/// Ghost at the step's end (t1): red, where the body would have tunnelled to.
pub const GHOST_END: [f32; 3] = [0.85, 0.1, 0.15];
/// Tint of a body that had a time of impact this step (mixed into its colour).
pub const TOI_TINT: [f32; 3] = [0.95, 0.25, 0.6];
/// Swept bounds.
pub const SWEPT: [f32; 3] = [0.55, 0.25, 0.75];

/// The bodies of `rec` that had a time of impact (to tint them).
pub fn hit_bodies(rec: &ContinuousRecord) -> impl Iterator<Item = usize> + '_ {
    rec.events.iter().map(|e| e.body as usize)
}

/// Mixes the time-of-impact tint into a body colour (`amount` 0–1).
pub fn tint(color: [f32; 3], amount: f32) -> [f32; 3] {
    let a = amount.clamp(0.0, 1.0) * 0.6;
    [0, 1, 2].map(|k| color[k] * (1.0 - a) + TOI_TINT[k] * a)
}

/// Appends the ghosts of every event of `rec` to `v`.
/// `fade` (0–1] scales their opacity: the window keeps showing a step's ghosts for a moment
/// after it, fading, so a fast impact is seen while playing.
pub fn draw(v: &mut ViewDraw, world: &World, rec: &ContinuousRecord, outlines: &[Vec<(Vec3, Vec3)>], fade: f32) {
    let bodies = world.bodies();
    for e in &rec.events {
        let i = e.body as usize;
        let Some(b) = bodies.get(i) else { continue };
        let ghosts = [(&e.start, GHOST_START, 0.22), (&e.impact, GHOST_IMPACT, 0.45), (&e.end, GHOST_END, 0.18)];
        for (pose, color, alpha) in ghosts {
            v.meshes.push(MeshDraw::new(mesh_ref(&b.shape, i), model_at(world, i, pose), color, alpha * fade));
            if let Some(edges) = outlines.get(i) {
                for (p, q) in edges {
                    let (p, q) = (pose.transform_point(*p), pose.transform_point(*q));
                    v.overlay.push(Segment::line(p, q, color, 1.6).with_alpha(0.85 * fade));
                }
            }
        }
        // The centre's path: solid up to the impact, faint beyond it (the part the step
        // did not take).
        v.overlay.push(Segment::line(e.start.pos, e.impact.pos, GHOST_IMPACT, 2.5).with_alpha(fade));
        v.overlay.push(Segment::line(e.impact.pos, e.end.pos, GHOST_END, 1.5).with_alpha(0.6 * fade));
        for (p, c) in [(e.start.pos, GHOST_START), (e.impact.pos, GHOST_IMPACT), (e.end.pos, GHOST_END)] {
            v.overlay.push(Segment::point(p, [0.08, 0.08, 0.1], 9.0).with_alpha(fade));
            v.overlay.push(Segment::point(p, c, 6.0).with_alpha(fade));
        }
    }
}
