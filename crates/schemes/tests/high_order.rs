//! Observed orders of the high-order RKMK pairs (`rkmk-tsit54`, `rkmk-vern65`, `rkmk-vern76`,
//! `rkmk-vern87`, `rkmk853`) and of their embedded solutions, on problems with exact solutions:
//!
//! (a) the free rigid body on S² under SO(3) against the exact solution in Jacobi elliptic
//!     functions \[LL76 §37\];
//! (b) the non-autonomous, non-commuting problem `Y' = hat(ω(t)) Y` on SO(3),
//!     `ω(t) = Ω + exp(tΩ̂)β`, `Y(t) = exp(tΩ̂) exp(tβ̂) Y₀` (on S² and on the group itself);
//! (c) the same problem on a copy of SO(3) **without closed-form `dexp⁻¹`** (the Bernoulli
//!     series of the `LieGroup` defaults): RKMK of order `p` keeps order `p` with the series
//!     truncated after `ad^{p−2}` \[MK99, Thm. 4.1\] (the leading term of `ad_σ^k f` vanishes,
//!     `[f, f] = 0`), and drops to order `p − 1` truncated after `ad^{p−3}` when `p` is even
//!     (the dropped `B_{p−2}` is non-zero; for odd `p` it is a zero odd Bernoulli number).
//!
//! Each slope is fitted over the asymptotic range (`schemes::fit_order`, points between
//! round-off and the pre-asymptotic regime), with at least three points used; the grids (ratio
//! √2) are chosen so that the errors lie between about 1e-4 and 1e-13
//! (`cargo test -p schemes --test high_order -- --nocapture` prints the tables).
//!
//! **Two kinds of bound.** The embedded solutions and the deliberately truncated series show
//! their order cleanly: their slope must be within ±0.3 of it. The main solutions of Verner's
//! pairs and of Tsitouras 5(4) are built to have *small principal error coefficients*: on these
//! smooth problems the terms of order `p + 1` dominate the error down to round-off (slopes near
//! 7 for the 6(5) pair and 8 for the 7(6) pair on (b)), so for them the test is one-sided,
//! `p − 0.3 ≤ slope ≤ p + 1.5`: a method of lower order than claimed fails it; that the order
//! is not higher than `p` is the order-condition checker's part (`tests/catalogue.rs`: each
//! tableau violates conditions of order `p + 1`). The free rigid body runs with the inertia
//! divided by a factor `s` per method (faster rotation, larger errors at a given step) so that
//! the window above round-off holds three points; Verner 8(7) is measured on (b) and (c) only,
//! since on the rigid body its slope stays near 10 (pre-asymptotic) until round-off.

use homogeneous::{LeftMultiplication, RotationAction, Sphere2};
use liegroup::nalgebra::Vector3;
use liegroup::{Exp, LieGroup, LieGroupInPlace, So3, StaticLieGroup};
use schemes::methods::find;
use schemes::special::jacobi_sn_cn_dn;
use schemes::{ConvergenceRow, Problem, Rkmk, Stepper, format_table, measure_order};

/// The new pairs: identifier, order, embedded order.
const PAIRS: [(&str, u32, u32); 5] = [
    ("rkmk-tsit54", 5, 4),
    ("rkmk-vern65", 6, 5),
    ("rkmk-vern76", 7, 6),
    ("rkmk-vern87", 8, 7),
    ("rkmk853", 8, 5),
];

/// Step counts `n₀·2^{k/2}`, `k = 0 … 8` (ratio √2: enough points in the asymptotic window of an
/// eighth-order method, whose error falls by 16 per point).
fn grid_from(n0: f64) -> Vec<usize> {
    grid_n(n0, 9)
}

/// `count` step counts `n₀·2^{k/2}`.
fn grid_n(n0: f64, count: u32) -> Vec<usize> {
    (0..count)
        .map(|k| (n0 * 2f64.powf(f64::from(k) / 2.0)).round() as usize)
        .collect()
}

/// [`grid_from`] with `n₀` by the order (coarsest errors near 1e-7 … 1e-9 on (a), (b), (c)).
fn grid(p: u32) -> Vec<usize> {
    grid_from(match p {
        ..=4 => 16.0,
        5 => 8.0,
        6 => 6.0,
        _ => 4.0,
    })
}

/// How a row's slope is checked (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// `|slope − p| ≤ 0.3`.
    Exact,
    /// `p − 0.3 ≤ slope ≤ p + 1.5`.
    AtLeast,
}

fn check(name: &str, rows: &[(ConvergenceRow, Bound)]) {
    let table: Vec<ConvergenceRow> = rows.iter().map(|(r, _)| r.clone()).collect();
    println!("\n{name}\n{}", format_table(&table));
    for (r, bound) in rows {
        let fit = r
            .fit
            .as_ref()
            .unwrap_or_else(|| panic!("{name}: {}: no fit", r.method));
        assert!(
            fit.used.len() >= 3,
            "{name}: {}: only {} points in the asymptotic range: {:?}",
            r.method,
            fit.used.len(),
            r.errors
        );
        let p = f64::from(r.expected_order);
        let ok = match bound {
            Bound::Exact => (fit.slope - p).abs() <= 0.3,
            Bound::AtLeast => fit.slope >= p - 0.3 && fit.slope <= p + 1.5,
        };
        assert!(
            ok,
            "{name}: {} observed order {:.3}, expected {} ({bound:?}; errors {:?}, fit {fit:?})",
            r.method, fit.slope, r.expected_order, r.errors
        );
    }
}

/// `m(t)` of the free rigid body `ṁ = m × I⁻¹m` with `m₀ = (cos 1.2, 0, sin 1.2)`,
/// `I = diag(1, 2, 3)` (Jacobi elliptic functions \[LL76 §37\], `docs/models.md`).
fn rigid_body_exact(inertia: Vector3<f64>, m0: Vector3<f64>, t: f64) -> Vector3<f64> {
    let (i1, i2, i3) = (inertia[0], inertia[1], inertia[2]);
    let m2 = m0.norm_squared();
    let e2 = m0[0] * m0[0] / i1 + m0[1] * m0[1] / i2 + m0[2] * m0[2] / i3;
    let a = (i1 * (e2 * i3 - m2) / (i3 - i1)).sqrt();
    let b = (i2 * (e2 * i3 - m2) / (i3 - i2)).sqrt();
    let c = (i3 * (m2 - e2 * i1) / (i3 - i1)).sqrt();
    let lambda = ((i3 - i2) * (m2 - e2 * i1) / (i1 * i2 * i3)).sqrt();
    let k2 = (i2 - i1) * (e2 * i3 - m2) / ((i3 - i2) * (m2 - e2 * i1));
    let (sn, cn, dn) = jacobi_sn_cn_dn(lambda * t, k2);
    Vector3::new(a * cn, b * sn, c * dn).component_mul(&Vector3::new(
        m0[0].signum(),
        1.0,
        m0[2].signum(),
    ))
}

fn sphere_distance(a: &Sphere2, b: &Sphere2) -> f64 {
    (a.q() - b.q()).amax()
}

/// The row of the registry method `id` (`embedded`: its embedded solution) on a problem on S²
/// under SO(3), on `steps`.
fn sphere_row<F>(
    problem: &Problem<RotationAction<f64>, F>,
    (y0, t_end, reference): (&Sphere2, f64, &Sphere2),
    id: &str,
    embedded: bool,
    steps: &[usize],
) -> ConvergenceRow
where
    F: homogeneous::LieVectorField<f64, Sphere2, Vector3<f64>>,
{
    let spec = find(id).unwrap();
    let mut s = if embedded {
        let e = spec.embedded_stepper::<RotationAction<f64>>().unwrap();
        let q = spec.embedded_order.unwrap();
        assert_eq!((e.order(), e.embedded_order()), (q, None), "{id}");
        e
    } else {
        spec.stepper::<RotationAction<f64>>()
    };
    measure_order(
        problem,
        &mut s,
        0.0,
        y0,
        t_end,
        reference,
        steps,
        sphere_distance,
        1e-13,
    )
    .unwrap()
}

#[test]
fn free_rigid_body_on_s2() {
    let inertia = Vector3::new(1.0, 2.0, 3.0);
    let m0 = Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin());
    let t_end = 2.0;
    // The exact solution starts at m0 and solves the ODE (central differences).
    assert!((rigid_body_exact(inertia, m0, 0.0) - m0).amax() < 1e-15);
    for t in [0.3, 1.1, 1.9] {
        let d = (rigid_body_exact(inertia, m0, t + 1e-5) - rigid_body_exact(inertia, m0, t - 1e-5))
            / 2e-5;
        let m = rigid_body_exact(inertia, m0, t);
        assert!((d - m.cross(&m.component_div(&inertia))).amax() < 1e-8);
    }
    let y0 = Sphere2::try_new(m0).unwrap();
    let scaled = |s: f64| {
        let inertia = inertia / s;
        let problem = Problem::new(RotationAction::<f64>::new(), move |_t: f64, m: &Sphere2| {
            -m.q().component_div(&inertia)
        });
        let reference = Sphere2::try_new(rigid_body_exact(inertia, m0, t_end)).unwrap();
        (problem, reference)
    };
    // (identifier, inertia scale s, n₀ and length of the grid) of the main solutions; the embedded
    // solutions run at s = 1 on `grid(q)`.
    let cases: [(&str, f64, f64, u32); 4] = [
        ("rkmk-tsit54", 5.0, 8.0, 9),
        ("rkmk-vern65", 5.0, 4.0, 7),
        ("rkmk-vern76", 5.0, 4.0, 9),
        ("rkmk853", 1.0, 2.0, 9),
    ];
    let mut rows = Vec::new();
    for (id, p, q) in PAIRS {
        if let Some(&(_, s, n0, count)) = cases.iter().find(|c| c.0 == id) {
            let (problem, reference) = scaled(s);
            let data = (&y0, t_end, &reference);
            let mut row = sphere_row(&problem, data, id, false, &grid_n(n0, count));
            assert_eq!(row.expected_order, p);
            row.method = format!("{id} (I/{s})");
            rows.push((row, Bound::AtLeast));
        }
        let (problem, reference) = scaled(1.0);
        // (The seventh-order embedded solution of Verner 8(7) reaches round-off from n = 6.)
        let steps = if q == 7 { grid_from(2.0) } else { grid(q) };
        let row = sphere_row(&problem, (&y0, t_end, &reference), id, true, &steps);
        rows.push((row, Bound::Exact));
    }
    check(
        "(a) free rigid body on S², T = 2, I = diag(1, 2, 3)/s",
        &rows,
    );
}

const OMEGA: [f64; 3] = [0.3, -1.1, 0.7];
const BETA: [f64; 3] = [0.9, 0.4, -0.5];

/// `ω(t) = Ω + exp(tΩ̂)β`.
fn omega(t: f64) -> Vector3<f64> {
    let (o, b) = (Vector3::from(OMEGA), Vector3::from(BETA));
    o + So3::exp(&(o * t)).rotate(&b)
}

/// `exp(tΩ̂) exp(tβ̂)`.
fn flow(t: f64) -> So3 {
    So3::exp(&(Vector3::from(OMEGA) * t)).compose(&So3::exp(&(Vector3::from(BETA) * t)))
}

#[test]
fn non_autonomous_rotation_on_s2() {
    let problem = Problem::new(RotationAction::<f64>::new(), |t: f64, _p: &Sphere2| {
        omega(t)
    });
    let q0 = Vector3::new(0.2, 0.6, -0.3).normalize();
    let y0 = Sphere2::try_new(q0).unwrap();
    let t_end = 2.0;
    let reference = Sphere2::try_new(flow(t_end).rotate(&q0)).unwrap();
    let data = (&y0, t_end, &reference);
    let mut rows = Vec::new();
    for (id, p, q) in PAIRS {
        let spec = find(id).unwrap();
        assert_eq!((spec.order, spec.embedded_order), (p, Some(q)), "{id}");
        // Tsitouras 5(4) reaches its fifth-order regime only below 1e-9 here.
        let n0 = if p == 5 { 16.0 } else { 2.0 };
        let row = sphere_row(&problem, data, id, false, &grid_from(n0));
        rows.push((row, Bound::AtLeast));
        rows.push((sphere_row(&problem, data, id, true, &grid(q)), Bound::Exact));
    }
    check("(b) Y' = hat(Ω + exp(tΩ̂)β) Y on S², T = 2", &rows);
}

/// SO(3) with the `LieGroup` defaults for `dexp` and `dexp⁻¹` (the Bernoulli series, no
/// closed form: `EXACT_DEXP = false`); everything else is `So3`'s.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SeriesSo3(So3);

impl LieGroup for SeriesSo3 {
    type Scalar = f64;
    type Algebra = Vector3<f64>;
    fn identity_like(&self) -> Self {
        Self(So3::identity())
    }
    fn algebra_zero(&self) -> Vector3<f64> {
        Vector3::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self(self.0.compose(&o.0))
    }
    fn inverse(&self) -> Self {
        Self(self.0.inverse())
    }
    fn exp(xi: &Vector3<f64>) -> Self {
        Self(So3::exp(xi))
    }
    fn log(&self) -> Vector3<f64> {
        self.0.log()
    }
    fn bracket(u: &Vector3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
        So3::bracket(u, v)
    }
    fn adjoint(&self, xi: &Vector3<f64>) -> Vector3<f64> {
        self.0.adjoint(xi)
    }
    fn all_finite(&self) -> bool {
        self.0.all_finite()
    }
}

impl LieGroupInPlace for SeriesSo3 {}

impl StaticLieGroup for SeriesSo3 {
    fn identity() -> Self {
        Self(So3::identity())
    }
}

type SeriesAct = LeftMultiplication<SeriesSo3>;

#[test]
fn bernoulli_truncation_follows_the_method_order_on_a_group_without_closed_forms() {
    const { assert!(!SeriesSo3::EXACT_DEXP) };
    let problem = Problem::new(SeriesAct::new(), |t: f64, _g: &SeriesSo3| omega(t));
    let g0 = SeriesSo3(So3::exp(&Vector3::new(0.4, -0.2, 0.9)));
    let t_end = 2.0;
    let reference = SeriesSo3(flow(t_end).compose(&g0.0));
    let dist = |a: &SeriesSo3, b: &SeriesSo3| a.compose(&b.inverse()).log().amax();
    let mut rows = Vec::new();
    for (id, p, _) in PAIRS {
        let spec = find(id).unwrap();
        let tab = spec.explicit_tableau().unwrap();
        // The registry stepper: the group's dexp⁻¹, here the default series (through ad¹⁴).
        let mut s = spec.stepper_without_distance::<SeriesAct>();
        rows.push((
            measure_order(
                &problem,
                &mut s,
                0.0,
                &g0,
                t_end,
                &reference,
                &grid(p),
                dist,
                1e-13,
            )
            .unwrap(),
            Bound::AtLeast,
        ));
        // Through ad^{p−2}: order p.
        let k = (p - 2) as usize;
        let mut s = Rkmk::<SeriesAct, Exp>::new(tab, Exp::series(k))
            .unwrap()
            .named(format!("{id} series ad^{k}"));
        rows.push((
            measure_order(
                &problem,
                &mut s,
                0.0,
                &g0,
                t_end,
                &reference,
                &grid(p),
                dist,
                1e-13,
            )
            .unwrap(),
            Bound::AtLeast,
        ));
        // Through ad^{p−3}: order p − 1 when B_{p−2} ≠ 0 (p even).
        if p % 2 == 0 {
            let k = (p - 3) as usize;
            let mut s = Rkmk::<SeriesAct, Exp>::new(tab, Exp::series(k))
                .unwrap()
                .named(format!("{id} series ad^{k}"));
            let mut row = measure_order(
                &problem,
                &mut s,
                0.0,
                &g0,
                t_end,
                &reference,
                &grid(p - 1),
                dist,
                1e-13,
            )
            .unwrap();
            row.expected_order = p - 1;
            rows.push((row, Bound::Exact));
        }
    }
    check(
        "(c) Y' = ω(t)·Y on SO(3) without closed-form dexp⁻¹ (Bernoulli series), T = 2",
        &rows,
    );
}
