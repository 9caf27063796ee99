//! Triangle meshes: building a 100,352-triangle mesh (validation, normals and the bounding
//! volume hierarchy), loading the same terrain from an OBJ file through the scene loader
//! (`tobj` + the same build), and box queries of the hierarchy against a brute-force scan.
//! Issue 19's bar: 100,000 triangles load and build in under a second (release).

use contactlab::physics::math::Aabb;
use contactlab::physics::mesh::{generate, tri_aabb, TriMesh};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use glam::Vec3;
use std::fmt::Write as _;

/// 224 × 224 cells of 0.5 m: 100,352 triangles of rolling terrain.
const CELLS: usize = 224;

fn terrain() -> TriMesh {
    generate::heightfield(CELLS, CELLS, 0.5, |x, z| 1.5 * (x * 0.3).sin() * (z * 0.2).cos()).expect("terrain")
}

fn mesh(c: &mut Criterion) {
    let t = terrain();
    eprintln!(
        "terrain: {} triangles, {} vertices, {} hierarchy nodes",
        t.len(),
        t.vertices().len(),
        t.bvh().nodes().len()
    );
    let (vertices, triangles) = (t.vertices().to_vec(), t.triangles().to_vec());
    c.bench_function("mesh/build-100k", |b| {
        b.iter(|| TriMesh::new(black_box(vertices.clone()), black_box(triangles.clone())).expect("mesh"))
    });
    // The same terrain as an OBJ file, loaded by a scene.
    let dir = std::env::temp_dir().join(format!("contactlab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut obj = String::new();
    for v in &vertices {
        let _ = writeln!(obj, "v {} {} {}", v.x, v.y, v.z);
    }
    for tri in &triangles {
        let _ = writeln!(obj, "f {} {} {}", tri[0] + 1, tri[1] + 1, tri[2] + 1);
    }
    std::fs::write(dir.join("terrain.obj"), obj).expect("write obj");
    let scene = dir.join("terrain.ron");
    std::fs::write(
        &scene,
        "Scene(name: \"t\", bodies: [(name: \"terrain\", shape: Obj(path: \"terrain.obj\"), kind: Static)])",
    )
    .expect("write scene");
    c.bench_function("mesh/load-obj-100k", |b| b.iter(|| contactlab::scene::load(black_box(&scene)).expect("scene")));
    std::fs::remove_dir_all(&dir).ok();
    // A 1 m box at 64 places: the hierarchy against testing every triangle's box.
    let boxes: Vec<Aabb> = (0..64)
        .map(|k| {
            let p = Vec3::new((k % 8) as f32 * 12.0 - 42.0, 0.0, (k / 8) as f32 * 12.0 - 42.0);
            Aabb::new(p - Vec3::splat(0.5), p + Vec3::splat(0.5))
        })
        .collect();
    let mut out = Vec::new();
    c.bench_function("mesh/query-64-boxes-bvh", |b| {
        b.iter(|| {
            let mut n = 0;
            for q in &boxes {
                out.clear();
                t.query_aabb(q, &mut out);
                n += out.len();
            }
            n
        })
    });
    c.bench_function("mesh/query-64-boxes-brute-force", |b| {
        b.iter(|| {
            let mut n = 0;
            for q in &boxes {
                n += (0..t.len() as u32).filter(|&i| q.overlaps(&tri_aabb(t.triangle(i)))).count();
            }
            n
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = mesh
}
criterion_main!(benches);
