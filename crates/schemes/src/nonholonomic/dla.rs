//! Discrete Lagrange–d'Alembert (DLA) integrators on Lie groups [CM01, MP06] and their
//! energy-conserving extension with variable time steps [C03, KMO99].

use super::newton::{self, NewtonOptions};
use crate::error::SchemeError;
use liegroup::{LieGroup, VectorSpace};
use nalgebra::DVector;

/// A Lagrangian system on a Lie group `G` with linear nonholonomic constraints, in left
/// trivialization (`ġ = gξ`):
///
/// ```text
///   L(g, gξ) = ℓ(ξ) − V(g),                                                   (N1)
///   D_g = { gξ : ⟨ωᵃ(g), ξ⟩ = 0, a = 1..m },                                  (N2)
/// ```
///
/// with a reduced kinetic Lagrangian `ℓ` (its momentum `μ = ∂ℓ/∂ξ ∈ 𝔤*` must be invertible in
/// `ξ`), a potential `V` with left-trivialized differential `⟨dV(g), η⟩ = d/dε V(g·exp(εη))|₀`,
/// and `m` left-trivialized constraint forms `ωᵃ(g) ∈ 𝔤*` (constant for left-invariant
/// constraints). The Lagrange–d'Alembert equations are the Euler–Poincaré–Suslov equations
///
/// ```text
///   d/dt μ = ad*_ξ μ − dV(g) + λ_a ωᵃ(g),   ⟨ωᵃ(g), ξ⟩ = 0,   ġ = gξ,             (N3)
/// ```
///
/// and the energy `E = ⟨μ, ξ⟩ − ℓ(ξ) + V(g)` is conserved (the constraints do no work).
/// Dual elements are stored in the dual basis of the algebra's coordinates and paired by
/// [`VectorSpace::inner`].
pub trait LieNonholonomicSystem {
    /// The configuration group (scalar `f64`).
    type Group: LieGroup<Scalar = f64>;

    /// The number `m` of independent constraint forms.
    fn constraint_count(&self) -> usize;

    /// The reduced kinetic Lagrangian `ℓ(ξ)`.
    fn kinetic(&self, xi: &<Self::Group as LieGroup>::Algebra) -> f64;

    /// The momentum `μ = ∂ℓ/∂ξ(ξ) ∈ 𝔤*`.
    fn momentum(
        &self,
        xi: &<Self::Group as LieGroup>::Algebra,
    ) -> <Self::Group as LieGroup>::Algebra;

    /// The potential `V(g)` (default 0).
    fn potential(&self, _g: &Self::Group) -> f64 {
        0.0
    }

    /// The left-trivialized differential `dV(g) ∈ 𝔤*`, `⟨dV(g), η⟩ = d/dε V(g exp(εη))|₀`
    /// (default 0).
    fn potential_differential(&self, g: &Self::Group) -> <Self::Group as LieGroup>::Algebra {
        g.algebra_zero()
    }

    /// The `a`-th constraint form `ωᵃ(g) ∈ 𝔤*` (left-trivialized), `a < m`.
    fn constraint_form(&self, g: &Self::Group, a: usize) -> <Self::Group as LieGroup>::Algebra;

    /// The energy `E = ⟨μ(ξ), ξ⟩ − ℓ(ξ) + V(g)`.
    fn energy(&self, g: &Self::Group, xi: &<Self::Group as LieGroup>::Algebra) -> f64 {
        self.momentum(xi).inner(xi) - self.kinetic(xi) + self.potential(g)
    }

    /// The constraint values `⟨ωᵃ(g), ξ⟩`, `a = 1..m`.
    fn constraint_values(
        &self,
        g: &Self::Group,
        xi: &<Self::Group as LieGroup>::Algebra,
    ) -> Vec<f64> {
        (0..self.constraint_count())
            .map(|a| self.constraint_form(g, a).inner(xi))
            .collect()
    }
}

/// `(dexp⁻¹_x)* μ`, from `⟨(dexp⁻¹_x)* μ, eᵢ⟩ = ⟨μ, dexp⁻¹_x eᵢ⟩` (right-trivialized `dexp`,
/// `docs/notation.md`).
#[must_use]
pub fn dexpinv_transpose<G: LieGroup<Scalar = f64>>(x: &G::Algebra, mu: &G::Algebra) -> G::Algebra {
    let n = mu.dim();
    let mut coords = vec![0.0; n];
    for (i, c) in coords.iter_mut().enumerate() {
        *c = mu.inner(&G::dexpinv(x, &mu.basis_like(i)));
    }
    let mut out = mu.zero_like();
    out.read_coords(&coords);
    out
}

/// `Aᵀν` (`first = true`) or `Bᵀν` for the left-trivialized variation of the midpoint
/// `g_{k+½} = g_k exp(x/2)`, `x = hξ_k`: `g_{k+½}⁻¹δg_{k+½} = A η_k + B η_{k+1}` with
///
/// ```text
///   A = Ad_{exp(−x/2)} (I − ½ dexp_{x/2} dexp⁻¹_x),   B = ½ Ad_{exp(−x/2)} dexp_{x/2} dexp⁻¹_{−x}.  (D6)
/// ```
fn midpoint_transpose<G: LieGroup<Scalar = f64>>(
    x: &G::Algebra,
    nu: &G::Algebra,
    first: bool,
) -> G::Algebra {
    let half = scaled(x, 0.5);
    let back = G::exp(&scaled(x, -0.5));
    let n = nu.dim();
    let mut coords = vec![0.0; n];
    for (i, c) in coords.iter_mut().enumerate() {
        let e = nu.basis_like(i);
        let col = if first {
            let mut v = e.clone();
            v.add_scaled(-0.5, &G::dexp(&half, &G::dexpinv(x, &e)));
            back.adjoint(&v)
        } else {
            scaled(
                &back.adjoint(&G::dexp(&half, &G::dexpinv(&scaled(x, -1.0), &e))),
                0.5,
            )
        };
        *c = nu.inner(&col);
    }
    let mut out = nu.zero_like();
    out.read_coords(&coords);
    out
}

fn to_vec<V: VectorSpace<Scalar = f64>>(v: &V) -> Vec<f64> {
    let mut c = vec![0.0; v.dim()];
    v.write_coords(&mut c);
    c
}

fn from_slice<V: VectorSpace<Scalar = f64>>(like: &V, c: &[f64]) -> V {
    let mut v = like.zero_like();
    v.read_coords(c);
    v
}

fn scaled<V: VectorSpace<Scalar = f64>>(v: &V, a: f64) -> V {
    let mut w = v.clone();
    w.scale_by(a);
    w
}

/// The state of a DLA integration at node `k`: the time `t_k`, the configuration `g_k`, the
/// left-trivialized discrete momentum `p_k⁻ = D₂L_d(g_{k−1}, g_k)` (eq. (D3)), the body velocity
/// `ξ_{k−1}` of the last step (`ξ(0)` initially) and the multipliers `λ^{k−1}` of the last step.
#[derive(Clone, Debug)]
pub struct DlaState<G: LieGroup> {
    /// Time `t_k`.
    pub t: f64,
    /// Configuration `g_k`.
    pub g: G,
    /// Discrete momentum `p_k⁻ ∈ 𝔤*` (initially `μ(ξ(0))`).
    pub p: G::Algebra,
    /// Body velocity of the last step, `ξ_{k−1} = log(g_{k−1}⁻¹ g_k)/h_{k−1}` (initially `ξ(0)`).
    pub xi: G::Algebra,
    /// Multipliers `λ^{k−1}` of the last step (empty initially).
    pub lambda: Vec<f64>,
    /// Last step size `h_{k−1}` (0 initially).
    pub h: f64,
}

impl<G: LieGroup<Scalar = f64>> DlaState<G> {
    /// The initial state `(t₀, g₀, p₀⁻ = μ(ξ₀))` from a configuration and a body velocity.
    #[must_use]
    pub fn new<S: LieNonholonomicSystem<Group = G>>(
        system: &S,
        t0: f64,
        g0: G,
        xi0: G::Algebra,
    ) -> Self {
        Self {
            t: t0,
            p: system.momentum(&xi0),
            g: g0,
            xi: xi0,
            lambda: Vec::new(),
            h: 0.0,
        }
    }
}

/// The group DLA integrator (discrete Euler–Poincaré–Suslov equations) with the discrete
/// Lagrangian and discrete constraint space
///
/// ```text
///   g_{k+1} = g_k exp(h ξ_k),
///   L_d(g_k, g_{k+1}) = h ℓ(ξ_k) − h V(g_k exp(hξ_k/2)),                            (D1)
///   D_d = { (g, g exp(hξ)) : ⟨ωᵃ(g exp(hξ/2)), ξ⟩ = 0 },                          (D2)
/// ```
///
/// With the left-trivialized discrete momenta (`δg = gη`, `h δξ_k = −dexp⁻¹_{hξ_k} η_k +
/// dexp⁻¹_{−hξ_k} η_{k+1}`, `docs/nonholonomic.md` §6.1)
///
/// ```text
///   p_k⁺ = −D₁L_d = (dexp⁻¹_{hξ_k})* μ(ξ_k) + h Aᵀ dV(g_{k+½}),
///   p_{k+1}⁻ = D₂L_d = (dexp⁻¹_{−hξ_k})* μ(ξ_k) − h Bᵀ dV(g_{k+½}),                 (D3)
/// ```
///
/// with `g_{k+½} = g_k exp(hξ_k/2)` and `A`, `B` of (D6) (`A = B = ½` on `ℝⁿ`: the midpoint
/// rule). The midpoint potential (rather than the trapezoidal one) matters for the extended
/// integrator: with it the discrete energy (E1) is strictly monotone in the step near `h`
/// for convex potentials; with the trapezoidal rule the energy equation was measured to lose
/// its root after some hundred steps (a fold). Then
/// the DLA equations \[CM01\] `D₂L_d(g_{k−1}, g_k) + D₁L_d(g_k, g_{k+1}) = λ_a ωᵃ(g_k)`,
/// `(g_k, g_{k+1}) ∈ D_d` read
///
/// ```text
///   p_k⁺(ξ_k) = p_k⁻ + λ^k_a ωᵃ(g_k),    ⟨ωᵃ(g_k exp(hξ_k/2)), ξ_k⟩ = 0,           (D4)
/// ```
///
/// `n + m` equations for `(ξ_k, λ^k)`, solved by Newton's method. `L_d` and `D_d` are symmetric,
/// so the method is reversible and of order 2. It satisfies the **discrete nonholonomic momentum
/// equation**: with the spatial momentum `J_k = Ad*_{g_k⁻¹} p_k⁻` (the coadjoint action) and
/// `V = 0`, for every `ζ ∈ 𝔤`
///
/// ```text
///   ⟨J_{k+1} − J_k, ζ⟩ = λ^k_a ⟨ωᵃ(g_k), Ad_{g_k⁻¹} ζ⟩,                              (D5)
/// ```
///
/// which vanishes for horizontal symmetries (`Ad_{g_k⁻¹}ζ ∈ D`): it follows from (D3) and
/// `dexp⁻¹_{−x} = dexp⁻¹_x Ad_{exp x}`.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, Se2};
/// use nalgebra::Vector3;
/// use schemes::nonholonomic::{DlaIntegrator, DlaState, LieNonholonomicSystem};
/// // A free planar body with no sideways slip (the Chaplygin sleigh with a = 0).
/// struct Blade;
/// impl LieNonholonomicSystem for Blade {
///     type Group = Se2<f64>;
///     fn constraint_count(&self) -> usize { 1 }
///     fn kinetic(&self, x: &Vector3<f64>) -> f64 { 0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) }
///     fn momentum(&self, x: &Vector3<f64>) -> Vector3<f64> { *x }
///     fn constraint_form(&self, _g: &Se2<f64>, _a: usize) -> Vector3<f64> { Vector3::z() }
/// }
/// let mut dla = DlaIntegrator::new(Blade, Default::default()).unwrap();
/// let x0 = DlaState::new(&Blade, 0.0, Se2::identity(), Vector3::new(1.0, 0.5, 0.0));
/// let x1 = dla.step(&x0, 0.1).unwrap();
/// assert!(x1.xi[2].abs() < 1e-15);
/// ```
#[derive(Clone, Debug)]
pub struct DlaIntegrator<S> {
    system: S,
    opts: NewtonOptions,
    evals: usize,
}

impl<S: LieNonholonomicSystem> DlaIntegrator<S> {
    /// A DLA integrator for `system`.
    ///
    /// # Errors
    /// Invalid Newton options ([`NewtonOptions::validate`]).
    pub fn new(system: S, opts: NewtonOptions) -> Result<Self, SchemeError> {
        opts.validate()?;
        Ok(Self {
            system,
            opts,
            evals: 0,
        })
    }

    /// The system.
    pub fn system(&self) -> &S {
        &self.system
    }

    /// Residual evaluations used so far (including finite-difference Jacobians).
    #[must_use]
    pub fn residual_evaluations(&self) -> usize {
        self.evals
    }

    /// `p_k⁺ = (dexp⁻¹_{hξ})* μ(ξ) + h Aᵀ dV(g_{k+½})`, eq. (D3).
    fn p_plus(&self, g: &S::Group, xi: &<S::Group as LieGroup>::Algebra, h: f64) -> Vec<f64> {
        let x = scaled(xi, h);
        let mut p = dexpinv_transpose::<S::Group>(&x, &self.system.momentum(xi));
        let gm = g.compose(&S::Group::exp(&scaled(xi, 0.5 * h)));
        let dv = self.system.potential_differential(&gm);
        p.add_scaled(h, &midpoint_transpose::<S::Group>(&x, &dv, true));
        to_vec(&p)
    }

    /// `p_{k+1}⁻ = (dexp⁻¹_{−hξ})* μ(ξ) − h Bᵀ dV(g_{k+½})`, eq. (D3).
    fn p_minus_next(
        &self,
        g: &S::Group,
        xi: &<S::Group as LieGroup>::Algebra,
        h: f64,
    ) -> <S::Group as LieGroup>::Algebra {
        let x = scaled(xi, h);
        let mut p = dexpinv_transpose::<S::Group>(&scaled(xi, -h), &self.system.momentum(xi));
        let gm = g.compose(&S::Group::exp(&scaled(xi, 0.5 * h)));
        let dv = self.system.potential_differential(&gm);
        p.add_scaled(-h, &midpoint_transpose::<S::Group>(&x, &dv, false));
        p
    }

    /// One step of size `h`: solve (D4) for `(ξ_k, λ^k)` and return `(t_k + h, g_{k+1},
    /// p_{k+1}⁻)`.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] for `h ≤ 0` or non-finite; [`SchemeError::NonConvergence`]
    /// when Newton fails; [`SchemeError::NonFinite`].
    pub fn step(
        &mut self,
        x: &DlaState<S::Group>,
        h: f64,
    ) -> Result<DlaState<S::Group>, SchemeError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(SchemeError::InvalidStepSize { h });
        }
        let n = x.xi.dim();
        let m = self.system.constraint_count();
        let pminus = to_vec(&x.p);
        let forms: Vec<Vec<f64>> = (0..m)
            .map(|a| to_vec(&self.system.constraint_form(&x.g, a)))
            .collect();
        let mut z = DVector::zeros(n + m);
        for (i, c) in to_vec(&x.xi).into_iter().enumerate() {
            z[i] = c;
        }
        let like = x.xi.clone();
        let rscale = 1.0 + liegroup::linalg::max_abs(pminus.iter().copied());
        let (evals, _) = newton::solve(
            |z, r| {
                let xi = from_slice(&like, &z.as_slice()[..n]);
                let pp = self.p_plus(&x.g, &xi, h);
                for i in 0..n {
                    let mut v = pp[i] - pminus[i];
                    for (a, f) in forms.iter().enumerate() {
                        v -= z[n + a] * f[i];
                    }
                    r[i] = v;
                }
                let gm = x.g.compose(&S::Group::exp(&scaled(&xi, 0.5 * h)));
                for a in 0..m {
                    r[n + a] = self.system.constraint_form(&gm, a).inner(&xi);
                }
            },
            &mut z,
            &self.opts,
            rscale,
            x.t,
        )?;
        self.evals += evals;
        let xi = from_slice(&like, &z.as_slice()[..n]);
        let g1 = x.g.compose(&S::Group::exp(&scaled(&xi, h)));
        let p1 = self.p_minus_next(&x.g, &xi, h);
        if !g1.all_finite() || !p1.all_finite() {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: x.t + h,
            });
        }
        Ok(DlaState {
            t: x.t + h,
            g: g1,
            p: p1,
            xi,
            lambda: z.as_slice()[n..].to_vec(),
            h,
        })
    }

    /// `steps` fixed steps of size `h` from `x0`; returns every state (`steps + 1` entries).
    ///
    /// # Errors
    /// As [`step`](Self::step).
    pub fn integrate(
        &mut self,
        x0: &DlaState<S::Group>,
        h: f64,
        steps: usize,
    ) -> Result<Vec<DlaState<S::Group>>, SchemeError> {
        let mut out = Vec::with_capacity(steps + 1);
        out.push(x0.clone());
        for _ in 0..steps {
            let next = self.step(out.last().expect("non-empty"), h)?;
            out.push(next);
        }
        Ok(out)
    }
}

/// The discrete energy of a step, `E_k = D₁L_d(t_k, g_k, t_{k+1}, g_{k+1})` for the extended
/// discrete Lagrangian `L_d = (t_{k+1} − t_k)·[ℓ(ξ_k) − V(g_{k+½})]` with
/// `ξ_k = log(g_k⁻¹g_{k+1})/(t_{k+1} − t_k)` and `g_{k+½} = g_k exp(log(g_k⁻¹g_{k+1})/2)`
/// (independent of the times):
///
/// ```text
///   E_k = ⟨μ(ξ_k), ξ_k⟩ − ℓ(ξ_k) + V(g_{k+½})                                         (E1)
/// ```
///
/// \[KMO99\]; for a quadratic `ℓ` this is `ℓ(ξ_k) + V(g_{k+½})`. The midpoint
/// is computed from `g0` and `hξ`, `h` being the step.
#[must_use]
pub fn discrete_energy<S: LieNonholonomicSystem>(
    system: &S,
    g0: &S::Group,
    xi: &<S::Group as LieGroup>::Algebra,
    h: f64,
) -> f64 {
    let gm = g0.compose(&S::Group::exp(&scaled(xi, 0.5 * h)));
    system.momentum(xi).inner(xi) - system.kinetic(xi) + system.potential(&gm)
}

/// How many times [`EnergyDlaIntegrator::step_or_fallback`] halves the predictor step before
/// it falls back to a fixed DLA step.
const SHRINK_RETRIES: u32 = 2;

/// A root `h_k` of the extended equations is accepted only within this factor of the step of
/// its predictor: Newton can converge to a distant root of the energy equation (measured on
/// the sleigh after the fold: from a predictor of 0.005 to h = 30), which is not a step of the
/// discrete flow the run follows.
const ROOT_WINDOW: f64 = 2.0;

/// A root `h_k` below `h₀ / MIN_STEP_DIVISOR` is refused: near a fold the root goes to zero
/// and time would stall.
const MIN_STEP_DIVISOR: f64 = 16.0;

/// The energy-conserving extended DLA integrator on `ℝ × G` with variable time steps \[C03\]:
/// time is a configuration variable, the extended discrete Lagrangian is (D1) with
/// `h_k = t_{k+1} − t_k`, and the constraint forms `(0, ωᵃ)` put no condition on time. The
/// extended DLA equations (\[C03\] "EDLA equations (6)"; component form derived in
/// `docs/nonholonomic.md` §6.3) are
///
/// ```text
///   (q)  p_k⁺(ξ_k; h_k) = p_k⁻ + λ^k_a ωᵃ(g_k)        (eq. (D4) with step h_k),
///   (c)  ⟨ωᵃ(g_k exp(h_kξ_k/2)), ξ_k⟩ = 0,
///   (t)  E_k = E_{k−1}                                 (eq. (E1)),                 (E2)
/// ```
///
/// `n + m + 1` equations for `(ξ_k, λ^k, h_k)`: **the step is an output**. The (t) equation is
/// imposed as `E_k = E₀`, the discrete energy of the starting step, which is the same equation
/// and keeps round-off from accumulating. The (q) equation is the DLA equation, so the discrete
/// nonholonomic momentum equation (D5) holds unchanged. The step is solved for through
/// `s = log(h_k/h_{k−1})`, which excludes the spurious time-reversed root `h_k < 0`
/// (`docs/nonholonomic.md` §6.3, "Solver").
#[derive(Clone, Debug)]
pub struct EnergyDlaIntegrator<S> {
    dla: DlaIntegrator<S>,
    energy: f64,
    h_start: f64,
    fallback_steps: usize,
}

/// How [`EnergyDlaIntegrator::step_or_fallback`] took a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EnergyStepKind {
    /// The extended equations (E2) were solved with the predictor of step `h_{k−1}`.
    Conserving,
    /// The extended equations (E2) were solved after the predictor was shrunk `halvings`
    /// times (a predictor of step `h_{k−1}/2^halvings`).
    ConservingAfterShrink {
        /// How many times the predictor step was halved.
        halvings: u32,
    },
    /// The energy equation had no root within reach: a fixed-step DLA step (D4) of the
    /// starting step `h₀` was taken instead. Energy is then conserved only to `O(h²)` for this step.
    Fallback,
}

impl<S: LieNonholonomicSystem> EnergyDlaIntegrator<S> {
    /// Start: one fixed DLA step of size `h0` from `x0` fixes the energy level `E₀` (E1) and
    /// the first step. Returns the integrator and the state after that step.
    ///
    /// # Errors
    /// As [`DlaIntegrator::new`] and [`DlaIntegrator::step`].
    pub fn start(
        system: S,
        opts: NewtonOptions,
        x0: &DlaState<S::Group>,
        h0: f64,
    ) -> Result<(Self, DlaState<S::Group>), SchemeError> {
        let mut dla = DlaIntegrator::new(system, opts)?;
        let x1 = dla.step(x0, h0)?;
        let energy = discrete_energy(&dla.system, &x0.g, &x1.xi, h0);
        Ok((
            Self {
                dla,
                energy,
                h_start: h0,
                fallback_steps: 0,
            },
            x1,
        ))
    }

    /// The conserved discrete energy `E₀`.
    #[must_use]
    pub fn energy(&self) -> f64 {
        self.energy
    }

    /// The system.
    pub fn system(&self) -> &S {
        &self.dla.system
    }

    /// Residual evaluations used so far.
    #[must_use]
    pub fn residual_evaluations(&self) -> usize {
        self.dla.evals
    }

    /// One step: solve (E2) for `(ξ_k, λ^k, h_k)` from the state `x` (whose `h` is `h_{k−1}`).
    /// The returned state carries the chosen step in `h`; its discrete energy (E1) is `E₀`.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] when `x.h` is not positive; [`SchemeError::NonConvergence`]
    /// when Newton fails (e.g. near zero kinetic energy, where (t) is ill-conditioned, or at a
    /// fold, where the energy equation has no root); [`SchemeError::StepTooLarge`] when the
    /// root found is not within a factor 2 of `h_{k−1}` or is below `h₀/16` (see
    /// [`Self::step_or_fallback`]); [`SchemeError::NonFinite`].
    pub fn step(&mut self, x: &DlaState<S::Group>) -> Result<DlaState<S::Group>, SchemeError> {
        let h_prev = x.h;
        if !(h_prev.is_finite() && h_prev > 0.0) {
            return Err(SchemeError::InvalidStepSize { h: h_prev });
        }
        self.solve_extended(x, h_prev)
    }

    /// How many steps [`Self::step_or_fallback`] has taken as fixed-step DLA steps.
    #[must_use]
    pub fn fallback_steps(&self) -> usize {
        self.fallback_steps
    }

    /// One step that does not stop at a fold of the energy equation.
    ///
    /// The energy equation (t) of (E2) can lose its root: on the Chaplygin sleigh without a
    /// potential, `dE_k/dh_k = (h/2)⟨μ, [ξ′, ξ]⟩ + O(h²)` changes sign along the motion
    /// (`docs/nonholonomic.md` §6.3). This method
    ///
    /// 1. solves (E2) as [`Self::step`] does, from the predictor of step `h_{k−1}`;
    /// 2. when Newton fails, shrinks the predictor to `h_{k−1}/2` and `h_{k−1}/4` and solves
    ///    again (a root at a shorter step, if there is one, is found from there);
    /// 3. when the root is still not found, takes one fixed-step DLA step (D4) of the
    ///    starting step `h₀` — reversible, second order, constraints and the momentum equation (D5)
    ///    exact, but energy conserved only to `O(h²)` for that step — and counts it in
    ///    [`Self::fallback_steps`].
    ///
    /// A root counts only when `h_k` lies within a factor 2 of the predictor's step and above
    /// `h₀/16` (a distant root of the energy equation is not a step of this flow; a root
    /// shrinking to zero at a fold would stall time). `E₀` is not changed by a fallback step,
    /// so the energy is conserved again as soon as the root comes back.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] when `x.h` is not positive; the errors of
    /// [`DlaIntegrator::step`] when the fallback step itself fails.
    pub fn step_or_fallback(
        &mut self,
        x: &DlaState<S::Group>,
    ) -> Result<(DlaState<S::Group>, EnergyStepKind), SchemeError> {
        let h_prev = x.h;
        if !(h_prev.is_finite() && h_prev > 0.0) {
            return Err(SchemeError::InvalidStepSize { h: h_prev });
        }
        for halvings in 0..=SHRINK_RETRIES {
            let guess = h_prev / f64::from(1_u32 << halvings);
            if let Ok(next) = self.solve_extended(x, guess) {
                let kind = if halvings == 0 {
                    EnergyStepKind::Conserving
                } else {
                    EnergyStepKind::ConservingAfterShrink { halvings }
                };
                return Ok((next, kind));
            }
        }
        let next = self.dla.step(x, self.h_start)?;
        self.fallback_steps += 1;
        Ok((next, EnergyStepKind::Fallback))
    }

    /// Solve (E2) by Newton's method, starting from the fixed-step DLA predictor of step
    /// `h_guess` (the unknown step is `h_k = h_{k−1} e^s`).
    fn solve_extended(
        &mut self,
        x: &DlaState<S::Group>,
        h_guess: f64,
    ) -> Result<DlaState<S::Group>, SchemeError> {
        let h_prev = x.h;
        // Predictor: the fixed-step DLA step with h_guess.
        let pred = self.dla.step(x, h_guess)?;
        let sys = &self.dla.system;
        let n = x.xi.dim();
        let m = sys.constraint_count();
        let pminus = to_vec(&x.p);
        let forms: Vec<Vec<f64>> = (0..m)
            .map(|a| to_vec(&sys.constraint_form(&x.g, a)))
            .collect();
        let mut z = DVector::zeros(n + m + 1);
        for (i, c) in to_vec(&pred.xi).into_iter().enumerate() {
            z[i] = c;
        }
        for (a, l) in pred.lambda.iter().enumerate() {
            z[n + a] = *l;
        }
        z[n + m] = (h_guess / h_prev).ln();
        let like = x.xi.clone();
        let e0 = self.energy;
        let escale = 1.0 / e0.abs().max(f64::MIN_POSITIVE);
        let dla = &self.dla;
        let rscale = 1.0 + liegroup::linalg::max_abs(pminus.iter().copied());
        let (evals, _) = newton::solve(
            |z, r| {
                let xi = from_slice(&like, &z.as_slice()[..n]);
                let h = h_prev * z[n + m].exp();
                let pp = dla.p_plus(&x.g, &xi, h);
                for i in 0..n {
                    let mut v = pp[i] - pminus[i];
                    for (a, f) in forms.iter().enumerate() {
                        v -= z[n + a] * f[i];
                    }
                    r[i] = v;
                }
                let gm = x.g.compose(&S::Group::exp(&scaled(&xi, 0.5 * h)));
                for a in 0..m {
                    r[n + a] = sys.constraint_form(&gm, a).inner(&xi);
                }
                r[n + m] = (discrete_energy(sys, &x.g, &xi, h) - e0) * escale;
            },
            &mut z,
            &self.dla.opts,
            rscale,
            x.t,
        )?;
        self.dla.evals += evals;
        let xi = from_slice(&like, &z.as_slice()[..n]);
        let h = h_prev * z[n + m].exp();
        if !(h <= ROOT_WINDOW * h_guess
            && h >= h_guess / ROOT_WINDOW
            && h >= self.h_start / MIN_STEP_DIVISOR)
        {
            return Err(SchemeError::StepTooLarge {
                t: x.t,
                h: h_guess,
                reason: format!(
                    "the energy equation's root h = {h:.3e} is not within a factor \
                     {ROOT_WINDOW} of the predictor's step or is below h0/{MIN_STEP_DIVISOR}"
                ),
            });
        }
        let g1 = x.g.compose(&S::Group::exp(&scaled(&xi, h)));
        let p1 = self.dla.p_minus_next(&x.g, &xi, h);
        if !g1.all_finite() || !p1.all_finite() || !h.is_finite() {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: x.t,
            });
        }
        Ok(DlaState {
            t: x.t + h,
            g: g1,
            p: p1,
            xi,
            lambda: z.as_slice()[n..n + m].to_vec(),
            h,
        })
    }
}
