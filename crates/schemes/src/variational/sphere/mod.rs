//! The Lee–Leok–McClamroch variational integrator on (S²)ⁿ [LLM09, §3].

use super::lagrangian::{SphereLagrangian, VariationalScalar};
use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{
    LieVectorField, PowerAction, SPHERE_TOLERANCE, TANGENCY_TOLERANCE, TangentSphere2,
    TangentSphereAction, VecPowerAction,
};
use liegroup::linalg::{cholesky_in_place, lu_factor_in_place, lu_solve_in_place, nan_max};
use liegroup::par;
use liegroup::scalar::{c, re};
use nalgebra::{Matrix3, Vector3};

/// Which form of the discrete equations [`SphereVariational`] solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariationalForm {
    /// The implicit form (3.10)–(3.13) for any inertia matrix: eq. (3.16) for the Cayley
    /// parameters `fᵢ` solved iteratively (see [`VariationalSolver`]), then the linear
    /// `3n × 3n` system (3.12) for `ω′`. With a diagonal `M`, (3.16) decouples and its root is
    /// the closed form of [`Explicit`](Self::Explicit): no iteration is needed, and the two
    /// forms are the same map.
    Implicit,
    /// The explicit form (3.17)–(3.18) [LLM09, Cor. 3], for a diagonal inertia matrix only
    /// (bodies coupled through the potential).
    Explicit,
}

/// How eq. (3.16) of the implicit form is solved (non-diagonal inertia).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariationalSolver {
    /// Newton's method on `Φ(f) = d` in ℝ³ⁿ with the analytic Jacobian (see
    /// [`SphereVariational`]), started at `f = 0` (whose first iterate solves the linearized
    /// equation `2A(q)f = d`). Quadratic convergence; one `3n × 3n` LU solve per iteration.
    Newton,
    /// Block-Jacobi fixed-point iteration: each body solves its own equation in closed form,
    /// `2Mᵢᵢfᵢ/(1 + |fᵢ|²) = dᵢ − qᵢ × Σ_{j≠i} Mᵢⱼ Δⱼ` (the form (3.17) with the coupling of
    /// the previous iterate). No linear algebra; converges linearly when the off-diagonal
    /// coupling is weak, and may not converge otherwise.
    FixedPoint,
}

/// Options of the implicit solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VariationalOptions {
    /// The solver (default Newton).
    pub solver: VariationalSolver,
    /// Converged when the max-norm of the last update is `≤ tol · max|fᵢ|∞` (relative to the
    /// solution itself, so that the default `1e-14` means "to round-off": a Newton update of
    /// that size leaves an error of its square). Newton also stops when the update has stalled
    /// at the round-off floor (`≤ 1e-12·max|fᵢ|∞` and not halving).
    pub tol: f64,
    /// The iteration cap; reaching it is a [`SchemeError::NonConvergence`].
    pub max_iter: usize,
}

impl Default for VariationalOptions {
    fn default() -> Self {
        Self {
            solver: VariationalSolver::Newton,
            tol: 1e-14,
            max_iter: 50,
        }
    }
}

/// The variational integrator of Lee, Leok and McClamroch for Lagrangian systems on (S²)ⁿ
/// [LLM09, §3], for any [`SphereLagrangian`] `(M, V)`. Second order, symplectic, symmetric
/// (its discrete Lagrangian is self-adjoint), conserves the momentum map of every rotational
/// symmetry of `V` exactly (up to round-off), and keeps `|qᵢ| = 1` to round-off without
/// projection.
///
/// # The method
/// The discrete Lagrangian (3.1) is
/// `L_d = (1/2h) Σᵢⱼ Mᵢⱼ (qᵢ′ − qᵢ)·(qⱼ′ − qⱼ) − (h/2) V(q) − (h/2) V(q′)`, and its discrete
/// Euler–Lagrange equations in angular-velocity form are (primes: step k + 1; the factors lost
/// in the paper's extracted text are restored from the derivation of the discrete
/// Euler–Lagrange equations below)
///
/// ```text
/// (3.10)  Mᵢᵢ qᵢ × Fᵢqᵢ + qᵢ × Σ_{j≠i} Mᵢⱼ (Fⱼ − I) qⱼ = dᵢ,
///         dᵢ = h Mᵢᵢ ωᵢ − qᵢ × Σ_{j≠i} Mᵢⱼ (qⱼ × h ωⱼ) − (h²/2) qᵢ × ∂V/∂qᵢ(q),
/// (3.11)  qᵢ′ = Fᵢ qᵢ,
/// (3.12)  Mᵢᵢ ωᵢ′ − qᵢ′ × Σ_{j≠i} Mᵢⱼ (qⱼ′ × ωⱼ′)
///             = (1/h) qᵢ′ × Σⱼ Mᵢⱼ (qⱼ′ − qⱼ) − (h/2) qᵢ′ × ∂V/∂qᵢ(q′).
/// ```
///
/// Here `dᵢ` is computed as `qᵢ × (h πᵢ − (h²/2) ∂V/∂qᵢ)` with `πᵢ = Σⱼ Mᵢⱼ (ωⱼ × qⱼ)`, which
/// equals the printed `dᵢ` for tangent `ωᵢ` and is tangent to `qᵢ` by construction.
///
/// **Cayley parameters (3.13)–(3.16).** With `Fᵢ = (I + f̂ᵢ)(I − f̂ᵢ)⁻¹` (the Cayley
/// convention of `docs/notation.md`; `|fᵢ| = tan(angle/2)`) and `fᵢ·qᵢ = 0`, `sᵢ = 1/(1 + |fᵢ|²)`,
///
/// ```text
/// (3.15)  Δᵢ := Fᵢqᵢ − qᵢ = 2sᵢ (fᵢ × qᵢ − |fᵢ|² qᵢ),
/// (3.16)  Φᵢ(f) := 2Mᵢᵢ sᵢ fᵢ + qᵢ × Σ_{j≠i} Mᵢⱼ Δⱼ(fⱼ) = dᵢ.
/// ```
///
/// `Φ` is taken as a map ℝ³ⁿ → ℝ³ⁿ: its normal part `qᵢ·Φᵢ = 2Mᵢᵢ sᵢ (qᵢ·fᵢ)` vanishes only
/// for `fᵢ ⊥ qᵢ`, so the 3n equations pin the tangency of the root and the Jacobian is
/// regular. The analytic Jacobian, with `Dⱼ := ∂Δⱼ/∂fⱼ = −2sⱼ (q̂ⱼ + 2qⱼfⱼᵀ + Δⱼfⱼᵀ)`:
///
/// ```text
///   ∂Φᵢ/∂fᵢ = 2Mᵢᵢ sᵢ (I − 2sᵢ fᵢfᵢᵀ),     ∂Φᵢ/∂fⱼ = Mᵢⱼ q̂ᵢ Dⱼ   (j ≠ i).
/// ```
///
/// The increment `Δᵢ` is formed **directly** from `fᵢ` and `qᵢ′ = qᵢ + Δᵢ`; (3.12) uses
/// `Σⱼ Mᵢⱼ Δⱼ`, never `qⱼ′ − qⱼ` recomputed after the fact (whose cancellation makes the momentum
/// maps drift about 25× faster from round-off; measured on the Lennard-Jones molecules).
///
/// **(3.12)** is the linear system `A(q′) ω′ = rᵢ` with the matrix of the continuous equations
/// (2.11) (diagonal blocks `Mᵢᵢ I`, off-diagonal blocks `−Mᵢⱼ q̂ᵢ′q̂ⱼ′`) and
/// `rᵢ = qᵢ′ × ((1/h) Σⱼ Mᵢⱼ Δⱼ − (h/2) ∂V/∂qᵢ(q′))`; its solution is tangent (`qᵢ′·ωᵢ′ = 0`).
///
/// **Diagonal `M` (3.17)–(3.18).** Then (3.16) decouples, and its root with `|Fᵢ − I|` small is
/// explicit: `aᵢ = dᵢ/Mᵢᵢ = hωᵢ − (h²/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ`, `qᵢ′ = aᵢ × qᵢ + √(1 − |aᵢ|²) qᵢ`, i.e.
/// `Δᵢ = aᵢ × qᵢ − |aᵢ|²/(1 + √(1 − |aᵢ|²)) qᵢ` (no cancellation), and
/// ωᵢ′ by (3.18) as printed, `ωᵢ′ = ωᵢ − (h/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ(q) − (h/2Mᵢᵢ) qᵢ′ × ∂V/∂qᵢ(q′)`
/// (tangent to `qᵢ′` in exact arithmetic when `ωᵢ` is tangent to `qᵢ`). It equals `rᵢ/Mᵢᵢ` of
/// (3.12), but that form rounds with a bias: the angular momentum of the three-body problem
/// drifted linearly with it (2.3e-11 relative after 10⁶ steps), and stays at ~1e-13 with the
/// printed form. `|aᵢ| ≥ 1` (no solution: the step is too
/// large) is a [`SchemeError::StepTooLarge`].
///
/// **Round-off.** Where the derivation uses `|qᵢ| = 1`, the code keeps the factor `|qᵢ|²`:
/// `Mᵢᵢ|qᵢ|²` replaces `Mᵢᵢ` in (3.16), in `aᵢ` of (3.17) and in the diagonal blocks of (3.12).
/// The two agree in exact arithmetic, but the stored `qᵢ` have length `1 + O(ε)` (a slowly
/// wandering round-off), and only with the factor are the identities behind the momentum
/// conservation (`qᵢ × Σⱼ Mᵢⱼ Δⱼ = dᵢ`, `qᵢ′ × πᵢ(ω′) = rᵢ`) exact for the stored vectors. Without
/// it the vertical angular momentum of the double spherical pendulum drifted about 1000× faster
/// (4·10⁻⁷ instead of 3.5·10⁻¹⁰ after 10⁶ steps of `h = 0.01`, `J·e₃ ≈ 18`).
///
/// # Cost and memory
/// One gradient of `V` per step (the gradient at the end of a step is reused by the next step
/// when it starts from the same configuration). When the Lagrangian reports diagonal inertia
/// ([`SphereLagrangian::has_diagonal_inertia`]), only the `Mᵢᵢ` are read and stored: no `n × n`
/// matrix is formed, construction costs `O(n)`, and a step costs `O(n)` beyond the gradient
/// (the sums over `j` of (3.10) and (3.12) reduce to the `j = i` term). Otherwise `M` is stored
/// densely (`n²` entries; its positive definiteness is checked by a Cholesky factorization,
/// `O(n³)`, at construction) and the sums over `j` cost `O(n²)` per step; a dense `M` that turns
/// out diagonal still takes the closed form (3.17)–(3.18), the same map. Non-diagonal `M`: per
/// Newton iteration one `3n × 3n` LU solve, typically 3–4 iterations, and one more `3n × 3n`
/// solve for (3.12).
/// Buffers are allocated on the first step (sized by the problem) and reused:
/// [`step_slices`](Self::step_slices) in `f64` does not allocate (the [`Stepper`] impls return
/// new points, a `Vec` for `VecPowerAction`). Work counters ([`Stepper::stats`]): `f_evals`
/// counts gradients of `V`, `iterations` the iterations of the solver of (3.16); `exps` stays 0.
///
/// # As a [`Stepper`]
/// Implemented for `VecPowerAction<TangentSphereAction<T>>` (points `Vec<TangentSphere2<T>>`)
/// and `PowerAction<TangentSphereAction<T>, N>` (arrays), so that [`integrate`](crate::integrate),
/// [`measure_order`](crate::measure_order) and [`Composition`](crate::composition::Composition)
/// treat it like every other method. **The vector field argument `f` of
/// [`Stepper::step`] is ignored**: the stepper holds the Lagrangian. The time `t` is only
/// reported in errors (the Lagrangian is autonomous). Adaptive steps are not supported.
///
/// # Errors of a step
/// [`SchemeError::InvalidStepSize`] for `h = 0` or non-finite `h` (a negative `h` steps
/// backwards: compositions with negative coefficients need it; the driver rejects `h ≤ 0`
/// itself); [`SchemeError::NotOnManifold`] when `||qᵢ| − 1| >` [`SPHERE_TOLERANCE`] or
/// `|qᵢ·ωᵢ| >` [`TANGENCY_TOLERANCE`]`·max(1, |ωᵢ|)` (both `1e-10`; the normal part of `ωᵢ`
/// does not enter the method, which uses `ωᵢ × qᵢ` only); [`SchemeError::NonFinite`];
/// [`SchemeError::NonConvergence`] (residual `max|Φ(f) − d|∞` and iteration count) when (3.16)
/// does not converge; [`SchemeError::StepTooLarge`] when the closed form has no root.
///
/// # Scalars
/// Generic over [`VariationalScalar`]: `f64`, and the dual numbers `Dual64` / `DualSVec64<N>`
/// flow through a whole step (the implicit solves converge in the derivative parts too), which
/// gives the exact Jacobian of the discrete flow map.
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use schemes::variational::{SphereLagrangian, SphereVariational};
///
/// // A double spherical pendulum with unit masses and lengths, e₃ up.
/// struct Dsp;
/// impl SphereLagrangian for Dsp {
///     fn bodies(&self) -> usize { 2 }
///     fn inertia(&self, i: usize, j: usize) -> f64 { if i == 0 && j == 0 { 2.0 } else { 1.0 } }
///     fn potential(&self, q: &[Vector3<f64>]) -> f64 { 9.81 * (2.0 * q[0].z + q[1].z) }
///     fn potential_gradient(&self, _q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
///         g[0] = Vector3::new(0.0, 0.0, 2.0 * 9.81);
///         g[1] = Vector3::new(0.0, 0.0, 9.81);
///     }
/// }
/// let mut vi = SphereVariational::implicit(Dsp)?;
/// let (q, w) = ([Vector3::x(), Vector3::y()], [Vector3::z(), Vector3::zeros()]);
/// let (mut q1, mut w1) = ([Vector3::zeros(); 2], [Vector3::zeros(); 2]);
/// vi.step_slices(0.0, &q, &w, 0.01, &mut q1, &mut w1)?;
/// assert!((q1[0].norm() - 1.0).abs() < 1e-15 && q1[0].dot(&w1[0]).abs() < 1e-14);
/// # Ok::<(), schemes::SchemeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SphereVariational<L, T: VariationalScalar = f64> {
    lagrangian: L,
    form: VariationalForm,
    options: VariationalOptions,
    name: String,
    n: usize,
    /// `M`, row-major (`n × n`) on the dense path; empty on the diagonal fast path.
    m: Vec<f64>,
    /// The diagonal `Mᵢᵢ` (both paths).
    masses: Vec<f64>,
    /// `true` when `M` is stored densely (the Lagrangian did not report diagonal inertia): the
    /// sums over `j` of (3.10) and (3.12) then run over all `n²` entries.
    dense: bool,
    /// `M` is diagonal: the closed form (3.17)–(3.18) applies.
    diagonal: bool,
    work: Work<T>,
    stats: StepStats,
}

/// Work buffers (sized on the first step).
#[derive(Clone, Debug)]
struct Work<T: VariationalScalar> {
    q0: Vec<Vector3<T>>,
    w0: Vec<Vector3<T>>,
    q1: Vec<Vector3<T>>,
    w1: Vec<Vector3<T>>,
    grad0: Vec<Vector3<T>>,
    grad1: Vec<Vector3<T>>,
    /// The configuration whose gradient `grad0` holds (valid when `cached`).
    q_cache: Vec<Vector3<T>>,
    cached: bool,
    d: Vec<Vector3<T>>,
    f: Vec<Vector3<T>>,
    delta: Vec<Vector3<T>>,
    delta_new: Vec<Vector3<T>>,
    dd: Vec<Matrix3<T>>,
    jac: Vec<T>,
    /// The row exchanges of the LU factorization of `jac`.
    piv: Vec<usize>,
    rhs: Vec<T>,
}

impl<T: VariationalScalar> Work<T> {
    fn new() -> Self {
        Self {
            q0: Vec::new(),
            w0: Vec::new(),
            q1: Vec::new(),
            w1: Vec::new(),
            grad0: Vec::new(),
            grad1: Vec::new(),
            q_cache: Vec::new(),
            cached: false,
            d: Vec::new(),
            f: Vec::new(),
            delta: Vec::new(),
            delta_new: Vec::new(),
            dd: Vec::new(),
            jac: Vec::new(),
            piv: Vec::new(),
            rhs: Vec::new(),
        }
    }

    fn size(&mut self, n: usize, diagonal: bool) {
        if self.q0.len() == n {
            return;
        }
        let z = Vector3::zeros();
        for v in [
            &mut self.q0,
            &mut self.w0,
            &mut self.q1,
            &mut self.w1,
            &mut self.grad0,
            &mut self.grad1,
            &mut self.q_cache,
            &mut self.d,
            &mut self.f,
            &mut self.delta,
            &mut self.delta_new,
        ] {
            *v = vec![z; n];
        }
        self.cached = false;
        if !diagonal {
            self.dd = vec![Matrix3::zeros(); n];
            self.jac = vec![T::zero(); 9 * n * n];
            self.piv = vec![0; 3 * n];
            self.rhs = vec![T::zero(); 3 * n];
        }
    }
}

impl<L: SphereLagrangian, T: VariationalScalar> SphereVariational<L, T> {
    /// The integrator for `lagrangian` in the given form, with default solver options (Newton to
    /// round-off).
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] when the Lagrangian has no bodies, when `M` is not finite,
    /// symmetric (`|Mᵢⱼ − Mⱼᵢ| ≤ 16ε max(|Mᵢⱼ|, |Mⱼᵢ|)`) and positive definite, or when the
    /// explicit form is asked for with a non-diagonal `M`.
    pub fn new(lagrangian: L, form: VariationalForm) -> Result<Self, SchemeError> {
        let n = lagrangian.bodies();
        let bad = |reason: String| SchemeError::InvalidOption {
            name: "Lagrangian",
            reason,
        };
        if n == 0 {
            return Err(bad("it has no bodies".into()));
        }
        let (m, masses, dense, diagonal) = if lagrangian.has_diagonal_inertia() {
            // The fast path: only the Mᵢᵢ are read and stored (O(n), no n × n matrix); a
            // diagonal matrix is positive definite iff its entries are positive.
            let mut masses = Vec::with_capacity(n);
            for i in 0..n {
                let v = lagrangian.inertia(i, i);
                if !v.is_finite() {
                    return Err(bad(format!("inertia M[{i}][{i}] = {v} is not finite")));
                }
                if v <= 0.0 {
                    return Err(bad(format!(
                        "inertia matrix not positive definite: M[{i}][{i}] = {v}"
                    )));
                }
                masses.push(v);
            }
            (Vec::new(), masses, false, true)
        } else {
            let m = dense_inertia(&lagrangian, n).map_err(bad)?;
            let diagonal = (0..n).all(|i| (0..n).all(|j| i == j || m[i * n + j] == 0.0));
            let masses = (0..n).map(|i| m[i * n + i]).collect();
            (m, masses, true, diagonal)
        };
        if form == VariationalForm::Explicit && !diagonal {
            return Err(bad(
                "the explicit form (3.17)–(3.18) needs a diagonal inertia matrix; use the implicit form"
                    .into(),
            ));
        }
        let name = match form {
            VariationalForm::Implicit => "llm-implicit",
            VariationalForm::Explicit => "llm-explicit",
        };
        Ok(Self {
            lagrangian,
            form,
            options: VariationalOptions::default(),
            name: name.into(),
            n,
            m,
            masses,
            dense,
            diagonal,
            work: Work::new(),
            stats: StepStats::default(),
        })
    }

    /// The implicit form (3.10)–(3.13), any inertia matrix (see [`VariationalForm::Implicit`]).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn implicit(lagrangian: L) -> Result<Self, SchemeError> {
        Self::new(lagrangian, VariationalForm::Implicit)
    }

    /// The explicit form (3.17)–(3.18), diagonal inertia only (see
    /// [`VariationalForm::Explicit`]).
    ///
    /// # Errors
    /// As [`new`](Self::new); in particular for a non-diagonal inertia matrix.
    pub fn explicit(lagrangian: L) -> Result<Self, SchemeError> {
        Self::new(lagrangian, VariationalForm::Explicit)
    }

    /// Replace the solver options.
    ///
    /// # Errors
    /// [`SchemeError::InvalidTolerance`] unless `tol` is positive and finite;
    /// [`SchemeError::InvalidOption`] for `max_iter = 0`.
    pub fn with_options(mut self, options: VariationalOptions) -> Result<Self, SchemeError> {
        if !(options.tol.is_finite() && options.tol > 0.0) {
            return Err(SchemeError::InvalidTolerance {
                name: "tol",
                value: options.tol,
            });
        }
        if options.max_iter == 0 {
            return Err(SchemeError::InvalidOption {
                name: "max_iter",
                reason: "at least one iteration is needed".into(),
            });
        }
        self.options = options;
        Ok(self)
    }

    /// Replace the name reported by [`Stepper::name`] (default `"llm-implicit"` /
    /// `"llm-explicit"`).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The Lagrangian.
    #[must_use]
    pub fn lagrangian(&self) -> &L {
        &self.lagrangian
    }

    /// The form of the discrete equations.
    #[must_use]
    pub fn form(&self) -> VariationalForm {
        self.form
    }

    /// The solver options.
    #[must_use]
    pub fn options(&self) -> VariationalOptions {
        self.options
    }

    /// One step from `(q, ω)` to `(q′, ω′)` written into `q_out`, `omega_out` (see the type's
    /// documentation for the equations). `t` is used in error reports only.
    ///
    /// # Errors
    /// See "Errors of a step" in the type's documentation; also
    /// [`SchemeError::InvalidOption`] when a slice does not have one entry per body.
    pub fn step_slices(
        &mut self,
        t: f64,
        q: &[Vector3<T>],
        omega: &[Vector3<T>],
        h: T,
        q_out: &mut [Vector3<T>],
        omega_out: &mut [Vector3<T>],
    ) -> Result<(), SchemeError> {
        for (what, len) in [
            ("q", q.len()),
            ("ω", omega.len()),
            ("q output", q_out.len()),
            ("ω output", omega_out.len()),
        ] {
            self.check_len(what, len)?;
        }
        self.work.size(self.n, self.diagonal);
        par::copy_from(&mut self.work.q0, q);
        par::copy_from(&mut self.work.w0, omega);
        self.advance(t, h)?;
        par::copy_from(q_out, &self.work.q1);
        par::copy_from(omega_out, &self.work.w1);
        Ok(())
    }

    fn check_len(&self, what: &str, len: usize) -> Result<(), SchemeError> {
        if len == self.n {
            Ok(())
        } else {
            Err(SchemeError::InvalidOption {
                name: "state",
                reason: format!("{what} has {len} bodies, the Lagrangian has {}", self.n),
            })
        }
    }

    /// Validate `(q0, w0)` and `h`; `true` when `q0` equals the configuration of the cached
    /// gradient (then reused; always `false` unless [`VariationalScalar::CACHE_GRADIENT`]).
    ///
    /// One pass over the bodies (in parallel for long states with the `rayon` feature) computes
    /// flags — non-finite, off the manifold, differs from the cache — that do not depend on how
    /// the bodies are split; the report of a body off the manifold (the first one, by index) is
    /// then found by a serial scan, as without threads.
    fn validate(&self, t: f64, h: T) -> Result<bool, SchemeError> {
        let hr = re(h);
        if !(hr.is_finite() && hr != 0.0) {
            return Err(SchemeError::InvalidStepSize { h: hr });
        }
        let w = &self.work;
        let compare = T::CACHE_GRADIENT && w.cached;
        let flags = scan_state(&w.q0, &w.w0, &w.q_cache, compare);
        if flags.non_finite {
            return Err(SchemeError::NonFinite { what: "state", t });
        }
        if flags.off_manifold {
            for (i, (q, om)) in w.q0.iter().zip(&w.w0).enumerate() {
                let dev = (re(q.norm()) - 1.0).abs();
                if dev > SPHERE_TOLERANCE {
                    return Err(SchemeError::NotOnManifold {
                        what: "||q| − 1|",
                        index: i,
                        deviation: dev,
                        tolerance: SPHERE_TOLERANCE,
                    });
                }
                // Relative to max(1, |ω|): a small ω made of cancelling parts keeps an absolute
                // round-off in q·ω (only ω × q enters the method, so the normal part is
                // harmless).
                let wn = re(om.norm()).max(1.0);
                let dot = re(q.dot(om)).abs();
                if dot > TANGENCY_TOLERANCE * wn {
                    return Err(SchemeError::NotOnManifold {
                        what: "|q·ω|/max(1, |ω|)",
                        index: i,
                        deviation: dot / wn,
                        tolerance: TANGENCY_TOLERANCE,
                    });
                }
            }
        }
        Ok(compare && !flags.differs)
    }

    /// One step from `work.(q0, w0)` to `work.(q1, w1)`.
    fn advance(&mut self, t: f64, h: T) -> Result<(), SchemeError> {
        let reuse = self.validate(t, h)?;
        let n = self.n;
        // ∂V/∂q at q (reused from the previous step when it ended here).
        if !reuse {
            let w = &mut self.work;
            // `grad0` no longer matches `q_cache` (even if this step fails).
            w.cached = false;
            T::potential_gradient(&self.lagrangian, &w.q0, &mut w.grad0);
            self.stats.f_evals += 1;
            if self.dense && !all_finite(&w.grad0) {
                return Err(SchemeError::NonFinite {
                    what: "potential gradient",
                    t,
                });
            }
        }
        if !self.dense {
            return self.advance_diagonal(t, h);
        }
        // dᵢ = qᵢ × (h πᵢ − (h²/2) ∂V/∂qᵢ), πᵢ = Σⱼ Mᵢⱼ (ωⱼ × qⱼ).
        let half = c::<T>(0.5);
        let half_h2 = h * h * half;
        let w = &mut self.work;
        for i in 0..n {
            let mut pi = Vector3::zeros();
            for j in 0..n {
                let mij = self.m[i * n + j];
                if mij != 0.0 {
                    pi += w.w0[j].cross(&w.q0[j]) * c::<T>(mij);
                }
            }
            let wi = pi * h - w.grad0[i] * half_h2;
            w.d[i] = w.q0[i].cross(&wi);
        }
        // The increments Δᵢ = Fᵢqᵢ − qᵢ.
        if self.diagonal {
            for (i, (((delta, d), q), &m)) in (w.delta.iter_mut().zip(&w.d))
                .zip(&w.q0)
                .zip(&self.masses)
                .enumerate()
            {
                let a = d / (c::<T>(m) * q.norm_squared());
                match closed_form_increment(&a, q) {
                    Some(x) => *delta = x,
                    None => {
                        return Err(SchemeError::StepTooLarge {
                            t,
                            h: re(h),
                            reason: format!(
                                "|aᵢ| = {:.6} ≥ 1 for body {i} in (3.17) (aᵢ = hωᵢ − (h²/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ)",
                                re(a.norm())
                            ),
                        });
                    }
                }
            }
        } else {
            match self.options.solver {
                VariationalSolver::Newton => self.newton(t)?,
                VariationalSolver::FixedPoint => self.fixed_point(t)?,
            }
        }
        // qᵢ′ = qᵢ + Δᵢ; ∂V/∂q at q′.
        {
            let w = &mut self.work;
            for ((q1, q0), delta) in w.q1.iter_mut().zip(&w.q0).zip(&w.delta) {
                *q1 = q0 + delta;
            }
            T::potential_gradient(&self.lagrangian, &w.q1, &mut w.grad1);
            self.stats.f_evals += 1;
            if !all_finite(&w.grad1) {
                return Err(SchemeError::NonFinite {
                    what: "potential gradient",
                    t,
                });
            }
        }
        // (3.12): A(q′) ω′ = r, rᵢ = qᵢ′ × ((1/h) Σⱼ Mᵢⱼ Δⱼ − (h/2) ∂V/∂qᵢ(q′)).
        let inv_h = T::one() / h;
        let half_h = h * half;
        {
            let w = &mut self.work;
            for i in 0..n {
                let mut s = Vector3::zeros();
                for j in 0..n {
                    let mij = self.m[i * n + j];
                    if mij != 0.0 {
                        s += w.delta[j] * c::<T>(mij);
                    }
                }
                w.w1[i] = w.q1[i].cross(&(s * inv_h - w.grad1[i] * half_h));
            }
            if self.diagonal {
                // (3.18) as printed, as in the diagonal fast path.
                for i in 0..n {
                    let k = half_h / c::<T>(self.masses[i]);
                    w.w1[i] =
                        w.w0[i] - w.q0[i].cross(&w.grad0[i]) * k - w.q1[i].cross(&w.grad1[i]) * k;
                }
            } else {
                self.solve_omega(t)?;
            }
        }
        if !(all_finite(&self.work.q1) && all_finite(&self.work.w1)) {
            return Err(SchemeError::NonFinite { what: "state", t });
        }
        // The gradient at q′ serves the next step if it starts here.
        let w = &mut self.work;
        core::mem::swap(&mut w.grad0, &mut w.grad1);
        w.q_cache.copy_from_slice(&w.q1);
        w.cached = true;
        Ok(())
    }

    /// The diagonal fast path of [`advance`](Self::advance) (inertia stored as the `Mᵢᵢ`),
    /// after validation and with `grad0` = ∂V/∂q at `q0` (not yet checked finite): the closed
    /// form (3.17)–(3.18) in two fused passes over the bodies around the gradient at `q′`,
    /// [`increments`] and [`velocities`] — in parallel chunks for long states with the `rayon`
    /// feature. Each body is computed by the same operations whatever the split, and the
    /// passes return flags and the smallest bad index, so that results and errors are bitwise
    /// those of a serial loop for any number of threads.
    fn advance_diagonal(&mut self, t: f64, h: T) -> Result<(), SchemeError> {
        let half = c::<T>(0.5);
        let half_h2 = h * h * half;
        // dᵢ = qᵢ × (h Mᵢᵢ ωᵢ × qᵢ − (h²/2) ∂V/∂qᵢ), aᵢ = dᵢ/(Mᵢᵢ|qᵢ|²), Δᵢ by (3.17), qᵢ′ = qᵢ + Δᵢ.
        let w = &mut self.work;
        let inc = increments(
            &w.q0,
            &w.w0,
            &w.grad0,
            &self.masses,
            h,
            half_h2,
            &mut w.delta,
            &mut w.q1,
        );
        if inc.grad_non_finite {
            return Err(SchemeError::NonFinite {
                what: "potential gradient",
                t,
            });
        }
        if let Some(i) = inc.first_bad {
            let (q, om, g) = (&w.q0[i], &w.w0[i], &w.grad0[i]);
            let m = c::<T>(self.masses[i]);
            let d = q.cross(&(om.cross(q) * m * h - g * half_h2));
            let a = d / (m * q.norm_squared());
            return Err(SchemeError::StepTooLarge {
                t,
                h: re(h),
                reason: format!(
                    "|aᵢ| = {:.6} ≥ 1 for body {i} in (3.17) (aᵢ = hωᵢ − (h²/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ)",
                    re(a.norm())
                ),
            });
        }
        // ∂V/∂q at q′.
        T::potential_gradient(&self.lagrangian, &w.q1, &mut w.grad1);
        self.stats.f_evals += 1;
        // (3.18) as printed: ωᵢ′ = ωᵢ − (h/2Mᵢᵢ)(qᵢ × ∂V/∂qᵢ(q) + qᵢ′ × ∂V/∂qᵢ(q′)).
        let vel = velocities(
            (&w.q0, &w.w0, &w.grad0, &w.q1, &w.grad1),
            &self.masses,
            h * half,
            &mut w.w1,
        );
        if vel.grad_non_finite {
            return Err(SchemeError::NonFinite {
                what: "potential gradient",
                t,
            });
        }
        if vel.state_non_finite {
            return Err(SchemeError::NonFinite { what: "state", t });
        }
        // The gradient at q′ serves the next step if it starts here.
        core::mem::swap(&mut w.grad0, &mut w.grad1);
        par::copy_from(&mut w.q_cache, &w.q1);
        w.cached = true;
        Ok(())
    }

    fn load<'a>(
        &mut self,
        points: impl ExactSizeIterator<Item = &'a TangentSphere2<T>>,
    ) -> Result<(), SchemeError>
    where
        T: 'a,
    {
        self.check_len("the state", points.len())?;
        self.work.size(self.n, self.diagonal);
        for (i, p) in points.enumerate() {
            self.work.q0[i] = *p.q();
            self.work.w0[i] = *p.omega();
        }
        Ok(())
    }

    fn unsupported_tol(&self, tol: Option<&Tolerance>) -> Result<(), SchemeError> {
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        Ok(())
    }

    fn output(&self, i: usize) -> TangentSphere2<T> {
        TangentSphere2::new_unchecked(self.work.q1[i], self.work.w1[i])
    }
}

mod kernels;
mod solve;
mod stepper;
use kernels::*;

#[cfg(test)]
mod tests;
