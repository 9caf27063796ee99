//! Scene builders and the state fingerprint shared by the world tests.
#![allow(dead_code)]

use contactlab::physics::{BodyDesc, JointDesc, JointKind, Settings, Shape, World};
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

/// A hash of every bit of the state a step carries to the next: poses, velocities, sleep
/// states, each contact's points and impulses, each joint's impulses and error, the step
/// count (the determinism tests of the history and of the threads compare them).
pub fn fingerprint(w: &World) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |x: u32| {
        h ^= x as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    };
    for b in w.bodies() {
        for v in [b.pose.pos, b.velocity, b.angular_velocity] {
            v.to_array().iter().for_each(|x| eat(x.to_bits()));
        }
        b.pose.rot.to_array().iter().for_each(|x| eat(x.to_bits()));
        eat(b.asleep as u32);
    }
    for c in w.contacts() {
        eat(c.a);
        eat(c.b);
        for (p, i) in c.manifold.points.iter().zip(&c.impulses) {
            eat(p.depth.to_bits());
            p.position.to_array().iter().for_each(|x| eat(x.to_bits()));
            eat(i.normal.to_bits());
            eat(i.tangent[0].to_bits());
            eat(i.tangent[1].to_bits());
        }
    }
    for j in w.joints() {
        for v in [j.linear_impulse, j.angular_impulse] {
            v.to_array().iter().for_each(|x| eat(x.to_bits()));
        }
        eat(j.position_error.to_bits());
    }
    eat(w.step_count as u32);
    h
}

/// Times of the upward zero crossings of `x(t)` sampled every `dt`, linearly interpolated.
pub fn crossings(xs: &[f32], dt: f32) -> Vec<f32> {
    let mut out = Vec::new();
    for k in 1..xs.len() {
        if xs[k - 1] < 0.0 && xs[k] >= 0.0 {
            let f = xs[k - 1] / (xs[k - 1] - xs[k]);
            out.push((k as f32 - 1.0 + f) * dt);
        }
    }
    out
}

/// A net of `rows` × `cols` balls of `radius`, ball (i, j) at `origin + i·along_i + j·along_j`,
/// each tied by a ball joint at the midpoint to the ball before it along i and along j (no
/// ties to the world: the caller holds the net as it needs). Returns the balls' indices,
/// `[i * cols + j]`.
pub fn ball_net(w: &mut World, (rows, cols): (usize, usize), origin: Vec3, along: [Vec3; 2], radius: f32) -> Vec<u32> {
    let at = |i: usize, j: usize| origin + along[0] * i as f32 + along[1] * j as f32;
    let mut index = vec![0u32; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            let b = w.add_body(BodyDesc::new(format!("s{i}_{j}"), Shape::Sphere { radius }, at(i, j))).unwrap().index;
            index[i * cols + j] = b;
            for (di, dj, name) in [(1, 0, "x"), (0, 1, "z")] {
                if i >= di && j >= dj {
                    let (pi, pj) = (i - di, j - dj);
                    let anchor = 0.5 * (at(pi, pj) + at(i, j));
                    let joint =
                        JointDesc::new(format!("{name}{i}_{j}"), JointKind::Ball, index[pi * cols + pj], b, anchor);
                    w.add_joint(joint).unwrap();
                }
            }
        }
    }
    index
}
