//! Implicit Runge–Kutta–Munthe-Kaas methods (Gauss–Legendre and any other implicit tableau).

use crate::coeffs::Coeffs;
use crate::error::SchemeError;
use crate::point_map::PointMap;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use crate::tableau::ButcherTableau;
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::linalg::{lu_factor_in_place, lu_solve_in_place, nan_max};
use liegroup::scalar::{c, re};
use liegroup::{CoordinateMap, Exp, VectorSpace};
use num_traits::{One, Zero};

/// How the implicit stage equations are solved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StageSolver {
    /// Fixed-point iteration `K ← G(K)` (converges when `h·L·‖A‖ < 1`).
    FixedPoint,
    /// Simplified Newton: the Jacobian of `K − G(K)` by forward differences once per step, an LU
    /// factorization, then iterations with that Jacobian.
    Newton,
}

/// Options of the implicit stage solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImplicitOptions {
    /// The solver.
    pub solver: StageSolver,
    /// Converged when the max-norm of the last update is `≤ tol·max(1, ‖K‖_∞)`; values below
    /// `8ε` are raised to `8ε` (round-off).
    pub tol: f64,
    /// The iteration cap; exceeding it is a [`SchemeError::NonConvergence`].
    pub max_iter: usize,
}

impl Default for ImplicitOptions {
    fn default() -> Self {
        Self {
            solver: StageSolver::Newton,
            tol: 1e-14,
            max_iter: 50,
        }
    }
}

/// An implicit RKMK method \[MK99\]: the stage equations
///
/// ```text
///   k̃ᵢ = dψ_{uᵢ}⁻¹ f(t + cᵢh, ψ(uᵢ)·y₀),   uᵢ = h Σⱼ a_ij k̃ⱼ   (i = 1 … s),
///   y₁ = ψ(h Σ bᵢ k̃ᵢ)·y₀,
/// ```
///
/// are solved for `K = (k̃₁, …, k̃ₛ)` by fixed-point iteration or simplified Newton (see
/// [`ImplicitOptions`]); a solve that does not converge within the cap is a typed
/// [`SchemeError::NonConvergence`] with the residual and the iteration count. With the
/// Gauss–Legendre tableaux the order is `2s`.
///
/// Its workspace (stage derivatives, stage point, the Newton Jacobian — `(s·d)²` numbers for
/// an algebra of dimension `d` — with its LU factors, factored in place with partial pivoting)
/// is allocated at the first step and kept: later steps allocate only the point they return
/// (nothing for fixed-size points).
#[derive(Clone, Debug)]
pub struct ImplicitRkmk<A: ActionInPlace, M = Exp> {
    coeffs: Coeffs,
    map: M,
    name: String,
    options: ImplicitOptions,
    kt: Vec<Algebra<A>>,
    u: Option<Algebra<A>>,
    k: Option<Algebra<A>>,
    flat: Vec<Scalar<A>>,
    flat_g: Vec<Scalar<A>>,
    /// Newton workspace, allocated at the first step: the stage point, `dexp⁻¹` output, the
    /// initial guess, `G` there, the LU factors of the Jacobian (row-major `n × n`) with their
    /// row exchanges, and the right-hand side.
    work: Option<Workspace<A>>,
    stats: StepStats,
    /// Symmetric on the group (see [`Stepper::symmetric_on_group`]): the one-stage
    /// Gauss–Legendre tableau with the exponential, built by [`ImplicitRkmk::exp`].
    symmetric: bool,
}

/// The implicit stepper's buffers (see [`ImplicitRkmk`]'s fields).
#[derive(Clone, Debug)]
struct Workspace<A: ActionInPlace> {
    stage: A::Point,
    g: Algebra<A>,
    base: Vec<Scalar<A>>,
    g0: Vec<Scalar<A>>,
    lu: Vec<Scalar<A>>,
    piv: Vec<usize>,
    rhs: Vec<Scalar<A>>,
}

impl<A: ActionInPlace> ImplicitRkmk<A, Exp> {
    /// Implicit RKMK with the exponential map, the group's `dexp⁻¹` and default solver options
    /// (simplified Newton to round-off).
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::Rn;
    /// use schemes::{ImplicitRkmk, Stepper, catalogue::GAUSS_LEGENDRE4};
    /// let stepper = ImplicitRkmk::<LeftMultiplication<Rn<f64, 1>>>::exp(&GAUSS_LEGENDRE4);
    /// assert_eq!(stepper.order(), 4);
    /// ```
    #[must_use]
    pub fn exp(tableau: &ButcherTableau) -> Self {
        let mut s = Self::new(tableau, Exp::exact(), ImplicitOptions::default());
        s.symmetric = is_implicit_midpoint(tableau);
        s
    }
}

impl<A: ActionInPlace, M: PointMap<A>> ImplicitRkmk<A, M> {
    /// Implicit RKMK with any tableau (explicit ones work too), coordinate map and solver options.
    #[must_use]
    pub fn new(tableau: &ButcherTableau, map: M, options: ImplicitOptions) -> Self {
        let name = format!(
            "RKMK {} ({})",
            tableau.name,
            CoordinateMap::<A::Group>::name(&map)
        );
        Self::from_coeffs(Coeffs::from_tableau(tableau), map, name, options)
    }

    pub(crate) fn from_coeffs(
        coeffs: Coeffs,
        map: M,
        name: String,
        options: ImplicitOptions,
    ) -> Self {
        Self {
            coeffs,
            map,
            name,
            options,
            kt: Vec::new(),
            u: None,
            k: None,
            flat: Vec::new(),
            flat_g: Vec::new(),
            work: None,
            stats: StepStats::default(),
            symmetric: false,
        }
    }

    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Replace the solver options.
    #[must_use]
    pub fn with_options(mut self, options: ImplicitOptions) -> Self {
        self.options = options;
        self
    }

    /// `G(K)` for the stages in `self.kt`, written flat into `self.flat_g`.
    fn eval_g<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
    ) -> Result<(), SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let s = self.coeffs.s;
        let (Some(u), Some(k), Some(work)) = (self.u.as_mut(), self.k.as_mut(), self.work.as_mut())
        else {
            unreachable!("buffers allocated")
        };
        let d = u.dim();
        for i in 0..s {
            u.set_zero();
            for j in 0..s {
                let a = self.coeffs.a(i, j);
                if a != 0.0 {
                    u.add_scaled(h * c::<Scalar<A>>(a), &self.kt[j]);
                }
            }
            work.stage.clone_from(y);
            self.map.apply_assign(action, u, &mut work.stage);
            self.stats.exps += 1;
            let ti = t + h * c::<Scalar<A>>(self.coeffs.c[i]);
            f.eval(ti, &work.stage, k);
            self.stats.f_evals += 1;
            if !k.all_finite() {
                return Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(ti),
                });
            }
            self.map.dinv_into(u, k, &mut work.g);
            work.g.write_coords(&mut self.flat_g[i * d..(i + 1) * d]);
        }
        Ok(())
    }

    /// The stage derivatives from the flat vector `self.flat`.
    fn load(&mut self) {
        let d = self.flat.len() / self.coeffs.s.max(1);
        for (i, kt) in self.kt.iter_mut().enumerate() {
            kt.read_coords(&self.flat[i * d..(i + 1) * d]);
        }
    }
}

/// `true` for the one-stage tableau `c = (1/2), a = (1/2), b = (1)` (Gauss–Legendre 2, the
/// implicit midpoint rule): with the exponential its RKMK is symmetric on any group (see
/// [`Stepper::symmetric_on_group`]).
#[must_use]
pub(crate) fn is_implicit_midpoint(t: &ButcherTableau) -> bool {
    let c = Coeffs::from_tableau(t);
    c.s == 1 && c.a == [0.5] && c.b == [1.0] && c.c == [0.5]
}

/// `max |re xᵢ|`, NaN when any is NaN ([`liegroup::linalg::max_abs`]: a NaN residual must not
/// pass the convergence test).
fn max_abs<T: nalgebra::RealField + Copy>(v: &[T]) -> f64 {
    liegroup::linalg::max_abs(v.iter().map(|x| re(*x)))
}

impl<A: ActionInPlace, M: PointMap<A>> Stepper<A> for ImplicitRkmk<A, M> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        self.coeffs.order
    }

    #[allow(clippy::too_many_lines)]
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
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        let s = self.coeffs.s;
        if self.kt.len() != s {
            let z = action.algebra_zero(y);
            let d = z.dim();
            let n = s * d;
            self.kt = vec![z.clone(); s];
            self.u = Some(z.clone());
            self.k = Some(z.clone());
            self.flat = vec![Scalar::<A>::zero(); n];
            self.flat_g = vec![Scalar::<A>::zero(); n];
            let newton = self.options.solver == StageSolver::Newton;
            self.work = Some(Workspace {
                stage: y.clone(),
                g: z,
                base: vec![Scalar::<A>::zero(); n],
                g0: vec![Scalar::<A>::zero(); n],
                lu: vec![Scalar::<A>::zero(); if newton { n * n } else { 0 }],
                piv: vec![0; n],
                rhs: vec![Scalar::<A>::zero(); n],
            });
        }
        let n = self.flat.len();
        let d = n / s;
        // Initial guess: every stage derivative equal to f(t, y).
        {
            let k = self.k.as_mut().expect("allocated");
            f.eval(t, y, k);
            self.stats.f_evals += 1;
            if !k.all_finite() {
                return Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(t),
                });
            }
            for i in 0..s {
                k.write_coords(&mut self.flat[i * d..(i + 1) * d]);
            }
        }
        self.load();
        let tol_it = self.options.tol.max(8.0 * f64::EPSILON);
        let mut residual = f64::INFINITY;
        let newton = match self.options.solver {
            StageSolver::FixedPoint => false,
            StageSolver::Newton => {
                // Forward-difference Jacobian of R(K) = K − G(K) at the initial guess, column
                // by column, factored in place.
                self.eval_g(action, f, t, y, h)?;
                let work = self.work.as_mut().expect("allocated");
                work.g0.copy_from_slice(&self.flat_g);
                work.base.copy_from_slice(&self.flat);
                // (Sized at the first Newton step: options may switch from fixed point.)
                work.lu.resize(n * n, Scalar::<A>::zero());
                work.lu.fill(Scalar::<A>::zero());
                for i in 0..n {
                    work.lu[i * n + i] = Scalar::<A>::one();
                }
                for col in 0..n {
                    let work = self.work.as_ref().expect("allocated");
                    let xc = re(work.base[col]);
                    let delta = f64::EPSILON.sqrt() * xc.abs().max(1.0);
                    self.flat[col] = work.base[col] + c::<Scalar<A>>(delta);
                    self.load();
                    self.eval_g(action, f, t, y, h)?;
                    let work = self.work.as_mut().expect("allocated");
                    self.flat[col] = work.base[col];
                    for row in 0..n {
                        work.lu[row * n + col] -=
                            (self.flat_g[row] - work.g0[row]) / c::<Scalar<A>>(delta);
                    }
                }
                self.load();
                let work = self.work.as_mut().expect("allocated");
                self.flat_g.copy_from_slice(&work.g0);
                // A singular (or non-finite) Jacobian: Newton cannot start.
                if lu_factor_in_place(&mut work.lu, n, &mut work.piv).is_err() {
                    return Err(SchemeError::NonConvergence {
                        t: re(t),
                        residual: f64::INFINITY,
                        iterations: 0,
                        tolerance: tol_it,
                    });
                }
                true
            }
        };
        let mut have_g = newton;
        let mut converged = false;
        let mut iterations = 0;
        while iterations < self.options.max_iter {
            iterations += 1;
            self.stats.iterations += 1;
            if !have_g {
                self.eval_g(action, f, t, y, h)?;
            }
            have_g = false;
            let scale = nan_max(max_abs(&self.flat), 1.0);
            if newton {
                let work = self.work.as_mut().expect("allocated");
                for ((r, a), b) in work.rhs.iter_mut().zip(&self.flat).zip(&self.flat_g) {
                    *r = *b - *a;
                }
                lu_solve_in_place(&work.lu, n, &work.piv, &mut work.rhs);
                residual = max_abs(&work.rhs);
                for (x, dx) in self.flat.iter_mut().zip(&work.rhs) {
                    *x += *dx;
                }
            } else {
                residual = liegroup::linalg::max_abs(
                    self.flat.iter().zip(&self.flat_g).map(|(a, b)| re(*a - *b)),
                );
                self.flat.copy_from_slice(&self.flat_g);
            }
            self.load();
            // A NaN or infinite residual (or scale) is never converged; the error reports it.
            if !(residual.is_finite() && scale.is_finite()) {
                break;
            }
            if residual <= tol_it * scale {
                converged = true;
                break;
            }
        }
        if !converged {
            return Err(SchemeError::NonConvergence {
                t: re(t),
                residual,
                iterations,
                tolerance: tol_it,
            });
        }
        let u = self.u.as_mut().expect("allocated");
        u.set_zero();
        for (i, &b) in self.coeffs.b.iter().enumerate() {
            if b != 0.0 {
                u.add_scaled(h * c::<Scalar<A>>(b), &self.kt[i]);
            }
        }
        let mut y1 = y.clone();
        self.map.apply_assign(action, u, &mut y1);
        self.stats.exps += 1;
        Ok(StepOutput { y: y1, error: None })
    }

    fn symmetric_on_group(&self) -> bool {
        // With the options switched (a different tolerance), the map is the same.
        self.symmetric
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
