//! The angle functions of the rotation groups, as functions of `θ²`.
//!
//! Rodrigues' formula, the so(3) `dexp` and `dexp⁻¹`, and the SE(3) Jacobians are built from a
//! handful of scalar functions of the rotation angle `θ = |u|`. Each of them is even in `θ`, so
//! it is evaluated from `θ² = u·u` (no square root of a sum of squares is needed near 0):
//!
//! | function | definition | Taylor series in `θ²` | closed form used above the threshold |
//! |---|---|---|---|
//! | [`sinc`] | `sin θ/θ` | `Σ (−1)ᵏ θ²ᵏ/(2k+1)!` | `sin h cos h/h`, `h = θ/2` |
//! | [`cosc`] | `(1 − cos θ)/θ²` | `Σ (−1)ᵏ θ²ᵏ/(2k+2)!` | `½ (sin h/h)²` (no cancellation) |
//! | [`sinc3`] | `(θ − sin θ)/θ³` | `Σ (−1)ᵏ θ²ᵏ/(2k+3)!` | direct |
//! | [`g2`] | `(1 − (θ/2)cot(θ/2))/θ²` | `Σ_{n≥1} \|B₂ₙ\|/(2n)! θ²ⁿ⁻²` | `(1 − h cot h)/θ²` |
//! | [`g2p`] | `g₂′(θ)/θ` | term-by-term derivative of `g₂`, over `θ` | `(h²/sin²h + h cot h − 2)/θ⁴` |
//! | [`q2`] | `(θ² + 2cos θ − 2)/(2θ⁴)` | `Σ (−1)ᵏ θ²ᵏ/(2k+4)!` | `(½ − cosc)/θ²` |
//! | [`q3`] | `(2θ − 3 sin θ + θ cos θ)/(2θ⁵)` | `Σ (−1)ᵏ (k+1) θ²ᵏ/(2k+5)!` | direct |
//!
//! (`B₂ₙ` are the Bernoulli numbers.) Their roles: `exp(û) = I + sinc·û + cosc·û²` (Rodrigues,
//! \[HLW06, §IV.8\]); so(3) `dexp_u = I + cosc·û + sinc3·û²` and
//! `dexp_u⁻¹ = I − ½û + g2·û²` \[CO03\] (`docs/derivations.md` §1); `g2p` enters the
//! SE(3) `dexp⁻¹` \[CCLMO22, §2.3\] and `cosc, sinc3, q2, q3` are the coefficients of the SE(3)
//! `dexp` (Barfoot's `Q`, see [`Se3`](crate::Se3)).
//!
//! # Small-angle branches and thresholds
//! Below a threshold on `θ²` each function is its Taylor polynomial in `θ²`, evaluated by
//! Estrin's scheme; above it, the closed form. No square root or division is taken at `θ = 0`
//! and there is no `if θ == 0` test anywhere, so dual-number derivatives (num-dual) are exact
//! at `u = 0`.
//!
//! - `sinc`, `cosc`: series for `θ < 1/4` (`θ² < 1/16`, 6 terms). Their closed forms do not
//!   cancel, so the threshold only keeps `θ` away from 0.
//! - `sinc3`, `g2`, `g2p`, `q2`, `q3`: series for `θ < 2` (`θ² < 4`; 11, 17, 18, 11 and 11
//!   terms). The closed forms lose about `log₂(6/θ²)`, `log₂(12/θ²)`, … bits to cancellation,
//!   hence the larger threshold.
//! - For `θ < 1/4` (the angles of integrator stages) `sinc3` and `g2` use the first 6 terms of
//!   their series, and `g2` the first 8 for `θ < 1/2`: shorter dependency chains with the
//!   first omitted term still below a hundredth of an ulp.
//!
//! The number of terms is chosen so that the first omitted term is below a quarter of an ulp
//! at the threshold.
//!
//! # Accuracy
//! Measured in `f64` against 50-digit references (the tests of this module): the series are
//! within 1 ulp below their thresholds; the closed forms of `cosc`, `sinc3`, `g2`, `q2` are
//! within 2.5 ulps on `[threshold, π]`, `q3` within 9 ulps; `sinc` is within a few ulps of its
//! value at the rounded `θ = √(θ²)` (near `θ = π` its relative condition number with respect
//! to `θ²`, not the formula, limits the accuracy); `g2p` cancels in its closed form (about 41
//! ulps at `θ = 2`). `g2` and `g2p` are singular at `θ = 2π`.
//!
//! # Example
//! ```
//! use liegroup::angle::{self, AngleFns};
//! let t: f64 = 0.3;
//! assert!((angle::sinc(t * t) - t.sin() / t).abs() < 1e-16);
//! // Several functions of one angle share one evaluation of sin(θ/2), cos(θ/2):
//! let mut f = AngleFns::new(2.5 * 2.5);
//! let (a, b) = f.sinc_cosc();
//! assert!((a - 2.5f64.sin() / 2.5).abs() < 1e-15);
//! assert!((b - (1.0 - 2.5f64.cos()) / 6.25).abs() < 1e-15);
//! assert!((f.sinc3() - (2.5 - 2.5f64.sin()) / 2.5f64.powi(3)).abs() < 1e-15);
//! ```
//!
//! References: \[HLW06, §IV.8\], \[CO03\], \[CCLMO22, §2.3\].

use crate::scalar::{c, re};
use nalgebra::{RealField, Vector2};

// ---------------------------------------------------------------------------------------------
// Thresholds
// ---------------------------------------------------------------------------------------------

/// `θ²` below which `sin θ/θ`, `(1 − cos θ)/θ²`, `(θ − sin θ)/θ³` and `g₂` switch to their
/// 6-term series (`θ < 1/4`).
pub(crate) const SMALL_ANGLE_SQ: f64 = 1.0 / 16.0;

/// `θ²` below which `sin θ/θ` and `(1 − cos θ)/θ²` use their 10-term Taylor polynomials
/// (`θ < 1`; the first omitted terms, `θ²⁰/21!` and `θ²⁰/22!`, are below 2e-20), and above
/// which their closed forms. Up to `θ = 1` the polynomial costs less than the `sin_cos` of the
/// closed form, and the steps of adaptive runs on fast rotations (the heavy top of the
/// work–precision race turns at `|Ω| ≈ 150 rad/s`, so `θ = h|Ω|` reaches 0.5) stay on it.
/// Below `θ < 1/4` the first six terms suffice ([`SINC_SERIES_SMALL`]).
pub(crate) const SINC_COSC_ANGLE_SQ: f64 = 1.0;

/// `θ²` below which the functions whose closed forms cancel (`(θ − sin θ)/θ³`, `g₂`, `g₂′/θ`,
/// `q₂`, `q₃`) use their Taylor polynomials (`θ < 2`).
pub(crate) const CANCELLATION_ANGLE_SQ: f64 = 4.0;

/// `θ²` below which [`G2_SERIES_SHORT`] replaces [`G2_SERIES`] (`θ < 1/2`).
pub(crate) const SHORT_SERIES_ANGLE_SQ: f64 = 1.0 / 4.0;

/// `sin²θ` below which `So3::log` uses the series of `θ/sin θ = arcsin(s)/s` in `s² = sin²θ`
/// (only when `cos θ > 0`).
pub(crate) const LOG_SERIES_SIN_SQ: f64 = 1.0 / 100.0;

// ---------------------------------------------------------------------------------------------
// Series
// ---------------------------------------------------------------------------------------------

/// `sin θ/θ = Σ (−1)ᵏ θ²ᵏ/(2k+1)!`, k = 0 … 9 (the factorials are exact in `f64`, so each
/// coefficient is the correctly rounded `1/(2k+1)!`).
pub(crate) const SINC_SERIES: [f64; 10] = [
    1.0,
    -1.0 / 6.0,
    1.0 / 120.0,
    -1.0 / 5040.0,
    1.0 / 362880.0,
    -1.0 / 39916800.0,
    1.0 / 6227020800.0,
    -1.0 / 1307674368000.0,
    1.0 / 355687428096000.0,
    -1.0 / 121645100408832000.0,
];

/// The first 6 terms of [`SINC_SERIES`], for `θ² <` [`SMALL_ANGLE_SQ`] (first omitted term
/// `θ¹²/13! < 3e-17`): one Estrin level shorter than the 10 terms, on the short steps of
/// fixed-step runs.
pub(crate) const SINC_SERIES_SMALL: [f64; 6] = series_prefix(&SINC_SERIES);

/// `(1 − cos θ)/θ² = Σ (−1)ᵏ θ²ᵏ/(2k+2)!`, k = 0 … 9 (correctly rounded `1/(2k+2)!`).
pub(crate) const COSC_SERIES: [f64; 10] = [
    1.0 / 2.0,
    -1.0 / 24.0,
    1.0 / 720.0,
    -1.0 / 40320.0,
    1.0 / 3628800.0,
    -1.0 / 479001600.0,
    1.0 / 87178291200.0,
    -1.0 / 20922789888000.0,
    1.0 / 6402373705728000.0,
    -1.0 / 2432902008176640000.0,
];

/// The first 6 terms of [`COSC_SERIES`], for `θ² <` [`SMALL_ANGLE_SQ`] (first omitted term
/// `θ¹²/14! < 2e-18`).
pub(crate) const COSC_SERIES_SMALL: [f64; 6] = series_prefix(&COSC_SERIES);

/// `(θ − sin θ)/θ³ = Σ (−1)ᵏ θ²ᵏ/(2k+3)!`, k = 0 … 10 (correctly rounded values of
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

/// The first 6 terms of [`SINC3_SERIES`], for `θ² <` [`SMALL_ANGLE_SQ`]: the first omitted
/// term is `θ¹²/15! < 16⁻⁶/15! < 4.6·10⁻²⁰`, under a hundredth of an ulp of `sinc3 ≥ 1/6 − 1/1920`.
/// The same length as the `sin θ/θ` and `(1 − cos θ)/θ²` series it is evaluated with (the SO(3)
/// `dexp`, the SE(3) exponential).
pub(crate) const SINC3_SERIES_SMALL: [f64; 6] = series_prefix(&SINC3_SERIES);

/// `g₂(θ) = (1 − (θ/2)cot(θ/2))/θ² = Σ_{n≥1} |B₂ₙ|/(2n)! θ²ⁿ⁻²`, n = 1 … 17
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

/// The first 8 terms of [`G2_SERIES`]: for `θ² < 1/4` the first omitted term is
/// `|B₁₈|/18! θ¹⁶ < 1.4·10⁻¹⁹`, below half an ulp of `g₂ ≥ 1/12`. Half the dependency chain of
/// the full series, for the small angles of integrator stages (`dexp⁻¹` at every RKMK stage).
pub(crate) const G2_SERIES_SHORT: [f64; 8] = series_prefix(&G2_SERIES);

/// The first 6 terms of [`G2_SERIES`], for `θ² <` [`SMALL_ANGLE_SQ`] (`θ < 1/4`, the range of
/// integrator stages): the first omitted term is `|B₁₄|/14! θ¹² < 1.34·10⁻¹¹ · 16⁻⁶ < 8·10⁻¹⁹`,
/// under a hundredth of an ulp of `g₂ ≥ 1/12`. Estrin's scheme over six coefficients has the
/// same three levels as over eight, but its last level waits on one product fewer, which shortens
/// the dependency chain of an exact `dexp⁻¹` at every RKMK stage (measured in
/// `docs/performance.md`, "A shorter `g₂` series at stage angles").
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

/// `g₂′(θ)/θ = Σ_{n≥2} (2n−2)|B₂ₙ|/(2n)! θ²ⁿ⁻⁴`, n = 2 … 19 (`1/360, 1/7560, …`), the
/// term-by-term derivative of [`G2_SERIES`] divided by `θ`.
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

/// Barfoot's `(θ² + 2cos θ − 2)/(2θ⁴) = Σ (−1)ᵏ θ²ᵏ/(2k+4)!`, k = 0 … 10.
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

/// Barfoot's `(2θ − 3 sin θ + θ cos θ)/(2θ⁵) = Σ (−1)ᵏ (k+1) θ²ᵏ/(2k+5)!`, k = 0 … 10.
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
/// k = 0 … 7; equal to `θ/sin θ` with `s = sin θ` for `θ ≤ π/2` (used by `So3::log` below
/// [`LOG_SERIES_SIN_SQ`]).
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

/// `Σ coeffs[k] xᵏ` (`x = θ²` at every call site) by Estrin's scheme: adjacent coefficients
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

// ---------------------------------------------------------------------------------------------
// Closed forms
// ---------------------------------------------------------------------------------------------

/// `θ`, `h = θ/2`, `sin h`, `cos h` (only computed above a series threshold, so `θ > 0`).
#[derive(Clone, Copy, Debug)]
struct HalfAngle<T> {
    theta: T,
    h: T,
    s: T,
    c: T,
}

impl<T: RealField + Copy> HalfAngle<T> {
    fn new(t2: T) -> Self {
        let theta = t2.sqrt();
        let h = theta * c::<T>(0.5);
        let (s, c) = h.sin_cos();
        Self { theta, h, s, c }
    }
}

/// The closed forms of the angle functions, valid (and accurate) above their thresholds.
mod closed {
    use super::HalfAngle;
    use crate::scalar::c;
    use nalgebra::RealField;

    /// `sin θ/θ = sin h cos h / h`.
    pub(super) fn sinc<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        a.s * a.c / a.h
    }
    /// `(1 − cos θ)/θ² = ½ (sin h / h)²`.
    pub(super) fn cosc<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let q = a.s / a.h;
        q * q * c::<T>(0.5)
    }
    /// `(θ − sin θ)/θ³`.
    pub(super) fn sinc3<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let sin = c::<T>(2.0) * a.s * a.c;
        (a.theta - sin) / (a.theta * a.theta * a.theta)
    }
    /// `g₂ = (1 − h cot h)/θ²`.
    pub(super) fn g2<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        (T::one() - a.h * a.c / a.s) / (a.theta * a.theta)
    }
    /// `g₂′(θ)/θ = (h²/sin²h + h cot h − 2)/θ⁴`.
    pub(super) fn g2p<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let t2 = a.theta * a.theta;
        let hs = a.h / a.s;
        (hs * hs + hs * a.c - c::<T>(2.0)) / (t2 * t2)
    }
    /// `(θ² + 2cos θ − 2)/(2θ⁴) = (½ − (1 − cos θ)/θ²)/θ²`.
    pub(super) fn q2<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        (c::<T>(0.5) - cosc(a)) / (a.theta * a.theta)
    }
    /// `(2θ − 3 sin θ + θ cos θ)/(2θ⁵)`.
    pub(super) fn q3<T: RealField + Copy>(a: &HalfAngle<T>) -> T {
        let two = c::<T>(2.0);
        let sin = two * a.s * a.c;
        let cos = T::one() - two * a.s * a.s;
        let t2 = a.theta * a.theta;
        (two * a.theta - c::<T>(3.0) * sin + a.theta * cos) / (two * a.theta * t2 * t2)
    }
}

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

/// The angle functions of one angle `θ`, given `θ² ≥ 0`, evaluated on demand: the half-angle
/// sine and cosine that the closed forms need are computed at most once (and not at all when
/// every function asked for is below its series threshold).
///
/// The branches, thresholds and accuracy are those of the [module documentation](self); each
/// method returns the same value as the free function of the same name.
///
/// # Example
/// ```
/// use liegroup::angle::AngleFns;
/// // The SO(3) dexp coefficients at θ = 0.1:
/// let mut f = AngleFns::new(0.01_f64);
/// let (b, c) = (f.cosc(), f.sinc3());
/// // (the references cancel: 1 − cos θ and θ − sin θ lose 8 and 11 bits at θ = 0.1)
/// assert!((b - (1.0 - 0.1f64.cos()) / 0.01).abs() < 1e-13);
/// assert!((c - (0.1 - 0.1f64.sin()) / 1e-3).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct AngleFns<T> {
    t2: T,
    half: Option<HalfAngle<T>>,
}

impl<T: RealField + Copy> AngleFns<T> {
    /// The functions of the angle `θ = √t2` (`t2 = u·u ≥ 0`).
    #[inline(always)]
    #[must_use]
    pub fn new(t2: T) -> Self {
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
    /// `sin θ/θ` (6-term series for `θ < 1/4`, 10-term for `θ < 1`).
    #[inline(always)]
    pub fn sinc(&mut self) -> T {
        if re(self.t2) < SMALL_ANGLE_SQ {
            poly(&SINC_SERIES_SMALL, self.t2)
        } else {
            self.pick(SINC_COSC_ANGLE_SQ, &SINC_SERIES, closed::sinc)
        }
    }
    /// `(1 − cos θ)/θ²` (6-term series for `θ < 1/4`, 10-term for `θ < 1`).
    #[inline(always)]
    pub fn cosc(&mut self) -> T {
        if re(self.t2) < SMALL_ANGLE_SQ {
            poly(&COSC_SERIES_SMALL, self.t2)
        } else {
            self.pick(SINC_COSC_ANGLE_SQ, &COSC_SERIES, closed::cosc)
        }
    }
    /// `(sin θ/θ, (1 − cos θ)/θ²)`, bitwise the values of [`sinc`](Self::sinc) and
    /// [`cosc`](Self::cosc); below `θ < 1` both series share one evaluation (two lanes).
    #[inline(always)]
    pub fn sinc_cosc(&mut self) -> (T, T) {
        if re(self.t2) < SINC_COSC_ANGLE_SQ {
            sinc_cosc(self.t2)
        } else {
            let h = self.half();
            (closed::sinc(&h), closed::cosc(&h))
        }
    }
    /// `(θ − sin θ)/θ³` (series for `θ < 2`).
    pub fn sinc3(&mut self) -> T {
        if re(self.t2) < SMALL_ANGLE_SQ {
            poly(&SINC3_SERIES_SMALL, self.t2)
        } else {
            self.pick(CANCELLATION_ANGLE_SQ, &SINC3_SERIES, closed::sinc3)
        }
    }
    /// `g₂(θ) = (1 − (θ/2)cot(θ/2))/θ²`, the `û²` coefficient of the so(3) `dexp⁻¹` (series
    /// for `θ < 2`; singular at `θ = 2π`).
    #[inline(always)]
    pub fn g2(&mut self) -> T {
        if re(self.t2) < SMALL_ANGLE_SQ {
            poly(&G2_SERIES_SMALL, self.t2)
        } else if re(self.t2) < SHORT_SERIES_ANGLE_SQ {
            poly(&G2_SERIES_SHORT, self.t2)
        } else {
            self.pick(CANCELLATION_ANGLE_SQ, &G2_SERIES, closed::g2)
        }
    }
    /// `g₂′(θ)/θ = 2 dg₂/d(θ²)` (series for `θ < 2`; singular at `θ = 2π`).
    pub fn g2p(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &G2P_SERIES, closed::g2p)
    }
    /// `(θ² + 2cos θ − 2)/(2θ⁴)` (series for `θ < 2`).
    pub fn q2(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &Q2_SERIES, closed::q2)
    }
    /// `(2θ − 3 sin θ + θ cos θ)/(2θ⁵)` (series for `θ < 2`).
    pub fn q3(&mut self) -> T {
        self.pick(CANCELLATION_ANGLE_SQ, &Q3_SERIES, closed::q3)
    }
}

/// `sin θ/θ` from `t2 = θ²`: `Σ (−1)ᵏ θ²ᵏ/(2k+1)!` (6 terms for `θ < 1/4`, 10 for
/// `θ < 1`), else `sin(θ/2) cos(θ/2)/(θ/2)`.
///
/// # Example
/// ```
/// use liegroup::angle::sinc;
/// assert_eq!(sinc(0.0_f64), 1.0);
/// assert!((sinc(4.0_f64) - 2f64.sin() / 2.0).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn sinc<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).sinc()
}

/// `(1 − cos θ)/θ²` from `t2 = θ²`: `Σ (−1)ᵏ θ²ᵏ/(2k+2)!` (6 terms for `θ < 1/4`, 10 for
/// `θ < 1`), else
/// `½ (sin(θ/2)/(θ/2))²` (no cancellation).
///
/// # Example
/// ```
/// use liegroup::angle::cosc;
/// assert_eq!(cosc(0.0_f64), 0.5);
/// assert!((cosc(1.0_f64) - (1.0 - 1f64.cos())).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn cosc<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).cosc()
}

/// `(sin θ/θ, (1 − cos θ)/θ²)` from `t2 = θ²`, the two coefficients of Rodrigues' formula
/// `exp(û) = I + (sin θ/θ) û + ((1 − cos θ)/θ²) û²`; bitwise the values of [`sinc`] and
/// [`cosc`], with one evaluation for both: below `θ < 1` the two series in one Estrin scheme
/// on two-lane vectors (coefficient pairs; the same operations on each lane as each series on
/// its own, so the same values), above it one `sin_cos` of `θ/2`.
///
/// (The series is written out here rather than in a helper function: a separately inlined
/// helper was measurably slower in the RKMK and CF steps; see `docs/performance.md`, "Design
/// notes measured in benchmarks".)
///
/// # Example
/// ```
/// use liegroup::angle::sinc_cosc;
/// let (a, b) = sinc_cosc(0.04_f64); // θ = 0.2
/// assert!((a - 0.2f64.sin() / 0.2).abs() < 1e-16);
/// assert!((b - (1.0 - 0.2f64.cos()) / 0.04).abs() < 1e-14); // the reference cancels
/// ```
#[inline(always)]
#[must_use]
pub fn sinc_cosc<T: RealField + Copy>(t2: T) -> (T, T) {
    if re(t2) < SMALL_ANGLE_SQ {
        // Estrin's scheme exactly as `poly` runs it for 6 coefficients.
        let pairs: [Vector2<T>; 6] = core::array::from_fn(|k| {
            Vector2::new(c::<T>(SINC_SERIES_SMALL[k]), c::<T>(COSC_SERIES_SMALL[k]))
        });
        let t4 = t2 * t2;
        let l0 = pairs[0] + pairs[1] * t2;
        let l1 = pairs[2] + pairs[3] * t2;
        let l2 = pairs[4] + pairs[5] * t2;
        let m0 = l0 + l1 * t4;
        let r = m0 + l2 * (t4 * t4);
        (r.x, r.y)
    } else if re(t2) < SINC_COSC_ANGLE_SQ {
        // Estrin's scheme exactly as `poly` runs it for 10 coefficients: pairs with θ², the
        // five results paired with θ⁴, the three with θ⁸, the last two with θ¹⁶.
        let pairs: [Vector2<T>; 10] =
            core::array::from_fn(|k| Vector2::new(c::<T>(SINC_SERIES[k]), c::<T>(COSC_SERIES[k])));
        let t4 = t2 * t2;
        let t8 = t4 * t4;
        let l0 = pairs[0] + pairs[1] * t2;
        let l1 = pairs[2] + pairs[3] * t2;
        let l2 = pairs[4] + pairs[5] * t2;
        let l3 = pairs[6] + pairs[7] * t2;
        let l4 = pairs[8] + pairs[9] * t2;
        let m0 = l0 + l1 * t4;
        let m1 = l2 + l3 * t4;
        let r0 = m0 + m1 * t8;
        let r = r0 + l4 * (t8 * t8);
        (r.x, r.y)
    } else {
        let mut f = AngleFns::new(t2);
        (f.sinc(), f.cosc())
    }
}

/// `(θ − sin θ)/θ³` from `t2 = θ²`: `Σ (−1)ᵏ θ²ᵏ/(2k+3)!` for `θ < 2` (6 terms for `θ < 1/4`,
/// 11 above), else the closed form.
///
/// # Example
/// ```
/// use liegroup::angle::sinc3;
/// assert_eq!(sinc3(0.0_f64), 1.0 / 6.0);
/// assert!((sinc3(9.0_f64) - (3.0 - 3f64.sin()) / 27.0).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn sinc3<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).sinc3()
}

/// `g₂(θ) = (1 − (θ/2)cot(θ/2))/θ²` from `t2 = θ²`, the coefficient in the so(3)
/// `dexp_u⁻¹ v = v − ½ u×v + g₂ u×(u×v)` \[CO03\]: `Σ_{n≥1} |B₂ₙ|/(2n)! θ²ⁿ⁻²`
/// (`1/12 + θ²/720 + θ⁴/30240 + …`) for `θ < 2`, else the closed form. Singular at `θ = 2π`.
///
/// # Example
/// ```
/// use liegroup::angle::g2;
/// assert_eq!(g2(0.0_f64), 1.0 / 12.0);
/// let h = 1.5_f64; // θ = 3
/// assert!((g2(9.0) - (1.0 - h / h.tan()) / 9.0).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn g2<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).g2()
}

/// `g₂′(θ)/θ = 2 dg₂/d(θ²)` from `t2 = θ²` (in the SE(3) `dexp⁻¹` \[CCLMO22, §2.3\]):
/// `Σ_{n≥2} (2n−2)|B₂ₙ|/(2n)! θ²ⁿ⁻⁴` (`1/360 + θ²/7560 + …`) for `θ < 2`, else
/// `(h²/sin²h + h cot h − 2)/θ⁴` with `h = θ/2`. Singular at `θ = 2π`.
///
/// # Example
/// ```
/// use liegroup::angle::{g2, g2p};
/// assert_eq!(g2p(0.0_f64), 1.0 / 360.0);
/// // A central difference of g₂ in θ² (step 1e-4 at θ² = 1): 2 dg₂/d(θ²).
/// let d = (g2(1.0001_f64) - g2(0.9999)) / 2e-4;
/// assert!((g2p(1.0_f64) - 2.0 * d).abs() < 1e-9);
/// ```
#[inline]
#[must_use]
pub fn g2p<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).g2p()
}

/// `(θ² + 2cos θ − 2)/(2θ⁴)` from `t2 = θ²` (a coefficient of the SE(3) `dexp`, Barfoot's `Q`):
/// `Σ (−1)ᵏ θ²ᵏ/(2k+4)!` (`1/24 − θ²/720 + …`) for `θ < 2`, else
/// `(½ − (1 − cos θ)/θ²)/θ²`.
///
/// # Example
/// ```
/// use liegroup::angle::q2;
/// assert_eq!(q2(0.0_f64), 1.0 / 24.0);
/// assert!((q2(9.0_f64) - (9.0 + 2.0 * 3f64.cos() - 2.0) / 162.0).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn q2<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).q2()
}

/// `(2θ − 3 sin θ + θ cos θ)/(2θ⁵)` from `t2 = θ²` (a coefficient of the SE(3) `dexp`,
/// Barfoot's `Q`): `Σ (−1)ᵏ (k+1) θ²ᵏ/(2k+5)!` (`1/120 − θ²/2520 + …`) for `θ < 2`, else the
/// closed form.
///
/// # Example
/// ```
/// use liegroup::angle::q3;
/// assert_eq!(q3(0.0_f64), 1.0 / 120.0);
/// let t = 3.0_f64;
/// assert!((q3(t * t) - (2.0 * t - 3.0 * t.sin() + t * t.cos()) / (2.0 * t.powi(5))).abs() < 1e-16);
/// ```
#[inline]
#[must_use]
pub fn q3<T: RealField + Copy>(t2: T) -> T {
    AngleFns::new(t2).q3()
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

#[cfg(test)]
mod tests;
