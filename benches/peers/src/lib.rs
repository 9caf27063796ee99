//! contactlab side by side with parry3d, rapier3d, box3d-rust and the upstream Box3D (C,
//! through `boxddd`; [`boxddd`] module).
//!
//! Every world here is first built as a contactlab [`World`] (from
//! [`contactlab::scene::stock`]) and then *mirrored* into each peer body by body: same
//! shapes (boxes as boxes, hulls from the same hull vertices, a compound as one body of one
//! shape a child at the child's pose: [`parts`]), same poses, density, friction,
//! restitution and rolling resistance (both Box3Ds; rapier3d has none: its bodies roll
//! freely), same gravity and time step, sleeping off, single thread, four substeps
//! (rapier: `num_solver_iterations = 4`; box3d: `sub_step_count = 4`; contactlab: 4 substeps
//! × 1 iteration). Quality is then judged with one yardstick for every engine:
//! [`max_penetration`] runs contactlab's exact SAT on the poses an engine produced, and
//! [`joint_error`] measures every ball joint's anchor separation on those poses.
//!
//! Limits: each engine keeps its own contact softness and speculative distance (they are not
//! the same parameters in the three designs); the table notes them. Joints: ball joints only
//! (rapier's spherical joint, box3d's spherical joint); contactlab's joints are as soft as
//! box3d's (60 Hz, damping ratio 2: box3d caps its joint stiffness at a quarter of the
//! substep rate), rapier's are rigid (its default joint spring, 10⁶ Hz); joined bodies never
//! collide with each other.

pub mod box3d_scenes;
pub mod boxddd;
pub mod character;
pub mod narrow;
pub mod script;
pub use script::{stock_drops, stock_script, Drops, RowScript};

use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use contactlab::physics::hull::builders::SplitMix64;
use contactlab::physics::{Body, BodyDesc, BodyKind, Iso, JointKind, Settings, Shape, World, WORLD};
use glam::{Quat, Vec3};

/// Time step of every world run (s).
pub const DT: f32 = 1.0 / 60.0;
/// Substeps (or solver iterations, for rapier) in every engine.
pub const SUBSTEPS: usize = 4;

/// contactlab's settings for the comparison: sleeping off, 4 substeps × 1 iteration,
/// contact stiffness 30 Hz — Box3D's `contact_hertz` and rapier's contact natural frequency
/// (contactlab's own default is 60 Hz, which with a single iteration lets a pyramid creep) —
/// and joint stiffness 60 Hz, Box3D's `constraint_hertz` (contactlab's own default, 120 Hz,
/// half the substep rate, needs its three iterations: with one, a 100 × 100 joint grid
/// oscillates and tears).
pub fn contactlab_settings() -> Settings {
    Settings {
        sleeping: false,
        substeps: SUBSTEPS as u32,
        iterations: 1,
        contact_hertz: 30.0,
        joint_hertz: 60.0,
        // One thread: the peers' single-threaded rows ([`Contactlab::threaded`] runs on all).
        threads: 1,
        ..Default::default()
    }
}

/// A world some engine can step and report poses from.
pub trait Engine {
    /// Engine name for tables.
    fn name(&self) -> &'static str;
    /// One step of [`DT`].
    fn step(&mut self);
    /// Pose of every body, in the order of the contactlab world it mirrors.
    fn poses(&self) -> Vec<Iso>;
    /// Adds a body while the world runs ([`Drops`]): `desc` as the scene gives it, `body`
    /// as a contactlab world made it (what a peer mirrors: its mass, centred pose).
    fn add(&mut self, desc: &BodyDesc, body: &Body);
    /// Sets the velocity of kinematic body `body` (index in the contactlab world) for the
    /// steps that follow ([`RowScript`]'s drive; its spin stays zero).
    fn drive(&mut self, body: usize, velocity: Vec3);
    /// How the engine's own manifolds hold their touching points now, where it can say.
    fn touching_points(&self) -> Option<TouchingPoints> {
        None
    }
    /// The engine's own profile of its last step, stage by stage (name, ms), where it keeps
    /// one (the upstream Box3D's `b3Profile`).
    fn stage_ms(&self) -> Option<Vec<(&'static str, f32)>> {
        None
    }
}

/// How an engine's manifolds hold the points that touch (depth ≥ 0, solver points for
/// rapier3d): how many manifolds have 1, 2, 3 and 4 or more of them, and how many have two
/// at the same place (within [`TouchingPoints::COINCIDENT`]). A soft contact point is a
/// spring scaled by its own effective mass, so a point given twice is twice as stiff.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TouchingPoints {
    /// Manifolds by their count of touching points: 1, 2, 3, 4 or more.
    pub by_count: [usize; 4],
    /// Manifolds with two touching points within [`TouchingPoints::COINCIDENT`].
    pub coincident: usize,
}

impl TouchingPoints {
    /// Two points closer than this (m) are the same point.
    pub const COINCIDENT: f32 = 1e-5;

    /// Counts one manifold from its touching points' positions (any one frame).
    pub fn add(&mut self, points: &[Vec3]) {
        if let Some(slot) = points.len().checked_sub(1) {
            self.by_count[slot.min(3)] += 1;
        }
        let twice =
            points.iter().enumerate().any(|(i, p)| points[..i].iter().any(|q| p.distance(*q) < Self::COINCIDENT));
        self.coincident += usize::from(twice);
    }
}

impl std::fmt::Display for TouchingPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [one, two, three, more] = self.by_count;
        write!(
            f,
            "manifolds by touching points: 1: {one}, 2: {two}, 3: {three}, 4+: {more}; {} of them hold one point twice",
            self.coincident
        )
    }
}

/// Moves every dynamic body of `world` by a seeded offset of up to `reach` (m) along each
/// axis: a pile started a little differently settles into another rest, so a few seeds
/// compare engines better than one end pose.
pub fn jitter(world: &mut World, seed: u64, reach: f32) {
    // The same offsets on every machine.
    let mut rng = SplitMix64(seed);
    let mut next = || rng.next_f32() * 2.0 - 1.0;
    for i in 0..world.bodies().len() {
        let h = world.handle(i);
        if let Some(b) = world.body_mut(h).filter(|b| b.is_dynamic()) {
            b.pose.pos += Vec3::new(next(), next(), next()) * reach;
        }
    }
}

/// contactlab itself.
pub struct Contactlab(pub World);

/// contactlab at its own default solver settings (4 substeps × 3 iterations, 60 Hz), for
/// the quality it ships with.
pub struct ContactlabDefault(pub World);

impl Engine for ContactlabDefault {
    fn name(&self) -> &'static str {
        "contactlab 4×3"
    }
    fn step(&mut self) {
        self.0.step(DT);
    }
    fn poses(&self) -> Vec<Iso> {
        self.0.bodies().iter().map(|b| b.pose).collect()
    }
    fn add(&mut self, desc: &BodyDesc, _: &Body) {
        self.0.add_body(desc.clone()).expect("a body the scene's own world took");
    }
    fn drive(&mut self, body: usize, velocity: Vec3) {
        script::drive_world(&mut self.0, body, velocity);
    }
}

impl ContactlabDefault {
    /// `src` with the default iteration count (sleeping still off).
    pub fn mirror(src: &World) -> Self {
        let mut w = src.clone();
        let d = Settings::default();
        w.settings.iterations = d.iterations;
        w.settings.contact_hertz = d.contact_hertz;
        w.settings.joint_hertz = d.joint_hertz;
        Self(w)
    }
}

impl Contactlab {
    /// `src` stepped on every core of the machine (`Settings::threads` 0): the same results
    /// as on one thread, bit for bit.
    pub fn threaded(src: &World) -> Self {
        let mut w = src.clone();
        w.settings.threads = 0;
        Self(w)
    }
}

impl Engine for Contactlab {
    fn name(&self) -> &'static str {
        if self.0.settings.threads == 1 {
            "contactlab"
        } else {
            "contactlab mt"
        }
    }
    fn step(&mut self) {
        self.0.step(DT);
    }
    fn poses(&self) -> Vec<Iso> {
        self.0.bodies().iter().map(|b| b.pose).collect()
    }
    fn add(&mut self, desc: &BodyDesc, _: &Body) {
        self.0.add_body(desc.clone()).expect("a body the scene's own world took");
    }
    fn drive(&mut self, body: usize, velocity: Vec3) {
        script::drive_world(&mut self.0, body, velocity);
    }
    fn touching_points(&self) -> Option<TouchingPoints> {
        let mut t = TouchingPoints::default();
        let mut at = Vec::with_capacity(4);
        for c in self.0.contacts() {
            at.clear();
            at.extend(c.manifold.points.iter().filter(|p| p.depth >= 0.0).map(|p| p.position));
            t.add(&at);
        }
        Some(t)
    }
}

fn rv(v: Vec3) -> rapier3d::math::Vector {
    rapier3d::math::Vector::new(v.x, v.y, v.z)
}

fn rpose(x: &Iso) -> rapier3d::math::Pose {
    let q = x.rot;
    rapier3d::math::Pose::from_parts(rv(x.pos), rapier3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w))
}

/// The convex parts of a body's shape, each with its pose in the body's frame: a compound's
/// children, or the shape itself at the identity. Every peer mirrors a compound as one body
/// of several shapes (Box3D's shapes on one body, rapier3d's colliders on one rigid body),
/// all of the body's density, as contactlab gives its children.
pub fn parts(shape: &Shape) -> Vec<(&Shape, Iso)> {
    match shape {
        Shape::Compound(c) => c.children().iter().map(|c| (&c.shape, c.pose)).collect(),
        shape => vec![(shape, Iso::IDENTITY)],
    }
}

/// rapier3d's `PhysicsWorld`, mirrored from a contactlab world.
pub struct Rapier {
    world: rapier3d::pipeline::PhysicsWorld,
    handles: Vec<rapier3d::dynamics::RigidBodyHandle>,
    /// With the `rapier-parallel` feature: the rayon pool rapier steps in (its thread count
    /// is rapier's: it reads `rayon::current_num_threads`).
    #[cfg(feature = "rapier-parallel")]
    pool: rayon::ThreadPool,
}

impl Rapier {
    /// Mirror `src` body by body.
    pub fn mirror(src: &World) -> Self {
        use rapier3d::prelude::PhysicsWorld;
        let mut world = PhysicsWorld { gravity: rv(src.gravity), ..Default::default() };
        world.integration_parameters.dt = DT;
        world.integration_parameters.num_solver_iterations = SUBSTEPS;
        let handles = src.bodies().iter().map(|b| Self::add_to(&mut world, b)).collect::<Vec<_>>();
        for (a, b, la, lb) in ball_joints(src) {
            let joint = rapier3d::prelude::SphericalJointBuilder::new()
                .local_anchor1(rv(la))
                .local_anchor2(rv(lb))
                .contacts_enabled(false);
            world.impulse_joints.insert(handles[a], handles[b], joint, true);
        }
        Self {
            world,
            handles,
            #[cfg(feature = "rapier-parallel")]
            pool: rayon::ThreadPoolBuilder::new().num_threads(1).build().expect("a one-thread rayon pool"),
        }
    }
}

impl Rapier {
    /// One body of a contactlab world, mirrored into `world`.
    fn add_to(world: &mut rapier3d::pipeline::PhysicsWorld, b: &Body) -> rapier3d::dynamics::RigidBodyHandle {
        use rapier3d::prelude::RigidBodyBuilder;
        let rb = match b.kind {
            BodyKind::Dynamic => RigidBodyBuilder::dynamic(),
            BodyKind::Static => RigidBodyBuilder::fixed(),
            BodyKind::Kinematic => RigidBodyBuilder::kinematic_velocity_based(),
        };
        // Bullets get rapier's (hard) continuous collision.
        let rb = rb.pose(rpose(&b.pose)).linvel(rv(b.velocity)).angvel(rv(b.angular_velocity)).can_sleep(false);
        let h = world.bodies.insert(rb.ccd_enabled(b.bullet));
        let density = if b.is_dynamic() { b.mass() / b.shape.volume() } else { 1000.0 };
        // A compound is one collider a child, each at the child's pose in the body's frame
        // (Box3D's several shapes on one body); the children share the body's density.
        for (shape, at) in parts(&b.shape) {
            let col = Self::collider(shape).position(rpose(&at));
            world.colliders.insert_with_parent(
                col.density(density).friction(b.friction).restitution(b.restitution),
                h,
                &mut world.bodies,
            );
        }
        h
    }

    /// The collider of one plain (not compound) contactlab shape, in its own frame.
    fn collider(shape: &Shape) -> rapier3d::prelude::ColliderBuilder {
        use rapier3d::prelude::ColliderBuilder;
        match shape {
            Shape::Box { half_extents: e, .. } => ColliderBuilder::cuboid(e.x, e.y, e.z),
            Shape::Hull(h) => {
                let pts: Vec<_> = h.vertices().iter().map(|v| rv(*v)).collect();
                ColliderBuilder::convex_hull(&pts).expect("rapier convex hull")
            }
            Shape::Sphere { radius } => ColliderBuilder::ball(*radius),
            Shape::Capsule { radius, half_height } => ColliderBuilder::capsule_y(*half_height, *radius),
            Shape::Mesh(m) => {
                ColliderBuilder::trimesh(m.vertices().iter().map(|v| rv(*v)).collect(), m.triangles().to_vec())
                    .expect("rapier triangle mesh")
            }
            Shape::Compound(_) => panic!("a compound's children are not compounds"),
        }
    }
}

#[cfg(feature = "rapier-parallel")]
impl Rapier {
    /// `src` mirrored, stepped on `threads` threads by rapier's parallel pipeline.
    pub fn mirror_threads(src: &World, threads: usize) -> Self {
        let mut r = Self::mirror(src);
        r.pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a rayon pool");
        r
    }
}

impl Engine for Rapier {
    fn name(&self) -> &'static str {
        #[cfg(feature = "rapier-parallel")]
        if self.pool.current_num_threads() > 1 {
            return "rapier3d mt";
        }
        "rapier3d"
    }
    fn step(&mut self) {
        #[cfg(feature = "rapier-parallel")]
        {
            let world = &mut self.world;
            self.pool.install(|| world.step());
        }
        #[cfg(not(feature = "rapier-parallel"))]
        self.world.step();
    }
    fn poses(&self) -> Vec<Iso> {
        self.handles
            .iter()
            .map(|h| {
                let p = self.world.bodies[*h].position();
                let (t, r) = (p.translation, p.rotation);
                Iso::new(Vec3::new(t.x, t.y, t.z), Quat::from_xyzw(r.x, r.y, r.z, r.w))
            })
            .collect()
    }
    fn add(&mut self, _: &BodyDesc, body: &Body) {
        let h = Self::add_to(&mut self.world, body);
        self.handles.push(h);
    }
    fn drive(&mut self, body: usize, velocity: Vec3) {
        self.world.bodies[self.handles[body]].set_linvel(rv(velocity), true);
    }
    fn touching_points(&self) -> Option<TouchingPoints> {
        let mut t = TouchingPoints::default();
        let mut at = Vec::with_capacity(8);
        for m in self.world.narrow_phase.contact_pairs().flat_map(|p| p.manifolds()) {
            at.clear();
            // The solver's points, each at its offset from the second body (one frame for
            // the whole manifold).
            let touching = m.data.solver_contacts.iter().filter(|c| c.dist <= 0.0);
            at.extend(touching.map(|c| Vec3::new(c.anchor2.x, c.anchor2.y, c.anchor2.z)));
            t.add(&at);
        }
        Some(t)
    }
}

pub(crate) fn bv(v: Vec3) -> box3d_rust::math_functions::Vec3 {
    box3d_rust::math_functions::Vec3 { x: v.x, y: v.y, z: v.z }
}

pub(crate) fn bq(q: Quat) -> box3d_rust::math_functions::Quat {
    box3d_rust::math_functions::Quat { v: bv(Vec3::new(q.x, q.y, q.z)), s: q.w }
}

/// A box3d-rust hull for a contactlab box or hull shape.
pub fn box3d_hull(shape: &Shape) -> box3d_rust::hull::HullData {
    box3d_hull_at(shape, &Iso::IDENTITY)
}

/// A box3d-rust hull for a contactlab box or hull shape at pose `x` in the body's frame (a
/// compound's child): a box as Box3D's transformed box hull (`b3MakeTransformedBoxHull`),
/// a hull from its vertices moved into the body's frame.
pub fn box3d_hull_at(shape: &Shape, x: &Iso) -> box3d_rust::hull::HullData {
    match shape {
        Shape::Box { half_extents: e, .. } if *x == Iso::IDENTITY => {
            box3d_rust::hull::make_box_hull(e.x, e.y, e.z).base
        }
        Shape::Box { half_extents: e, .. } => {
            let t = box3d_rust::math_functions::Transform { p: bv(x.pos), q: bq(x.rot) };
            box3d_rust::hull::make_transformed_box_hull(e.x, e.y, e.z, t).base
        }
        Shape::Hull(h) => {
            let at = |v: Vec3| if *x == Iso::IDENTITY { v } else { x.transform_point(v) };
            let pts: Vec<_> = h.vertices().iter().map(|v| bv(at(*v))).collect();
            box3d_rust::hull::create_hull(&pts, box3d_rust::constants::MAX_HULL_VERTICES).expect("box3d hull")
        }
        _ => panic!("box3d_hull takes boxes and hulls"),
    }
}

/// A box3d-rust mesh of a contactlab triangle mesh, with shared edges identified (Box3D's
/// ghost-collision handling).
pub fn box3d_mesh(m: &contactlab::physics::mesh::TriMesh) -> box3d_rust::mesh::MeshData {
    let def = box3d_rust::mesh::MeshDef {
        vertices: m.vertices().iter().map(|v| bv(*v)).collect(),
        indices: m.triangles().iter().flat_map(|t| t.map(|i| i as i32)).collect(),
        identify_edges: true,
        ..Default::default()
    };
    box3d_rust::mesh::create_mesh(&def, None).expect("box3d mesh")
}

/// box3d-rust's `World`, mirrored from a contactlab world.
pub struct Box3d {
    world: box3d_rust::world::World,
    ids: Vec<box3d_rust::BodyId>,
}

impl Box3d {
    /// Mirror `src` body by body.
    pub fn mirror(src: &World) -> Self {
        use box3d_rust::types::default_world_def;
        let mut def = default_world_def();
        def.gravity = bv(src.gravity);
        def.enable_sleep = false;
        let mut world = box3d_rust::world::World::new(&def);
        let ids = src.bodies().iter().map(|b| Self::add_to(&mut world, b)).collect::<Vec<_>>();
        for (a, b, la, lb) in ball_joints(src) {
            use box3d_rust::joint::create_spherical_joint;
            let mut jd = box3d_rust::types::default_spherical_joint_def();
            jd.base.body_id_a = ids[a];
            jd.base.body_id_b = ids[b];
            jd.base.local_frame_a.p = bv(la);
            jd.base.local_frame_b.p = bv(lb);
            jd.base.collide_connected = false;
            create_spherical_joint(&mut world, &jd);
        }
        Self { world, ids }
    }

    /// One body of a contactlab world, mirrored into `world`.
    fn add_to(world: &mut box3d_rust::world::World, b: &Body) -> box3d_rust::BodyId {
        use box3d_rust::body::create_body;
        use box3d_rust::geometry::{Capsule, Sphere};
        use box3d_rust::shape::{create_capsule_shape, create_hull_shape, create_sphere_shape};
        use box3d_rust::types::{default_body_def, default_shape_def, BodyType};
        let mut bd = default_body_def();
        bd.type_ = match b.kind {
            BodyKind::Dynamic => BodyType::Dynamic,
            BodyKind::Static => BodyType::Static,
            BodyKind::Kinematic => BodyType::Kinematic,
        };
        bd.position = bv(b.pose.pos);
        bd.rotation = bq(b.pose.rot);
        bd.linear_velocity = bv(b.velocity);
        bd.angular_velocity = bv(b.angular_velocity);
        bd.enable_sleep = false;
        // box3d sweeps every fast body against static ones; bullets against all.
        bd.is_bullet = b.bullet;
        let id = create_body(world, &bd);
        let mut sd = default_shape_def();
        sd.density = if b.is_dynamic() { b.mass() / b.shape.volume() } else { 1000.0 };
        sd.base_material.friction = b.friction;
        sd.base_material.restitution = b.restitution;
        sd.base_material.rolling_resistance = b.rolling_resistance;
        // A compound's children are shapes of the one body, each moved into the body's frame.
        for (shape, x) in parts(&b.shape) {
            match shape {
                Shape::Sphere { radius } => {
                    create_sphere_shape(world, id, &sd, &Sphere { center: bv(x.pos), radius: *radius });
                }
                Shape::Capsule { radius, half_height } => {
                    let c1 = bv(x.transform_point(Vec3::Y * -*half_height));
                    let c2 = bv(x.transform_point(Vec3::Y * *half_height));
                    create_capsule_shape(world, id, &sd, &Capsule { center1: c1, center2: c2, radius: *radius });
                }
                Shape::Mesh(m) => {
                    box3d_rust::shape::create_mesh_shape(world, id, &sd, &box3d_mesh(m), bv(Vec3::ONE));
                }
                shape => {
                    create_hull_shape(world, id, &sd, &box3d_hull_at(shape, &x));
                }
            }
        }
        id
    }
}

impl Engine for Box3d {
    fn name(&self) -> &'static str {
        "box3d-rust"
    }
    fn step(&mut self) {
        self.world.step(DT, SUBSTEPS as i32);
    }
    fn poses(&self) -> Vec<Iso> {
        self.ids
            .iter()
            .map(|id| {
                let t = box3d_rust::body::body_get_transform(&self.world, *id);
                Iso::new(Vec3::new(t.p.x, t.p.y, t.p.z), Quat::from_xyzw(t.q.v.x, t.q.v.y, t.q.v.z, t.q.s))
            })
            .collect()
    }
    fn add(&mut self, _: &BodyDesc, body: &Body) {
        let id = Self::add_to(&mut self.world, body);
        self.ids.push(id);
    }
    fn drive(&mut self, body: usize, velocity: Vec3) {
        box3d_rust::body::body_set_linear_velocity(&mut self.world, self.ids[body], bv(velocity));
    }
}

/// The ball joints of `src` as (body A, body B, A's anchor, B's anchor), the anchors in each
/// body's own frame about its centre of mass (every stock body has its centre of mass at
/// its origin). Any other kind of joint, or a joint to the world, is not mirrored: panics.
pub fn ball_joints(src: &World) -> Vec<(usize, usize, Vec3, Vec3)> {
    src.joints()
        .iter()
        .filter(|j| j.is_alive())
        .map(|j| {
            assert!(matches!(j.kind, JointKind::Ball), "the peer comparison mirrors ball joints only");
            assert!(j.a != WORLD && j.b != WORLD, "the peer comparison mirrors joints between bodies only");
            (j.a as usize, j.b as usize, Vec3::from(j.local.anchor_a), Vec3::from(j.local.anchor_b))
        })
        .collect()
}

/// The [`joint_error`] samples of one run summed up: the largest of their largest gaps,
/// and the means of their largest and of their mean gaps (m); `None` without samples. A net
/// that still swings is caught anywhere in its swing by one snapshot, so the peer table and
/// `peers-run` also sample it along the run.
pub fn joint_error_over_run(samples: &[(f32, f32)]) -> Option<(f32, f32, f32)> {
    if samples.is_empty() {
        return None;
    }
    let n = samples.len() as f32;
    let top = samples.iter().map(|s| s.0).fold(0.0f32, f32::max);
    let (sum_max, sum_mean) = samples.iter().fold((0.0f32, 0.0f32), |s, e| (s.0 + e.0, s.1 + e.1));
    Some((top, sum_max / n, sum_mean / n))
}

/// Anchor separation of every ball joint of `template` with its bodies at `poses`: (largest,
/// mean) in metres; `None` when the world has no joints. The same yardstick for every engine.
pub fn joint_error(template: &World, poses: &[Iso]) -> Option<(f32, f32)> {
    let joints = ball_joints(template);
    if joints.is_empty() {
        return None;
    }
    let (mut worst, mut sum) = (0.0f32, 0.0f64);
    for &(a, b, la, lb) in &joints {
        let gap = (poses[a].transform_point(la) - poses[b].transform_point(lb)).length();
        worst = worst.max(gap);
        sum += gap as f64;
    }
    Some((worst, (sum / joints.len() as f64) as f32))
}

/// Dynamic bodies of `template` whose centre is at `poses` outside the room of
/// [`contactlab::scene::stock::barrage`] (into or through a wall): continuous collision's
/// yardstick, the same for every engine.
pub fn escaped(template: &World, poses: &[Iso]) -> usize {
    use contactlab::scene::stock::inside_barrage_room;
    template.bodies().iter().zip(poses).filter(|(b, x)| b.is_dynamic() && !inside_barrage_room(x.pos)).count()
}

/// Dynamic bodies of `template` whose centre is at `poses` out of the drum of
/// [`box3d_scenes::washer`] (the template's kinematic body, where the engine moved it): farther
/// than its outer radius from its axis, or past one of its open ends. A cube that fell out
/// of an end lies on the ground, out of the drum; one through the rim is out too. The same
/// yardstick for every engine.
pub fn out_of_washer(template: &World, poses: &[Iso]) -> usize {
    let Some(drum) = template.bodies().iter().position(|b| b.is_kinematic()) else { return 0 };
    let (radius, half_length) = box3d_scenes::WASHER_OUTER;
    let local = |x: &Iso| poses[drum].inverse().transform_point(x.pos);
    template
        .bodies()
        .iter()
        .zip(poses)
        .filter(|(b, x)| {
            b.is_dynamic() && {
                let p = local(x);
                p.truncate().length() > radius || p.z.abs() > half_length
            }
        })
        .count()
}

/// Dynamic bodies of `template` whose centre is at `poses` below the terrain of
/// [`contactlab::scene::stock::heightfield_pile`] (fell into or through it): the same
/// yardstick for every engine.
pub fn below_terrain(template: &World, poses: &[Iso]) -> usize {
    use contactlab::scene::stock::terrain_height;
    template
        .bodies()
        .iter()
        .zip(poses)
        .filter(|(b, x)| b.is_dynamic() && x.pos.y < terrain_height(x.pos.x, x.pos.z))
        .count()
}

/// The deepest hull vertex under the heightfield of `stock::heightfield_pile` (m, measured
/// straight down from the terrain's closed-form height): a check of the mesh contact's
/// depths that does not use it.
pub fn deepest_vertex_below_terrain(template: &World, poses: &[Iso]) -> f32 {
    use contactlab::scene::stock::terrain_height;
    let mut worst = 0.0f32;
    for (b, x) in template.bodies().iter().zip(poses).filter(|(b, _)| b.is_dynamic()) {
        if let Some(h) = b.shape.hull() {
            for v in h.vertices() {
                let p = x.transform_point(*v);
                worst = worst.max(terrain_height(p.x, p.z) - p.y);
            }
        }
    }
    worst
}

/// Deepest penetration (m) between any two bodies of `template` placed at `poses`, by
/// contactlab's exact SAT — the same yardstick for every engine. Pairs are found by a
/// sweep over x of the bounding boxes.
pub fn max_penetration(template: &World, poses: &[Iso]) -> f32 {
    pair_depths(template, poses).into_iter().fold(0.0, f32::max)
}

/// The deepest point of every touching pair (m, a manifold with no margin), by the same
/// yardstick as [`max_penetration`]: one number per pair, in no particular order. A pile's
/// deepest pair is one sample; the spread (median, the deepest twenty) compares engines
/// better.
pub fn pair_depths(template: &World, poses: &[Iso]) -> Vec<f32> {
    let bodies = template.bodies();
    let mut order: Vec<(f32, f32, usize)> = bodies
        .iter()
        .zip(poses)
        .enumerate()
        .map(|(i, (b, x))| {
            let bb = b.shape.aabb(x);
            (bb.min.x, bb.max.x, i)
        })
        .collect();
    order.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cfg = CollideConfig { margin: 0.0, ..Default::default() };
    let (mut scratch, mut m) = (Scratch::default(), Manifold::default());
    let mut depths = Vec::new();
    for (k, &(_, max_x, i)) in order.iter().enumerate() {
        let bi = bodies[i].shape.aabb(&poses[i]);
        for &(min_x, _, j) in &order[k + 1..] {
            if min_x > max_x {
                break;
            }
            if bodies[i].is_dynamic() || bodies[j].is_dynamic() {
                let bj = bodies[j].shape.aabb(&poses[j]);
                if bi.overlaps(&bj) {
                    let mut cache = SatCache::Empty;
                    collide(
                        &bodies[i].shape,
                        &poses[i],
                        &bodies[j].shape,
                        &poses[j],
                        &cfg,
                        &mut cache,
                        &mut scratch,
                        &mut m,
                    );
                    if !m.points.is_empty() {
                        depths.push(m.max_depth());
                    }
                }
            }
        }
    }
    depths
}

/// One line on the spread of [`pair_depths`]: the touching pairs, the median and the
/// deepest ten (mm), and the mean of the deepest twenty.
pub fn depth_summary(mut depths: Vec<f32>) -> String {
    depths.sort_by(|x, y| y.total_cmp(x));
    let mm = |x: f32| x * 1e3;
    let top: Vec<String> = depths.iter().take(10).map(|&x| format!("{:.1}", mm(x))).collect();
    let twenty = depths.len().clamp(1, 20);
    let mean = depths.iter().take(20).sum::<f32>() / twenty as f32;
    let median = depths.get(depths.len() / 2).copied().unwrap_or(0.0);
    format!(
        "{} touching pairs; depth median {:.2} mm, deepest twenty mean {:.2} mm, deepest ten [{}] mm",
        depths.len(),
        mm(median),
        mm(mean),
        top.join(" ")
    )
}

/// The stock world a row name stands for, built with `s`, or `None` for an unknown name:
/// pyramid-210, pyramid-5050, pyramid-layers-L (L rows), hull-pile-640, box-pile-Nk (N
/// thousand boxes), stack-N (a column of N unit cubes on the ground), joint-grid-N (N × N),
/// barrage-N (N shots), heightfield-N (N bodies), and Box3D's own scenes: convex-pile-N (N/64
/// layers of 8 × 8 hulls; its 5,120), many-pyramids-10780 (14 × 14 pyramids of 55 cubes),
/// large-world-N (N × N static slabs, its N is 1,000, onto which [`stock_drops`] drops 100
/// balls) and junkyard-10584 (10,584 rocks and a kinematic pusher that [`stock_script`]
/// drives round the yard) and washer-8000 (8,000 cubes in a kinematic drum of 40 hulls, one
/// compound body, turning at constant speed).
pub fn stock_world(name: &str, s: Settings) -> Option<World> {
    use contactlab::scene::stock::{barrage, box_pile, heightfield_pile, hull_pile, joint_grid, pyramid};
    let count = |prefix: &str| name.strip_prefix(prefix).and_then(|n| n.parse::<usize>().ok());
    Some(match name {
        "pyramid-210" => pyramid(20, s),
        "pyramid-5050" => pyramid(100, s),
        "hull-pile-640" => hull_pile(640, s),
        "many-pyramids-10780" => box3d_scenes::many_pyramids(14, 14, 10, s),
        "junkyard-10584" => box3d_scenes::junkyard(s),
        "washer-8000" => box3d_scenes::washer(s),
        // Box3D's trees100, trees50 and trees25 (its mesh at 1, 2 and 4 cells a metre).
        "trees-100" => box3d_scenes::trees(1, s),
        "trees-50" => box3d_scenes::trees(2, s),
        "trees-25" => box3d_scenes::trees(4, s),
        _ if name.starts_with("pyramid-layers-") => pyramid(count("pyramid-layers-").filter(|&l| l > 0)?, s),
        _ if name.starts_with("joint-grid-") => joint_grid(count("joint-grid-").filter(|&n| n > 1)?, s),
        _ if name.starts_with("heightfield-") => heightfield_pile(count("heightfield-")?, s),
        _ if name.starts_with("convex-pile-") => {
            box3d_scenes::convex_pile(8, 8, count("convex-pile-").filter(|&n| n >= 64)? / 64, s)
        }
        _ if name.starts_with("barrage-") => barrage(count("barrage-")?, s),
        _ if name.starts_with("large-world-") => {
            box3d_scenes::large_world_floor(count("large-world-").filter(|&n| n > 0)?, s)
        }
        _ if name.starts_with("stack-") => {
            let n = count("stack-").filter(|&n| n > 0)?;
            let mut w = pyramid(1, s);
            let cube = Shape::cuboid(Vec3::splat(0.5)).expect("a unit cube");
            for i in 1..n {
                let at = Vec3::new(0.0, 0.5 + i as f32, 0.0);
                w.add_body(contactlab::physics::BodyDesc::new(format!("s{i}"), cube.clone(), at)).expect("a cube");
            }
            w
        }
        _ => {
            let k = name.strip_prefix("box-pile-")?.strip_suffix('k')?.parse::<usize>().ok()?;
            box_pile(k.checked_mul(1000).filter(|&n| n > 0)?, s)
        }
    })
}

#[cfg(test)]
#[path = "mirror_tests.rs"]
pub(crate) mod tests;
