//! RKMK4 with two commutators \[MKO99; CCLMO22 §2.2\].

use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::scalar::{c, re};
use liegroup::{LieGroupInPlace, VectorSpace};

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
#[derive(Clone, Debug)]
pub struct Rkmk4TwoCommutators<A: ActionInPlace> {
    name: String,
    k: Vec<Algebra<A>>,
    v: Option<Algebra<A>>,
    /// The commutators `[k₁, k₂]`, `[k₁, k₄]` (through [`LieGroup::bracket_into`]).
    comm: Option<Algebra<A>>,
    /// The stage point, moved in place (`exp(v)·y₀` through [`Action::act_exp_assign`]).
    stage: Option<A::Point>,
    stats: StepStats,
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
            k: Vec::new(),
            v: None,
            comm: None,
            stage: None,
            stats: StepStats::default(),
        }
    }
}

impl<A: ActionInPlace> Rkmk4TwoCommutators<A> {
    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
}

impl<A: ActionInPlace> Rkmk4TwoCommutators<A> {
    /// The step on local values (the operations of the buffered loop below, in the same
    /// order). No finiteness test per stage (early exits split the straight-line code, and the
    /// tests cost a tenth of a step): the update exponent `v` is a sum over every `kᵢ` with
    /// non-zero weights, so it is finite exactly when they all are (or when it overflowed);
    /// otherwise `None`, and the caller takes the step again with the buffered loop, which
    /// names the first stage with a non-finite value.
    fn step_local<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
    ) -> Option<StepOutput<A::Point>>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let half: Scalar<A> = c(0.5);
        let z = action.algebra_zero(y);
        let scaled = |ti: Scalar<A>, p: &A::Point| {
            let mut k = z.clone();
            f.eval(ti, p, &mut k);
            k.scale_by(h);
            k
        };
        let (t2, t4) = (t + half * h, t + h);
        let k1 = scaled(t, y);
        let mut v = k1.clone();
        v.scale_by(half);
        let mut stage = y.clone();
        action.act_exp_assign(&v, &mut stage);
        let k2 = scaled(t2, &stage);
        let mut comm = z.clone();
        <A::Group as LieGroupInPlace>::bracket_into(&k1, &k2, &mut comm);
        v.clone_from(&k2);
        v.scale_by(half);
        v.add_scaled(c(-0.125), &comm);
        let mut stage = y.clone();
        action.act_exp_assign(&v, &mut stage);
        let k3 = scaled(t2, &stage);
        let mut stage = y.clone();
        action.act_exp_assign(&k3, &mut stage);
        let k4 = scaled(t4, &stage);
        <A::Group as LieGroupInPlace>::bracket_into(&k1, &k4, &mut comm);
        let sixth: Scalar<A> = c(1.0 / 6.0);
        let third: Scalar<A> = c(2.0 / 6.0);
        v.set_combination(&[
            (sixth, &k1),
            (third, &k2),
            (third, &k3),
            (sixth, &k4),
            (c(-1.0 / 12.0), &comm),
        ]);
        if !v.all_finite() {
            return None;
        }
        let mut y1 = y.clone();
        action.act_exp_assign(&v, &mut y1);
        self.stats.f_evals += 4;
        self.stats.exps += 4;
        Some(StepOutput { y: y1, error: None })
    }
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
        // Fixed-size problems (no heap memory in points or algebra elements): the same
        // operations on local values, which the compiler keeps in registers.
        if crate::stepper::fixed_size::<A>()
            && let Some(out) = self.step_local(action, f, t, y, h)
        {
            return Ok(out);
        }
        if self.k.len() != 4 {
            let z = action.algebra_zero(y);
            self.k = vec![z.clone(); 4];
            self.v = Some(z.clone());
            self.comm = Some(z);
        }
        let Self {
            k,
            v,
            comm,
            stage,
            stats,
            ..
        } = self;
        let v = v.as_mut().expect("allocated above");
        let comm = comm.as_mut().expect("allocated above");
        let stage = stage.get_or_insert_with(|| y.clone());
        let half: Scalar<A> = c(0.5);
        let mut eval = |i: usize, ti: Scalar<A>, p: &A::Point, k: &mut [Algebra<A>]| {
            stats.f_evals += 1;
            eval_scaled::<A, F>(f, ti, p, h, &mut k[i])
        };
        eval(0, t, y, k)?;
        v.clone_from(&k[0]);
        v.scale_by(half);
        stage.clone_from(y);
        action.act_exp_assign(v, stage);
        eval(1, t + half * h, stage, k)?;
        <A::Group as LieGroupInPlace>::bracket_into(&k[0], &k[1], comm);
        v.clone_from(&k[1]);
        v.scale_by(half);
        v.add_scaled(c(-0.125), comm);
        stage.clone_from(y);
        action.act_exp_assign(v, stage);
        eval(2, t + half * h, stage, k)?;
        stage.clone_from(y);
        action.act_exp_assign(&k[2], stage);
        eval(3, t + h, stage, k)?;
        <A::Group as LieGroupInPlace>::bracket_into(&k[0], &k[3], comm);
        let sixth: Scalar<A> = c(1.0 / 6.0);
        let third: Scalar<A> = c(2.0 / 6.0);
        v.set_combination(&[
            (sixth, &k[0]),
            (third, &k[1]),
            (third, &k[2]),
            (sixth, &k[3]),
            (c(-1.0 / 12.0), &*comm),
        ]);
        let mut y1 = y.clone();
        action.act_exp_assign(v, &mut y1);
        stats.exps += 4;
        Ok(StepOutput { y: y1, error: None })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}

/// `k = h f(t, p)`, or the non-finite field error at `t`. Always inlined (one call per stage,
/// on the step's critical path).
#[inline(always)]
fn eval_scaled<A: ActionInPlace, F>(
    f: &F,
    t: Scalar<A>,
    p: &A::Point,
    h: Scalar<A>,
    k: &mut Algebra<A>,
) -> Result<(), SchemeError>
where
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
{
    f.eval(t, p, k);
    if k.all_finite() {
        k.scale_by(h);
        Ok(())
    } else {
        Err(SchemeError::NonFinite {
            what: "vector field",
            t: re(t),
        })
    }
}
