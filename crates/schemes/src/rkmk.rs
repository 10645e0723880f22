//! Runge–Kutta–Munthe-Kaas methods: any Butcher tableau, any coordinate map.

use crate::coeffs::{Coeffs, combine};
use crate::error::SchemeError;
use crate::point_map::PointMap;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use crate::tableau::ButcherTableau;
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::scalar::{c, re};
use liegroup::{CoordinateMap, Exp, VectorSpace};

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
/// **Exponential reuse (FSAL rows).** When the last row of `A` equals `b` (Dormand–Prince 5(4),
/// Bogacki–Shampine 3(2)), the last stage point `ψ(u_s)·y₀` *is* `y₁`: `u_s` and `σ` are the
/// same sums in the same order, bitwise. The engine then returns that stage point instead of
/// applying `ψ(σ)` again (one exponential less per step). The stage derivative `f(y₁)` itself is
/// not carried to the next step (that would need to know that the next step starts from this
/// `y₁`, which a stepper cannot check for arbitrary points); the saving is the exponential.
///
/// Work buffers are allocated on the first step (sized by the problem) and reused: a step on a
/// fixed-size problem does not allocate. A stepper is sized by the first problem it steps; use a
/// fresh one for a problem of another size.
///
/// **Fused four-stage kernel.** For an explicit four-stage tableau with non-zero weights,
/// without embedded weights or dense output (classical RK4, the 3/8 rule) on a problem whose
/// points and algebra elements own no heap memory (no drop glue: fixed-size groups, products,
/// arrays), the step runs as straight-line code on local values instead of looping over the
/// tableau with work buffers: the compiler then keeps the stages in registers, which removes
/// about 40 % of the cost of a step on SO(3) × ℝ³. It performs the same floating-point
/// operations in the same order as the general loop (zero coefficients add exact zeros), so
/// the results are identical. It tests finiteness once per step, on `σ`; when that fails the
/// step is taken again by the general loop, which names the first stage whose field value was
/// not finite. [`Rkmk::unfused`] turns it off (for comparisons).
///
/// **Local-value kernel.** Every other explicit tableau of up to seven stages whose rows after
/// the first are not zero (with an FSAL row: of four or seven stages) — Heun, midpoint, Kutta,
/// Ralston, Bogacki–Shampine 3(2), Dormand–Prince 5(4), Butcher's sixth order, with error
/// estimates and dense output — runs on fixed-size problems as the general loop written out
/// for its number of stages, on local arrays: no work buffers, no loop over the tableau at run
/// time. Each stage combination is the dense sum over the earlier stages (a zero coefficient
/// adds an exact zero, which can change only the sign of a zero), so the results equal the
/// general loop's. Finiteness is tested once, on the sum of the field values (the general loop
/// takes the step again when that fails, as for the fused kernel). On the heavy top
/// (body frame) this took Kutta's method from about 180 to 75 ns per step and Dormand–Prince
/// from about 400 to 170 ns (`docs/performance.md`). [`Rkmk::unfused`] turns it off too.
#[derive(Clone, Debug)]
pub struct Rkmk<A: ActionInPlace, M = Exp> {
    coeffs: Coeffs,
    /// The non-zero `(j, a_ij)` of each row of `A` (explicit part, `j < i`).
    rows: Vec<Vec<(usize, f64)>>,
    /// The non-zero `(i, bᵢ)`.
    weights: Vec<(usize, f64)>,
    map: M,
    name: String,
    kt: Vec<Algebra<A>>,
    u: Option<Algebra<A>>,
    k: Option<Algebra<A>>,
    sigma: Option<Algebra<A>>,
    sigma_hat: Option<Algebra<A>>,
    /// The stage point `Yᵢ = ψ(uᵢ)·y₀`, moved in place (no allocation for runtime-N points).
    stage: Option<A::Point>,
    scratch: Vec<Scalar<A>>,
    /// The last row of `A` equals `b`: the last stage point is `y₁`.
    last_stage_is_update: bool,
    /// Four explicit stages, no embedded weights, no dense output: the fused kernel applies,
    /// with these coefficients `(a₁₀, a₂₀, a₂₁, a₃₀, a₃₁, a₃₂, b₀…b₃, c₀…c₃)`.
    fused4: Option<[f64; 14]>,
    /// The tableau in fixed arrays for [`step_local`](Self::step_local) (up to
    /// [`LOCAL_STAGES`] stages).
    local: Option<Box<LocalTableau>>,
    last_h: f64,
    stats: StepStats,
}

/// The most stages the fixed-size kernel [`Rkmk::step_local`] handles (its arrays have one
/// row more: the stage loop is written out for eight iterations, and every index in it must be
/// in bounds even where the iteration is skipped).
const LOCAL_STAGES: usize = 7;
const LOCAL_ROWS: usize = 8;

/// An explicit tableau of at most [`LOCAL_STAGES`] stages in fixed arrays (zero-padded): the
/// fixed-size kernel reads its coefficients at constant offsets, without bounds checks.
#[derive(Clone, Copy, Debug)]
struct LocalTableau {
    a: [[f64; LOCAL_ROWS]; LOCAL_ROWS],
    b: [f64; LOCAL_ROWS],
    c: [f64; LOCAL_ROWS],
}

impl LocalTableau {
    /// `None` above [`LOCAL_STAGES`] stages, or when a row of `A` after the first is zero
    /// (that stage is evaluated at `y₀` itself, which the general loop handles).
    fn of(coeffs: &Coeffs) -> Option<Self> {
        let s = coeffs.s;
        let zero_row = |i: usize| (0..i).all(|j| coeffs.a(i, j) == 0.0);
        (s <= LOCAL_STAGES && !(1..s).any(zero_row)).then(|| {
            let mut t = Self {
                a: [[0.0; LOCAL_ROWS]; LOCAL_ROWS],
                b: [0.0; LOCAL_ROWS],
                c: [0.0; LOCAL_ROWS],
            };
            for i in 0..s {
                for j in 0..s {
                    t.a[i][j] = coeffs.a(i, j);
                }
            }
            t.b[..s].copy_from_slice(&coeffs.b);
            t.c[..s].copy_from_slice(&coeffs.c);
            t
        })
    }
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

    /// Always use the general stage loop (turn off the fused four-stage kernel and the
    /// local-value kernel described on [`Rkmk`]); the results are the same, only slower. For
    /// comparisons and tests.
    #[must_use]
    pub fn unfused(mut self) -> Self {
        self.fused4 = None;
        self.local = None;
        self
    }

    /// The fused four-stage step: the general loop written out for `s = 4` on local values
    /// (same operations, same order; see the type's documentation). `SUBDIAGONAL`: the stage
    /// combinations have their only non-zero coefficient on the subdiagonal (`a₂₀ = a₃₀ =
    /// a₃₁ = 0`, the classical RK4), and the zero terms are skipped, as the general loop's
    /// sparse rows do.
    fn step_fused4<F, const SUBDIAGONAL: bool>(
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
        let Some(co) = &self.fused4 else {
            unreachable!("called only with four-stage coefficients")
        };
        let hc = |x: f64| h * c::<Scalar<A>>(x);
        // No finiteness test per stage: an early exit per stage splits the straight-line code
        // into blocks the compiler schedules separately (a fifth of a step on small problems),
        // and a test of each value costs a tenth. Instead `σ = h Σ bᵢ k̃ᵢ` (all `bᵢ ≠ 0`) is
        // tested once: `k̃ᵢ = dψ⁻¹ kᵢ` is an invertible linear map of `kᵢ` evaluated in
        // floating point, so `σ` is finite exactly when every `kᵢ` is (or when it overflowed).
        // Otherwise `None`, and the caller takes the step again with the general loop, which
        // names the first stage with a non-finite value. (Later stages are then evaluated at
        // non-finite points, which fields must tolerate anyway: a finite field value can
        // still overflow a stage point.)
        let z = action.algebra_zero(y);
        let mut k = z.clone();
        let t1 = t + hc(co[10]);
        f.eval(t1, y, &mut k);
        let k1 = k.clone();

        let mut u2 = z.clone();
        u2.set_scaled(hc(co[0]), &k1);
        let mut y2 = y.clone();
        self.map.apply_assign(action, &u2, &mut y2);
        let t2 = t + hc(co[11]);
        f.eval(t2, &y2, &mut k);
        let mut k2 = z.clone();
        self.map.dinv_into(&u2, &k, &mut k2);

        let mut u3 = z.clone();
        if SUBDIAGONAL {
            u3.set_scaled(hc(co[2]), &k2);
        } else {
            u3.set_scaled(hc(co[1]), &k1);
            u3.add_scaled(hc(co[2]), &k2);
        }
        let mut y3 = y.clone();
        self.map.apply_assign(action, &u3, &mut y3);
        let t3 = t + hc(co[12]);
        f.eval(t3, &y3, &mut k);
        let mut k3 = z.clone();
        self.map.dinv_into(&u3, &k, &mut k3);

        let mut u4 = z.clone();
        if SUBDIAGONAL {
            u4.set_scaled(hc(co[5]), &k3);
        } else {
            u4.set_scaled(hc(co[3]), &k1);
            u4.add_scaled(hc(co[4]), &k2);
            u4.add_scaled(hc(co[5]), &k3);
        }
        let mut y4 = y.clone();
        self.map.apply_assign(action, &u4, &mut y4);
        let t4 = t + hc(co[13]);
        f.eval(t4, &y4, &mut k);
        let mut k4 = z;
        self.map.dinv_into(&u4, &k, &mut k4);

        let mut sigma = k;
        sigma.set_scaled(hc(co[6]), &k1);
        sigma.add_scaled(hc(co[7]), &k2);
        sigma.add_scaled(hc(co[8]), &k3);
        sigma.add_scaled(hc(co[9]), &k4);
        if !sigma.all_finite() {
            return None;
        }
        let mut y1 = y.clone();
        self.map.apply_assign(action, &sigma, &mut y1);
        self.stats.f_evals += 4;
        self.stats.exps += 4;
        self.last_h = re(h);
        Some(StepOutput { y: y1, error: None })
    }

    /// The step of an explicit `S`-stage tableau on local values (fixed-size problems): the
    /// general loop with the stage derivatives in a local array instead of work buffers. The
    /// stage loop is written out (`unrolled!`), so every array index is a constant, the
    /// compiler keeps the stages in registers and computes only the parts of a stage point the
    /// field reads. Each stage combination is the dense sum over the earlier stages (a zero
    /// coefficient adds an exact zero, which can only change the sign of a zero), so the
    /// results equal the general loop's. The stage values' finiteness is tested once, on their
    /// sum: `None` when it is not finite, and the caller takes the step again with the general
    /// loop (as after [`step_fused4`](Self::step_fused4)). `FSAL`: the last row of `A` equals
    /// `b`, and the last stage point is returned as `y₁` (a compile-time flag, so that the
    /// other tableaux compute only what their field reads of the last stage point).
    #[allow(clippy::needless_range_loop)] // constant indices into several arrays
    fn step_local<F, const S: usize, const FSAL: bool>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Option<StepOutput<A::Point>>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let Some(tab) = &self.local else {
            unreachable!("called only with a local tableau")
        };
        let hc = |x: f64| h * c::<Scalar<A>>(x);
        let z = action.algebra_zero(y);
        let mut kt: [Algebra<A>; S] = core::array::from_fn(|_| z.clone());
        let mut ksum = z.clone();
        let mut k = z.clone();
        let mut u = z;
        let mut y_last = y.clone();
        let mut exps = 0;
        crate::coeffs::unrolled!(S, |i| {
            let ti = t + hc(tab.c[i]);
            if i == 0 {
                f.eval(ti, y, &mut kt[0]);
                ksum.clone_from(&kt[0]);
            } else {
                // u = h Σ_{j<i} aᵢⱼ k̃ⱼ, zero coefficients included (exact zeros).
                u.set_scaled(hc(tab.a[i][0]), &kt[0]);
                for j in 1..i {
                    u.add_scaled(hc(tab.a[i][j]), &kt[j]);
                }
                let mut yi = y.clone();
                self.map.apply_assign(action, &u, &mut yi);
                exps += 1;
                f.eval(ti, &yi, &mut k);
                ksum.add_scaled(<Scalar<A> as num_traits::One>::one(), &k);
                self.map.dinv_into(&u, &k, &mut kt[i]);
                if FSAL && i + 1 == S {
                    y_last = yi;
                }
            }
        });
        if !ksum.all_finite() {
            return None;
        }
        self.stats.f_evals += S;
        // σ = h Σ bᵢ k̃ᵢ (with an FSAL row, the same sum as u_s, in the same order).
        let mut sigma = k;
        sigma.set_scaled(hc(tab.b[0]), &kt[0]);
        for i in 1..S {
            sigma.add_scaled(hc(tab.b[i]), &kt[i]);
        }
        let error = match (tol, &self.coeffs.b_hat) {
            (Some(tol), Some(b_hat)) => {
                let mut sigma_hat = sigma.zero_like();
                embedded_update(&mut sigma_hat, h, b_hat, &kt);
                if self.scratch.len() < 2 * sigma.dim() {
                    self.scratch = vec![<Scalar<A> as num_traits::Zero>::zero(); 2 * sigma.dim()];
                }
                Some(algebra_error(&sigma, &sigma_hat, &mut self.scratch, tol))
            }
            _ => None,
        };
        if self.coeffs.dense.is_some() {
            // Kept for `dense_output` (allocated on the first step only).
            self.kt.clear();
            self.kt.extend(kt.iter().cloned());
            self.sigma = Some(sigma.clone());
        }
        let y1 = if FSAL {
            y_last // ψ(u_s)·y₀ with u_s = σ bitwise (FSAL row)
        } else {
            exps += 1;
            let mut y1 = y.clone();
            self.map.apply_assign(action, &sigma, &mut y1);
            y1
        };
        self.stats.exps += exps;
        self.last_h = re(h);
        Some(StepOutput { y: y1, error })
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
        let s = coeffs.s;
        let last_stage_is_update = s > 1
            && (0..s).all(|j| coeffs.a(s - 1, j) == coeffs.b[j])
            && coeffs.b.iter().any(|&b| b != 0.0);
        let rows: Vec<Vec<(usize, f64)>> = (0..s)
            .map(|i| {
                (0..i)
                    .filter(|&j| coeffs.a(i, j) != 0.0)
                    .map(|j| (j, coeffs.a(i, j)))
                    .collect()
            })
            .collect();
        let weights = (0..s)
            .filter(|&i| coeffs.b[i] != 0.0)
            .map(|i| (i, coeffs.b[i]))
            .collect();
        let fused4 = (s == 4
            && coeffs.b.iter().all(|&b| b != 0.0)
            && coeffs.b_hat.is_none()
            && coeffs.dense.is_none()
            && !last_stage_is_update
            && rows[1..].iter().all(|r| !r.is_empty()))
        .then(|| {
            let a = |i, j| coeffs.a(i, j);
            let (b, c) = (&coeffs.b, &coeffs.c);
            [
                a(1, 0),
                a(2, 0),
                a(2, 1),
                a(3, 0),
                a(3, 1),
                a(3, 2),
                b[0],
                b[1],
                b[2],
                b[3],
                c[0],
                c[1],
                c[2],
                c[3],
            ]
        });
        Ok(Self {
            last_stage_is_update,
            fused4,
            local: LocalTableau::of(&coeffs).map(Box::new),
            rows,
            weights,
            coeffs,
            map,
            name,
            kt: Vec::new(),
            u: None,
            k: None,
            sigma: None,
            sigma_hat: None,
            stage: None,
            scratch: Vec::new(),
            last_h: 0.0,
            stats: StepStats::default(),
        })
    }

    fn ensure_buffers(&mut self, action: &A, y: &A::Point) {
        if self.kt.len() != self.coeffs.s {
            let z = action.algebra_zero(y);
            self.kt = vec![z.clone(); self.coeffs.s];
            self.scratch = vec![<Scalar<A> as num_traits::Zero>::zero(); 2 * z.dim()];
            self.u = Some(z.clone());
            self.k = Some(z.clone());
            self.sigma = Some(z.clone());
            self.sigma_hat = Some(z);
        }
        if self.stage.is_none() {
            self.stage = Some(y.clone());
        }
    }
}

/// `σ̂ ← h Σ b̂ᵢ k̃ᵢ` over the non-zero `b̂ᵢ`, added to a zeroed vector.
#[inline]
fn embedded_update<V: VectorSpace>(sigma_hat: &mut V, h: V::Scalar, b_hat: &[f64], kt: &[V]) {
    sigma_hat.set_zero();
    for (ki, &bh) in kt.iter().zip(b_hat) {
        if bh != 0.0 {
            sigma_hat.add_scaled(h * c::<V::Scalar>(bh), ki);
        }
    }
}

/// The weighted RMS norm of `σ − σ̂` in algebra coordinates, each weighted by
/// `atol + rtol·max(|σᵢ|, |σ̂ᵢ|)`; `scratch` holds at least `2 dim σ` numbers.
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
    let mut acc = 0.0;
    for (x, xh) in sa.iter().zip(sb.iter()) {
        let (x, xh) = (re(*x), re(*xh));
        let w = tol.weight(x.abs().max(xh.abs()));
        acc += ((x - xh) / w).powi(2);
    }
    (acc / n.max(1) as f64).sqrt()
}

impl<A: ActionInPlace, M: PointMap<A>> Stepper<A> for Rkmk<A, M> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        self.coeffs.order
    }
    fn embedded_order(&self) -> Option<u32> {
        self.coeffs.embedded_order
    }
    fn has_dense_output(&self) -> bool {
        self.coeffs.dense.is_some()
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
        if tol.is_some() && self.coeffs.b_hat.is_none() {
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        // Fixed-size problems (no heap memory in points or algebra elements, so the local
        // copies below cost no allocation): straight-line code.
        if let Some(co) = &self.fused4
            && crate::stepper::fixed_size::<A>()
        {
            // The classical shape (each stage uses the previous derivative only: RK4) skips
            // the zero terms of the stage combinations, like the general loop does.
            let out = if co[1] == 0.0 && co[3] == 0.0 && co[4] == 0.0 {
                self.step_fused4::<F, true>(action, f, t, y, h)
            } else {
                self.step_fused4::<F, false>(action, f, t, y, h)
            };
            if let Some(out) = out {
                return Ok(out);
            }
        } else if self.local.is_some() && crate::stepper::fixed_size::<A>() {
            // Other explicit tableaux of up to seven stages on fixed-size problems: the loop on
            // local values (FSAL rows: the shapes of Bogacki–Shampine and Dormand–Prince; other
            // FSAL tableaux take the general loop).
            let out = match (self.coeffs.s, self.last_stage_is_update) {
                (1, _) => self.step_local::<F, 1, false>(action, f, t, y, h, tol),
                (2, false) => self.step_local::<F, 2, false>(action, f, t, y, h, tol),
                (3, false) => self.step_local::<F, 3, false>(action, f, t, y, h, tol),
                (4, false) => self.step_local::<F, 4, false>(action, f, t, y, h, tol),
                (4, true) => self.step_local::<F, 4, true>(action, f, t, y, h, tol),
                (5, false) => self.step_local::<F, 5, false>(action, f, t, y, h, tol),
                (6, false) => self.step_local::<F, 6, false>(action, f, t, y, h, tol),
                (7, false) => self.step_local::<F, 7, false>(action, f, t, y, h, tol),
                (7, true) => self.step_local::<F, 7, true>(action, f, t, y, h, tol),
                _ => None,
            };
            if let Some(out) = out {
                return Ok(out);
            }
        }
        // The general loop (also the fallback of the kernels above when a stage value was not
        // finite: it names the first such stage).
        self.ensure_buffers(action, y);
        let s = self.coeffs.s;
        let (Some(u), Some(k), Some(sigma), Some(sigma_hat), Some(yi)) = (
            self.u.as_mut(),
            self.k.as_mut(),
            self.sigma.as_mut(),
            self.sigma_hat.as_mut(),
            self.stage.as_mut(),
        ) else {
            unreachable!("buffers allocated above")
        };
        let mut last_is_y1 = false;
        for (i, row) in self.rows.iter().enumerate() {
            let zero_row = row.is_empty();
            combine(u, h, row, &self.kt);
            let ti = t + h * c::<Scalar<A>>(self.coeffs.c[i]);
            if zero_row {
                f.eval(ti, y, k);
            } else {
                yi.clone_from(y);
                self.map.apply_assign(action, u, yi);
                self.stats.exps += 1;
                f.eval(ti, yi, k);
                last_is_y1 = i + 1 == s && self.last_stage_is_update;
            }
            self.stats.f_evals += 1;
            if !k.all_finite() {
                return Err(SchemeError::NonFinite {
                    what: "vector field",
                    t: re(ti),
                });
            }
            if zero_row {
                self.kt[i].clone_from(k);
            } else {
                self.map.dinv_into(u, k, &mut self.kt[i]);
            }
        }
        combine(sigma, h, &self.weights, &self.kt);
        let error = match (tol, &self.coeffs.b_hat) {
            (Some(tol), Some(b_hat)) => {
                embedded_update(sigma_hat, h, b_hat, &self.kt);
                Some(algebra_error(sigma, sigma_hat, &mut self.scratch, tol))
            }
            _ => None,
        };
        let y1 = if last_is_y1 {
            yi.clone() // ψ(u_s)·y₀ with u_s = σ bitwise (FSAL row)
        } else {
            self.stats.exps += 1;
            let mut y1 = y.clone();
            self.map.apply_assign(action, sigma, &mut y1);
            y1
        };
        self.last_h = re(h);
        Ok(StepOutput { y: y1, error })
    }

    fn dense_output(&self, action: &A, y_prev: &A::Point, theta: Scalar<A>) -> Option<A::Point> {
        let dense = self.coeffs.dense.as_ref()?;
        let mut sig = self.sigma.as_ref()?.zero_like();
        let h: Scalar<A> = c(self.last_h);
        for (i, kt) in self.kt.iter().enumerate() {
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
