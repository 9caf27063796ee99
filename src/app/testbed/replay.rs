//! Replaying a trace as the testbed does it: open (the bodies must be the scene's), show a
//! recorded frame on side A (a comparison ends first), step and seek through the frames.
//! The trace's state is [`crate::app::replay::Replay`].

use super::Testbed;
use crate::app::replay::Replay;
use crate::physics::collide::{ContactKind, ContactPoint, Manifold};
use crate::physics::{Contact, Iso};
use crate::trace::read::read_trace;
use glam::{Quat, Vec3};
use std::path::Path;

impl Testbed {
    /// Opens the trace at `path` for replay on the current scene; an error (unreadable
    /// trace, other bodies) leaves the testbed as it was.
    pub fn open_replay(&mut self, path: &Path) -> Result<(), String> {
        let (header, steps) = read_trace(path).map_err(|e| e.to_string())?;
        let names: Vec<&str> = self.world().bodies().iter().map(|b| b.name.as_str()).collect();
        if header.bodies != names {
            return Err(format!(
                "{}: its {} bodies are not the scene's {} (recorded from '{}'): open the scene it was recorded from",
                path.display(),
                header.bodies.len(),
                names.len(),
                header.scene
            ));
        }
        if steps.is_empty() {
            return Err(format!("{}: the trace has no steps", path.display()));
        }
        let body_index = header.bodies.iter().enumerate().map(|(i, n)| (n.clone(), i as u32)).collect();
        if self.sides.comparing() {
            self.set_sides(&[self.sides.main().mode()]);
        }
        self.session.replay = Some(Replay { path: path.to_path_buf(), header, steps, index: 0, body_index });
        self.show_replay_frame(0);
        Ok(())
    }

    /// Leaves the replay: the scene starts again from its beginning.
    pub fn stop_replay(&mut self) {
        self.session.replay = None;
        self.reset();
    }

    /// Shows recorded frame `index` (clamped).
    pub(super) fn show_replay_frame(&mut self, index: usize) {
        let Some(r) = self.session.replay.as_mut() else { return };
        r.index = index.min(r.steps.len() - 1);
        let step = &r.steps[r.index];
        let w = &mut self.sides.main_mut().world;
        for (i, b) in step.bodies.iter().enumerate() {
            let pose = Iso::new(Vec3::from_array(b.position), Quat::from_array(b.rotation));
            w.set_recorded_body(i, pose, Vec3::from_array(b.velocity), Vec3::from_array(b.angular_velocity), b.asleep);
        }
        let mut contacts = Vec::with_capacity(step.contacts.len());
        for c in &step.contacts {
            let (Some(&a), Some(&b)) = (r.body_index.get(&c.a), r.body_index.get(&c.b)) else { continue };
            let kind = match c.feature.as_str() {
                "face_a" => ContactKind::FaceA,
                "face_b" => ContactKind::FaceB,
                _ => ContactKind::Edge,
            };
            let mut contact = Contact { a, b, ..Default::default() };
            contact.manifold =
                Manifold { normal: Vec3::from_array(c.normal), kind, points: Default::default(), part: 0 };
            if let Some([t1, t2]) = c.tangents {
                contact.tangents = [Vec3::from_array(t1), Vec3::from_array(t2)];
            }
            for (k, p) in c.points.iter().take(4).enumerate() {
                contact.manifold.points.push(ContactPoint {
                    position: Vec3::from_array(p.position),
                    depth: p.depth,
                    ..Default::default()
                });
                contact.impulses[k].normal = p.normal_impulse;
                // Without tangents the friction direction is unknown: draw none.
                contact.impulses[k].tangent = if c.tangents.is_some() { p.friction_impulse } else { [0.0; 2] };
            }
            contacts.push(contact);
        }
        w.set_recorded_contacts(contacts);
        w.step_count = step.step;
        w.time = step.time;
        self.sides.forget();
        self.session.touch();
    }

    /// In a replay: goes to the last recorded frame at or before `step`.
    pub(super) fn seek_replay(&mut self, step: u64) {
        if let Some(r) = &self.session.replay {
            let i = r.steps.partition_point(|s| s.step <= step).saturating_sub(1);
            self.show_replay_frame(i);
        }
    }

    /// In a replay: moves `by` recorded frames; playing stops on the last frame, or where it
    /// cannot move.
    pub(super) fn step_replay(&mut self, by: isize) {
        let Some(r) = &self.session.replay else { return };
        let last = r.steps.len() - 1;
        let next = (r.index as isize + by).clamp(0, last as isize) as usize;
        if next == r.index || next == last {
            self.session.playing = false;
        }
        self.show_replay_frame(next);
    }
}
