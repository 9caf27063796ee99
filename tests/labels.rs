//! The labels over the 3D view never collide (issue 33): on the crowded cases — the twisted
//! boxes with every teaching label, the V valley's two normal groups, a naive stack with a
//! pair selected — at 1280×720, the placement pass's own rectangles show no two labels
//! overlapping and none covering a contact marker or the fixed text. Labels of hidden points
//! say so; and no shipped scene's moving bodies pass under its title or legends.

use contactlab::app::label_layout::Layout;
use contactlab::app::Testbed;
use contactlab::render::draw::Rect;
use contactlab::scene;
use contactlab::scene::format::Overlay;

fn layouts(t: &mut Testbed, size: (f32, f32)) -> Vec<Layout> {
    let ctx = egui::Context::default();
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size.0, size.1))),
        ..Default::default()
    };
    let mut out = Vec::new();
    // Two frames: the first loads the fonts.
    for _ in 0..2 {
        let mut full = ctx.run_ui(raw.clone(), |ui| {
            out = contactlab::app::labels::paint(ui, t, Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 });
        });
        full.textures_delta.clear();
    }
    out
}

fn case(name: &str, pair: (&str, &str), overlays: &[Overlay], steps: usize) -> Testbed {
    let path = scene::scenes_dir().join(name);
    let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    let (a, b) = (t.session.scene.body_index(pair.0).unwrap(), t.session.scene.body_index(pair.1).unwrap());
    t.select_pair(a, b);
    t.view.look.labels = true;
    for o in overlays {
        t.view.overlays.enable(*o);
    }
    for _ in 0..steps {
        t.step_once();
    }
    // The labels gather the pair's records themselves (a headless picture lays them out
    // before anything is drawn).
    t
}

#[test]
fn crowded_labels_do_not_overlap_or_cover_markers() {
    let all = [Overlay::Contacts, Overlay::Clip, Overlay::Gauss, Overlay::Minkowski, Overlay::Normals];
    let cases = [
        ("twisted_boxes.ron", ("lower", "upper"), 1),
        ("v_valley.ron", ("valley", "frictionless box"), 240),
        ("naive_stack.ron", ("box2", "box3"), 30),
    ];
    for (name, pair, steps) in cases {
        let mut t = case(name, pair, &all, steps);
        let ls = layouts(&mut t, (1280.0, 720.0));
        assert_eq!(ls.len(), 1);
        let l = &ls[0];
        assert!(l.placed.len() >= 3, "{name}: only {} labels placed", l.placed.len());
        for (i, a) in l.placed.iter().enumerate() {
            for b in &l.placed[i + 1..] {
                assert!(!a.rect.intersects(b.rect), "{name}: '{}' overlaps '{}'", a.label.text, b.label.text);
            }
            // An inset keeps out every label but its own.
            for o in l.obstacles.iter().filter(|o| !o.contains_rect(a.label.within)) {
                assert!(
                    !a.rect.intersects(*o),
                    "{name}: '{}' covers a marker, fixed text or an inset at {o:?}",
                    a.label.text
                );
            }
        }
        eprintln!("{name}: {} placed, {} dropped", l.placed.len(), l.dropped.len());
    }
}

/// WCAG relative luminance of an sRGB pixel.
fn luminance(p: &image::Rgba<u8>) -> f32 {
    let c = |v: u8| {
        let v = v as f32 / 255.0;
        if v <= 0.03928 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * c(p.0[0]) + 0.7152 * c(p.0[1]) + 0.0722 * c(p.0[2])
}

/// In the dark theme every anchored label's text stands out from its plate by at least the
/// WCAG AA ratio, 4.5:1, measured on the rendered pixels: the plate's colour (the commonest
/// pixel in the label's rectangle) against the text's (the pixel farthest from it).
#[test]
fn dark_theme_labels_keep_a_contrast_of_four_and_a_half_to_one() {
    let mut t = case("twisted_boxes.ron", ("lower", "upper"), &[Overlay::Contacts, Overlay::Clip, Overlay::Gauss], 1);
    t.view.look.theme = contactlab::view::Theme::Dark;
    let size = (1280u32, 720u32);
    let layout = layouts(&mut t, (size.0 as f32, size.1 as f32)).remove(0);
    assert!(layout.placed.len() >= 10, "{} labels", layout.placed.len());
    let mut off =
        contactlab::app::headless::Offscreen::new(size).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let img = off.render(&mut t, size).unwrap();
    for p in &layout.placed {
        let r = p.rect.shrink(1.0);
        let mut counts = std::collections::HashMap::new();
        let mut pixels = Vec::new();
        for y in r.min.y.ceil() as u32..r.max.y.floor() as u32 {
            for x in r.min.x.ceil() as u32..r.max.x.floor() as u32 {
                let px = *img.get_pixel(x, y);
                *counts.entry(px.0).or_insert(0) += 1;
                pixels.push(px);
            }
        }
        let plate = image::Rgba(*counts.iter().max_by_key(|(_, n)| **n).unwrap().0);
        let lp = luminance(&plate);
        let text = pixels.iter().map(luminance).max_by(|a, b| (a - lp).abs().total_cmp(&(b - lp).abs())).unwrap();
        let (hi, lo) = (text.max(lp), text.min(lp));
        let ratio = (hi + 0.05) / (lo + 0.05);
        assert!(ratio >= 4.5, "'{}': contrast {ratio:.2}:1 (plate {:?})", p.label.text, plate.0);
    }
}

/// A contact point hidden behind a body says so on its label ("· behind"), since the picture
/// draws no dot for it. The small box rests axis-aligned on the base, its four bottom corners
/// the four points; from the scene's camera a bottom corner is in sight exactly when the eye
/// is outside one of the two side faces that meet at it, so only the corner at (−x, −z) is
/// behind the box. The clip overlay draws the manifold's points over the bodies, so with it
/// on no label says so.
#[test]
fn labels_of_points_behind_a_body_say_so() {
    let mut t = case("box_on_box.ron", ("base", "box"), &[Overlay::Contacts], 1);
    assert!(t.view.overlays.has(Overlay::Clip), "the scene shows its clip");
    let behind = |t: &mut Testbed| {
        layouts(t, (1280.0, 720.0))[0].placed.iter().filter(|l| l.label.text.ends_with("· behind")).count()
    };
    assert_eq!(behind(&mut t), 0, "the clip's points are drawn over the box");
    t.view.overlays.clear();
    t.view.overlays.enable(Overlay::Contacts);
    let eye = t.view.camera.eye();
    let points: Vec<glam::Vec3> = t.pair_debug().unwrap().manifold.points.iter().map(|p| p.position).collect();
    assert_eq!(points.len(), 4);
    let b = t.world().bodies()[t.session.scene.body_index("box").unwrap()].pose.pos;
    let layout = layouts(&mut t, (1280.0, 720.0)).remove(0);
    for (k, p) in points.iter().enumerate() {
        let (sx, sz) = ((p.x - b.x).signum(), (p.z - b.z).signum());
        // Outside the side face of normal (sx, 0, 0) or (0, 0, sz) through the corner.
        let seen = sx * (eye.x - p.x) > 0.0 || sz * (eye.z - p.z) > 0.0;
        let label =
            layout.placed.iter().find(|l| l.label.text.starts_with(&format!("{k}: "))).expect("a label per point");
        assert_eq!(!label.label.text.ends_with("· behind"), seen, "point {k} at {p}: '{}'", label.label.text);
        assert_eq!(seen, !(sx < 0.0 && sz < 0.0), "point {k}: the scene's camera sees all but the (−x, −z) corner");
    }
}

/// The screen rectangles of side `side`'s moving bodies in the tile `r` of a `size` view:
/// each body's box (shrunk by 0.7: its corners overstate the body) projected through the
/// tile's camera.
fn body_rects(t: &Testbed, side: usize, r: Rect, size: (f32, f32)) -> Vec<(String, egui::Rect)> {
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    let pd = t.sides.get(side).unwrap().pair_debug_cached(t.selected_pair());
    let cam = t.view.side_view(main, r, t.sides.len(), pd, 1.0, t.view.header).camera;
    let vp = cam.view_proj(r.w / r.h);
    let w = &t.sides.get(side).unwrap().world;
    w.bodies()
        .iter()
        .filter(|b| b.is_dynamic())
        .map(|b| {
            let a = b.shape.aabb(&b.pose);
            let (c, h) = (a.center(), (a.max - a.min) * 0.5 * 0.7);
            let (mut lo, mut hi) = (egui::pos2(f32::MAX, f32::MAX), egui::pos2(f32::MIN, f32::MIN));
            for corner in 0..8 {
                let s = |bit: i32| if corner & bit == 0 { -1.0 } else { 1.0 };
                let p = vp.project_point3(c + h * glam::Vec3::new(s(1), s(2), s(4)));
                let q = egui::pos2(r.x + (p.x * 0.5 + 0.5) * r.w, r.y + (0.5 - p.y * 0.5) * r.h);
                (lo, hi) = (lo.min(q), hi.max(q));
            }
            (b.name.clone(), egui::Rect::from_min_max(lo, hi))
        })
        .collect()
}

/// Every shipped scene, as a 1200 × 675 picture of its own view, as a comparison of two
/// methods side by side, and as a four-way comparison with a pair selected and the contact
/// and clip overlays on (the most text a tile holds: the pair's path and the clip key,
/// wrapped), keeps its moving bodies out from under the title, the stats and the legends
/// over its first two seconds: a picture taken at any step goes on a slide as it is. Each
/// body's screen rectangle is tested against each line of fixed text, as the labels'
/// placement pass has it at that step (the legends depend on what the step holds:
/// contacts, joints).
#[test]
fn moving_bodies_stay_clear_of_the_title_and_legends() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let size = (1200.0, 675.0);
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    let mut under = Vec::new();
    for sides in [1, 2, 4] {
        for path in scene::shipped_scenes() {
            let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path.clone()));
            match sides {
                2 => t.set_sides(&[Naive, Iterative]),
                4 => t.set_sides(&[Naive, Iterative, Cyclone, Averaged]),
                _ => {}
            }
            for k in 0..=120 {
                if sides == 4 && k == 1 {
                    // The first pair in contact (the first step has one in every scene but
                    // the empty ones), with its clip and the contacts' key.
                    if let Some(c) = t.world().contacts().first() {
                        let (a, b) = (c.a as usize, c.b as usize);
                        t.select_pair(a, b);
                    }
                    t.view.overlays.enable(Overlay::Contacts);
                    t.view.overlays.enable(Overlay::Clip);
                }
                if k % 10 == 0 {
                    let layouts = layouts(&mut t, size);
                    // Above a comparison's key, as this step's labels pass laid it out.
                    let tiles = t.view.tiles(main, sides, 1.0);
                    for (side, (layout, r)) in layouts.iter().zip(&tiles).enumerate() {
                        // The obstacles are the fixed text, the contact markers (squares of 13
                        // points or less in a tile) and the insets (which a view of its own
                        // draws over its picture's corners: not text).
                        let pd = t.sides.get(side).unwrap().pair_debug_cached(t.selected_pair()).cloned();
                        let insets = t.view.insets(*r, sides, pd.as_ref(), 1.0).map(|i| {
                            egui::Rect::from_min_size(egui::pos2(i.rect.x, i.rect.y), egui::vec2(i.rect.w, i.rect.h))
                        });
                        let marker = |r: &egui::Rect| (r.width() - r.height()).abs() < 0.01 && r.width() <= 13.01;
                        let text: Vec<&egui::Rect> =
                            layout.obstacles.iter().filter(|r| !marker(r) && !insets.contains(r)).collect();
                        for (name, body) in body_rects(&t, side, *r, size) {
                            if let Some(r) = text.iter().find(|r| r.intersects(body)) {
                                under.push(format!(
                                    "{} ({sides} sides): {name} at step {k} under the text at {r:?}",
                                    path.display()
                                ));
                            }
                        }
                    }
                }
                t.step_once();
            }
        }
    }
    under.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
    assert!(under.is_empty(), "bodies under the text:\n{}", under.join("\n"));
}

/// The Gauss-map and Minkowski insets hold their titles and legends: in a view of its own
/// and two sides at 1200 × 675 and four at 1600 × 900, every line of fixed text that starts
/// in an inset ends in it, and none of the Gauss-map inset's meets its figure (the unit
/// sphere, projected through the inset's camera; four sides put the legend beside it); in a
/// comparison the moving bodies are drawn above the insets, not under them.
#[test]
fn inset_titles_and_legends_fit_their_insets_and_clear_their_figures() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let scenes = [("crossed_edges.ron", ("ridge", "roof")), ("twisted_boxes.ron", ("lower", "upper"))];
    let all = [&[][..], &[Naive, Iterative], &[Naive, Iterative, Cyclone, Averaged]];
    for ((name, pair), modes) in scenes.into_iter().flat_map(|s| all.map(|m| (s, m))) {
        let size = if modes.len() > 2 { (1600.0, 900.0) } else { (1200.0, 675.0) };
        let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
        let mut t = case(name, pair, &[Overlay::Gauss, Overlay::Minkowski], 1);
        if !modes.is_empty() {
            t.set_sides(modes);
            t.step_once();
        }
        let layouts = layouts(&mut t, size);
        let tiles = t.view.tiles(main, t.sides.len(), 1.0);
        for (k, (layout, tile)) in layouts.iter().zip(&tiles).enumerate() {
            let pd = t.sides.get(k).unwrap().pair_debug_cached(t.selected_pair()).cloned();
            let insets = t.view.insets(*tile, tiles.len(), pd.as_ref(), 1.0);
            assert!(insets.iter().all(|i| i.shown), "{} sides: both insets drawn", tiles.len());
            let cam = contactlab::render::views::gauss_camera(&insets[0], t.view.insets.gauss);
            let g = insets[0].rect;
            let vp = cam.view_proj(g.w / g.h);
            let (mut lo, mut hi) = (egui::pos2(f32::MAX, f32::MAX), egui::pos2(f32::MIN, f32::MIN));
            for i in 0..400 {
                // Points spread over the unit sphere (a Fibonacci lattice).
                let z = 1.0 - 2.0 * (i as f32 + 0.5) / 400.0;
                let (r, phi) = ((1.0 - z * z).sqrt(), i as f32 * 2.399_963);
                let q = vp.project_point3(glam::Vec3::new(r * phi.cos(), z, r * phi.sin()));
                let p = egui::pos2(g.x + (q.x * 0.5 + 0.5) * g.w, g.y + (0.5 - q.y * 0.5) * g.h);
                (lo, hi) = (lo.min(p), hi.max(p));
            }
            let sphere = egui::Rect::from_min_max(lo, hi).shrink(1.0);
            for (which, inset) in insets.into_iter().enumerate() {
                let r = egui::Rect::from_min_size(
                    egui::pos2(inset.rect.x, inset.rect.y),
                    egui::vec2(inset.rect.w, inset.rect.h),
                );
                // A comparison's tiles draw their pictures above their insets (side by side
                // they cover most of a tile's width).
                for (name, body) in body_rects(&t, k, *tile, size).into_iter().filter(|_| tiles.len() > 1) {
                    assert!(!body.intersects(r), "{} sides: {name} at {body:?} under the inset at {r:?}", tiles.len());
                }
                // Its text (the inset itself is an obstacle to the view's labels too).
                let texts: Vec<&egui::Rect> = layout
                    .obstacles
                    .iter()
                    .filter(|o| **o != r && r.contains(o.left_top() + egui::vec2(3.0, 3.0)))
                    .collect();
                // A title and a legend of three to five lines (each a swatch and its text).
                assert!(texts.len() >= 7, "{} sides: {} pieces of text in the inset", tiles.len(), texts.len());
                for text in texts {
                    assert!(
                        r.expand(3.0).contains_rect(*text),
                        "{} sides: text at {text:?} runs out of {r:?}",
                        tiles.len()
                    );
                    // The Gauss map's sphere lies in the first inset.
                    assert!(
                        which > 0 || !text.intersects(sphere),
                        "{} sides: text at {text:?} over the sphere at {sphere:?}",
                        tiles.len()
                    );
                }
            }
        }
    }
}

/// A small four-way picture (800 × 450, tiles of 400 × 208 points above the key, which the
/// comparison writes once under its tiles) whose tiles each hold five lines of text (title,
/// wrapped stats, the pair's path and the insets' "no room" line, more than half a tile)
/// draws its picture below them, smaller, not under the last lines (with the text kept to at
/// most half a tile, as before, the bodies ran under it).
#[test]
fn a_small_comparison_draws_its_bodies_below_five_lines_of_text() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let mut t =
        case("crossed_edges.ron", ("ridge", "roof"), &[Overlay::Contacts, Overlay::Gauss, Overlay::Minkowski], 1);
    t.set_sides(&[Naive, Iterative, Cyclone, Averaged]);
    t.step_once();
    let size = (800.0, 450.0);
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    let layouts = layouts(&mut t, size);
    let tiles = t.view.tiles(main, 4, 1.0);
    assert!(t.view.header > 0.5 * tiles[0].h, "five lines: {} of {} points", t.view.header, tiles[0].h);
    for (side, (layout, r)) in layouts.iter().zip(&tiles).enumerate() {
        let marker = |r: &egui::Rect| (r.width() - r.height()).abs() < 0.01 && r.width() <= 13.01;
        let lowest = layout.obstacles.iter().filter(|o| !marker(o)).map(|o| o.max.y).fold(f32::MIN, f32::max);
        for (name, body) in body_rects(&t, side, *r, size) {
            assert!(body.min.y >= lowest, "side {side}: {name} at {body:?} under text ending at {lowest}");
        }
    }
}

/// A clip stage's picture by itself (`--view clip`, a worked example's clip figures) is framed
/// on the two faces, and its caption and keys take the top third of a 576 × 360 figure: the
/// faces are drawn below that text, not under it. The crossed edges at rest (step 90) put
/// the incident face's corners under the clip key when the picture ignored the text.
#[test]
fn a_clip_stage_picture_draws_its_faces_below_its_text() {
    use contactlab::view::Figure;
    let size = (576.0, 360.0);
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    for (name, pair, steps) in [
        ("crossed_edges.ron", ("ridge", "roof"), 90),
        ("box_on_box.ron", ("base", "box"), 1),
        ("twisted_boxes.ron", ("lower", "upper"), 1),
    ] {
        let mut t = case(name, pair, &[Overlay::Contacts, Overlay::Clip], steps);
        t.view.insets.solo = Some(Figure::Clip);
        t.frame_clip(size.0 / size.1);
        let clip = t.pair_debug().and_then(|p| p.clip.clone()).expect("a clip");
        let stages = contactlab::render::views::clip_stage_count(t.pair_debug().unwrap()).unwrap();
        t.selection.clip_stage = Some(stages - 1);
        let layout = layouts(&mut t, size).remove(0);
        let marker = |r: &egui::Rect| (r.width() - r.height()).abs() < 0.01 && r.width() <= 13.01;
        let lowest = layout.obstacles.iter().filter(|o| !marker(o)).map(|o| o.max.y).fold(f32::MIN, f32::max);
        assert!(lowest > 0.25 * size.1, "{name}: the text ends at {lowest}");
        let pd = t.pair_debug().cloned();
        let cam = t.view.side_view(main, main, 1, pd.as_ref(), 1.0, t.view.header).camera;
        let vp = cam.view_proj(size.0 / size.1);
        for p in clip.reference_polygon.iter().chain(&clip.incident_polygon) {
            let q = vp.project_point3(*p);
            let y = (0.5 - q.y * 0.5) * size.1;
            assert!(y > lowest && y < size.1, "{name}: a face's corner at y {y}, the text ends at {lowest}");
        }
    }
}

/// No line of a comparison's fixed text runs out of its tile: the solver graph's legend (its
/// head is wider than half a 1200-point view) breaks its line instead, in two and four
/// sides, on a pile and on a jointed bridge.
#[test]
fn a_comparisons_text_stays_in_its_tile() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let size = (1200.0, 675.0);
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    for name in ["pyramid_20.ron", "rope_bridge.ron"] {
        for modes in [&[Naive, Iterative][..], &[Naive, Iterative, Cyclone, Averaged]] {
            let path = scene::scenes_dir().join(name);
            let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
            t.view.overlays.enable(Overlay::Graph);
            t.set_sides(modes);
            for _ in 0..5 {
                t.step_once();
            }
            let layouts = layouts(&mut t, size);
            for (k, (layout, tile)) in layouts.iter().zip(t.view.tiles(main, modes.len(), 1.0)).enumerate() {
                let right = tile.x + tile.w + 2.0;
                assert!(layout.obstacles.len() >= 4, "{name}: side {k} has its text");
                for o in &layout.obstacles {
                    assert!(
                        o.max.x <= right,
                        "{name}, {} sides: side {k}'s text at {o:?} runs past {right}",
                        modes.len()
                    );
                }
            }
        }
    }
}

/// A comparison's key keeps its band while the comparison, its overlays, the selected pair
/// and the view's size stay: back at the first step of a drop, where no contact exists and
/// the key has no row, the tiles keep the size they had with the contacts' row (a row that
/// came and went with the contacts moved every tile's picture).
#[test]
fn a_comparisons_key_keeps_its_band_while_the_layout_stays() {
    use contactlab::physics::SolverMode::{Iterative, Naive};
    let size = (800.0, 450.0);
    let main = Rect { x: 0.0, y: 0.0, w: size.0, h: size.1 };
    let path = scene::scenes_dir().join("single_box_drop.ron");
    let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    t.set_sides(&[Naive, Iterative]);
    layouts(&mut t, size);
    assert_eq!(t.view.footer, 0.0, "no contact yet: no key");
    for _ in 0..50 {
        t.step_once();
    }
    layouts(&mut t, size);
    let (band, tiles) = (t.view.footer, t.view.tiles(main, 2, 1.0));
    assert!(band > 20.0, "the contacts' key: {band} points");
    t.seek(0);
    assert!(t.world().contacts().iter().all(|c| c.manifold.points.is_empty()));
    layouts(&mut t, size);
    assert_eq!((t.view.footer, t.view.tiles(main, 2, 1.0)), (band, tiles));
    // A new overlay lays the band out afresh.
    t.view.overlays = contactlab::view::Overlays::default();
    layouts(&mut t, size);
    assert_eq!(t.view.footer, 0.0);
}

/// The text over a comparison's tiles keeps its height the same way as the key: with the
/// dropped box and the ground selected, the pair's path line appears once they meet, and
/// back at the first step (no record, no line) the pictures stay where they were.
#[test]
fn a_comparisons_pictures_stay_when_a_line_over_them_goes() {
    use contactlab::physics::SolverMode::{Iterative, Naive};
    let size = (800.0, 450.0);
    let path = scene::scenes_dir().join("single_box_drop.ron");
    let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    t.set_sides(&[Naive, Iterative]);
    let names: Vec<String> = t.world().bodies().iter().map(|b| b.name.clone()).collect();
    let index = |n: &str| names.iter().position(|x| x == n).unwrap();
    t.select_pair(index("ground"), index("box"));
    layouts(&mut t, size);
    let first = t.view.header;
    for _ in 0..50 {
        t.step_once();
    }
    layouts(&mut t, size);
    let met = t.view.header;
    assert!(met > first + 15.0, "the path line: {first} → {met} points");
    t.seek(0);
    layouts(&mut t, size);
    assert_eq!(t.view.header, met);
    // Another selection lays the text out afresh, and so does another scene.
    t.selection = Default::default();
    layouts(&mut t, size);
    assert!(t.view.header < met, "{} points", t.view.header);
    t.select_pair(index("ground"), index("box"));
    t.seek(50);
    layouts(&mut t, size);
    assert_eq!(t.view.header, met);
    t.load(scene::scenes_dir().join("single_box_drop.ron")).unwrap();
    assert_eq!(t.view.key_layout, None);
}
