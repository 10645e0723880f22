//! The commutator-free / Crouch–Grossman engine.

use crate::coeffs::combine;
use crate::commutator_free::{Base, CommutatorFreeScheme, ExpProduct};
use crate::error::SchemeError;
use crate::point_map::{AmbientDistance, PointDistance};
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::VectorSpace;
use liegroup::scalar::{c, re};

/// One stage (or update) of a commutator-free method in owned form: start from `base`
/// (`None` = the step's initial point `y₀`, `Some(m)` = stage point `Y_m`) and apply the
/// exponentials `exp(h Σⱼ αⱼ kⱼ)` in list order (the first listed acts first). Each
/// exponential keeps only its non-zero coefficients `(j, αⱼ)`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CfStageData {
    pub base: Option<usize>,
    pub exps: Vec<Vec<(usize, f64)>>,
}

/// The dense coefficients of a four-stage scheme with CF4's shape (stage 0 is `y₀`, stages
/// 1–3 one exponential each from `y₀` or an earlier stage point, the update two exponentials
/// from `y₀`), for the fused kernel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fused4 {
    /// `α` of the exponential of stages 1, 2, 3 over `k₁ … k₄`.
    stage: [[f64; 4]; 3],
    /// The base of stages 1, 2, 3 (`0` = `y₀`, `m` = stage point `m`).
    base: [usize; 3],
    /// The two exponentials of the update (the first acts first).
    update: [[f64; 4]; 2],
    c: [f64; 4],
}

impl Fused4 {
    fn of(data: &CfData) -> Option<Self> {
        let dense = |e: &[(usize, f64)]| {
            let mut row = [0.0; 4];
            for &(j, a) in e {
                *row.get_mut(j)? = a;
            }
            Some(row)
        };
        if data.stages.len() < 4 || data.stages_main != 4 || data.update.base.is_some() {
            return None;
        }
        let first = &data.stages[0];
        if first.base.is_some() || !first.exps.is_empty() || data.update.exps.len() != 2 {
            return None;
        }
        let mut stage = [[0.0; 4]; 3];
        let mut base = [0; 3];
        for i in 1..4 {
            let st = &data.stages[i];
            if st.exps.len() != 1 {
                return None;
            }
            stage[i - 1] = dense(&st.exps[0])?;
            base[i - 1] = match st.base {
                None => 0,
                Some(m) if m < i => m,
                Some(_) => return None,
            };
        }
        // The kernel tests the finiteness of the first update exponent only, a sum over every
        // stage derivative: it needs all four weights non-zero.
        let update = [dense(&data.update.exps[0])?, dense(&data.update.exps[1])?];
        if update[0].contains(&0.0) {
            return None;
        }
        Some(Self {
            stage,
            base,
            update,
            c: [data.c[0], data.c[1], data.c[2], data.c[3]],
        })
    }
}

/// A commutator-free scheme in owned form.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CfData {
    pub stages: Vec<CfStageData>,
    pub c: Vec<f64>,
    pub update: CfStageData,
    pub update_hat: Option<CfStageData>,
    /// Stages the main update needs (the rest serve only the embedded update).
    pub stages_main: usize,
    /// `is_base[m]`: some stage or update starts from stage point `m`.
    pub is_base: Vec<bool>,
    pub order: u32,
    pub embedded_order: Option<u32>,
}

/// The commutator-free Lie group method engine \[CMO03\]; Crouch–Grossman methods \[CG93, OM99\]
/// are the case of one stage derivative per exponential.
///
/// Each stage point is a product of exponentials of linear combinations of the earlier stage
/// derivatives `kⱼ = f(t + cⱼh, Yⱼ)` applied to `y₀` (or to an earlier stage point, which reuses
/// its exponentials, as CF4's `Y₄ = exp(h(k₃ − ½k₁))·Y₂`), and so is the update:
///
/// ```text
///   Yᵢ = exp(h Σⱼ α⁽ʳ⁾ᵢⱼ kⱼ) ··· exp(h Σⱼ α⁽¹⁾ᵢⱼ kⱼ) · y₀,   y₁ = exp(h Σⱼ β⁽ᴿ⁾ⱼ kⱼ) ··· exp(h Σⱼ β⁽¹⁾ⱼ kⱼ) · y₀.
/// ```
///
/// No `dexp⁻¹` and no commutators are needed. For pairs the error is the distance between `y₁`
/// and the embedded `ŷ₁` measured by `D` (default: weighted RMS of ambient coordinates,
/// [`AmbientDistance`]).
///
/// **Fused kernel.** For schemes of CF4's shape (four stages, one exponential per stage, two in
/// the update; CF4 itself, and CF4(3) when no error estimate is asked for) on problems whose
/// points and algebra elements own no heap memory (fixed-size groups, products, arrays), a step
/// without error estimate runs as straight-line code on local values: the stages stay in
/// registers instead of work buffers. Same floating-point operations in the same order, so the
/// same results. Finiteness is tested once, on the first update exponent (a sum over every
/// stage derivative with non-zero weights); when that fails the general loop takes the step
/// again and names the first stage whose field value was not finite.
/// [`CommutatorFree::unfused`] turns it off.
#[derive(Clone, Debug)]
pub struct CommutatorFree<A: ActionInPlace, D = AmbientDistance> {
    data: CfData,
    name: String,
    distance: D,
    k: Vec<Algebra<A>>,
    ys: Vec<A::Point>,
    v: Option<Algebra<A>>,
    /// The embedded result `ŷ₁` (pairs only).
    y_hat: Option<A::Point>,
    /// CF4's shape: the fused kernel applies (see the type's documentation).
    fused4: Option<Fused4>,
    stats: StepStats,
}

impl CfStageData {
    fn from_product(p: &ExpProduct) -> Self {
        Self {
            base: match p.base {
                Base::Start => None,
                Base::Stage(m) => Some(m),
            },
            exps: p
                .factors
                .iter()
                .map(|r| {
                    r.iter()
                        .enumerate()
                        .filter(|&(_, &a)| a != 0.0)
                        .map(|(j, &a)| (j, a))
                        .collect()
                })
                .collect(),
        }
    }
}

impl CfData {
    pub(crate) fn from_scheme(scheme: &CommutatorFreeScheme) -> Self {
        let stages: Vec<CfStageData> = scheme
            .stages
            .iter()
            .map(|s| CfStageData::from_product(&s.point))
            .collect();
        let update = CfStageData::from_product(&scheme.update);
        let update_hat = scheme
            .embedded
            .map(|e| CfStageData::from_product(&e.update));
        let mut is_base = vec![false; stages.len()];
        for st in stages.iter().chain([&update]).chain(update_hat.iter()) {
            if let Some(m) = st.base
                && let Some(b) = is_base.get_mut(m)
            {
                *b = true;
            }
        }
        Self {
            stages,
            c: scheme.stages.iter().map(|s| s.c).collect(),
            update,
            update_hat,
            is_base,
            stages_main: scheme.stages_for_update(),
            order: scheme.order,
            embedded_order: scheme.embedded.map(|e| e.order),
        }
    }
}

impl<A: ActionInPlace> CommutatorFree<A> {
    /// A stepper for a scheme of the catalogue (or a user-written one), with the default
    /// distance [`AmbientDistance`] for pairs.
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::Rn;
    /// use schemes::{CommutatorFree, GroupLogDistance, Stepper, catalogue::CF43};
    /// // On a group acting on itself, measure the pair's error through the logarithm.
    /// let stepper = CommutatorFree::<LeftMultiplication<Rn<f64, 2>>>::new(&CF43)
    ///     .with_distance(GroupLogDistance);
    /// assert_eq!(stepper.order(), 4);
    /// assert_eq!(stepper.embedded_order(), Some(3));
    /// ```
    #[must_use]
    pub fn new(scheme: &CommutatorFreeScheme) -> Self {
        Self::from_data(
            CfData::from_scheme(scheme),
            scheme.name.to_string(),
            AmbientDistance,
        )
    }
}

impl<A: ActionInPlace, D> CommutatorFree<A, D> {
    pub(crate) fn from_data(data: CfData, name: String, distance: D) -> Self {
        Self {
            fused4: Fused4::of(&data),
            data,
            name,
            distance,
            k: Vec::new(),
            ys: Vec::new(),
            v: None,
            y_hat: None,
            stats: StepStats::default(),
        }
    }

    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Always use the general stage loop (turn off the fused kernel for CF4's shape described on
    /// [`CommutatorFree`]); the results are the same, only slower. For comparisons and tests.
    #[must_use]
    pub fn unfused(mut self) -> Self {
        self.fused4 = None;
        self
    }

    /// Replace the distance used by the error estimate of a pair.
    pub fn with_distance<D2>(self, distance: D2) -> CommutatorFree<A, D2> {
        CommutatorFree {
            data: self.data,
            name: self.name,
            distance,
            k: self.k,
            ys: self.ys,
            v: self.v,
            y_hat: self.y_hat,
            fused4: self.fused4,
            stats: self.stats,
        }
    }
}

/// `out ← h Σⱼ αⱼ kⱼ` over the first `ks.len()` dense coefficients (the same operations, in
/// the same order, as [`combine`] over the non-zero ones: the zeros add exact zeros).
#[inline(always)]
fn dense_combine<V: VectorSpace>(out: &mut V, h: V::Scalar, alpha: &[f64; 4], ks: &[&V]) {
    out.set_scaled(h * c::<V::Scalar>(alpha[0]), ks[0]);
    for (j, kj) in ks.iter().enumerate().skip(1) {
        out.add_scaled(h * c::<V::Scalar>(alpha[j]), kj);
    }
}

/// Apply one stage description to its base point, writing the result into `out` (moved in
/// place: no allocation for runtime-sized points once `out` has their size); `k[..upto]` are
/// the stage derivatives known and `ys` the stage points before this one.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn apply_stage<A: ActionInPlace>(
    action: &A,
    stage: &CfStageData,
    y0: &A::Point,
    h: Scalar<A>,
    k: &[Algebra<A>],
    ys: &[A::Point],
    v: &mut Algebra<A>,
    stats: &mut StepStats,
    out: &mut A::Point,
) {
    match stage.base {
        None => out.clone_from(y0),
        Some(m) => out.clone_from(&ys[m]),
    }
    for alpha in &stage.exps {
        combine(v, h, alpha, k);
        action.act_exp_assign(v, out);
        stats.exps += 1;
    }
}

impl<A: ActionInPlace, D> CommutatorFree<A, D> {
    /// The fused step for CF4's shape: the general loop written out on local values (same
    /// operations, same order). `CF4_ZEROS`: CF4's pattern — the exponents of stages 3 and 4
    /// have its zero coefficients (on `k₁` and on `k₂`), whose terms are skipped, and stage 3
    /// starts from `y₀`, stage 4 from `Y₂`.
    fn step_fused4<F, const CF4_ZEROS: bool>(
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
        // No test per stage: `None` when a stage value was not finite (or the first update
        // exponent overflowed), and the caller takes the step again with the general loop,
        // which names the first stage with a non-finite value.
        let Some(fz) = &self.fused4 else {
            unreachable!("called only with CF4's shape")
        };
        let ti = |i: usize| t + h * c::<Scalar<A>>(fz.c[i]);
        let z = action.algebra_zero(y);
        let mut v = z.clone();
        let mut k1 = z.clone();
        f.eval(ti(0), y, &mut k1);

        dense_combine(&mut v, h, &fz.stage[0], &[&k1]);
        let mut y2 = y.clone();
        action.act_exp_assign(&v, &mut y2);
        let mut k2 = z.clone();
        f.eval(ti(1), &y2, &mut k2);

        if CF4_ZEROS {
            v.set_scaled(h * c::<Scalar<A>>(fz.stage[1][1]), &k2);
        } else {
            dense_combine(&mut v, h, &fz.stage[1], &[&k1, &k2]);
        }
        // CF4's shape starts stage 3 from `y₀` and stage 4 from `Y₂`; fixed at compile time,
        // so that only what the field reads of `Y₂` and `Y₃` is computed.
        let mut y3 = if !CF4_ZEROS && fz.base[1] == 1 {
            y2.clone()
        } else {
            y.clone()
        };
        action.act_exp_assign(&v, &mut y3);
        let mut k3 = z.clone();
        f.eval(ti(2), &y3, &mut k3);

        if CF4_ZEROS {
            v.set_scaled(h * c::<Scalar<A>>(fz.stage[2][0]), &k1);
            v.add_scaled(h * c::<Scalar<A>>(fz.stage[2][2]), &k3);
        } else {
            dense_combine(&mut v, h, &fz.stage[2], &[&k1, &k2, &k3]);
        }
        let mut y4 = match if CF4_ZEROS { 1 } else { fz.base[2] } {
            1 => y2.clone(),
            2 => y3.clone(),
            _ => y.clone(),
        };
        action.act_exp_assign(&v, &mut y4);
        let mut k4 = z;
        f.eval(ti(3), &y4, &mut k4);

        let ks = [&k1, &k2, &k3, &k4];
        let mut y1 = y.clone();
        dense_combine(&mut v, h, &fz.update[0], &ks);
        // The first exponent is a dense sum over every kᵢ: finite exactly when all kᵢ are
        // (or on overflow, which the general loop then sorts out).
        let ok = v.all_finite();
        action.act_exp_assign(&v, &mut y1);
        dense_combine(&mut v, h, &fz.update[1], &ks);
        action.act_exp_assign(&v, &mut y1);
        if !ok {
            return None;
        }
        self.stats.f_evals += 4;
        self.stats.exps += 5;
        Some(StepOutput { y: y1, error: None })
    }
}

impl<A: ActionInPlace, D: PointDistance<A::Point>> Stepper<A> for CommutatorFree<A, D> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        self.data.order
    }
    fn embedded_order(&self) -> Option<u32> {
        self.data.embedded_order
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
        if tol.is_some() && self.data.update_hat.is_none() {
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        // Fixed-size problems (no heap memory in points or algebra elements, so the local
        // copies cost no allocation) without an error estimate: straight-line code.
        if let Some(fz) = &self.fused4
            && tol.is_none()
            && crate::stepper::fixed_size::<A>()
        {
            // CF4's own pattern (stage 3 without k₁, stage 4 without k₂) skips those zero terms,
            // as the general loop's sparse combinations do.
            let out = if fz.stage[1][0] == 0.0 && fz.stage[2][1] == 0.0 && fz.base == [0, 0, 1] {
                self.step_fused4::<F, true>(action, f, t, y, h)
            } else {
                self.step_fused4::<F, false>(action, f, t, y, h)
            };
            if let Some(out) = out {
                return Ok(out);
            }
        }
        let s = self.data.stages.len();
        if self.k.len() != s {
            let z = action.algebra_zero(y);
            self.k = vec![z.clone(); s];
            self.ys = vec![y.clone(); s];
            self.v = Some(z);
        }
        let Self {
            data,
            distance,
            k,
            ys,
            v,
            y_hat,
            stats,
            ..
        } = self;
        let v = v.as_mut().expect("buffers allocated above");
        // Without an error estimate only the stages of the main update are needed.
        let s = if tol.is_some() { s } else { data.stages_main };
        for i in 0..s {
            let stage = &data.stages[i];
            let ti = t + h * c::<Scalar<A>>(data.c[i]);
            if stage.exps.is_empty() && stage.base.is_none() {
                if data.is_base[i] {
                    ys[i].clone_from(y); // a later stage starts from it
                }
                f.eval(ti, y, &mut k[i]);
            } else {
                let (before, rest) = ys.split_at_mut(i);
                apply_stage(action, stage, y, h, &k[..i], before, v, stats, &mut rest[0]);
                f.eval(ti, &rest[0], &mut k[i]);
            }
            stats.f_evals += 1;
            if !k[i].all_finite() {
                return Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(ti),
                });
            }
        }
        let mut y1 = y.clone();
        apply_stage(action, &data.update, y, h, &k[..s], ys, v, stats, &mut y1);
        let error = match (tol, &data.update_hat) {
            (Some(tol), Some(hat)) => {
                let y1_hat = y_hat.get_or_insert_with(|| y.clone());
                apply_stage(action, hat, y, h, k, ys, v, stats, y1_hat);
                Some(distance.scaled_error(y, &y1, y1_hat, tol))
            }
            _ => None,
        };
        Ok(StepOutput { y: y1, error })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
