use contactlab::app::Testbed;
use contactlab::scene;
use std::time::Instant;
fn pyramid(layers: u32) -> Testbed {
    let text = format!(r#"Scene(name: "p", bodies: [(name: "ground", shape: Box(half_extents: (60.0, 0.5, 5.0)), kind: Static, position: (0.0, -0.5, 0.0))],
        generators: [Pyramid(name: "box", base: (0.0, 0.0, 0.0), layers: {layers}, half_extents: (0.5, 0.5, 0.5), gap: 0.05)])"#);
    let desc = scene::parse(&text, "p").unwrap();
    Testbed::new(scene::build(&desc, "p").unwrap(), None)
}
fn main() {
    let arg: Vec<String> = std::env::args().collect();
    let layers: u32 = arg[1].parse().unwrap();
    let steps: u64 = arg[2].parse().unwrap();
    let mut t = pyramid(layers);
    if arg.len() > 3 { t.history.budget = 0; t.history.interval = u64::MAX; }
    t.scene.world.settings.sleeping = false;
    let (mut hist, mut step) = (0.0f64, 0.0f64);
    let start = Instant::now();
    for i in 0..steps {
        t.step_once();
        hist += t.history.cost_ms.0 as f64;
        step += t.history.cost_ms.1 as f64;
        if i % 3600 == 0 { eprintln!("step {i}: {} snapshots {:.1} MB first {}", t.history.snapshots(), t.history.bytes() as f64 / 1048576.0, t.history.first()); }
    }
    let wall = start.elapsed().as_secs_f64() * 1000.0;
    println!("layers {layers} steps {steps}: history {:.3} ms/step, world step {:.3} ms/step, history/step {:.2}%, wall {:.3} ms/step; {} snapshots, {:.1} MB, first {}, snapshot {:.2} MB",
        hist / steps as f64, step / steps as f64, 100.0 * hist / step, wall / steps as f64, t.history.snapshots(), t.history.bytes() as f64 / 1048576.0, t.history.first(), t.world().snapshot_bytes() as f64 / 1048576.0);
    for target in [steps - 1, steps - 100, steps / 2, 10] {
        let s = Instant::now();
        t.seek(target);
        println!("seek to {target}: {:.1} ms", s.elapsed().as_secs_f64() * 1000.0);
        t.seek(steps);
    }
}
