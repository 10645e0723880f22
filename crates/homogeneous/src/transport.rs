//! Group elements carrying one point to another (transitivity), for initial conditions and
//! tests.

use crate::action::Action;
use crate::error::HomogeneousError;
use crate::left::LeftMultiplication;
use crate::power::{PowerAction, VecPowerAction};
use crate::rotation::RotationAction;
use crate::sphere::Sphere2;
use crate::tangent_sphere::TangentSphere2;
use crate::tangent_sphere_action::TangentSphereAction;
use liegroup::scalar::{c, re};
use liegroup::{LieGroup, LieGroupInPlace};
use liegroup::{Se3, So3};
use nalgebra::{RealField, Vector3};

/// A transitive action: for any two points there is a group element carrying the first to the
/// second.
///
/// [`transporter`](TransitiveAction::transporter) returns one such element `g` with
/// `g · from = to` (up to round-off). The element is not unique (any element of the isotropy
/// group of `to` may be composed on the left); each implementation documents its choice.
///
/// Implemented for [`RotationAction`] (the minimal rotation), [`TangentSphereAction`],
/// [`LeftMultiplication`] (`to · from⁻¹`), tuples of transitive actions, [`PowerAction`] and
/// [`VecPowerAction`] (factor by factor).
///
/// # Example
/// ```
/// use homogeneous::{Action, TangentSphere2, TangentSphereAction, TransitiveAction, VecPowerAction};
/// use nalgebra::Vector3;
/// // Initial condition of a 3-fold pendulum: all links hanging down, the last one moving,
/// // reached from a reference state by one element of SE(3)³.
/// let action = VecPowerAction::new(TangentSphereAction::<f64>::new());
/// let rest = vec![TangentSphere2::try_new(Vector3::z(), Vector3::zeros())?; 3];
/// let mut start = vec![TangentSphere2::try_new(-Vector3::z(), Vector3::zeros())?; 3];
/// start[2] = TangentSphere2::try_new(-Vector3::z(), Vector3::new(0.0, 2.0, 0.0))?;
/// let g = action.transporter(&rest, &start)?;
/// let moved = action.act(&g, &rest);
/// assert!((moved[2].omega() - start[2].omega()).norm() < 1e-14);
/// # Ok::<(), homogeneous::HomogeneousError>(())
/// ```
pub trait TransitiveAction: Action {
    /// A group element `g` with `g · from ≈ to`.
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] when runtime-sized points have different sizes;
    /// the shipped fixed-size actions never fail.
    fn transporter(
        &self,
        from: &Self::Point,
        to: &Self::Point,
    ) -> Result<Self::Group, HomogeneousError>;
}

/// The rotation of smallest angle carrying the direction of `from` to the direction of `to`:
/// `exp(θ n̂)` with `n = (a × b)/|a × b|`, `θ = atan2(|a × b|, a·b)`, `a = from/|from|`,
/// `b = to/|to|`.
///
/// - `a = b`: the identity.
/// - Antipodal points (`a × b = 0`, `a·b < 0`): the rotation by π about the unit vector
///   `a × e_k/|a × e_k|`, `e_k` the coordinate axis least aligned with `a` (the minimal rotation
///   is not unique there).
/// - Nearly antipodal points: the axis is re-orthogonalized against `a` before use, so that
///   `R a = b` holds to round-off (≈ 4ε) however close `b` is to `−a`; without it the error grows
///   like ε/|a × b|.
///
/// # Example
/// ```
/// use homogeneous::{Sphere2, minimal_rotation};
/// use nalgebra::Vector3;
/// let a: Sphere2 = Sphere2::try_new(Vector3::x()).unwrap();
/// let b: Sphere2 = Sphere2::try_new(-Vector3::x()).unwrap();
/// let r = minimal_rotation(&a, &b);
/// assert!((r.rotate(a.q()) - b.q()).norm() < 1e-15);
/// ```
#[must_use]
pub fn minimal_rotation<T: RealField + Copy>(from: &Sphere2<T>, to: &Sphere2<T>) -> So3<T> {
    let a = from.q() / from.q().norm();
    let b = to.q() / to.q().norm();
    let cross = a.cross(&b);
    let s = cross.norm();
    let cos = a.dot(&b);
    let xi = if re(s) > 0.0 {
        let n = cross / s;
        let n = n - a * n.dot(&a);
        let n = n / n.norm();
        n * s.atan2(cos)
    } else if re(cos) >= 0.0 {
        Vector3::zeros()
    } else {
        // Exactly antipodal: any axis perpendicular to a; take the least aligned coordinate axis.
        let (ax, ay, az) = (re(a.x).abs(), re(a.y).abs(), re(a.z).abs());
        let e = if ax <= ay && ax <= az {
            Vector3::x()
        } else if ay <= az {
            Vector3::y()
        } else {
            Vector3::z()
        };
        let n = a.cross(&e);
        n / n.norm() * c::<T>(core::f64::consts::PI)
    };
    So3::exp(&xi)
}

/// An SE(3) element carrying `from = (q₁, ω₁)` to `to = (q₂, ω₂)` under
/// [`TangentSphereAction`]: the rotation `R` = [`minimal_rotation`]`(q₁, q₂)`, then the
/// translation `t = q' × (ω₂ − R ω₁)` with `q' = R q₁`, so that
/// `R ω₁ + t × q' = R ω₁ + (ω₂ − R ω₁) − ((ω₂ − R ω₁)·q') q' = ω₂` (both ω's are tangent).
///
/// # Example
/// ```
/// use homogeneous::{Action, TangentSphere2, TangentSphereAction, tangent_sphere_transporter};
/// use nalgebra::Vector3;
/// let x = TangentSphere2::try_new(Vector3::z(), Vector3::x()).unwrap();
/// let y = TangentSphere2::try_new(Vector3::x(), Vector3::new(0.0, 3.0, -1.0)).unwrap();
/// let g = tangent_sphere_transporter(&x, &y);
/// let z = TangentSphereAction::new().act(&g, &x);
/// assert!((z.q() - y.q()).norm() < 1e-15 && (z.omega() - y.omega()).norm() < 1e-15);
/// ```
#[must_use]
pub fn tangent_sphere_transporter<T: RealField + Copy>(
    from: &TangentSphere2<T>,
    to: &TangentSphere2<T>,
) -> Se3<T> {
    let r = minimal_rotation(&from.base(), &to.base());
    let q = r.rotate(from.q());
    let w = to.omega() - r.rotate(from.omega());
    Se3::from_parts(r, q.cross(&w))
}

impl<T: RealField + Copy> TransitiveAction for RotationAction<T> {
    /// [`minimal_rotation`].
    fn transporter(&self, from: &Sphere2<T>, to: &Sphere2<T>) -> Result<So3<T>, HomogeneousError> {
        Ok(minimal_rotation(from, to))
    }
}

impl<T: RealField + Copy> TransitiveAction for TangentSphereAction<T> {
    /// [`tangent_sphere_transporter`].
    fn transporter(
        &self,
        from: &TangentSphere2<T>,
        to: &TangentSphere2<T>,
    ) -> Result<Se3<T>, HomogeneousError> {
        Ok(tangent_sphere_transporter(from, to))
    }
}

impl<G: LieGroupInPlace> TransitiveAction for LeftMultiplication<G> {
    /// `to · from⁻¹`.
    fn transporter(&self, from: &G, to: &G) -> Result<G, HomogeneousError> {
        Ok(to.compose(&from.inverse()))
    }
}

impl<A: TransitiveAction, const N: usize> TransitiveAction for PowerAction<A, N> {
    /// Factor by factor.
    fn transporter(
        &self,
        from: &[A::Point; N],
        to: &[A::Point; N],
    ) -> Result<[A::Group; N], HomogeneousError> {
        let v: Vec<A::Group> = from
            .iter()
            .zip(to)
            .map(|(f, t)| self.factor.transporter(f, t))
            .collect::<Result<_, _>>()?;
        Ok(v.try_into()
            .unwrap_or_else(|_| unreachable!("N factors in, N out")))
    }
}

impl<A: TransitiveAction + crate::PowerFactor> TransitiveAction for VecPowerAction<A> {
    /// Factor by factor.
    ///
    /// # Errors
    /// [`HomogeneousError::DimensionMismatch`] when `from` and `to` have different lengths.
    fn transporter(
        &self,
        from: &Vec<A::Point>,
        to: &Vec<A::Point>,
    ) -> Result<Vec<A::Group>, HomogeneousError> {
        if from.len() != to.len() {
            return Err(HomogeneousError::DimensionMismatch {
                expected: from.len(),
                found: to.len(),
            });
        }
        from.iter()
            .zip(to)
            .map(|(f, t)| self.factor.transporter(f, t))
            .collect()
    }
}

macro_rules! tuple_transitive {
    ($($name:ident $idx:tt),+) => {
        impl<S: RealField + Copy, $($name: TransitiveAction<Group: LieGroup<Scalar = S>>),+> TransitiveAction for ($($name,)+) {
            /// Factor by factor.
            fn transporter(&self, from: &Self::Point, to: &Self::Point) -> Result<Self::Group, HomogeneousError> {
                Ok(($(self.$idx.transporter(&from.$idx, &to.$idx)?,)+))
            }
        }
    };
}

tuple_transitive!(A 0, B 1);
tuple_transitive!(A 0, B 1, C 2);
tuple_transitive!(A 0, B 1, C 2, D 3);

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: Vector3<f64>) -> Sphere2 {
        Sphere2::new_normalize(v).unwrap()
    }

    #[test]
    fn minimal_rotation_edge_cases() {
        let cases = [
            (Vector3::x(), Vector3::x()),
            (Vector3::x(), -Vector3::x()),
            (Vector3::z(), -Vector3::z()),
            (Vector3::new(1.0, 2.0, 3.0), -Vector3::new(1.0, 2.0, 3.0)),
            (Vector3::x(), Vector3::new(-1.0, 1e-9, 0.0)),
            (Vector3::x(), Vector3::new(-1.0, 1e-13, 1e-14)),
            (Vector3::x(), Vector3::new(1.0, 1e-13, 0.0)),
            (Vector3::new(0.3, -0.4, 0.2), Vector3::new(-0.1, 0.9, 0.4)),
        ];
        for (a, b) in cases {
            let (a, b) = (unit(a), unit(b));
            let r = minimal_rotation(&a, &b);
            let err = (r.rotate(a.q()) - b.q()).norm();
            assert!(err < 8.0 * f64::EPSILON, "{a:?} -> {b:?}: error {err:e}");
            // minimal: the rotation angle equals the angle between a and b
            let m = r.matrix();
            let w = Vector3::new(
                m[(2, 1)] - m[(1, 2)],
                m[(0, 2)] - m[(2, 0)],
                m[(1, 0)] - m[(0, 1)],
            );
            let angle = (w.norm() / 2.0).atan2((m.trace() - 1.0) / 2.0);
            let expected = a.q().cross(b.q()).norm().atan2(a.q().dot(b.q()));
            assert!((angle - expected).abs() < 1e-7, "{angle} vs {expected}");
        }
    }

    #[test]
    fn vec_power_transporter_checks_lengths() {
        let action = VecPowerAction::new(RotationAction::<f64>::new());
        let p = vec![unit(Vector3::x()); 3];
        assert!(matches!(
            action.transporter(&p, &p[..2].to_vec()),
            Err(HomogeneousError::DimensionMismatch {
                expected: 3,
                found: 2
            })
        ));
    }
}
