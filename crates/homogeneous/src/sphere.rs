//! The unit sphere S² ⊂ ℝ³.

use crate::action::ManifoldPoint;
use crate::error::HomogeneousError;
use liegroup::scalar::re;
use nalgebra::{RealField, Vector3};

/// The tolerance of [`Sphere2::try_new`] and [`TangentSphere2::try_new`](crate::TangentSphere2::try_new)
/// on the unit length: a vector `q` is accepted as a point of S² when `||q| − 1| ≤ 10⁻¹⁰`.
///
/// Chosen far above round-off (a point produced by a long integration without projection stays
/// within ~10⁻¹³) and far below modelling accuracy: a point off the sphere by 10⁻⁶ is rejected.
/// Use [`Sphere2::new_normalize`] to accept any non-zero vector explicitly.
pub const SPHERE_TOLERANCE: f64 = 1e-10;

/// A point of the unit sphere `S² = {q ∈ ℝ³ : |q| = 1}`.
///
/// **Ambient coordinates** (as [`ManifoldPoint`]): `(q₁, q₂, q₃)`; tangent vectors are
/// `q̇ ∈ ℝ³` with `q·q̇ = 0`. SO(3) acts by rotation ([`RotationAction`](crate::RotationAction)).
///
/// The stored vector is the one given (within [`SPHERE_TOLERANCE`] of unit length), not
/// renormalized: structure checks see the drift of an integrator, never a hidden projection.
///
/// # Example
/// ```
/// use homogeneous::{HomogeneousError, Sphere2};
/// use nalgebra::Vector3;
/// let p = Sphere2::try_new(Vector3::new(0.0, 0.6, 0.8))?;
/// assert_eq!(p.q().z, 0.8);
/// // Off the sphere by 1e-6: rejected with the deviation.
/// let bad = Sphere2::try_new(Vector3::new(0.0, 0.0, 1.0 + 1e-6));
/// assert!(matches!(bad, Err(HomogeneousError::OffSphere { .. })));
/// // Explicit normalization:
/// let n = Sphere2::new_normalize(Vector3::new(0.0, 0.0, 2.0))?;
/// assert_eq!(*n.q(), Vector3::z());
/// # Ok::<(), HomogeneousError>(())
/// ```
#[doc(alias = "S^2")]
#[doc(alias = "S2")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sphere2<T: RealField + Copy = f64> {
    q: Vector3<T>,
}

/// Check `q` for finiteness and unit length (used by both sphere types).
pub(crate) fn check_unit<T: RealField + Copy>(
    q: &Vector3<T>,
    what: &'static str,
) -> Result<(), HomogeneousError> {
    if !q.iter().all(|x| x.is_finite()) {
        return Err(HomogeneousError::NonFinite { what });
    }
    let deviation = (re(q.norm()) - 1.0).abs();
    if deviation > SPHERE_TOLERANCE {
        return Err(HomogeneousError::OffSphere {
            deviation,
            tolerance: SPHERE_TOLERANCE,
        });
    }
    Ok(())
}

/// `q/|q|`, or an error for non-finite or zero `q`.
pub(crate) fn normalized<T: RealField + Copy>(
    q: &Vector3<T>,
    what: &'static str,
) -> Result<Vector3<T>, HomogeneousError> {
    if !q.iter().all(|x| x.is_finite()) {
        return Err(HomogeneousError::NonFinite { what });
    }
    // Scale by the largest entry first so that huge or tiny vectors neither overflow nor
    // underflow in the norm.
    let s = q.iter().fold(T::zero(), |m, x| m.max(x.abs()));
    if re(s) <= 0.0 {
        return Err(HomogeneousError::ZeroLength { what });
    }
    let q = q / s;
    Ok(q / q.norm())
}

impl<T: RealField + Copy> Sphere2<T> {
    /// The point `q`, checked: every entry finite and `||q| − 1| ≤` [`SPHERE_TOLERANCE`].
    ///
    /// # Errors
    /// [`HomogeneousError::NonFinite`] for NaN/∞ entries, [`HomogeneousError::OffSphere`] (with
    /// the deviation and the tolerance) when `q` is not of unit length.
    pub fn try_new(q: Vector3<T>) -> Result<Self, HomogeneousError> {
        check_unit(&q, "Sphere2")?;
        Ok(Self { q })
    }

    /// The point `q/|q|` (explicit normalization of any non-zero finite vector).
    ///
    /// # Errors
    /// [`HomogeneousError::NonFinite`] for NaN/∞ entries, [`HomogeneousError::ZeroLength`] for
    /// `q = 0`.
    pub fn new_normalize(q: Vector3<T>) -> Result<Self, HomogeneousError> {
        Ok(Self {
            q: normalized(&q, "Sphere2")?,
        })
    }

    /// The point `q` without any check. Meant for kernels (actions, integrators) that produce
    /// points from points; a vector off the sphere gives a point whose
    /// [`constraint_error`](ManifoldPoint::constraint_error) says so.
    #[must_use]
    pub const fn new_unchecked(q: Vector3<T>) -> Self {
        Self { q }
    }

    /// The point from its ambient coordinates `(q₁, q₂, q₃)`, checked as in
    /// [`try_new`](Self::try_new).
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] unless `coords.len() == 3`, else as
    /// [`try_new`](Self::try_new).
    pub fn try_from_ambient(coords: &[T]) -> Result<Self, HomogeneousError> {
        if coords.len() != 3 {
            return Err(HomogeneousError::DimensionMismatch {
                expected: 3,
                found: coords.len(),
            });
        }
        Self::try_new(Vector3::new(coords[0], coords[1], coords[2]))
    }

    /// The unit vector `q`.
    #[must_use]
    pub const fn q(&self) -> &Vector3<T> {
        &self.q
    }

    /// The unit vector `q`, by value.
    #[must_use]
    pub const fn into_inner(self) -> Vector3<T> {
        self.q
    }
}

impl<T: RealField + Copy> ManifoldPoint for Sphere2<T> {
    type Scalar = T;
    type Tangent = Vector3<T>;

    #[inline]
    fn ambient_dim(&self) -> usize {
        3
    }
    #[inline]
    fn write_ambient(&self, out: &mut [T]) {
        out[..3].copy_from_slice(self.q.as_slice());
    }
    /// `||q| − 1|`.
    #[inline]
    fn constraint_error(&self) -> T {
        (self.q.norm() - T::one()).abs()
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.q.iter().all(|x| x.is_finite())
    }
    #[inline]
    fn zip_ambient3<F: FnMut(T, T, T)>(&self, y: &Self, z: &Self, f: &mut F) {
        for i in 0..3 {
            f(self.q[i], y.q[i], z.q[i]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_validate() {
        assert!(Sphere2::try_new(Vector3::new(1.0, 0.0, 0.0)).is_ok());
        assert!(Sphere2::try_new(Vector3::new(1.0 + 1e-12, 0.0, 0.0)).is_ok());
        match Sphere2::try_new(Vector3::new(1.0 + 1e-6, 0.0, 0.0)) {
            Err(HomogeneousError::OffSphere {
                deviation,
                tolerance,
            }) => {
                assert!((deviation - 1e-6).abs() < 1e-12);
                assert_eq!(tolerance, SPHERE_TOLERANCE);
            }
            other => panic!("expected OffSphere, got {other:?}"),
        }
        assert!(matches!(
            Sphere2::try_new(Vector3::new(f64::NAN, 0.0, 1.0)),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            Sphere2::new_normalize(Vector3::<f64>::zeros()),
            Err(HomogeneousError::ZeroLength { .. })
        ));
        assert!(matches!(
            Sphere2::new_normalize(Vector3::new(f64::INFINITY, 0.0, 0.0)),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            Sphere2::<f64>::try_from_ambient(&[1.0, 0.0]),
            Err(HomogeneousError::DimensionMismatch {
                expected: 3,
                found: 2
            })
        ));
        let p = Sphere2::new_normalize(Vector3::new(3.0, 4.0, 0.0)).unwrap();
        assert!(p.constraint_error() < 1e-16);
        assert_eq!(p.ambient(), vec![0.6, 0.8, 0.0]);
    }
}
