//! Symmetric compositions: the coefficient sets of `docs/derivations.md` §4 ([Yos90], [Suz90],
//! [KL97], [McL95]) checked (palindromic,
//! `Σγ = 1`, odd power sums, and the full order conditions through a generic symmetric base
//! expanded as a power series), and observed orders of compositions of the implicit midpoint
//! RKMK (`gl2`, symmetric, order 2) on the free rigid body against its exact solution.

use homogeneous::{RotationAction, Sphere2};
use nalgebra::{DMatrix, Vector3};
use schemes::composition::{self, Composition, CompositionScheme, SCHEMES};
use schemes::special::jacobi_sn_cn_dn;
use schemes::{
    AnyStepper, ConvergenceRow, Problem, SchemeError, Stepper, Tolerance, format_table,
    measure_order, methods,
};

// ---------------------------------------------------------------------------------------------
// Coefficients
// ---------------------------------------------------------------------------------------------

#[test]
fn coefficients_are_palindromic_consistent_and_kill_odd_power_sums() {
    let expected = [
        ("yoshida4", 3, 4),
        ("suzuki4", 5, 4),
        ("yoshida6", 7, 6),
        ("kahan-li6", 9, 6),
        ("kahan-li8", 17, 8),
        ("mclachlan8", 15, 8),
    ];
    assert_eq!(SCHEMES.len(), expected.len());
    for (s, (id, stages, order)) in SCHEMES.iter().zip(expected) {
        assert_eq!(s.id, id);
        assert_eq!(s.stages(), stages, "{id}");
        assert_eq!(s.order, order, "{id}");
        assert!(s.is_palindromic(), "{id}");
        assert!(
            (s.sum() - 1.0).abs() <= 4.0 * f64::EPSILON,
            "{id}: Σγ = {}",
            s.sum()
        );
        // Σγᵏ = 0 for odd k = 3, …, p − 1 (necessary conditions), and ≠ 0 at k = p + 1.
        for k in (3..order as i32).step_by(2) {
            let sk = s.power_sum(k);
            assert!(sk.abs() <= 1e-14, "{id}: Σγ^{k} = {sk:e}");
        }
        let next = s.power_sum(order as i32 + 1);
        assert!(next.abs() > 1e-5, "{id}: Σγ^{} = {next:e}", order + 1);
        println!(
            "{id:<11} s = {stages:>2}: Σγ − 1 = {:+.1e}, Σγ³ = {:+.1e}, Σγ⁵ = {:+.1e}, Σγ⁷ = {:+.1e}",
            s.sum() - 1.0,
            s.power_sum(3),
            s.power_sum(5),
            s.power_sum(7)
        );
    }
    // The closed forms of the triple jump and of Suzuki's fractal.
    let cbrt2 = 2f64.cbrt();
    assert!((composition::YOSHIDA4.gamma[0] - 1.0 / (2.0 - cbrt2)).abs() < 1e-15);
    assert!((composition::YOSHIDA4.gamma[1] + cbrt2 / (2.0 - cbrt2)).abs() < 1e-15);
    let p = 1.0 / (4.0 - 4f64.cbrt());
    assert!((composition::SUZUKI4.gamma[0] - p).abs() < 1e-16);
    assert!((composition::SUZUKI4.gamma[2] - (1.0 - 4.0 * p)).abs() < 1e-15);
}

// ---------------------------------------------------------------------------------------------
// Full order conditions: a generic symmetric base as a truncated power series in h
// ---------------------------------------------------------------------------------------------

/// Degree of truncation of the power series in `h`.
const DEG: usize = 9;
/// Matrix size of the generic (non-commuting) algebra elements.
const DIM: usize = 4;

/// A power series `Σ_{k ≤ DEG} c_k h^k` with matrix coefficients.
type Series = Vec<DMatrix<f64>>;

fn zero_series() -> Series {
    vec![DMatrix::zeros(DIM, DIM); DEG + 1]
}

fn mul(a: &Series, b: &Series) -> Series {
    let mut c = zero_series();
    for i in 0..=DEG {
        for j in 0..=DEG - i {
            c[i + j] += &a[i] * &b[j];
        }
    }
    c
}

/// `exp(X)` for a series with `X₀ = 0` (so `X^k = O(h^k)` and the sum stops at `k = DEG`).
fn exp_series(x: &Series) -> Series {
    let mut out = zero_series();
    out[0] = DMatrix::identity(DIM, DIM);
    let mut term = out.clone();
    for k in 1..=DEG {
        term = mul(&term, x);
        for (o, t) in out.iter_mut().zip(&term) {
            *o += t / factorial(k);
        }
    }
    out
}

fn factorial(k: usize) -> f64 {
    (1..=k).map(|i| i as f64).product()
}

/// Seeded matrices with entries in [−1, 1).
fn random_matrix(state: &mut u64) -> DMatrix<f64> {
    DMatrix::from_fn(DIM, DIM, |_, _| {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    })
}

/// The order of `Ψ_h = Φ_{γₛh} ∘ ⋯ ∘ Φ_{γ₁h}` for the generic symmetric base
/// `Φ_h = exp(hA + Σ_{m odd, base_order < m ≤ 9} h^m Bₘ)` against the exact flow `exp(hA)`: the
/// largest `p` with matching coefficients of `h⁰ … h^p`, and the mismatch at `h^{p+1}`.
fn series_order(scheme: &CompositionScheme, base_order: usize, seed: u64) -> (usize, f64, f64) {
    let mut state = seed;
    let a = random_matrix(&mut state);
    let extra: Vec<(usize, DMatrix<f64>)> = (base_order + 1..=DEG)
        .filter(|m| m % 2 == 1)
        .map(|m| (m, random_matrix(&mut state)))
        .collect();
    let mut psi = zero_series();
    psi[0] = DMatrix::identity(DIM, DIM);
    for &g in scheme.gamma {
        let mut x = zero_series();
        x[1] = &a * g;
        for (m, b) in &extra {
            x[*m] = b * g.powi(*m as i32);
        }
        // Φ_{γ₁h} acts first: Ψ ← Φ_{γᵢh} Ψ.
        psi = mul(&exp_series(&x), &psi);
    }
    let mut xa = zero_series();
    xa[1] = a;
    let exact = exp_series(&xa);
    let diffs: Vec<f64> = psi
        .iter()
        .zip(&exact)
        .map(|(p, e)| (p - e).amax())
        .collect();
    let p = diffs.iter().position(|&d| d > 1e-10).unwrap_or(DEG + 1) - 1;
    let matched = diffs[..=p].iter().copied().fold(0.0, f64::max);
    let mismatch = diffs.get(p + 1).copied().unwrap_or(0.0);
    (p, matched, mismatch)
}

#[test]
fn full_order_conditions_with_a_generic_symmetric_base() {
    for s in SCHEMES {
        for seed in [1_u64, 2, 3] {
            let (p, matched, mismatch) = series_order(s, 2, seed);
            println!(
                "{:<11} (seed {seed}): order {p}, max coefficient error through h^{p} {matched:.1e}, at h^{} {mismatch:.1e}",
                s.id,
                p + 1
            );
            assert_eq!(p, s.order as usize, "{}", s.id);
            assert!(matched < 1e-12, "{}: {matched:e}", s.id);
            if p < DEG {
                assert!(mismatch > 1e-6, "{}: {mismatch:e}", s.id);
            }
        }
    }
}

#[test]
fn a_symmetric_base_of_higher_order_keeps_its_order() {
    // Base of order 4 (no h³ term): the triple jump stays at 4, the sixth-order schemes give 6.
    let (p, _, _) = series_order(&composition::YOSHIDA4, 4, 7);
    assert_eq!(p, 4);
    let (p, _, _) = series_order(&composition::KAHAN_LI6, 4, 7);
    assert_eq!(p, 6);
    let (p, _, _) = series_order(&composition::KAHAN_LI8, 4, 7);
    assert_eq!(p, 8);
}

// ---------------------------------------------------------------------------------------------
// Observed orders on the free rigid body
// ---------------------------------------------------------------------------------------------

type A = RotationAction<f64>;

const INERTIA: Vector3<f64> = Vector3::new(1.0, 2.0, 3.0);

/// The exact free rigid body `ṁ = m × I⁻¹m` with `I₁ < I₂ < I₃`, `m(0) = (a, 0, c)`,
/// `M² > 2EI₂` ([LL76, §37]; `docs/models.md`, "Free rigid body").
fn free_rigid_body_exact(m0: Vector3<f64>, t: f64) -> Vector3<f64> {
    let (i1, i2, i3) = (INERTIA[0], INERTIA[1], INERTIA[2]);
    let m2 = m0.norm_squared();
    let e2 = m0[0] * m0[0] / i1 + m0[2] * m0[2] / i3;
    assert!(m0[1] == 0.0 && m2 > e2 * i2);
    let a = (i1 * (e2 * i3 - m2) / (i3 - i1)).sqrt();
    let b = (i2 * (e2 * i3 - m2) / (i3 - i2)).sqrt();
    let c = (i3 * (m2 - e2 * i1) / (i3 - i1)).sqrt();
    let lambda = ((i3 - i2) * (m2 - e2 * i1) / (i1 * i2 * i3)).sqrt();
    let k2 = (i2 - i1) * (e2 * i3 - m2) / ((i3 - i2) * (m2 - e2 * i1));
    let (sn, cn, dn) = jacobi_sn_cn_dn(lambda * t, k2);
    Vector3::new(a * cn * m0[0].signum(), b * sn, c * dn * m0[2].signum())
}

fn rigid_body() -> (Sphere2, f64, Sphere2) {
    let m0 = Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin());
    let t_end = 4.0;
    let y0 = Sphere2::try_new(m0).unwrap();
    let exact = Sphere2::try_new(free_rigid_body_exact(m0, t_end)).unwrap();
    (y0, t_end, exact)
}

fn field(_t: f64, m: &Sphere2) -> Vector3<f64> {
    -m.q().component_div(&INERTIA)
}

fn measure<S: Stepper<A>>(stepper: &mut S, steps: &[usize]) -> ConvergenceRow {
    let (y0, t_end, exact) = rigid_body();
    let problem = Problem::new(A::new(), field);
    measure_order(
        &problem,
        stepper,
        0.0,
        &y0,
        t_end,
        &exact,
        steps,
        |a: &Sphere2, b: &Sphere2| (a.q() - b.q()).amax(),
        1e-13,
    )
    .unwrap()
}

#[test]
fn compositions_of_gl2_have_the_orders_of_their_schemes() {
    let mut rows = Vec::new();
    let mut gl2 = methods::find("gl2").unwrap().stepper::<A>();
    rows.push(measure(&mut gl2, &[16, 32, 64, 128, 256, 512]));
    for (id, steps) in [
        ("yoshida4", vec![8, 16, 32, 64, 128, 256]),
        ("suzuki4", vec![8, 16, 32, 64, 128, 256]),
        ("yoshida6", vec![8, 12, 16, 24, 32, 48, 64]),
        ("kahan-li6", vec![4, 6, 8, 12, 16, 24, 32]),
        ("kahan-li8", vec![4, 5, 6, 8, 10, 12, 16]),
        ("mclachlan8", vec![4, 5, 6, 8, 10, 12, 16]),
    ] {
        let mut comp = Composition::<AnyStepper<A>>::from_ids(id, "gl2").unwrap();
        rows.push(measure(&mut comp, &steps));
    }
    println!("free rigid body, T = 4\n{}", format_table(&rows));
    for r in &rows {
        let slope = r.observed_order();
        assert!(
            (slope - f64::from(r.expected_order)).abs() <= 0.2,
            "{}: observed {slope:.3}, expected {} (errors {:?}, fit {:?})",
            r.method,
            r.expected_order,
            r.errors,
            r.fit
        );
    }
}

#[test]
fn gl2_is_symmetric_so_it_can_be_composed() {
    // Φ_{−h}(Φ_h(y)) = y to round-off.
    let (y0, _, _) = rigid_body();
    let mut gl2 = methods::find("gl2").unwrap().stepper::<A>();
    let action = A::new();
    let f = field;
    for h in [0.05, 0.2] {
        let y1 = gl2.step(&action, &f, 0.0, &y0, h, None).unwrap().y;
        let back = gl2.step(&action, &f, h, &y1, -h, None).unwrap().y;
        let err = (back.q() - y0.q()).amax();
        assert!(err < 1e-14, "h = {h}: {err:e}");
    }
}

#[test]
fn composition_errors_and_names() {
    let mut comp = Composition::<AnyStepper<A>>::from_ids("kahan-li8", "gl2").unwrap();
    assert_eq!(Stepper::<A>::name(&comp), "kahan-li8(gl2)");
    assert_eq!(Stepper::<A>::order(&comp), 8);
    let (y0, _, _) = rigid_body();
    let tol = Tolerance::new(1e-6, 1e-6).unwrap();
    let r = comp.step(&A::new(), &field, 0.0, &y0, 0.1, Some(&tol));
    assert!(matches!(r, Err(SchemeError::Unsupported { .. })));
    // Work counters are the base's: 17 substeps of one implicit stage each.
    comp.reset_stats();
    comp.step(&A::new(), &field, 0.0, &y0, 0.1, None).unwrap();
    assert!(Stepper::<A>::stats(&comp).f_evals >= 17);
    // A base of odd order cannot be symmetric.
    let rk3 = methods::find("rkmk3").unwrap().stepper::<A>();
    assert!(matches!(
        Composition::new::<A>(&composition::YOSHIDA4, rk3),
        Err(SchemeError::InvalidOption { .. })
    ));
    assert!(Composition::<AnyStepper<A>>::from_ids("yoshida5", "gl2").is_err());
    assert!(Composition::<AnyStepper<A>>::from_ids("yoshida4", "gl3").is_err());
    assert_eq!(composition::find("kahan-li6").unwrap().stages(), 9);
    // gl4 (a symmetric tableau, but RKMK is not symmetric on SO(3)) is refused as a base
    // (tests/composition_symmetry.rs).
    for scheme in ["yoshida4", "kahan-li6"] {
        assert!(matches!(
            Composition::<AnyStepper<A>>::from_ids(scheme, "gl4"),
            Err(SchemeError::Unsupported { .. })
        ));
    }
}
