//! The commutator-free / Crouch–Grossman engine.
//!
//! One step body ([`run`]) serves every scheme and every problem. It is written against
//! slices of stage derivatives and stage points and a [`Stages`] type that says how its loops
//! over stage indices run; two types instantiate it:
//!
//! - [`Unrolled<N, R>`]: the `N` stage derivatives and the kept stage points in local arrays,
//!   every loop over stage indices written out for the constant indices `0 … N−1`
//!   (`for_stages!`), so that the compiler keeps the stage values in registers and drops what
//!   nothing reads. A step of `n ≤ 8` stages runs on arrays of exactly `n` (then nothing is
//!   tested per stage); one of 9 to [`MAX_UNROLLED`] stages on arrays of 16, each stage
//!   guarded by `i < n`. For the simple shape (one exponential per stage, an update from `y₀`
//!   with `R = 1` or `2` exponentials: Lie–Euler, CF4) the update's exponentials are written
//!   out as well, and no product loops over further exponentials. Used for problems whose
//!   points and algebra elements own no heap memory.
//! - [`Buffers`]: runtime loops over the stepper's own buffers (allocated once). Used for
//!   runtime-sized problems (`Vec` powers) and for schemes of more than [`MAX_UNROLLED`]
//!   stages.
//!
//! Both perform the same floating-point operations in the same order (a combination
//! `Σⱼ aⱼkⱼ` is `set_scaled` then `add_scaled` in index order, or `set_combination`, which the
//! [`VectorSpace`] contract makes bitwise the same), so they give the same steps.

use crate::commutator_free::{Base, CommutatorFreeScheme, ExpProduct};
use crate::error::SchemeError;
use crate::point_map::{AmbientDistance, PointDistance};
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use core::ops::Range;
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::VectorSpace;
use liegroup::scalar::{c, re};

/// The largest number of stages evaluated on local arrays (and the length of a coefficient
/// row there); a scheme with more stages runs the same body on the stepper's heap buffers.
const MAX_UNROLLED: usize = 16;

/// `$body` for `$i = 0, 1, …, $count − 1` written out (sixteen copies, each guarded by the
/// constant test `$i < $count`; `$count` a constant of at most 16): every index in the body is
/// then a constant. (The compiler does not unroll a loop whose body is a whole integrator stage
/// by itself, nor inline a closure holding one into sixteen call sites, and a runtime index
/// into an array of stage values keeps it in memory.)
macro_rules! written_out {
    ($count:expr, $i:ident => $body:block) => {
        written_out!(@ $count, $i, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $count:expr, $i:ident, $body:block, $($k:literal)*) => {{
        const { assert!($count <= 16, "at most 16 iterations written out") };
        $(
            if $k < $count {
                let $i: usize = $k;
                $body
            }
        )*
    }};
}

/// `for $i in 0..$n { $body }` on the storage `$L` (a [`Stages`] type): written out for
/// [`Unrolled`] (each copy also guarded by `$i < $n`, a constant when the arrays hold exactly
/// `$n` stages), a plain loop for [`Buffers`].
macro_rules! for_stages {
    ($L:ty, $i:ident in 0..$n:expr => $body:block) => {{
        let n: usize = $n;
        if <$L as Stages>::UNROLLED == 0 {
            for $i in 0..n {
                $body
            }
        } else {
            written_out!(<$L as Stages>::UNROLLED, $i => {
                if $i < n {
                    $body
                }
            });
        }
    }};
}

/// The storage of the stage values: the storage-specific part of the one step body [`run`]
/// (see the module documentation).
trait Stages {
    /// `N` for local arrays of `N` stage values whose loops are written out
    /// (`for_stages!`); `0` for runtime loops over heap buffers.
    const UNROLLED: usize;

    /// `R ≥ 1` when the step is known to have the simple shape: every stage one exponential,
    /// the update starting from `y₀` with `R` exponentials (written out); `0` for any shape
    /// (each product's exponentials after the first, and the update's base point, chosen at
    /// run time).
    const UPDATE_EXPS: usize;

    /// Row `r` of the coefficients (at least `s` long).
    fn row(data: &CfData, r: usize) -> &[f64];

    /// `slot ← p` (a stage point kept as a base).
    fn keep<P: Clone>(slot: &mut Option<P>, p: &P);

    /// `v ← h Σ_{j<n} row[j]·ks[j]` (`v ← 0` for `n = 0`): bitwise `set_scaled` on the first
    /// term, then `add_scaled` in index order (zero coefficients included: they add exact
    /// zeros, and `0·NaN = NaN` carries a non-finite stage value into the sum).
    fn combine<V: VectorSpace>(v: &mut V, h: V::Scalar, row: &[f64], ks: &[V], n: usize);
}

/// Local arrays of `N ≤ 16` stage values, loops written out for constant indices; for `R ≥ 1`
/// the simple shape of [`Stages::UPDATE_EXPS`], the update's `R` exponentials written out too.
struct Unrolled<const N: usize, const R: usize>;

impl<const N: usize, const R: usize> Stages for Unrolled<N, R> {
    const UNROLLED: usize = N;
    const UPDATE_EXPS: usize = R;

    /// The slots are fresh (`None`) at each step.
    #[inline(always)]
    fn keep<P: Clone>(slot: &mut Option<P>, p: &P) {
        *slot = Some(p.clone());
    }

    /// A row of exactly [`MAX_UNROLLED`] coefficients (the stride for `s ≤ 16`).
    #[inline(always)]
    fn row(data: &CfData, r: usize) -> &[f64] {
        &data.coef.as_chunks::<MAX_UNROLLED>().0[r]
    }

    #[inline(always)]
    fn combine<V: VectorSpace>(v: &mut V, h: V::Scalar, row: &[f64], ks: &[V], n: usize) {
        let (row, ks) = (&row[..n], &ks[..n]);
        if n == 0 {
            v.set_zero();
            return;
        }
        v.set_scaled(h * c::<V::Scalar>(row[0]), &ks[0]);
        for_stages!(Self, j in 0..n => {
            if j > 0 {
                v.add_scaled(h * c::<V::Scalar>(row[j]), &ks[j]);
            }
        });
    }
}

/// The stepper's heap buffers; runtime loops.
struct Buffers;

impl Stages for Buffers {
    const UNROLLED: usize = 0;
    const UPDATE_EXPS: usize = 0;

    #[inline(always)]
    fn row(data: &CfData, r: usize) -> &[f64] {
        &data.coef[r * data.stride..][..data.stride]
    }

    /// Reuses the slot's storage after the first step.
    #[inline(always)]
    fn keep<P: Clone>(slot: &mut Option<P>, p: &P) {
        match slot {
            Some(kept) => kept.clone_from(p),
            None => *slot = Some(p.clone()),
        }
    }

    /// One `set_combination` call per 16 terms (one pass over a runtime power's factors
    /// instead of one per term), then `add_scaled` for the terms beyond.
    #[inline]
    fn combine<V: VectorSpace>(v: &mut V, h: V::Scalar, row: &[f64], ks: &[V], n: usize) {
        const CHUNK: usize = 16;
        let (row, ks) = (&row[..n], &ks[..n]);
        let Some(first) = ks.first() else {
            v.set_zero();
            return;
        };
        let m = n.min(CHUNK);
        let zero = <V::Scalar as num_traits::Zero>::zero();
        let mut terms = [(zero, first); CHUNK];
        for (slot, (&a, k)) in terms.iter_mut().zip(row.iter().zip(ks)) {
            *slot = (h * c::<V::Scalar>(a), k);
        }
        v.set_combination(&terms[..m]);
        for (&a, k) in row.iter().zip(ks).skip(m) {
            v.add_scaled(h * c::<V::Scalar>(a), k);
        }
    }
}

/// A product of exponentials in owned form: start from point `base` (`0` = the step's initial
/// point `y₀`, which is also the first stage point; `m ≥ 1` = stage point `Y_m`, 0-based) and
/// apply `exp(h Σⱼ a[r][j] kⱼ)` for the rows `r` of [`CfData::coef`] in `rows`, in order (the
/// first acts first). Every product but the first stage's has at least one row: a product
/// without exponential is given a zero row (`exp(0)`, the identity), so that the step applies
/// a first exponential unconditionally.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Product {
    pub base: usize,
    pub rows: Range<usize>,
}

/// A commutator-free scheme in owned form, the stages as parallel arrays (indexed by constants
/// in the written-out loops).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct CfData {
    /// The coefficient rows of every exponential, one after the other, each [`Self::stride`]
    /// long: the `s` coefficients (zeros written out), then zeros.
    pub coef: Vec<f64>,
    /// `max(s, 16)`: rows of a constant length on the local arrays (which need `s ≤ 16`).
    pub stride: usize,
    /// The nodes `cᵢ`.
    pub c: Vec<f64>,
    /// The base point of stage `i` (as in [`Product`]; stage `i` uses `k₀ … k_{i−1}` and bases
    /// `< i`; the first stage is `y₀`, its entries unused).
    pub base: Vec<usize>,
    /// The rows of the exponentials of stage `i`.
    pub rows: Vec<Range<usize>>,
    /// `is_base[i]`: stage point `i ≥ 1` is the base of a later product (and is kept).
    pub is_base: Vec<bool>,
    pub update: Product,
    pub update_hat: Option<Product>,
    /// Stages the main update needs (the rest serve only the embedded update).
    pub stages_main: usize,
    /// Exponentials per step without (`.0`) and with (`.1`) the embedded update.
    pub exps: (usize, usize),
    /// Without (`.0`) and with (`.1`) the embedded update: `R` when the step has the simple
    /// shape of [`Stages::UPDATE_EXPS`] with `R ≤ 2`, else `0`.
    pub simple: (usize, usize),
    pub order: u32,
    pub embedded_order: Option<u32>,
}

impl CfData {
    /// The owned form of `scheme`.
    ///
    /// # Panics
    /// If the scheme is not explicit (a stage refers to its own or a later stage derivative or
    /// stage point): see [`CommutatorFreeScheme::validate`].
    pub(crate) fn from_scheme(scheme: &CommutatorFreeScheme) -> Self {
        let s = scheme.stages.len();
        assert!(
            s > 0,
            "{}: a commutator-free scheme needs a stage",
            scheme.name
        );
        let stride = s.max(MAX_UNROLLED);
        let mut coef = Vec::new();
        // The owned form of `p`, the product of stage `available` (or of an update, with
        // `available = s`).
        let mut product = |p: &ExpProduct, available: usize| {
            let base = match p.base {
                Base::Start | Base::Stage(0) => 0,
                Base::Stage(m) => m,
            };
            let explicit = base < available.max(1)
                && p.factors
                    .iter()
                    .all(|f| f.iter().skip(available).all(|&a| a == 0.0));
            assert!(
                explicit,
                "{}: a commutator-free scheme must be explicit (see CommutatorFreeScheme::validate)",
                scheme.name
            );
            let start = coef.len() / stride;
            for f in p.factors {
                coef.extend((0..stride).map(|j| f.get(j).copied().unwrap_or(0.0)));
            }
            if p.factors.is_empty() {
                coef.extend(core::iter::repeat_n(0.0, stride));
            }
            Product {
                base,
                rows: start..coef.len() / stride,
            }
        };
        let stages: Vec<Product> = scheme
            .stages
            .iter()
            .enumerate()
            .map(|(i, st)| product(&st.point, i))
            .collect();
        let update = product(&scheme.update, s);
        let update_hat = scheme.embedded.map(|e| product(&e.update, s));
        let mut is_base = vec![false; s];
        for p in stages.iter().chain([&update]).chain(&update_hat) {
            is_base[p.base] |= p.base > 0;
        }
        let stages_main = scheme.stages_for_update().max(1);
        let exps = |ps: &[Product]| ps.iter().skip(1).map(|p| p.rows.len()).sum::<usize>();
        let main = exps(&stages[..stages_main]) + update.rows.len();
        let pair =
            exps(&stages) + update.rows.len() + update_hat.as_ref().map_or(0, |p| p.rows.len());
        let simple = |n: usize| {
            let r = update.rows.len();
            let single = stages[1..n].iter().all(|p| p.rows.len() == 1);
            if update.base == 0 && r <= 2 && single {
                r
            } else {
                0
            }
        };
        let simple = (simple(stages_main), simple(s));
        Self {
            coef,
            stride,
            c: scheme.stages.iter().map(|st| st.c).collect(),
            base: stages.iter().map(|p| p.base).collect(),
            rows: stages.into_iter().map(|p| p.rows).collect(),
            is_base,
            update,
            update_hat,
            stages_main,
            exps: (main, pair),
            simple,
            order: scheme.order,
            embedded_order: scheme.embedded.map(|e| e.order),
        }
    }

    /// The number of stages `s`.
    fn stages(&self) -> usize {
        self.c.len()
    }
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
/// **One step body.** Every scheme runs the same code, whose shape (base points, number of
/// exponentials, coefficients) is read from the scheme's data: stage `i` copies its base
/// point, applies its exponentials in place ([`homogeneous::ActionInPlace::act_exp_assign`])
/// and evaluates `kᵢ` there (the point is kept only when a later product starts from it); the
/// update follows. Every combination `h Σⱼ αⱼkⱼ` is dense over the stages computed (a zero
/// coefficient adds an exact zero). On problems whose points and algebra elements own no heap
/// memory and schemes of at most 16 stages, the stage values live in local arrays with every
/// stage index a constant (the loops over stages written out; arrays of exactly `n` stages up
/// to 8; the update's exponentials written out too when every stage has one exponential and
/// the update starts from `y₀` with at most two), so that the compiler keeps them in
/// registers; on runtime-sized problems (`Vec` powers), or for more stages, the same body runs
/// on the stepper's buffers (allocated once), with the same operations in the same order.
///
/// **Errors.** A non-finite field value is reported as [`SchemeError::NonFinite`] at the time
/// of the first stage whose value was not finite. There is no test per stage: the first
/// exponent of the update is a dense sum over every stage derivative, non-finite when one of
/// them is (`0·NaN` is NaN); only then are the stored derivatives scanned for the first
/// non-finite one. (If the sum overflowed with every derivative finite, the step is
/// returned as computed.)
///
#[derive(Clone, Debug)]
pub struct CommutatorFree<A: ActionInPlace, D = AmbientDistance> {
    data: CfData,
    name: String,
    distance: D,
    /// Heap buffers of the stage derivatives (the [`Buffers`] instantiation) and of the kept
    /// stage points.
    k: Vec<Algebra<A>>,
    ys: Vec<Option<A::Point>>,
    v: Option<Algebra<A>>,
    /// The embedded result `ŷ₁` (pairs only).
    y_hat: Option<A::Point>,
    stats: StepStats,
}

impl<A: ActionInPlace> CommutatorFree<A> {
    /// A stepper for a scheme of the catalogue (or a user-written one), with the default
    /// distance [`AmbientDistance`] for pairs.
    ///
    /// # Errors
    /// The first structural problem of the scheme (no stage, a stage or update that refers to
    /// its own or a later stage, a row longer than the number of stages, a non-finite
    /// coefficient), as found by [`CommutatorFreeScheme::validate_structure`]. Consistency
    /// (row sums) is not required here; [`CommutatorFreeScheme::validate`] checks it.
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::Rn;
    /// use schemes::{CommutatorFree, GroupLogDistance, Stepper, catalogue::CF43};
    /// // On a group acting on itself, measure the pair's error through the logarithm.
    /// let stepper = CommutatorFree::<LeftMultiplication<Rn<f64, 2>>>::new(&CF43)
    ///     .unwrap()
    ///     .with_distance(GroupLogDistance);
    /// assert_eq!(stepper.order(), 4);
    /// assert_eq!(stepper.embedded_order(), Some(3));
    /// ```
    pub fn new(scheme: &CommutatorFreeScheme) -> Result<Self, SchemeError> {
        scheme.validate_structure()?;
        Ok(Self::from_data(
            CfData::from_scheme(scheme),
            scheme.name.to_string(),
            AmbientDistance,
        ))
    }
}

impl<A: ActionInPlace, D> CommutatorFree<A, D> {
    pub(crate) fn from_data(data: CfData, name: String, distance: D) -> Self {
        Self {
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
            stats: self.stats,
        }
    }
}

/// `out ← base point` of a product: `y₀` for `base = 0`, else the kept stage point `ys[base]`
/// (under [`Unrolled`] the candidates compared in turn, so that every index into `ys` is a
/// constant).
#[inline(always)]
fn copy_base<L: Stages, P: Clone>(out: &mut P, base: usize, y0: &P, ys: &[Option<P>]) {
    if base == 0 {
        out.clone_from(y0);
    } else if L::UNROLLED == 0 {
        if let Some(p) = &ys[base] {
            out.clone_from(p);
        }
    } else {
        for_stages!(L, m in 0..ys.len() => {
            if m > 0 && base == m && let Some(p) = &ys[m] {
                out.clone_from(p);
            }
        });
    }
}

/// The step, on the storage `L` (see the module documentation): stages `0 … n−1` into `ks`
/// (at least `n` entries) and the kept stage points into `ys` (at least `n`; `ys[0]` unused,
/// the first stage point is `y₀`), the update into `y1` (which also holds each stage point
/// while its stage runs) and, if given, the embedded update into `y_hat`. On a non-finite
/// field value, the error naming the first such stage.
///
/// Stage `i ≥ 1` copies its base point, applies its exponentials in place and evaluates `kᵢ`
/// there; the point is kept in `ys[i]` only when a later product starts from it, so that the
/// compiler, where it knows the shape, computes of the other points only what the field reads.
/// No test per stage: the first exponent of the update, a dense sum over every `kⱼ`, is
/// non-finite when one of them is (`0·NaN` is NaN), and only then are the `kⱼ` scanned for the
/// first non-finite one.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run<L: Stages, A: ActionInPlace, F>(
    data: &CfData,
    action: &A,
    f: &F,
    t: Scalar<A>,
    y0: &A::Point,
    h: Scalar<A>,
    n: usize,
    ks: &mut [Algebra<A>],
    ys: &mut [Option<A::Point>],
    v: &mut Algebra<A>,
    y1: &mut A::Point,
    y_hat: Option<&mut A::Point>,
) -> Result<(), SchemeError>
where
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
{
    // Slices of length `n`: constant-index reads below need no bounds check.
    let (c_n, base, rows, is_base) = (
        &data.c[..n],
        &data.base[..n],
        &data.rows[..n],
        &data.is_base[..n],
    );
    let time = |i: usize| t + h * c::<Scalar<A>>(c_n[i]);
    for_stages!(L, i in 0..n => {
        if i == 0 {
            f.eval(time(0), y0, &mut ks[0]);
        } else {
            let (kept, rest) = ys.split_at_mut(i);
            copy_base::<L, _>(y1, base[i], y0, kept);
            let r = rows[i].clone();
            L::combine(v, h, L::row(data, r.start), ks, i);
            action.act_exp_assign(v, y1);
            if L::UPDATE_EXPS == 0 {
                // More exponentials (not in the simple shape).
                for r in r.start + 1..r.end {
                    L::combine(v, h, L::row(data, r), ks, i);
                    action.act_exp_assign(v, y1);
                }
            }
            f.eval(time(i), y1, &mut ks[i]);
            if is_base[i] {
                L::keep(&mut rest[0], y1);
            }
        }
    });
    let (ks, ys) = (&ks[..n], &ys[..n]);
    // The update; its first exponent, a dense sum over every kⱼ, tested for finiteness.
    let rows = data.update.rows.clone();
    let mut finite = true;
    macro_rules! update_exponential {
        ($r:expr) => {{
            let r = $r;
            L::combine(v, h, L::row(data, r), ks, n);
            if r == rows.start {
                finite = v.all_finite();
            }
            action.act_exp_assign(v, y1);
        }};
    }
    if L::UPDATE_EXPS == 0 {
        copy_base::<L, _>(y1, data.update.base, y0, ys);
        for r in rows.clone() {
            update_exponential!(r);
        }
    } else {
        y1.clone_from(y0);
        written_out!(L::UPDATE_EXPS, l => {
            update_exponential!(rows.start + l);
        });
    }
    if !finite {
        let mut first = None;
        for_stages!(L, i in 0..n => {
            if first.is_none() && !ks[i].all_finite() {
                first = Some(i);
            }
        });
        if let Some(i) = first {
            return Err(SchemeError::NonFinite {
                what: "vector field",
                t: re(time(i)),
            });
        }
    }
    if let (Some(hat), Some(y_hat)) = (&data.update_hat, y_hat) {
        copy_base::<L, _>(y_hat, hat.base, y0, ys);
        for r in hat.rows.clone() {
            L::combine(v, h, L::row(data, r), ks, n);
            action.act_exp_assign(v, y_hat);
        }
    }
    Ok(())
}

impl<A: ActionInPlace, D: PointDistance<A::Point>> CommutatorFree<A, D> {
    /// [`run`] on local arrays of `N` stage values (`n ≤ N` stages), for problems whose
    /// values own no heap memory.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn step_local<F, const N: usize, const R: usize>(
        &self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        n: usize,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let z = action.algebra_zero(y);
        let mut ks: [Algebra<A>; N] = core::array::from_fn(|_| z.clone());
        let mut ys: [Option<A::Point>; N] = core::array::from_fn(|_| None);
        let mut v = z;
        let mut y1 = y.clone();
        let mut y_hat = tol.map(|_| y.clone());
        run::<Unrolled<N, R>, A, F>(
            &self.data,
            action,
            f,
            t,
            y,
            h,
            n,
            &mut ks,
            &mut ys,
            &mut v,
            &mut y1,
            y_hat.as_mut(),
        )?;
        let error = tol
            .zip(y_hat)
            .map(|(tol, y_hat)| self.distance.scaled_error(y, &y1, &y_hat, tol));
        Ok(StepOutput { y: y1, error })
    }

    /// [`run`] on the stepper's buffers (allocated at the first step).
    #[allow(clippy::too_many_arguments)]
    fn step_buffers<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        n: usize,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let s = self.data.stages();
        if self.k.len() != s {
            let z = action.algebra_zero(y);
            self.k = vec![z.clone(); s];
            self.ys = vec![None; s];
            self.v = Some(z);
        }
        let Self {
            data,
            distance,
            k,
            ys,
            v,
            y_hat,
            ..
        } = self;
        let v = v.as_mut().expect("buffers allocated above");
        let mut y1 = y.clone();
        let mut y_hat = tol.map(|_| y_hat.get_or_insert_with(|| y.clone()));
        run::<Buffers, A, F>(
            data,
            action,
            f,
            t,
            y,
            h,
            n,
            k,
            ys,
            v,
            &mut y1,
            y_hat.as_deref_mut(),
        )?;
        let error = tol
            .zip(y_hat)
            .map(|(tol, y_hat)| distance.scaled_error(y, &y1, y_hat, tol));
        Ok(StepOutput { y: y1, error })
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
        // Without an error estimate only the stages of the main update are needed.
        let (n, exps, r) = if tol.is_some() {
            (self.data.stages(), self.data.exps.1, self.data.simple.1)
        } else {
            (self.data.stages_main, self.data.exps.0, self.data.simple.0)
        };
        self.stats.f_evals += n;
        self.stats.exps += exps;
        if !crate::stepper::fixed_size::<A>() || self.data.stages() > MAX_UNROLLED {
            return self.step_buffers(action, f, t, y, h, n, tol);
        }
        // Arrays of exactly `n` stage values up to 8 (the update's one or two exponentials
        // written out for the simple shape), of 16 beyond.
        macro_rules! exactly {
            ($n:literal) => {
                match r {
                    1 => self.step_local::<F, $n, 1>(action, f, t, y, h, $n, tol),
                    2 => self.step_local::<F, $n, 2>(action, f, t, y, h, $n, tol),
                    _ => self.step_local::<F, $n, 0>(action, f, t, y, h, $n, tol),
                }
            };
        }
        match n {
            1 => exactly!(1),
            2 => exactly!(2),
            3 => exactly!(3),
            4 => exactly!(4),
            5 => exactly!(5),
            6 => exactly!(6),
            7 => exactly!(7),
            8 => exactly!(8),
            _ => self.step_local::<F, MAX_UNROLLED, 0>(action, f, t, y, h, n, tol),
        }
    }

    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
