//! RKMK4 with two commutators \[MKO99; CCLMO22 §2.2\].

use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{Action, LieVectorField};
use liegroup::scalar::{c, re};
use liegroup::{LieGroup, VectorSpace};

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
pub struct Rkmk4TwoCommutators<A: Action> {
    name: String,
    k: Vec<Algebra<A>>,
    v: Option<Algebra<A>>,
    stats: StepStats,
}

impl<A: Action> Default for Rkmk4TwoCommutators<A> {
    fn default() -> Self {
        Self::new()
    }
}

impl<A: Action> Rkmk4TwoCommutators<A> {
    /// The stepper.
    #[must_use]
    pub fn new() -> Self {
        Self {
            name: "RKMK4 (two commutators)".into(),
            k: Vec::new(),
            v: None,
            stats: StepStats::default(),
        }
    }
}

impl<A: Action> Rkmk4TwoCommutators<A> {
    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }
}

impl<A: Action> Stepper<A> for Rkmk4TwoCommutators<A> {
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
        if self.k.len() != 4 {
            let z = action.algebra_zero(y);
            self.k = vec![z.clone(); 4];
            self.v = Some(z);
        }
        let Self { k, v, stats, .. } = self;
        let v = v.as_mut().expect("allocated above");
        let half: Scalar<A> = c(0.5);
        let mut eval = |i: usize, ti: Scalar<A>, p: &A::Point, k: &mut [Algebra<A>]| {
            f.eval(ti, p, &mut k[i]);
            stats.f_evals += 1;
            if k[i].all_finite() {
                k[i].scale_by(h);
                Ok(())
            } else {
                Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(ti),
                })
            }
        };
        eval(0, t, y, k)?;
        v.clone_from(&k[0]);
        v.scale_by(half);
        let y2 = action.act_exp(v, y);
        eval(1, t + half * h, &y2, k)?;
        let comm = <A::Group as LieGroup>::bracket(&k[0], &k[1]);
        v.clone_from(&k[1]);
        v.scale_by(half);
        v.add_scaled(c(-0.125), &comm);
        let y3 = action.act_exp(v, y);
        eval(2, t + half * h, &y3, k)?;
        let y4 = action.act_exp(&k[2], y);
        eval(3, t + h, &y4, k)?;
        let comm = <A::Group as LieGroup>::bracket(&k[0], &k[3]);
        let sixth: Scalar<A> = c(1.0 / 6.0);
        v.set_zero();
        v.add_scaled(sixth, &k[0]);
        v.add_scaled(c(2.0 / 6.0), &k[1]);
        v.add_scaled(c(2.0 / 6.0), &k[2]);
        v.add_scaled(sixth, &k[3]);
        v.add_scaled(c(-1.0 / 12.0), &comm);
        let y1 = action.act_exp(v, y);
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
