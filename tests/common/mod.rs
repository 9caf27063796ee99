//! Scene builders shared by the world tests.
#![allow(dead_code)]

use contactlab::physics::{BodyDesc, Settings, Shape, World};
use glam::{Quat, Vec3};

pub fn world(settings: Settings) -> World {
    World::new(Vec3::new(0.0, -9.81, 0.0), settings)
}

pub fn cube(h: f32) -> Shape {
    Shape::cuboid(Vec3::splat(h)).unwrap()
}

/// Static ground box whose top face is at y = 0.
pub fn ground(w: &mut World) -> usize {
    w.add_body(
        BodyDesc::new("ground", Shape::cuboid(Vec3::new(20.0, 0.5, 20.0)).unwrap(), Vec3::new(0.0, -0.5, 0.0)).fixed(),
    )
    .unwrap()
    .index as usize
}

/// A column of `n` unit cubes resting exactly on the ground. Returns the indices.
pub fn stack(w: &mut World, n: usize) -> Vec<usize> {
    (0..n)
        .map(|i| {
            w.add_body(BodyDesc::new(format!("box{i}"), cube(0.5), Vec3::new(0.0, 0.5 + i as f32, 0.0))).unwrap().index
                as usize
        })
        .collect()
}

/// A 2D pyramid of unit cubes with `layers` rows (210 boxes for 20), gap 0.05 between
/// neighbours, standing on the ground.
pub fn pyramid(w: &mut World, layers: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for row in 0..layers {
        let n = layers - row;
        for j in 0..n {
            let x = (j as f32 - (n - 1) as f32 * 0.5) * 1.05;
            let d = BodyDesc::new(format!("p{row}_{j}"), cube(0.5), Vec3::new(x, 0.5 + row as f32, 0.0));
            out.push(w.add_body(d).unwrap().index as usize);
        }
    }
    out
}

pub fn rotation_z(deg: f32) -> Quat {
    Quat::from_rotation_z(deg.to_radians())
}
