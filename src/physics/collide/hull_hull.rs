//! Hull–hull contact manifolds: SAT with the per-pair cache, then face clipping; an edge
//! pair's two faces are clipped along its axis (one point where they are too steep to it).
//! A face contact must realise the shapes' overlap (its deepest point within half the slop
//! of the best separation over every axis): where clipping cut the incident hull's deepest
//! vertex away (it lies past the reference face's edge) and kept only points still apart
//! while the hulls overlap edge across edge, the best edge pair is the contact instead,
//! and the face's points only where the edge pair does not realise its axis either. Not
//! where the hulls only touch: a best separation zero to rounding ([`TOUCH_ROUNDING`])
//! whose face contact kept nothing, with the best edge pair far more separated, is no
//! contact (read at margin 0, two resting hulls got a 48 mm point along such a pair). A
//! cached face is kept while its contact realises the face's own separation. See the
//! [module overview](super) for the pipeline.

use super::clip::{clip_polygon, reduce_to_four, ClipRecord, ClipVertex};
use super::sat::{
    cached_edge_separation, cached_face_separation, cached_face_separation_b, edge_of, query_edges, sat_culled, Axis,
    EdgeQuery, SatCache, SatResult,
};
use super::{CollideConfig, CollideRecord, ContactKind, ContactPoint, FeatureId, Manifold, PairPath, Scratch};
use crate::physics::hull::Hull;
use crate::physics::math::{closest_points_segments, Iso};

/// Contact manifold of two hulls; uses and updates the pair's `cache`. With `record`, the
/// path taken, the SAT result and the clip stages of a face contact are recorded
/// ([`CollideRecord`]).
#[allow(clippy::too_many_arguments)]
pub fn collide_hulls(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    xb: &Iso,
    cfg: &CollideConfig,
    cache: &mut SatCache,
    scratch: &mut Scratch,
    out: &mut Manifold,
    mut record: Option<&mut CollideRecord>,
) {
    out.clear();
    if let Some(r) = record.as_deref_mut() {
        r.begin(*cache);
    }
    let pair = Pair { a, xa, b, xb, rel: Iso::relative(xa, xb), cfg };
    let path = |p: PairPath, record: &mut Option<&mut CollideRecord>| {
        if let Some(r) = record.as_deref_mut() {
            r.path = p;
        }
    };
    let reuse = |s: f32, s0: f32| s0 <= cfg.margin && (s - s0).abs() < 0.5 * cfg.slop;
    match *cache {
        SatCache::Empty => {}
        SatCache::FaceA { face, separation } | SatCache::FaceB { face, separation } => {
            let flipped = matches!(*cache, SatCache::FaceB { .. });
            let s = pair.face_separation(face, flipped);
            if s > cfg.margin {
                *cache = SatCache::face(face, s, flipped);
                return path(PairPath::CachedAxisSeparates, &mut record);
            }
            // A cached face whose contact no longer realises its separation: the full SAT
            // below decides.
            if reuse(s, separation) {
                let depth = pair.face(face, flipped, scratch, out, &mut record);
                if realises(out, depth, cfg) {
                    return path(PairPath::CachedFeature, &mut record);
                }
            }
        }
        SatCache::Edge { edge_a, edge_b, separation } => {
            if let Some(s) = cached_edge_separation(a, edge_a, b, edge_b, &pair.rel) {
                if s > cfg.margin {
                    // Kept as the face case keeps its separation: the pair's gap now
                    // (`Apart::capture`), and no cached feature is reused from so far apart.
                    *cache = SatCache::Edge { edge_a, edge_b, separation: s };
                    return path(PairPath::CachedAxisSeparates, &mut record);
                }
                if reuse(s, separation) {
                    pair.edge(edge_a, edge_b, s, scratch, out, &mut record);
                    if !out.points.is_empty() {
                        return path(PairPath::CachedFeature, &mut record);
                    }
                }
            }
        }
    }

    let r = match (&a.cuboid, &b.cuboid) {
        (Some(ca), Some(cb)) => super::sat_box::sat_boxes(ca, cb, &pair.rel, cfg.margin),
        _ => sat_culled(a, b, &pair.rel, cfg.margin, &mut scratch.edges_b),
    };
    path(PairPath::FullSat, &mut record);
    *cache = pair.contact_from_sat(&r, scratch, out, &mut record);
}

/// The contact a SAT's result `r` gives two hulls, written to `out` (empty when `r` found
/// them separated), with the axis it was built on in `record`; returns what the pair's
/// cache keeps. The rule [`collide_hulls`] applies after its full SAT, and the debug
/// record's ([`crate::physics::debug::sat_record`]) on its own SAT without early exits.
#[allow(clippy::too_many_arguments)]
pub fn contact_from_sat(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    xb: &Iso,
    r: &SatResult,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    mut record: Option<&mut CollideRecord>,
) -> SatCache {
    Pair { a, xa, b, xb, rel: Iso::relative(xa, xb), cfg }.contact_from_sat(r, scratch, out, &mut record)
}

/// Overlap below which two hulls are taken to touch rather than overlap, per metre of the
/// farther one's distance from the origin (at least 1 m): f32 poses round to about 10⁻⁷ of
/// their size, and a face's separation read two ways differs by that much.
pub const TOUCH_ROUNDING: f32 = 1e-6;

/// One hull pair as [`collide_hulls`] sees it: the hulls, their poses, B's pose in A's
/// frame and the collision settings.
struct Pair<'h> {
    a: &'h Hull,
    xa: &'h Iso,
    b: &'h Hull,
    xb: &'h Iso,
    rel: Iso,
    cfg: &'h CollideConfig,
}

impl Pair<'_> {
    /// The separation along face `face` of A, or of B where `flipped`.
    fn face_separation(&self, face: u32, flipped: bool) -> f32 {
        if flipped {
            cached_face_separation_b(self.a, self.b, face, &self.rel)
        } else {
            cached_face_separation(self.a, face, self.b, &self.rel)
        }
    }

    /// [`face_contact_on`], its clip recorded.
    fn face(
        &self,
        face: u32,
        flipped: bool,
        scratch: &mut Scratch,
        out: &mut Manifold,
        record: &mut Option<&mut CollideRecord>,
    ) -> f32 {
        face_contact_on(self.a, self.xa, self.b, self.xb, face, flipped, self.cfg, scratch, out, clip_of(record))
    }

    /// The contact of edges `ea` and `eb`, measured at `separation` ([`edge_contact`]; the
    /// record says whether it clipped).
    fn edge(
        &self,
        ea: u32,
        eb: u32,
        separation: f32,
        scratch: &mut Scratch,
        out: &mut Manifold,
        record: &mut Option<&mut CollideRecord>,
    ) {
        let (a, xa, b, xb) = (self.a, self.xa, self.b, self.xb);
        let clipped = edge_contact(a, xa, b, xb, ea, eb, separation, self.cfg, scratch, out, edge_clip(record));
        set_clipped(record, clipped);
    }

    /// [`contact_from_sat`].
    fn contact_from_sat(
        &self,
        r: &SatResult,
        scratch: &mut Scratch,
        out: &mut Manifold,
        record: &mut Option<&mut CollideRecord>,
    ) -> SatCache {
        out.clear();
        let cfg = self.cfg;
        let set_axis = |record: &mut Option<&mut CollideRecord>, axis: Axis| {
            if let Some(rec) = record.as_deref_mut() {
                rec.axis = Some(axis);
            }
        };
        if let Some(rec) = record.as_deref_mut() {
            // What an attempt on the cached feature recorded is not this contact's.
            (rec.sat, rec.axis, rec.clipped) = (Some(*r), None, false);
        }
        if r.separated {
            return if r.face_a.separation > cfg.margin {
                SatCache::FaceA { face: r.face_a.face, separation: r.face_a.separation }
            } else if r.face_b.separation > cfg.margin {
                SatCache::FaceB { face: r.face_b.face, separation: r.face_b.separation }
            } else {
                edge_cache(&r.edge)
            };
        }
        let (f, flipped) = match r.choose(cfg) {
            Axis::FaceA(f) => (f, false),
            Axis::FaceB(f) => (f, true),
            Axis::Edge(e) => {
                self.edge(e.edge_a, e.edge_b, e.separation, scratch, out, record);
                if !out.points.is_empty() {
                    set_axis(record, Axis::Edge(e));
                    return edge_cache(&e);
                }
                // The edge pair does not realise the separation the query measured
                // (`edge_contact`): the best face instead.
                r.best_face(cfg)
            }
        };
        set_axis(record, if flipped { Axis::FaceB(f) } else { Axis::FaceA(f) });
        let face_cache = SatCache::face(f.face, f.separation, flipped);
        // The face contact must realise the shapes' overlap (the best separation over every
        // axis): where the face's deepest vertex dips past the face's edge it measures more
        // than the overlap, and the clipped points, over the face, are the contact (a box
        // overhanging the one below).
        self.face(f.face, flipped, scratch, out, record);
        if realises(out, -r.separation(), cfg) {
            return face_cache;
        }
        // The face contact clipped away to nothing, or to points apart where the shapes
        // overlap (edge across edge, past the face's edge): the best edge pair instead (all
        // of them, since the culled query may have skipped it).
        let e = if r.edge.separation.is_finite() {
            r.edge
        } else {
            query_edges(self.a, self.b, &self.rel, f32::INFINITY, &mut scratch.edges_b)
        };
        if !e.separation.is_finite() {
            return face_cache;
        }
        // Touching, not overlapping: the best face's separation is zero to rounding, and its
        // one vertex, read again through the clip, fell just outside a zero margin. An edge
        // pair separated by far more than the shapes overlap is no contact of theirs (two
        // resting hulls read at margin 0 got a 48 mm point along one).
        let rounding = TOUCH_ROUNDING * self.xa.pos.length().max(self.xb.pos.length()).max(1.0);
        if out.points.is_empty() && r.separation() > -rounding && e.separation < r.separation() - 0.5 * cfg.slop {
            return face_cache;
        }
        let face_had_points = !out.points.is_empty();
        self.edge(e.edge_a, e.edge_b, e.separation, scratch, out, record);
        if !out.points.is_empty() {
            set_axis(record, Axis::Edge(e));
            return edge_cache(&e);
        }
        if face_had_points {
            // Neither realises its axis: the face contact's points, as they were.
            self.face(f.face, flipped, scratch, out, record);
            return face_cache;
        }
        edge_cache(&e)
    }
}

/// The clip record inside `record`, marked as filled by this call.
fn clip_of<'r>(record: &'r mut Option<&mut CollideRecord>) -> Option<&'r mut ClipRecord> {
    record.as_deref_mut().map(|r| {
        r.clipped = true;
        &mut r.clip
    })
}

/// The clip record inside `record` for an edge contact, which marks it filled itself only
/// when it clipped ([`set_clipped`]).
fn edge_clip<'r>(record: &'r mut Option<&mut CollideRecord>) -> Option<&'r mut ClipRecord> {
    record.as_deref_mut().map(|r| &mut r.clip)
}

fn set_clipped(record: &mut Option<&mut CollideRecord>, clipped: bool) {
    if let Some(r) = record.as_deref_mut() {
        r.clipped = clipped;
    }
}

fn edge_cache(e: &EdgeQuery) -> SatCache {
    SatCache::Edge { edge_a: e.edge_a, edge_b: e.edge_b, separation: e.separation }
}

/// Index of the face of `inc` most anti-parallel to `n` (given in `inc`'s frame): the first
/// face, in index order, of the smallest `normal · n` (face 0 if none compares).
///
/// One scan over the faces, kept as four running minima (faces `i ≡ 0, 1, 2, 3 mod 4`) so
/// that the compare-and-keep steps do not wait on each other; the four are merged on
/// (`normal · n`, index), which picks the same face as a single running minimum (ties go to
/// the lower index; tested against the plain scan, ties included).
pub fn incident_face(inc: &Hull, n: glam::Vec3) -> u32 {
    let mut best = [(u32::MAX, f32::MAX); 4];
    for (i, f) in inc.faces.iter().enumerate() {
        let d = f.normal.dot(n);
        let lane = &mut best[i % 4];
        if d < lane.1 {
            *lane = (i as u32, d);
        }
    }
    let mut out = best[0];
    for b in &best[1..] {
        if b.1 < out.1 || (b.1 == out.1 && b.0 < out.0) {
            out = *b;
        }
    }
    if out.0 == u32::MAX {
        0
    } else {
        out.0
    }
}

/// The incident face for reference normal `n` (in `inc`'s frame): the face most
/// anti-parallel to `n` among those around `inc`'s deepest vertex along `n` (its support
/// along `−n`), ties to the lower index.
///
/// **Why not simply the most anti-parallel face.** On an irregular hull that face need not
/// hold the deepest vertex (a long sliver face can point more nearly along `−n` than any
/// face at the lowest corner). Clipping it then keeps its own corners, shallower but within
/// the speculative margin, and the manifold never holds the deepest point: a hull of the
/// hull pile rested with a vertex 27 mm in the ground, its manifold reading 0.5 mm
/// (`a_face_contact_holds_the_hulls_deepest_vertex`). A face around the deepest vertex
/// always holds it. On a box the most anti-parallel face always does (the deepest corner
/// has the signs of `−n` on every axis, so it lies on each face whose normal shares them),
/// and boxes keep the plain scan, [`incident_face`], which then picks the same face.
pub fn incident_face_at_support(inc: &Hull, n: glam::Vec3) -> u32 {
    if inc.cuboid.is_some() {
        return incident_face(inc, n);
    }
    let mut best = (u32::MAX, f32::MAX);
    for f in inc.vertex_faces(inc.support(-n)) {
        let d = inc.faces[f as usize].normal.dot(n);
        if d < best.1 || (d == best.1 && f < best.0) {
            best = (f, d);
        }
    }
    if best.0 == u32::MAX {
        // `n` is not finite: no face compares.
        incident_face(inc, n)
    } else {
        best.0
    }
}

/// The face contact on face `face` of A, or of B where `flipped` ([`face_contact`] with
/// the hulls in that order); returns the depth the face's own separation gives.
#[allow(clippy::too_many_arguments)]
pub fn face_contact_on(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    xb: &Iso,
    face: u32,
    flipped: bool,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    clip: Option<&mut ClipRecord>,
) -> f32 {
    if flipped {
        face_contact(b, xb, a, xa, face, true, cfg, scratch, out, clip)
    } else {
        face_contact(a, xa, b, xb, face, false, cfg, scratch, out, clip)
    }
}

/// Face contact with reference face `ref_face` of `rh`; `flipped` when the reference hull
/// is B (the normal then points from B's face towards A, so it is negated).
///
/// Returns the depth of the incident hull's deepest vertex under the reference face (the
/// face's separation, negated). Where that vertex lies past the reference face's edge,
/// clipping keeps only the incident face's part over the face: the contact of a box
/// overhanging the one below, or points still apart by centimetres while the hulls
/// overlap elsewhere, edge across edge; [`collide_hulls`] tells the two apart.
#[allow(clippy::too_many_arguments)]
pub fn face_contact(
    rh: &Hull,
    rx: &Iso,
    ih: &Hull,
    ix: &Iso,
    ref_face: u32,
    flipped: bool,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    mut debug: Option<&mut ClipRecord>,
) -> f32 {
    out.clear();
    let rel = Iso::relative(rx, ix);
    let face = rh.faces[ref_face as usize];
    let n = face.normal;
    let inc = incident_face_at_support(ih, rel.inv_transform_vector(n));

    incident_polygon(ih, &rel, inc, &mut scratch.poly);
    let poly = &scratch.poly;
    // The incident face holds the hull's deepest vertex along −n, which realises the face's
    // separation (see `incident_face_at_support`).
    let mut deepest: Option<ClipVertex> = None;
    for v in poly {
        let depth = face.offset - n.dot(v.p);
        if deepest.is_none_or(|d| depth > d.depth) {
            deepest = Some(ClipVertex { depth, ..*v });
        }
    }
    if let Some(d) = debug.as_deref_mut() {
        d.begin(flipped, ref_face, inc);
        d.reference_polygon
            .extend(rh.face_vertices(ref_face as usize).map(|v| rx.transform_point(rh.vertices[v as usize])));
        d.incident_polygon.extend(poly.iter().map(|v| rx.transform_point(v.p)));
    }

    clip_by_side_planes(rh, rx, ref_face, n, scratch, debug.as_deref_mut());

    let poly = &mut scratch.poly;
    for v in poly.iter_mut() {
        v.depth = face.offset - n.dot(v.p);
    }
    poly.retain(|v| v.depth >= -cfg.margin);
    // Deep, skewed overlaps can clip the incident face away entirely: its deepest vertex
    // is then the contact.
    let separation_depth = deepest.map_or(f32::NEG_INFINITY, |v| v.depth);
    if let Some(v) = deepest.filter(|v| poly.is_empty() && v.depth >= -cfg.margin) {
        poly.push(v);
    }
    if let Some(d) = debug.as_deref_mut() {
        d.kept.extend(poly.iter().map(|v| (rx.transform_point(v.p + n * (0.5 * v.depth)), v.depth)));
    }
    let keep = reduce_to_four(poly, n, cfg.slop);
    let wn = rx.transform_vector(n);
    out.normal = if flipped { -wn } else { wn };
    out.kind = if flipped { ContactKind::FaceB } else { ContactKind::FaceA };
    for &i in &keep {
        let v = &poly[i];
        out.points.push(ContactPoint {
            position: rx.transform_point(v.p + n * (0.5 * v.depth)),
            depth: v.depth,
            id: FeatureId::clip(v.in_ref, v.in_edge, v.out_ref, v.out_edge, flipped),
        });
    }
    if let Some(d) = debug {
        d.reduced.extend(out.points.iter().map(|p| p.position));
    }
    separation_depth
}

/// Whether manifold `m` holds a point as deep as `depth`, within half the slop.
pub fn realises(m: &Manifold, depth: f32, cfg: &CollideConfig) -> bool {
    !m.points.is_empty() && m.max_depth() >= depth - 0.5 * cfg.slop
}

/// The contact of edges `ea` (of A) and `eb` (of B), whose axis the SAT measured at
/// separation `expected`: the two edges' faces clipped along the axis
/// (`clip_edge_faces`, recorded in `debug`; returns true), or where that cannot be done,
/// one point halfway between the edges' closest points (returns false).
///
/// No point (`out` left empty) unless the pair realises that separation here: within half
/// the slop of `expected`, and with the two edges the shapes' supports along the axis.
/// The axis is the cross product of the edges' directions (`Hull::axes`, as the query takes
/// them). When the direction of a very short edge (a hull of nearly duplicate points: edges
/// of 10⁻⁷ m) was still taken between its ends moved into the frame of a body tens of
/// metres away, it was mostly rounding, the query and this call computed different axes,
/// and the contact took a depth the faces never had — tilted 14° off the ground's normal,
/// whose 100 m half-width made it 24.8 m deep (found by the fuzzer; the naive projection
/// then lifted a 10 kg hull 10 m). This check stays: it also holds when an edge pair's
/// axis is not the one the query measured for any other reason.
#[allow(clippy::too_many_arguments)]
pub fn edge_contact(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    xb: &Iso,
    ea: u32,
    eb: u32,
    expected: f32,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    debug: Option<&mut ClipRecord>,
) -> bool {
    out.clear();
    let rel = Iso::relative(xa, xb);
    let (pa, dir_a, ..) = edge_of(a, ea as usize);
    let qa = a.vertices[a.target(ea) as usize];
    let pb = rel.transform_point(b.vertices[b.edges[eb as usize].origin as usize]);
    let qb = rel.transform_point(b.vertices[b.target(eb) as usize]);
    // B's direction as the query takes it (`Hull::axes`, `sat::edge_in_frame`).
    let dir_b = rel.transform_vector(b.axes[eb as usize / 2]);
    let Some((sep, n)) = super::sat::edge_separation(pa, dir_a, pb, dir_b, a.centroid) else { return false };
    if sep > cfg.margin {
        return false;
    }
    let tolerance = 0.5 * cfg.slop;
    let support_b = rel.transform_point(b.vertices[b.support(rel.inv_transform_vector(-n)) as usize]);
    let support_a = a.vertices[a.support(n) as usize];
    if (sep - expected).abs() > tolerance || sep - n.dot(support_b - support_a) > tolerance {
        return false;
    }
    out.normal = xa.transform_vector(n);
    out.kind = ContactKind::Edge;
    if edge_faces_contact(a, xa, b, &rel, ea, eb, n, cfg, scratch, out, debug) {
        return true;
    }
    let (ca, cb, _, _) = closest_points_segments(pa, qa, pb, qb);
    out.points.push(ContactPoint {
        position: xa.transform_point(0.5 * (ca + cb)),
        depth: -sep,
        id: FeatureId::edge(ea, eb),
    });
    false
}

/// The edge pair's faces clipped along the edge axis `n` (A's frame, from A to B) into
/// `out` (normal and kind already set); false, with nothing written, when that cannot be
/// done (see [`clip_edge_faces`]). With `debug`, a successful clip is run once more to
/// record its stages, so a record is never left half written by a clip that failed.
#[allow(clippy::too_many_arguments)]
fn edge_faces_contact(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    rel: &Iso,
    ea: u32,
    eb: u32,
    n: glam::Vec3,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    debug: Option<&mut ClipRecord>,
) -> bool {
    if !clip_edge_faces(a, xa, b, rel, (ea, eb), n, cfg, scratch, out, None) {
        return false;
    }
    if let Some(d) = debug {
        out.points.clear();
        clip_edge_faces(a, xa, b, rel, (ea, eb), n, cfg, scratch, out, Some(d));
    }
    true
}

/// Smallest cosine between the edge axis and the faces an edge contact clips: a face more
/// than 60° off the axis makes the gaps along the axis sensitive to rounding (they are the
/// plane gaps divided by that cosine), and the contact keeps its single point instead.
pub const EDGE_FACE_MIN_COS: f32 = 0.5;

/// An edge contact's points, as parry's polygonal features and Box3D's face clipping give
/// them: A's face beside `ea` that faces `n` most (the reference face) and B's face beside
/// `eb` that faces `−n` most (the incident face), projected along `n` onto each other.
///
/// The incident polygon is clipped by the planes that contain the reference face's edges
/// and the axis `n`; each corner left takes the gap along `n` from the incident face up to
/// the reference face's plane, and those within the margin are kept and reduced to four.
/// The two edges' crossing is one of the corners, at the edge pair's separation; no corner
/// is deeper, since the two faces are the shapes' surfaces facing each other along `n`
/// wherever both project. A lone edge pair (two ridges crossed at an angle) keeps one
/// point: the other corners lie beyond the margin. Nearly parallel faces (the SAT chose
/// the edge pair over faces by its tolerance) keep the corners that hold the pair up, where
/// a single point would let it roll.
///
/// False when a face is steeper than [`EDGE_FACE_MIN_COS`] allows or nothing is kept.
#[allow(clippy::too_many_arguments)]
fn clip_edge_faces(
    a: &Hull,
    xa: &Iso,
    b: &Hull,
    rel: &Iso,
    (ea, eb): (u32, u32),
    n: glam::Vec3,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
    mut debug: Option<&mut ClipRecord>,
) -> bool {
    // The face beside half-edge `e` of `h` whose normal has the largest dot with `dir`.
    let beside = |h: &Hull, e: u32, dir: glam::Vec3| {
        let (f0, f1) = (h.edges[e as usize].face, h.edges[e as usize ^ 1].face);
        let (c0, c1) = (h.faces[f0 as usize].normal.dot(dir), h.faces[f1 as usize].normal.dot(dir));
        if c1 > c0 {
            (f1, c1)
        } else {
            (f0, c0)
        }
    };
    let (fa, cos_a) = beside(a, ea, n);
    let (fb, cos_b) = beside(b, eb, rel.inv_transform_vector(-n));
    if cos_a < EDGE_FACE_MIN_COS || cos_b < EDGE_FACE_MIN_COS {
        return false;
    }
    incident_polygon(b, rel, fb, &mut scratch.poly);
    if let Some(d) = debug.as_deref_mut() {
        d.begin(false, fa, fb);
        d.edge_axis = Some(xa.transform_vector(n));
        d.reference_polygon.extend(a.face_vertices(fa as usize).map(|v| xa.transform_point(a.vertices[v as usize])));
        d.incident_polygon.extend(scratch.poly.iter().map(|v| xa.transform_point(v.p)));
    }
    if !clip_by_side_planes(a, xa, fa, n, scratch, debug.as_deref_mut()) {
        return false;
    }
    let face = a.faces[fa as usize];
    let poly = &mut scratch.poly;
    for v in poly.iter_mut() {
        v.depth = (face.offset - face.normal.dot(v.p)) / cos_a;
    }
    poly.retain(|v| v.depth >= -cfg.margin);
    if let Some(d) = debug.as_deref_mut() {
        d.kept.extend(poly.iter().map(|v| (xa.transform_point(v.p + n * (0.5 * v.depth)), v.depth)));
    }
    if poly.is_empty() {
        return false;
    }
    for &i in &reduce_to_four(poly, n, cfg.slop) {
        let v = &poly[i];
        out.points.push(ContactPoint {
            position: xa.transform_point(v.p + n * (0.5 * v.depth)),
            depth: v.depth,
            id: FeatureId::clip(v.in_ref, v.in_edge, v.out_ref, v.out_edge, false),
        });
    }
    if let Some(d) = debug {
        d.reduced.extend(out.points.iter().map(|p| p.position));
    }
    true
}

/// Clips `scratch.poly` (in `h`'s frame) by the side planes of `h`'s face `f`: one plane
/// per edge of the face, through the edge and containing `along` — the face's own normal
/// for a face contact, an edge contact's axis for its clip. `edge × along` points out of
/// the face as `edge × n_face` does (their dot is |edge|²·(along·n_face), positive while
/// `along` leans the face's way). With `debug`, each stage is recorded in world space
/// (`x`: `h`'s pose). False when the polygon is clipped away (the planes after that are
/// not applied).
fn clip_by_side_planes(
    h: &Hull,
    x: &Iso,
    f: u32,
    along: glam::Vec3,
    scratch: &mut Scratch,
    mut debug: Option<&mut ClipRecord>,
) -> bool {
    for re in h.face_edges(f as usize) {
        let p = h.vertices[h.edges[re as usize].origin as usize];
        let q = h.vertices[h.target(re) as usize];
        clip_polygon(&scratch.poly, (q - p).cross(along), p, re, &mut scratch.poly_tmp);
        std::mem::swap(&mut scratch.poly, &mut scratch.poly_tmp);
        if let Some(d) = debug.as_deref_mut() {
            d.push_stage(scratch.poly.iter().map(|v| x.transform_point(v.p)));
        }
        if scratch.poly.is_empty() {
            return false;
        }
    }
    true
}

/// The vertices of `h`'s face `f` moved by `rel`, as clip vertices named by their edges.
fn incident_polygon(h: &Hull, rel: &Iso, f: u32, poly: &mut Vec<ClipVertex>) {
    poly.clear();
    let first = h.faces[f as usize].edge;
    let mut prev = first;
    while h.edges[prev as usize].next != first {
        prev = h.edges[prev as usize].next;
    }
    let mut e = first;
    loop {
        poly.push(ClipVertex {
            p: rel.transform_point(h.vertices[h.edges[e as usize].origin as usize]),
            depth: 0.0,
            in_ref: false,
            in_edge: prev,
            out_ref: false,
            out_edge: e,
        });
        prev = e;
        e = h.edges[e as usize].next;
        if e == first {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::incident_face;
    use crate::physics::hull::{builders::SplitMix64, Hull};
    use glam::Vec3;

    /// The plain scan: one running minimum, the first face of the smallest `normal · n`.
    fn scan(h: &Hull, n: Vec3) -> u32 {
        let mut best = (0, f32::MAX);
        for (i, f) in h.faces.iter().enumerate() {
            let d = f.normal.dot(n);
            if d < best.1 {
                best = (i as u32, d);
            }
        }
        best.0
    }

    #[test]
    fn incident_face_is_the_plain_scans_face_ties_included() {
        let mut hulls = vec![
            Hull::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap(),
            Hull::prism(0.5, 0.2, 7).unwrap(),
            Hull::geodesic_sphere(1.0, 1).unwrap(),
        ];
        hulls.extend((0..20).map(|s| Hull::random(20 + s as usize, 0.5, s).unwrap()));
        // The 26 directions of {−1, 0, 1}³ tie two or three of a box's faces (and of the
        // prism's caps and sides); zero ties every face, NaN none.
        let mut dirs: Vec<Vec3> = Vec::new();
        for x in -1..=1 {
            for y in -1..=1 {
                for z in -1..=1 {
                    dirs.push(Vec3::new(x as f32, y as f32, z as f32));
                }
            }
        }
        dirs.push(Vec3::NAN);
        let mut rng = SplitMix64(7);
        dirs.extend((0..500).map(|_| Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0));
        let mut ties = 0;
        for h in &hulls {
            for &n in &dirs {
                let d: Vec<f32> = h.faces.iter().map(|f| f.normal.dot(n)).collect();
                let min = d.iter().copied().fold(f32::MAX, f32::min);
                ties += (d.iter().filter(|&&x| x == min).count() > 1) as usize;
                assert_eq!(incident_face(h, n), scan(h, n), "{} faces, n = {n}", h.faces.len());
            }
        }
        println!("{} hulls × {} directions, {ties} with tied faces", hulls.len(), dirs.len());
        assert!(ties >= 40, "the directions must tie faces: {ties}");
    }

    /// A hull resting on a large box at random turns and depths: the face contact's deepest
    /// point is the hull's lowest vertex (brute force over the vertices), whatever the face
    /// most anti-parallel to the normal is. A random hull's most anti-parallel face need not
    /// hold its lowest vertex; clipping that face alone lost a vertex 27 mm into the ground
    /// of the hull pile, kept the face's own corners (within the 2 cm margin), and the body
    /// rested there.
    #[test]
    fn a_face_contact_holds_the_hulls_deepest_vertex() {
        use super::super::{collide, CollideConfig, Manifold, SatCache, Scratch};
        use crate::physics::{math::Iso, Shape};
        use glam::Quat;
        let ground = Shape::cuboid(Vec3::new(20.0, 0.5, 20.0)).unwrap();
        let xg = Iso::new(Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY);
        let cfg = CollideConfig::default();
        let (mut scratch, mut m) = (Scratch::default(), Manifold::default());
        let mut rng = SplitMix64(11);
        let (mut cases, mut worst) = (0, 0.0f32);
        for seed in 0..60 {
            let hull = Hull::random(32, 0.5, seed).unwrap();
            let shape = Shape::Hull(std::sync::Arc::new(hull.clone()));
            for _ in 0..100 {
                let axis = (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0).normalize();
                let rot = Quat::from_axis_angle(axis, rng.next_f32() * std::f32::consts::TAU);
                let depth = 0.03 * rng.next_f32() - 0.01;
                let lowest = hull.vertices.iter().map(|&v| (rot * v).y).fold(f32::MAX, f32::min);
                let xh = Iso::new(Vec3::new(0.0, -lowest - depth, 0.0), rot);
                let mut cache = SatCache::Empty;
                collide(&ground, &xg, &shape, &xh, &cfg, &mut cache, &mut scratch, &mut m);
                // The deepest vertex below the ground's top (y = 0), by brute force.
                let deepest = hull.vertices.iter().map(|&v| -xh.transform_point(v).y).fold(f32::MIN, f32::max);
                assert!(m.normal.y > 0.999, "the ground's face is the axis: {:?}", m.normal);
                let got = m.max_depth();
                worst = worst.max((got - deepest).abs());
                assert!((got - deepest).abs() < 1e-4, "seed {seed}: deepest vertex {deepest}, manifold {got}");
                cases += 1;
            }
        }
        println!("{cases} poses, largest depth error {worst:e} m");
    }
}
