//! Files without a file system: the shipped scenes and the OBJ meshes they read, compiled
//! into the binary for the browser build, plus the files a user opens there ("Open…", a
//! `#ron=` link), which [`add`] keeps for the session.
//!
//! [`super::read_text`] looks a path up here by its file name on the web (folders mean
//! nothing there). A unit test checks that [`SHIPPED`] lists every file of `scenes/`.

use std::cell::RefCell;

/// Every shipped scene file and the OBJ meshes they read, by file name.
pub const SHIPPED: &[(&str, &str)] = &[
    ("arch.ron", include_str!("../../scenes/arch.ron")),
    ("billiards.ron", include_str!("../../scenes/billiards.ron")),
    ("box_on_box.ron", include_str!("../../scenes/box_on_box.ron")),
    ("box_on_vertex.ron", include_str!("../../scenes/box_on_vertex.ron")),
    ("bullet_stack.ron", include_str!("../../scenes/bullet_stack.ron")),
    ("bullet_wall.ron", include_str!("../../scenes/bullet_wall.ron")),
    ("car.ron", include_str!("../../scenes/car.ron")),
    ("chain_50.ron", include_str!("../../scenes/chain_50.ron")),
    ("compounds.ron", include_str!("../../scenes/compounds.ron")),
    ("corridor.ron", include_str!("../../scenes/corridor.ron")),
    ("crossed_edges.ron", include_str!("../../scenes/crossed_edges.ron")),
    ("dominoes.ron", include_str!("../../scenes/dominoes.ron")),
    ("door.ron", include_str!("../../scenes/door.ron")),
    ("double_pendulum.ron", include_str!("../../scenes/double_pendulum.ron")),
    ("dzhanibekov.ron", include_str!("../../scenes/dzhanibekov.ron")),
    ("ghost_collisions.ron", include_str!("../../scenes/ghost_collisions.ron")),
    ("gyroscope.ron", include_str!("../../scenes/gyroscope.ron")),
    ("heightfield.ron", include_str!("../../scenes/heightfield.ron")),
    ("hull_pile.ron", include_str!("../../scenes/hull_pile.ron")),
    ("incline.ron", include_str!("../../scenes/incline.ron")),
    ("level.obj", include_str!("../../scenes/level.obj")),
    ("naive_flat_drop.ron", include_str!("../../scenes/naive_flat_drop.ron")),
    ("naive_stack.ron", include_str!("../../scenes/naive_stack.ron")),
    ("newtons_cradle.ron", include_str!("../../scenes/newtons_cradle.ron")),
    ("obj_level.ron", include_str!("../../scenes/obj_level.ron")),
    ("pendulum.ron", include_str!("../../scenes/pendulum.ron")),
    ("pool_break.ron", include_str!("../../scenes/pool_break.ron")),
    ("pulley.ron", include_str!("../../scenes/pulley.ron")),
    ("pyramid_20.ron", include_str!("../../scenes/pyramid_20.ron")),
    ("ragdoll.ron", include_str!("../../scenes/ragdoll.ron")),
    ("restitution_row.ron", include_str!("../../scenes/restitution_row.ron")),
    ("rolling_resistance.ron", include_str!("../../scenes/rolling_resistance.ron")),
    ("rope_bridge.ron", include_str!("../../scenes/rope_bridge.ron")),
    ("shuttle.ron", include_str!("../../scenes/shuttle.ron")),
    ("single_box_drop.ron", include_str!("../../scenes/single_box_drop.ron")),
    ("slider_crank.ron", include_str!("../../scenes/slider_crank.ron")),
    ("spheres_and_capsules.ron", include_str!("../../scenes/spheres_and_capsules.ron")),
    ("spinning_stick.ron", include_str!("../../scenes/spinning_stick.ron")),
    ("stack_10.ron", include_str!("../../scenes/stack_10.ron")),
    ("stairs_and_ramps.ron", include_str!("../../scenes/stairs_and_ramps.ron")),
    ("turntable.ron", include_str!("../../scenes/turntable.ron")),
    ("twisted_boxes.ron", include_str!("../../scenes/twisted_boxes.ron")),
    ("v_valley.ron", include_str!("../../scenes/v_valley.ron")),
    ("welcome.ron", include_str!("../../scenes/welcome.ron")),
];

thread_local! {
    /// Files opened in this session, by file name (the browser has one thread).
    static OPENED: RefCell<Vec<(String, String)>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `text` as the file `name` (a later one of the same name replaces it).
pub fn add(name: &str, text: String) {
    OPENED.with(|o| {
        let mut o = o.borrow_mut();
        o.retain(|(n, _)| n != name);
        o.push((name.to_string(), text));
    });
}

/// The text of file `name`: one opened in this session, else a shipped one.
pub fn text(name: &str) -> Option<String> {
    OPENED
        .with(|o| o.borrow().iter().find(|(n, _)| n == name).map(|(_, t)| t.clone()))
        .or_else(|| SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| t.to_string()))
}

/// The names of the shipped scenes (`.ron`), sorted.
pub fn scene_names() -> impl Iterator<Item = &'static str> {
    SHIPPED.iter().map(|(n, _)| *n).filter(|n| n.ends_with(".ron"))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_file_of_the_scenes_folder_is_shipped_with_its_bytes() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".ron") || n.ends_with(".obj"))
            .collect();
        on_disk.sort();
        let shipped: Vec<String> = super::SHIPPED.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(shipped, on_disk, "scene/bundle.rs must list every file of scenes/");
        for (name, text) in super::SHIPPED {
            assert_eq!(*text, std::fs::read_to_string(dir.join(name)).unwrap(), "{name}");
        }
    }

    #[test]
    fn an_opened_file_is_found_before_a_shipped_one_of_the_same_name() {
        assert!(super::text("welcome.ron").is_some_and(|t| t.contains("name")));
        super::add("welcome.ron", "opened".into());
        assert_eq!(super::text("welcome.ron").as_deref(), Some("opened"));
        assert_eq!(super::text("no_such.ron"), None);
    }
}
