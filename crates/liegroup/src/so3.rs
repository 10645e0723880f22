//! The rotation group SO(3), stored as a rotation matrix.
//!
//! # Conventions
//! - so(3) ≅ ℝ³ through [`hat`]: `hat(u) b = u × b`; the bracket is `[u, v] = u × v`.
//! - Left actions: `compose(g, h) = g h`, [`So3::rotate`] is `R v`.
//! - `dexp` is right-trivialized: `d/dt exp(u + t v)|₀ = hat(dexp_u v) · exp(u)`.
//! - The dual so(3)* is identified with ℝ³ through the dot product; the coadjoint action is
//!   `coadjoint(R, μ) = R μ` and `ad*_x μ = μ × x`.
//!
//! # Angle functions and their small-angle branches
//! Every closed form below is a function of the angle `α = |u|` that is even in `α`, so it is
//! evaluated from `α² = u·u`. Below a threshold on `α²` a Taylor polynomial in `α²` is used
//! instead, so that no square root or division is taken at `α = 0` and dual-number
//! derivatives survive at exactly `u = 0` (there is no `if α == 0` test anywhere):
//!
//! | function | closed form | series below | terms |
//! |---|---|---|---|
//! | `sin α/α` | `sin(α/2) cos(α/2)/(α/2)` | `α < 1/4` | 6 |
//! | `(1 − cos α)/α²` | `½ (sin(α/2)/(α/2))²` (no cancellation) | `α < 1/4` | 6 |
//! | `(α − sin α)/α³` | direct | `α < 2` | 11 |
//! | `g₂(α) = (1 − (α/2)cot(α/2))/α²` | direct | `α < 2` | 17 |
//! | `α/sin α` (in `log`) | `atan2(sin α, cos α)/sin α` | `sin²α < 1/100`, `cos α > 0` | 8 |
//!
//! The first two closed forms do not cancel, so their threshold only has to keep `α` away from
//! 0. The `(α − sin α)/α³` and `g₂` closed forms lose about `log₂(6/α²)` and `log₂(12/α²)`
//! bits to cancellation, hence the larger threshold `α < 2` [REFERENCES.md, "so(3) dexp⁻¹",
//! CO03]. The number of terms is chosen so that the first omitted term is below a quarter of
//! an ulp at the threshold. Measured against 50-digit references (in `f64`): the series are
//! within 1 ulp below their thresholds; the closed forms of `(1 − cos α)/α²`,
//! `(α − sin α)/α³` and `g₂` are within 2.5 ulps on `[threshold, π]`; `sin α/α` is within a
//! few ulps of its value at the rounded `α = √(α²)` (near `α = π` its relative condition
//! number, not the formula, limits the accuracy). The SE(3) functions are documented in
//! [`Se3`](crate::Se3).
//!
//! The logarithm takes its axis from `vee(R) = sin α · n` except for `cos α < 0`, where it
//! uses the symmetric part `(R + Rᵀ)/2 − cos α I = (1 − cos α) n nᵀ`, which stays accurate up
//! to and including `α = π` (see [`So3::log`](crate::LieGroup::log)).
//!
//! References: \[HLW06, §IV.8\], \[CO03\], \[CCLMO22, §2.3\].

use crate::coord::CayleyGroup;
use crate::error::LieError;
use crate::group::{LieGroup, LieGroupInPlace, StaticLieGroup};
use crate::scalar::{c, re};
use nalgebra::{Matrix3, Quaternion, RealField, Rotation3, UnitQuaternion, Vector3};

// ---------------------------------------------------------------------------------------------
// hat / vee
// ---------------------------------------------------------------------------------------------

/// The skew-symmetric matrix of a vector: `hat(v) b = v × b`,
///
/// ```text
///            ⎡  0   −v₃   v₂ ⎤
///   hat(v) = ⎢  v₃   0   −v₁ ⎥
///            ⎣ −v₂   v₁   0  ⎦
/// ```
///
/// This is the isomorphism ℝ³ ≅ so(3) used throughout (basis `hat(e₁), hat(e₂), hat(e₃)`).
///
/// # Example
/// ```
/// use liegroup::so3::hat;
/// use nalgebra::Vector3;
/// let v = Vector3::new(1.0, 2.0, 3.0);
/// let b = Vector3::new(-1.0, 0.5, 2.0);
/// assert_eq!(hat(&v) * b, v.cross(&b));
/// ```
#[must_use]
pub fn hat<T: RealField + Copy>(v: &Vector3<T>) -> Matrix3<T> {
    let z = T::zero();
    Matrix3::new(z, -v.z, v.y, v.z, z, -v.x, -v.y, v.x, z)
}

/// The inverse of [`hat`] applied to the skew-symmetric part of `m`:
/// `vee(m) = (m₃₂ − m₂₃, m₁₃ − m₃₁, m₂₁ − m₁₂)/2`.
///
/// `vee(hat(v)) = v` exactly; for a general matrix the symmetric part is ignored, so
/// `vee(R) = sin α · n` for a rotation by `α` about the unit axis `n`.
///
/// # Example
/// ```
/// use liegroup::so3::{hat, vee};
/// use nalgebra::Vector3;
/// let v = Vector3::new(0.1, -0.2, 0.3);
/// assert_eq!(vee(&hat(&v)), v);
/// ```
#[must_use]
pub fn vee<T: RealField + Copy>(m: &Matrix3<T>) -> Vector3<T> {
    let half = c::<T>(0.5);
    Vector3::new(
        (m[(2, 1)] - m[(1, 2)]) * half,
        (m[(0, 2)] - m[(2, 0)]) * half,
        (m[(1, 0)] - m[(0, 1)]) * half,
    )
}

// ---------------------------------------------------------------------------------------------
// Angle functions (shared with SE(3))
// ---------------------------------------------------------------------------------------------

/// `α²` below which `sin α/α` and `(1 − cos α)/α²` use their Taylor polynomials (`α < 1/4`).
pub(crate) const SMALL_ANGLE_SQ: f64 = 1.0 / 16.0;

/// `α²` below which the functions whose closed forms cancel (`(α − sin α)/α³`, `g₂`, `g₂′/α`
/// and the SE(3) `Q` coefficients) use their Taylor polynomials (`α < 2`).
pub(crate) const CANCELLATION_ANGLE_SQ: f64 = 4.0;

/// `sin²α` below which `log` uses the series of `α/sin α = arcsin(s)/s` in `s² = sin²α`
/// (only when `cos α > 0`).
pub(crate) const LOG_SERIES_SIN_SQ: f64 = 1.0 / 100.0;

/// `sin α/α = Σ (−1)ᵏ α²ᵏ/(2k+1)!`, k = 0 … 5.
pub(crate) const SINC_SERIES: [f64; 6] = [
    1.0,
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
];

/// `(1 − cos α)/α² = Σ (−1)ᵏ α²ᵏ/(2k+2)!`, k = 0 … 5.
pub(crate) const COSC_SERIES: [f64; 6] = [
    1.0 / 2.0,
    -1.0 / 24.0,
    1.0 / 720.0,
    -1.0 / 40320.0,
    1.0 / 3628800.0,
    -1.0 / 479001600.0,
];

/// `(α − sin α)/α³ = Σ (−1)ᵏ α²ᵏ/(2k+3)!`, k = 0 … 10 (correctly rounded values of
/// `1/(2k+3)!`).
pub(crate) const SINC3_SERIES: [f64; 11] = [
    0.16666666666666666,
    -0.008333333333333333,
    0.0001984126984126984,
    -2.7557319223985893e-06,
    2.505210838544172e-08,
    -1.6059043836821613e-10,
    7.647163731819816e-13,
    -2.8114572543455206e-15,
    8.22063524662433e-18,
    -1.9572941063391263e-20,
    3.868170170630684e-23,
];

/// `g₂(α) = (1 − (α/2)cot(α/2))/α² = Σ_{n≥1} |B₂ₙ|/(2n)! α²ⁿ⁻²`, n = 1 … 17
/// (`1/12, 1/720, 1/30240, 1/1209600, 1/47900160, …`; correctly rounded values).
pub(crate) const G2_SERIES: [f64; 17] = [
    0.08333333333333333,
    0.001388888888888889,
    3.306878306878307e-05,
    8.267195767195768e-07,
    2.08767569878681e-08,
    5.284190138687493e-10,
    1.3382536530684679e-11,
    3.3896802963225827e-13,
    8.586062056277845e-15,
    2.174868698558062e-16,
    5.5090028283602295e-18,
    1.3954464685812522e-19,
    3.534707039629467e-21,
    8.953517427037546e-23,
    2.267952452337683e-24,
    5.744790668872202e-26,
    1.455172475614865e-27,
];

/// `α²` below which [`G2_SERIES_SHORT`] replaces [`G2_SERIES`] (`α < 1/2`).
pub(crate) const SHORT_SERIES_ANGLE_SQ: f64 = 1.0 / 4.0;

/// The first 8 terms of [`G2_SERIES`]: for `α² < 1/4` the first omitted term is
/// `|B₁₈|/18! α¹⁶ < 1.4·10⁻¹⁹`, below half an ulp of `g₂ ≥ 1/12`. Half the dependency chain of
/// the full series, for the small angles of integrator stages (`dexp⁻¹` at every RKMK stage).
pub(crate) const G2_SERIES_SHORT: [f64; 8] = series_prefix(&G2_SERIES);

/// The first 6 terms of [`G2_SERIES`], for `α² <` [`SMALL_ANGLE_SQ`] (`α < 1/4`, the range of
/// integrator stages): the first omitted term is `|B₁₄|/14! α¹² < 1.34·10⁻¹¹ · 16⁻⁶ < 8·10⁻¹⁹`,
/// under a hundredth of an ulp of `g₂ ≥ 1/12`. Estrin's scheme over six coefficients has the
/// same three levels as over eight, but its last level waits on one product fewer; an exact
/// `dexp⁻¹` at every RKMK stage made this visible (body-frame heavy-top RKMK4 79.9 → 77.7 ns,
/// `docs/performance.md`).
pub(crate) const G2_SERIES_SMALL: [f64; 6] = series_prefix(&G2_SERIES);

/// The first `N` coefficients of a series (at compile time; `N` at most its length).
const fn series_prefix<const N: usize>(series: &[f64]) -> [f64; N] {
    let mut out = [0.0; N];
    let mut k = 0;
    while k < N {
        out[k] = series[k];
        k += 1;
    }
    out
}

/// `g₂′(α)/α = Σ_{n≥2} (2n−2)|B₂ₙ|/(2n)! α²ⁿ⁻⁴`, n = 2 … 19 (`1/360, 1/7560, …`), the
/// term-by-term derivative of [`G2_SERIES`] divided by `α`.
pub(crate) const G2P_SERIES: [f64; 18] = [
    0.002777777777777778,
    0.00013227513227513228,
    4.96031746031746e-06,
    1.670140559029448e-07,
    5.2841901386874934e-09,
    1.6059043836821613e-10,
    4.745552414851616e-12,
    1.3737699290044552e-13,
    3.914763657404511e-15,
    1.1018005656720459e-16,
    3.069982230878755e-18,
    8.483296895110721e-20,
    2.327914531029762e-21,
    6.350266866545513e-23,
    1.7234372006616606e-24,
    4.656551921967568e-26,
    1.2532382798262054e-27,
    3.3612243325542163e-29,
];

/// Barfoot's `(α² + 2cos α − 2)/(2α⁴) = Σ (−1)ᵏ α²ᵏ/(2k+4)!`, k = 0 … 10.
pub(crate) const Q2_SERIES: [f64; 11] = [
    0.041666666666666664,
    -0.001388888888888889,
    2.48015873015873e-05,
    -2.755731922398589e-07,
    2.08767569878681e-09,
    -1.1470745597729725e-11,
    4.779477332387385e-14,
    -1.5619206968586225e-16,
    4.110317623312165e-19,
    -8.896791392450574e-22,
    1.6117375710961184e-24,
];

/// Barfoot's `(2α − 3 sin α + α cos α)/(2α⁵) = Σ (−1)ᵏ (k+1) α²ᵏ/(2k+5)!`, k = 0 … 10.
pub(crate) const Q3_SERIES: [f64; 11] = [
    0.008333333333333333,
    -0.0003968253968253968,
    8.267195767195768e-06,
    -1.0020843354176688e-07,
    8.029521918410807e-10,
    -4.58829823909189e-12,
    1.9680200780418645e-14,
    -6.576508197299464e-17,
    1.7615646957052136e-19,
    -3.868170170630684e-22,
    7.091645312822921e-25,
];

/// `arcsin(s)/s = Σ (2k)!/(4ᵏ (k!)² (2k+1)) s²ᵏ = 1 + s²/6 + 3s⁴/40 + 5s⁶/112 + 35s⁸/1152 + …`,
/// k = 0 … 7; equal to `α/sin α` with `s = sin α` for `α ≤ π/2`.
pub(crate) const ASIN_SERIES: [f64; 8] = [
    1.0,
    1.0 / 6.0,
    3.0 / 40.0,
    5.0 / 112.0,
    35.0 / 1152.0,
    63.0 / 2816.0,
    231.0 / 13312.0,
    143.0 / 10240.0,
];

/// `Σ coeffs[k] xᵏ` (`x = α²` at every call site) by Estrin's scheme: adjacent coefficients
/// are paired (`cₖ + cₖ₊₁ x`), the pairs combined with `x²`, those with `x⁴`, and so on. The
/// dependency chain is `⌈log₂ N⌉` multiply–adds long instead of Horner's `N − 1`; integrator
/// stages wait on these values (each stage's exponential needs the previous stage), so their
/// latency is what a step costs. The length is a compile-time constant, so the levels unroll
/// completely. For the series used here (`|cₖ₊₁ x| ≤ |cₖ|/8` on their ranges) the rounding
/// error is that of Horner's rule: a few ulps.
#[inline(always)]
pub(crate) fn poly<T: RealField + Copy, const N: usize>(coeffs: &[f64; N], x: T) -> T {
    let mut level: [T; N] = core::array::from_fn(|k| c::<T>(coeffs[k]));
    let mut n = N;
    let mut p = x;
    while n > 1 {
        let m = n.div_ceil(2);
        for k in 0..m {
            level[k] = if 2 * k + 1 < n {
                level[2 * k] + p * level[2 * k + 1]
            } else {
                level[2 * k]
            };
        }
        n = m;
        p = p * p;
    }
    level[0]
}

/// `(sin α/α, (1 − cos α)/α²)` from `α²`: below [`SMALL_ANGLE_SQ`] both series evaluated
/// together, coefficient pairs in one two-lane vector (one Estrin scheme for both: the same
/// operations on each lane as [`poly`] on its own, so the same values).
#[inline(always)]
pub(crate) fn sinc_cosc<T: RealField + Copy>(t2: T) -> (T, T) {
    if re(t2) < SMALL_ANGLE_SQ {
        let pairs: [nalgebra::Vector2<T>; 6] = core::array::from_fn(|k| {
            nalgebra::Vector2::new(c::<T>(SINC_SERIES[k]), c::<T>(COSC_SERIES[k]))
        });
        let t4 = t2 * t2;
        let l0 = pairs[0] + pairs[1] * t2;
        let l1 = pairs[2] + pairs[3] * t2;
        let l2 = pairs[4] + pairs[5] * t2;
        let m0 = l0 + l1 * t4;
        let r = m0 + l2 * (t4 * t4);
        (r.x, r.y)
    } else {
        let mut f = AngleFns::new(t2);
        (f.sinc(), f.cosc())
    }
}

/// `α`, `h = α/2`, `sin h`, `cos h` (only computed above a series threshold, so `α > 0`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct HalfAngle<T> {
    pub(crate) alpha: T,
    pub(crate) h: T,
    pub(crate) s: T,
    pub(crate) c: T,
}

impl<T: RealField + Copy> HalfAngle<T> {
    pub(crate) fn new(t2: T) -> Self {
        let alpha = t2.sqrt();
        let h = alpha * c::<T>(0.5);
        let (s, c) = h.sin_cos();
        Self { alpha, h, s, c }
    }
}

/// The closed forms of the angle functions, valid (and accurate) above their thresholds.
pub(crate) mod closed {
    use super::HalfAngle;
    use crate::scalar::c;
    use nalgebra::RealField;

    /// `sin α/α = sin h cos h / h`.
    pub(crate) fn sinc<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        a.s * a.c / a.h
    }
    /// `(1 − cos α)/α² = ½ (sin h / h)²`.
    pub(crate) fn cosc<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let q = a.s / a.h;
        q * q * c::<T>(0.5)
    }
    /// `(α − sin α)/α³`.
    pub(crate) fn sinc3<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let sin = c::<T>(2.0) * a.s * a.c;
        (a.alpha - sin) / (a.alpha * a.alpha * a.alpha)
    }
    /// `g₂ = (1 − h cot h)/α²`.
    pub(crate) fn g2<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        (T::one() - a.h * a.c / a.s) / (a.alpha * a.alpha)
    }
    /// `g₂′(α)/α = (h²/sin²h + h cot h − 2)/α⁴`.
    pub(crate) fn g2p<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let t2 = a.alpha * a.alpha;
        let hs = a.h / a.s;
        (hs * hs + hs * a.c - c::<T>(2.0)) / (t2 * t2)
    }
    /// `(α² + 2cos α − 2)/(2α⁴) = (½ − (1 − cos α)/α²)/α²`.
    pub(crate) fn q2<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        (c::<T>(0.5) - cosc(a)) / (a.alpha * a.alpha)
    }
    /// `(2α − 3 sin α + α cos α)/(2α⁵)`.
    pub(crate) fn q3<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let two = c::<T>(2.0);
        let sin = two * a.s * a.c;
        let cos = T::one() - two * a.s * a.s;
        let t2 = a.alpha * a.alpha;
        (two * a.alpha - c::<T>(3.0) * sin + a.alpha * cos) / (two * a.alpha * t2 * t2)
    }
}

/// Lazily evaluated angle functions of `α`, given `α²`; the half-angle sine and cosine are
/// computed at most once, and only when some function needs its closed form.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AngleFns<T> {
    t2: T,
    half: Option<HalfAngle<T>>,
}

impl<T: RealField + Copy> AngleFns<T> {
    /// From `α²`.
    #[inline(always)]
    pub(crate) fn new(t2: T) -> Self {
        Self { t2, half: None }
    }
    fn half(&mut self) -> HalfAngle<T> {
        match self.half {
            Some(h) => h,
            None => {
                let h = HalfAngle::new(self.t2);
                self.half = Some(h);
                h
            }
        }
    }
    #[inline(always)]
    fn pick<const N: usize>(
        &mut self,
        threshold: f64,
        series: &[f64; N],
        closed: fn(&HalfAngle<T>) -> T,
    ) -> T {
        if re(self.t2) < threshold {
            poly(series, self.t2)
        } else {
            let h = self.half();
            closed(&h)
        }
    }
    /// `sin α/α`.
    #[inline(always)]
    pub(crate) fn sinc(&mut self) -> T {
        self.pick(SMALL_ANGLE_SQ, &SINC_SERIES, closed::sinc)
    }
    /// `(1 − cos α)/α²`.
    #[inline(always)]
    pub(crate) fn cosc(&mut self) -> T {
        self.pick(SMALL_ANGLE_SQ, &COSC_SERIES, closed::cosc)
    }
    /// `(α − sin α)/α³`.
    pub(crate) fn sinc3(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &SINC3_SERIES, closed::sinc3)
    }
    /// `g₂(α) = (1 − (α/2)cot(α/2))/α²`.
    #[inline(always)]
    pub(crate) fn g2(&mut self) -> T {
        if re(self.t2) < SMALL_ANGLE_SQ {
            poly(&G2_SERIES_SMALL, self.t2)
        } else if re(self.t2) < SHORT_SERIES_ANGLE_SQ {
            poly(&G2_SERIES_SHORT, self.t2)
        } else {
            self.pick(CANCELLATION_ANGLE_SQ, &G2_SERIES, closed::g2)
        }
    }
    /// `g₂′(α)/α`.
    pub(crate) fn g2p(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &G2P_SERIES, closed::g2p)
    }
    /// `(α² + 2cos α − 2)/(2α⁴)`.
    pub(crate) fn q2(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &Q2_SERIES, closed::q2)
    }
    /// `(2α − 3 sin α + α cos α)/(2α⁵)`.
    pub(crate) fn q3(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &Q3_SERIES, closed::q3)
    }
}

/// `atan2(y, x)` for `y ≥ 0`, as `atan` of a ratio of modulus ≤ 1 (plus `π/2` or `π`), so
/// that dual-number derivatives are right everywhere: num-dual's `atan2` differentiates
/// `atan(y/x)`, which gives NaN at `x = 0` and loses accuracy for `|x| ≪ y`. Absolute error
/// of the value: a few ulps of `π`.
#[inline]
pub(crate) fn atan2_nonneg<T: RealField + Copy>(y: T, x: T) -> T {
    if re(x) >= re(y) {
        (y / x).atan()
    } else if -re(x) >= re(y) {
        T::pi() - (y / -x).atan()
    } else {
        T::frac_pi_2() - (x / y).atan()
    }
}

/// `I + a U + b U²` with `U = hat(u)`, written out entry by entry using
/// `U² = u uᵀ − |u|² I` (the diagonal as `1 − b(u_j² + u_k²)`, which is exact at `u = 0`). The
/// products of the components are formed before `a` and `b` are needed (they are usually the
/// last values to arrive: polynomials in `|u|²`), so each entry is one multiply–add after them.
#[inline(always)]
pub(crate) fn rodrigues_matrix<T: RealField + Copy>(u: &Vector3<T>, a: T, b: T) -> Matrix3<T> {
    let (x, y, z) = (u.x, u.y, u.z);
    let (xx, yy, zz) = (x * x, y * y, z * z);
    let (xy, xz, yz) = (x * y, x * z, y * z);
    let (bxy, bxz, byz) = (b * xy, b * xz, b * yz);
    let (ax, ay, az) = (a * x, a * y, a * z);
    let one = T::one();
    Matrix3::new(
        one - b * (yy + zz),
        bxy - az,
        bxz + ay,
        bxy + az,
        one - b * (xx + zz),
        byz - ax,
        bxz - ay,
        byz + ax,
        one - b * (xx + yy),
    )
}

/// `v + b u×v + c u×(u×v)`, i.e. `(I + bU + cU²) v`.
#[inline(always)]
pub(crate) fn apply_quadratic<T: RealField + Copy>(
    u: &Vector3<T>,
    v: &Vector3<T>,
    b: T,
    c: T,
) -> Vector3<T> {
    let uv = u.cross(v);
    let uuv = u.cross(&uv);
    v + uv * b + uuv * c
}

/// so(3) `dexp_u v = v + ((1 − cos α)/α²) u×v + ((α − sin α)/α³) u×(u×v)`.
#[inline]
pub(crate) fn so3_dexp<T: RealField + Copy>(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let mut f = AngleFns::new(u.dot(u));
    apply_quadratic(u, v, f.cosc(), f.sinc3())
}

/// so(3) `dexp_u⁻¹ v = v − ½ u×v + g₂(α) u×(u×v)`.
#[inline(always)]
pub(crate) fn so3_dexpinv<T: RealField + Copy>(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
    let mut f = AngleFns::new(u.dot(u));
    apply_quadratic(u, v, c::<T>(-0.5), f.g2())
}

// ---------------------------------------------------------------------------------------------
// So3
// ---------------------------------------------------------------------------------------------

/// The rotation group SO(3) = {R ∈ ℝ³ˣ³ : RᵀR = I, det R = 1}, stored as the rotation matrix.
///
/// Algebra: `Vector3<T>` through [`hat`] (`hat(u) b = u × b`), bracket `[u, v] = u × v`,
/// `Ad_R u = R u`, coadjoint action `R μ`, `ad*_x μ = μ × x`. `exp` is Rodrigues' formula,
/// `log` the principal logarithm (`|log R| ≤ π`), `dexp`/`dexp⁻¹` are closed forms (right
/// trivialization, \[CO03\], \[HLW06, §IV.8\]), and the Cayley map is
/// `cay(v) = (I − V/2)⁻¹(I + V/2)`.
///
/// See the [module documentation](crate::so3) for the small-angle branches and thresholds.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// let u = Vector3::new(0.0, 0.0, std::f64::consts::FRAC_PI_2);
/// let r = So3::exp(&u);
/// let x = r.rotate(&Vector3::x());
/// assert!((x - Vector3::y()).norm() < 1e-15);
/// assert!((r.log() - u).norm() < 1e-15);
/// ```
#[doc(alias = "SO(3)")]
#[doc(alias = "SO3")]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct So3<T: RealField + Copy = f64> {
    matrix: Matrix3<T>,
}

impl<T: RealField + Copy> So3<T> {
    /// Tolerance on `‖RᵀR − I‖_F` accepted by [`So3::try_from_matrix`]: `1e-10`.
    pub const ORTHOGONALITY_TOLERANCE: f64 = 1e-10;

    /// Tolerance on `| |q| − 1 |` accepted by [`So3::try_from_quaternion`]: `1e-10`.
    pub const UNIT_TOLERANCE: f64 = 1e-10;

    /// The identity rotation.
    ///
    /// # Example
    /// ```
    /// use liegroup::So3;
    /// assert_eq!(*So3::<f64>::identity().matrix(), nalgebra::Matrix3::identity());
    /// ```
    #[must_use]
    pub fn identity() -> Self {
        Self {
            matrix: Matrix3::identity(),
        }
    }

    /// The rotation matrix.
    #[must_use]
    pub fn matrix(&self) -> &Matrix3<T> {
        &self.matrix
    }

    /// The rotation matrix, by value.
    #[must_use]
    pub fn into_matrix(self) -> Matrix3<T> {
        self.matrix
    }

    /// Wrap a matrix without any check. The caller promises that it is a rotation matrix
    /// (up to round-off); otherwise every later result is meaningless (but nothing panics).
    #[must_use]
    pub fn from_matrix_unchecked(matrix: Matrix3<T>) -> Self {
        Self { matrix }
    }

    /// Wrap a matrix after checking that it is a rotation. The matrix is stored unchanged.
    ///
    /// # Errors
    /// - [`LieError::NonFinite`] if an entry is NaN or infinite;
    /// - [`LieError::NotOrthogonal`] if `‖RᵀR − I‖_F >` [`So3::ORTHOGONALITY_TOLERANCE`]
    ///   (`1e-10`);
    /// - [`LieError::NotARotation`] if the matrix is orthogonal with `det R < 0` (a reflection).
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieError, So3};
    /// use nalgebra::Matrix3;
    /// assert!(So3::try_from_matrix(Matrix3::<f64>::identity()).is_ok());
    /// let reflection = Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, 1.0, -1.0));
    /// assert!(matches!(So3::try_from_matrix(reflection), Err(LieError::NotARotation { .. })));
    /// ```
    pub fn try_from_matrix(matrix: Matrix3<T>) -> Result<Self, LieError> {
        if !matrix.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite {
                what: "rotation matrix",
            });
        }
        let deviation = re((matrix.transpose() * matrix - Matrix3::identity()).norm());
        // A NaN (overflow in the product) is rejected as well.
        if deviation.is_nan() || deviation > Self::ORTHOGONALITY_TOLERANCE {
            return Err(LieError::NotOrthogonal {
                deviation,
                tolerance: Self::ORTHOGONALITY_TOLERANCE,
            });
        }
        let determinant = re(matrix.determinant());
        if determinant <= 0.0 {
            return Err(LieError::NotARotation { determinant });
        }
        Ok(Self { matrix })
    }

    /// The rotation represented by a quaternion `w + xi + yj + zk`, after checking that it is
    /// finite and of unit norm within [`So3::UNIT_TOLERANCE`] (`1e-10`). The accepted
    /// quaternion is normalized before conversion.
    ///
    /// # Errors
    /// [`LieError::NonFinite`] for a NaN or infinite coefficient, [`LieError::NotUnit`] if
    /// `| |q| − 1 | > 1e-10`.
    ///
    /// # Example
    /// ```
    /// use liegroup::So3;
    /// use nalgebra::Quaternion;
    /// let r = So3::try_from_quaternion(Quaternion::<f64>::new(0.0, 0.0, 0.0, 1.0)).unwrap(); // π about z
    /// assert!((r.matrix()[(0, 0)] + 1.0).abs() < 1e-15);
    /// assert!(So3::try_from_quaternion(Quaternion::new(2.0, 0.0, 0.0, 0.0)).is_err());
    /// ```
    pub fn try_from_quaternion(q: Quaternion<T>) -> Result<Self, LieError> {
        if !q.coords.iter().all(|x| x.is_finite()) {
            return Err(LieError::NonFinite { what: "quaternion" });
        }
        let deviation = (re(q.norm()) - 1.0).abs();
        if deviation.is_nan() || deviation > Self::UNIT_TOLERANCE {
            return Err(LieError::NotUnit {
                what: "quaternion",
                deviation,
                tolerance: Self::UNIT_TOLERANCE,
            });
        }
        Ok(Self::from(UnitQuaternion::new_normalize(q)))
    }

    /// The unit quaternion of this rotation (the one with non-negative scalar part is not
    /// guaranteed; `q` and `−q` represent the same rotation).
    #[must_use]
    pub fn to_unit_quaternion(&self) -> UnitQuaternion<T> {
        UnitQuaternion::from_rotation_matrix(&Rotation3::from_matrix_unchecked(self.matrix))
    }

    /// `R v`, the rotated vector.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let r = So3::exp(&Vector3::new(std::f64::consts::PI, 0.0, 0.0));
    /// assert!((r.rotate(&Vector3::y()) + Vector3::y()).norm() < 1e-15);
    /// ```
    #[must_use]
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.matrix * v
    }

    /// `Rᵀ v = R⁻¹ v`, the vector rotated back.
    #[must_use]
    pub fn inverse_rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.matrix.tr_mul(v)
    }
}

impl<T: RealField + Copy> Default for So3<T> {
    fn default() -> Self {
        Self::identity()
    }
}

impl<T: RealField + Copy> LieGroup for So3<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;
    const EXACT_DEXP: bool = true;

    #[inline]
    fn identity_like(&self) -> Self {
        Self::identity()
    }

    #[inline]
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }

    /// `R₁ R₂`.
    #[inline]
    fn compose(&self, other: &Self) -> Self {
        Self {
            matrix: self.matrix * other.matrix,
        }
    }

    /// `Rᵀ`.
    #[inline]
    fn inverse(&self) -> Self {
        Self {
            matrix: self.matrix.transpose(),
        }
    }

    /// Rodrigues' formula `exp(U) = I + (sin α/α) U + ((1 − cos α)/α²) U²`, `α = |u|`
    /// \[HLW06, §IV.8\]; `1 − cos α` is evaluated as `2 sin²(α/2)` (no cancellation). For
    /// `α < 1/4` both coefficients are Taylor polynomials in `α² = u·u` (6 terms each), so the
    /// derivative at `u = 0` is exact for dual numbers.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let r = So3::exp(&Vector3::new(0.3, -0.2, 0.1));
    /// assert!((r.matrix().transpose() * r.matrix() - nalgebra::Matrix3::identity()).norm() < 1e-15);
    /// ```
    #[inline]
    fn exp(u: &Vector3<T>) -> Self {
        let mut f = AngleFns::new(u.dot(u));
        let a = f.sinc();
        let b = f.cosc();
        Self {
            matrix: rodrigues_matrix(u, a, b),
        }
    }

    /// The principal logarithm, `|log R| = α ∈ [0, π]`.
    ///
    /// With `w = vee(R) = sin α · n` and `cos α = (tr R − 1)/2`:
    /// - `cos α > 0` and `|w|² < 1/100`: `log R = (α/sin α) w` with `α/sin α = arcsin(s)/s` as a
    ///   polynomial in `s² = |w|²` (8 terms), so the dual derivative survives at `R = I`;
    /// - otherwise `α = atan2(|w|, cos α)` (evaluated as `atan` of a ratio of modulus ≤ 1, so
    ///   that dual-number derivatives are right also at `α = π/2`);
    ///   - `cos α ≥ 0`: `log R = (α/|w|) w`;
    ///   - `cos α < 0` (near π, where `w` has lost its relative accuracy): the axis is taken
    ///     from the symmetric part `(R + Rᵀ)/2 − cos α I = (1 − cos α) n nᵀ` (its column with the
    ///     largest diagonal entry, normalized), with the sign chosen so that `n · w ≥ 0`.
    ///
    /// Branch cut: at `α = π` both `±π n` are logarithms; the sign then follows the round-off
    /// in `w`.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let u = Vector3::new(0.0, 3.0, 0.0);
    /// assert!((So3::exp(&u).log() - u).norm() < 1e-14);
    /// ```
    fn log(&self) -> Vector3<T> {
        let m = &self.matrix;
        let w = vee(m);
        let s2 = w.dot(&w);
        let half = c::<T>(0.5);
        let cos = (m.trace() - T::one()) * half;
        if re(cos) > 0.0 && re(s2) < LOG_SERIES_SIN_SQ {
            return w * poly(&ASIN_SERIES, s2);
        }
        let s = s2.sqrt();
        let alpha = atan2_nonneg(s, cos);
        if re(cos) >= 0.0 {
            return w * (alpha / s);
        }
        // Near π: axis from the symmetric part (1 − cos α) n nᵀ.
        let d = [m[(0, 0)] - cos, m[(1, 1)] - cos, m[(2, 2)] - cos];
        let i = if re(d[0]) >= re(d[1]) && re(d[0]) >= re(d[2]) {
            0
        } else if re(d[1]) >= re(d[2]) {
            1
        } else {
            2
        };
        let col = Vector3::from_fn(|k, _| {
            if k == i {
                d[i]
            } else {
                (m[(k, i)] + m[(i, k)]) * half
            }
        });
        let mut n = col / col.norm();
        if re(n.dot(&w)) < 0.0 {
            n = -n;
        }
        n * alpha
    }

    /// `[u, v] = u × v`.
    #[inline]
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }

    /// `Ad_R u = R u`.
    #[inline]
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        self.matrix * xi
    }

    /// `ad_x y = x × y`.
    #[inline]
    fn ad(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }

    /// `(Ad_{R⁻¹})ᵀ μ = R μ`.
    #[inline]
    fn coadjoint(&self, mu: &Vector3<T>) -> Vector3<T> {
        self.matrix * mu
    }

    /// `ad*_x μ = hat(x)ᵀ μ = μ × x`.
    #[inline]
    fn ad_star(x: &Vector3<T>, mu: &Vector3<T>) -> Vector3<T> {
        mu.cross(x)
    }

    /// `dexp_u v = v + ((1 − cos α)/α²) u×v + ((α − sin α)/α³) u×(u×v)`, `α = |u|`
    /// [REFERENCES.md "so(3) dexp"]; series below `α < 1/4` and `α < 2` respectively.
    ///
    /// # Example
    /// ```
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let (u, v) = (Vector3::new(0.4, 0.1, -0.2), Vector3::new(1.0, 2.0, 3.0));
    /// assert!((So3::dexpinv(&u, &So3::dexp(&u, &v)) - v).norm() < 1e-14);
    /// ```
    #[inline]
    fn dexp(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        so3_dexp(u, v)
    }

    /// `dexp_u⁻¹ v = v − ½ u×v + g₂(α) u×(u×v)`, `g₂(α) = (1 − (α/2)cot(α/2))/α²` \[CO03\];
    /// for `α < 2`, `g₂ = Σ |B₂ₙ|/(2n)! α²ⁿ⁻² = 1/12 + α²/720 + α⁴/30240 + …` (17 terms).
    /// Singular at `α = 2π`.
    #[inline(always)]
    fn dexpinv(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        so3_dexpinv(u, v)
    }

    #[inline]
    fn all_finite(&self) -> bool {
        self.matrix.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for So3<T> {
    /// Always inlined: integrators call it on their critical path, where a call would spill
    /// every live floating-point register (all are caller-saved).
    #[inline(always)]
    fn dexpinv_into(u: &Vector3<T>, v: &Vector3<T>, out: &mut Vector3<T>) {
        *out = so3_dexpinv(u, v);
    }
    #[inline]
    fn left_mul_assign(&mut self, g: &Self) {
        self.matrix = g.matrix * self.matrix;
    }
    /// `R ← exp(u) R`: Rodrigues' matrix `I + aU + bU²` (`a = sin α/α`, `b = (1 − cos α)/α²`,
    /// entry by entry from `u`, no `hat` products) times `R`. Measured against applying
    /// `R + a UR + b U(UR)` column by column (fewer temporaries, but 90 instead of 72
    /// multiplications and additions), this form has both the shorter dependency chain from
    /// `u` to the result and the smaller operation count. Always inlined: integrators call it
    /// on their critical path, where a call costs a round trip of the matrix through memory.
    #[inline(always)]
    fn exp_left_mul_assign(&mut self, u: &Vector3<T>) {
        let mut f = AngleFns::new(u.dot(u));
        let e = rodrigues_matrix(u, f.sinc(), f.cosc());
        self.matrix = e * self.matrix;
    }
    /// `R ← R exp(u) = R + a RU + b (RU)U` without forming `exp(u)`: row by row,
    /// `rᵢ ← rᵢ + a (rᵢ × u) + b ((rᵢ × u) × u)` (`a = sin α/α`, `b = (1 − cos α)/α²`; for a
    /// row vector `r U = (r × u)ᵀ`). Each row of the result depends only on the same row of
    /// `R`, so a caller that reads some rows only (a body-frame field needing the vertical
    /// `Γ = Rᵀe₃`, the third row; a free body reading none) pays for those rows only once the
    /// call is inlined — which it always is: integrators call it on their critical path (the
    /// stage update of body-frame equations, see
    /// [`exp_left_mul_assign`](LieGroup::exp_left_mul_assign)).
    #[inline(always)]
    fn exp_right_mul_assign(&mut self, u: &Vector3<T>) {
        let (a, b) = sinc_cosc(u.dot(u));
        for i in 0..3 {
            let r = Vector3::new(
                self.matrix[(i, 0)],
                self.matrix[(i, 1)],
                self.matrix[(i, 2)],
            );
            let ru = r.cross(u);
            let ruu = ru.cross(u);
            for j in 0..3 {
                self.matrix[(i, j)] = r[j] + a * ru[j] + b * ruu[j];
            }
        }
    }
}

impl<T: RealField + Copy> StaticLieGroup for So3<T> {
    #[inline]
    fn identity() -> Self {
        Self::identity()
    }
}

/// The Cayley map of SO(3) \[HLW06, §IV.8.3\]:
/// `cay(v) = (I − V/2)⁻¹(I + V/2) = I + (4/(4 + |v|²))(V + V²/2)`,
/// `dcay_v w = (4/(4 + |v|²))(w + ½ v×w)`, `dcay_v⁻¹ w = w − ½ v×w + ¼ v (v·w)`. All three are
/// rational (no branches), defined on all of ℝ³.
impl<T: RealField + Copy> CayleyGroup for So3<T> {
    /// # Example
    /// ```
    /// use liegroup::{CayleyGroup, LieGroup, So3};
    /// use nalgebra::Vector3;
    /// let v = Vector3::new(0.5, -1.0, 2.0);
    /// let g = So3::cay(&v).compose(&So3::cay(&-v));
    /// assert!((g.matrix() - nalgebra::Matrix3::identity()).norm() < 1e-15);
    /// ```
    #[inline]
    fn cay(xi: &Vector3<T>) -> Self {
        let k = c::<T>(4.0) / (c::<T>(4.0) + xi.dot(xi));
        Self {
            matrix: rodrigues_matrix(xi, k, k * c::<T>(0.5)),
        }
    }

    #[inline]
    fn dcay(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let k = c::<T>(4.0) / (c::<T>(4.0) + u.dot(u));
        (v + u.cross(v) * c::<T>(0.5)) * k
    }

    #[inline]
    fn dcayinv(u: &Vector3<T>, w: &Vector3<T>) -> Vector3<T> {
        w - u.cross(w) * c::<T>(0.5) + u * (u.dot(w) * c::<T>(0.25))
    }
}

// ---------------------------------------------------------------------------------------------
// nalgebra interop
// ---------------------------------------------------------------------------------------------

impl<T: RealField + Copy> From<Rotation3<T>> for So3<T> {
    fn from(r: Rotation3<T>) -> Self {
        Self {
            matrix: r.into_inner(),
        }
    }
}

impl<T: RealField + Copy> From<So3<T>> for Rotation3<T> {
    fn from(r: So3<T>) -> Self {
        Rotation3::from_matrix_unchecked(r.matrix)
    }
}

impl<T: RealField + Copy> From<UnitQuaternion<T>> for So3<T> {
    fn from(q: UnitQuaternion<T>) -> Self {
        Self {
            matrix: q.to_rotation_matrix().into_inner(),
        }
    }
}

impl<T: RealField + Copy> From<So3<T>> for UnitQuaternion<T> {
    fn from(r: So3<T>) -> Self {
        r.to_unit_quaternion()
    }
}

// ---------------------------------------------------------------------------------------------
// Tests of the angle functions (the group laws are tested in tests/so3_se3.rs)
// ---------------------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::{bernoulli, dexpinv_series_coefficient};

    const EPS: f64 = f64::EPSILON;

    /// The paired evaluation of `sin α/α` and `(1 − cos α)/α²` performs each series' own
    /// operations: bitwise the values of the separate evaluations, below the series threshold
    /// and above it.
    #[test]
    fn paired_sinc_cosc_equals_the_separate_evaluations_bitwise() {
        for i in 0..=400 {
            let t2 = f64::from(i) * (0.3 / 400.0);
            let (a, b) = sinc_cosc(t2);
            let mut f = AngleFns::new(t2);
            assert_eq!(a.to_bits(), f.sinc().to_bits(), "α² = {t2}");
            assert_eq!(b.to_bits(), f.cosc().to_bits(), "α² = {t2}");
        }
    }

    fn factorial(n: u32) -> f64 {
        (1..=n).map(f64::from).product()
    }

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    /// The tables are the Taylor coefficients of their defining formulas.
    #[test]
    fn series_tables_match_their_formulas() {
        for (k, &x) in SINC_SERIES.iter().enumerate() {
            let k = k as u32;
            let want = (-1f64).powi(k as i32) / factorial(2 * k + 1);
            assert!(rel(x, want) < 4.0 * EPS, "sinc {k}");
        }
        for (k, &x) in COSC_SERIES.iter().enumerate() {
            let k = k as u32;
            assert!(rel(x, (-1f64).powi(k as i32) / factorial(2 * k + 2)) < 4.0 * EPS);
        }
        for (k, &x) in SINC3_SERIES.iter().enumerate() {
            let k = k as u32;
            assert!(rel(x, (-1f64).powi(k as i32) / factorial(2 * k + 3)) < 8.0 * EPS);
        }
        for (k, &x) in Q2_SERIES.iter().enumerate() {
            let k = k as u32;
            assert!(rel(x, (-1f64).powi(k as i32) / factorial(2 * k + 4)) < 8.0 * EPS);
        }
        for (k, &x) in Q3_SERIES.iter().enumerate() {
            let k = k as u32;
            let want = (-1f64).powi(k as i32) * f64::from(k + 1) / factorial(2 * k + 5);
            assert!(rel(x, want) < 8.0 * EPS);
        }
        // |B_2n|/(2n)! = 2 ζ(2n)/(2π)^{2n}; the crate's Bernoulli table covers 2n ≤ 20, the
        // zeta sum Σ_{k<200} k^{-2n} (tail below 200^{-21}) the rest.
        let zeta_coeff = |n: i32| {
            let zeta: f64 = (1..200).map(|k| f64::from(k).powi(-2 * n)).sum();
            2.0 * zeta / (2.0 * std::f64::consts::PI).powi(2 * n)
        };
        let coeff = |n: usize| {
            if 2 * n <= 20 {
                bernoulli(2 * n).abs() / factorial(2 * n as u32)
            } else {
                zeta_coeff(n as i32)
            }
        };
        for (i, &x) in G2_SERIES.iter().enumerate() {
            let n = i + 1;
            assert!(rel(x, coeff(n)) < 16.0 * EPS, "g2 {n}");
            if 2 * n <= 20 {
                assert!(
                    rel(x, dexpinv_series_coefficient(2 * n)) < 16.0 * EPS,
                    "g2 {n}"
                );
            }
        }
        for (i, &x) in G2P_SERIES.iter().enumerate() {
            let n = i + 2;
            let want = (2 * n - 2) as f64 * coeff(n);
            assert!(rel(x, want) < 16.0 * EPS, "g2p {n}");
        }
        for (k, &x) in ASIN_SERIES.iter().enumerate() {
            let k = k as u32;
            let want = factorial(2 * k)
                / (4f64.powi(k as i32) * factorial(k).powi(2) * f64::from(2 * k + 1));
            assert!(rel(x, want) < 4.0 * EPS);
        }
    }

    /// 50-digit reference values (mpmath) of the defining closed forms
    /// `sin α/α, (1−cos α)/α², (α−sin α)/α³, g₂, g₂′/α, (α²+2cos α−2)/(2α⁴),
    /// (2α−3 sin α+α cos α)/(2α⁵)`, rounded to f64.
    #[rustfmt::skip]
    const REFERENCE: [(f64, [f64; 7]); 9] = [
        (0.001, [0.9999998333333416, 0.4999999583333347, 0.16666665833333352, 0.08333333472222225, 0.002777777910052915, 0.0416666652777778, 0.008333332936507945]),
        (0.1, [0.9983341664682815, 0.4995834721974234, 0.1665833531718477, 0.08334722552992746, 0.002779101025299342, 0.041652780257660955, 0.008329365905984456]),
        (0.25, [0.9896158370180917, 0.49740125262968343, 0.1661466077105325, 0.08342026826597765, 0.002786064390640753, 0.04157995792506474, 0.008308564015312509]),
        (0.5, [0.958851077208406, 0.48966975243850913, 0.16459569116637598, 0.0836826353540599, 0.0028111592110818154, 0.04132099024596346, 0.008234642121237716]),
        (1.0, [0.8414709848078965, 0.4596976941318603, 0.1585290151921035, 0.08475613914377404, 0.002915185691236665, 0.040302305868139716, 0.0079446757222251]),
        (1.5, [0.6649966577360363, 0.4130056881476876, 0.14889037433953942, 0.08663572826131866, 0.003102556174055282, 0.038664138601027735, 0.007481207749095708]),
        (2.0, [0.45464871341284085, 0.3540367091367856, 0.1363378216467898, 0.08947684601641732, 0.0033984714607326635, 0.0364908227158036, 0.0068720944754479705]),
        (2.5, [0.2393888576415826, 0.2881829784875094, 0.12169778277734679, 0.09354531654909429, 0.003848974304704996, 0.0338907234419985, 0.006152829587562476]),
        (3.0, [0.04704000268662241, 0.2211102774000495, 0.10588444414593084, 0.09929197039400237, 0.0045393496978337645, 0.030987746955550056, 0.005363503057652391]),
    ];

    fn all_fns(t2: f64) -> [f64; 7] {
        let mut f = AngleFns::new(t2);
        [
            f.sinc(),
            f.cosc(),
            f.sinc3(),
            f.g2(),
            f.g2p(),
            f.q2(),
            f.q3(),
        ]
    }

    #[test]
    fn angle_functions_match_reference_values() {
        // Tolerances in ulps: the closed form of g₂′/α cancels (≈ 41 ulps at α = 2, see
        // se3.rs); everything else is within a few ulps.
        let tol = [4.0, 4.0, 4.0, 4.0, 64.0, 8.0, 16.0];
        for (alpha, want) in REFERENCE {
            let got = all_fns(alpha * alpha);
            for j in 0..7 {
                // `alpha * alpha` is rounded: allow for the resulting change of the function
                // (|d ln f / d ln α²| ≤ 1 here except for sin α/α near π).
                let slack = if j == 0 { 4.0 } else { 1.0 };
                assert!(
                    rel(got[j], want[j]) < (tol[j] + slack) * EPS,
                    "fn {j} at α = {alpha}: {} vs {} ({} ulp)",
                    got[j],
                    want[j],
                    rel(got[j], want[j]) / EPS
                );
            }
        }
    }

    /// Both branches agree around each threshold (the series is still accurate slightly above
    /// its threshold, the closed form slightly below).
    #[test]
    fn branches_agree_at_thresholds() {
        let series = |t2: f64| {
            [
                poly(&SINC_SERIES, t2),
                poly(&COSC_SERIES, t2),
                poly(&SINC3_SERIES, t2),
                poly(&G2_SERIES, t2),
                poly(&G2P_SERIES, t2),
                poly(&Q2_SERIES, t2),
                poly(&Q3_SERIES, t2),
            ]
        };
        let closed = |t2: f64| {
            let h = HalfAngle::new(t2);
            [
                closed::sinc(&h),
                closed::cosc(&h),
                closed::sinc3(&h),
                closed::g2(&h),
                closed::g2p(&h),
                closed::q2(&h),
                closed::q3(&h),
            ]
        };
        let tol = [4.0, 4.0, 8.0, 8.0, 64.0, 8.0, 16.0];
        for (j, &tol_j) in tol.iter().enumerate() {
            let thr = if j < 2 {
                SMALL_ANGLE_SQ
            } else {
                CANCELLATION_ANGLE_SQ
            };
            for f in [0.95, 0.99, 1.0, 1.01, 1.05] {
                let t2 = thr * f;
                let (s, cl) = (series(t2)[j], closed(t2)[j]);
                assert!(
                    rel(s, cl) < tol_j * EPS,
                    "fn {j} at α² = {t2}: {} ulp",
                    rel(s, cl) / EPS
                );
            }
        }
        // The short g₂ series against the full one below its threshold, and at the threshold;
        // likewise the six-term series below α² = 1/16, and `AngleFns::g2` on both sides of
        // that threshold (the branches meet within an ulp or two).
        for k in 0..=200 {
            let t2 = SHORT_SERIES_ANGLE_SQ * f64::from(k) / 200.0;
            let (short, full) = (poly(&G2_SERIES_SHORT, t2), poly(&G2_SERIES, t2));
            assert!(rel(short, full) < 2.0 * EPS, "g₂ short at α² = {t2}");
            let t2 = SMALL_ANGLE_SQ * f64::from(k) / 200.0;
            let (small, full) = (poly(&G2_SERIES_SMALL, t2), poly(&G2_SERIES, t2));
            assert!(rel(small, full) < 2.0 * EPS, "g₂ small at α² = {t2}");
        }
        for f in [0.99, 1.0 - EPS, 1.0, 1.0 + EPS, 1.01] {
            let t2 = SMALL_ANGLE_SQ * f;
            let g = AngleFns::new(t2).g2();
            assert!(rel(g, poly(&G2_SERIES, t2)) < 2.0 * EPS, "g₂ at α² = {t2}");
        }
        // log: arcsin(s)/s against atan2(s, √(1 − s²))/s at the threshold s² = 1/100.
        for f in [0.9, 1.0, 1.1] {
            let s2: f64 = LOG_SERIES_SIN_SQ * f;
            let s = s2.sqrt();
            let closed = s.atan2((1.0 - s2).sqrt()) / s;
            assert!(rel(poly(&ASIN_SERIES, s2), closed) < 4.0 * EPS);
        }
    }

    #[test]
    fn dual_derivatives_of_angle_functions_at_zero_are_exact() {
        use num_dual::Dual64;
        // d/dε f(ε) at ε = 0 where t2 = ε: the linear Taylor coefficient.
        let mut f = AngleFns::new(Dual64::new(0.0, 1.0));
        assert_eq!(f.sinc().eps, -1.0 / 6.0);
        assert_eq!(f.cosc().eps, -1.0 / 24.0);
        assert_eq!(f.sinc3().eps, -1.0 / 120.0);
        assert_eq!(f.g2().eps, 1.0 / 720.0);
        assert_eq!(f.g2p().eps, G2P_SERIES[1]);
    }
}
