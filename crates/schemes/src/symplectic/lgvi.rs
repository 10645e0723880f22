//! The Lie group variational integrator (LGVI) of Lee, Leok & McClamroch for a rigid body with
//! a fixed point on `SO(3)` \[LLM07\] (`docs/symplectic.md` §4).

use super::cotangent::{CotangentAction, CotangentPoint};
use super::rigid_body::{RigidBody, RigidBodyPotential};
use super::{check_step_input, validate_options};
use crate::error::SchemeError;
use crate::implicit::{ImplicitOptions, StageSolver};
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::LieVectorField;
use liegroup::angle::AngleFns;
use liegroup::linalg::max_abs;
use liegroup::scalar::{c, re};
use liegroup::{CayleyGroup, LieGroup, So3, hat};
use nalgebra::{Matrix3, RealField, Vector3};

/// How the relative rotation `F_k = R_kᵀR_{k+1}` is parametrized in the implicit equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LgviMap {
    /// `F = (I + f̂)(I − f̂)⁻¹ = cay(2f)` (Lee–Leok–McClamroch's Cayley convention, `|f| =
    /// tan(angle/2)`; rotations by π per step are not representable). Equation (L3c).
    #[default]
    Cayley,
    /// `F = exp(f̂)` (rotation vector; needs `|f| < π`). Equation (L3e).
    Exp,
}

/// The Lie group variational integrator for a rigid body with a fixed point \[LLM07\]
/// (`docs/symplectic.md` §4, eqs. (L1)–(L5); the equations as in \[LLM07\]).
///
/// From the discrete Lagrangian (`J_d = ½ tr(J) I₃ − J`, `J = diag(I₁, I₂, I₃)`, weight
/// `c ∈ [0, 1]` of the potential)
///
/// ```text
///   (L1)  L_d(R_k, F_k) = (1/h) tr[(I − F_k) J_d] − h c U(R_k) − h (1 − c) U(R_k F_k),
/// ```
///
/// one step from `(R_k, Π_k)` (body momentum `Π_k = R_kᵀπ_k`, body moment `M = M(R)` of
/// [`RigidBodyPotential`]) is
///
/// ```text
///   (L2)  h S(Π_k + h c M_k) = F_k J_d − J_d F_kᵀ                 (implicit in F_k ∈ SO(3)),
///   (L4)  R_{k+1} = R_k F_k,
///   (L5)  Π_{k+1} = F_kᵀ (Π_k + h c M_k) + h (1 − c) M_{k+1},
///         equivalently π_{k+1} = π_k + h c R_k M_k + h (1 − c) R_{k+1} M_{k+1}   (π = RΠ).
/// ```
///
/// The spatial form of (L5) is the one evaluated: it is the same map, but it does not form
/// `R Rᵀ π`, whose round-off (through the orthogonality error of `R`) makes `|π|` drift
/// systematically (≈ 2e-9 over 10⁵ steps of the free body otherwise).
///
/// With `v = h(Π_k + h c M_k)`, (L2) is a 3-vector equation in the coordinates of `F_k`:
///
/// ```text
///   (L3c) Cayley, F = (I + f̂)(I − f̂)⁻¹:  φ(f) = v + v × f + (v·f) f − 2Jf = 0,
///         ∇φ = v̂ + (v·f) I + f vᵀ − 2J,                 start f₀ = (2J − v̂)⁻¹ v;
///   (L3e) exp, F = exp(f̂), θ = |f|:      G(f) = (sin θ/θ) Jf + ((1 − cos θ)/θ²) f × Jf − v = 0,
///         ∇G = α (Jf) fᵀ + a J + β (f × Jf) fᵀ + b (f̂ J − S(Jf)),   start f₀ = J⁻¹ v,
/// ```
///
/// with `a = sin θ/θ`, `b = (1 − cos θ)/θ²`, `α = (θ cos θ − sin θ)/θ³`,
/// `β = (θ sin θ − 2(1 − cos θ))/θ⁴` (Taylor polynomials in `θ²` below `θ = ½`, so dual numbers
/// pass through `f = 0`). [`StageSolver::Newton`] (default) uses these exact Jacobians;
/// [`StageSolver::FixedPoint`] iterates `f ← (2J)⁻¹(v + v × f + (v·f) f)` (Cayley) or
/// `f ← J⁻¹(v − b f × Jf)/a` (exp). Converged when `‖Δf‖_∞ ≤ tol·‖f‖_∞`; otherwise
/// [`SchemeError::NonConvergence`].
///
/// `c = ½` (default) gives the symmetric, second-order method; other `c` give order 1. The method
/// is symplectic on `T*SO(3)`, conserves the spatial momentum of the free rigid body and `e₃·π`
/// of the heavy top (up to the solver tolerance and round-off), and keeps `R` orthogonal to
/// round-off.
///
/// **As a [`Stepper`].** It steps [`CotangentAction<So3<T>>`] points `(R, π)` (π spatial;
/// `Π = Rᵀπ` is formed inside the step); the vector field `f` passed to [`Stepper::step`] is
/// **ignored** (the stepper holds the rigid body). Generic over the scalar `T`.
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use liegroup::So3;
/// use schemes::symplectic::{CotangentPoint, Lgvi, LgviMap, RigidBody};
/// let body = RigidBody::free(Vector3::new(1.0, 2.0, 3.0)).unwrap();
/// let mut lgvi = Lgvi::new(body, LgviMap::Cayley);
/// let y0 = CotangentPoint::from_body(So3::identity(), Vector3::new(0.5, -1.0, 2.0));
/// let y1 = lgvi.advance(0.0, &y0, 0.1).unwrap();
/// assert!((y1.mu - y0.mu).norm() < 1e-14); // spatial momentum of the free body
/// ```
#[derive(Clone, Debug)]
pub struct Lgvi<P> {
    body: RigidBody<P>,
    map: LgviMap,
    weight: f64,
    options: ImplicitOptions,
    stats: StepStats,
}

impl<P> Lgvi<P> {
    /// The LGVI with `c = ½` and default solver options (Newton, `tol = 1e-14`, at most 50
    /// iterations).
    #[must_use]
    pub fn new(body: RigidBody<P>, map: LgviMap) -> Self {
        Self {
            body,
            map,
            weight: 0.5,
            options: ImplicitOptions::default(),
            stats: StepStats::default(),
        }
    }

    /// Replace the weight `c` of the potential at the start of the step (eq. (L1)).
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] unless `c ∈ [0, 1]`.
    pub fn with_potential_weight(mut self, c: f64) -> Result<Self, SchemeError> {
        if !(0.0..=1.0).contains(&c) {
            return Err(SchemeError::InvalidOption {
                name: "potential weight",
                reason: format!("c must lie in [0, 1], got {c}"),
            });
        }
        self.weight = c;
        Ok(self)
    }

    /// Replace the solver options.
    ///
    /// # Errors
    /// [`SchemeError::InvalidTolerance`] for a tolerance that is not positive and finite,
    /// [`SchemeError::InvalidOption`] for `max_iter = 0`.
    pub fn with_options(mut self, options: ImplicitOptions) -> Result<Self, SchemeError> {
        validate_options(&options)?;
        self.options = options;
        Ok(self)
    }

    /// The rigid body.
    #[must_use]
    pub fn body(&self) -> &RigidBody<P> {
        &self.body
    }

    /// The parametrization of `F_k`.
    #[must_use]
    pub fn map(&self) -> LgviMap {
        self.map
    }

    /// The weight `c` of the potential.
    #[must_use]
    pub fn potential_weight(&self) -> f64 {
        self.weight
    }

    /// One step of size `h` from `y = (R, π)` (eqs. (L2)–(L5)); `t` is used only in error
    /// reports.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] for a non-finite `h`, [`SchemeError::NonFinite`] for a
    /// non-finite state, [`SchemeError::NonConvergence`] when (L2) is not solved within
    /// `max_iter` iterations.
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
        let r = y.g;
        let body = r.inverse_rotate(&y.mu);
        let weight = c::<T>(self.weight);
        let moment0 = if self.weight == 0.0 {
            Vector3::zeros()
        } else {
            self.stats.f_evals += 1;
            self.body.potential().moment(&r)
        };
        let impulse = body + moment0 * (h * weight);
        let v = impulse * h;
        let f = self.solve(re(t), &v)?;
        let rel = match self.map {
            LgviMap::Cayley => So3::cay(&(f * c::<T>(2.0))),
            LgviMap::Exp => So3::exp(&f),
        };
        self.stats.exps += 1;
        let r1 = r.compose(&rel);
        // (L5) in spatial form: R_{k+1}F_kᵀ = R_k turns R_{k+1}Π_{k+1} into
        // π_{k+1} = π_k + h c R_k M_k + h(1 − c) R_{k+1} M_{k+1}. The same map in exact
        // arithmetic, but it never forms R Rᵀ π, which drifts systematically with the round-off
        // in the orthogonality of R (measured: |π| drifts 2e-9 over 10⁵ steps otherwise).
        let mut pi1 = y.mu + r.rotate(&moment0) * (h * weight);
        if self.weight != 1.0 {
            self.stats.f_evals += 1;
            pi1 += r1.rotate(&self.body.potential().moment(&r1)) * (h * (T::one() - weight));
        }
        let out = CotangentPoint::new(r1, pi1);
        if !out.all_finite() {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: re(t + h),
            });
        }
        Ok(out)
    }

    /// Solve (L3c) or (L3e) for `f`.
    fn solve<T: RealField + Copy>(
        &mut self,
        t: f64,
        v: &Vector3<T>,
    ) -> Result<Vector3<T>, SchemeError> {
        let j = Matrix3::from_diagonal(&self.body.inertia().cast::<T>());
        let two = c::<T>(2.0);
        let tol = self.options.tol.max(8.0 * f64::EPSILON);
        let mut f = match self.map {
            // 2J − v̂ is invertible: xᵀ(2J − v̂)x = 2xᵀJx > 0.
            LgviMap::Cayley => (j * two - hat(v)).lu().solve(v).unwrap_or(*v),
            LgviMap::Exp => j.lu().solve(v).unwrap_or(*v),
        };
        let mut residual = f64::INFINITY;
        let mut iterations = 0;
        while iterations < self.options.max_iter {
            iterations += 1;
            self.stats.iterations += 1;
            let next = match (self.map, self.options.solver) {
                (LgviMap::Cayley, StageSolver::Newton) => {
                    let vf = v.dot(&f);
                    let phi = v + v.cross(&f) + f * vf - j * f * two;
                    let jac = hat(v) + Matrix3::identity() * vf + f * v.transpose() - j * two;
                    jac.lu().solve(&phi).map(|d| f - d)
                }
                (LgviMap::Cayley, StageSolver::FixedPoint) => {
                    (j * two).lu().solve(&(v + v.cross(&f) + f * v.dot(&f)))
                }
                (LgviMap::Exp, solver) => {
                    let fns = ExpFns::new(f.dot(&f));
                    let jf = j * f;
                    let fxjf = f.cross(&jf);
                    match solver {
                        StageSolver::Newton => {
                            let g = jf * fns.a + fxjf * fns.b - v;
                            let jac = jf * f.transpose() * fns.alpha
                                + j * fns.a
                                + fxjf * f.transpose() * fns.beta
                                + (hat(&f) * j - hat(&jf)) * fns.b;
                            jac.lu().solve(&g).map(|d| f - d)
                        }
                        StageSolver::FixedPoint => j.lu().solve(&((v - fxjf * fns.b) / fns.a)),
                    }
                }
            };
            let Some(next) = next else {
                return Err(SchemeError::NonConvergence {
                    t,
                    residual: f64::INFINITY,
                    iterations,
                    tolerance: tol,
                });
            };
            // NaN-aware maxima: a NaN update is reported as such, never as converged.
            let delta = max_abs((next - f).iter().map(|x| re(*x)));
            if !next.iter().all(|x| x.is_finite()) {
                residual = delta;
                break;
            }
            let scale = max_abs(next.iter().map(|x| re(*x)));
            f = next;
            residual = delta;
            if delta <= tol * scale {
                return Ok(f);
            }
        }
        Err(SchemeError::NonConvergence {
            t,
            residual,
            iterations,
            tolerance: tol,
        })
    }
}

/// `a = sin θ/θ`, `b = (1 − cos θ)/θ²`, `α = (θ cos θ − sin θ)/θ³ = 2 da/d(θ²)`,
/// `β = (θ sin θ − 2(1 − cos θ))/θ⁴ = 2 db/d(θ²)` at `θ² = t2`, from the functions of
/// [`liegroup::angle`]: with `θ cos θ = θ − θ³ b` and `sin θ = θ − θ³ (θ − sin θ)/θ³`,
/// `α = (θ − sin θ)/θ³ − b` and `β = 2 q₂ − (θ − sin θ)/θ³`, `q₂ = (½ − b)/θ²` (no
/// cancellation in `α ≈ −1/3`; a factor 3 in `β ≈ −1/12`).
struct ExpFns<T> {
    a: T,
    b: T,
    alpha: T,
    beta: T,
}

impl<T: RealField + Copy> ExpFns<T> {
    fn new(t2: T) -> Self {
        let mut f = AngleFns::new(t2);
        let (a, b) = f.sinc_cosc();
        let sinc3 = f.sinc3();
        Self {
            a,
            b,
            alpha: sinc3 - b,
            beta: f.q2() * c::<T>(2.0) - sinc3,
        }
    }
}

impl<T, P> Stepper<CotangentAction<So3<T>>> for Lgvi<P>
where
    T: RealField + Copy,
    P: RigidBodyPotential<T>,
{
    fn name(&self) -> String {
        let map = match self.map {
            LgviMap::Cayley => "cayley",
            LgviMap::Exp => "exp",
        };
        if self.weight == 0.5 {
            format!("lgvi-{map}")
        } else {
            format!("lgvi-{map}(c={})", self.weight)
        }
    }

    /// 2 for `c = ½`, otherwise 1.
    fn order(&self) -> u32 {
        if self.weight == 0.5 { 2 } else { 1 }
    }

    /// One step (eqs. (L2)–(L5)); `f` is ignored (see the type's documentation).
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

#[cfg(test)]
mod tests {
    use super::ExpFns;

    /// `α = Σ_{k≥1} (−1)ᵏ 2k θ²ᵏ⁻²/(2k+1)!` and `β = Σ_{k≥1} (−1)ᵏ 2k θ²ᵏ⁻²/(2k+2)!` (the
    /// derivatives `2 d/d(θ²)` of the series of `a` and `b`), summed to convergence.
    fn series(t2: f64) -> (f64, f64) {
        let (mut alpha, mut beta, mut fact, mut p) = (0.0, 0.0, 1.0_f64, 1.0);
        for k in 1..40 {
            fact *= (2 * k) as f64 * (2 * k + 1) as f64; // (2k+1)!
            let term = if k % 2 == 0 { 1.0 } else { -1.0 } * (2 * k) as f64 * p / fact;
            alpha += term;
            beta += term / (2 * k + 2) as f64;
            p *= t2;
        }
        (alpha, beta)
    }

    /// `α` and `β` against their Taylor series (`θ < 2`) and against their closed forms where
    /// those do not cancel (`θ ≥ 1`).
    #[test]
    fn alpha_and_beta_match_their_definitions() {
        for theta in [0.0, 1e-4, 0.1, 0.24, 0.26, 0.5, 1.0, 1.5, 1.9, 2.1, 3.0] {
            let t2: f64 = theta * theta;
            let fns = ExpFns::new(t2);
            let mut refs = Vec::new();
            if theta < 2.0 {
                refs.push(series(t2));
            }
            if theta >= 1.0 {
                let (s, c) = theta.sin_cos();
                refs.push((
                    (theta * c - s) / (t2 * theta),
                    (theta * s - 2.0 * (1.0 - c)) / (t2 * t2),
                ));
            }
            for (alpha, beta) in refs {
                let ea = (fns.alpha - alpha).abs() / (f64::EPSILON * alpha.abs());
                let eb = (fns.beta - beta).abs() / (f64::EPSILON * beta.abs());
                assert!(ea <= 8.0, "α at θ = {theta}: {ea} ulp");
                assert!(eb <= 24.0, "β at θ = {theta}: {eb} ulp");
            }
        }
    }
}
