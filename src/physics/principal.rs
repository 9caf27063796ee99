//! Principal axes of an inertia tensor: the rotation `R` and moments `I₁ ≤ I₂ ≤ I₃` with
//! `I = R·diag(I₁, I₂, I₃)·Rᵀ`, by the cyclic Jacobi method (Golub & Van Loan §8.5) on the
//! symmetric 3×3 matrix, in f64.
//!
//! The rotation integrator ([`crate::physics::Body::integrate_rotation`]) splits a free
//! body's motion into turns about these axes; a body's axes are found once, when it is
//! made. Limits: for equal moments any orthonormal basis of their eigenspace is returned
//! (the integrator does not care which); a non-symmetric input is read by its upper
//! triangle.

use glam::{DMat3, DVec3, Mat3, Quat, Vec3};

/// Sweeps after which the off-diagonal part is far below f32 round-off (Jacobi converges
/// quadratically; a 3×3 needs 4–6 in practice).
const SWEEPS: usize = 12;

/// The principal frame of the symmetric matrix `m`: a unit quaternion whose rotation's
/// columns are the eigenvectors (right-handed), and the eigenvalues in ascending order.
pub fn principal_axes(m: Mat3) -> (Quat, Vec3) {
    let mut a = [[0.0f64; 3]; 3];
    for (i, row) in a.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            // Upper triangle, mirrored.
            let (r, c) = (i.min(j), i.max(j));
            *x = m.col(c)[r] as f64;
        }
    }
    let mut v = [[1.0f64, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
    for _ in 0..SWEEPS {
        let off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        let diag = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if off <= 1e-30 * diag || off == 0.0 {
            break;
        }
        for (p, q) in [(0, 1), (0, 2), (1, 2)] {
            if a[p][q] == 0.0 {
                continue;
            }
            // The rotation in the (p, q) plane that zeroes a[p][q] (the smaller angle).
            let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
            let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
            let c = 1.0 / (t * t + 1.0).sqrt();
            let s = t * c;
            for row in a.iter_mut() {
                let (akp, akq) = (row[p], row[q]);
                row[p] = c * akp - s * akq;
                row[q] = s * akp + c * akq;
            }
            let (rp, rq) = (a[p], a[q]);
            for k in 0..3 {
                a[p][k] = c * rp[k] - s * rq[k];
                a[q][k] = s * rp[k] + c * rq[k];
            }
            for row in v.iter_mut() {
                let (vp, vq) = (row[p], row[q]);
                row[p] = c * vp - s * vq;
                row[q] = s * vp + c * vq;
            }
        }
    }
    // Columns of v are the eigenvectors; sort them by eigenvalue.
    let mut order = [0usize, 1, 2];
    order.sort_by(|&i, &j| a[i][i].total_cmp(&a[j][j]));
    let col = |k: usize| DVec3::new(v[0][k], v[1][k], v[2][k]);
    let (x, y) = (col(order[0]), col(order[1]));
    // Right-handed: the third axis is the cross product (the sorted columns may be a
    // reflection).
    let r = DMat3::from_cols(x, y, x.cross(y));
    let moments = Vec3::new(a[order[0]][order[0]] as f32, a[order[1]][order[1]] as f32, a[order[2]][order[2]] as f32);
    (Quat::from_mat3(&r.as_mat3()).normalize(), moments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rebuilt(q: Quat, d: Vec3) -> Mat3 {
        let r = Mat3::from_quat(q);
        r * Mat3::from_diagonal(d) * r.transpose()
    }

    #[test]
    fn a_rotated_diagonal_tensor_gives_back_its_moments_and_itself() {
        for (k, d) in [Vec3::new(1.0, 2.0, 5.0), Vec3::new(0.02, 0.0102, 0.0102), Vec3::new(3.0, 3.0, 3.0)]
            .into_iter()
            .enumerate()
        {
            let r = Mat3::from_quat(Quat::from_euler(glam::EulerRot::XYZ, 0.3 + k as f32, -0.7, 1.1));
            let m = r * Mat3::from_diagonal(d) * r.transpose();
            let (q, e) = principal_axes(m);
            let mut want = d.to_array();
            want.sort_by(f32::total_cmp);
            for (got, want) in e.to_array().iter().zip(want) {
                assert!((got - want).abs() < 1e-6 * want, "{e:?} vs {want:?}");
            }
            let back = rebuilt(q, e);
            for c in 0..3 {
                assert!((back.col(c) - m.col(c)).abs().max_element() < 1e-6 * d.max_element(), "{back:?} vs {m:?}");
            }
            assert!((q.length() - 1.0).abs() < 1e-6);
        }
        assert_eq!(principal_axes(Mat3::from_diagonal(Vec3::new(5.0, 1.0, 2.0))).1, Vec3::new(1.0, 2.0, 5.0));
    }
}
