//! Applying a coordinate map's image to a point, and measuring distances between points.

use crate::stepper::{Algebra, Tolerance};
use homogeneous::{ActionInPlace, ManifoldPoint};
use liegroup::scalar::re;
use liegroup::{Cayley, CayleyGroup, CoordinateMap, Exp, LieGroup, VectorSpace};

/// A coordinate map `ψ: 𝔤 → G` that can move points of a homogeneous space: `ψ(u)·p`.
///
/// Implemented for [`Exp`] (through [`Action::act_exp`](homogeneous::Action::act_exp), which actions implement without forming
/// the group element) and [`Cayley`] (for groups with a Cayley map). A user-defined coordinate
/// map implements [`CoordinateMap`] and this trait (usually as `action.act(&self.map(u), p)`).
pub trait PointMap<A: ActionInPlace>: CoordinateMap<A::Group> {
    /// `ψ(u)·p`.
    fn apply(&self, action: &A, u: &Algebra<A>, p: &A::Point) -> A::Point;
    /// `p ← ψ(u)·p` (default: [`apply`](Self::apply) and assign; [`Exp`] moves the point in
    /// place through [`ActionInPlace::act_exp_assign`](homogeneous::ActionInPlace::act_exp_assign), without allocating for runtime-sized points).
    fn apply_assign(&self, action: &A, u: &Algebra<A>, p: &mut A::Point) {
        *p = self.apply(action, u, p);
    }
}

impl<A: ActionInPlace> PointMap<A> for Exp {
    #[inline]
    fn apply(&self, action: &A, u: &Algebra<A>, p: &A::Point) -> A::Point {
        action.act_exp(u, p)
    }
    #[inline(always)]
    fn apply_assign(&self, action: &A, u: &Algebra<A>, p: &mut A::Point) {
        action.act_exp_assign(u, p);
    }
}

impl<A: ActionInPlace> PointMap<A> for Cayley
where
    A::Group: CayleyGroup,
{
    #[inline]
    fn apply(&self, action: &A, u: &Algebra<A>, p: &A::Point) -> A::Point {
        action.act(&<A::Group as CayleyGroup>::cay(u), p)
    }
}

/// How the error of an embedded commutator-free / Crouch–Grossman pair is measured: the
/// distance between the two results `y₁` and `ŷ₁`, scaled by the tolerances so that `≤ 1`
/// means "accept".
pub trait PointDistance<P>: Clone + core::fmt::Debug {
    /// The scaled distance between `y1` and `y1_hat` (`y0` is the point the step started from).
    fn scaled_error(&self, y0: &P, y1: &P, y1_hat: &P, tol: &Tolerance) -> f64;
}

/// The default distance: the weighted RMS norm of the difference of ambient coordinates,
/// `sqrt(1/N Σᵢ ((y₁ᵢ − ŷ₁ᵢ)/(atol + rtol·max(|y₀ᵢ|, |y₁ᵢ|)))²)` \[HNW93, II.4, eq. (4.11)\].
///
/// The sum of squares is accumulated without overflow ([`liegroup::linalg::Rms`]): a large
/// but finite error gives a large finite norm (a rejected step), not an overflow to ∞.
///
/// The coordinates are visited through [`ManifoldPoint::zip_ambient3`]: nothing is allocated
/// for points of up to 64 ambient coordinates, nor for tuples, arrays and `Vec`s of such
/// points (a runtime power of spheres of any length).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AmbientDistance;

impl<P: ManifoldPoint> PointDistance<P> for AmbientDistance {
    fn scaled_error(&self, y0: &P, y1: &P, y1_hat: &P, tol: &Tolerance) -> f64 {
        let mut rms = liegroup::linalg::Rms::default();
        y0.zip_ambient3(y1, y1_hat, &mut |z, a, b| {
            let (z, a, b) = (re(z), re(a), re(b));
            let w = tol.atol + tol.rtol * z.abs().max(a.abs());
            rms.push((a - b) / w);
        });
        rms.value()
    }
}

/// For a group acting on itself: `‖log(ŷ₁·y₁⁻¹)‖_RMS/(atol + rtol)` in algebra coordinates
/// (state scale taken as 1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GroupLogDistance;

impl<G: LieGroup> PointDistance<G> for GroupLogDistance {
    fn scaled_error(&self, _y0: &G, y1: &G, y1_hat: &G, tol: &Tolerance) -> f64 {
        let d = y1_hat.compose(&y1.inverse()).log();
        let n = d.dim().max(1) as f64;
        (re(d.inner_norm_squared()) / n).sqrt() / (tol.atol + tol.rtol)
    }
}

#[cfg(test)]
mod tests {
    use super::{AmbientDistance, PointDistance};
    use crate::Tolerance;
    use nalgebra::Vector2;

    /// A large but finite error is a large finite norm (a rejected step), not ∞: the squares
    /// of 2e200 overflow, the scaled sum does not.
    #[test]
    fn a_huge_error_is_finite_not_an_overflow() {
        let tol = Tolerance {
            rtol: 1e-300,
            atol: 1.0,
        };
        let y0 = Vector2::new(0.0, 0.0);
        let y1 = Vector2::new(1e200, 0.0);
        let y1_hat = Vector2::new(-1e200, 0.0);
        let e = AmbientDistance.scaled_error(&y0, &y1, &y1_hat, &tol);
        // sqrt((2e200)²/2) = √2·1e200, up to the weight 1 + 1e-100 = 1.
        assert!(
            (e / (2f64.sqrt() * 1e200) - 1.0).abs() <= 4.0 * f64::EPSILON,
            "{e}"
        );
        let nan = AmbientDistance.scaled_error(&y0, &Vector2::new(f64::NAN, 0.0), &y1_hat, &tol);
        assert!(nan.is_nan());
    }
}
