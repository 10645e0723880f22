//! The Dullweber–Leimkuhler–McLachlan symmetric splitting of the rigid body into exactly
//! solvable rotations, with kick–drift–kick for a potential \[DLM97\] (`docs/symplectic.md`
//! §5).

use super::check_step_input;
use super::cotangent::{CotangentAction, CotangentPoint};
use super::rigid_body::{RigidBody, RigidBodyPotential};
use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::LieVectorField;
use liegroup::scalar::{c, re};
use liegroup::{LieGroup, So3};
use nalgebra::{Matrix3, RealField, Vector3};

/// The DLM splitting method for a rigid body with a fixed point \[DLM97\] (the order of the
/// sub-flows as in OpenMD's `DLM::doRotate`; `docs/symplectic.md` §5, eqs. (D1)–(D4)).
///
/// The kinetic energy in principal body axes splits into `T = T₁ + T₂ + T₃`,
/// `T_i(Π) = Π_i²/(2I_i)`, and each piece has an exact flow for time `τ` (`Π_i` is constant under
/// it; `φ = τ Π_i/I_i`):
///
/// ```text
///   (D1)  Φ^{T_i}_τ:  Π ← exp(−φ ê_i) Π,   R ← R exp(φ ê_i).
/// ```
///
/// The free-rotor step is the palindrome (applied left to right, `(a, b, m)` = the axis order,
/// default `(1, 2, 3)` as in OpenMD; NO_SQUISH uses `(3, 2, 1)`)
///
/// ```text
///   (D2)  a(h/2), b(h/2), m(h), b(h/2), a(h/2),
/// ```
///
/// and with a potential `U(R)` (body moment `M(R)`) the step is kick–drift–kick:
///
/// ```text
///   (D3)  Π ← Π + (h/2) M(R),   (D2) for time h,   (D4)  Π ← Π + (h/2) M(R).
/// ```
///
/// The kicks are evaluated in spatial form, `π ← π + (h/2) R M(R)`, and `π` is carried
/// unchanged through (D2) (each free sub-flow conserves the spatial momentum); only `R` and the
/// angles `φ` use `Π = Rᵀπ`. This is the same map as the body form in exact arithmetic, but it
/// does not form `R Rᵀ π`, whose round-off makes `|π|` drift systematically.
///
/// Each stage is the exact flow of a Hamiltonian on `T*SO(3)`, so the method is symplectic; it
/// is symmetric and of order 2, keeps `|Π|` of the free body and the orthogonality of `R` exact
/// up to round-off (no implicit equation is solved), and conserves `e₃·π` of the heavy top.
///
/// **As a [`Stepper`].** It steps [`CotangentAction<So3<T>>`] points `(R, π)` (π spatial;
/// `Π = Rᵀπ` inside the step); the vector field `f` passed to [`Stepper::step`] is **ignored**
/// (the stepper holds the rigid body). Generic over the scalar `T`.
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use liegroup::So3;
/// use schemes::symplectic::{CotangentPoint, DlmSplitting, RigidBody};
/// let body = RigidBody::free(Vector3::new(1.0, 2.0, 3.0)).unwrap();
/// let mut dlm = DlmSplitting::new(body);
/// let y0 = CotangentPoint::from_body(So3::identity(), Vector3::new(0.5, -1.0, 2.0));
/// let y1: CotangentPoint<So3> = dlm.advance(0.0, &y0, 0.1).unwrap();
/// assert!((y1.mu.norm() - y0.mu.norm()).abs() < 1e-15);
/// ```
#[derive(Clone, Debug)]
pub struct DlmSplitting<P> {
    body: RigidBody<P>,
    axes: [usize; 3],
    stats: StepStats,
}

impl<P> DlmSplitting<P> {
    /// The splitting with axis order `(1, 2, 3)`: x(h/2), y(h/2), z(h), y(h/2), x(h/2).
    #[must_use]
    pub fn new(body: RigidBody<P>) -> Self {
        Self {
            body,
            axes: [0, 1, 2],
            stats: StepStats::default(),
        }
    }

    /// Replace the axis order `(a, b, m)` of (D2), 0-based (`[2, 1, 0]` is NO_SQUISH's
    /// z(h/2), y(h/2), x(h), y(h/2), z(h/2)).
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] unless `axes` is a permutation of `[0, 1, 2]`.
    pub fn with_axis_order(mut self, axes: [usize; 3]) -> Result<Self, SchemeError> {
        let mut sorted = axes;
        sorted.sort_unstable();
        if sorted != [0, 1, 2] {
            return Err(SchemeError::InvalidOption {
                name: "axis order",
                reason: format!("must be a permutation of [0, 1, 2], got {axes:?}"),
            });
        }
        self.axes = axes;
        Ok(self)
    }

    /// The rigid body.
    #[must_use]
    pub fn body(&self) -> &RigidBody<P> {
        &self.body
    }

    /// The axis order `(a, b, m)` (0-based).
    #[must_use]
    pub fn axis_order(&self) -> [usize; 3] {
        self.axes
    }

    /// One step of size `h` from `y = (R, π)` (eqs. (D3), (D2), (D4)); `t` is used only in
    /// error reports.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] for a non-finite `h`, [`SchemeError::NonFinite`] for a
    /// non-finite state.
    pub fn advance<T: RealField + Copy>(
        &mut self,
        t: T,
        y: &CotangentPoint<So3<T>>,
        h: T,
    ) -> Result<CotangentPoint<So3<T>>, SchemeError>
    where
        P: RigidBodyPotential<T>,
    {
        check_step_input(re(t), re(h), y.all_finite())?;
        let half = h * c::<T>(0.5);
        // (D3) kick, in spatial form: π ← π + (h/2) R M(R).
        let mut pi = y.mu + y.g.rotate(&self.body.potential().moment(&y.g)) * half;
        // (D2) free rotor on (R, Π = Rᵀπ). Each sub-flow conserves π exactly, so π is not
        // recomputed as R₁Π₁ (the same value in exact arithmetic; forming R Rᵀ π would let the
        // round-off in the orthogonality of R drift |π| systematically).
        let mut r = *y.g.matrix();
        let mut body = y.g.inverse_rotate(&pi);
        let [a, b, m] = self.axes;
        for (axis, tau) in [(a, half), (b, half), (m, h), (b, half), (a, half)] {
            self.rotate(axis, tau, &mut r, &mut body);
        }
        // (D4) kick.
        let r1 = So3::from_matrix_unchecked(r);
        pi += r1.rotate(&self.body.potential().moment(&r1)) * half;
        self.stats.f_evals += 2;
        self.stats.exps += 5;
        let out = CotangentPoint::new(r1, pi);
        if !out.all_finite() {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: re(t + h),
            });
        }
        Ok(out)
    }

    /// The exact flow (D1) of `T_i` for time `tau`.
    fn rotate<T: RealField + Copy>(
        &self,
        i: usize,
        tau: T,
        r: &mut Matrix3<T>,
        body: &mut Vector3<T>,
    ) {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let phi = tau * body[i] / c::<T>(self.body.inertia()[i]);
        let (s, co) = phi.sin_cos();
        // Π ← exp(−φ ê_i) Π: rotation by −φ in the (j, k) plane.
        let (pj, pk) = (body[j], body[k]);
        body[j] = co * pj + s * pk;
        body[k] = co * pk - s * pj;
        // R ← R exp(φ ê_i): columns j, k.
        for row in 0..3 {
            let (rj, rk) = (r[(row, j)], r[(row, k)]);
            r[(row, j)] = co * rj + s * rk;
            r[(row, k)] = co * rk - s * rj;
        }
    }
}

impl<T, P> Stepper<CotangentAction<So3<T>>> for DlmSplitting<P>
where
    T: RealField + Copy,
    P: RigidBodyPotential<T>,
{
    fn name(&self) -> String {
        let [a, b, m] = self.axes;
        format!("dlm-splitting({}{}{})", a + 1, b + 1, m + 1)
    }

    fn order(&self) -> u32 {
        2
    }

    /// One step (eqs. (D3), (D2), (D4)); `f` is ignored (see the type's documentation).
    fn step<F>(
        &mut self,
        _action: &CotangentAction<So3<T>>,
        _f: &F,
        t: T,
        y: &CotangentPoint<So3<T>>,
        h: T,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<CotangentPoint<So3<T>>>, SchemeError>
    where
        F: LieVectorField<
                Scalar<CotangentAction<So3<T>>>,
                CotangentPoint<So3<T>>,
                Algebra<CotangentAction<So3<T>>>,
            >,
    {
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(Stepper::<
                CotangentAction<So3<T>>,
            >::name(self)));
        }
        Ok(StepOutput {
            y: self.advance(t, y, h)?,
            error: None,
        })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }

    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
