//! The history's memory stays within its budget on a big scene, measured by a counting
//! allocator (this binary installs one, so it holds only this test): the bytes the history
//! really holds are what it reports, and never more than the budget.

use contactlab::app::Testbed;
use contactlab::scene;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

struct Counting;

/// Bytes allocated and not yet freed.
static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size as isize - layout.size() as isize, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn the_5050_box_pyramid_keeps_its_whole_run_within_the_budget() {
    let text = r#"Scene(
        name: "Pyramid of 5050",
        bodies: [(name: "ground", shape: Box(half_extents: (60.0, 0.5, 5.0)), kind: Static, position: (0.0, -0.5, 0.0))],
        generators: [Pyramid(name: "box", base: (0.0, 0.0, 0.0), layers: 100, half_extents: (0.5, 0.5, 0.5), gap: 0.05)],
    )"#;
    let desc = scene::parse(text, "pyramid_5050").unwrap();
    let mut t = Testbed::new(scene::build(&desc, "pyramid_5050").unwrap(), None);
    let budget = 48 << 20;
    t.session.history.budget = budget;
    let steps = 300;
    for _ in 0..steps {
        t.step_once();
        assert!(
            t.session.history.bytes() <= budget,
            "reported {} B at step {}",
            t.session.history.bytes(),
            t.world().step_count
        );
    }
    assert_eq!(t.session.history.first(), 0, "the start is still reachable");
    assert_eq!(t.session.history.head(), steps);
    assert!(t.session.history.snapshots() >= 4, "{} snapshots", t.session.history.snapshots());

    let with = LIVE.load(Ordering::SeqCst);
    let reported = t.session.history.bytes() as isize;
    t.session.history.clear();
    let held = with - LIVE.load(Ordering::SeqCst);
    assert!(held <= budget as isize, "the history held {held} B, over the {budget} B budget");
    let off = (held - reported).abs() as f64 / reported as f64;
    assert!(off < 0.05, "the history held {held} B and reported {reported} B");
}
