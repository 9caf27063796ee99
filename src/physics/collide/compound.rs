//! Contacts of a pair with a compound body ([`crate::physics::compound`]): child by child.
//!
//! Each child of A (a shape that is not a compound is its own only child) whose box comes
//! within the margin of B's box is paired with each child of B whose box comes within the
//! margin of its own (the boxes taken in the frame of the body with more children: its
//! children's boxes are stored, the other's few are turned into it), and the child pair goes through the ordinary narrow phase
//! ([`collide_recorded`]) at the children's world poses. Every child pair that touches
//! gives a manifold tagged with the pair (`part = child_a · count_b + child_b`, so that the
//! world carries each one's impulses over to the same child pair next step); a child that
//! meets a mesh gives one per normal group, each with the same tag. The first in tag order
//! is the pair's manifold, the others go to [`Scratch::mesh_groups`] beside it, as a mesh
//! pair's further groups do.
//!
//! The pair's gap for skipping it while it stays apart ([`Scratch::compound_gap`]) is the
//! least of its child pairs' lower bounds: the gap between two boxes along the axis that
//! separates them most for a pair the boxes cull, the SAT's separation for a pair of hulls
//! found apart, and 0 for a pair of curved children found apart (no bound) or any that
//! touches.
//!
//! A child pair that touched keeps its SAT cache (the face or edge pair it was built on)
//! to the next step, in its manifold's contact, as any pair keeps its own: the caller lists
//! them by tag in [`Scratch::compound_caches`] before the call, and this step's come back
//! in [`Scratch::compound_caches_out`], one per manifold. A child pair resting or sliding
//! on the same face then uses that face again instead of a full SAT.
//!
//! Where two children meet flat (two slabs of one floor), a body sliding across the seam
//! meets the inner face edge-on, and the SAT takes that face's normal while the body is
//! still less deep in the next slab's top than it is past the seam: a ghost contact that
//! would brake it and throw it up. A manifold whose normal is that of a face inside the
//! body ([`crate::physics::compound::Child::covered`]) is dropped; the child pair then
//! counts as touching for the pair's gap.
//!
//! Limits: a child pair found apart keeps no cache (its next computation is a full SAT);
//! the boxes are the children's own, so a long thin child turned 45° is culled by a box
//! larger than it. Only faces wholly within another child's count as inside, and only
//! contacts along their normal are dropped: an edge pair's contact across a seam (a
//! tumbling body's edge on the seam's edge) is kept, as are contacts on a face only partly
//! covered. (Box3D's and rapier3d's fixes of internal edges are for meshes, not for
//! compounds.)

use super::{collide_recorded, CollideConfig, CollideRecord, Manifold, SatCache, Scratch};
use crate::physics::compound::{child, child_count, part_children};
use crate::physics::contact::Apart;
use crate::physics::math::{Aabb, Iso};
use crate::physics::shape::Shape;

/// Child `i`'s box in its body's frame.
fn local_box(shape: &Shape, i: usize) -> Aabb {
    match shape {
        Shape::Compound(c) => c.children()[i].local_aabb(),
        s => s.local_aabb(),
    }
}

/// Child `i`'s box in a frame where its body is at `x`.
fn turned_box(shape: &Shape, i: usize, x: &Iso) -> Aabb {
    let (s, pose) = child(shape, i);
    s.aabb(&x.mul(&pose))
}

/// Whether `normal` (world, pointing out of the body at `x`) is the normal of one of child
/// `i`'s faces inside the body ([`crate::physics::compound::Child::covered`]): a contact on
/// it is a ghost of the seam between two children, which nothing outside can touch.
fn inner_face(shape: &Shape, i: usize, x: &Iso, normal: glam::Vec3) -> bool {
    shape.compound().is_some_and(|c| {
        let child = &c.children()[i];
        child.has_covered() && child.covered(x.rot.conjugate() * normal)
    })
}

/// Child pair `part`'s SAT cache from the pair's last computation (`caches`, set by the
/// caller), or none.
fn cached(caches: &[(u16, SatCache)], part: u16) -> SatCache {
    caches.iter().find(|c| c.0 == part).map_or(SatCache::Empty, |c| c.1)
}

/// A lower bound on the distance between anything in box `a` and anything in box `b`: the
/// largest gap between them along one axis (negative when they overlap). Both boxes in one
/// frame: a rigid motion keeps distances, so the bound holds in the world too.
fn box_gap(a: &Aabb, b: &Aabb) -> f32 {
    (a.min - b.max).max(b.min - a.max).max_element()
}

/// The manifolds of shapes `a` at `xa` and `b` at `xb`, either or both compounds
/// ([module docs](self)): the first into `out`, the others into `scratch.mesh_groups`, and
/// the pair's gap bound into `scratch.compound_gap`. `record`: the watched pair's record,
/// filled by the child pair that gives `out` (or, when none touches, the nearest one).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
pub(super) fn collide_compound(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    record: Option<&mut CollideRecord>,
) {
    let (na, nb) = (child_count(a), child_count(b));
    let mut found = std::mem::take(&mut scratch.compound_parts);
    found.clear();
    let mut caches = std::mem::take(&mut scratch.compound_caches_out);
    caches.clear();
    // The children's boxes in the frame of the body with more children: its own boxes as
    // they are, the other's few turned into it (a drum of 40 hulls against a cube turns
    // one box, not 40).
    let mut boxes = std::mem::take(&mut scratch.compound_boxes);
    boxes.clear();
    if na >= nb {
        let rel = Iso::relative(xa, xb);
        boxes.extend((0..na).map(|i| local_box(a, i)));
        boxes.extend((0..nb).map(|i| turned_box(b, i, &rel)));
    } else {
        let rel = Iso::relative(xb, xa);
        boxes.extend((0..na).map(|i| turned_box(a, i, &rel)));
        boxes.extend((0..nb).map(|i| local_box(b, i)));
    }
    let (boxes_a, boxes_b) = boxes.split_at(na);
    let box_b = boxes_b.iter().skip(1).fold(boxes_b[0], |u, b| u.union(b));
    let mut gap = f32::INFINITY;
    // The child pair with the least gap, for a watched pair that touches nowhere.
    let mut nearest = (f32::INFINITY, 0usize, 0usize);
    for (ia, child_box_a) in boxes_a.iter().enumerate() {
        let g = box_gap(child_box_a, &box_b);
        if g > cfg.margin {
            gap = gap.min(g);
            continue;
        }
        let (sa, pa) = child(a, ia);
        let xca = xa.mul(&pa);
        for (ib, child_box_b) in boxes_b.iter().enumerate() {
            if nb > 1 {
                let g = box_gap(child_box_a, child_box_b);
                if g > cfg.margin {
                    gap = gap.min(g);
                    continue;
                }
            }
            let (sb, pb) = child(b, ib);
            let xcb = xb.mul(&pb);
            let part = (ia * nb + ib) as u16;
            let mut cache = cached(&scratch.compound_caches, part);
            let mut m = Manifold::default();
            collide_recorded(sa, &xca, sb, &xcb, cfg, &mut cache, scratch, &mut m, None);
            if m.points.is_empty() {
                let g = Apart::capture(&m, Iso::relative(&xca, &xcb), &cache).gap;
                gap = gap.min(g);
                if g < nearest.0 {
                    nearest = (g, ia, ib);
                }
            } else {
                gap = 0.0;
                // Unless it is on a face inside the body, met edge-on across a seam: a ghost.
                if !(inner_face(a, ia, xa, m.normal) || inner_face(b, ib, xb, -m.normal)) {
                    m.part = part;
                    found.push(m);
                    caches.push(cache);
                }
            }
            for mut g in scratch.mesh_groups.drain(..) {
                g.part = part;
                found.push(g);
                caches.push(SatCache::Empty);
            }
        }
    }
    scratch.compound_boxes = boxes;
    scratch.compound_gap = if gap.is_finite() { gap.max(0.0) } else { 0.0 };
    if let Some(r) = record {
        // The record shows the child pair behind the pair's manifold (or the nearest one):
        // run again, recorded, it gives the same manifold.
        let (ia, ib) = match found.first() {
            Some(m) => part_children(b, m.part),
            None => (nearest.1, nearest.2),
        };
        let ((sa, pa), (sb, pb)) = (child(a, ia), child(b, ib));
        let mut m = Manifold::default();
        let mut cache = cached(&scratch.compound_caches, (ia * nb + ib) as u16);
        collide_recorded(sa, &xa.mul(&pa), sb, &xb.mul(&pb), cfg, &mut cache, scratch, &mut m, Some(r));
        scratch.mesh_groups.clear();
    }
    scratch.compound_caches.clear();
    scratch.compound_caches_out = caches;
    let mut rest = found.drain(..);
    match rest.next() {
        Some(first) => *out = first,
        None => out.clear(),
    }
    scratch.mesh_groups.extend(rest);
    scratch.compound_parts = found;
}
