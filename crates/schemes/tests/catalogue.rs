//! Order conditions and structural checks of every catalogue entry.

use schemes::catalogue::{
    BOGACKI_SHAMPINE32, CF3, CF4, CF32, CF43, CG3, CG4, COMMUTATOR_FREE, DOP853, DOPRI54, EULER,
    LIE_EULER, RK4, SQRT_3, SQRT_15, TABLEAUX, TSIT54, VERN65, VERN76, VERN87,
};
use schemes::{Base, MAX_TREE_ORDER, OrderChecker, StageMatrix};

#[test]
fn every_tableau_is_valid() {
    for t in TABLEAUX {
        assert_eq!(t.validate(), Ok(()), "{}", t.name);
    }
}

/// Passes at the stated order, fails at the next (Gauss–Legendre of order 2s: fails at 2s + 1).
#[test]
fn every_tableau_has_exactly_its_order() {
    for t in TABLEAUX {
        let r = t.verify_order();
        assert!(
            t.order < MAX_TREE_ORDER,
            "{}: cannot check the next order",
            t.name
        );
        assert_eq!(r.checked_up_to, t.order + 1, "{}", t.name);
        assert_eq!(r.order, t.order, "{}: {r}", t.name);
        assert!(r.violations_of_order(t.order + 1).count() > 0, "{}", t.name);
        assert!(
            r.violations.iter().all(|v| v.order == t.order + 1),
            "{}: {r}",
            t.name
        );
    }
}

#[test]
fn embedded_weights_have_exactly_their_order() {
    let mut seen = 0;
    for t in TABLEAUX {
        if let Some(e) = t.embedded {
            let r = t.verify_embedded_order().unwrap();
            assert_eq!(r.order, e.order, "{}: {r}", t.name);
            assert_eq!(r.checked_up_to, e.order + 1);
            seen += 1;
        }
    }
    assert_eq!(seen, 7);
    assert_eq!(BOGACKI_SHAMPINE32.embedded_order(), Some(2));
    assert_eq!(DOPRI54.embedded_order(), Some(4));
    for (t, p, q) in [
        (&TSIT54, 5, 4),
        (&VERN65, 6, 5),
        (&VERN76, 7, 6),
        (&VERN87, 8, 7),
        (&DOP853, 8, 5),
    ] {
        assert_eq!((t.order, t.embedded_order()), (p, Some(q)), "{}", t.name);
    }
}

#[test]
fn explicitness_and_fsal() {
    for t in TABLEAUX {
        assert_eq!(t.is_explicit(), !t.name.starts_with("Gauss"), "{}", t.name);
        let fsal = [
            BOGACKI_SHAMPINE32.name,
            DOPRI54.name,
            TSIT54.name,
            VERN65.name,
        ]
        .contains(&t.name);
        assert_eq!(t.is_fsal(), fsal, "{}", t.name);
    }
}

/// Σ b_i(θ) Φ_i(t) = θ^{|t|}/γ(t) for |t| ≤ 4 at every θ, not for |t| = 5 at θ ∉ {0, 1}
/// \[HNW93 II.6\].
#[test]
fn dopri54_dense_output_has_order_4() {
    let dense = DOPRI54.dense_output.unwrap();
    assert_eq!(dense.order, 4);
    assert_eq!(dense.degree(), 4);
    let checker = OrderChecker::new();
    let mut w = [0.0; 7];
    for theta in [0.05, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.7, 0.9, 0.99] {
        dense.weights_at(theta, &mut w);
        let r = checker.check_continuous(&DOPRI54, &w, theta, 5);
        assert_eq!(r.order, 4, "θ = {theta}: {r}");
    }
    dense.weights_at(1.0, &mut w);
    assert_eq!(checker.check_continuous(&DOPRI54, &w, 1.0, 6).order, 5);
    dense.weights_at(0.0, &mut w);
    assert!(w.iter().all(|&x| x == 0.0));
}

/// Tsitouras' interpolant \[Tsi11, §3\]: order 4 at every θ (the conditions of order 5 fail
/// inside the step), `b_i(1) = b_i` to round-off, `b_i(0) = 0`.
#[test]
fn tsit54_dense_output_has_order_4() {
    let dense = TSIT54.dense_output.unwrap();
    assert_eq!((dense.order, dense.degree()), (4, 4));
    let checker = OrderChecker::new();
    let mut w = [0.0; 7];
    for theta in [0.05, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.7, 0.9, 0.99] {
        dense.weights_at(theta, &mut w);
        let r = checker.check_continuous(&TSIT54, &w, theta, 5);
        assert_eq!(r.order, 4, "θ = {theta}: {r}");
    }
    dense.weights_at(1.0, &mut w);
    for (wi, bi) in w.iter().zip(TSIT54.b) {
        // The factored form is printed to 16–19 digits: b_i(1) = b_i to a few ulps of the
        // largest term (|k| ≈ 47).
        assert!((wi - bi).abs() < 64.0 * 47.0 * f64::EPSILON, "{wi} vs {bi}");
    }
    dense.weights_at(0.0, &mut w);
    assert!(w.iter().all(|&x| x == 0.0));
}

/// The row-sum condition `c_i = Σ_j a_ij` of the new high-order tableaux holds to a few
/// rounding errors of the sum, `4ε Σ_j |a_ij|` (≤ 1e-15 for rows of moderate coefficients; the
/// rows of Verner 6(5) and 8(7) with entries near 160 cancel to 1e-14). Their coefficients are
/// decimals, so this checks the transcription of every row.
#[test]
fn high_order_row_sums() {
    for t in [&TSIT54, &VERN65, &VERN76, &VERN87, &DOP853] {
        for i in 0..t.stages() {
            let sum: f64 = t.a[i].iter().sum();
            let scale: f64 = t.a[i].iter().map(|x| x.abs()).sum();
            assert!(
                (sum - t.c[i]).abs() <= 4.0 * f64::EPSILON * scale.max(1.0),
                "{} row {i}: {sum} vs {}",
                t.name,
                t.c[i]
            );
        }
    }
}

#[test]
fn irrational_constants_are_correctly_rounded() {
    assert_eq!(SQRT_3, 3.0_f64.sqrt());
    assert_eq!(SQRT_15, 15.0_f64.sqrt());
}

/// A perturbation of any single coefficient by 1e-6 is detected: the order of `b` or of `b̂`
/// drops below the stated one. (Coefficients of a stage that neither `b` nor `b̂` reaches would
/// be invisible, but the catalogue has none.)
#[test]
fn single_coefficient_perturbation_is_detected() {
    const DELTA: f64 = 1e-6;
    let checker = OrderChecker::new();
    let orders = |t: &schemes::OwnedTableau| {
        let p = checker.check(t, &t.b, t.order).order;
        let q = t
            .b_hat
            .as_ref()
            .map(|w| checker.check(t, w, t.embedded_order.unwrap()).order);
        (p, q)
    };
    let mut count = 0;
    for base in TABLEAUX {
        let t0 = base.to_owned_tableau();
        let stated = (t0.order, t0.embedded_order);
        assert_eq!(orders(&t0), stated, "{}", t0.name);
        let s = t0.b.len();
        let explicit = base.is_explicit();
        for i in 0..s {
            for j in 0..s {
                if explicit && j >= i {
                    continue;
                }
                let mut t = t0.clone();
                t.a[i][j] += DELTA;
                assert_ne!(
                    orders(&t),
                    stated,
                    "{}: a[{i}][{j}] + 1e-6 not detected",
                    t0.name
                );
                count += 1;
            }
            let mut t = t0.clone();
            t.b[i] += DELTA;
            assert!(
                orders(&t).0 < t0.order,
                "{}: b[{i}] + 1e-6 not detected",
                t0.name
            );
            count += 1;
            if let Some(bh) = &t0.b_hat {
                let mut t = t0.clone();
                t.b_hat = Some(
                    bh.iter()
                        .enumerate()
                        .map(|(k, v)| if k == i { v + DELTA } else { *v })
                        .collect(),
                );
                assert!(
                    orders(&t).1 < t0.embedded_order,
                    "{}: b̂[{i}] + 1e-6 not detected",
                    t0.name
                );
                count += 1;
            }
        }
    }
    // 328 entries of A (lower triangles of explicit, full squares of implicit), 94 of b, 62 of b̂.
    assert_eq!(count, 484);
}

#[test]
fn every_commutator_free_scheme_is_valid() {
    for s in COMMUTATOR_FREE {
        assert_eq!(s.validate(), Ok(()), "{}", s.name);
    }
}

/// The structure of commutator-free schemes \[CMO03\] (`docs/models.md`, "Other problems with
/// known solutions"): on an abelian algebra the coefficients of all
/// exponentials producing Y_i (following base points) sum to c_i, those of each update to 1.
#[test]
fn coefficient_sums_match_nodes_and_one() {
    for s in COMMUTATOR_FREE {
        let t = s.abelian_tableau();
        assert!(t.max_row_sum_defect() < 1e-15, "{}", s.name);
        assert!((t.b.iter().sum::<f64>() - 1.0).abs() < 1e-15, "{}", s.name);
        if let Some(bh) = &t.b_hat {
            assert!((bh.iter().sum::<f64>() - 1.0).abs() < 1e-15, "{}", s.name);
        }
    }
}

/// Crouch–Grossman data: Σ b = 1, row sums = c, one k_j per exponential, applied k₁ first.
#[test]
fn crouch_grossman_structure() {
    for s in [&CG3, &CG4] {
        assert!(s.is_crouch_grossman());
        for (i, stage) in s.stages.iter().enumerate() {
            assert_eq!(stage.point.base, Base::Start);
            assert_eq!(stage.point.factors.len(), i, "{} stage {i}", s.name);
            for (l, f) in stage.point.factors.iter().enumerate() {
                // factor l contains exactly k_{l+1}: k₁ acts first.
                assert_eq!(f.len(), l + 1);
                assert!(f[..l].iter().all(|&v| v == 0.0));
            }
            let row_sum: f64 = stage.point.factors.iter().map(|f| f[f.len() - 1]).sum();
            assert!(
                (row_sum - stage.c).abs() <= 2.0 * f64::EPSILON,
                "{} stage {i}: {row_sum} vs {}",
                s.name,
                stage.c
            );
        }
        let b_sum: f64 = s.update.factors.iter().map(|f| f[f.len() - 1]).sum();
        assert!((b_sum - 1.0).abs() <= 2.0 * f64::EPSILON, "{}", s.name);
    }
    for s in [&LIE_EULER, &CF3, &CF4, &CF43] {
        assert_eq!(
            s.is_crouch_grossman(),
            s.name == LIE_EULER.name,
            "{}",
            s.name
        );
    }
    // CG3 exactly as in [CG93, OM99] (`docs/methods.md`, `cg3`; `docs/models.md`).
    assert_eq!(CG3.nodes(), [0.0, 3.0 / 4.0, 17.0 / 24.0]);
    assert_eq!(
        CG3.stages[2].point.factors,
        [&[119.0 / 216.0][..], &[0.0, 17.0 / 108.0][..]]
    );
    assert_eq!(CG4.stages[4].point.factors[3][3], -1.109_297_939_211_346_5);
}

/// The classical conditions of the abelian collapse hold up to the stated order. Only this
/// direction is meaningful: the collapse may well have a higher classical order than the Lie
/// group method (and the Lie group order conditions are not checked here).
#[test]
fn abelian_collapse_satisfies_classical_conditions() {
    for s in COMMUTATOR_FREE {
        let r = s.verify_abelian_order();
        assert_eq!(r.order, s.order, "{}: {r}", s.name);
        if let Some(e) = s.embedded {
            let t = s.abelian_tableau();
            let r = OrderChecker::new().check(&t, t.b_hat.as_ref().unwrap(), e.order);
            assert_eq!(r.order, e.order, "{} embedded: {r}", s.name);
        }
    }
}

#[test]
fn abelian_collapses_are_the_expected_classical_methods() {
    let close = |x: &[f64], y: &[f64]| {
        x.len() == y.len()
            && x.iter()
                .zip(y)
                .all(|(a, b)| (a - b).abs() <= 2.0 * f64::EPSILON)
    };
    // 3/12 − 1/12 is 1/6 only to within an ulp.
    let rk4 = RK4.to_owned_tableau();
    let cf4 = CF4.abelian_tableau();
    assert_eq!((&cf4.a, &cf4.c), (&rk4.a, &rk4.c));
    assert!(close(&cf4.b, &rk4.b), "{:?}", cf4.b);
    let euler = EULER.to_owned_tableau();
    let lie_euler = LIE_EULER.abelian_tableau();
    assert_eq!((lie_euler.a, lie_euler.b), (euler.a, euler.b));
    // CF3 → Heun's third-order method.
    let cf3 = CF3.abelian_tableau();
    assert!(close(&cf3.b, &[1.0 / 4.0, 0.0, 3.0 / 4.0]));
    assert_eq!(cf3.a[2], [0.0, 2.0 / 3.0, 0.0]);
    // CF 3(2): b̂ = (0, ½, ½).
    assert_eq!(CF32.abelian_tableau().b_hat.unwrap(), [0.0, 0.5, 0.5]);
    // CF 4(3): b̂ = (2/9, 1/3, 0, 0, 4/9) on c = (0, ½, ½, 1, ¾).
    let cf43 = CF43.abelian_tableau();
    assert!(close(
        cf43.b_hat.as_ref().unwrap(),
        &[2.0 / 9.0, 1.0 / 3.0, 0.0, 0.0, 4.0 / 9.0]
    ));
    assert_eq!(cf43.c, [0.0, 0.5, 0.5, 1.0, 0.75]);
    assert_eq!(cf43.stages(), 5);
}

#[test]
fn exponential_and_stage_counts() {
    let counts: Vec<(&str, usize, usize, usize)> = COMMUTATOR_FREE
        .iter()
        .map(|s| {
            (
                s.name,
                s.stages_for_update(),
                s.exponential_count(),
                s.exponential_count_with_embedded(),
            )
        })
        .collect();
    assert_eq!(
        counts,
        [
            ("Lie–Euler", 1, 1, 1),
            ("CF3", 3, 3, 3),
            ("CF 3(2)", 3, 3, 4),
            ("CF4", 4, 5, 5),
            ("CF 4(3)", 4, 5, 8),
            ("CG3", 3, 6, 6),
            ("CG4", 5, 15, 15),
        ]
    );
}

#[test]
fn lookup_by_name() {
    assert_eq!(schemes::catalogue::tableau("RK4"), Some(&RK4));
    assert_eq!(schemes::catalogue::commutator_free("CG4"), Some(&CG4));
    assert!(schemes::catalogue::tableau("nope").is_none());
    let mut names: Vec<&str> = TABLEAUX.iter().map(|t| t.name).collect();
    names.extend(COMMUTATOR_FREE.iter().map(|s| s.name));
    let n = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), n, "names are unique");
}
