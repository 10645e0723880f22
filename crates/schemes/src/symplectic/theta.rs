//! The one-parameter family of symplectic Lie group integrators on the right-trivialized
//! `T*G` (`docs/symplectic.md` §2.3–2.6; after \[CMO14\] and [CCLMO22, §3.2, eqs. (15)–(17)]).

use super::cotangent::{CotangentAction, CotangentPoint, dexp_star};
use super::hamiltonian::CotangentHamiltonian;
use super::{at_time, check_step_input, validate_options};
use crate::error::SchemeError;
use crate::implicit::{ImplicitOptions, StageSolver};
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use core::marker::PhantomData;
use homogeneous::LieVectorField;
use liegroup::linalg::{max_abs, nan_max};
use liegroup::scalar::{c, re};
use liegroup::{LieGroup, VectorSpace};
use nalgebra::{DMatrix, DVector};
use num_traits::{One, Zero};

/// Relative Newton update below which a stalled iteration counts as converged: `1000 ε`
/// (about `2.2·10⁻¹³`), a few hundred rounding errors of the map `Φ` at unit scale.
const ROUND_OFF_FLOOR: f64 = 1e3 * f64::EPSILON;

/// The θ-family of symplectic Lie group integrators on `T*G ≅ G × 𝔤*` (right trivialization),
/// for any Lie group `G` and any Hamiltonian given by [`CotangentHamiltonian`]
/// ([CCLMO22, eqs. (15)–(17)], \[CMO14\]; derived in `docs/symplectic.md` §2.3–2.4,
/// eqs. (T1)–(T6)).
///
/// One step of size `h` from `(g₀, μ₀)` solves for `ξ ∈ 𝔤` and `μ̄ ∈ 𝔤*`:
///
/// ```text
///   (T1)  ḡ = exp(θhξ) g₀,
///   (T2)  ν̄ = ν(ḡ, μ̄)                      (right-trivialized ∂H/∂g),
///   (T3)  ξ = ∂H/∂μ(ḡ, μ̄),
///   (T4)  μ̄ = dexp*_{−hξ}(μ₀ − h Ad*_{exp(θhξ)} ν̄) + θh dexp*_{θhξ} ν̄,
/// ```
///
/// and updates
///
/// ```text
///   (T5)  g₁ = exp(hξ) g₀,
///   (T6)  μ₁ = Ad*_{exp(−hξ)}(μ₀ − h Ad*_{exp(θhξ)} ν̄),
/// ```
///
/// with `Ad*_g = (Ad_g)ᵀ` (so `Ad*_{exp(−hξ)} = coadjoint(exp(hξ), ·)`) and
/// `dexp*_x = (dexp_x)ᵀ` ([`dexp_star`](super::dexp_star)).
///
/// Properties (`docs/symplectic.md` §2.5, measured by the tests `symplectic_*.rs`): symplectic for
/// every `θ ∈ [0, 1]`; order 2 and symmetric at `θ = ½` (so it can be composed to higher order),
/// order 1 otherwise; exact conservation (up to the solver tolerance and round-off) of the
/// momentum map of any symmetry of `H` under left multiplication (`μ` itself when `H` is
/// left-invariant, e.g. the spatial momentum of the free rigid body; `e₃·π` for the heavy top).
/// On `G = ℝⁿ` it is the implicit midpoint rule at `θ = ½` and the two symplectic Euler methods
/// at `θ = 0` (`p` implicit) and `θ = 1` (`q` implicit).
///
/// **Solver.** The `2·dim 𝔤` unknowns `x = (ξ, μ̄)` satisfy the fixed-point form
/// `x = Φ(x)` of (T3)–(T4). [`StageSolver::Newton`] (default) runs simplified Newton on
/// `x − Φ(x) = 0` with a forward-difference Jacobian taken at the initial guess and refreshed
/// when the iteration contracts by less than ½ per step; [`StageSolver::FixedPoint`] iterates
/// `x ← Φ(x)` (converges for `h‖∂²H‖` small). The initial guess is
/// `ξ = ∂H/∂μ(g₀, μ₀)`, `μ̄ = μ₀`. Converged when, for each block, the max-norm of the update is
/// `≤ tol·max(1, ‖block‖_∞)`; otherwise [`SchemeError::NonConvergence`] after `max_iter`
/// iterations. The Jacobian and its LU factorization are allocated per step.
///
/// **As a [`Stepper`].** It steps [`CotangentAction<G>`] points; the vector field `f` passed to
/// [`Stepper::step`] is **ignored** (the stepper holds the Hamiltonian; pass
/// [`HamiltonianVectorField`](super::HamiltonianVectorField) of the same Hamiltonian to share
/// one [`Problem`](crate::Problem) with the RKMK methods). `t` is used only in error reports.
/// Negative step sizes are allowed (compositions); non-finite ones are rejected. Every kernel
/// is generic over the scalar, so dual numbers flow through a step.
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use schemes::symplectic::{CotangentAction, RigidBody, ThetaMethod};
/// use schemes::{Options, Problem, integrate, symplectic::HamiltonianVectorField};
/// let top = RigidBody::heavy_top_bc10();
/// let y0 = RigidBody::heavy_top_bc10_initial();
/// let problem = Problem::new(CotangentAction::new(), HamiltonianVectorField(top.clone()));
/// let mut stepper = ThetaMethod::midpoint(top.clone());
/// let sol = integrate(&problem, &mut stepper, 0.0, y0.clone(), 0.1, &Options::count(100)).unwrap();
/// let (_, y1) = sol.last();
/// // e₃·π is conserved (gravity is symmetric under rotations about the vertical).
/// assert!((y1.mu[2] - y0.mu[2]).abs() < 1e-10 * y0.mu.norm());
/// ```
#[derive(Clone, Debug)]
pub struct ThetaMethod<G, H> {
    hamiltonian: H,
    theta: f64,
    options: ImplicitOptions,
    stats: StepStats,
    _group: PhantomData<fn() -> G>,
}

impl<G: LieGroup, H: CotangentHamiltonian<G>> ThetaMethod<G, H> {
    /// The method with parameter `θ ∈ [0, 1]` and default solver options (simplified Newton,
    /// `tol = 1e-14`, at most 50 iterations).
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] if `θ` is not in `[0, 1]` (or not finite).
    pub fn new(hamiltonian: H, theta: f64) -> Result<Self, SchemeError> {
        if !(0.0..=1.0).contains(&theta) {
            return Err(SchemeError::InvalidOption {
                name: "theta",
                reason: format!("θ must lie in [0, 1], got {theta}"),
            });
        }
        Ok(Self {
            hamiltonian,
            theta,
            options: ImplicitOptions::default(),
            stats: StepStats::default(),
            _group: PhantomData,
        })
    }

    /// The symmetric, second-order member `θ = ½`.
    #[must_use]
    pub fn midpoint(hamiltonian: H) -> Self {
        Self {
            hamiltonian,
            theta: 0.5,
            options: ImplicitOptions::default(),
            stats: StepStats::default(),
            _group: PhantomData,
        }
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

    /// The parameter `θ`.
    #[must_use]
    pub fn theta(&self) -> f64 {
        self.theta
    }

    /// The Hamiltonian.
    #[must_use]
    pub fn hamiltonian(&self) -> &H {
        &self.hamiltonian
    }

    /// The solver options.
    #[must_use]
    pub fn options(&self) -> &ImplicitOptions {
        &self.options
    }

    /// One step of size `h` from `y` (eqs. (T1)–(T6)); `t` is used only in error reports.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] for a non-finite `h`, [`SchemeError::NonFinite`] for a
    /// non-finite state or Hamiltonian derivative, [`SchemeError::NonConvergence`] when the
    /// implicit equations are not solved within `max_iter` iterations.
    pub fn advance(
        &mut self,
        t: G::Scalar,
        y: &CotangentPoint<G>,
        h: G::Scalar,
    ) -> Result<CotangentPoint<G>, SchemeError> {
        check_step_input(re(t), re(h), y.all_finite())?;
        let n = y.mu.dim();
        let mut work = Work {
            xi: y.g.algebra_zero(),
            mubar: y.mu.zero_like(),
            n,
        };
        // Initial guess ξ = ∂H/∂μ(g₀, μ₀), μ̄ = μ₀.
        let mut x = vec![G::Scalar::zero(); 2 * n];
        self.hamiltonian
            .dh_dmu(&y.g, &y.mu)
            .write_coords(&mut x[..n]);
        y.mu.write_coords(&mut x[n..]);
        self.stats.f_evals += 1;
        let mut phi = vec![G::Scalar::zero(); 2 * n];
        let (iterations, residual, converged) = self.solve(t, y, h, &mut work, &mut x, &mut phi)?;
        if !converged {
            return Err(SchemeError::NonConvergence {
                t: re(t),
                residual,
                iterations,
                tolerance: self.options.tol,
            });
        }
        // The update (T5)–(T6) at the converged (ξ, μ̄).
        work.load(&x);
        let w = self
            .map(y, h, &mut work, &mut phi)
            .map_err(|e| at_time(e, re(t)))?;
        let step = work.xi.scaled(h);
        let e = G::exp(&step);
        self.stats.exps += 1;
        let out = CotangentPoint {
            g: e.compose(&y.g),
            mu: e.coadjoint(&w),
        };
        if !out.all_finite() {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: re(t + h),
            });
        }
        Ok(out)
    }

    /// `Φ(x) = (∂H/∂μ(ḡ, μ̄), rhs of (T4))` for `x = (ξ, μ̄)` loaded in `work`, written to `out`;
    /// returns `w = μ₀ − h Ad*_{exp(θhξ)} ν̄`.
    fn map(
        &mut self,
        y: &CotangentPoint<G>,
        h: G::Scalar,
        work: &mut Work<G::Algebra>,
        out: &mut [G::Scalar],
    ) -> Result<G::Algebra, SchemeError> {
        let n = work.n;
        let th = h * c::<G::Scalar>(self.theta);
        let e = G::exp(&work.xi.scaled(th));
        self.stats.exps += 1;
        let gbar = e.compose(&y.g);
        let omega = self.hamiltonian.dh_dmu(&gbar, &work.mubar);
        let nu = self.hamiltonian.dh_dg(&gbar, &work.mubar);
        self.stats.f_evals += 1;
        if !(omega.all_finite() && nu.all_finite()) {
            return Err(SchemeError::NonFinite {
                what: "Hamiltonian derivative",
                t: f64::NAN,
            });
        }
        // Ad*_{exp(θhξ)} ν̄ = (Ad_e)ᵀ ν̄ = coadjoint(e⁻¹, ν̄).
        let pulled = e.inverse().coadjoint(&nu);
        let mut w = y.mu.clone();
        w.add_scaled(-h, &pulled);
        let mut rhs = dexp_star::<G>(&work.xi.scaled(-h), &w);
        rhs.add_scaled(th, &dexp_star::<G>(&work.xi.scaled(th), &nu));
        omega.write_coords(&mut out[..n]);
        rhs.write_coords(&mut out[n..]);
        Ok(w)
    }

    /// Solve `x = Φ(x)`; returns (iterations, last update measure, converged).
    fn solve(
        &mut self,
        t: G::Scalar,
        y: &CotangentPoint<G>,
        h: G::Scalar,
        work: &mut Work<G::Algebra>,
        x: &mut [G::Scalar],
        phi: &mut [G::Scalar],
    ) -> Result<(usize, f64, bool), SchemeError> {
        let n = work.n;
        let dim = 2 * n;
        let tol = self.options.tol.max(8.0 * f64::EPSILON);
        // Max-norm of the update relative to max(1, ‖block‖_∞), per block; NaN-aware.
        let measure = |dx: &[G::Scalar], x: &[G::Scalar]| -> f64 {
            if !dx.iter().chain(x.iter()).all(|v| re(*v).is_finite()) {
                // Report NaN when a NaN is present, else ∞ (both are non-convergence).
                let nan = dx.iter().chain(x.iter()).any(|v| re(*v).is_nan());
                return if nan { f64::NAN } else { f64::INFINITY };
            }
            let block = |r: core::ops::Range<usize>| {
                let d = max_abs(dx[r.clone()].iter().map(|v| re(*v)));
                let s = nan_max(1.0, max_abs(x[r].iter().map(|v| re(*v))));
                d / s
            };
            nan_max(block(0..n), block(n..dim))
        };
        let with_time = |e: SchemeError| at_time(e, re(t));
        let mut residual = f64::INFINITY;
        let mut iterations = 0;
        match self.options.solver {
            StageSolver::FixedPoint => {
                while iterations < self.options.max_iter {
                    iterations += 1;
                    self.stats.iterations += 1;
                    work.load(x);
                    self.map(y, h, work, phi).map_err(with_time)?;
                    let dx: Vec<G::Scalar> =
                        phi.iter().zip(x.iter()).map(|(p, q)| *p - *q).collect();
                    residual = measure(&dx, phi);
                    x.copy_from_slice(phi);
                    if !residual.is_finite() {
                        break;
                    }
                    if residual <= tol {
                        return Ok((iterations, residual, true));
                    }
                }
                Ok((iterations, residual, false))
            }
            StageSolver::Newton => {
                let mut lu = None;
                let mut previous = f64::INFINITY;
                while iterations < self.options.max_iter {
                    iterations += 1;
                    self.stats.iterations += 1;
                    work.load(x);
                    self.map(y, h, work, phi).map_err(with_time)?;
                    if lu.is_none() {
                        lu = Some(self.jacobian(y, h, work, x, phi).map_err(with_time)?.lu());
                    }
                    let r =
                        DVector::from_iterator(dim, phi.iter().zip(x.iter()).map(|(p, q)| *p - *q));
                    let Some(dx) = lu.as_ref().and_then(|lu| lu.solve(&r)) else {
                        return Ok((iterations, f64::INFINITY, false));
                    };
                    for (xi, d) in x.iter_mut().zip(dx.iter()) {
                        *xi += *d;
                    }
                    residual = measure(dx.as_slice(), x);
                    if !residual.is_finite() {
                        break;
                    }
                    if residual <= tol {
                        return Ok((iterations, residual, true));
                    }
                    // At the round-off floor of Φ the Newton updates stop shrinking; an update
                    // that no longer decreases and is below `ROUND_OFF_FLOOR` is converged as
                    // far as floating point allows (a real failure stalls far above it).
                    if residual <= ROUND_OFF_FLOOR && residual >= 0.5 * previous {
                        return Ok((iterations, residual, true));
                    }
                    if residual > 0.5 * previous {
                        // Slow contraction: refresh the Jacobian at the new iterate.
                        lu = None;
                    }
                    previous = residual;
                }
                Ok((iterations, residual, false))
            }
        }
    }

    /// The forward-difference Jacobian of `x − Φ(x)` at `x`, given `phi0 = Φ(x)`.
    fn jacobian(
        &mut self,
        y: &CotangentPoint<G>,
        h: G::Scalar,
        work: &mut Work<G::Algebra>,
        x: &[G::Scalar],
        phi0: &[G::Scalar],
    ) -> Result<DMatrix<G::Scalar>, SchemeError> {
        let dim = x.len();
        let mut jac = DMatrix::<G::Scalar>::identity(dim, dim);
        let mut pert = x.to_vec();
        let mut phi = vec![G::Scalar::zero(); dim];
        for col in 0..dim {
            let delta = f64::EPSILON.sqrt() * re(x[col]).abs().max(1.0);
            pert[col] = x[col] + c::<G::Scalar>(delta);
            work.load(&pert);
            self.map(y, h, work, &mut phi)?;
            pert[col] = x[col];
            let inv = G::Scalar::one() / c::<G::Scalar>(delta);
            for row in 0..dim {
                jac[(row, col)] -= (phi[row] - phi0[row]) * inv;
            }
        }
        Ok(jac)
    }
}

/// The unknowns `(ξ, μ̄)` as algebra elements.
struct Work<A> {
    xi: A,
    mubar: A,
    n: usize,
}

impl<A: VectorSpace> Work<A> {
    fn load(&mut self, x: &[A::Scalar]) {
        self.xi.read_coords(&x[..self.n]);
        self.mubar.read_coords(&x[self.n..]);
    }
}

impl<G, H> Stepper<CotangentAction<G>> for ThetaMethod<G, H>
where
    G: LieGroup,
    H: CotangentHamiltonian<G>,
{
    fn name(&self) -> String {
        format!("symplectic-theta({})", self.theta)
    }

    /// 2 at `θ = ½`, otherwise 1.
    fn order(&self) -> u32 {
        if self.theta == 0.5 { 2 } else { 1 }
    }

    /// One step (eqs. (T1)–(T6)); `f` is ignored (see the type's documentation).
    fn step<F>(
        &mut self,
        _action: &CotangentAction<G>,
        _f: &F,
        t: Scalar<CotangentAction<G>>,
        y: &CotangentPoint<G>,
        h: Scalar<CotangentAction<G>>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<CotangentPoint<G>>, SchemeError>
    where
        F: LieVectorField<
                Scalar<CotangentAction<G>>,
                CotangentPoint<G>,
                Algebra<CotangentAction<G>>,
            >,
    {
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(
                Stepper::<CotangentAction<G>>::name(self),
            ));
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
