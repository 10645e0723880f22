//! The [`Stepper`] trait every one-step method implements, and the problem type.

use crate::error::SchemeError;
use homogeneous::{Action, LieVectorField};
use liegroup::LieGroup;

/// The scalar type of an action's group.
pub type Scalar<A> = <<A as Action>::Group as LieGroup>::Scalar;
/// The Lie algebra (in coordinates) of an action's group.
pub type Algebra<A> = <<A as Action>::Group as LieGroup>::Algebra;

/// `true` when the action's points and algebra elements own no heap memory (no drop glue:
/// fixed-size groups, products, arrays), so that local copies cost no allocation: the
/// condition of the engines' straight-line kernels.
#[inline(always)]
pub(crate) const fn fixed_size<A: homogeneous::Action>() -> bool {
    !core::mem::needs_drop::<A::Point>() && !core::mem::needs_drop::<Algebra<A>>()
}

/// An ODE on a homogeneous space in the form `ṗ = f(t, p)_M(p)`: the action of a group `G` on
/// `M` and a Lie group vector field `f: ℝ × M → 𝔤` (\[MK99, §2\]; \[CCLMO22, §2\]).
///
/// # Example
/// ```
/// use homogeneous::LeftMultiplication;
/// use liegroup::Rn;
/// use nalgebra::Vector1;
/// use schemes::Problem;
/// // y' = −y on ℝ, as a Lie group problem (ℝ acting on itself by translation).
/// let problem = Problem::new(
///     LeftMultiplication::<Rn<f64, 1>>::new(),
///     |_t: f64, y: &Rn<f64, 1>| -y.0,
/// );
/// # let _ = problem;
/// ```
#[derive(Clone, Debug)]
pub struct Problem<A, F> {
    /// The action of the group on the manifold.
    pub action: A,
    /// The vector field `f(t, p) ∈ 𝔤`.
    pub field: F,
}

impl<A: Action, F> Problem<A, F>
where
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
{
    /// Bundle an action and a vector field.
    pub const fn new(action: A, field: F) -> Self {
        Self { action, field }
    }
}

/// Relative and absolute tolerances for adaptive steps (`f64`, also for dual-number scalars).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Relative tolerance (> 0).
    pub rtol: f64,
    /// Absolute tolerance (> 0).
    pub atol: f64,
}

impl Tolerance {
    /// Validated tolerances: both must be positive and finite.
    ///
    /// # Errors
    /// [`SchemeError::InvalidTolerance`] otherwise.
    pub fn new(rtol: f64, atol: f64) -> Result<Self, SchemeError> {
        for (name, value) in [("rtol", rtol), ("atol", atol)] {
            if !(value.is_finite() && value > 0.0) {
                return Err(SchemeError::InvalidTolerance { name, value });
            }
        }
        Ok(Self { rtol, atol })
    }

    /// The weight `atol + rtol·|z|` of one coordinate of size `z`.
    #[must_use]
    pub fn weight(&self, z: f64) -> f64 {
        self.atol + self.rtol * z.abs()
    }
}

/// Work counters of a stepper, accumulated over its lifetime (reset with
/// [`Stepper::reset_stats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepStats {
    /// Evaluations of the vector field.
    pub f_evals: usize,
    /// Exponentials (or Cayley maps) applied to points.
    pub exps: usize,
    /// Iterations of implicit stage solvers (fixed point or Newton).
    pub iterations: usize,
}

/// The result of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepOutput<P> {
    /// The new point.
    pub y: P,
    /// For embedded methods asked for an estimate: the local error scaled by the tolerances, so
    /// that a value `≤ 1` means the step is accepted (weighted RMS norm, \[HNW93, II.4\]).
    pub error: Option<f64>,
}

/// A one-step method on a homogeneous space.
///
/// Every engine (RKMK, commutator-free / Crouch–Grossman, implicit RKMK, compositions) implements
/// it, so the driver [`integrate`](crate::integrate), the convergence tool and the experiments
/// treat all methods alike. Steppers own their work buffers (allocated once at construction),
/// so a step on a fixed-size problem does not allocate.
pub trait Stepper<A: Action> {
    /// A short, stable name (`"rkmk4"`, `"cf4"`, …).
    fn name(&self) -> String;

    /// The classical order of the method.
    fn order(&self) -> u32;

    /// The order of the embedded method, for pairs.
    fn embedded_order(&self) -> Option<u32> {
        None
    }

    /// Take one step of size `h` from `(t, y)`. With `tol = Some(..)` an embedded method also
    /// returns its scaled error estimate; other methods return
    /// [`SchemeError::Unsupported`] in that case.
    ///
    /// # Errors
    /// Non-finite values, non-converging implicit stages, unsupported requests.
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>;

    /// `true` when [`dense_output`](Stepper::dense_output) is available after a step.
    fn has_dense_output(&self) -> bool {
        false
    }

    /// The continuous extension of the last step taken from `y_prev`, at `t + θh` for
    /// `θ ∈ [0, 1]`; `None` when the method has none.
    fn dense_output(&self, _action: &A, _y_prev: &A::Point, _theta: Scalar<A>) -> Option<A::Point> {
        None
    }

    /// `true` only for a method **proven and tested** to be symmetric on a (non-abelian) Lie
    /// group, `Φ_{−h} ∘ Φ_h = id` (\[HLW06, §V.1\]): the bases a
    /// [`Composition`](crate::Composition) accepts. Default `false`.
    ///
    /// RKMK methods are in general **not** symmetric on a group even with a symmetric tableau
    /// (Gauss–Legendre with two or more stages): their coordinates are centred at the start
    /// point `y₀`, and the backward step centres them at `y₁`. The shipped symmetric methods:
    /// the one-stage Gauss–Legendre (implicit midpoint) RKMK with the exponential
    /// ([`ImplicitRkmk::exp`](crate::ImplicitRkmk::exp) of
    /// [`GAUSS_LEGENDRE2`](crate::catalogue::GAUSS_LEGENDRE2), `gl2`), whose stage `k` satisfies
    /// `k = dexp⁻¹_{hk/2} f(exp(hk/2)·y₀) = f(exp(hk/2)·y₀)` (`ad_{hk/2} k = 0`), so
    /// `y₁ = exp(hk/2)·exp(hk/2)·y₀` and the step back from `y₁` meets the same midpoint with the
    /// same `k`; the variational integrator
    /// [`SphereVariational`](crate::variational::SphereVariational) (a self-adjoint discrete
    /// Lagrangian); and compositions of symmetric methods. Tests:
    /// `crates/schemes/tests/composition_symmetry.rs`.
    fn symmetric_on_group(&self) -> bool {
        false
    }

    /// The work counters.
    fn stats(&self) -> StepStats;

    /// Reset the work counters.
    fn reset_stats(&mut self);
}

/// A boxed stepper is a stepper (for recursive stepper types such as compositions of
/// compositions).
impl<A: Action, S: Stepper<A> + ?Sized> Stepper<A> for Box<S> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn order(&self) -> u32 {
        (**self).order()
    }
    fn embedded_order(&self) -> Option<u32> {
        (**self).embedded_order()
    }
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        (**self).step(action, f, t, y, h, tol)
    }
    fn has_dense_output(&self) -> bool {
        (**self).has_dense_output()
    }
    fn dense_output(&self, action: &A, y_prev: &A::Point, theta: Scalar<A>) -> Option<A::Point> {
        (**self).dense_output(action, y_prev, theta)
    }
    fn symmetric_on_group(&self) -> bool {
        (**self).symmetric_on_group()
    }
    fn stats(&self) -> StepStats {
        (**self).stats()
    }
    fn reset_stats(&mut self) {
        (**self).reset_stats();
    }
}
