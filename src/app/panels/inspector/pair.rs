//! The inspector's pair part: what the last step did for the selected pair (its narrow-phase
//! path and margin), the SAT queries at the current poses beside the step's own (with the
//! chosen and the least-penetration rows marked), or the closed form or mesh groups of a
//! pair without SAT, the clip stages, the manifold the solver used with its impulses, the
//! time-of-impact queries, and a fresh SAT when it differs from what the step used. It
//! reads the side the inspector's selector picks.

use crate::app::panels::{kind_name, path_name};
use crate::app::testbed::Testbed;
use crate::physics::collide::{ContactKind, PairPath};
use crate::physics::World;
use crate::view::PairDebug;
use egui::RichText;

/// The pair part for the selected pair on the inspector's side `k`.
pub fn pair(ui: &mut egui::Ui, t: &mut Testbed, k: usize) {
    let stages = t.clip_stages();
    let Some(p) = t.pair_debug_of(k).cloned() else { return };
    let (na, nb) = match t.sides.get(k) {
        Some(side) => (side.world.bodies()[p.a].name.clone(), side.world.bodies()[p.b].name.clone()),
        None => return,
    };
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("A = {na},  B = {nb}")).strong());
        let tip = "Write this step of this pair out as a worked example: every number the step computed for it, \
                   in order, with figures (an HTML page and Markdown with SVG figures, in explain/)";
        if ui.button("Explain this step").on_hover_text(tip).clicked() {
            if let Some(url) = t.explain_step() {
                ui.ctx().open_url(egui::OpenUrl::new_tab(url));
            }
        }
    });
    let Some(side) = t.sides.get(k) else { return };
    let w = &side.world;
    step_record(ui, &p);
    match &p.sat {
        Some(sat) => sat_queries(ui, &p, sat),
        None => curved(ui, w, &p),
    }
    if let Some(n) = stages {
        clip_stages(ui, t, &p, n);
    }
    let Some(side) = t.sides.get(k) else { return };
    manifold(ui, &p);
    super::ccd::pair_toi(ui, side, p.a, p.b);
    fresh(ui, &p, side.world.settings.slop);
}

/// What the step did (the world's record of the watched pair).
fn step_record(ui: &mut egui::Ui, p: &PairDebug) {
    match &p.record {
        Some(r) => {
            ui.label(RichText::new(format!("step {}: {}", r.step, path_name(r.path))).strong());
            ui.label(r.path.explain());
            ui.label(format!("speculative margin {:.4} m (base margin + how far the pair could close)", r.margin));
        }
        None => {
            ui.label("not stepped since the pair was selected: step once to see what the step does");
        }
    }
}

/// The SAT table: each query's best feature and separation, now and in the step.
fn sat_queries(ui: &mut egui::Ui, p: &PairDebug, sat: &crate::physics::debug::SatRecord) {
    let step_sat = p.record.as_ref().and_then(|r| r.collide.sat.filter(|_| r.path == PairPath::FullSat));
    let chosen = sat.winner;
    // The row of least penetration (the largest separation) and the chosen row differ
    // when the face preference picked a face over a slightly better edge or B's face.
    let seps = [sat.result.face_a.separation, sat.result.face_b.separation, sat.result.edge.separation];
    let least = (0..3).max_by(|&i, &j| seps[i].total_cmp(&seps[j])).unwrap_or(0);
    let chosen_row = match chosen {
        Some(ContactKind::FaceA) => Some(0),
        Some(ContactKind::FaceB) => Some(1),
        Some(ContactKind::Edge) => Some(2),
        None => None,
    };
    ui.label("SAT at the current poses (every query)");
    egui::Grid::new("sat").striped(true).show(ui, |ui| {
        ui.label("query");
        ui.label("feature");
        ui.label("separation");
        if step_sat.is_some() {
            ui.label("in the step");
        }
        ui.label("");
        ui.end_row();
        let rows = [
            ("best face of A", format!("face {}", sat.result.face_a.face), step_sat.map(|s| s.face_a.separation)),
            ("best face of B", format!("face {}", sat.result.face_b.face), step_sat.map(|s| s.face_b.separation)),
            (
                "best edge pair",
                if sat.result.edge.separation.is_finite() {
                    format!("edge {} × edge {}", sat.result.edge.edge_a, sat.result.edge.edge_b)
                } else {
                    "none".into()
                },
                step_sat.map(|s| s.edge.separation),
            ),
        ];
        for (k, (name, feature, in_step)) in rows.into_iter().enumerate() {
            ui.label(name);
            ui.label(feature);
            ui.label(if seps[k].is_finite() { format!("{:+.4} m", seps[k]) } else { "—".into() });
            if step_sat.is_some() {
                ui.label(match in_step {
                    Some(s) if s.is_finite() => format!("{s:+.4} m"),
                    _ => "culled".into(),
                });
            }
            let mut marks = Vec::new();
            if chosen_row == Some(k) {
                marks.push("chosen");
            }
            // Marked only when clearly deeper than the chosen row (not a tie).
            let clearly = chosen_row.is_some_and(|c| seps[k] > seps[c] + 1e-5);
            if least == k && chosen_row != Some(k) && clearly {
                marks.push("least penetration");
            }
            ui.label(RichText::new(marks.join(", ")).strong());
            ui.end_row();
        }
    });
    let tested =
        sat.edge_pairs.iter().filter(|e| e.status == crate::physics::debug::EdgePairStatus::MinkowskiFace).count();
    ui.label(format!(
        "{} faces of A, {} of B; {} of {} edge pairs build Minkowski faces ({} pruned by the Gauss map)",
        sat.faces_a.len(),
        sat.faces_b.len(),
        tested,
        sat.edge_pairs.len(),
        sat.edge_pairs.len() - tested
    ));
    let verdict = match sat.winner {
        Some(k) => format!("contact: {}", kind_name(k)),
        None => "separated".to_string(),
    };
    ui.label(RichText::new(verdict).strong());
    ui.label(RichText::new(&sat.reason));
}

/// A pair without SAT: a sphere or capsule pair's closed form, or a mesh pair's normal groups.
fn curved(ui: &mut egui::Ui, w: &World, p: &PairDebug) {
    // No SAT: a sphere or capsule pair takes a closed form; a mesh pair, the triangles
    // under the body (`collide/mesh.rs`).
    let mesh = w.bodies()[p.a].shape.mesh().is_some() || w.bodies()[p.b].shape.mesh().is_some();
    ui.label(format!(
        "{}: {}",
        if mesh {
            "triangle-mesh contact (one manifold per normal group of the triangles under the body; the deepest here)"
        } else {
            "curved-shape contact"
        },
        if p.manifold.points.is_empty() { "apart".into() } else { kind_name(p.manifold.kind).to_string() }
    ));
    // The pair's further normal groups (a body on two faces of the mesh at an angle).
    for (k, c) in w.contact_groups(p.a as u32, p.b as u32).enumerate() {
        let (n, m) = (c.manifold.normal, &c.manifold);
        let sum: f32 = c.impulses[..m.points.len()].iter().map(|i| i.normal).sum();
        ui.label(format!(
            "normal group {}: normal ({:.3}, {:.3}, {:.3}), {} points, deepest {:+.4} m, λn sum {sum:.2}",
            k + 2,
            n.x,
            n.y,
            n.z,
            m.points.len(),
            m.max_depth()
        ));
    }
}

/// The clip stage slider (`n` stages) and which step's clip is shown.
fn clip_stages(ui: &mut egui::Ui, t: &mut Testbed, p: &PairDebug, n: usize) {
    let mut s = t.selection.clip_stage.unwrap_or(n - 1).min(n - 1);
    let label = match s {
        0 => "incident face".to_string(),
        k if k < n - 2 => format!("after side plane {k}"),
        k if k == n - 2 => "kept by depth".to_string(),
        _ => "reduced to ≤ 4".to_string(),
    };
    ui.add(egui::Slider::new(&mut s, 0..=n - 1).text(format!("clip stage: {label}")));
    t.selection.clip_stage = if s == n - 1 { None } else { Some(s) };
    ui.label(if p.clip_step > 0 {
        format!("clip of step {} (the one that built this manifold)", p.clip_step)
    } else {
        "clip recomputed at the current poses".to_string()
    });
}

/// The manifold the solver used: normal, and each point's depth, features and impulses.
fn manifold(ui: &mut egui::Ui, p: &PairDebug) {
    let m = &p.manifold;
    if let Some(r) = &p.record {
        ui.label(
            RichText::new(format!("manifold the solver used in step {} ({})", r.step, path_name(r.path))).strong(),
        );
    }
    ui.label(format!("normal (A->B) = ({:.3}, {:.3}, {:.3})", m.normal.x, m.normal.y, m.normal.z));
    egui::Grid::new("points").striped(true).show(ui, |ui| {
        // The numbers first, the feature names (the widest column) last, so a narrow panel
        // cuts words, not impulses.
        for h in ["#", "depth (m)", "λn", "λt", "features"] {
            ui.label(RichText::new(h).small().strong());
        }
        ui.end_row();
        for (k, pt) in m.points.iter().enumerate() {
            ui.label(k.to_string());
            ui.label(format!("{:+.4}", pt.depth));
            let (ln, lt) = p.impulses.get(k).copied().unwrap_or((0.0, [0.0; 2]));
            ui.label(format!("{ln:.2}"));
            ui.label(format!("{:.2}, {:.2}", lt[0], lt[1]));
            ui.label(crate::view::feature::label(pt.id));
            ui.end_row();
        }
    });
    if let Some(j) = p.rolling {
        ui.label(format!(
            "rolling resistance: angular impulse on B in the last substep ({:.4}, {:.4}, {:.4}) N·m·s, |J| = {:.4}",
            j.x,
            j.y,
            j.z,
            j.length()
        ))
        .on_hover_text("it resists A and B turning relative to each other, up to the coefficient × rolling arm × Σλn");
    }
}

/// A recomputation at the current poses that differs from what the step used: both are
/// shown, with the reason.
fn fresh(ui: &mut egui::Ui, p: &PairDebug, slop: f32) {
    if p.record.is_some() && p.fresh_differs(slop) {
        ui.separator();
        let why = match p.record.as_ref().map(|r| r.path) {
            Some(PairPath::Recycled) => "the step recycled an older manifold; a fresh SAT builds a new one",
            Some(PairPath::CachedFeature) => "the step reused the cached feature; a fresh SAT may choose another",
            Some(PairPath::StillApart | PairPath::SphereSkip | PairPath::CachedAxisSeparates) => {
                "the step skipped the pair; a fresh SAT at the current poses finds contact"
            }
            _ => "the bodies moved during the step; the next step starts from these poses",
        };
        ui.label(RichText::new("fresh SAT at the current poses differs").strong());
        ui.label(why);
        let f = &p.fresh;
        ui.label(format!(
            "{} points, {}, normal ({:.3}, {:.3}, {:.3})",
            f.points.len(),
            if f.points.is_empty() { "apart" } else { kind_name(f.kind) },
            f.normal.x,
            f.normal.y,
            f.normal.z
        ));
        egui::Grid::new("fresh points").striped(true).show(ui, |ui| {
            for h in ["#", "depth (m)", "features"] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for (k, pt) in f.points.iter().enumerate() {
                ui.label(k.to_string());
                ui.label(format!("{:+.4}", pt.depth));
                ui.label(crate::view::feature::label(pt.id));
                ui.end_row();
            }
        });
    }
}
