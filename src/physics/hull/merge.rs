//! Merging coplanar triangles into convex polygon faces.
//!
//! Quickhull (and triangulated input) produces triangles; a box then has 12 faces instead
//! of 6, which doubles SAT work and makes contact clipping pick arbitrary half-faces.
//! We group neighbouring triangles whose vertices all lie within `tol` of the group's seed
//! plane (the largest triangle's plane, so errors cannot accumulate along a chain), take
//! each group's boundary loop as one polygon, and finally drop vertices left with only two
//! faces: such a vertex lies on the straight line where those two faces meet (Gregorius,
//! "Implementing Quickhull", GDC 2014: merge, then repair the topology).
//!
//! Limits: a group whose boundary is not one simple loop (possible only for wildly
//! degenerate input) is left as separate triangles.

use super::HullError;
use glam::DVec3;
use std::collections::HashMap;

/// Groups closed triangle-mesh faces into coplanar polygons. `tris` are counter-clockwise
/// from outside. Returns polygons as vertex-index loops.
pub fn merge_coplanar(points: &[DVec3], tris: &[[u32; 3]], tol: f64) -> Result<Vec<Vec<u32>>, HullError> {
    let mut edge_tri: HashMap<(u32, u32), usize> = HashMap::with_capacity(tris.len() * 3);
    for (ti, t) in tris.iter().enumerate() {
        for k in 0..3 {
            let e = (t[k], t[(k + 1) % 3]);
            if edge_tri.insert(e, ti).is_some() {
                return Err(HullError::BadTopology(format!(
                    "edge {}-{} is used twice in the same direction (faces wound inconsistently?)",
                    e.0, e.1
                )));
            }
        }
    }
    for &(a, b) in edge_tri.keys() {
        if !edge_tri.contains_key(&(b, a)) {
            return Err(HullError::BadTopology(format!("the surface is open at edge {a}-{b}")));
        }
    }
    let normal = |t: &[u32; 3]| {
        let (a, b, c) = (points[t[0] as usize], points[t[1] as usize], points[t[2] as usize]);
        (b - a).cross(c - a)
    };
    let mut order: Vec<usize> = (0..tris.len()).collect();
    let areas: Vec<f64> = tris.iter().map(|t| normal(t).length()).collect();
    order.sort_by(|&x, &y| areas[y].total_cmp(&areas[x]).then(x.cmp(&y)));

    let mut group = vec![usize::MAX; tris.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut queue = Vec::new();
    for &seed in &order {
        if group[seed] != usize::MAX {
            continue;
        }
        let gi = groups.len();
        let n = normal(&tris[seed]).normalize_or_zero();
        let d = n.dot(points[tris[seed][0] as usize]);
        let mut members = vec![seed];
        group[seed] = gi;
        queue.clear();
        queue.push(seed);
        while let Some(t) = queue.pop() {
            for k in 0..3 {
                let (a, b) = (tris[t][k], tris[t][(k + 1) % 3]);
                let nb = edge_tri[&(b, a)];
                if group[nb] != usize::MAX {
                    continue;
                }
                let on_plane = tris[nb].iter().all(|&v| (n.dot(points[v as usize]) - d).abs() <= tol);
                let facing = normal(&tris[nb]).dot(n) >= 0.0;
                if on_plane && facing && n != DVec3::ZERO {
                    group[nb] = gi;
                    members.push(nb);
                    queue.push(nb);
                }
            }
        }
        groups.push(members);
    }

    let mut polys: Vec<Vec<u32>> = Vec::with_capacity(groups.len());
    for (gi, members) in groups.iter().enumerate() {
        if members.len() == 1 {
            polys.push(tris[members[0]].to_vec());
            continue;
        }
        match boundary_loop(tris, members, &edge_tri, &group, gi) {
            Some(poly) => polys.push(poly),
            None => polys.extend(members.iter().map(|&t| tris[t].to_vec())),
        }
    }
    remove_two_face_vertices(&mut polys, points.len());
    Ok(polys)
}

/// The single boundary loop of a group of triangles, or `None` if it is not one simple loop.
fn boundary_loop(
    tris: &[[u32; 3]],
    members: &[usize],
    edge_tri: &HashMap<(u32, u32), usize>,
    group: &[usize],
    gi: usize,
) -> Option<Vec<u32>> {
    let mut next: HashMap<u32, u32> = HashMap::new();
    for &t in members {
        for k in 0..3 {
            let (a, b) = (tris[t][k], tris[t][(k + 1) % 3]);
            if group[edge_tri[&(b, a)]] != gi && next.insert(a, b).is_some() {
                return None;
            }
        }
    }
    let start = *next.keys().min()?;
    let mut poly = vec![start];
    let mut v = next[&start];
    while v != start {
        if poly.len() > next.len() {
            return None;
        }
        poly.push(v);
        v = *next.get(&v)?;
    }
    (poly.len() == next.len()).then_some(poly)
}

/// Drops vertices that belong to only two faces (they lie on the line where the faces meet).
fn remove_two_face_vertices(polys: &mut [Vec<u32>], vertex_count: usize) {
    let mut count = vec![0u32; vertex_count];
    for p in polys.iter() {
        for &v in p {
            count[v as usize] += 1;
        }
    }
    for p in polys.iter_mut() {
        if p.iter().filter(|&&v| count[v as usize] > 2).count() >= 3 {
            p.retain(|&v| count[v as usize] > 2);
        }
    }
}
