//! Sections 5–6 of a worked example: the solver for this pair (per method: the iterative
//! method's rows and every pass from the textbook path; the naive impulse; Cyclone's contact
//! matrix, its order and the position moves; the averaged impulses; the rows of joints on
//! either body) and a check a student can do by hand.

use super::doc::Section;
use super::fmt::{imp, num, sep, v3};
use super::Run;
use crate::physics::world::PassKind;
use crate::physics::{Body, SolverMode};
use glam::{Mat3, Vec3};

fn skew(r: Vec3) -> Mat3 {
    Mat3::from_cols(Vec3::new(0.0, r.z, -r.y), Vec3::new(-r.z, 0.0, r.x), Vec3::new(r.y, -r.x, 0.0))
}

/// Velocity change of the contact point per unit impulse, world axes:
/// `K = (1/mA + 1/mB)·1 − [rA]ₓ·IA⁻¹·[rA]ₓ − [rB]ₓ·IB⁻¹·[rB]ₓ` (static bodies add nothing).
pub fn k_matrix(a: &Body, b: &Body, ra: Vec3, rb: Vec3) -> Mat3 {
    let part = |body: &Body, r: Vec3| {
        if body.is_dynamic() {
            Mat3::from_diagonal(Vec3::splat(body.inv_mass)) - skew(r) * body.inv_inertia_world() * skew(r)
        } else {
            Mat3::ZERO
        }
    };
    part(a, ra) + part(b, rb)
}

fn m3(m: Mat3) -> String {
    let r = |i: usize| {
        let row = m.row(i);
        format!("[{} {} {}]", num(row.x), num(row.y), num(row.z))
    };
    format!("{} {} {}", r(0), r(1), r(2))
}

/// The contact's tangents at the end of the step (the basis its friction used).
fn tangents(run: &Run) -> [Vec3; 2] {
    let (a, b) = (run.a.min(run.b) as u32, run.a.max(run.b) as u32);
    run.end.contacts().iter().find(|c| (c.a, c.b) == (a, b)).map_or_else(
        || {
            let n = run.record.manifold.normal;
            let t = n.any_orthonormal_vector();
            [t, n.cross(t)]
        },
        |c| c.tangents,
    )
}

/// Section 5: the solver for this pair.
pub fn solver_section(run: &Run) -> Section {
    let mut s = Section::new("The solver for this pair");
    let mode = run.start.settings.mode;
    let m = &run.record.manifold;
    if m.points.is_empty() {
        s.para("The manifold is empty, so the solver has nothing to do for this pair in this step.");
        return s;
    }
    let bodies = run.start.bodies();
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    let n = m.normal;
    let [t1, t2] = tangents(run);
    s.para(format!(
        "Contact basis: normal n = {} (from A to B), tangents t1 = {}, t2 = {}. Friction μ = {}.",
        v3(n),
        v3(t1),
        v3(t2),
        num(run.start.pair_material(run.a, run.b).0)
    ));
    match mode {
        SolverMode::Iterative => iterative(run, &mut s),
        SolverMode::Naive => {
            s.para("The naive method visits each point once, in detection order, and applies the one impulse along the normal that leaves the point at its target speed: j = (v⁺ − vn)·m_eff with m_eff = 1/(n·K·n); v⁺ is the rebound when the point bounces, else 0. Later points see the velocities the earlier ones changed; nothing is revisited. No friction.");
            one_pass_table(run, &mut s, ba, bb, n, [t1, t2], false);
        }
        SolverMode::Cyclone => {
            moves(run, &mut s);
            s.para("Cyclone (Millington) first moves the bodies out of penetration, deepest point first, then resolves velocities, the point with the largest closing speed first: for the point, the impulse g = M⁻¹·Δv in the contact basis, M = Bᵀ·K·B with B = [n t1 t2] and Δv = (target − vn, −vt1, −vt2) (bounce along n, no sliding); if |g_t| > μ·g_n, friction slides: g_t is cut to μ·g_n and g_n solved again. The velocities of the two bodies' points are measured again after each impulse.");
            one_pass_table(run, &mut s, ba, bb, n, [t1, t2], true);
        }
        SolverMode::Averaged => {
            s.para("Averaged micro-collisions (Homer): every approaching point is resolved on its own from the same pre-collision velocities, j_i = −(1 + e)·vn_i·m_eff,i along n; the velocity changes those impulses would cause are averaged per body and the average is applied, rescaled so the pair's mean normal speed at the points comes out as the rebound.");
            one_pass_table(run, &mut s, ba, bb, n, [t1, t2], false);
        }
    }
    joints(run, &mut s);
    let totals = m
        .points
        .iter()
        .enumerate()
        .map(|(k, _)| {
            let p = run.record.impulses[k];
            vec![k.to_string(), imp(p.normal), imp(p.tangent[0]), imp(p.tangent[1])]
        })
        .collect();
    s.para(
        "The impulses the step applied at each point (summed over the step, as the world records them for this pair):",
    );
    s.table(&["point", "λn (N·s)", "λt1 (N·s)", "λt2 (N·s)"], totals);
    let end = run.end.bodies();
    s.table(
        &["body", "velocity after (m/s)", "angular velocity after (rad/s)"],
        [run.a, run.b]
            .iter()
            .map(|&i| vec![end[i].name.clone(), v3(end[i].velocity), v3(end[i].angular_velocity)])
            .collect(),
    );
    s
}

/// Cyclone's position pass: what it moved each body by in the step.
fn moves(run: &Run, s: &mut Section) {
    let mv = run.end.position_moves();
    let rows: Vec<Vec<String>> = [run.a, run.b]
        .iter()
        .filter(|&&i| i < mv.linear.len())
        .map(|&i| vec![run.name(i).to_string(), v3(mv.linear[i]), v3(mv.angular[i])])
        .collect();
    if !rows.is_empty() {
        s.para("The position pass, deepest point first, moved the bodies by (summed over its moves, applied to the poses the step started from):");
        s.table(&["body", "translation (m)", "rotation vector (rad)"], rows);
    }
}

/// The joints on either body: each row's position error and the impulse it applied, and
/// the rows' effective-mass matrix.
fn joints(run: &Run, s: &mut Section) {
    let (a, b) = (run.a as u32, run.b as u32);
    let records: Vec<_> =
        run.end.joint_records().into_iter().filter(|j| [j.a, j.b].iter().any(|&x| x == a || x == b)).collect();
    if records.is_empty() {
        return;
    }
    s.para(format!(
        "Joints on either body ({}): every method solves them with sequential impulses on Jacobian rows J, the effective mass of the rows being K = J·M⁻¹·Jᵀ. After the step:",
        records.len()
    ));
    for j in &records {
        let body = |x: u32| {
            if x == crate::physics::WORLD {
                "the world".to_string()
            } else {
                run.end.bodies()[x as usize].name.clone()
            }
        };
        s.para(format!(
            "`{}` ({}) between {} and {}: anchors {} and {}; impulse on B over the step {} N·s.",
            j.name,
            j.kind,
            body(j.a),
            body(j.b),
            v3(j.anchor_a),
            v3(j.anchor_b),
            v3(j.linear_impulse)
        ));
        let n = j.rows.len();
        let rows = j
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let mut row = vec![r.name.to_string(), format!("{:+.6}", r.c), imp(r.impulse)];
                row.push((0..n).map(|c| num(j.k[i * n + c])).collect::<Vec<_>>().join(" "));
                row
            })
            .collect();
        s.table(&["row", "position error C", "accumulated impulse (N·s)", "K row (J·M⁻¹·Jᵀ)"], rows);
    }
}

/// The iterative method: the rows after prepare and every pass, from the traced scalar run.
fn iterative(run: &Run, s: &mut Section) {
    let Some(trace) = &run.traced else {
        s.para("(The pass-by-pass trace was not available for this step.)");
        return;
    };
    if run.start.settings.simd {
        s.para("The rows and passes below come from the textbook path — the scalar sequential-impulse solver, run on a copy of the same step (`--scalar`); the SIMD batches the step used solve the same rows in the same order and agree with it up to rounding.");
    }
    let Some(c) = &trace.prepared else {
        s.para("The solver held no constraint for this pair: neither body can move in this step (static, kinematic or asleep).");
        return;
    };
    let set = &run.start.settings;
    let h = run.dt / set.substeps.max(1) as f32;
    // The spring prepare used: contact_hertz capped at a quarter of the substep rate, twice
    // that against a static body (`world/prepare.rs`).
    let bodies = run.start.bodies();
    let static_pair = !bodies[run.a].is_dynamic() || !bodies[run.b].is_dynamic();
    let hertz = set.contact_hertz.min(0.25 / h) * if static_pair { 2.0 } else { 1.0 };
    s.para(format!(
        "Sequential impulses with soft contacts, {} substep(s) of h = {} s, {} biased pass(es) and {} relax pass(es) each. Per point: a normal row and two friction rows; each pass computes the impulse that would zero the row's relative velocity (plus, in biased passes, a push-out velocity from the penetration) and adds it to the accumulated impulse with clamping: λn ≥ 0, and (λt1, λt2) inside the disc of radius μ·λn. Softness of the contact spring ({} Hz{}, damping ratio {}): bias rate {} 1/s, mass scale {}, impulse scale {}.",
        set.substeps,
        num(h),
        set.iterations,
        set.iterations,
        num(hertz),
        if static_pair { ": twice the setting's, capped, against a static or kinematic body" } else { "" },
        num(set.damping_ratio),
        num(c.softness.bias_rate),
        num(c.softness.mass_scale),
        num(c.softness.impulse_scale)
    ));
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    let n: Vec3 = c.normal.into();
    let rows = c.points[..c.count as usize]
        .iter()
        .enumerate()
        .map(|(k, p)| {
            // The normal speed at the step's start, from the bodies (prepare keeps it only
            // for points that may bounce).
            let (ra, rb): (Vec3, Vec3) = (p.ra.into(), p.rb.into());
            let vn =
                ((bb.velocity + bb.angular_velocity.cross(rb)) - (ba.velocity + ba.angular_velocity.cross(ra))).dot(n);
            vec![
                k.to_string(),
                v3(ra),
                v3(rb),
                num(p.normal_mass),
                format!("{}, {}", num(p.tangent_mass[0]), num(p.tangent_mass[1])),
                sep(p.depth),
                num(vn),
                num(p.rebound),
            ]
        })
        .collect();
    s.table(
        &[
            "point",
            "lever arm rA (m)",
            "lever arm rB (m)",
            "normal mass (kg)",
            "tangent masses (kg)",
            "depth at start (m)",
            "vn at start (m/s)",
            "bounce target (m/s)",
        ],
        rows,
    );
    let mu = c.friction;
    let count = c.count as usize;
    let mut head = vec!["substep".to_string(), "pass".to_string()];
    for k in 0..count {
        head.push(format!("point {k}: λn"));
        head.push(format!("point {k}: friction (t1, t2)"));
    }
    let rows: Vec<Vec<String>> = trace
        .passes
        .iter()
        .map(|p| {
            let mut r = vec![
                p.substep.to_string(),
                match p.kind {
                    PassKind::Solve => format!("solve {}", p.iteration),
                    PassKind::Relax => "relax".into(),
                    PassKind::Restitution => "restitution".into(),
                },
            ];
            for k in 0..count {
                r.push(imp(p.normal[k]));
                let t = p.tangent[k];
                let on_cone = p.normal[k] > 0.0 && (t[0].hypot(t[1]) >= mu * p.normal[k] * (1.0 - 1e-4));
                r.push(format!("{}, {}{}", imp(t[0]), imp(t[1]), if on_cone { " (on the cone)" } else { "" }));
            }
            r
        })
        .collect();
    s.para("Every pass, in order: each point's accumulated impulses after it (N·s, per substep: warm starting carries them into the next substep). \"On the cone\" marks a friction impulse clamped to μ·λn — the point slides.");
    let head_ref: Vec<&str> = head.iter().map(|h| h.as_str()).collect();
    s.table(&head_ref, rows);
}

/// The one-pass methods: per point the lever arms, K in the contact basis (with its inverse
/// for Cyclone), the approach speed at the step's start and the impulse the step applied.
fn one_pass_table(run: &Run, s: &mut Section, ba: &Body, bb: &Body, n: Vec3, t: [Vec3; 2], matrix: bool) {
    let m = &run.record.manifold;
    let basis = Mat3::from_cols(n, t[0], t[1]);
    let mut rows = Vec::new();
    let mut order: Vec<(usize, f32)> = Vec::new();
    for (k, p) in m.points.iter().enumerate() {
        let (ra, rb) = (p.position - ba.pose.pos, p.position - bb.pose.pos);
        let kk = basis.transpose() * k_matrix(ba, bb, ra, rb) * basis;
        let vn = (bb.point_velocity(p.position) - ba.point_velocity(p.position)).dot(n);
        order.push((k, vn));
        let mut row = vec![k.to_string(), v3(ra), v3(rb), num(1.0 / kk.x_axis.x), num(vn), sep(p.depth)];
        if matrix {
            row.push(m3(kk));
            row.push(if kk.determinant().abs() > 1e-12 { m3(kk.inverse()) } else { "singular".into() });
        }
        row.push(imp(run.record.impulses[k].normal));
        rows.push(row);
    }
    let mut head = vec!["point", "rA (m)", "rB (m)", "m_eff = 1/(n·K·n) (kg)", "vn at start (m/s)", "depth (m)"];
    if matrix {
        head.push("M = Bᵀ·K·B (rows, 1/kg)");
        head.push("M⁻¹ (rows, kg)");
    }
    head.push("λn applied (N·s)");
    s.table(&head, rows);
    if matrix {
        let mut by_depth: Vec<usize> = (0..m.points.len()).collect();
        by_depth.sort_by(|&i, &j| m.points[j].depth.total_cmp(&m.points[i].depth));
        order.sort_by(|x, y| x.1.total_cmp(&y.1));
        s.para(format!(
            "Worst first: the position pass starts at the deepest point (order by depth at the start: {}); the velocity pass at the fastest closing one (order by vn at the start, before this step's gravity: {}). Each resolution changes the others' depths and speeds, so the order after the first is decided again each time.",
            by_depth.iter().map(|k| k.to_string()).collect::<Vec<_>>().join(", "),
            order.iter().map(|(k, _)| k.to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
}

/// Section 6: a check a student can do with the numbers above.
pub fn check_section(run: &Run) -> Section {
    let mut s = Section::new("A check to do by hand");
    let (start, end) = (run.start.bodies(), run.end.bodies());
    let (a0, b0) = (&start[run.a], &start[run.b]);
    let g = run.start.gravity;
    let m = &run.record.manifold;
    if m.points.is_empty() {
        s.para("The pair did not touch in this step: no impulse to check.");
        return s;
    }
    let main: f32 = m.points.iter().enumerate().map(|(k, _)| run.record.impulses[k].normal).sum();
    // A mesh or compound pair's further manifolds (after the first of the pair's contacts,
    // the main one the record follows), each impulse projected on the main normal.
    let (ia, ib) = (run.a.min(run.b) as u32, run.a.max(run.b) as u32);
    let further: Vec<f32> = run
        .end
        .contacts()
        .iter()
        .filter(|c| (c.a, c.b) == (ia, ib) && !c.manifold.points.is_empty())
        .skip(1)
        .map(|c| {
            let along = c.manifold.normal.dot(m.normal);
            c.impulses[..c.manifold.points.len()].iter().map(|p| p.normal * along).sum::<f32>()
        })
        .collect();
    let sum = main + further.iter().sum::<f32>();
    let over = if further.is_empty() {
        String::new()
    } else {
        format!(" (over the pair's {} manifolds, each projected on n)", further.len() + 1)
    };
    let others = run.end.contacts().iter().filter(|c| {
        let involves = |i: usize| c.a as usize == i || c.b as usize == i;
        (involves(run.a) || involves(run.b)) && !(involves(run.a) && involves(run.b)) && !c.manifold.points.is_empty()
    });
    let alone = others.count() == 0;
    match (a0.is_dynamic(), b0.is_dynamic()) {
        (false, true) | (true, false) => {
            let (body, sign) = if b0.is_dynamic() { (b0, 1.0) } else { (a0, -1.0) };
            let weight = body.mass() * (-g.dot(m.normal * sign)) * run.dt;
            let rest = body.velocity.length() < 0.05 && body.angular_velocity.length() < 0.5;
            s.para(format!(
                "{} rests on a {} body{}: the contact must carry its weight over the step, Σλn = m·|g·n|·dt. Σλn{} = {} N·s; m·|g·n|·dt = {} × {} × {} = {} N·s; ratio {}.{}",
                body.name,
                if a0.is_kinematic() || b0.is_kinematic() { "kinematic" } else { "static" },
                if rest { "" } else { " (it is moving, so expect more or less than its weight)" },
                over,
                imp(sum),
                num(body.mass()),
                num(-g.dot(m.normal * sign)),
                num(run.dt),
                imp(weight),
                num(if weight != 0.0 { sum / weight } else { f32::NAN }),
                if alone { "" } else { " Other contacts on the body share the load, so the ratio need not be 1." }
            ));
        }
        (true, true) => {
            let (a1, b1) = (&end[run.a], &end[run.b]);
            let p0 = a0.velocity * a0.mass() + b0.velocity * b0.mass();
            let p1 = a1.velocity * a1.mass() + b1.velocity * b1.mass();
            let gravity = g * (a0.mass() + b0.mass()) * run.dt;
            // Joints from either body to anything else push the pair from outside (a joint
            // between the two is internal: its impulses cancel).
            let (ia, ib) = (run.a as u32, run.b as u32);
            let mut joints = Vec3::ZERO;
            let mut jointed = 0;
            for j in run.end.joint_records() {
                let (on_a, on_b) = ([ia, ib].contains(&j.a), [ia, ib].contains(&j.b));
                if on_a != on_b {
                    joints += if on_b { j.linear_impulse } else { -j.linear_impulse };
                    jointed += 1;
                }
            }
            let ke = |b: &Body| 0.5 * b.mass() * b.velocity.length_squared();
            let outside = if jointed > 0 {
                format!(" plus the impulses of the {jointed} joint(s) that hold them, {} (section above)", v3(joints))
            } else {
                String::new()
            };
            s.para(format!(
                "Momentum: the contact impulses act on the two bodies equally and oppositely, so the pair's total momentum changes only by gravity's (mA + mB)·g·dt = {}{}{}. p_before = {} kg·m/s, p_after = {} kg·m/s: the difference is {}, against {} expected.",
                v3(gravity),
                outside,
                if alone { "" } else { ", and by what other contacts on them do" },
                v3(p0),
                v3(p1),
                v3(p1 - p0),
                v3(gravity + joints)
            ));
            s.para(format!(
                "Translational kinetic energy: before {} J, after {} J.",
                num(ke(a0) + ke(b0)),
                num(ke(a1) + ke(b1))
            ));
        }
        (false, false) => s.para("Both bodies are static: nothing moves."),
    }
    s
}
