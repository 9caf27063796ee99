//! Offscreen rendering on the machine's Vulkan driver (lavapipe in CI): real image
//! properties — bodies where they project, background elsewhere, overlay colours only when
//! the overlay is on, both Gauss maps in the Gauss-map view.

use contactlab::app::headless::Offscreen;
use contactlab::app::Testbed;
use contactlab::render::draw::Rect;
use contactlab::scene;
use contactlab::scene::format::Overlay;
use contactlab::view::{colors, depth_color, Overlays};
use glam::Vec3;
use image::RgbaImage;

const SIZE: (u32, u32) = (640, 360);

/// The insets' rectangles in `t`'s view of its own at SIZE, below its text as the last
/// picture's labels measured it.
fn insets(t: &mut Testbed) -> [Rect; 2] {
    let main = Rect { x: 0.0, y: 0.0, w: SIZE.0 as f32, h: SIZE.1 as f32 };
    let pd = t.pair_debug().cloned();
    t.view.insets(main, 1, pd.as_ref(), 1.0).map(|i| i.rect)
}

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
}

fn srgb(c: [f32; 3]) -> [u8; 3] {
    let e = |x: f32| {
        let x = x.clamp(0.0, 1.0);
        let s = if x <= 0.003_130_8 { 12.92 * x } else { 1.055 * x.powf(1.0 / 2.4) - 0.055 };
        (s * 255.0).round() as u8
    };
    [e(c[0]), e(c[1]), e(c[2])]
}

fn dist(p: &image::Rgba<u8>, c: [u8; 3]) -> i32 {
    (0..3).map(|i| (p.0[i] as i32 - c[i] as i32).abs()).sum()
}

fn project(t: &Testbed, p: Vec3) -> (u32, u32) {
    let ndc = t.view.camera.view_proj(SIZE.0 as f32 / SIZE.1 as f32).project_point3(p);
    (((ndc.x + 1.0) * 0.5 * SIZE.0 as f32) as u32, ((1.0 - ndc.y) * 0.5 * SIZE.1 as f32) as u32)
}

fn count_near(img: &RgbaImage, rect: Option<Rect>, c: [u8; 3], tol: i32) -> usize {
    img.enumerate_pixels()
        .filter(|(x, y, p)| rect.is_none_or(|r| r.contains((*x as f32, *y as f32))) && dist(p, c) <= tol)
        .count()
}

fn render(off: &mut Offscreen, t: &mut Testbed) -> RgbaImage {
    off.render(t, SIZE).expect("render")
}

#[test]
fn bodies_cover_their_pixels_and_the_background_is_clear() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    eprintln!("adapter: {}", off.adapter_name);
    let mut t = testbed("box_on_box.ron");
    t.view.overlays = Overlays::default();
    t.selection.bodies.clear();
    let img = render(&mut off, &mut t);
    let bg = srgb(colors::BACKGROUND);
    // Far above the grid: only background.
    let top = img.get_pixel(SIZE.0 / 2, 4);
    assert!(dist(top, bg) <= 6, "background pixel {top:?} vs {bg:?}");
    for (i, b) in t.world().bodies().iter().enumerate().skip(1) {
        let (x, y) = project(&t, b.pose.pos);
        let p = img.get_pixel(x, y);
        assert!(dist(p, bg) > 40, "body {} at ({x}, {y}) looks like background: {p:?}", b.name);
        // Lit body colour: brighter or darker, but the same hue ordering as its colour.
        let c = t.session.scene.colors[i];
        if c[0] > c[2] + 0.3 {
            assert!(p.0[0] as i32 > p.0[2] as i32 + 30, "body {} should read warm: {p:?}", b.name);
        }
    }
    let uniform = img.pixels().all(|p| dist(p, bg) < 10);
    assert!(!uniform);
}

#[test]
fn overlay_colours_appear_only_when_the_overlay_is_on() {
    let mut off = Offscreen::new(SIZE).unwrap();
    let mut t = testbed("box_on_box.ron");
    t.selection.bodies.clear();
    for _ in 0..3 {
        t.step_once();
    }
    let c = t.world().contacts().iter().find(|c| c.manifold.points.len() == 4).expect("resting contact");
    // Dots are depth-tested: take the point nearest the camera, which the box does not hide.
    let eye = t.view.camera.eye();
    let pt = *c
        .manifold
        .points
        .iter()
        .min_by(|a, b| (a.position - eye).length().total_cmp(&(b.position - eye).length()))
        .unwrap();
    let (x, y) = project(&t, pt.position);
    let want = srgb(depth_color(pt.depth));
    let normal_rgb = srgb(colors::NORMAL);

    t.view.overlays = Overlays::default();
    let off_img = render(&mut off, &mut t);
    assert!(dist(off_img.get_pixel(x, y), want) > 40, "no contact point drawn when off");
    assert_eq!(count_near(&off_img, None, normal_rgb, 30), 0, "no normal arrows when off");

    t.view.overlays.set(Overlay::Contacts, true);
    t.view.overlays.set(Overlay::Normals, true);
    let on_img = render(&mut off, &mut t);
    let p = on_img.get_pixel(x, y);
    assert!(dist(p, want) <= 24, "contact point colour at ({x}, {y}): {p:?} vs {want:?}");
    assert!(count_near(&on_img, None, normal_rgb, 30) > 40, "normal arrows drawn when on");
}

#[test]
fn gauss_map_view_shows_both_maps_and_minkowski_view_its_faces() {
    let mut off = Offscreen::new(SIZE).unwrap();
    let mut t = testbed("crossed_edges.ron");
    assert!(t.selected_pair().is_some(), "the scene selects its pair");
    let (a, b, e) = (srgb(colors::MAP_A), srgb(colors::MAP_B), srgb(colors::MINKOWSKI_EDGE));

    t.view.overlays = Overlays::default();
    let none = render(&mut off, &mut t);
    let [g, m] = insets(&mut t);
    assert_eq!(count_near(&none, Some(g), b, 40), 0, "no Gauss map when the overlay is off");

    t.view.overlays.set(Overlay::Gauss, true);
    t.view.overlays.set(Overlay::Minkowski, true);
    let img = render(&mut off, &mut t);
    let (na, nb) = (count_near(&img, Some(g), a, 40), count_near(&img, Some(g), b, 40));
    assert!(na > 100 && nb > 100, "Gauss map of A: {na} px, of −B: {nb} px");
    // Crossing points (Minkowski faces) are marked; the edge–edge face of A − B is coloured.
    assert!(count_near(&img, Some(g), e, 40) > 10, "crossing markers");
    // Faces are lit, so classify by hue: yellow (edge–edge), orange-red (A), blue (−B).
    let hue = |f: &dyn Fn(i32, i32, i32) -> bool| {
        img.enumerate_pixels()
            .filter(|(x, y, p)| m.contains((*x as f32, *y as f32)) && f(p.0[0] as i32, p.0[1] as i32, p.0[2] as i32))
            .count()
    };
    let yellow = hue(&|r, g, b| r > 120 && g > 100 && b * 2 < g && (r - g).abs() < 90);
    let blue = hue(&|r, g, b| b > r + 60 && b > g + 30);
    let orange = hue(&|r, g, b| r > g + 60 && r > b + 80 && g > b);
    assert!(
        yellow > 200 && blue > 200 && orange > 200,
        "Minkowski faces: edge–edge {yellow}, −B {blue}, A {orange} px"
    );
}

#[test]
fn every_shipped_scene_renders() {
    let mut off = Offscreen::new(SIZE).unwrap();
    let bg = srgb(colors::BACKGROUND);
    for path in scene::shipped_scenes() {
        let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path.clone()));
        let img = render(&mut off, &mut t);
        let non_bg = img.pixels().filter(|p| dist(p, bg) > 30).count();
        assert!(non_bg > 2000, "{}: almost nothing drawn ({non_bg} px)", path.display());
    }
}

/// The box resting on the box after three steps, nothing selected, seen from the front and
/// a little above: the box's front bottom corners show, its back ones are behind it.
fn box_on_box_from_the_front() -> Testbed {
    let mut t = testbed("box_on_box.ron");
    t.selection.bodies.clear();
    for _ in 0..3 {
        t.step_once();
    }
    t.view.camera = contactlab::view::Camera::look_at(Vec3::new(0.2, 2.0, 5.0), Vec3::new(0.2, 0.8, -0.1), 45.0);
    t
}

#[test]
fn contact_dots_hide_behind_solid_bodies() {
    let mut off = Offscreen::new(SIZE).unwrap();
    let mut t = box_on_box_from_the_front();
    t.view.overlays = Overlays::default();
    t.view.overlays.set(Overlay::Contacts, true);
    let img = render(&mut off, &mut t);
    let c = t.world().contacts().iter().find(|c| c.manifold.points.len() == 4).expect("resting contact");
    let (mut front, mut back) = (0, 0);
    for pt in &c.manifold.points {
        let (x, y) = project(&t, pt.position);
        let d = dist(img.get_pixel(x, y), srgb(depth_color(pt.depth)));
        if pt.position.z > 0.0 {
            assert!(d <= 30, "front point at ({x}, {y}) is drawn: {:?}", img.get_pixel(x, y));
            front += 1;
        } else {
            assert!(d > 60, "back point at ({x}, {y}) is hidden by the box: {:?}", img.get_pixel(x, y));
            back += 1;
        }
    }
    assert_eq!((front, back), (2, 2));
}

/// The A/B view: each side's world in its own half, through the same camera at the half's
/// aspect, its field widened to the whole view's width and kept below the tile's text
/// (`sides::tile_camera`). The naive stack has fallen on the left while the iterative one stands on the
/// right, so the top box's pixel is a body only in the right half; a divider separates them.
#[test]
fn the_ab_view_draws_each_side_in_its_half() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("naive_stack.ron");
    assert_eq!(t.world().settings.mode, contactlab::physics::SolverMode::Naive);
    t.view.overlays = Overlays::default();
    t.selection.bodies.clear();
    t.start_compare(contactlab::physics::SolverMode::Iterative);
    for _ in 0..240 {
        t.step_once();
    }
    let img = render(&mut off, &mut t);
    let half = SIZE.0 / 2;
    let at = |p: Vec3, x0: u32| {
        let main = Rect { x: 0.0, y: 0.0, w: SIZE.0 as f32, h: SIZE.1 as f32 };
        let tile = Rect { x: x0 as f32, y: 0.0, w: half as f32, h: SIZE.1 as f32 };
        let cam = t.view.side_view(main, tile, 2, None, 1.0, t.view.header).camera;
        let ndc = cam.view_proj(tile.w / tile.h).project_point3(p);
        (x0 + ((ndc.x + 1.0) * 0.5 * half as f32) as u32, ((1.0 - ndc.y) * 0.5 * SIZE.1 as f32) as u32)
    };
    let top_b = t.sides.get(1).unwrap().world.bodies().last().unwrap().pose.pos;
    assert!(top_b.y > 5.0, "the iterative stack stands: top box at {top_b}");
    assert!(t.world().bodies().last().unwrap().pose.pos.y < 2.0, "the naive stack fell");
    let bg = srgb(colors::BACKGROUND);
    let (xb, yb) = at(top_b, half);
    assert!(dist(img.get_pixel(xb, yb), bg) > 40, "side B's top box at ({xb}, {yb}) is missing");
    let (xa, ya) = at(top_b, 0);
    assert!(dist(img.get_pixel(xa, ya), bg) <= 6, "side A shows a box where its stack no longer is");
    let divider = (half - 2..half + 2).any(|x| dist(img.get_pixel(x, SIZE.1 / 8), [90, 95, 110]) < 30);
    assert!(divider, "no divider between the halves");
}

/// A screenshot for slides at twice the pixel size is the same picture: exactly 2× the
/// pixels, and averaged down 2 × 2 it matches the 1× image far more closely than the 1×
/// image matches the same scene seen a little further along.
#[test]
fn a_scaled_screenshot_is_the_same_picture_at_twice_the_size() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("box_on_box.ron");
    for _ in 0..20 {
        t.step_once();
    }
    let one = off.render_scaled(&mut t, SIZE, 1).expect("render");
    let two = off.render_scaled(&mut t, SIZE, 2).expect("render");
    assert_eq!(two.dimensions(), (SIZE.0 * 2, SIZE.1 * 2));
    let down = RgbaImage::from_fn(SIZE.0, SIZE.1, |x, y| {
        let mut sum = [0u32; 4];
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            for (c, v) in sum.iter_mut().zip(two.get_pixel(2 * x + dx, 2 * y + dy).0) {
                *c += v as u32;
            }
        }
        image::Rgba(sum.map(|c| (c / 4) as u8))
    });
    // Compared in 16 × 16 blocks (averaged colours), where antialiasing and the text's
    // hinting at two sizes cancel out: the largest block difference.
    let block_diff = |a: &RgbaImage, b: &RgbaImage| {
        let mut worst = 0.0f64;
        for by in 0..SIZE.1 / 16 {
            for bx in 0..SIZE.0 / 16 {
                let mut d = [0i64; 3];
                for y in by * 16..by * 16 + 16 {
                    for x in bx * 16..bx * 16 + 16 {
                        for (c, dc) in d.iter_mut().enumerate() {
                            *dc += a.get_pixel(x, y).0[c] as i64 - b.get_pixel(x, y).0[c] as i64;
                        }
                    }
                }
                worst = worst.max(d.iter().map(|v| v.abs() as f64 / 256.0).sum());
            }
        }
        worst
    };
    let same = block_diff(&one, &down);
    // The view after the box was nudged 5 cm: a small change of the picture.
    let i = t.session.scene.body_index("box").unwrap();
    let h = t.world_mut().handle(i);
    t.world_mut().body_mut(h).unwrap().pose.pos.x += 0.05;
    t.edited();
    let moved = off.render_scaled(&mut t, SIZE, 1).expect("render");
    let other = block_diff(&one, &moved);
    assert!(same < 0.3 * other, "2× averaged down differs by {same:.1} in its worst block; a 5 cm move by {other:.1}");
}

#[test]
fn dark_theme_and_transparent_background_change_only_the_background() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("box_on_box.ron");
    t.view.overlays = Overlays::default();
    t.selection.bodies.clear();
    let light = render(&mut off, &mut t);
    t.view.look.theme = contactlab::view::Theme::Dark;
    let dark = render(&mut off, &mut t);
    let c = t.view.look.clear();
    let bg = srgb([c[0], c[1], c[2]]);
    let top = dark.get_pixel(SIZE.0 / 2, 4);
    assert!(dist(top, bg) <= 6, "dark background pixel {top:?} vs {bg:?}");
    assert!(top.0[0] < 60 && top.0[3] == 255, "{top:?}");
    // The bodies are drawn alike: the box's centre pixel is the same colour in both themes.
    let i = t.session.scene.body_index("box").unwrap();
    let (x, y) = project(&t, t.world().bodies()[i].pose.pos);
    assert!(dist(light.get_pixel(x, y), dark.get_pixel(x, y).0[..3].try_into().unwrap()) <= 6);

    t.view.look.transparent = true;
    let clear = render(&mut off, &mut t);
    assert_eq!(clear.get_pixel(SIZE.0 / 2, 4).0[3], 0, "nothing drawn there: alpha 0");
    assert_eq!(clear.get_pixel(x, y).0[3], 255, "the box stays opaque");
    // The sky is see-through: a fair part of the picture has alpha 0, the opaque view none.
    let see_through = clear.pixels().filter(|p| p.0[3] == 0).count();
    assert!(see_through > (SIZE.0 * SIZE.1 / 5) as usize, "{see_through} transparent pixels");
    assert_eq!(dark.pixels().filter(|p| p.0[3] == 0).count(), 0);
}

#[test]
fn teaching_labels_name_the_faces_in_the_picture() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("twisted_boxes.ron");
    let (a, b) = (t.session.scene.body_index("lower").unwrap(), t.session.scene.body_index("upper").unwrap());
    t.select_pair(a, b);
    t.view.overlays = Overlays::default();
    t.view.overlays.set(Overlay::Clip, true);
    t.step_once();
    let plain = render(&mut off, &mut t);
    t.view.look.labels = true;
    let labelled = render(&mut off, &mut t);
    // The reference face's plate is drawn in the reference colour: many more pixels of it.
    let reference = srgb(colors::REFERENCE);
    let (before, after) = (count_near(&plain, None, reference, 40), count_near(&labelled, None, reference, 40));
    assert!(after > before + 200, "reference-colour pixels {before} → {after}");
}

/// A sphere–box pair has no Gauss map or Minkowski difference: its insets draw nothing (the
/// Minkowski inset's pixels are the scene's own), and the Gauss inset's corner holds one
/// line that says why instead of titles over an empty frame.
#[test]
fn the_insets_of_a_sphere_box_pair_draw_nothing_but_why() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("spheres_and_capsules.ron");
    let (a, b) = (t.session.scene.body_index("block").unwrap(), t.session.scene.body_index("ball on face").unwrap());
    t.select_pair(a, b);
    for _ in 0..30 {
        t.step_once();
    }
    t.view.overlays = Overlays::default();
    let plain = render(&mut off, &mut t);
    t.view.overlays.enable(Overlay::Gauss);
    t.view.overlays.enable(Overlay::Minkowski);
    let with = render(&mut off, &mut t);
    let [g, m] = insets(&mut t);
    let differ = |r: Rect| {
        plain
            .enumerate_pixels()
            .filter(|(x, y, p)| r.contains((*x as f32, *y as f32)) && **p != *with.get_pixel(*x, *y))
            .count()
    };
    assert_eq!(differ(m), 0, "the Minkowski inset drew over the scene");
    let note = differ(g);
    assert!(note > 200, "the Gauss inset's corner says why it is empty ({note} pixels changed)");
    // Only the note, in the bottom-left corner: no frame, title or legend anywhere else.
    let corner = Rect { x: 0.0, y: SIZE.1 as f32 * 0.6, w: SIZE.0 as f32 * 0.5, h: SIZE.1 as f32 * 0.4 };
    let all = differ(Rect { x: 0.0, y: 0.0, w: SIZE.0 as f32, h: SIZE.1 as f32 });
    assert_eq!(all, differ(corner), "pixels changed outside the note's corner");
}

/// The SAT's winner is marked: on the crossed edges (an edge–edge contact) the two winning
/// arcs are drawn thick in the winner's colour in the Gauss inset, and the Minkowski inset
/// outlines the nearest face in it; without the overlays nothing has that colour.
#[test]
fn the_winning_arcs_and_face_are_drawn_in_the_winners_colour() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("crossed_edges.ron");
    let (a, b) = (t.session.scene.body_index("ridge").unwrap(), t.session.scene.body_index("roof").unwrap());
    t.select_pair(a, b);
    t.step_once();
    let sat = t.pair_debug().and_then(|p| p.sat.clone()).expect("a SAT record");
    assert_eq!(sat.winner, Some(contactlab::physics::ContactKind::Edge));
    t.view.overlays = Overlays::default();
    let winner = srgb(colors::WINNER);
    let plain = render(&mut off, &mut t);
    let [g, m] = insets(&mut t);
    assert_eq!(count_near(&plain, None, winner, 40), 0, "the winner's colour is not used elsewhere");
    t.view.overlays.enable(Overlay::Gauss);
    t.view.overlays.enable(Overlay::Minkowski);
    let img = render(&mut off, &mut t);
    let (in_g, in_m) = (count_near(&img, Some(g), winner, 40), count_near(&img, Some(m), winner, 40));
    assert!(in_g > 150, "{in_g} pixels of the winning arcs in the Gauss inset");
    assert!(in_m > 60, "{in_m} pixels of the nearest face's outline in the Minkowski inset");
}

/// `--view gauss`: the Gauss map alone at the picture's size, between the picture's text and
/// its legend — A's arcs are wider by the ratio of the two figures' heights (each
/// the height its inset keeps between its title and its legend), and the scene is not
/// drawn under it.
#[test]
fn the_gauss_map_alone_fills_the_picture() {
    let mut off = Offscreen::new(SIZE).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("crossed_edges.ron");
    let (a, b) = (t.session.scene.body_index("ridge").unwrap(), t.session.scene.body_index("roof").unwrap());
    t.select_pair(a, b);
    t.step_once();
    t.view.overlays = Overlays::default();
    t.view.overlays.enable(Overlay::Gauss);
    // The width of A's arcs (their pixels inside the inset, above its legend, whose first
    // line has a swatch of A's colour), and the height of the figure.
    let a = srgb(colors::MAP_A);
    let extent = |img: &RgbaImage, t: &mut Testbed| {
        let main = Rect { x: 0.0, y: 0.0, w: SIZE.0 as f32, h: SIZE.1 as f32 };
        let pd = t.pair_debug().cloned();
        let [g, _] = t.view.insets(main, 1, pd.as_ref(), 1.0);
        let legend = g.rect.y + g.rect.h * (1.0 - g.bottom);
        let xs: Vec<u32> = img
            .enumerate_pixels()
            .filter(|(x, y, p)| dist(p, a) <= 30 && (*y as f32) < legend && g.rect.contains((*x as f32, *y as f32)))
            .map(|(x, _, _)| x)
            .collect();
        (xs.iter().max().unwrap_or(&0) - xs.iter().min().unwrap_or(&0), g.rect.h * (1.0 - g.top - g.bottom))
    };
    let small = render(&mut off, &mut t);
    let (small, inset) = extent(&small, &mut t);
    t.view.insets.solo = Some(contactlab::view::Figure::Gauss);
    let alone = render(&mut off, &mut t);
    let (big, whole) = extent(&alone, &mut t);
    let (ratio, want) = (big as f32 / small as f32, whole / inset);
    assert!(want > 1.4, "the figure alone is {whole} px high, in the inset {inset}");
    assert!(
        small > 10 && (ratio / want - 1.0).abs() < 0.1,
        "A's arcs span {big} px alone, {small} px in the inset: {ratio:.2}×, the figures {want:.2}×"
    );
    // No ground grid or bodies: the corners are the inset's background.
    let bg = *alone.get_pixel(SIZE.0 - 3, 3);
    assert_eq!(bg, *alone.get_pixel(SIZE.0 - 3, SIZE.1 - 3));
}

/// The solver-graph overlay: each visible contact point is drawn in the colour of the graph
/// colour its manifold was solved in (`World::graph_colours`) instead of its depth colour,
/// which the contacts overlay alone draws there. The box, alone in its island, takes its
/// island's tint: its lit face changes colour when the overlay comes on.
#[test]
fn the_graph_overlay_draws_each_contact_in_its_graph_colour() {
    let mut off = Offscreen::new(SIZE).unwrap();
    let mut t = box_on_box_from_the_front();
    let w = t.world();
    let colours = w.graph_colours();
    let (ci, c) = w.contacts().iter().enumerate().find(|(_, c)| c.manifold.points.len() == 4).expect("resting contact");
    let colour = colours[ci].expect("the resting manifold was solved in a colour");
    let want = srgb(contactlab::render::graph::colour_of(colour));
    // The front points (z > 0) are the ones the box does not hide; each with its depth colour.
    let front: Vec<(Vec3, [u8; 3])> = c
        .manifold
        .points
        .iter()
        .filter(|p| p.position.z > 0.0)
        .map(|p| (p.position, srgb(depth_color(p.depth))))
        .collect();
    assert_eq!(front.len(), 2);
    let top = w.bodies().iter().rposition(|b| b.is_dynamic()).unwrap();
    let face = w.bodies()[top].pose.pos + Vec3::new(0.0, 0.0, 0.3);

    t.view.overlays = Overlays::default();
    t.view.overlays.set(Overlay::Contacts, true);
    let plain = render(&mut off, &mut t);
    t.view.overlays.set(Overlay::Graph, true);
    let graph = render(&mut off, &mut t);
    for (p, depth) in &front {
        let (x, y) = project(&t, *p);
        let (g, d) = (graph.get_pixel(x, y), plain.get_pixel(x, y));
        assert!(dist(&image::Rgba([want[0], want[1], want[2], 255]), *depth) > 60, "the two colours must differ");
        assert!(
            dist(d, *depth) <= 30,
            "contacts alone: the point at ({x}, {y}) in its depth colour: {d:?} vs {depth:?}"
        );
        assert!(dist(g, want) <= 30, "graph overlay: the point at ({x}, {y}) in its graph colour: {g:?} vs {want:?}");
    }
    let (x, y) = project(&t, face);
    let [r, g, b, _] = plain.get_pixel(x, y).0;
    assert!(
        dist(graph.get_pixel(x, y), [r, g, b]) > 20,
        "the box takes its island's tint: {:?} and {:?}",
        graph.get_pixel(x, y),
        plain.get_pixel(x, y)
    );
}

/// A thin slab on a thin slab on the ground, the upper one wider: every contact point lies
/// under the upper slab. Seen from above, each contact dot is hidden whole (no crescent of it
/// pokes through the 4 cm slab), in the PNG and in the SVG; seen from low in front, the
/// lower slab's two front corners on the ground show as whole dots.
#[test]
fn contact_dots_under_a_thin_slab_are_hidden_whole() {
    let ron = r#"Scene(name: "Slabs", view: (overlays: [Contacts]), bodies: [
        (name: "ground", shape: Box(half_extents: (3.0, 0.5, 3.0)), kind: Static, position: (0.0, -0.5, 0.0)),
        (name: "lower", shape: Box(half_extents: (0.5, 0.02, 0.5)), position: (0.0, 0.02, 0.0)),
        (name: "upper", shape: Box(half_extents: (0.8, 0.02, 0.8)), position: (0.0, 0.06, 0.0)),
    ])"#;
    let mut t = Testbed::new(scene::load_str(ron, "slabs").unwrap(), None);
    for _ in 0..3 {
        t.step_once();
    }
    let points: Vec<Vec3> =
        t.world().contacts().iter().flat_map(|c| c.manifold.points.iter().map(|p| p.position)).collect();
    assert_eq!(points.len(), 8, "four points between the slabs, four on the ground");
    let mut off = Offscreen::new(SIZE).unwrap();
    let touching = srgb(depth_color(0.0));
    let dots_near = |img: &RgbaImage, t: &Testbed, p: Vec3| {
        let (x, y) = project(t, p);
        let r = Rect { x: x as f32 - 12.0, y: y as f32 - 12.0, w: 24.0, h: 24.0 };
        count_near(img, Some(r), touching, 40)
    };
    let markers = |t: &mut Testbed| {
        let doc_text = contactlab::app::vector::svg(t, SIZE);
        let doc = roxmltree::Document::parse(&doc_text).unwrap();
        let group = doc.descendants().find(|n| n.attribute("class") == Some("markers")).expect("a markers group");
        group.descendants().filter(|n| n.has_tag_name("circle")).count()
    };
    // From above (9 m away, where the old 2 % nudge of 18 cm lifted a dot clear of the slab).
    t.view.camera = contactlab::view::Camera::look_at(Vec3::new(0.0, 8.0, 4.0), Vec3::ZERO, 45.0);
    let img = render(&mut off, &mut t);
    for &p in &points {
        assert_eq!(dots_near(&img, &t, p), 0, "a dot under the upper slab shows at {p}");
    }
    // Nor do the lower slab's top edges show through (their midpoints show the upper face).
    let outline = img.get_pixel(project(&t, Vec3::new(0.8, 0.08, 0.0)).0 - 1, project(&t, Vec3::ZERO).1);
    let face = *img.get_pixel(project(&t, Vec3::new(0.0, 0.08, 0.0)).0, project(&t, Vec3::ZERO).1);
    assert!(dist(outline, face.0[..3].try_into().unwrap()) > 100, "the upper slab's own outline is drawn");
    for (x, z) in [(0.5, 0.0), (-0.5, 0.0), (0.0, 0.5), (0.0, -0.5)] {
        let (px, py) = project(&t, Vec3::new(x, 0.04, z));
        let d = dist(img.get_pixel(px, py), face.0[..3].try_into().unwrap());
        assert!(d < 30, "the lower slab's edge shows through at ({x}, {z}): {:?}", img.get_pixel(px, py));
    }
    assert_eq!(markers(&mut t), 0, "the SVG draws no dot");
    // From low in front: the lower slab's front corners on the ground, whole.
    t.view.camera = contactlab::view::Camera::look_at(Vec3::new(0.0, 0.3, 6.0), Vec3::new(0.0, 0.0, 0.0), 45.0);
    let img = render(&mut off, &mut t);
    let front: Vec<Vec3> = points.iter().copied().filter(|p| p.y < 0.01 && p.z > 0.0).collect();
    assert_eq!(front.len(), 2);
    for &p in &front {
        // A whole 11-pixel dot: its coloured disc is about 70 pixels.
        assert!(dots_near(&img, &t, p) > 40, "the front corner's dot at {p}: {}", dots_near(&img, &t, p));
    }
    // Each shown dot is two circles (its rim and its disc) for each of two markers.
    assert_eq!(markers(&mut t), 2 * 2 * 2, "the SVG draws the two front dots");
}
