//! Runge–Kutta–Munthe-Kaas methods: any Butcher tableau, any coordinate map.

use crate::coeffs::{Coeffs, combine};
use crate::error::SchemeError;
use crate::point_map::PointMap;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use crate::tableau::ButcherTableau;
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::scalar::{c, re};
use liegroup::{CoordinateMap, Exp, VectorSpace};

/// The most stages for which a step on a fixed-size problem keeps its stage derivatives in a
/// local array (see [`Rkmk`], "Storage"); tableaux with more stages run the same step on the
/// stepper's work buffers.
pub const LOCAL_STAGES: usize = 16;

/// An explicit Runge–Kutta–Munthe-Kaas method \[MK99, Alg. 1\]: with a coordinate map `ψ`
/// (exp or Cayley) and a Butcher tableau `(A, b, c)`, one step from `y₀` is
///
/// ```text
///   uᵢ = h Σ_{j<i} a_ij k̃_j,   Yᵢ = ψ(uᵢ)·y₀,   kᵢ = f(t + cᵢh, Yᵢ),   k̃ᵢ = dψ_{uᵢ}⁻¹ kᵢ,
///   σ = h Σ bᵢ k̃ᵢ,            y₁ = ψ(σ)·y₀.
/// ```
///
/// With `dψ⁻¹` exact (or, for `ψ = exp`, the Bernoulli series through `ad^{p−2}`,
/// [`Exp::series`]) the method has the order of the tableau \[MK99, Thm. 4.1\]. With embedded
/// weights `b̂` the error estimate is `σ − σ̂` in algebra coordinates, scaled coordinate-wise by
/// `atol + rtol·max(|σᵢ|, |σ̂ᵢ|)` (weighted RMS norm). With a continuous extension `bᵢ(θ)` the
/// dense output at `t + θh` is `ψ(h Σ bᵢ(θ) k̃ᵢ)·y₀`, exact in the algebra.
///
/// **Sparsity.** A stage whose row of `A` is zero is evaluated at `y₀` itself (no
/// exponential, `k̃ᵢ = kᵢ`). On runtime-sized problems a stage combination runs over the
/// non-zero coefficients of its row only. On fixed-size problems it is the dense sum over the
/// earlier stages (a zero coefficient adds an exact zero, which can change only the sign of a
/// zero): constant indices let the compiler keep the stages in registers, which is worth more
/// than the skipped multiplications.
///
/// **Exponential reuse (FSAL rows).** When the last row of `A` equals `b` (Dormand–Prince 5(4),
/// Bogacki–Shampine 3(2)), the last stage point `ψ(u_s)·y₀` *is* `y₁`: `u_s` and `σ` are the
/// same sums in the same order (up to the sign of a zero). The engine then returns that stage
/// point instead of applying `ψ(σ)` again (one exponential less per step). The stage
/// derivative `f(y₁)` itself is not carried to the next step (that would need to know that the
/// next step starts from this `y₁`, which a stepper cannot check for arbitrary points).
///
/// **Finiteness.** `σ` is the sum over *every* stage (zero weights included), and `0·NaN` and
/// `0·∞` are NaN: `σ` is finite exactly when every `k̃ᵢ` is (barring overflow of the sum). So
/// a step tests `σ` once, and only when that fails looks for the first non-finite `k̃ᵢ` to
/// report [`SchemeError::NonFinite`] at its stage time (`k̃ᵢ = dψ⁻¹ kᵢ` is finite when `kᵢ`
/// and `uᵢ` are). Later stages are then evaluated at non-finite points, which vector fields
/// must tolerate (returning non-finite values, not panicking).
///
/// **Storage.** There is one step; it runs on one of two storages. On a problem whose points
/// and algebra elements own no heap memory (fixed-size groups, products, arrays) and a tableau
/// of at most [`LOCAL_STAGES`] stages, the stage derivatives live in a local array and the
/// stage loop is written out with constant indices (for up to 4, 8 or 16 stages), so the
/// compiler keeps them in registers. Otherwise they live in work buffers that the stepper
/// allocates on its first step (sized by the problem) and reuses. Neither allocates per step on
/// a fixed-size problem. A stepper is sized by the first problem it steps; use a fresh one for
/// a problem of another size.
#[derive(Clone, Debug)]
pub struct Rkmk<A: ActionInPlace, M = Exp> {
    tab: Tableau,
    map: M,
    name: String,
    work: Option<Work<A>>,
    /// `k̃ᵢ` of the last step, kept for [`Stepper::dense_output`] (tableaux with a continuous
    /// extension only).
    kept: Vec<Algebra<A>>,
    /// Room for the coordinates of `σ` and `σ̂` (error estimates).
    scratch: Vec<Scalar<A>>,
    last_h: f64,
    stats: StepStats,
}

/// The work buffers of a step on runtime-sized problems (or more than [`LOCAL_STAGES`] stages).
#[derive(Clone, Debug)]
struct Work<A: ActionInPlace> {
    kt: Vec<Algebra<A>>,
    u: Algebra<A>,
    k: Algebra<A>,
    sigma: Algebra<A>,
    sigma_hat: Algebra<A>,
    /// The stage point `Yᵢ = ψ(uᵢ)·y₀`, moved in place (no allocation for runtime-sized points).
    stage: A::Point,
}

/// An explicit tableau as the step reads it.
#[derive(Clone, Debug)]
struct Tableau {
    coeffs: Coeffs,
    /// The non-zero `(j, a_ij)` of each row of `A` (runtime-sized problems).
    rows: Vec<Vec<(usize, f64)>>,
    /// `A`, `b`, `b̂` and `c` zero-padded to [`LOCAL_STAGES`] (fixed offsets for the written-out
    /// stage loop); `None` for longer tableaux.
    padded: Option<Box<Padded>>,
    /// The last row of `A` equals `b`: the last stage point is `y₁`.
    fsal: bool,
}

#[derive(Clone, Debug)]
struct Padded {
    a: [[f64; LOCAL_STAGES]; LOCAL_STAGES],
    b: [f64; LOCAL_STAGES],
    b_hat: [f64; LOCAL_STAGES],
    c: [f64; LOCAL_STAGES],
}

impl Tableau {
    fn new(coeffs: Coeffs) -> Self {
        let s = coeffs.s;
        let rows: Vec<Vec<(usize, f64)>> = (0..s)
            .map(|i| {
                (0..i)
                    .filter(|&j| coeffs.a(i, j) != 0.0)
                    .map(|j| (j, coeffs.a(i, j)))
                    .collect()
            })
            .collect();
        let fsal = s > 1
            && (0..s).all(|j| coeffs.a(s - 1, j) == coeffs.b[j])
            && coeffs.b.iter().any(|&b| b != 0.0);
        let zero_rows = (1..s).any(|i| rows[i].is_empty());
        let padded = (s <= LOCAL_STAGES && !zero_rows).then(|| {
            let mut p = Padded {
                a: [[0.0; LOCAL_STAGES]; LOCAL_STAGES],
                b: [0.0; LOCAL_STAGES],
                b_hat: [0.0; LOCAL_STAGES],
                c: [0.0; LOCAL_STAGES],
            };
            for i in 0..s {
                for j in 0..i {
                    p.a[i][j] = coeffs.a(i, j);
                }
            }
            p.b[..s].copy_from_slice(&coeffs.b);
            p.c[..s].copy_from_slice(&coeffs.c);
            if let Some(b_hat) = &coeffs.b_hat {
                p.b_hat[..s].copy_from_slice(b_hat);
            }
            Box::new(p)
        });
        Self {
            coeffs,
            rows,
            padded,
            fsal,
        }
    }
}

/// `for $i in 0..$s { $body }`: written out with constant indices (at most `$n` iterations,
/// each guarded by `$i < $s`) when `$n > 0`, a loop otherwise.
macro_rules! each_stage {
    ($n:expr, $s:expr, |$i:ident| $body:block) => {
        if $n > 0 {
            crate::coeffs::unrolled!($n, |$i| {
                if $i < $s $body
            });
        } else {
            for $i in 0..$s $body
        }
    };
}

/// The step's values: the stage derivatives `k̃ᵢ` and the work values, in a local array
/// (`N > 0`) or the stepper's buffers (`N = 0`).
struct Values<'a, A: ActionInPlace> {
    kt: &'a mut [Algebra<A>],
    u: &'a mut Algebra<A>,
    k: &'a mut Algebra<A>,
    sigma: &'a mut Algebra<A>,
    sigma_hat: &'a mut Algebra<A>,
    stage: &'a mut A::Point,
}

impl<A: ActionInPlace> Rkmk<A, Exp> {
    /// RKMK with the exponential map and the group's own `dexp⁻¹` (closed form for the shipped
    /// groups).
    ///
    /// # Errors
    /// [`SchemeError::Unsupported`] for implicit tableaux (use [`ImplicitRkmk`](crate::ImplicitRkmk)).
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::Rn;
    /// use schemes::{Rkmk, Stepper, catalogue::RK4};
    /// let stepper = Rkmk::<LeftMultiplication<Rn<f64, 1>>>::exp(&RK4).unwrap();
    /// assert_eq!(stepper.order(), 4);
    /// ```
    pub fn exp(tableau: &ButcherTableau) -> Result<Self, SchemeError> {
        Self::new(tableau, Exp::exact())
    }
}

impl<A: ActionInPlace, M: PointMap<A>> Rkmk<A, M> {
    /// RKMK with any tableau and coordinate map (e.g. [`Exp::series`]`(p − 2)` for the
    /// truncated Bernoulli series \[MK99\], or [`Cayley`](liegroup::Cayley)).
    ///
    /// # Errors
    /// [`SchemeError::Unsupported`] for implicit tableaux (use [`ImplicitRkmk`](crate::ImplicitRkmk)).
    pub fn new(tableau: &ButcherTableau, map: M) -> Result<Self, SchemeError> {
        let name = format!(
            "RKMK {} ({})",
            tableau.name,
            CoordinateMap::<A::Group>::name(&map)
        );
        Self::from_coeffs(Coeffs::from_tableau(tableau), map, name)
    }

    /// Replace the name reported by [`Stepper::name`].
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// An RKMK stepper from coefficients and a coordinate map.
    ///
    /// # Errors
    /// [`SchemeError::Unsupported`] for implicit tableaux (use the implicit engine).
    pub(crate) fn from_coeffs(coeffs: Coeffs, map: M, name: String) -> Result<Self, SchemeError> {
        if !coeffs.is_explicit() {
            return Err(SchemeError::Unsupported {
                method: name,
                reason: "the tableau is implicit; use ImplicitRkmk".into(),
            });
        }
        Ok(Self {
            tab: Tableau::new(coeffs),
            map,
            name,
            work: None,
            kept: Vec::new(),
            scratch: Vec::new(),
            last_h: 0.0,
            stats: StepStats::default(),
        })
    }

    /// The step on local storage: `N ≥ s` stage slots in an array (`N` a const, so that the
    /// stage loop is written out with constant indices). Not inlined into
    /// [`Stepper::step`]: one function per stage count keeps each instance small enough for
    /// the compiler to keep the stages in registers.
    #[inline(never)]
    fn step_local<F, const N: usize, const FSAL: bool>(
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
        let z = action.algebra_zero(y);
        let mut kt: [Algebra<A>; N] = core::array::from_fn(|_| z.clone());
        let (mut u, mut k, mut sigma) = (z.clone(), z.clone(), z.clone());
        let mut sigma_hat = z;
        let mut stage = y.clone();
        let values = Values::<A> {
            kt: &mut kt,
            u: &mut u,
            k: &mut k,
            sigma: &mut sigma,
            sigma_hat: &mut sigma_hat,
            stage: &mut stage,
        };
        self.step_on::<F, N, FSAL>(action, f, t, y, h, tol, values)
    }

    /// The step (the only one): `N > 0` when `values` is a local array of `N ≥ s` slots,
    /// `N = 0` for the work buffers.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    #[allow(clippy::needless_range_loop)] // the same indices address several arrays
    fn step_on<F, const N: usize, const FSAL: bool>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
        v: Values<'_, A>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let tab = &self.tab;
        let co = &tab.coeffs;
        // The stage count: a constant for local arrays of up to eight slots (which are chosen
        // for exactly that many stages).
        let s = if N > 0 && N <= 8 { N } else { co.s };
        let padded = if N > 0 {
            let Some(p) = tab.padded.as_deref() else {
                unreachable!("local storage is chosen for padded tableaux only")
            };
            Some(p)
        } else {
            None
        };
        // Coefficients at constant offsets (local storage) or from the owned tableau.
        let node = |i: usize| padded.map_or_else(|| co.c[i], |p| p.c[i]);
        let weight = |i: usize| padded.map_or_else(|| co.b[i], |p| p.b[i]);
        // Local storage is chosen only for tableaux whose rows after the first are non-zero.
        let zero_row = |i: usize| i == 0 || (N == 0 && tab.rows[i].is_empty());
        let hc = |x: f64| h * c::<Scalar<A>>(x);
        let Values {
            kt,
            u,
            k,
            sigma,
            sigma_hat,
            stage,
        } = v;
        let mut exps = 0;

        each_stage!(N, s, |i| {
            let ti = t + hc(node(i));
            if zero_row(i) {
                f.eval(ti, y, &mut kt[i]);
            } else {
                // uᵢ = h Σ_{j<i} aᵢⱼ k̃ⱼ
                if let Some(p) = padded {
                    // (Written out as well: a loop here leaves the stages in memory.)
                    u.set_scaled(hc(p.a[i][0]), &kt[0]);
                    crate::coeffs::unrolled!(N, |j| {
                        if 0 < j && j < i {
                            u.add_scaled(hc(p.a[i][j]), &kt[j]);
                        }
                    });
                } else {
                    combine(u, h, &tab.rows[i], kt);
                }
                stage.clone_from(y);
                self.map.apply_assign(action, u, stage);
                exps += 1;
                f.eval(ti, stage, k);
                self.map.dinv_into(u, k, &mut kt[i]);
            }
        });
        self.stats.f_evals += s;

        // σ = h Σ bᵢ k̃ᵢ over every stage (with an FSAL row: the sum u_s, in the same order).
        sigma.set_scaled(hc(weight(0)), &kt[0]);
        each_stage!(N, s, |i| {
            if i > 0 {
                sigma.add_scaled(hc(weight(i)), &kt[i]);
            }
        });
        if !sigma.all_finite() {
            let mut first = None;
            each_stage!(N, s, |i| {
                if first.is_none() && !kt[i].all_finite() {
                    first = Some(i);
                }
            });
            if let Some(i) = first {
                self.stats.exps += exps;
                return Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(t + hc(node(i))),
                });
            }
        }

        let error = match (tol, &co.b_hat) {
            (Some(tol), Some(b_hat)) => {
                // σ̂ = h Σ b̂ᵢ k̃ᵢ over the non-zero b̂ᵢ.
                sigma_hat.set_zero();
                each_stage!(N, s, |i| {
                    let bh = padded.map_or_else(|| b_hat[i], |p| p.b_hat[i]);
                    if bh != 0.0 {
                        sigma_hat.add_scaled(hc(bh), &kt[i]);
                    }
                });
                if self.scratch.len() < 2 * sigma.dim() {
                    self.scratch = vec![<Scalar<A> as num_traits::Zero>::zero(); 2 * sigma.dim()];
                }
                Some(algebra_error(sigma, sigma_hat, &mut self.scratch, tol))
            }
            _ => None,
        };
        if co.dense.is_some() {
            if self.kept.len() != s {
                self.kept = vec![sigma.zero_like(); s];
            }
            each_stage!(N, s, |i| {
                self.kept[i].clone_from(&kt[i]);
            });
        }
        let y1 = if FSAL {
            stage.clone() // ψ(u_s)·y₀, u_s = σ (FSAL row)
        } else {
            exps += 1;
            let mut y1 = y.clone();
            self.map.apply_assign(action, sigma, &mut y1);
            y1
        };
        self.stats.exps += exps;
        self.last_h = re(h);
        Ok(StepOutput { y: y1, error })
    }
}

/// The weighted RMS norm of `σ − σ̂` in algebra coordinates, each weighted by
/// `atol + rtol·max(|σᵢ|, |σ̂ᵢ|)` (accumulated without overflow: [`liegroup::linalg::Rms`]);
/// `scratch` holds at least `2 dim σ` numbers.
fn algebra_error<V: VectorSpace>(
    sigma: &V,
    sigma_hat: &V,
    scratch: &mut [V::Scalar],
    tol: &Tolerance,
) -> f64 {
    let n = sigma.dim();
    let (sa, sb) = scratch.split_at_mut(n);
    sigma.write_coords(sa);
    sigma_hat.write_coords(&mut sb[..n]);
    let mut rms = liegroup::linalg::Rms::default();
    for (x, xh) in sa.iter().zip(sb.iter()) {
        let (x, xh) = (re(*x), re(*xh));
        rms.push((x - xh) / tol.weight(x.abs().max(xh.abs())));
    }
    rms.value()
}

impl<A: ActionInPlace, M: PointMap<A>> Stepper<A> for Rkmk<A, M> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        self.tab.coeffs.order
    }
    fn embedded_order(&self) -> Option<u32> {
        self.tab.coeffs.embedded_order
    }
    fn has_dense_output(&self) -> bool {
        self.tab.coeffs.dense.is_some()
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
        if tol.is_some() && self.tab.coeffs.b_hat.is_none() {
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        let s = self.tab.coeffs.s;
        if crate::stepper::fixed_size::<A>() && self.tab.padded.is_some() {
            // Local copies cost no allocation: the stage values in a local array.
            // Up to eight stages the stage count is a constant of the instance (straight-line
            // code); longer tableaux share one instance whose stages test `i < s`.
            macro_rules! local {
                ($($n:literal)*) => {
                    match (s, self.tab.fsal) {
                        $(($n, false) => self.step_local::<F, $n, false>(action, f, t, y, h, tol),
                          ($n, true) => self.step_local::<F, $n, true>(action, f, t, y, h, tol),)*
                        (_, false) => self.step_local::<F, LOCAL_STAGES, false>(action, f, t, y, h, tol),
                        (_, true) => self.step_local::<F, LOCAL_STAGES, true>(action, f, t, y, h, tol),
                    }
                };
            }
            return local!(1 2 3 4 5 6 7 8);
        }
        let mut work = match self.work.take() {
            Some(w) if w.kt.len() == s => w,
            _ => {
                let z = action.algebra_zero(y);
                Work {
                    kt: vec![z.clone(); s],
                    u: z.clone(),
                    k: z.clone(),
                    sigma: z.clone(),
                    sigma_hat: z,
                    stage: y.clone(),
                }
            }
        };
        let values = Values::<A> {
            kt: &mut work.kt,
            u: &mut work.u,
            k: &mut work.k,
            sigma: &mut work.sigma,
            sigma_hat: &mut work.sigma_hat,
            stage: &mut work.stage,
        };
        let out = if self.tab.fsal {
            self.step_on::<F, 0, true>(action, f, t, y, h, tol, values)
        } else {
            self.step_on::<F, 0, false>(action, f, t, y, h, tol, values)
        };
        self.work = Some(work);
        out
    }

    fn dense_output(&self, action: &A, y_prev: &A::Point, theta: Scalar<A>) -> Option<A::Point> {
        let dense = self.tab.coeffs.dense.as_ref()?;
        let mut sig = self.kept.first()?.zero_like();
        let h: Scalar<A> = c(self.last_h);
        for (i, kt) in self.kept.iter().enumerate() {
            let bi = dense.weight(i, theta);
            sig.add_scaled(h * bi, kt);
        }
        Some(self.map.apply(action, &sig, y_prev))
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
