//! Sections 1–4 of a worked example: the scene and the two bodies, the narrow-phase path,
//! the separating-axis test with every query, and the clip (or, for curved shapes, the
//! closest points).

use super::doc::Section;
use super::fmt::{num, q4, sep, v3};
use super::Run;
use crate::physics::collide::clip::ClipRecord;
use crate::physics::collide::hull_hull::EDGE_FACE_MIN_COS;
use crate::physics::collide::{CollideConfig, ContactKind, PairPath};
use crate::physics::debug::{sat_record, EdgePairStatus, SatRecord};
use crate::physics::{Body, Shape};
use crate::view::feature;

/// A shape in words.
pub fn shape_words(s: &Shape) -> String {
    match s {
        Shape::Box { half_extents: h, .. } => format!("box, half extents ({}, {}, {}) m", num(h.x), num(h.y), num(h.z)),
        Shape::Hull(h) => format!("convex hull, {} vertices, {} faces", h.vertices().len(), h.faces().len()),
        Shape::Sphere { radius } => format!("sphere, radius {} m", num(*radius)),
        Shape::Capsule { radius, half_height } => {
            format!("capsule, radius {} m, half height {} m", num(*radius), num(*half_height))
        }
        Shape::Mesh(m) => format!("triangle mesh, {} triangles", m.triangles().len()),
        Shape::Compound(c) => format!("compound of {} shapes", c.children().len()),
    }
}

/// The body table's row for a body at the start of the step.
fn body_row(b: &Body) -> Vec<String> {
    let (mass, inertia) = if b.is_dynamic() {
        let i = b.inertia_local;
        (num(b.mass()), format!("diag({}, {}, {})", num(i.x_axis.x), num(i.y_axis.y), num(i.z_axis.z)))
    } else {
        (if b.is_kinematic() { "kinematic" } else { "static" }.into(), "—".into())
    };
    vec![
        b.name.clone(),
        shape_words(&b.shape),
        mass,
        inertia,
        v3(b.pose.pos),
        q4(b.pose.rot),
        v3(b.velocity),
        v3(b.angular_velocity),
    ]
}

/// Section 1: the scene, the method, its settings, the two bodies at the step's start.
pub fn scene_section(run: &Run) -> Section {
    let mut s = Section::new("The scene, the method and the two bodies");
    let set = &run.start.settings;
    s.para(format!(
        "Scene `{}` ({}), step {} of {} s: this document follows the pair {} – {} through that one step.",
        run.scene_name,
        run.origin,
        run.step,
        num(run.dt),
        run.name(run.a),
        run.name(run.b)
    ));
    s.para(format!("Method: {} ({}). Gravity {} m/s².", set.mode.name(), set.mode.summary(), v3(run.start.gravity)));
    let rows = vec![
        vec!["substeps".into(), set.substeps.to_string()],
        vec!["iterations per substep".into(), set.iterations.to_string()],
        vec!["warm starting".into(), set.warm_starting.to_string()],
        vec![
            "contact stiffness (Hz), damping ratio".into(),
            format!("{}, {}", num(set.contact_hertz), num(set.damping_ratio)),
        ],
        vec!["largest push-out speed (m/s)".into(), num(set.max_push_out)],
        vec!["speculative margin, slop (m)".into(), format!("{}, {}", num(set.margin), num(set.slop))],
        vec!["restitution threshold (m/s)".into(), num(set.restitution_threshold)],
        vec!["SIMD batches".into(), set.simd.to_string()],
    ];
    s.table(&["setting", "value"], rows);
    s.para("The two bodies at the start of the step (positions are centres of mass, world axes; the inertia in the body's frame):");
    let bodies = run.start.bodies();
    s.table(
        &[
            "body",
            "shape",
            "mass (kg)",
            "inertia (kg·m²)",
            "position (m)",
            "orientation (x, y, z, w)",
            "velocity (m/s)",
            "angular velocity (rad/s)",
        ],
        vec![body_row(&bodies[run.a]), body_row(&bodies[run.b])],
    );
    s
}

/// Why a path is taken, in one sentence.
pub fn path_words(p: PairPath) -> &'static str {
    match p {
        PairPath::NotCandidate => "the broad phase did not pair the bodies: their boxes swept over the step do not overlap",
        PairPath::PathsMiss => "the boxes overlap, but the bounding spheres' straight paths over the step miss each other by more than the margin",
        PairPath::Asleep => "both bodies are asleep (or one is static): the manifold is kept as it was",
        PairPath::StillApart => "the pair was found apart earlier, and that gap minus how far it can have closed since still exceeds the margin",
        PairPath::SphereSkip => "the bounding spheres are apart by more than the margin: no separating-axis test is needed",
        PairPath::Recycled => "the bodies moved less than the recycling distance since the manifold was computed: its normal, points and lever arms are kept and only the depths are measured again",
        PairPath::CachedAxisSeparates => "last step's separating axis still separates the bodies",
        PairPath::CachedFeature => "last step's face (or edge pair) was tested again and its separation changed by less than half the slop, so no full test ran",
        PairPath::FullSat => "the full separating-axis test ran and chose the axis",
        PairPath::Closed => "curved shapes (a sphere or capsule) take closed-form closest points; there is no separating-axis test",
    }
}

/// Section 2: the narrow-phase path.
pub fn path_section(run: &Run) -> Section {
    let mut s = Section::new("The narrow-phase path");
    let r = &run.record;
    s.para(format!(
        "Path taken this step: `{}`: {}. The pair was tested with a speculative margin of {} m (the base margin plus how far the pair could close in the step).",
        r.path.as_str(),
        path_words(r.path),
        num(r.margin)
    ));
    let m = &r.manifold;
    if m.points.is_empty() {
        s.para("The step's manifold has no points: the solver saw no contact for this pair.");
    } else {
        s.para(format!(
            "The manifold the solver used: {} point(s), normal {} from {} to {} ({}).",
            m.points.len(),
            v3(m.normal),
            run.name(run.a),
            run.name(run.b),
            kind_words(m.kind)
        ));
        let rows = m
            .points
            .iter()
            .enumerate()
            .map(|(k, p)| vec![k.to_string(), v3(p.position), sep(p.depth), feature::label(p.id)])
            .collect();
        s.table(&["point", "position (m)", "depth (m, + = overlap)", "features"], rows);
    }
    s
}

fn kind_words(k: ContactKind) -> &'static str {
    match k {
        ContactKind::FaceA => "the normal is A's surface normal: a face of A, or A's curved surface",
        ContactKind::FaceB => "the normal is B's surface normal",
        ContactKind::Edge => "the normal is the cross product of an edge of A and an edge of B",
    }
}

/// The SAT record at the step's start poses with the margin the step used.
pub fn sat_at_start(run: &Run) -> Option<SatRecord> {
    let bodies = run.start.bodies();
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    let (ha, hb) = (ba.shape.hull()?, bb.shape.hull()?);
    let cfg = CollideConfig {
        margin: run.record.margin.max(run.start.settings.margin),
        slop: run.start.settings.slop,
        motion: None,
    };
    Some(sat_record(ha, &ba.pose, hb, &bb.pose, &cfg))
}

/// Section 3: the separating-axis test (hull pairs), or the closest points (curved shapes).
pub fn sat_section(run: &Run, sat: Option<&SatRecord>) -> Section {
    let Some(sat) = sat else {
        let bodies = run.start.bodies();
        let compound = |i: usize| matches!(bodies[i].shape, Shape::Compound(_));
        if compound(run.a) || compound(run.b) {
            return compound_section(run);
        }
        if bodies[run.a].shape.mesh().is_some() || bodies[run.b].shape.mesh().is_some() {
            return mesh_section(run);
        }
        return curved_section(run);
    };
    let mut s = Section::new("The separating-axis test");
    let ran = matches!(run.record.path, PairPath::FullSat);
    s.para(if ran {
        "The step ran this test. Every query is listed, computed at the poses the step started from (no early exit)."
            .to_string()
    } else {
        format!(
            "The step did not run this test (path `{}`); here it is as it would have run at the poses the step started from, so the choice can still be followed.",
            run.record.path.as_str()
        )
    });
    let bodies = run.start.bodies();
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    let face_rows = |hull: &crate::physics::Hull,
                     pose: &crate::physics::Iso,
                     other: &Body,
                     faces: &[crate::physics::debug::FaceQueryRecord],
                     best: u32| {
        let other_hull = other.shape.hull().expect("hull");
        faces
            .iter()
            .map(|f| {
                let support = other.pose.transform_point(other_hull.vertices()[f.support_vertex as usize]);
                vec![
                    format!("{}{}", f.face, if f.face == best { " (best)" } else { "" }),
                    v3(pose.transform_vector(hull.faces()[f.face as usize].normal)),
                    format!("{} at {}", f.support_vertex, v3(support)),
                    sep(f.separation),
                ]
            })
            .collect::<Vec<_>>()
    };
    let (ha, hb) = (ba.shape.hull().expect("hull"), bb.shape.hull().expect("hull"));
    s.para(format!(
        "Face queries of A ({}): for each face, the vertex of B farthest against its normal (B's support point) and B's separation from the face's plane.",
        run.name(run.a)
    ));
    s.table(
        &["face of A", "normal (world)", "support vertex of B (m)", "separation (m)"],
        face_rows(ha, &ba.pose, bb, &sat.faces_a, sat.result.face_a.face),
    );
    s.para(format!("Face queries of B ({}), the same with the roles swapped:", run.name(run.b)));
    s.table(
        &["face of B", "normal (world)", "support vertex of A (m)", "separation (m)"],
        face_rows(hb, &bb.pose, ba, &sat.faces_b, sat.result.face_b.face),
    );
    let tested: Vec<_> = sat.edge_pairs.iter().filter(|e| e.status != EdgePairStatus::Pruned).collect();
    let pruned = sat.edge_pairs.len() - tested.len();
    s.para(format!(
        "Edge pairs: {} pairs of an edge of A and an edge of B. On the Gauss maps, A's edge is the arc between its two faces' normals a and b, and B's edge (of −B) the arc between c and d. The arcs cross — the pair builds a face of the Minkowski difference and needs a separation — when c·(b×a) and d·(b×a) differ in sign, a·(d×c) and b·(d×c) differ in sign, and c·(b×a) and b·(d×c) agree. {} pairs fail that test and are pruned without computing anything more; {} pass (below; \"parallel\" pairs cross but their edges are nearly parallel, which the face queries cover).",
        sat.edge_pairs.len(),
        pruned,
        tested.len()
    ));
    let rows = tested
        .iter()
        .map(|e| {
            vec![
                e.edge_a.to_string(),
                e.edge_b.to_string(),
                format!("{:+.4}", e.triple[0]),
                format!("{:+.4}", e.triple[1]),
                format!("{:+.4}", e.triple[2]),
                format!("{:+.4}", e.triple[3]),
                e.separation.map_or("parallel".into(), sep),
                e.axis.map_or("—".into(), v3),
            ]
        })
        .collect();
    s.table(
        &["edge of A", "edge of B", "c·(b×a)", "d·(b×a)", "a·(d×c)", "b·(d×c)", "separation (m)", "axis (world)"],
        rows,
    );
    let r = &sat.result;
    let best_edge = if r.edge.separation.is_finite() {
        format!("edge pair {} / {} at {} m", r.edge.edge_a, r.edge.edge_b, sep(r.edge.separation))
    } else {
        "none".into()
    };
    s.table(
        &["best of each kind", "query", "separation (m)"],
        vec![
            vec!["face of A".into(), r.face_a.face.to_string(), sep(r.face_a.separation)],
            vec!["face of B".into(), r.face_b.face.to_string(), sep(r.face_b.separation)],
            vec![
                "edge pair".into(),
                best_edge,
                if r.edge.separation.is_finite() { sep(r.edge.separation) } else { "—".into() },
            ],
        ],
    );
    s.para(format!("The choice: {}.", sat.reason));
    s.para(format!("Chosen axis (world, from A to B): {}.", v3(sat.axis)));
    for (file, caption, fig) in &run.figures.sat {
        s.figure(file.clone(), caption.clone(), fig.clone());
    }
    s
}

/// Section 3 for a body against a triangle mesh: the candidates and the normal groups.
fn mesh_section(run: &Run) -> Section {
    let mut s = Section::new("Contact with a triangle mesh: candidates and normal groups");
    s.para("A triangle mesh has no inside, so there is no separating-axis test. The body's box, grown by the margin, picks the candidate triangles from the mesh's hierarchy; each gives contact candidates in closed form — a body vertex over the triangle, a triangle corner inside the body, a triangle edge crossing it, read against the body face it is least deep behind or, where it passes under an edge of the body, along the two edges' common normal as the separating-axis test reads an edge pair (for spheres and capsules: closest points) — with the triangle's normal where the edge or corner it touches is flat or concave (so a body sliding over a flat floor does not catch on the seams). The candidates are then grouped by normal, deepest first: every candidate within 18° of the deepest one's normal joins its group — but a normal of the mesh's faces and one of the body's faces share a group only within 1°, since a group's rows push only along its normal and leave the body free to slide across it, through the surface of the other kind's points — and the deepest of the rest opens the next. Each group becomes one manifold of at most four points: the deepest, then the largest area, chosen first among the points that touch now or will touch by the end of the step at the bodies' present velocities (so a body rolling over the mesh keeps the point it rolls onto).");
    let (a, b) = (run.a as u32, run.b as u32);
    let groups: Vec<_> =
        run.end.contacts().iter().filter(|c| (c.a, c.b) == (a, b) && !c.manifold.points.is_empty()).collect();
    s.para(format!("This step gave {} normal group(s) for the pair:", groups.len()));
    let mut rows = Vec::new();
    for (g, c) in groups.iter().enumerate() {
        for (k, p) in c.manifold.points.iter().enumerate() {
            rows.push(vec![
                g.to_string(),
                v3(c.manifold.normal),
                k.to_string(),
                v3(p.position),
                sep(p.depth),
                feature::label(p.id),
            ]);
        }
    }
    s.table(&["group", "normal", "point", "position (m)", "depth (m)", "features"], rows);
    s
}

/// Section 3 for a pair with a compound body: its child pairs and their manifolds.
fn compound_section(run: &Run) -> Section {
    use crate::physics::compound::{child, part_children};
    let mut s = Section::new("Contact with a compound: child pair by child pair");
    s.para("A compound body is several convex shapes at their own poses in one body. Its pair is collided child pair by child pair: each child of one body whose box comes within the margin of a child of the other goes through the ordinary narrow phase (the separating-axis test for two hulls, closest points for a curved shape, the triangles for a mesh), at the children's poses in the world. Each child pair that touches gives its own manifold of at most four points, and next step its impulses are carried over to the same child pair.");
    let bodies = run.start.bodies();
    let (sa, sb) = (&bodies[run.a].shape, &bodies[run.b].shape);
    let (a, b) = (run.a as u32, run.b as u32);
    let parts: Vec<_> =
        run.end.contacts().iter().filter(|c| (c.a, c.b) == (a, b) && !c.manifold.points.is_empty()).collect();
    s.para(format!("This step gave {} manifold(s) for the pair:", parts.len()));
    let mut rows = Vec::new();
    for c in &parts {
        let (ia, ib) = part_children(sb, c.manifold.part);
        let name = |shape: &Shape, i: usize| match shape {
            Shape::Compound(_) => format!("{i}: {}", shape_words(child(shape, i).0)),
            other => shape_words(other),
        };
        for (k, p) in c.manifold.points.iter().enumerate() {
            rows.push(vec![
                name(sa, ia),
                name(sb, ib),
                v3(c.manifold.normal),
                k.to_string(),
                v3(p.position),
                sep(p.depth),
            ]);
        }
    }
    s.table(&["child of A", "child of B", "normal", "point", "position (m)", "depth (m)"], rows);
    s
}

/// Section 3 for curved shapes: the closest points, constructed where the pair allows.
fn curved_section(run: &Run) -> Section {
    let mut s = Section::new("Closest points (curved shapes)");
    s.para("A sphere or capsule has no faces to test: the narrow phase finds the closest points of the two shapes in closed form (a sphere is its centre inflated by the radius, a capsule its core segment inflated). The separation is the distance between the core shapes minus the radii; the normal points along the line between the closest points. There is no Gauss map for a curved surface.");
    let bodies = run.start.bodies();
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    let closest_on = |body: &Body, c: glam::Vec3| -> Option<glam::Vec3> {
        match &body.shape {
            Shape::Box { half_extents: h, .. } => {
                let local = body.pose.inv_transform_point(c);
                Some(body.pose.transform_point(local.clamp(-*h, *h)))
            }
            Shape::Sphere { .. } => Some(body.pose.pos),
            _ => None,
        }
    };
    let radius = |body: &Body| match body.shape {
        Shape::Sphere { radius } => radius,
        _ => 0.0,
    };
    let sphere = |body: &Body| matches!(body.shape, Shape::Sphere { .. });
    let construction = if sphere(bb) {
        Some((ba, bb))
    } else if sphere(ba) {
        Some((bb, ba))
    } else {
        None
    };
    if let Some((other, ball)) = construction {
        if let Some(q) = closest_on(other, ball.pose.pos) {
            let d = ball.pose.pos.distance(q);
            let gap = d - radius(ball) - radius(other);
            s.para(format!(
                "Construction: the centre of {} is c = {}; the closest point of {}'s core to it is q = {}{}. |c − q| = {} m; minus the radii ({} m{}) the separation is {} m, along (c − q)/|c − q| = {}.",
                ball.name,
                v3(ball.pose.pos),
                other.name,
                v3(q),
                if matches!(other.shape, Shape::Box { .. }) { " (c in the box's frame, clamped to its half extents)" } else { " (its centre)" },
                num(d),
                num(radius(ball)),
                if radius(other) > 0.0 { format!(" and {}", num(radius(other))) } else { String::new() },
                sep(gap),
                v3((ball.pose.pos - q).normalize_or_zero())
            ));
        }
    }
    let m = &run.record.manifold;
    let rows = m
        .points
        .iter()
        .enumerate()
        .map(|(k, p)| vec![k.to_string(), v3(p.position), sep(-p.depth), feature::label(p.id)])
        .collect();
    s.para(format!("The step's manifold: normal (A to B) {}.", v3(m.normal)));
    s.table(&["point", "contact point (m)", "separation (m)", "features"], rows);
    s
}

/// Section 4: reference and incident faces and each clip plane (face contacts, and edge
/// contacts whose two faces were clipped along the axis).
pub fn clip_section(run: &Run, sat: Option<&SatRecord>) -> Option<Section> {
    let from_step = run.record.clip_step == run.step && !run.record.collide.clip.stages.is_empty();
    let clip = if from_step { Some(&run.record.collide.clip) } else { sat.and_then(|s| s.clip.as_ref()) }?;
    let mut s = Section::new("The clip: reference face, incident face, clip planes");
    s.para(if from_step {
        "This is the clip the step ran."
    } else {
        "The step did not clip this pair (its manifold came another way); this is the clip of the test above, at the poses the step started from."
    });
    let (ref_body, inc_body) = if clip.reference_on_b { (run.b, run.a) } else { (run.a, run.b) };
    match clip.edge_axis {
        Some(axis) => edge_clip_paras(&mut s, run, clip, axis),
        None => face_clip_paras(&mut s, run, clip, ref_body, inc_body),
    }
    // One row per corner, the polygon named on its first.
    let mut rows = Vec::new();
    let mut polygon = |name: String, p: &[glam::Vec3]| {
        if p.is_empty() {
            rows.push(vec![name.clone(), "—".into(), "(empty: clipped away)".into()]);
        }
        for (k, v) in p.iter().enumerate() {
            rows.push(vec![
                if k == 0 { format!("{name} ({} corners)", p.len()) } else { String::new() },
                k.to_string(),
                v3(*v),
            ]);
        }
    };
    polygon("reference face".into(), &clip.reference_polygon);
    polygon("incident face".into(), &clip.incident_polygon);
    for (k, st) in clip.stages.iter().enumerate() {
        polygon(format!("after side plane {}", k + 1), st);
    }
    s.table(&["polygon", "corner", "position (m)"], rows);
    let kept = clip.kept.iter().enumerate().map(|(k, (p, d))| vec![k.to_string(), v3(*p), sep(*d)]).collect();
    s.para(if clip.edge_axis.is_some() {
        "Kept: the corners of the clipped polygon whose gap along n to the reference face's plane is an overlap or within the margin, with their depths:"
    } else {
        "Kept: the corners of the clipped polygon that lie below the reference face (or within the margin above it), with their depths:"
    });
    s.table(&["kept", "point (m)", "depth (m)"], kept);
    let m = &run.record.manifold;
    let reduced = clip
        .reduced
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let id = m.points.iter().find(|q| q.position.distance(*p) < 1e-4).map(|q| feature::label(q.id));
            vec![k.to_string(), v3(*p), id.unwrap_or_else(|| "—".into())]
        })
        .collect();
    s.para("Reduced to at most four (the deepest point, the one farthest from it, then the two that span the largest area): the manifold's points, with the features that made them.");
    s.table(&["point", "position (m)", "features"], reduced);
    for (file, caption, fig) in &run.figures.clip {
        s.figure(file.clone(), caption.clone(), fig.clone());
    }
    Some(s)
}

/// Why a face contact clipped the faces it did: the reference face, and the incident face
/// among those around the other body's deepest vertex.
fn face_clip_paras(s: &mut Section, run: &Run, clip: &ClipRecord, ref_body: usize, inc_body: usize) {
    s.para(format!(
        "The winning axis is a face, so that face is the reference: face {} of {} ({}). The incident face is the face of {} ({}) whose normal is most opposed to the reference normal among the faces that meet at its deepest vertex along that normal: face {}. (On an irregular hull the most opposed face of all need not hold that vertex, and its clip would miss the deepest point; a face that meets there always holds it.) Its polygon is cut by the side planes of the reference face (the planes through the reference face's edges, perpendicular to it), one after another; the points left below the reference face are kept, then reduced to at most four.",
        clip.reference_face,
        if clip.reference_on_b { "B" } else { "A" },
        run.name(ref_body),
        if clip.reference_on_b { "A" } else { "B" },
        run.name(inc_body),
        clip.incident_face
    ));
    // Why that incident face: the deepest vertex, and the normals of the faces meeting there
    // against the reference normal.
    let bodies = run.start.bodies();
    let (rb, ib) = (&bodies[ref_body], &bodies[inc_body]);
    if let (Some(rh), Some(ih)) = (rb.shape.hull(), ib.shape.hull()) {
        let n_ref = rb.pose.transform_vector(rh.faces()[clip.reference_face as usize].normal);
        let deepest = ih.support(ib.pose.inv_transform_vector(-n_ref));
        let mut faces: Vec<(u32, f32)> = ih
            .vertex_faces(deepest)
            .map(|f| (f, n_ref.dot(ib.pose.transform_vector(ih.faces()[f as usize].normal))))
            .collect();
        faces.sort_by(|x, y| x.1.total_cmp(&y.1).then(x.0.cmp(&y.0)));
        let rows = faces
            .iter()
            .map(|(f, d)| vec![format!("{f}{}", if *f == clip.incident_face { " (incident)" } else { "" }), num(*d)])
            .collect();
        s.para(format!(
            "Reference normal n = {}; the deepest vertex of {} along −n is vertex {deepest} at {}; the faces that meet there (smallest n·n_face first):",
            v3(n_ref),
            run.name(inc_body),
            v3(ib.pose.transform_point(ih.vertices()[deepest as usize]))
        ));
        s.table(&["face", "n·n_face"], rows);
    }
}

/// Which faces an edge contact clipped, and why along its axis.
fn edge_clip_paras(s: &mut Section, run: &Run, clip: &ClipRecord, axis: glam::Vec3) {
    let bodies = run.start.bodies();
    let (ba, bb) = (&bodies[run.a], &bodies[run.b]);
    s.para(format!(
        "The winning axis is an edge pair, n = {} (the cross product of the two edges, from A to B). Its contact is not one point: the two faces that meet along n are clipped against each other, seen along n. The reference face is the face of {} (A) beside its edge that faces n most: face {}. The incident face is the face of {} (B) beside its edge that faces −n most: face {}. The incident polygon is cut by the planes through the reference face's edges that contain n (not perpendicular to the face, as in a face contact); every corner left takes the gap along n from the incident face up to the reference face's plane (the plane gap divided by n·n_face). The crossing of the two edges is one of the corners, at the edge pair's depth; where the faces are nearly parallel, the other corners are close to it too and hold the pair up, where one point would let it roll.",
        v3(axis),
        run.name(run.a),
        clip.reference_face,
        run.name(run.b),
        clip.incident_face
    ));
    if let (Some(ha), Some(hb)) = (ba.shape.hull(), bb.shape.hull()) {
        let na = ba.pose.transform_vector(ha.faces()[clip.reference_face as usize].normal);
        let nb = bb.pose.transform_vector(hb.faces()[clip.incident_face as usize].normal);
        s.para(format!(
            "n·n_face = {} for the reference face and {} for the incident face (both at least {}: a face steeper than {:.0}° to n keeps the edge pair's single point instead).",
            num(axis.dot(na)),
            num(-axis.dot(nb)),
            EDGE_FACE_MIN_COS,
            EDGE_FACE_MIN_COS.acos().to_degrees()
        ));
    }
}
