//! Special functions needed by exact solutions: Jacobi elliptic functions and the complete
//! elliptic integral of the first kind.

/// The Jacobi elliptic functions `(sn, cn, dn)(u | m)` for parameter `0 ≤ m ≤ 1` (`m = k²`).
///
/// Computed by the arithmetic–geometric mean and descending Landen transformation
/// [A&S 16.4.3]: `a₀ = 1`, `b₀ = √(1 − m)`, `c₀ = √m`, `aₙ = (aₙ₋₁ + bₙ₋₁)/2`,
/// `bₙ = √(aₙ₋₁bₙ₋₁)`, `cₙ = (aₙ₋₁ − bₙ₋₁)/2` until `cₙ` is negligible; then
/// `φ_N = 2ᴺ a_N u`, `φₙ₋₁ = (φₙ + asin((cₙ/aₙ) sin φₙ))/2`, and
/// `sn = sin φ₀`, `cn = cos φ₀`, `dn = √(1 − m sn²)`. Accurate to a few ulps for
/// moderate `u` and `m` not extremely close to 1. The limits `m = 0` (sin, cos, 1) and `m = 1`
/// (tanh, sech, sech) are exact.
///
/// Returns NaNs for `m` outside `[0, 1]` or non-finite input.
///
/// # Example
/// ```
/// use schemes::special::jacobi_sn_cn_dn;
/// let (sn, cn, dn) = jacobi_sn_cn_dn(0.7, 0.3);
/// assert!((sn * sn + cn * cn - 1.0).abs() < 1e-15);
/// assert!((dn * dn + 0.3 * sn * sn - 1.0).abs() < 1e-15);
/// ```
#[must_use]
pub fn jacobi_sn_cn_dn(u: f64, m: f64) -> (f64, f64, f64) {
    if !(u.is_finite() && (0.0..=1.0).contains(&m)) {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    if m == 0.0 {
        return (u.sin(), u.cos(), 1.0);
    }
    if m == 1.0 {
        let s = 1.0 / u.cosh();
        return (u.tanh(), s, s);
    }
    const N: usize = 16;
    let mut a = [0.0_f64; N + 1];
    let mut cc = [0.0_f64; N + 1];
    a[0] = 1.0;
    let mut b = (1.0 - m).sqrt();
    cc[0] = m.sqrt();
    let mut n = 0;
    while n < N {
        let an = 0.5 * (a[n] + b);
        let cn = 0.5 * (a[n] - b);
        b = (a[n] * b).sqrt();
        n += 1;
        a[n] = an;
        cc[n] = cn;
        if cn.abs() <= f64::EPSILON * an {
            break;
        }
    }
    let mut phi = 2f64.powi(n as i32) * a[n] * u;
    for j in (1..=n).rev() {
        phi = 0.5 * (phi + ((cc[j] / a[j]) * phi.sin()).asin());
    }
    let (s, c) = phi.sin_cos();
    // dn = √(1 − m sn²) > 0; better conditioned than cos φ₀ / cos(φ₁ − φ₀) near sn = ±1.
    (s, c, (1.0 - m * s * s).sqrt())
}

/// The complete elliptic integral of the first kind `K(m) = π / (2 AGM(1, √(1 − m)))`
/// [A&S 17.6], for `0 ≤ m < 1` (NaN otherwise; `+∞` at `m = 1`).
#[must_use]
pub fn elliptic_k(m: f64) -> f64 {
    if !(0.0..=1.0).contains(&m) {
        return f64::NAN;
    }
    if m == 1.0 {
        return f64::INFINITY;
    }
    let (mut a, mut b) = (1.0_f64, (1.0 - m).sqrt());
    for _ in 0..64 {
        if (a - b).abs() <= f64::EPSILON * a {
            break;
        }
        let an = 0.5 * (a + b);
        b = (a * b).sqrt();
        a = an;
    }
    core::f64::consts::PI / (2.0 * a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_identities() {
        for &u in &[-2.0, -0.3, 0.0, 0.5, 1.7, 4.0] {
            let (s, c, d) = jacobi_sn_cn_dn(u, 0.0);
            assert!((s - f64::sin(u)).abs() < 1e-15 && (c - f64::cos(u)).abs() < 1e-15 && d == 1.0);
            for &m in &[1e-12, 0.1, 0.5, 0.9, 0.999] {
                let (s, c, d) = jacobi_sn_cn_dn(u, m);
                assert!((s * s + c * c - 1.0).abs() < 4e-15, "u={u} m={m}");
                assert!((d * d + m * s * s - 1.0).abs() < 4e-15, "u={u} m={m}");
            }
        }
        // Near m = 1 the functions approach tanh and sech.
        let (s, c, _) = jacobi_sn_cn_dn(0.8, 1.0 - 1e-13);
        assert!((s - 0.8f64.tanh()).abs() < 1e-11 && (c - 1.0 / 0.8f64.cosh()).abs() < 1e-11);
    }

    #[test]
    fn derivatives_match_the_differential_equations() {
        // d sn/du = cn dn, d cn/du = −sn dn, d dn/du = −m sn cn (central differences, O(h²)).
        let hh = 1e-5;
        for &m in &[0.2, 0.7] {
            for &u in &[0.1, 1.3, 2.9] {
                let (sp, cp, dp) = jacobi_sn_cn_dn(u + hh, m);
                let (sm, cm, dm) = jacobi_sn_cn_dn(u - hh, m);
                let (s, c, d) = jacobi_sn_cn_dn(u, m);
                assert!(((sp - sm) / (2.0 * hh) - c * d).abs() < 1e-9);
                assert!(((cp - cm) / (2.0 * hh) + s * d).abs() < 1e-9);
                assert!(((dp - dm) / (2.0 * hh) + m * s * c).abs() < 1e-9);
            }
        }
    }

    #[test]
    fn quarter_period() {
        for &m in &[0.0, 0.3, 0.8] {
            let k = elliptic_k(m);
            let (s, c, d) = jacobi_sn_cn_dn(k, m);
            assert!(
                (s - 1.0).abs() < 1e-14 && c.abs() < 1e-7 && (d - (1.0 - m).sqrt()).abs() < 1e-13
            );
        }
        assert!((elliptic_k(0.0) - core::f64::consts::FRAC_PI_2).abs() < 1e-15);
        // K(1/2) = Γ(1/4)²/(4√π) = 1.854074677301372 (A&S Table 17.1).
        assert!((elliptic_k(0.5) - 1.854_074_677_301_372).abs() < 1e-14);
    }
}
