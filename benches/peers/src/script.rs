//! What a row does to its world while it runs, before each step, inside every runner's
//! timing as Box3D's runner does it: bodies dropped in ([`Drops`]: Box3D's large world)
//! and a kinematic body driven round its path ([`RowScript::drive`]: Box3D's junkyard).

use crate::{box3d_scenes, Engine};
use contactlab::physics::{Body, BodyDesc, World};
use glam::Vec3;

/// Bodies a world row adds while it runs, as Box3D's runner does (`StepLargeWorld` drops a
/// ball every five steps): before step `every`, `2·every`, … (the first step being step 0)
/// the next body of `bodies`, until there are none left. Every runner adds them inside its
/// timing, as Box3D's runner does.
pub struct Drops {
    /// Steps between two drops.
    pub every: usize,
    /// The bodies, in the order they are dropped.
    pub bodies: Vec<BodyDesc>,
    /// The start world with every body dropped: each body as a contactlab world makes it
    /// (what the peers mirror).
    full: World,
    /// The start world.
    start: World,
}

impl Drops {
    /// The drops of `bodies` into `start`, one every `every` steps.
    pub fn new(start: &World, every: usize, bodies: Vec<BodyDesc>) -> Self {
        let mut full = start.clone();
        for d in &bodies {
            full.add_body(d.clone()).expect("a dropped body");
        }
        Self { every: every.max(1), bodies, full, start: start.clone() }
    }

    /// The body to add before step `step` (0 for the first), as described and as made.
    pub fn at(&self, step: usize) -> Option<(&BodyDesc, &Body)> {
        if step == 0 || !step.is_multiple_of(self.every) {
            return None;
        }
        let k = step / self.every - 1;
        Some((self.bodies.get(k)?, &self.full.bodies()[self.start.bodies().len() + k]))
    }

    /// Adds `step`'s body, if any, to `engine`.
    pub fn before_step(&self, engine: &mut dyn Engine, step: usize) {
        if let Some((desc, body)) = self.at(step) {
            engine.add(desc, body);
        }
    }

    /// Adds `step`'s body, if any, to the contactlab world `w`, as the scene describes it.
    pub fn before_world_step(&self, w: &mut World, step: usize) {
        if let Some((desc, _)) = self.at(step) {
            w.add_body(desc.clone()).expect("a dropped body");
        }
    }

    /// The start world with the bodies dropped in `steps` steps: what the poses after them
    /// are judged against.
    pub fn after(&self, steps: usize) -> World {
        let dropped = (steps.saturating_sub(1) / self.every).min(self.bodies.len());
        let mut w = self.start.clone();
        for d in &self.bodies[..dropped] {
            w.add_body(d.clone()).expect("a dropped body");
        }
        w
    }
}

/// The bodies the row `name` drops while it runs (into [`stock_world`]'s world), where it
/// drops any: large-world-N, Box3D's 100 balls, one every 5 steps.
pub fn stock_drops(name: &str, start: &World) -> Option<Drops> {
    let side = name.strip_prefix("large-world-")?.parse::<usize>().ok().filter(|&n| n > 0)?;
    Some(Drops::new(start, 5, box3d_scenes::large_world_balls(side, 100)))
}

/// What a row does to its world while it runs, before each step: drops bodies in
/// ([`Drops`]: Box3D's large world) and drives a kinematic body
/// ([`box3d_scenes::JunkyardDrive`]: Box3D's junkyard). Every runner does it inside its
/// timing, as Box3D's runner does.
#[derive(Default)]
pub struct RowScript {
    /// The bodies dropped in.
    pub drops: Option<Drops>,
    /// The kinematic body driven.
    pub drive: Option<box3d_scenes::JunkyardDrive>,
}

impl RowScript {
    /// Before step `step` (0 for the first) of `engine`.
    pub fn before_step(&self, engine: &mut dyn Engine, step: usize) {
        if let Some(d) = &self.drops {
            d.before_step(engine, step);
        }
        if let Some(d) = &self.drive {
            engine.drive(d.body, d.velocity(step));
        }
    }

    /// Before step `step` of the contactlab world `w`.
    pub fn before_world_step(&self, w: &mut World, step: usize) {
        if let Some(d) = &self.drops {
            d.before_world_step(w, step);
        }
        if let Some(d) = &self.drive {
            drive_world(w, d.body, d.velocity(step));
        }
    }

    /// The world the poses after `steps` steps of `start` are judged against: `start` with
    /// the bodies dropped by then.
    pub fn judge(&self, start: &World, steps: usize) -> World {
        self.drops.as_ref().map_or_else(|| start.clone(), |d| d.after(steps))
    }
}

/// The script of the row `name` ([`RowScript`]; empty for a row that does nothing while it
/// runs) for its stock world `start`.
pub fn stock_script(name: &str, start: &World) -> RowScript {
    let drive = name.starts_with("junkyard").then(|| box3d_scenes::JunkyardDrive::new(start.bodies().len() - 1));
    RowScript { drops: stock_drops(name, start), drive }
}

/// Sets the velocity of kinematic body `body` of the contactlab world `w` (its spin zero):
/// [`Engine::drive`] for contactlab's engines, and the drive of a world stepped by hand.
pub fn drive_world(w: &mut World, body: usize, velocity: Vec3) {
    let h = w.handle(body);
    assert!(w.set_kinematic_velocity(h, velocity, Vec3::ZERO), "body {body} is not kinematic");
}
