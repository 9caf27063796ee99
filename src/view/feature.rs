//! Contact feature IDs in words, for the inspector: the solver keys each contact point by
//! the features that made it (a packed `u64`, [`FeatureId`]); a student reads "edge 3 ×
//! side 7" more easily than `01_0003_0000_0007`. Traces keep the raw number.

use crate::physics::collide::FeatureId;

/// The features named by `id`, e.g. "vertex (edges 2–3)", "edge 5 × side 1", "edge 7–12".
///
/// Clip points (face contacts) are where two edges meet: two incident-face edges meet at an
/// incident vertex; an incident edge meets a reference side plane; two reference sides meet
/// at a reference-face corner. Edge–edge contacts name A's edge and B's edge. Edge numbers
/// are half-edge indices of each hull.
pub fn label(id: FeatureId) -> String {
    let v = id.0;
    let lo = (v & 0xFF_FFFF) as u32;
    let hi = ((v >> 24) & 0xFF_FFFF) as u32;
    match v >> 56 {
        FeatureId::CLIP => {
            let (in_ref, out_ref) = ((v >> 48) & 1 == 1, (v >> 49) & 1 == 1);
            match (in_ref, out_ref) {
                (false, false) => format!("vertex (edges {lo}–{hi})"),
                (false, true) => format!("edge {lo} × side {hi}"),
                (true, false) => format!("edge {hi} × side {lo}"),
                (true, true) => format!("corner (sides {lo}–{hi})"),
            }
        }
        FeatureId::EDGE => format!("edge {lo}–{hi}"),
        crate::physics::collide::mesh::MESH_ID => {
            let tri = v & 0xFFFF_FFFF;
            let index = (v >> 40) & 0xFFFF;
            match (v >> 32) & 0xFF {
                0 => format!("triangle {tri} × body vertex {index}"),
                1 => format!("triangle {tri}, corner {index}, inside the body"),
                2 => format!("triangle {tri}, edge {index}, crossing the body"),
                3 => format!("triangle {tri} × sphere"),
                4 => format!("triangle {tri} × capsule end {index}"),
                6 | 7 => format!("triangle {tri}, edge {index}, where it enters the body"),
                _ => format!("triangle {tri}, edge {index} × capsule segment"),
            }
        }
        FeatureId::ROUND if hi == 0 => format!("curved, point {lo}"),
        FeatureId::ROUND => format!("curved, point {lo}, feature {hi}"),
        _ => format!("feature {lo}–{hi}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_reads_as_words() {
        assert_eq!(label(FeatureId::clip(false, 2, false, 3, false)), "vertex (edges 2–3)");
        assert_eq!(label(FeatureId::clip(false, 5, true, 1, true)), "edge 5 × side 1");
        assert_eq!(label(FeatureId::clip(true, 1, false, 5, false)), "edge 5 × side 1");
        assert_eq!(label(FeatureId::clip(true, 4, true, 6, false)), "corner (sides 4–6)");
        assert_eq!(label(FeatureId::edge(7, 12)), "edge 7–12");
        assert_eq!(label(FeatureId::round(1, 0)), "curved, point 1");
        assert_eq!(label(FeatureId::round(0, 9)), "curved, point 0, feature 9");
        let mesh = |tri: u64, what: u64, index: u64| FeatureId(tri | (what << 32) | (index << 40) | (4 << 56));
        assert_eq!(label(mesh(86, 0, 3)), "triangle 86 × body vertex 3");
        assert_eq!(label(mesh(7, 2, 1)), "triangle 7, edge 1, crossing the body");
    }
}
