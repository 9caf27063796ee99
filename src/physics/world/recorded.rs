//! Showing a recorded run (`--replay`): the bodies' states and the contacts of a trace step
//! put into the world, so the renderer and panel draw them as they draw a live step. No
//! physics runs while a trace is replayed; stepping the world afterwards starts from these
//! states, with the recorded impulses as warm-start data.

use super::narrow::PairKey;
use super::World;
use crate::physics::contact::Contact;
use crate::physics::math::Iso;
use glam::Vec3;

impl World {
    /// Sets body `i`'s state: its authored pose (the frame a scene or a trace names, see
    /// `Body::authored_pose`), velocities and sleep flag.
    pub fn set_recorded_body(&mut self, i: usize, authored: Iso, velocity: Vec3, angular_velocity: Vec3, asleep: bool) {
        let Some(b) = self.bodies.get_mut(i) else { return };
        b.pose = Iso::new(authored.pos + authored.rot * b.com_offset, authored.rot);
        b.velocity = velocity;
        b.angular_velocity = angular_velocity;
        b.asleep = asleep;
        self.broad_dirty = true;
    }

    /// Replaces the contact set with `contacts` (pairs with `a < b`; sorted here).
    /// A pair listed more than once (a body touching a mesh along several normals) keeps
    /// its first contact in the pair list and the others after it, as the narrow phase
    /// leaves them.
    pub fn set_recorded_contacts(&mut self, mut contacts: Vec<Contact>) {
        contacts.sort_by_key(|c| (c.a, c.b));
        let mut groups = Vec::new();
        let mut seen = None;
        contacts.retain(|c| {
            let first = seen != Some((c.a, c.b));
            seen = Some((c.a, c.b));
            if !first {
                groups.push(c.clone());
            }
            first
        });
        self.keys.clear();
        self.keys.extend(contacts.iter().map(PairKey::recorded));
        self.pairs.clear();
        self.pairs.extend(contacts.iter().map(|c| (c.a, c.b)));
        self.contacts = contacts.into_iter().chain(groups).map(Box::new).collect();
        // The contacts with points, as the narrow phase lists them (the islands read them).
        self.touching.clear();
        self.touching.extend((0..).zip(&self.contacts).filter(|(_, c)| !c.manifold.points.is_empty()).map(|(i, _)| i));
        self.watch.clear();
        self.broad_dirty = true;
    }
}
