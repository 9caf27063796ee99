//! Vector screenshots (`--screenshot OUT.svg`): the document parses as XML, holds one polygon
//! per face the eye sees and the labels as text, and — rasterised by resvg — matches the
//! GPU's PNG of the same view (lavapipe in CI) away from the text, which resvg is built
//! without.

use contactlab::app::headless::Offscreen;
use contactlab::app::vector;
use contactlab::app::Testbed;
use contactlab::render::svg::srgb;
use contactlab::scene;
use contactlab::scene::format::Overlay;
use contactlab::view::Overlays;
use glam::Vec3;

const SIZE: (u32, u32) = (800, 450);

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
}

fn from_text(ron: &str) -> Testbed {
    Testbed::new(scene::load_str(ron, "test").unwrap(), None)
}

/// The elements named `tag` inside the group of class `class` (every such group).
fn count_in(doc: &roxmltree::Document, class: &str, tag: &str) -> usize {
    doc.descendants()
        .filter(|n| n.has_tag_name("g") && n.attribute("class") == Some(class))
        .map(|g| g.descendants().filter(|n| n.has_tag_name(tag)).count())
        .sum()
}

fn texts(doc: &roxmltree::Document) -> Vec<String> {
    doc.descendants().filter(|n| n.has_tag_name("text")).map(|n| n.text().unwrap_or("").to_string()).collect()
}

/// The texts of `t`'s vector picture.
fn svg_texts(t: &mut Testbed) -> Vec<String> {
    let doc_text = vector::svg(t, SIZE);
    let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
    texts(&doc)
}

/// Three boxes in the air, apart and turned: the faces the eye sees, counted from the
/// bodies' own hulls, are the polygons of the picture.
#[test]
fn every_face_the_eye_sees_is_one_polygon_and_the_title_is_text() {
    let mut t = from_text(
        r#"Scene(
            name: "Three boxes",
            camera: (eye: (4.0, 3.0, 6.0), target: (0.0, 1.0, 0.0)),
            gravity: (0.0, 0.0, 0.0),
            bodies: [
                (name: "a", shape: Box(half_extents: (0.5, 0.3, 0.4)), position: (-1.5, 1.0, 0.0), rotation: EulerDeg(20.0, 15.0, 8.0)),
                (name: "b", shape: Box(half_extents: (0.4, 0.4, 0.4)), position: (0.0, 1.2, 0.0), rotation: EulerDeg(0.0, 40.0, 25.0)),
                (name: "c", shape: Hull(points: [(0.0, 0.5, 0.0), (0.5, -0.3, 0.0), (-0.4, -0.3, 0.3), (-0.1, -0.3, -0.5)]), position: (1.5, 1.0, 0.5)),
            ],
        )"#,
    );
    t.view.overlays = Overlays::default();
    let eye = t.view.camera.eye();
    let mut expected = 0;
    for b in t.world().bodies() {
        let h = b.shape.hull().expect("hulls");
        for f in 0..h.faces().len() {
            let n = b.pose.rot * h.faces()[f].normal;
            let centre = h.face_vertices(f).map(|v| b.pose.transform_point(h.vertices()[v as usize])).sum::<Vec3>()
                / h.face_vertices(f).count() as f32;
            if n.dot(eye - centre) > 1e-3 {
                expected += 1;
            }
        }
    }
    let svg = vector::svg(&mut t, SIZE);
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(doc.root_element().attribute("width"), Some("800"));
    assert_eq!(count_in(&doc, "solids", "polygon"), expected, "one polygon per face turned to the eye");
    assert!(expected >= 6, "each body shows at least two faces: {expected}");
    let texts = texts(&doc);
    assert!(texts.iter().any(|s| s.contains("Three boxes") && s.contains("step 0")), "the title: {texts:?}");
}

/// The labels of a contact are text: one impulse label per contact point of the pair.
#[test]
fn a_contacts_impulse_labels_are_text_one_per_point() {
    let mut t = testbed("box_on_box.ron");
    t.view.look.labels = true;
    t.view.look.layers = contactlab::view::LabelLayers::of(&[contactlab::view::LabelLayer::Impulses]);
    for _ in 0..3 {
        t.step_once();
    }
    let points: usize = t.world().contacts().iter().map(|c| c.manifold.points.len()).sum();
    assert_eq!(points, 4, "the box rests on four points");
    let doc_text = vector::svg(&mut t, SIZE);
    let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
    let impulses = texts(&doc).iter().filter(|s| s.contains("N·s")).count();
    assert_eq!(impulses, points, "{:?}", texts(&doc));
}

/// The pixels resvg draws from the SVG and the GPU's PNG of the same view, compared away
/// from the text (each `<text>`'s box, from its baseline, size and length, masked out):
/// (share of pixels differing by more than 48 in some channel, mean difference).
fn compare(t: &mut Testbed) -> (f64, f64) {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let png = off.render(t, SIZE).expect("render");
    let svg = vector::svg(t, SIZE);
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let masks: Vec<[f32; 4]> = doc
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| {
            let f = |a: &str| n.attribute(a).and_then(|v| v.parse::<f32>().ok()).unwrap_or(0.0);
            let (x, y, size, len) = (f("x"), f("y"), f("font-size"), f("textLength"));
            [x - 3.0, y - size * 1.1, x + len + 3.0, y + size * 0.45]
        })
        .collect();
    let tree = resvg::usvg::Tree::from_str(&svg, &resvg::usvg::Options::default()).expect("usvg parses it");
    let mut pix = resvg::tiny_skia::Pixmap::new(SIZE.0, SIZE.1).unwrap();
    resvg::render(&tree, resvg::tiny_skia::Transform::identity(), &mut pix.as_mut());
    if std::env::var_os("SVG_DEBUG").is_some() {
        png.save("/tmp/dbg_png.png").unwrap();
        pix.save_png("/tmp/dbg_svg.png").unwrap();
    }
    let (mut differ, mut sum, mut n) = (0usize, 0f64, 0usize);
    for (x, y, p) in png.enumerate_pixels() {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        if masks.iter().any(|m| fx >= m[0] && fx <= m[2] && fy >= m[1] && fy <= m[3]) {
            continue;
        }
        let q = pix.pixel(x, y).unwrap().demultiply();
        let d = [(p.0[0], q.red()), (p.0[1], q.green()), (p.0[2], q.blue())].map(|(a, b)| (a as i32 - b as i32).abs());
        let worst = *d.iter().max().unwrap();
        differ += (worst > 48) as usize;
        sum += (d[0] + d[1] + d[2]) as f64 / 3.0;
        n += 1;
    }
    (differ as f64 / n as f64, sum / n as f64)
}

#[test]
fn the_svg_rasterised_matches_the_png_of_the_same_view() {
    // Crossed edges with the Gauss-map and Minkowski insets: hull faces, a body sunk into
    // the ground (faces cut at their crossing), a sphere of facets, overlay lines and points.
    let mut t = testbed("crossed_edges.ron");
    for o in [Overlay::Contacts, Overlay::Normals, Overlay::Gauss, Overlay::Minkowski] {
        t.view.overlays.enable(o);
    }
    t.step_once();
    let (differ, mean) = compare(&mut t);
    eprintln!("crossed edges: {:.3} % of pixels differ by > 48, mean difference {mean:.2}", differ * 100.0);
    // Measured on lavapipe: 0.17 %, mean 1.1 (anti-aliasing along edges). A face drawn in
    // the wrong order or an edge not hidden costs far more.
    assert!(differ < 0.005 && mean < 2.5, "{:.3} % differ, mean {mean:.2}", differ * 100.0);

    // A pile of boxes with its contact dots (depth-tested points, outlines hidden behind faces).
    let mut t = testbed("pyramid_20.ron");
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Contacts);
    for _ in 0..30 {
        t.step_once();
    }
    let (differ, mean) = compare(&mut t);
    eprintln!("pyramid: {:.3} % of pixels differ by > 48, mean difference {mean:.2}", differ * 100.0);
    // Measured: 0.81 %, mean 1.2 — the rims of 800 small dots, anti-aliased differently.
    assert!(differ < 0.015 && mean < 2.5, "{:.3} % differ, mean {mean:.2}", differ * 100.0);

    // All four methods tiled 2 × 2, each tile's picture below its text and its dots
    // smaller: the SVG lays its labels out first, as the PNG does.
    let mut t = testbed("naive_stack.ron");
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Contacts);
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    t.set_sides(&[Naive, Iterative, Cyclone, Averaged]);
    for _ in 0..60 {
        t.step_once();
    }
    let (differ, mean) = compare(&mut t);
    eprintln!("four-way stack: {:.3} % of pixels differ by > 48, mean difference {mean:.2}", differ * 100.0);
    assert!(differ < 0.015 && mean < 2.5, "{:.3} % differ, mean {mean:.2}", differ * 100.0);
}

/// A picture of joints drawn in detail carries their key (what the anchor dots, the axis
/// arrows, the limit arcs and the force arrows are), as text beside its swatches; a chain of
/// many joints, drawn as anchors only, has none until one of its joints is selected.
#[test]
fn jointed_pictures_carry_the_joints_key() {
    let run = |name: &str, steps: usize| {
        let mut t = testbed(name);
        for _ in 0..steps {
            t.step_once();
        }
        t
    };
    // The door: one motorised hinge with limits, drawn in detail.
    let door = svg_texts(&mut run("door.ron", 60));
    assert!(door.iter().any(|s| s == "joints:"), "{door:?}");
    for item in ["anchor on body A", "anchor on body B", "axis", "limits", "joint force (N)"] {
        assert!(door.iter().any(|s| s == item), "{item}: {door:?}");
    }
    assert!(!door.iter().any(|s| s == "stretched or broken"), "{door:?}");
    // The cradle: five hinges without limits.
    let cradle = svg_texts(&mut run("newtons_cradle.ron", 45));
    assert!(cradle.iter().any(|s| s == "axis") && !cradle.iter().any(|s| s == "limits"), "{cradle:?}");
    // The slider-crank's piston travels along its slider's axis: that is its motion, not a
    // stretched joint (its anchors are apart along the axis, and only along it).
    let crank = svg_texts(&mut run("slider_crank.ron", 60));
    assert!(crank.iter().any(|s| s == "axis"), "{crank:?}");
    assert!(!crank.iter().any(|s| s == "stretched or broken"), "{crank:?}");
    assert!(crank.iter().any(|s| s == "rope, rod or travel"), "the piston's travel: {crank:?}");
    // A soft joint's give is not a stretch: the rope bridge's planks hang 2–3 mm apart at
    // each joint under the box (measured: every joint over 1 mm, none over 4 mm, at step
    // 120); the ragdoll landing pulls a joint 24 mm apart (step 60), which is.
    let hanging = run("rope_bridge.ron", 120);
    let gaps =
        |t: &Testbed| t.world().joint_records().iter().map(|r| (r.anchor_b - r.anchor_a).length()).collect::<Vec<_>>();
    assert!(gaps(&hanging).iter().all(|g| *g < 5e-3), "{:?}", gaps(&hanging));
    let mut hanging = hanging;
    assert!(!svg_texts(&mut hanging).iter().any(|s| s == "stretched or broken"));
    let mut landing = run("ragdoll.ron", 60);
    assert!(gaps(&landing).iter().any(|g| *g > 5e-3), "{:?}", gaps(&landing));
    let landed = svg_texts(&mut landing);
    assert!(landed.iter().any(|s| s == "stretched or broken"), "{landed:?}");
    assert!(!landed.iter().any(|s| s == "rope, rod or travel"), "no slider, wheel, rope or rod: {landed:?}");
    // Fifty links: anchors and arms only (no axis or force drawn), and the key says so; a
    // selected link is drawn in detail, and the key gains its force.
    let mut chain = run("chain_50.ron", 60);
    let plain = svg_texts(&mut chain);
    for item in ["joints:", "anchor on body A", "anchor on body B", "body centre to anchor"] {
        assert!(plain.iter().any(|s| s == item), "{item}: {plain:?}");
    }
    assert!(!plain.iter().any(|s| s == "axis" || s == "joint force (N)" || s == "stretched or broken"), "{plain:?}");
    let link = chain.world().joint_handles().nth(10).map(|(h, _)| h);
    chain.selection.joint = link;
    let selected = svg_texts(&mut chain);
    assert!(selected.iter().any(|s| s == "joints:") && selected.iter().any(|s| s == "joint force (N)"), "{selected:?}");
}

/// The contact, impulse, box and axis overlays carry their key under the title, listing
/// only the colours the picture shows: the dominoes' dots (touching and speculative
/// points), a resting box's normals and impulses (no friction arrow: its contact has no
/// friction), the boxes, and the axes of the moving bodies; none with no overlay, and no
/// depth key where the solver graph colours the dots instead.
#[test]
fn overlay_pictures_carry_their_key() {
    let has = |texts: &[String], s: &str| texts.iter().any(|x| x == s);
    let mut dominoes = testbed("dominoes.ron");
    for _ in 0..120 {
        dominoes.step_once();
    }
    let points = || dominoes.world().contacts().iter().flat_map(|c| c.manifold.points.clone()).collect::<Vec<_>>();
    let (touching, apart) = (points().iter().any(|p| p.depth >= 0.0), points().iter().any(|p| p.depth < 0.0));
    assert!(touching && apart, "the falling row has both kinds of point");
    dominoes.view.overlays = Overlays::default();
    dominoes.view.overlays.set(Overlay::Contacts, true);
    let key = svg_texts(&mut dominoes);
    for item in ["contacts:", "touching", "2 cm deep or more", "apart, within the margin (speculative)"] {
        assert!(has(&key, item), "{item}: {key:?}");
    }
    assert!(!has(&key, "impulses:") && !has(&key, "boxes:") && !has(&key, "body axes:"), "{key:?}");
    dominoes.view.overlays.set(Overlay::Graph, true);
    let graph = svg_texts(&mut dominoes);
    assert!(!has(&graph, "touching"), "the graph's colours replace the depth's: {graph:?}");
    dominoes.view.overlays = Overlays::default();
    let none = svg_texts(&mut dominoes);
    assert!(!has(&none, "contacts:"), "{none:?}");

    let mut resting = from_text(
        r#"Scene(
            name: "Resting",
            camera: (eye: (3.0, 2.0, 4.0), target: (0.0, 0.5, 0.0)),
            bodies: [
                (name: "ground", shape: Box(half_extents: (5.0, 0.5, 5.0)), kind: Static, position: (0.0, -0.5, 0.0), friction: 0.0),
                (name: "box", shape: Box(half_extents: (0.5, 0.5, 0.5)), position: (0.0, 0.55, 0.0), friction: 0.0),
            ],
        )"#,
    );
    for _ in 0..60 {
        resting.step_once();
    }
    let friction: f32 = resting
        .world()
        .contacts()
        .iter()
        .flat_map(|c| c.impulses.iter().map(|i| i.tangent[0].abs() + i.tangent[1].abs()))
        .sum();
    let normal: f32 = resting.world().contacts().iter().flat_map(|c| c.impulses.iter().map(|i| i.normal)).sum();
    assert!(normal > 0.0 && friction < 1e-4 * normal, "normal {normal}, friction {friction}");
    resting.view.overlays = Overlays::default();
    for o in [Overlay::Normals, Overlay::Impulses, Overlay::Aabbs, Overlay::EnlargedAabbs] {
        resting.view.overlays.set(o, true);
    }
    let key = svg_texts(&mut resting);
    for item in ["contacts:", "normal", "impulses:", "boxes:", "bounding box"] {
        assert!(has(&key, item), "{item}: {key:?}");
    }
    assert!(key.iter().any(|s| s.starts_with("normal   (an arrow 1 m long")), "{key:?}");
    assert!(!key.iter().any(|s| s.starts_with("friction")), "no friction arrow is drawn: {key:?}");
    assert!(has(&key, "enlarged box (the broad phase keeps its pairs)"), "{key:?}");
    // An upright box's sphere is looser than its box: the broad phase keeps no spheres.
    assert!(!key.iter().any(|s| s.contains("enlarged sphere")), "{key:?}");
    assert!(!has(&key, "touching"), "no contact dots: {key:?}");
}

/// Where the broad phase keeps its pairs on enlarged spheres too (random hulls, whose
/// spheres are tighter than their boxes), the enlarged-boxes overlay draws them, and the key
/// names them.
#[test]
fn the_enlarged_spheres_of_a_hull_pile_are_drawn_and_named() {
    let mut t = testbed("hull_pile.ron");
    for _ in 0..5 {
        t.step_once();
    }
    assert!(!t.world().enlarged_spheres().is_empty());
    t.view.overlays = Overlays::default();
    t.view.overlays.set(Overlay::EnlargedAabbs, true);
    let key = svg_texts(&mut t);
    assert!(key.iter().any(|s| s == "enlarged sphere, as 3 rings (kept pairs overlap in these too)"), "{key:?}");
}

/// The axes overlay draws the axes of the moving bodies, and a static body's only when it
/// is selected (a ground's would cross the whole picture): the gyroscope's disc has three,
/// its ground and post none, until the ground is selected. Counted as the picture's lines
/// in the x axis's colour, and the key names the three axes.
#[test]
fn axes_are_drawn_on_moving_or_selected_bodies() {
    let mut t = testbed("gyroscope.ron");
    t.view.overlays = Overlays::default();
    t.view.overlays.set(Overlay::Axes, true);
    let [r, g, b] = srgb(contactlab::view::colors::BODY_X);
    let x = format!("#{r:02x}{g:02x}{b:02x}");
    let x_axes = |t: &mut Testbed| {
        let doc_text = vector::svg(t, SIZE);
        let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
        let lines =
            doc.descendants().filter(|n| n.has_tag_name("line") && n.attribute("stroke") == Some(x.as_str())).count();
        (lines, texts(&doc))
    };
    let dynamic = t.world().bodies().iter().filter(|b| b.is_dynamic()).count();
    assert_eq!(dynamic, 1);
    let (lines, key) = x_axes(&mut t);
    assert_eq!(lines, dynamic, "one x axis, the disc's");
    for item in ["body axes:", "x", "y", "z"] {
        assert!(key.iter().any(|s| s == item), "{item}: {key:?}");
    }
    let ground = t.world().bodies().iter().position(|b| b.name == "ground").unwrap();
    t.selection.bodies = vec![ground];
    assert_eq!(x_axes(&mut t).0, dynamic + 1, "the selected ground's axes too");
}

/// The ground grid lies on the floor, the static body with the largest footprint, and is
/// cut to it: on a raised ground's top and not past its edges (the spinning stick's 8 m
/// ground), on the room's floor under a table (billiards, floor top at −1 m), nowhere in
/// zero gravity without a floor (Dzhanibekov) or over terrain (heightfield) — but on a box
/// floor that mesh walls stand on (corridor) — and on y = 0,
/// ±20 m, with gravity and no static body.
#[test]
fn the_ground_grid_lies_on_the_floor_and_is_cut_to_it() {
    use contactlab::render::views::grid_floor;
    let floor = |name: &str| grid_floor(testbed(name).world());
    let (y, lo, hi) = floor("spinning_stick.ron").expect("a grid");
    assert!((y - 0.002).abs() < 1e-6 && lo == glam::Vec2::splat(-4.0) && hi == glam::Vec2::splat(4.0), "{y} {lo} {hi}");
    let (y, lo, hi) = floor("billiards.ron").expect("a grid");
    assert!(
        (y + 0.998).abs() < 1e-6 && lo == glam::Vec2::new(-8.0, -6.0) && hi == glam::Vec2::new(8.0, 6.0),
        "{y} {lo} {hi}"
    );
    assert_eq!(floor("dzhanibekov.ron"), None);
    assert_eq!(floor("heightfield.ron"), None);
    // Mesh walls and stairs standing on a box floor keep the grid on the floor.
    let (y, lo, hi) = floor("corridor.ron").expect("a grid");
    assert!(
        (y - 0.002).abs() < 1e-6 && lo == glam::Vec2::new(-10.0, -8.0) && hi == glam::Vec2::new(10.0, 8.0),
        "{y} {lo} {hi}"
    );
    assert!(floor("stairs_and_ramps.ron").is_some());
    let falling = from_text(
        r#"Scene(name: "Falling", bodies: [(name: "a", shape: Sphere(radius: 0.5), position: (0.0, 2.0, 0.0))])"#,
    );
    let (y, lo, hi) = grid_floor(falling.world()).expect("a grid");
    assert!(
        (y - 0.002).abs() < 1e-6 && lo == glam::Vec2::splat(-20.0) && hi == glam::Vec2::splat(20.0),
        "{y} {lo} {hi}"
    );
    // In the picture: no line of the grid's colours in zero gravity.
    let mut t = testbed("dzhanibekov.ron");
    let (minor, major) = t.view.look.grid().expect("an opaque background");
    let doc_text = vector::svg(&mut t, SIZE);
    let hexes = [minor, major].map(|c| {
        let [r, g, b] = srgb(c);
        format!("#{r:02x}{g:02x}{b:02x}")
    });
    let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
    let grid = doc
        .descendants()
        .filter(|n| n.has_tag_name("line") && hexes.iter().any(|h| n.attribute("stroke") == Some(h)))
        .count();
    assert_eq!(grid, 0);
}

/// A comparison's tile too small for the Gauss-map and Minkowski insets says so instead of
/// drawing them with their titles and legends run out of them: at 800 × 450 a 2 × 2 tile is
/// 400 points wide, and two insets of 200 points and their margins do not fit; at 1200 × 675
/// they fit across but would cover the picture (a tile's picture keeps `PICTURE_SHARE` of
/// it below the text); at 1600 × 900 they fit.
#[test]
fn a_tile_too_small_for_the_insets_says_so() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let mut t = testbed("crossed_edges.ron");
    t.view.overlays.enable(Overlay::Gauss);
    t.view.overlays.enable(Overlay::Minkowski);
    t.set_sides(&[Naive, Iterative, Cyclone, Averaged]);
    t.step_once();
    let small = svg_texts(&mut t);
    let note = |texts: &[String]| {
        texts.iter().filter(|s| s.starts_with("Gauss map and Minkowski difference: no room")).count()
    };
    assert_eq!(note(&small), 4, "one note a tile: {small:?}");
    assert!(!small.iter().any(|s| s == "Gauss maps" || s == "Minkowski difference A − B"), "{small:?}");
    let doc = vector::svg(&mut t, (1200, 675));
    let middle = texts(&roxmltree::Document::parse(&doc).unwrap());
    assert_eq!(note(&middle), 4, "one note a tile: {middle:?}");
    let doc = vector::svg(&mut t, (1600, 900));
    let large = texts(&roxmltree::Document::parse(&doc).unwrap());
    assert_eq!(note(&large), 0);
    assert_eq!(large.iter().filter(|s| *s == "Gauss maps").count(), 4, "{large:?}");
}

/// A body on a mesh along two normals (the V valley's box in its crease) has one manifold per
/// normal group, and the second group's points are labelled "g2·0", "g2·1": the picture's
/// text says what those names mean, once, only when they are drawn.
#[test]
fn a_second_normal_groups_labels_are_explained() {
    let mut t = testbed("v_valley.ron");
    let (a, b) =
        (t.session.scene.body_index("valley").unwrap(), t.session.scene.body_index("frictionless box").unwrap());
    t.select_pair(a, b);
    for _ in 0..90 {
        t.step_once();
    }
    let groups = t.world().contact_groups(a as u32, b as u32).count();
    assert_eq!(groups, 1, "the box touches both slopes: one further group");
    let texts = svg_texts(&mut t);
    let labelled = texts.iter().filter(|s| s.starts_with("g2·")).count();
    assert!(labelled >= 1, "{texts:?}");
    let key =
        texts.iter().filter(|s| s.starts_with("2 normal groups") && s.contains("g2·0, g2·1, … of group 2")).count();
    assert_eq!(key, 1, "{texts:?}");
    // A pair of two bodies off the mesh has no such line.
    let c = t.session.scene.body_index("ball").unwrap();
    t.select_pair(b, c);
    assert!(svg_texts(&mut t).iter().all(|s| !s.contains("normal groups")));
}

/// A comparison writes the overlays' key once, under its tiles, for every side: each colour
/// any side shows is listed once (the naive and Cyclone sides of a box resting on a box keep
/// speculative points, the iterative and averaged ones do not), not once per tile. A view of
/// its own keeps its key under its title.
#[test]
fn a_comparison_writes_its_key_once_for_every_side() {
    use contactlab::physics::SolverMode::{Averaged, Cyclone, Iterative, Naive};
    let mut t = testbed("box_on_box.ron");
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Contacts);
    t.set_sides(&[Naive, Iterative, Cyclone, Averaged]);
    for _ in 0..90 {
        t.step_once();
    }
    let speculative = |w: &contactlab::physics::World| {
        w.contacts().iter().flat_map(|c| c.manifold.points.iter()).any(|p| p.depth < 0.0)
    };
    let some: Vec<bool> = t.sides.iter().map(|s| speculative(&s.world)).collect();
    assert!(some.contains(&true) && some.contains(&false), "speculative points on some sides only: {some:?}");
    let doc_text = vector::svg(&mut t, SIZE);
    let doc = roxmltree::Document::parse(&doc_text).expect("well-formed XML");
    let texts = texts(&doc);
    let count = |s: &str| texts.iter().filter(|x| x.as_str() == s).count();
    assert_eq!(count("contacts:"), 1, "{texts:?}");
    assert_eq!(count("touching"), 1);
    assert_eq!(count("apart, within the margin (speculative)"), 1);
    assert!(t.view.footer > 20.0, "the key's band: {} points", t.view.footer);
    // The key is written below every tile (its baseline under the lowest tile's foot).
    let main = contactlab::render::draw::Rect { x: 0.0, y: 0.0, w: SIZE.0 as f32, h: SIZE.1 as f32 };
    let foot = t.view.tiles(main, 4, 1.0).iter().map(|r| r.y + r.h).fold(0.0, f32::max);
    let key = doc.descendants().find(|n| n.has_tag_name("text") && n.text() == Some("contacts:")).unwrap();
    let y: f32 = key.attribute("y").expect("a text's y").parse().unwrap();
    assert!(y > foot + 10.0 && y < SIZE.1 as f32, "the key's line at y {y}, the tiles' foot at {foot}");
    t.set_sides(&[Iterative]);
    let texts = svg_texts(&mut t);
    assert_eq!(texts.iter().filter(|x| x.as_str() == "contacts:").count(), 1, "{texts:?}");
    assert_eq!(t.view.footer, 0.0);
}

/// The joints' key, the same colours on every side, goes once under a comparison's tiles too.
#[test]
fn a_jointed_comparison_writes_the_joints_key_once() {
    use contactlab::physics::SolverMode::{Iterative, Naive};
    let mut t = testbed("rope_bridge.ron");
    t.set_sides(&[Naive, Iterative]);
    t.step_once();
    let texts = svg_texts(&mut t);
    let count = |s: &str| texts.iter().filter(|x| x.as_str() == s).count();
    assert_eq!(count("joints:"), 1, "{texts:?}");
    assert_eq!(count("anchor on body A"), 1, "{texts:?}");
}
