//! Conservation laws on joints (section 4 of the conservation tests): a gyroscope, a
//! torque-free disc, a bob going round its pivot, a conical pendulum and a hinged rod, in
//! every method, against their closed forms.

use super::*;

// ---------------------------------------------------------------------------------------
// 4. Spinning bodies on joints
// ---------------------------------------------------------------------------------------

/// A 1 kg disc (a 32-sided prism, radius 0.2 m, 5 cm thick) whose axle (its local Y) lies
/// along world X, its centre `arm` from a ball joint to the world at `pivot`.
struct Gyro {
    w: World,
    disc: usize,
    pivot: Vec3,
    /// Inertia about the axle, from the body.
    axial: f32,
}

const ARM: f32 = 0.15;

/// The 1 kg disc of [`Gyro`] at `at`, its axle along world x.
fn disc(at: Vec3) -> BodyDesc {
    let shape = Shape::Hull(Arc::new(Hull::prism(0.2, 0.025, 32).unwrap()));
    let mut d =
        BodyDesc::new("disc", shape, at).with_rotation(Quat::from_rotation_z(-FRAC_PI_2)).with_material(0.0, 0.0);
    d.mass = Some(1.0);
    d
}

fn gyro(settings: Settings, gravity: Vec3) -> Gyro {
    let mut w = World::new(gravity, settings);
    let pivot = Vec3::new(0.0, 1.0, 0.0);
    let disc = w.add_body(disc(pivot + Vec3::new(ARM, 0.0, 0.0))).unwrap().index as usize;
    w.add_joint(JointDesc::new("pivot", JointKind::Ball, WORLD, disc as u32, pivot)).unwrap();
    let b = &w.bodies()[disc];
    assert!((b.pose.rot * Vec3::Y - Vec3::X).length() < 1e-6, "the axle lies along x");
    let axial = Vec3::Y.dot(b.inertia_local * Vec3::Y);
    Gyro { w, disc, pivot, axial }
}

impl Gyro {
    fn axle(&self) -> Vec3 {
        self.w.bodies()[self.disc].pose.rot * Vec3::Y
    }
    /// Azimuth of the axle about +y (0 along +x, growing towards −z).
    fn azimuth(&self) -> f32 {
        let a = self.axle();
        (-a.z).atan2(a.x)
    }
    fn spin(&self) -> f32 {
        self.w.bodies()[self.disc].angular_velocity.dot(self.axle())
    }
    /// Angular momentum about the pivot: L_cm + m·r × v.
    fn momentum_about_pivot(&self) -> Vec3 {
        let b = &self.w.bodies()[self.disc];
        b.angular_momentum() + b.mass() * (b.pose.pos - self.pivot).cross(b.velocity)
    }
    fn set_motion(&mut self, omega: Vec3) {
        let h = self.w.handle(self.disc);
        let pivot = self.pivot;
        let b = self.w.body_mut(h).unwrap();
        b.angular_velocity = omega;
        b.velocity = omega.cross(b.pose.pos - pivot);
    }
}

/// Axle horizontal, spin ω about it: gravity's torque m·g·r turns the spin's angular
/// momentum I·ω about the vertical at Ω = m·g·r / (I·ω). With the axle horizontal that is
/// exact for a steady precession (the transverse term carries cos 90° = 0), so the disc
/// starts in it: ω·axle + Ω·ŷ, centre moving at Ω·ŷ × r — no nutation to average out.
#[test]
fn a_gyroscope_precesses_at_m_g_r_over_i_omega_and_keeps_its_spin_in_every_method() {
    let mut failures = Vec::new();
    for (label, settings) in methods(no_sleep()) {
        for omega in [60.0f32, 99.0] {
            let mut g = gyro(settings, Vec3::new(0.0, -G, 0.0));
            let m = g.w.bodies()[g.disc].mass();
            let closed = m * G * ARM / (g.axial * omega);
            g.set_motion(Vec3::new(omega, closed, 0.0));
            let (mut phi, mut last) = (0.0f32, g.azimuth());
            let (mut rate, mut worst_spin, mut spin_1s) = (0.0f32, 0.0f32, 0.0f32);
            for step in 1..=120 {
                g.w.step(DT);
                let a = g.azimuth();
                let mut d = a - last;
                d -= TAU * (d / TAU).round();
                phi += d;
                last = a;
                let s = g.spin();
                worst_spin = worst_spin.max((s / omega - 1.0).abs());
                if step == 60 {
                    rate = phi / (60.0 * DT);
                    spin_1s = s;
                }
            }
            let err = (rate / closed - 1.0).abs();
            println!(
                "gyroscope, {label}, ω = {omega}: precession {rate:.4} rad/s over 1 s, m·g·r/(I·ω) = {closed:.4} (I = {:.5} kg·m²), error {:.2} % (bound 2 %); spin after 1 s {spin_1s:.2} rad/s, worst drift over 2 s {:.3} % (bound 0.5 %)",
                g.axial,
                err * 100.0,
                worst_spin * 100.0
            );
            if err > 0.02 {
                failures.push(format!(
                    "{label}, ω = {omega}: precession {rate:.4} rad/s vs m·g·r/(I·ω) = {closed:.4} rad/s: {:.2} % off (bound 2 %)",
                    err * 100.0
                ));
            }
            if worst_spin > 0.005 {
                failures.push(format!(
                    "{label}, ω = {omega}: spin about the axle drifted {:.3} % over 2 s (bound 0.5 %; {spin_1s:.2} rad/s after 1 s)",
                    worst_spin * 100.0
                ));
            }
        }
    }
    check(failures);
}

/// Torque-free, no joint: a disc spinning about its axle (the axis of its largest moment)
/// with a slight wobble keeps L, its spin about the axle and the energy, and the axle stays
/// on its cone about L (Euler's equations with I₁ = I₂: ω₃ is constant). At 60 Hz the one-pass
/// methods turn it by 1.65 rad a step; before the rotation update became the symplectic
/// splitting (`Body::integrate_rotation`), the disc tumbled onto a transverse axis within
/// 10 steps there (99 → 12 rad/s of spin), and its wobble grew in the iterative method.
#[test]
fn a_free_disc_spinning_about_its_axle_keeps_its_spin_and_angular_momentum_in_every_method() {
    let mut failures = Vec::new();
    for (label, settings) in methods(no_sleep()) {
        let mut w = World::new(Vec3::ZERO, settings);
        let mut d = disc(Vec3::ZERO);
        d.angular_velocity = Vec3::new(99.0, 3.0, 4.0);
        let disc = w.add_body(d).unwrap().index as usize;
        let b = &w.bodies()[disc];
        let (l0, e0) = (b.angular_momentum(), b.kinetic_energy());
        let axle = |w: &World| w.bodies()[disc].pose.rot * Vec3::Y;
        let spin = |w: &World| w.bodies()[disc].angular_velocity.dot(axle(w));
        let (s0, cone0) = (spin(&w), axle(&w).angle_between(l0));
        let (mut dl, mut ds, mut de, mut dcone) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
        for _ in 0..120 {
            w.step(DT);
            let b = &w.bodies()[disc];
            let l = b.angular_momentum();
            dl = dl.max((l - l0).length() / l0.length());
            ds = ds.max((spin(&w) / s0 - 1.0).abs());
            de = de.max((b.kinetic_energy() / e0 - 1.0).abs());
            dcone = dcone.max((axle(&w).angle_between(l0) - cone0).abs());
        }
        println!(
            "free disc, {label}: over 2 s, L moved {:.4} % of |L|, spin {:.4} %, energy {:.4} %, the axle's cone about L {:.3}° (of {:.3}°)",
            dl * 100.0,
            ds * 100.0,
            de * 100.0,
            dcone.to_degrees(),
            cone0.to_degrees()
        );
        // The bounds: the motion is exact (two equal moments), so what is left is the f32
        // round-off of the poses and velocities the step carries, about 2·10⁻⁷ of |L| a step.
        if dl > 5e-4 || ds > 5e-4 || de > 1e-3 || dcone > 0.05f32.to_radians() {
            failures.push(format!(
                "{label}: L moved {:.4} % (bound 0.05 %), spin {:.4} % (bound 0.05 %), energy {:.4} % (bound 0.1 %), cone {:.3}° (bound 0.05°)",
                dl * 100.0,
                ds * 100.0,
                de * 100.0,
                dcone.to_degrees()
            ));
        }
    }
    check(failures);
}

/// No gravity: the joint's force acts at the pivot, so the angular momentum about the pivot,
/// L = I_pivot·ω with I_pivot = R·I·Rᵀ + m·(|r|²·1 − r⊗r), is conserved. The disc spins at
/// 99 rad/s about its axle with a 5 rad/s transverse component, so it wobbles.
#[test]
fn a_torque_free_disc_on_a_ball_joint_keeps_its_angular_momentum_about_the_pivot_in_every_method() {
    let mut failures = Vec::new();
    for (label, settings) in methods(no_sleep()) {
        let mut g = gyro(settings, Vec3::ZERO);
        g.set_motion(Vec3::new(99.0, 3.0, 4.0));
        let l0 = g.momentum_about_pivot();
        // Cross-check against I_pivot·ω.
        let b = &g.w.bodies()[g.disc];
        let (rot, r) = (Mat3::from_quat(b.pose.rot), b.pose.pos - g.pivot);
        let outer = Mat3::from_cols(r * r.x, r * r.y, r * r.z);
        let i_pivot =
            rot * b.inertia_local * rot.transpose() + (Mat3::IDENTITY * r.length_squared() - outer) * b.mass();
        assert!((i_pivot * b.angular_velocity - l0).length() < 1e-4 * l0.length());
        let (mut worst, mut turned, mut spin_1s) = (0.0f32, 0.0f32, 0.0f32);
        for step in 1..=120 {
            g.w.step(DT);
            let l = g.momentum_about_pivot();
            worst = worst.max((l.length() / l0.length() - 1.0).abs());
            turned = turned.max(l.angle_between(l0));
            if step == 60 {
                spin_1s = g.spin();
            }
        }
        println!(
            "torque-free disc, {label}: |L_pivot| {:.5} → worst {:.3} % off over 2 s (bound 0.1 %); L turned at most {:.3}°; spin after 1 s {spin_1s:.2} rad/s (99 at the start)",
            l0.length(),
            worst * 100.0,
            turned.to_degrees()
        );
        if worst > 0.001 {
            failures.push(format!(
                "{label}: |L about the pivot| drifted {:.3} % over 2 s (bound 0.1 %); spin after 1 s {spin_1s:.2} rad/s",
                worst * 100.0
            ));
        }
    }
    check(failures);
}

/// A bob of mass m going round a pivot at speed v on a ball joint of length L, with no
/// gravity: the joint pulls it towards the pivot with m·v²/L, every step (the reported force
/// is what a class reads off the inspector, and what breaks a joint). Before the pinned
/// bodies turned about their pivot the one-pass methods reported 40 % too little at the
/// bottom of a swing: the centripetal pull came out of the next step's position error.
#[test]
fn a_bob_going_round_a_pivot_is_pulled_in_with_m_v_squared_over_l_in_every_method() {
    let mut failures = Vec::new();
    let (m, l, v) = (2.0f32, 1.5f32, 3.0f32);
    let closed = m * v * v / l;
    for (label, settings) in methods(no_sleep()) {
        let mut w = World::new(Vec3::ZERO, settings);
        let pivot = Vec3::new(0.0, 2.0, 0.0);
        let mut d =
            BodyDesc::new("bob", Shape::Sphere { radius: 0.05 }, pivot - Vec3::Y * l).with_velocity(Vec3::X * v);
        d.angular_velocity = Vec3::Z * (v / l);
        d.mass = Some(m);
        let bob = w.add_body(d).unwrap().index as usize;
        w.add_joint(JointDesc::new("rod", JointKind::Ball, WORLD, bob as u32, pivot)).unwrap();
        let (mut worst, mut aim, mut turn) = (0.0f32, 0.0f32, 0.0f32);
        for _ in 0..120 {
            let before = w.bodies()[bob].pose.pos;
            w.step(DT);
            let record = &w.joint_records()[0];
            let force = record.linear_impulse / DT;
            worst = worst.max((force.length() / closed - 1.0).abs());
            // No gravity: the whole pull is the bob's turn about the pivot, which the record
            // names (the rows carry only the gap closing).
            turn = turn.max((record.pivot_impulse / DT - force).length() / closed);
            // Towards the pivot from the bob's mid-step position.
            let inward = (pivot - 0.5 * (before + w.bodies()[bob].pose.pos)).normalize();
            aim = aim.max(force.normalize().angle_between(inward));
        }
        println!(
            "bob round a pivot, {label}: pull within {:.3} % of m·v²/L = {closed:.3} N over 2 s (bound 1 %), at most {:.3}° off the pivot; the pivot's turn is the pull to {:.3} % (bound 1 %)",
            worst * 100.0,
            aim.to_degrees(),
            turn * 100.0
        );
        if worst > 0.01 || aim > 1f32.to_radians() || turn > 0.01 {
            failures.push(format!(
                "{label}: pull {:.3} % off m·v²/L, {:.3}° off the pivot",
                worst * 100.0,
                aim.to_degrees()
            ));
        }
    }
    check(failures);
}

/// A conical pendulum: a bob on a ball joint of length L, its string at α from the vertical,
/// circles at Ω = √(g/(L·cos α)) without rising or falling, and gravity, vertical, has no
/// moment about the vertical through the pivot, so that component of the angular momentum
/// about the pivot is conserved (by any swing, not only the steady one).
#[test]
fn a_conical_pendulum_circles_at_root_g_over_l_cos_alpha_in_every_method() {
    let mut failures = Vec::new();
    let (m, l, alpha) = (1.5f32, 1.2f32, 30f32.to_radians());
    let omega = (G / (l * alpha.cos())).sqrt();
    for (label, settings) in methods(no_sleep()) {
        let mut w = World::new(Vec3::new(0.0, -G, 0.0), settings);
        let pivot = Vec3::new(0.0, 3.0, 0.0);
        let arm = Vec3::new(l * alpha.sin(), -l * alpha.cos(), 0.0);
        let mut d = BodyDesc::new("bob", Shape::Sphere { radius: 0.05 }, pivot + arm);
        d.angular_velocity = Vec3::Y * omega;
        d.velocity = d.angular_velocity.cross(arm);
        d.mass = Some(m);
        let bob = w.add_body(d).unwrap().index as usize;
        w.add_joint(JointDesc::new("string", JointKind::Ball, WORLD, bob as u32, pivot)).unwrap();
        let lz = |w: &World| {
            let b = &w.bodies()[bob];
            (b.angular_momentum() + m * (b.pose.pos - pivot).cross(b.velocity)).y
        };
        let l0 = lz(&w);
        let (mut turned, mut last) = (0.0f32, arm.z.atan2(arm.x));
        let (mut worst_l, mut worst_h) = (0.0f32, 0.0f32);
        for _ in 0..120 {
            w.step(DT);
            let r = w.bodies()[bob].pose.pos - pivot;
            let a = r.z.atan2(r.x);
            let mut da = last - a;
            da -= TAU * (da / TAU).round();
            turned += da;
            last = a;
            worst_l = worst_l.max((lz(&w) / l0 - 1.0).abs());
            worst_h = worst_h.max((r.y - arm.y).abs());
        }
        let rate = turned / (120.0 * DT);
        let err = (rate / omega - 1.0).abs();
        println!(
            "conical pendulum, {label}: {rate:.4} rad/s against √(g/(L·cos α)) = {omega:.4}: {:.3} % off (bound 1 %); L_y about the pivot within {:.4} % (bound 0.1 %); height within {:.2} mm (bound 1 mm)",
            err * 100.0,
            worst_l * 100.0,
            worst_h * 1e3
        );
        if err > 0.01 || worst_l > 1e-3 || worst_h > 1e-3 {
            failures.push(format!(
                "{label}: rate {:.3} % off, L_y {:.4} % off, height {:.2} mm off",
                err * 100.0,
                worst_l * 100.0,
                worst_h * 1e3
            ));
        }
    }
    check(failures);
}

/// A rod of length L hinged at one end swings as a compound pendulum: for small swings the
/// period is 2π·√(I/(m·g·d)), with I its moment about the hinge and d = L/2 the hinge's
/// distance from its centre; at any swing its energy ½·I·ω² + m·g·d·(1 − cos φ) is
/// constant (φ the rod's angle from the vertical). A step of semi-implicit Euler keeps a
/// nearby energy instead, off by about h·Ω/2 of the swing's (Ω = 2π/period, h the position
/// update: the step in the one-pass methods, a substep in the iterative one); the bound is
/// twice that.
#[test]
fn a_rod_hinged_at_one_end_swings_at_two_pi_root_i_over_m_g_d_and_keeps_its_energy_in_every_method() {
    let mut failures = Vec::new();
    let (len, side, m) = (1.0f32, 0.04f32, 3.0f32);
    // About the hinge (axis z through the top end): the box's own moment plus m·d².
    let d = 0.5 * len;
    let inertia = m * (len * len + side * side) / 12.0 + m * d * d;
    let period = TAU * (inertia / (m * G * d)).sqrt();
    for (label, settings) in methods(no_sleep()) {
        for amplitude in [5f32, 90.0] {
            let mut w = World::new(Vec3::new(0.0, -G, 0.0), settings);
            let pivot = Vec3::new(0.0, 2.0, 0.0);
            let a = amplitude.to_radians();
            let down = Vec3::new(a.sin(), -a.cos(), 0.0);
            let shape = Shape::cuboid(Vec3::new(0.5 * side, 0.5 * len, 0.5 * side)).unwrap();
            let mut desc = BodyDesc::new("rod", shape, pivot + down * d).with_rotation(Quat::from_rotation_z(a));
            desc.mass = Some(m);
            let rod = w.add_body(desc).unwrap().index as usize;
            let hinge = JointKind::Hinge { axis: Vec3::Z, limits: None, motor: None };
            w.add_joint(JointDesc::new("hinge", hinge, WORLD, rod as u32, pivot)).unwrap();
            let energy = |w: &World| {
                let b = &w.bodies()[rod];
                // The rod's axis from its centre to the hinge: cos φ is its height.
                let up = b.pose.rot * Vec3::Y;
                0.5 * inertia * b.angular_velocity.z * b.angular_velocity.z + m * G * d * (1.0 - up.y)
            };
            let h = DT / if settings.mode == SolverMode::Iterative { settings.substeps as f32 } else { 1.0 };
            let bound = h * TAU / period;
            let e0 = energy(&w);
            let (mut xs, mut worst) = (Vec::new(), 0.0f32);
            for _ in 0..(10.0 / DT) as usize {
                w.step(DT);
                xs.push(w.bodies()[rod].pose.pos.x);
                // Relative to the swing's energy above its lowest point, m·g·d·(1 − cos a).
                worst = worst.max((energy(&w) - e0).abs() / e0);
            }
            let c = crossings(&xs, DT);
            let measured = (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32;
            let err = (measured / period - 1.0).abs();
            if amplitude < 10.0 {
                println!(
                    "hinged rod, {label}, {amplitude}°: period {measured:.4} s, 2π√(I/(m·g·d)) = {period:.4} s: {:.3} % off (bound 1 %); energy within {:.3} % of the swing's (bound {:.2} %)",
                    err * 100.0,
                    worst * 100.0,
                    bound * 100.0
                );
                if err > 0.01 {
                    failures.push(format!("{label}: period {measured:.4} s against {period:.4} s"));
                }
            } else {
                println!(
                    "hinged rod, {label}, {amplitude}°: energy within {:.3} % of the swing's over 10 s (bound {:.2} %)",
                    worst * 100.0,
                    bound * 100.0
                );
            }
            if worst > bound {
                failures.push(format!("{label}, {amplitude}°: energy off by {:.3} % of the swing's", worst * 100.0));
            }
        }
    }
    check(failures);
}

/// scenes/gyroscope.ron precesses at the closed form computed from the loaded body's own
/// mass and inertia, and its description states that rate.
#[test]
fn gyroscope_scene_precesses_at_m_g_r_over_i_omega() {
    let mut s = scene::load(&scene::scenes_dir().join("gyroscope.ron")).unwrap();
    assert_eq!(s.world.settings.mode, SolverMode::Iterative);
    assert!(!s.world.settings.sleeping);
    let dt = s.timestep();
    let disc = s.body_index("disc").unwrap();
    let j = s.world.joint_records().into_iter().find(|j| j.a == disc as u32 || j.b == disc as u32).unwrap();
    // The anchor on the other side (the post, or the world).
    let pivot = if j.a == disc as u32 { j.anchor_b } else { j.anchor_a };
    let b = &s.world.bodies()[disc];
    let arm = b.pose.pos - pivot;
    let (r, axle) = (arm.length(), arm.normalize());
    assert!(axle.y.abs() < 1e-6, "the axle is horizontal");
    let rot = Mat3::from_quat(b.pose.rot);
    let inertia = axle.dot(rot * b.inertia_local * rot.transpose() * axle);
    let (m, g, omega) = (b.mass(), s.world.gravity.length(), b.angular_velocity.dot(axle));
    let closed = m * g * r / (inertia * omega);
    let azimuth = |w: &World| {
        let a = (w.bodies()[disc].pose.pos - pivot).normalize();
        let a0 = axle;
        // Angle of the horizontal arm from its start, about +y.
        let (c, s) = (a.x * a0.x + a.z * a0.z, a0.cross(a).y);
        s.atan2(c)
    };
    let (mut phi, mut last) = (0.0f32, azimuth(&s.world));
    let steps = (2.0 / dt).round() as usize;
    for _ in 0..steps {
        s.world.step(dt);
        let a = azimuth(&s.world);
        let mut d = a - last;
        d -= TAU * (d / TAU).round();
        phi += d;
        last = a;
    }
    let rate = phi / (steps as f32 * dt);
    let err = (rate / closed - 1.0).abs();
    println!(
        "gyroscope scene: m = {m} kg, r = {r:.3} m, I = {inertia:.6} kg·m², ω = {omega:.2} rad/s: Ω = m·g·r/(I·ω) = {closed:.4} rad/s (period {:.3} s); measured {rate:.4} rad/s over 2 s, error {:.2} % (bound 2 %)",
        2.0 * PI / closed,
        err * 100.0
    );
    assert!(
        s.desc.description.contains(&format!("{closed:.2}")),
        "the description states Ω = {closed:.2} rad/s: {}",
        s.desc.description
    );
    assert!(
        err <= 0.02,
        "precession {rate:.4} rad/s vs m·g·r/(I·ω) = {closed:.4} rad/s: {:.2} % off (bound 2 %)",
        err * 100.0
    );
}
