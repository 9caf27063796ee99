//! JSON Lines traces of a run (schema in docs/trace.md).
//!
//! Line 1 is a header `{"contactlab_trace": 1, "scene", "timestep", "bodies": [names],
//! "method"}` (`method` added later: absent in older traces);
//! then one object per recorded step, the first being step 0 (the initial state, no
//! contacts). Contacts of step n are the manifolds found during step n, with the impulses
//! applied in it. Normals point from `a` to `b`. Each step also lists the bodies frozen so
//! far because their state became non-finite (`non_finite`, an added field: empty in a
//! healthy run, absent in traces written before it), and, in scenes with joints, every
//! joint's impulses, position error and broken flag (`joints`, an added field); the bodies
//! that had a time of impact (`toi`), the earliest-collision cuts (`sub_events`) and whether
//! their cap was reached (`sub_event_cap_hit`), added fields absent when empty; the header
//! names the continuous-collision mode (`ccd`, added).

pub mod diff;
pub mod read;
pub mod series;

use crate::physics::World;
use serde::{Deserialize, Serialize};
use std::io::Write;

/// One step of `world` at `dt`, logging (as warnings) each body frozen in it because its
/// state became non-finite; `side` names the world in a comparison ("" for none). The
/// window, the comparison and the headless run all step through here.
pub fn step_logging_non_finite(world: &mut World, dt: f32, side: &str) {
    let reported = world.non_finite().len();
    world.step(dt);
    for e in &world.non_finite()[reported..] {
        if side.is_empty() {
            log::warn!("{e}");
        } else {
            log::warn!("side {side}: {e}");
        }
    }
}

/// First line of a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceHeader {
    /// Schema version (1).
    pub contactlab_trace: u32,
    /// Scene name.
    pub scene: String,
    /// Timestep (s).
    pub timestep: f32,
    /// Body names, in index order.
    pub bodies: Vec<String>,
    /// Resolution method at the start of the run (`SolverMode::key`: "naive", "iterative",
    /// …); an added field, absent in traces written before it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub method: String,
    /// Continuous collision mode at the start of the run (`ContinuousMode::key`: "off",
    /// "fast", "earliest"); an added field, absent in traces written before it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ccd: String,
}

/// One body's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceBody {
    /// Name.
    pub name: String,
    /// Position of the body's frame as authored in the scene (m).
    pub position: [f32; 3],
    /// Orientation quaternion [x, y, z, w].
    pub rotation: [f32; 4],
    /// Velocity of the centre of mass (m/s).
    pub velocity: [f32; 3],
    /// Angular velocity (rad/s, world).
    pub angular_velocity: [f32; 3],
    /// Asleep (not integrated).
    pub asleep: bool,
}

/// One contact point.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TracePoint {
    /// World position, halfway between the surfaces (m).
    pub position: [f32; 3],
    /// Penetration (m, negative for speculative points).
    pub depth: f32,
    /// Normal impulse applied during the step (N·s).
    pub normal_impulse: f32,
    /// Friction impulse along the contact's two tangents (N·s).
    pub friction_impulse: [f32; 2],
}

/// One touching pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceContact {
    /// Body A's name.
    pub a: String,
    /// Body B's name.
    pub b: String,
    /// Unit normal from a to b.
    pub normal: [f32; 3],
    /// `face_a`, `face_b` or `edge`.
    pub feature: String,
    /// Points.
    pub points: Vec<TracePoint>,
    /// The two unit tangents the friction impulses are along (an added field: absent in
    /// traces written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tangents: Option<[[f32; 3]; 2]>,
}

/// One point of a watched pair's manifold, with its feature ID.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceWatchedPoint {
    /// Feature ID as hexadecimal (`FeatureId` bits, see docs/trace.md).
    pub id: String,
    /// The same features in words, as the inspector names them ("edge 16 × side 5"); an
    /// added field, absent in traces written before it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub features: String,
    /// Penetration (m, negative for speculative points).
    pub depth: f32,
    /// Normal impulse applied during the step (N·s).
    pub normal_impulse: f32,
    /// Friction impulse along the contact's two tangents (N·s).
    pub friction_impulse: [f32; 2],
}

/// What the step did for a watched pair (`--select`): the narrow-phase path and the
/// manifold the solver used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceWatched {
    /// Body A's name (the lower index).
    pub a: String,
    /// Body B's name.
    pub b: String,
    /// Narrow-phase path: `not_candidate`, `paths_miss`, `asleep`, `still_apart`, `sphere_skip`,
    /// `recycled`, `cached_axis_separates`, `cached_feature`, `full_sat`, `closed_form`.
    pub path: String,
    /// Speculative margin the pair was tested with (m).
    pub margin: f32,
    /// `face_a`, `face_b` or `edge` (empty when the manifold has no points).
    pub feature: String,
    /// Unit normal from a to b.
    pub normal: [f32; 3],
    /// The manifold's points.
    pub points: Vec<TraceWatchedPoint>,
}

/// One recorded step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceStep {
    /// Step index (0 = initial state).
    pub step: u64,
    /// Simulated time (s).
    pub time: f64,
    /// Every body.
    pub bodies: Vec<TraceBody>,
    /// Touching pairs of this step.
    pub contacts: Vec<TraceContact>,
    /// Watched pairs (`--select`), absent when none is watched.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub watched: Vec<TraceWatched>,
    /// Bodies frozen up to this step because their state became non-finite (added field;
    /// empty unless something went wrong, missing in older traces).
    #[serde(default)]
    pub non_finite: Vec<TraceNonFinite>,
    /// Every joint (added field; absent when the scene has no joints).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<TraceJoint>,
    /// Bodies that had a time of impact in this step (added field; absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub toi: Vec<TraceToi>,
    /// Earliest-collision mode: the cuts of this step (added field; absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sub_events: Vec<TraceSubEvent>,
    /// Earliest-collision mode: the step reached `max_sub_events` with a collision still
    /// ahead (added field; absent when false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sub_event_cap_hit: bool,
}

/// A body that had a time of impact during the step (continuous collision).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceToi {
    /// The body.
    pub body: String,
    /// The body it hit.
    pub other: String,
    /// Time of impact as a fraction of the step.
    pub fraction: f32,
    /// Centre of mass at the step's start (m).
    pub start: [f32; 3],
    /// Centre of mass at the time of impact (m).
    pub impact: [f32; 3],
    /// Fast mode: where the centre would have ended the step; earliest mode: where it did.
    pub end: [f32; 3],
    /// Distance queries the time-of-impact search made.
    pub iterations: u32,
}

/// One cut of an earliest-collision step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceSubEvent {
    /// Seconds after the step's start.
    pub time: f32,
    /// The pairs that collided then, by body names.
    pub pairs: Vec<[String; 2]>,
}

/// One joint after a step.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceJoint {
    /// Joint name.
    pub name: String,
    /// Kind: `ball`, `distance`, `hinge`, `slider`, `weld`, `angle`, `wheel`, `pulley`, `mouse`.
    pub kind: String,
    /// Linear impulse the joint applied to body b during the step (N·s, world).
    pub linear_impulse: [f32; 3],
    /// Angular impulse applied to b during the step, without the moment of the linear one
    /// (N·m·s, world).
    pub angular_impulse: [f32; 3],
    /// Linear position error after the step (m).
    pub position_error: f32,
    /// Angular position error after the step (rad).
    pub angular_error: f32,
    /// The joint has broken (no longer acts).
    pub broken: bool,
}

/// A body frozen because its state became non-finite ([`crate::physics::NonFinite`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TraceNonFinite {
    /// Body name.
    pub body: String,
    /// Step in which it was found.
    pub step: u64,
    /// Stage that produced it (a [`crate::physics::Stage`] name, or "an edit between steps").
    pub stage: String,
    /// Which parts were non-finite: "position", "rotation", "velocity", "angular velocity".
    pub fields: String,
}

impl TraceStep {
    /// Snapshot of `world` as step `step`; `with_contacts` false for step 0.
    pub fn capture(world: &World, step: u64, with_contacts: bool) -> TraceStep {
        let bodies = world
            .bodies()
            .iter()
            .map(|b| {
                let p = b.authored_pose();
                TraceBody {
                    name: b.name.clone(),
                    position: p.pos.to_array(),
                    rotation: p.rot.to_array(),
                    velocity: b.velocity.to_array(),
                    angular_velocity: b.angular_velocity.to_array(),
                    asleep: b.asleep,
                }
            })
            .collect();
        let mut contacts = Vec::new();
        if with_contacts {
            for c in world.contacts() {
                if c.manifold.points.is_empty() {
                    continue;
                }
                contacts.push(TraceContact {
                    a: world.bodies()[c.a as usize].name.clone(),
                    b: world.bodies()[c.b as usize].name.clone(),
                    normal: c.manifold.normal.to_array(),
                    feature: c.manifold.kind.as_str().to_string(),
                    tangents: Some([c.tangents[0].to_array(), c.tangents[1].to_array()]),
                    points: c
                        .manifold
                        .points
                        .iter()
                        .zip(&c.impulses)
                        .map(|(p, i)| TracePoint {
                            position: p.position.to_array(),
                            depth: p.depth,
                            normal_impulse: i.normal,
                            friction_impulse: i.tangent,
                        })
                        .collect(),
                });
            }
        }
        let name = |i: u32| world.bodies()[i as usize].name.clone();
        let watched = world
            .watched()
            .iter()
            .filter(|r| with_contacts && r.step > 0)
            .map(|r| TraceWatched {
                a: name(r.a),
                b: name(r.b),
                path: r.path.as_str().to_string(),
                margin: r.margin,
                feature: if r.manifold.points.is_empty() {
                    String::new()
                } else {
                    r.manifold.kind.as_str().to_string()
                },
                normal: r.manifold.normal.to_array(),
                points: r
                    .manifold
                    .points
                    .iter()
                    .zip(&r.impulses)
                    .map(|(p, i)| TraceWatchedPoint {
                        id: format!("{:016x}", p.id.0),
                        features: crate::view::feature::label(p.id),
                        depth: p.depth,
                        normal_impulse: i.normal,
                        friction_impulse: i.tangent,
                    })
                    .collect(),
            })
            .collect();
        let non_finite = world
            .non_finite()
            .iter()
            .map(|e| TraceNonFinite {
                body: e.name.clone(),
                step: e.step,
                stage: e.origin.name().to_string(),
                fields: e.fields.clone(),
            })
            .collect();
        let joints = world
            .joint_handles()
            .map(|(_, j)| TraceJoint {
                name: j.name.clone(),
                kind: j.kind.name().to_string(),
                linear_impulse: j.linear_impulse.to_array(),
                angular_impulse: j.angular_impulse.to_array(),
                position_error: j.position_error,
                angular_error: j.angular_error,
                broken: j.broken,
            })
            .collect();
        let rec = world.continuous();
        let capture_ccd = with_contacts && rec.step == step;
        let toi = if capture_ccd {
            rec.events
                .iter()
                .map(|e| TraceToi {
                    body: name(e.body),
                    other: name(e.other),
                    fraction: e.fraction,
                    start: e.start.pos.to_array(),
                    impact: e.impact.pos.to_array(),
                    end: e.end.pos.to_array(),
                    iterations: rec.queries[e.query as usize].result.iterations,
                })
                .collect()
        } else {
            Vec::new()
        };
        let sub_events = if capture_ccd {
            rec.sub_events
                .iter()
                .map(|e| TraceSubEvent {
                    time: e.time,
                    pairs: rec.pairs_of(e).iter().map(|&(a, b)| [name(a), name(b)]).collect(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let sub_event_cap_hit = capture_ccd && rec.cap_hit;
        TraceStep {
            step,
            time: world.time,
            bodies,
            contacts,
            watched,
            non_finite,
            joints,
            toi,
            sub_events,
            sub_event_cap_hit,
        }
    }
}

/// Writes a header and steps as JSON Lines.
pub struct TraceWriter<W: Write> {
    out: W,
}

impl<W: Write> TraceWriter<W> {
    /// Starts a trace with its header line.
    pub fn new(mut out: W, scene: &str, timestep: f32, world: &World) -> std::io::Result<Self> {
        let header = TraceHeader {
            contactlab_trace: 1,
            scene: scene.to_string(),
            timestep,
            bodies: world.bodies().iter().map(|b| b.name.clone()).collect(),
            method: world.settings.mode.key().to_string(),
            ccd: world.settings.ccd.key().to_string(),
        };
        serde_json::to_writer(&mut out, &header)?;
        out.write_all(b"\n")?;
        Ok(Self { out })
    }

    /// Appends one step line.
    pub fn write_step(&mut self, step: &TraceStep) -> std::io::Result<()> {
        serde_json::to_writer(&mut self.out, step)?;
        self.out.write_all(b"\n")
    }

    /// Flushes and returns the sink.
    pub fn finish(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
