//! RKMK4 with two commutators \[MKO99; CCLMO22 §2.2\].

use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::scalar::{c, re};
use liegroup::{LieGroupInPlace, VectorSpace};

/// The coefficients of an RKMK4-type method with two commutators, in the shape of
/// [`Rkmk4TwoCommutators`] (`kᵢ = h f(t + cᵢh, Yᵢ)`, `Yᵢ = exp(uᵢ)·y₀`):
///
/// ```text
///   u₁ = 0,   u₂ = a21 k₁,   u₃ = a32 k₂ + a32_bracket [k₁, k₂],   u₄ = a43 k₃,
///   y₁ = exp(b₁k₁ + b₂k₂ + b₃k₃ + b₄k₄ + b_bracket [k₁, k₄])·y₀.
/// ```
///
/// The engine [`Rkmk4TwoCommutators`] reads its coefficients from [`RKMK4_TWO_COMMUTATORS`];
/// the Lie group order checker ([`crate::lie_order_conditions`]) reads the same constant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TwoCommutatorCoefficients {
    /// The nodes `cᵢ` (consistent when `c = (0, a21, a32, a43)`).
    pub c: [f64; 4],
    /// The coefficient of `k₁` in `u₂`.
    pub a21: f64,
    /// The coefficient of `k₂` in `u₃`.
    pub a32: f64,
    /// The coefficient of the commutator `[k₁, k₂]` in `u₃`.
    pub a32_bracket: f64,
    /// The coefficient of `k₃` in `u₄`.
    pub a43: f64,
    /// The weights of `k₁ … k₄` in the update.
    pub b: [f64; 4],
    /// The coefficient of the commutator `[k₁, k₄]` in the update.
    pub b_bracket: f64,
}

/// The fourth-order RKMK method with two commutators \[MKO99\], \[CCLMO22, §2.2\]:
/// `u₂ = ½k₁`, `u₃ = ½k₂ − ⅛[k₁, k₂]`, `u₄ = k₃`,
/// `y₁ = exp(⅙(k₁ + 2k₂ + 2k₃ + k₄ − ½[k₁, k₄]))·y₀`, nodes `c = (0, ½, ½, 1)`.
pub const RKMK4_TWO_COMMUTATORS: TwoCommutatorCoefficients = TwoCommutatorCoefficients {
    c: [0.0, 1.0 / 2.0, 1.0 / 2.0, 1.0],
    a21: 1.0 / 2.0,
    a32: 1.0 / 2.0,
    a32_bracket: -1.0 / 8.0,
    a43: 1.0,
    b: [1.0 / 6.0, 2.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0],
    b_bracket: -1.0 / 12.0,
};

/// The fourth-order RKMK method that needs only two commutators per step \[MKO99\],
/// \[CCLMO22, §2.2\], with `kᵢ = h f(·)` and nodes `c = (0, ½, ½, 1)`:
///
/// ```text
///   k₁ = h f(t, y₀),
///   k₂ = h f(t + h/2, exp(½k₁)·y₀),
///   k₃ = h f(t + h/2, exp(½k₂ − ⅛[k₁, k₂])·y₀),
///   k₄ = h f(t + h, exp(k₃)·y₀),
///   y₁ = exp(⅙(k₁ + 2k₂ + 2k₃ + k₄ − ½[k₁, k₄]))·y₀.
/// ```
///
/// (A published variant with `exp(½k₁ − ⅛[k₁,k₂])` in the third stage drops to order 2 on
/// state-dependent problems; the convergence tests guard against it.)
///
/// **One step body.** The step works on a set of values (the four `kᵢ`, the exponent, the
/// commutator and the stage point, moved in place through
/// [`homogeneous::ActionInPlace::act_exp_assign`]): local values for problems whose points and
/// algebra elements own no heap memory (the compiler keeps them in registers), the stepper's
/// buffers (allocated once) otherwise; the same operations in the same order on either.
///
/// **Errors.** A non-finite stage derivative `kᵢ = h f(·)` is reported as
/// [`SchemeError::NonFinite`] at the time of the first stage that produced one. There is no
/// test per stage: the update exponent is a sum over every `kᵢ` with non-zero weights, so it is
/// non-finite when one of them is, and only then are the `kᵢ` scanned. (If the sum overflowed
/// with every `kᵢ` finite, the step is returned as computed.)
#[derive(Clone, Debug)]
pub struct Rkmk4TwoCommutators<A: ActionInPlace> {
    name: String,
    /// The values of a step on runtime-sized problems (allocated at the first step).
    work: Option<Work<Algebra<A>, A::Point>>,
    stats: StepStats,
}

/// The values of one step: the stage derivatives `kᵢ`, the exponent `v`, the commutators
/// `[k₁, k₂]`, `[k₁, k₄]` (through [`LieGroupInPlace::bracket_into`]) and the stage point.
#[derive(Clone, Debug)]
struct Work<V, P> {
    k: [V; 4],
    v: V,
    comm: V,
    stage: P,
}

impl<V: Clone, P: Clone> Work<V, P> {
    fn new(zero: &V, y: &P) -> Self {
        Self {
            k: core::array::from_fn(|_| zero.clone()),
            v: zero.clone(),
            comm: zero.clone(),
            stage: y.clone(),
        }
    }
}

impl<A: ActionInPlace> Default for Rkmk4TwoCommutators<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: ActionInPlace> Rkmk4TwoCommutators<A> {
    /// The stepper.
    #[must_use]
    pub fn new() -> Self {
        Self {
            name: "RKMK4 (two commutators)".into(),
            work: None,
            stats: StepStats::default(),
        }
    }

    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
}

/// The step on the values `w` (see [`Rkmk4TwoCommutators`]).
#[inline(always)]
fn run<A: ActionInPlace, F>(
    action: &A,
    f: &F,
    t: Scalar<A>,
    y: &A::Point,
    h: Scalar<A>,
    w: &mut Work<Algebra<A>, A::Point>,
) -> Result<A::Point, SchemeError>
where
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
{
    const K: TwoCommutatorCoefficients = RKMK4_TWO_COMMUTATORS;
    let Work { k, v, comm, stage } = w;
    let times = K.c.map(|ci| {
        if ci == 0.0 {
            t
        } else {
            t + c::<Scalar<A>>(ci) * h
        }
    });
    let eval = |i: usize, p: &A::Point, k: &mut Algebra<A>| {
        f.eval(times[i], p, k);
        k.scale_by(h);
    };
    eval(0, y, &mut k[0]);
    v.clone_from(&k[0]);
    v.scale_by(c(K.a21));
    stage.clone_from(y);
    action.act_exp_assign(v, stage);
    eval(1, stage, &mut k[1]);
    <A::Group as LieGroupInPlace>::bracket_into(&k[0], &k[1], comm);
    v.clone_from(&k[1]);
    v.scale_by(c(K.a32));
    v.add_scaled(c(K.a32_bracket), comm);
    stage.clone_from(y);
    action.act_exp_assign(v, stage);
    eval(2, stage, &mut k[2]);
    stage.clone_from(y);
    if K.a43 == 1.0 {
        action.act_exp_assign(&k[2], stage);
    } else {
        v.clone_from(&k[2]);
        v.scale_by(c(K.a43));
        action.act_exp_assign(v, stage);
    }
    eval(3, stage, &mut k[3]);
    <A::Group as LieGroupInPlace>::bracket_into(&k[0], &k[3], comm);
    v.set_combination(&[
        (c(K.b[0]), &k[0]),
        (c(K.b[1]), &k[1]),
        (c(K.b[2]), &k[2]),
        (c(K.b[3]), &k[3]),
        (c(K.b_bracket), &*comm),
    ]);
    // Every kᵢ enters `v` with a non-zero weight: `v` is finite when they all are.
    if !v.all_finite() {
        // Constant indices (a runtime index would keep the local `kᵢ` in memory).
        let [k1, k2, k3, k4] = &*k;
        let first = [k1, k2, k3, k4].map(|k| !k.all_finite());
        if let Some(i) = first.iter().position(|&bad| bad) {
            return Err(SchemeError::NonFinite {
                what: "vector field",
                t: re(times[i]),
            });
        }
    }
    let mut y1 = y.clone();
    action.act_exp_assign(v, &mut y1);
    Ok(y1)
}

impl<A: ActionInPlace> Stepper<A> for Rkmk4TwoCommutators<A> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        4
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
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(Stepper::<A>::name(self)));
        }
        self.stats.f_evals += 4;
        self.stats.exps += 4;
        let y1 = if crate::stepper::fixed_size::<A>() {
            // Local values (no heap memory to allocate).
            run(
                action,
                f,
                t,
                y,
                h,
                &mut Work::new(&action.algebra_zero(y), y),
            )?
        } else {
            let w = self
                .work
                .get_or_insert_with(|| Work::new(&action.algebra_zero(y), y));
            run(action, f, t, y, h, w)?
        };
        Ok(StepOutput { y: y1, error: None })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
