//! The tangent bundle TS² = {(q, ω) ∈ ℝ³ × ℝ³ : |q| = 1, q·ω = 0}.

use crate::action::ManifoldPoint;
use crate::error::HomogeneousError;
use crate::sphere::{Sphere2, check_unit, normalized};
use liegroup::scalar::re;
use nalgebra::{RealField, Vector3, Vector6};

/// The relative tolerance of [`TangentSphere2::try_new`] on tangency: `(q, ω)` is accepted when
/// `|q·ω| ≤ 10⁻¹⁰ · |ω|` (and `||q| − 1| ≤` [`SPHERE_TOLERANCE`](crate::SPHERE_TOLERANCE)).
///
/// Relative to `|ω|`, because tangency is a statement about the direction of ω: the test is
/// invariant under scaling ω. `ω = 0` is always tangent.
pub const TANGENCY_TOLERANCE: f64 = 1e-10;

/// A point `(q, ω)` of the tangent bundle of the unit sphere,
/// `TS² = {(q, ω) : |q| = 1, q·ω = 0}` (ω is the angular velocity of a pendulum link, with
/// `q̇ = ω × q`).
///
/// **Ambient coordinates** (as [`ManifoldPoint`]): `(q₁, q₂, q₃, ω₁, ω₂, ω₃)`; tangent vectors
/// `(q̇, ω̇) ∈ ℝ⁶` in the same order. SE(3) acts on TS² by the restriction of its adjoint action
/// ([`TangentSphereAction`](crate::TangentSphereAction)), `(q, ω)` being the se(3) element with
/// rotation part `q` and translation part `ω` (rotation first) \[CCLMO22, §5.1\].
///
/// The stored vectors are the ones given (within the tolerances), not projected.
///
/// # Example
/// ```
/// use homogeneous::{HomogeneousError, TangentSphere2};
/// use nalgebra::Vector3;
/// let x = TangentSphere2::try_new(Vector3::z(), Vector3::new(0.5, -1.0, 0.0))?;
/// assert_eq!(x.omega().y, -1.0);
/// // ω with a normal component: rejected with q·ω …
/// let bad = TangentSphere2::try_new(Vector3::z(), Vector3::new(0.0, 1.0, 0.1));
/// assert!(matches!(bad, Err(HomogeneousError::NotTangent { .. })));
/// // … unless projected explicitly:
/// let y = TangentSphere2::new_projected(Vector3::new(0.0, 0.0, 2.0), Vector3::new(0.0, 1.0, 0.1))?;
/// assert_eq!(*y.omega(), Vector3::new(0.0, 1.0, 0.0));
/// # Ok::<(), HomogeneousError>(())
/// ```
#[doc(alias = "TS^2")]
#[doc(alias = "TS2")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TangentSphere2<T: RealField + Copy = f64> {
    q: Vector3<T>,
    omega: Vector3<T>,
}

impl<T: RealField + Copy> TangentSphere2<T> {
    /// The point `(q, ω)`, checked: all entries finite, `||q| − 1| ≤`
    /// [`SPHERE_TOLERANCE`](crate::SPHERE_TOLERANCE) and `|q·ω| ≤`
    /// [`TANGENCY_TOLERANCE`]` · |ω|`.
    ///
    /// # Errors
    /// [`HomogeneousError::NonFinite`], [`HomogeneousError::OffSphere`] or
    /// [`HomogeneousError::NotTangent`] (with `q·ω`, `|ω|` and the tolerance).
    pub fn try_new(q: Vector3<T>, omega: Vector3<T>) -> Result<Self, HomogeneousError> {
        if !omega.iter().all(|x| x.is_finite()) {
            return Err(HomogeneousError::NonFinite {
                what: "TangentSphere2 (ω)",
            });
        }
        check_unit(&q, "TangentSphere2 (q)")?;
        let q_dot_omega = re(q.dot(&omega));
        let omega_norm = re(omega.norm());
        // The test itself on ω scaled by its largest entry (scale invariant, no overflow).
        let s = omega.iter().fold(T::zero(), |m, x| m.max(x.abs()));
        let w = if re(s) > 0.0 { omega / s } else { omega };
        if re(q.dot(&w)).abs() > TANGENCY_TOLERANCE * re(w.norm()) {
            return Err(HomogeneousError::NotTangent {
                q_dot_omega,
                omega_norm,
                tolerance: TANGENCY_TOLERANCE,
            });
        }
        Ok(Self { q, omega })
    }

    /// The point `(q/|q|, ω − (q̂·ω) q̂)` with `q̂ = q/|q|`: q normalized and the normal part
    /// of ω removed, explicitly (the projection is applied twice, so that the result passes
    /// [`try_new`](Self::try_new) even when ω is nearly normal to the sphere; a tangential part
    /// below `16ε|ω|`, indistinguishable from round-off, gives `ω = 0`; for subnormal ω the
    /// relative tangency is only as good as the few bits left).
    ///
    /// # Errors
    /// [`HomogeneousError::NonFinite`] for NaN/∞ entries, [`HomogeneousError::ZeroLength`] for
    /// `q = 0`.
    pub fn new_projected(q: Vector3<T>, omega: Vector3<T>) -> Result<Self, HomogeneousError> {
        if !omega.iter().all(|x| x.is_finite()) {
            return Err(HomogeneousError::NonFinite {
                what: "TangentSphere2 (ω)",
            });
        }
        let q = normalized(&q, "TangentSphere2 (q)")?;
        // Project ω scaled by its largest entry, so that q·ω cannot overflow; project twice
        // ("twice is enough"), so that an ω nearly normal to the sphere, whose first
        // projection is mostly round-off, still ends tangent to round-off relative to itself.
        // A tangential part below 16ε|ω| cannot be told from the round-off of the projection
        // and is returned as 0.
        let s = omega.iter().fold(T::zero(), |m, x| m.max(x.abs()));
        let omega = if re(s) > 0.0 {
            let w = omega / s;
            let w1 = w - q * q.dot(&w);
            let w2 = w1 - q * q.dot(&w1);
            if re(w2.norm()) <= 16.0 * f64::EPSILON * re(w.norm()) {
                Vector3::zeros()
            } else {
                w2 * s
            }
        } else {
            omega
        };
        if !omega.iter().all(|x| x.is_finite()) {
            return Err(HomogeneousError::NonFinite {
                what: "TangentSphere2 (projected ω overflows)",
            });
        }
        Ok(Self { q, omega })
    }

    /// The point `(q, ω)` without any check (for kernels that map points to points).
    #[must_use]
    pub const fn new_unchecked(q: Vector3<T>, omega: Vector3<T>) -> Self {
        Self { q, omega }
    }

    /// The point from its ambient coordinates `(q₁, q₂, q₃, ω₁, ω₂, ω₃)`, checked as in
    /// [`try_new`](Self::try_new).
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] unless `coords.len() == 6`, else as
    /// [`try_new`](Self::try_new).
    pub fn try_from_ambient(coords: &[T]) -> Result<Self, HomogeneousError> {
        if coords.len() != 6 {
            return Err(HomogeneousError::DimensionMismatch {
                expected: 6,
                found: coords.len(),
            });
        }
        Self::try_new(
            Vector3::new(coords[0], coords[1], coords[2]),
            Vector3::new(coords[3], coords[4], coords[5]),
        )
    }

    /// `n` points from `6n` ambient coordinates `(q₁, ω₁, q₂, ω₂, …)` (the ambient order of
    /// `Vec<TangentSphere2>`), each checked as in [`try_new`](Self::try_new).
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] unless `coords.len() == 6n`, else the first
    /// error of a factor.
    pub fn try_vec_from_ambient(n: usize, coords: &[T]) -> Result<Vec<Self>, HomogeneousError> {
        if coords.len() != 6 * n {
            return Err(HomogeneousError::DimensionMismatch {
                expected: 6 * n,
                found: coords.len(),
            });
        }
        coords.chunks_exact(6).map(Self::try_from_ambient).collect()
    }

    /// The unit vector `q`.
    #[must_use]
    pub const fn q(&self) -> &Vector3<T> {
        &self.q
    }

    /// The tangent vector `ω` (`q·ω = 0`).
    #[must_use]
    pub const fn omega(&self) -> &Vector3<T> {
        &self.omega
    }

    /// The base point `q` as a point of S².
    #[must_use]
    pub const fn base(&self) -> Sphere2<T> {
        Sphere2::new_unchecked(self.q)
    }

    /// `(q, ω)` by value.
    #[must_use]
    pub const fn into_parts(self) -> (Vector3<T>, Vector3<T>) {
        (self.q, self.omega)
    }

    /// `(q, ω)` as the se(3) element it is under the identification of
    /// [`TangentSphereAction`](crate::TangentSphereAction): rotation part `q`, translation part
    /// `ω` (rotation first).
    #[must_use]
    pub fn to_se3_algebra(&self) -> Vector6<T> {
        Vector6::new(
            self.q.x,
            self.q.y,
            self.q.z,
            self.omega.x,
            self.omega.y,
            self.omega.z,
        )
    }
}

impl<T: RealField + Copy> ManifoldPoint for TangentSphere2<T> {
    type Scalar = T;
    type Tangent = Vector6<T>;

    #[inline]
    fn ambient_dim(&self) -> usize {
        6
    }
    #[inline]
    fn write_ambient(&self, out: &mut [T]) {
        out[..3].copy_from_slice(self.q.as_slice());
        out[3..6].copy_from_slice(self.omega.as_slice());
    }
    /// `max(||q| − 1|, |q·ω| / max(1, |ω|))`.
    #[inline]
    fn constraint_error(&self) -> T {
        let unit = (self.q.norm() - T::one()).abs();
        let tangency = self.q.dot(&self.omega).abs() / self.omega.norm().max(T::one());
        unit.max(tangency)
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.q
            .iter()
            .chain(self.omega.iter())
            .all(|x| x.is_finite())
    }
    #[inline]
    fn zip_ambient3<F: FnMut(T, T, T)>(&self, y: &Self, z: &Self, f: &mut F) {
        for i in 0..3 {
            f(self.q[i], y.q[i], z.q[i]);
        }
        for i in 0..3 {
            f(self.omega[i], y.omega[i], z.omega[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_validate() {
        let q = Vector3::new(0.0, 0.0, 1.0);
        assert!(TangentSphere2::try_new(q, Vector3::new(1.0, 2.0, 0.0)).is_ok());
        assert!(TangentSphere2::try_new(q, Vector3::zeros()).is_ok());
        assert!(TangentSphere2::try_new(q, Vector3::new(1e3, 0.0, 1e-8)).is_ok());
        match TangentSphere2::try_new(q, Vector3::new(1.0, 0.0, 1e-6)) {
            Err(HomogeneousError::NotTangent {
                q_dot_omega,
                omega_norm,
                tolerance,
            }) => {
                assert_eq!(q_dot_omega, 1e-6);
                assert!((omega_norm - 1.0).abs() < 1e-12);
                assert_eq!(tolerance, TANGENCY_TOLERANCE);
            }
            other => panic!("expected NotTangent, got {other:?}"),
        }
        assert!(matches!(
            TangentSphere2::try_new(Vector3::new(0.0, 0.0, 1.0 + 1e-6), Vector3::zeros()),
            Err(HomogeneousError::OffSphere { .. })
        ));
        assert!(matches!(
            TangentSphere2::try_new(q, Vector3::new(f64::NAN, 0.0, 0.0)),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            TangentSphere2::try_new(Vector3::new(f64::NAN, 0.0, 0.0), Vector3::zeros()),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            TangentSphere2::<f64>::new_projected(Vector3::zeros(), Vector3::x()),
            Err(HomogeneousError::ZeroLength { .. })
        ));
        let p =
            TangentSphere2::new_projected(Vector3::new(1.0, 1.0, 0.0), Vector3::new(1.0, 0.0, 3.0))
                .unwrap();
        assert!(p.constraint_error() < 4.0 * f64::EPSILON);
        assert_eq!(p.ambient_dim(), 6);
        let v = TangentSphere2::try_vec_from_ambient(
            2,
            &[0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 2.0],
        )
        .unwrap();
        assert_eq!(v[1].omega().z, 2.0);
        assert!(matches!(
            TangentSphere2::<f64>::try_vec_from_ambient(2, &[0.0; 6]),
            Err(HomogeneousError::DimensionMismatch {
                expected: 12,
                found: 6
            })
        ));
    }
}
