//! The solver settings: one type for the physics, the scene files (through serde's remote
//! derive in `crate::scene::format`, so this module stays free of serde), the command line
//! and the panel. Valid ranges are in [`crate::physics::limits`].

/// Which resolution method the world uses: one enum for the physics, the scene format
/// (`solver: (mode: Iterative)`), the command line (`--solver iterative`) and the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SolverMode {
    /// One impulse per contact point, once.
    Naive,
    /// Sequential impulses with friction, warm starting and position correction.
    #[default]
    Iterative,
    /// Millington's worst-first resolver (Cyclone): nonlinear projection of the deepest
    /// penetration first, then the fastest closing contact first, with the 3×3 contact-space
    /// impulse and static/dynamic friction ([`super::cyclone`]).
    Cyclone,
    /// Averaged micro-collisions (Homer's simulator): every point of a pair is resolved from
    /// the same pre-collision velocities and the average of their effects is applied
    /// ([`super::averaged`]).
    Averaged,
}

impl SolverMode {
    /// Every method, in the order the panel lists them.
    pub const ALL: [SolverMode; 4] =
        [SolverMode::Naive, SolverMode::Iterative, SolverMode::Cyclone, SolverMode::Averaged];

    /// Display name (the panel's radio buttons, the inspector).
    pub fn name(self) -> &'static str {
        match self {
            SolverMode::Naive => "Naive",
            SolverMode::Iterative => "Iterative",
            SolverMode::Cyclone => "Cyclone",
            SolverMode::Averaged => "Averaged",
        }
    }

    /// Lower-case name, as written on the command line and in traces.
    pub fn key(self) -> &'static str {
        match self {
            SolverMode::Naive => "naive",
            SolverMode::Iterative => "iterative",
            SolverMode::Cyclone => "cyclone",
            SolverMode::Averaged => "averaged",
        }
    }

    /// The method of a lower-case [`Self::key`], if any.
    pub fn from_key(key: &str) -> Option<SolverMode> {
        SolverMode::ALL.into_iter().find(|m| m.key() == key)
    }

    /// One line on what the method does (the panel's hover text, `--help`).
    pub fn summary(self) -> &'static str {
        match self {
            SolverMode::Naive => "one impulse per contact point, once, in order",
            SolverMode::Iterative => "sequential impulses with friction, warm starting, soft contacts",
            SolverMode::Cyclone => {
                "Millington's worst-first resolver: deepest penetration, then fastest closing contact first"
            }
            SolverMode::Averaged => {
                "averaged micro-collisions: each pair's point impulses averaged, bounce rescaled to e"
            }
        }
    }
}

/// How the world keeps fast bodies from passing through others (continuous collision
/// detection, docs/physics.md "Continuous collision"): one enum for the physics, the scene
/// format (`solver: (ccd: Fast)`), the command line and the panel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ContinuousMode {
    /// None: speculative contacts only (a body faster than their reach can tunnel).
    Off,
    /// Box2D v3's continuous step: after the step, a body that moved farther than half its
    /// minimum extent is swept against the static bodies (and, if it is a bullet, the
    /// dynamic ones) and moved back to its first time of impact ([`crate::physics::world`]).
    #[default]
    Fast,
    /// The seed's method (Homer's simulator): the step is cut at every earliest collision
    /// found by sweeping the bounding spheres of all pairs and bisecting on the real
    /// geometry; the world is wound to it, the colliding pairs are resolved together, and
    /// the rest of the step continues. Slow by nature; at most `max_sub_events` cuts a step.
    EarliestCollision,
}

impl ContinuousMode {
    /// Every mode, in the order the panel lists them.
    pub const ALL: [ContinuousMode; 3] = [ContinuousMode::Off, ContinuousMode::Fast, ContinuousMode::EarliestCollision];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            ContinuousMode::Off => "Off",
            ContinuousMode::Fast => "Fast",
            ContinuousMode::EarliestCollision => "Earliest collision",
        }
    }

    /// Lower-case name, as written on the command line and in traces.
    pub fn key(self) -> &'static str {
        match self {
            ContinuousMode::Off => "off",
            ContinuousMode::Fast => "fast",
            ContinuousMode::EarliestCollision => "earliest",
        }
    }

    /// The mode of a lower-case [`Self::key`], if any.
    pub fn from_key(key: &str) -> Option<ContinuousMode> {
        ContinuousMode::ALL.into_iter().find(|m| m.key() == key)
    }

    /// One line on what the mode does (hover text, `--help`).
    pub fn summary(self) -> &'static str {
        match self {
            ContinuousMode::Off => "speculative contacts only: a body faster than their reach can tunnel",
            ContinuousMode::Fast => {
                "Box2D v3: fast bodies are moved back to their time of impact against static bodies (bullets: all)"
            }
            ContinuousMode::EarliestCollision => {
                "the seed's method: the step is cut at each earliest collision, found by bisection on the real geometry"
            }
        }
    }
}

/// Every solver parameter, in one place: scene files and the UI both set this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Resolution method.
    pub mode: SolverMode,
    /// Iterative: velocity passes per substep (and as many relax passes).
    pub iterations: u32,
    /// Iterative: substeps per step.
    pub substeps: u32,
    /// Iterative: apply last step's impulses at the start of each substep.
    pub warm_starting: bool,
    /// Iterative: stiffness of the position feedback ("bias"), as a spring frequency (Hz).
    /// Capped at a quarter of the substep rate (Box2D v3).
    pub contact_hertz: f32,
    /// Iterative: damping ratio of that spring (Box2D v3 uses 10: heavily over-damped).
    pub damping_ratio: f32,
    /// Iterative: largest speed at which penetration is pushed out (m/s).
    pub max_push_out: f32,
    /// Penetration allowed without correction (m): the naive projection's dead band, and the
    /// absolute tolerance of the narrow phase's face/edge choice.
    pub slop: f32,
    /// Restitution applies only when the approach speed exceeds this (m/s); Cyclone's
    /// resting-contact velocity limit (Millington's `velocityLimit`, 0.25 m/s in his code)
    /// and the averaged method use it too.
    pub restitution_threshold: f32,
    /// Naive mode: fraction of the penetration beyond slop projected away per step.
    pub naive_correction: f32,
    /// Let resting bodies sleep.
    pub sleeping: bool,
    /// Sleep when |v| stays under this (m/s)…
    pub sleep_linear: f32,
    /// …and |ω| under this (rad/s)…
    pub sleep_angular: f32,
    /// …for this long (s).
    pub sleep_time: f32,
    /// Speculative contact margin (m): pairs closer than this get contact points.
    pub margin: f32,
    /// Contact recycling window (m): a touching pair whose points have moved less than this
    /// relative to each other (and whose lever arms have turned by less than this) since
    /// its manifold was computed keeps that manifold's normal, points and lever arms; only
    /// the depths are measured again ([`crate::physics::world::Recycle`]); a pair with a
    /// mesh body within at most the slop (it can meet mesh features its manifold does not
    /// hold). Default 0.02 m,
    /// the speculative margin (Box3D uses 0.05 m); a 20-cube column stands with 5 mm and
    /// more. 0: every manifold is recomputed every step (exact geometry; tall stacks of
    /// soft contacts then buckle, see docs/physics.md).
    pub recycle_distance: f32,
    /// Iterative: solve four manifolds at a time in SIMD lanes after graph colouring
    /// ([`super::wide`]); off runs the scalar sequential-impulse solver
    /// ([`super::iterative`]) on every manifold, one after another in the batches' order —
    /// the textbook path to read and single-step, with the same maths (tested equal on a
    /// pyramid). On, the joint passes also run on compact per-step records
    /// (`joint::compact`; off, each joint from its [`crate::physics::joint::Joint`];
    /// bit-identical, tested).
    pub simd: bool,
    /// Cyclone: penetration-resolution steps per step, per contact point (Millington's demos
    /// allow four times the contact count).
    pub cyclone_position_iterations: u32,
    /// Cyclone: velocity-resolution steps per step, per contact point.
    pub cyclone_velocity_iterations: u32,
    /// Cyclone: penetrations up to this are left alone (m; Millington's `positionEpsilon`).
    pub cyclone_position_epsilon: f32,
    /// Cyclone: desired velocity changes up to this are left alone (m/s; Millington's
    /// `velocityEpsilon`).
    pub cyclone_velocity_epsilon: f32,
    /// Cyclone: the angular share of a penetration move is at most this fraction of the lever
    /// arm's length in the contact plane; the rest moves linearly (Millington's `angularLimit`).
    pub cyclone_angular_limit: f32,
    /// Joints: stiffness of the position feedback of rigid joint rows (Hz), capped at half
    /// the substep rate, or a quarter with a single iteration, and not capped when the
    /// joints are not warm-started ([`crate::physics::world::joint_hertz_cap`]; Box2D v3
    /// uses twice the contact hertz, Box3D caps at a quarter).
    pub joint_hertz: f32,
    /// Joints: damping ratio of that feedback.
    pub joint_damping_ratio: f32,
    /// Joints: each substep starts from the joint impulses the last one ended with (warm
    /// starting, as the contacts do; only while `warm_starting` is on too). Off, every
    /// substep's joint impulses start from zero, as rapier3d's joints do by default: a single
    /// pass then converges less far, but a stiff joint no longer overshoots on the impulse it
    /// carried in, so the feedback is not capped: rigid joints hold a long loaded structure
    /// (a hanging net) with one iteration, as rapier3d's do, without the soft joints' sag,
    /// but with the swing a single pass leaves (docs/BENCHMARKS.md, joint grid).
    pub joint_warm_starting: bool,
    /// Broad phase: keep only the pairs whose bounding spheres come within the margin of
    /// each other on their straight paths over the step (no *ghost* speculative contacts
    /// between fast bodies that pass each other, Catto's ghost collisions); off keeps every
    /// pair whose swept boxes overlap, and such pairs can brake each other.
    pub path_test: bool,
    /// Continuous collision detection ([`ContinuousMode`]; default `Fast`).
    pub ccd: ContinuousMode,
    /// Time of impact: each distance query of a search starts from the last one's simplex
    /// (Box2D's simplex cache); off starts each from one point (the textbook GJK). The
    /// times found agree to the search's tolerance.
    pub simplex_cache: bool,
    /// Time of impact: a ball (a sphere, or the probe of a body touching at the start)
    /// against a box is measured in closed form, the ball's centre clamped to the box;
    /// off, by GJK as every other pair. The distances agree to GJK's tolerance.
    pub closed_form_distance: bool,
    /// Earliest-collision mode: most cuts (sub-events) per step; the rest of a step that
    /// reaches it runs uncut and the step's record says so.
    pub max_sub_events: u32,
    /// Threads the step runs on, the calling one included; 0: every core of the machine.
    /// Results are bit-identical at any count ([`crate::physics::parallel`]); one thread
    /// runs no pool at all. Always one on the web.
    pub threads: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            mode: SolverMode::Iterative,
            iterations: 3,
            substeps: 4,
            warm_starting: true,
            contact_hertz: 60.0,
            damping_ratio: 10.0,
            max_push_out: 3.0,
            slop: 0.005,
            restitution_threshold: 1.0,
            naive_correction: 0.4,
            sleeping: true,
            sleep_linear: 0.05,
            sleep_angular: 0.05,
            sleep_time: 0.5,
            margin: 0.02,
            recycle_distance: 0.02,
            simd: true,
            cyclone_position_iterations: 4,
            cyclone_velocity_iterations: 4,
            cyclone_position_epsilon: 0.01,
            cyclone_velocity_epsilon: 0.01,
            cyclone_angular_limit: 0.2,
            joint_hertz: 120.0,
            joint_damping_ratio: 2.0,
            joint_warm_starting: true,
            path_test: true,
            ccd: ContinuousMode::Fast,
            simplex_cache: true,
            closed_form_distance: true,
            max_sub_events: 32,
            threads: 0,
        }
    }
}
