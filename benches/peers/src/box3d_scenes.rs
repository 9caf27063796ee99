//! Box3D's own benchmark scenes (`shared/benchmarks.c` in erincatto/box3d), built as
//! contactlab worlds so every engine of the comparison steps them through the same mirror:
//!
//! - [`many_pyramids`]: `CreateManyPyramids`, 14 × 14 pyramids of 55 unit cubes (a base of
//!   10), 10,780 cubes of density 100 on a ground slab of half extents 77 × 1 × 77.
//!
//! Box3D's runner steps it 100 times at 60 Hz with 4 substeps; its gravity is −10 m/s².
//! Friction stays the comparison's common 0.5 (Box3D's default is 0.6).

use contactlab::physics::{BodyDesc, Settings, Shape, World};
use glam::Vec3;

/// `CreateManyPyramids`: `rows` × `columns` pyramids of `base` cubes at the bottom
/// (`base·(base+1)/2` each), cube half extent 0.5 m, density 100.
pub fn many_pyramids(rows: usize, columns: usize, base: usize, settings: Settings) -> World {
    let extent = 0.5f32;
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let ground_extent = extent * columns as f32 * (base as f32 + 1.0);
    let ground = Shape::cuboid(Vec3::new(ground_extent, 1.0, ground_extent)).expect("ground");
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -1.0, 0.0)).fixed()).expect("ground");
    let cube = Shape::cuboid(Vec3::splat(extent)).expect("cube");
    let base_width = 2.0 * extent * base as f32;
    let mut base_z = -ground_extent + 2.0 * extent;
    let delta_z = 2.0 * (ground_extent - 2.0 * extent) / (rows as f32 - 1.0).max(1.0);
    for _ in 0..rows {
        for j in 0..columns {
            let centre_x = -ground_extent + j as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            for i in 0..base {
                let y = (2.0 * i as f32 + 1.0) * extent;
                for k in i..base {
                    let x = (i as f32 + 1.0) * extent + 2.0 * (k - i) as f32 * extent + centre_x - 0.5;
                    let mut desc =
                        BodyDesc::new(format!("c{}", w.bodies().len()), cube.clone(), Vec3::new(x, y, base_z));
                    desc.density = 100.0;
                    w.add_body(desc).expect("cube");
                }
            }
        }
        base_z += delta_z;
    }
    w
}
