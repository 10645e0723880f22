//! Accuracy and consistency tests of the angle functions (against 50-digit references).

use super::*;
use crate::group::{bernoulli, dexpinv_series_coefficient};

const EPS: f64 = f64::EPSILON;

/// The paired evaluation of `sin θ/θ` and `(1 − cos θ)/θ²` performs each series' own
/// operations: bitwise the values of the separate evaluations, below the series threshold
/// and above it.
#[test]
fn paired_sinc_cosc_equals_the_separate_evaluations_bitwise() {
    for i in 0..=400 {
        let t2 = f64::from(i) * (1.2 / 400.0);
        let (a, b) = sinc_cosc(t2);
        let mut f = AngleFns::new(t2);
        assert_eq!(a.to_bits(), f.sinc().to_bits(), "θ² = {t2}");
        assert_eq!(b.to_bits(), f.cosc().to_bits(), "θ² = {t2}");
        assert_eq!(a.to_bits(), sinc(t2).to_bits(), "θ² = {t2}");
        assert_eq!(b.to_bits(), cosc(t2).to_bits(), "θ² = {t2}");
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
        let want =
            factorial(2 * k) / (4f64.powi(k as i32) * factorial(k).powi(2) * f64::from(2 * k + 1));
        assert!(rel(x, want) < 4.0 * EPS);
    }
}

/// 50-digit reference values (mpmath) of the defining closed forms
/// `sin θ/θ, (1−cos θ)/θ², (θ−sin θ)/θ³, g₂, g₂′/θ, (θ²+2cos θ−2)/(2θ⁴),
/// (2θ−3 sin θ+θ cos θ)/(2θ⁵)`, rounded to f64.
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

fn all_free_fns(t2: f64) -> [f64; 7] {
    [
        sinc(t2),
        cosc(t2),
        sinc3(t2),
        g2(t2),
        g2p(t2),
        q2(t2),
        q3(t2),
    ]
}

#[test]
fn angle_functions_match_reference_values() {
    // Tolerances in ulps: the closed form of g₂′/θ cancels (≈ 41 ulps at θ = 2, see
    // se3.rs); everything else is within a few ulps.
    let tol = [4.0, 4.0, 4.0, 4.0, 64.0, 8.0, 16.0];
    for (theta, want) in REFERENCE {
        let got = all_fns(theta * theta);
        assert_eq!(got, all_free_fns(theta * theta));
        for j in 0..7 {
            // `theta * theta` is rounded: allow for the resulting change of the function
            // (|d ln f / d ln θ²| ≤ 1 here except for sin θ/θ near π).
            let slack = if j == 0 { 4.0 } else { 1.0 };
            assert!(
                rel(got[j], want[j]) < (tol[j] + slack) * EPS,
                "fn {j} at θ = {theta}: {} vs {} ({} ulp)",
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
            SINC_COSC_ANGLE_SQ
        } else {
            CANCELLATION_ANGLE_SQ
        };
        for f in [0.95, 0.99, 1.0, 1.01, 1.05] {
            let t2 = thr * f;
            let (s, cl) = (series(t2)[j], closed(t2)[j]);
            assert!(
                rel(s, cl) < tol_j * EPS,
                "fn {j} at θ² = {t2}: {} ulp",
                rel(s, cl) / EPS
            );
        }
    }
    // The short g₂ series against the full one below its threshold, and at the threshold;
    // likewise the six-term g₂ and (θ − sin θ)/θ³ series below θ² = 1/16, and
    // `AngleFns::g2`, `AngleFns::sinc3` on both sides of that threshold (the branches meet
    // within an ulp or two).
    for k in 0..=200 {
        let t2 = SHORT_SERIES_ANGLE_SQ * f64::from(k) / 200.0;
        let (short, full) = (poly(&G2_SERIES_SHORT, t2), poly(&G2_SERIES, t2));
        assert!(rel(short, full) < 2.0 * EPS, "g₂ short at θ² = {t2}");
        let t2 = SMALL_ANGLE_SQ * f64::from(k) / 200.0;
        let (small, full) = (poly(&G2_SERIES_SMALL, t2), poly(&G2_SERIES, t2));
        assert!(rel(small, full) < 2.0 * EPS, "g₂ small at θ² = {t2}");
        let (small, full) = (poly(&SINC3_SERIES_SMALL, t2), poly(&SINC3_SERIES, t2));
        assert!(rel(small, full) < 2.0 * EPS, "sinc3 small at θ² = {t2}");
    }
    for f in [0.99, 1.0 - EPS, 1.0, 1.0 + EPS, 1.01] {
        let t2 = SMALL_ANGLE_SQ * f;
        let g = AngleFns::new(t2).g2();
        assert!(rel(g, poly(&G2_SERIES, t2)) < 2.0 * EPS, "g₂ at θ² = {t2}");
        let s3 = AngleFns::new(t2).sinc3();
        assert!(
            rel(s3, poly(&SINC3_SERIES, t2)) < 2.0 * EPS,
            "sinc3 at θ² = {t2}"
        );
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
    assert_eq!(f.sinc_cosc().0.eps, -1.0 / 6.0);
    assert_eq!(f.sinc_cosc().1.eps, -1.0 / 24.0);
    assert_eq!(f.sinc3().eps, -1.0 / 120.0);
    assert_eq!(f.g2().eps, 1.0 / 720.0);
    assert_eq!(f.g2p().eps, G2P_SERIES[1]);
    assert_eq!(f.q2().eps, Q2_SERIES[1]);
    assert_eq!(f.q3().eps, Q3_SERIES[1]);
}

/// Over the whole range of the 10-term `sin θ/θ` and `(1 − cos θ)/θ²` polynomials
/// (`θ < 1`), the series agree with the closed forms (which do not cancel there) to a few
/// ulps; a wrong coefficient shows near `θ = 1` first (every term but the last two is above
/// an ulp there; those two are kept for margin).
#[test]
fn sinc_cosc_series_match_the_closed_forms_over_their_range() {
    for k in 1..=400 {
        let t2 = SINC_COSC_ANGLE_SQ * f64::from(k) / 400.0;
        let h = HalfAngle::new(t2);
        let (s, c) = (poly(&SINC_SERIES, t2), poly(&COSC_SERIES, t2));
        assert!(rel(s, closed::sinc(&h)) < 4.0 * EPS, "sinc at θ² = {t2}");
        assert!(rel(c, closed::cosc(&h)) < 4.0 * EPS, "cosc at θ² = {t2}");
        // The 6-term polynomials below θ = 1/4 against the 10-term ones.
        let t2 = SMALL_ANGLE_SQ * f64::from(k) / 400.0;
        let (s6, s10) = (poly(&SINC_SERIES_SMALL, t2), poly(&SINC_SERIES, t2));
        assert!(rel(s6, s10) < 2.0 * EPS, "sinc small at θ² = {t2}");
        let (c6, c10) = (poly(&COSC_SERIES_SMALL, t2), poly(&COSC_SERIES, t2));
        assert!(rel(c6, c10) < 2.0 * EPS, "cosc small at θ² = {t2}");
    }
}
