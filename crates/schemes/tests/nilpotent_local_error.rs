//! An order check that does not go through the order conditions: the local error of one step on
//! a nilpotent matrix group, fitted as a power series in `h` (issue 24, item 2).
//!
//! **The problem.** `G` is the group of 6 × 6 upper unitriangular matrices, `𝔤` the strictly
//! upper triangular ones (dimension 15; `ad_X⁵ = 0` and products of six elements of `𝔤`
//! vanish). The field is linear and non-autonomous, `Ẏ = A(t)·Y` with
//! `A(t) = A₀ + t A₁ + t² A₂ ∈ 𝔤`, so the flow is the terminating Dyson (Picard) series
//!
//! ```text
//!   Φ(t) = I + P₁(t) + … + P₅(t),   P₀ = I,   P_k(t) = ∫₀ᵗ A(s) P_{k−1}(s) ds,
//! ```
//!
//! each `P_k` a matrix polynomial computed exactly (up to the rounding of its coefficients).
//!
//! **The check.** For a method of order `p` the local error
//! `E(h) = Y₁(h) − Φ(h)·Y₀ = Σ_k e_k h^k` has `e_1 = … = e_p = 0`: `Φ` and, for every explicit
//! method, `Y₁(h)` are polynomials in `h` here (exp, log, Cayley and the `dexp⁻¹` series all
//! terminate), and for the implicit ones analytic in `h`. We evaluate `E` at 40 Chebyshev
//! points of `[−H, H]`, fit a polynomial of degree 18 in `s = h/H` by least squares, and
//! require the scaled coefficients `|e_k| H^k` of degrees `k ≤ p` to vanish to
//! `TOL = 1e-12` — while `e_{p+1}` does not (the stated order is not an understatement
//! that would hide a wrong coefficient of the next order).
//!
//! Unlike the abelian collapse of the coefficients (classical order conditions), the
//! brackets of this algebra see where a coefficient sits among the exponentials: moving
//! `10⁻⁶` of a CF4 coefficient from one exponential to the other changes `e_3` by about
//! `10⁻⁶·[A₀, A₁]/12`, which the last test shows is caught. It runs for every catalogue method
//! and for every coordinate map — exp with the group's `dexp⁻¹` (here the terminating
//! Bernoulli series), exp with the series truncated through `ad^{p−2}` (`RkmkSeries`), and the
//! Cayley map for every explicit tableau.

use homogeneous::LeftMultiplication;
use liegroup::nalgebra::{DMatrix, DVector, SMatrix, SVector};
use liegroup::{Cayley, CayleyGroup, LieGroup, LieGroupInPlace, StaticLieGroup};
use schemes::catalogue::{CF4, TABLEAUX};
use schemes::methods::{METHODS, NoDistance};
use schemes::{CfStage, CommutatorFree, CommutatorFreeScheme, ExpProduct, Problem, Rkmk, Stepper};

const N: usize = 6;
const D: usize = N * (N - 1) / 2;
type Mat = SMatrix<f64, N, N>;
type Alg = SVector<f64, D>;

/// Strictly upper triangular entries `(i, j)`, `i < j`, row by row.
fn index_pairs() -> impl Iterator<Item = (usize, usize)> {
    (0..N).flat_map(|i| (i + 1..N).map(move |j| (i, j)))
}

fn hat(v: &Alg) -> Mat {
    let mut m = Mat::zeros();
    for (k, (i, j)) in index_pairs().enumerate() {
        m[(i, j)] = v[k];
    }
    m
}

fn vee(m: &Mat) -> Alg {
    Alg::from_iterator(index_pairs().map(|(i, j)| m[(i, j)]))
}

/// `Σ_{k<N} c_k X^k` for a strictly upper triangular `X` (`X^N = 0`).
fn nilpotent_series(x: &Mat, c: impl Fn(usize) -> f64) -> Mat {
    let mut sum = Mat::identity() * c(0);
    let mut power = Mat::identity();
    for k in 1..N {
        power *= x;
        sum += power * c(k);
    }
    sum
}

fn factorial(k: usize) -> f64 {
    (1..=k).map(|i| i as f64).product()
}

/// An upper unitriangular 6 × 6 matrix: a nilpotent Lie group written as a user would.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Unipotent(Mat);

impl LieGroup for Unipotent {
    type Scalar = f64;
    type Algebra = Alg;
    fn identity_like(&self) -> Self {
        Self(Mat::identity())
    }
    fn algebra_zero(&self) -> Alg {
        Alg::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self(self.0 * o.0)
    }
    fn inverse(&self) -> Self {
        // (I + N)⁻¹ = Σ (−N)^k.
        let n = self.0 - Mat::identity();
        Self(nilpotent_series(
            &n,
            |k| if k % 2 == 0 { 1.0 } else { -1.0 },
        ))
    }
    fn exp(xi: &Alg) -> Self {
        Self(nilpotent_series(&hat(xi), |k| 1.0 / factorial(k)))
    }
    fn log(&self) -> Alg {
        // log(I + N) = Σ_{k≥1} (−1)^{k+1} N^k / k.
        let n = self.0 - Mat::identity();
        let l = nilpotent_series(&n, |k| {
            if k == 0 {
                0.0
            } else {
                (if k % 2 == 1 { 1.0 } else { -1.0 }) / k as f64
            }
        });
        vee(&l)
    }
    fn bracket(x: &Alg, y: &Alg) -> Alg {
        let (a, b) = (hat(x), hat(y));
        vee(&(a * b - b * a))
    }
    fn adjoint(&self, xi: &Alg) -> Alg {
        vee(&(self.0 * hat(xi) * self.inverse().0))
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl LieGroupInPlace for Unipotent {}

impl StaticLieGroup for Unipotent {
    fn identity() -> Self {
        Self(Mat::identity())
    }
}

impl CayleyGroup for Unipotent {
    /// `cay(ξ) = (I − ξ/2)⁻¹(I + ξ/2)`, the inverse a terminating Neumann series.
    fn cay(xi: &Alg) -> Self {
        let half = hat(xi) * 0.5;
        Self(nilpotent_series(&half, |_| 1.0) * (Mat::identity() + half))
    }
    /// `dcay_u v = (I − u/2)⁻¹ v (I + u/2)⁻¹` [HLW06, §IV.8.3].
    fn dcay(u: &Alg, v: &Alg) -> Alg {
        let half = hat(u) * 0.5;
        let left = nilpotent_series(&half, |_| 1.0);
        let right = nilpotent_series(&half, |k| if k % 2 == 0 { 1.0 } else { -1.0 });
        vee(&(left * hat(v) * right))
    }
    /// `dcay_u⁻¹ w = (I − u/2) w (I + u/2)`.
    fn dcayinv(u: &Alg, w: &Alg) -> Alg {
        let half = hat(u) * 0.5;
        vee(&((Mat::identity() - half) * hat(w) * (Mat::identity() + half)))
    }
}

type Act = LeftMultiplication<Unipotent>;

/// `A(t) = A₀ + t A₁ + t² A₂`, entries of size about 1 and no two of the `A_k` commuting.
fn coefficients() -> [Mat; 3] {
    let entry = |k: usize, i: usize, j: usize| {
        let x = (1 + k * 37 + i * 11 + j * 5) as f64;
        (x * 0.618_033_988_749_895).fract() * 1.6 - 0.8
    };
    let mut a = [Mat::zeros(); 3];
    for (k, m) in a.iter_mut().enumerate() {
        for (i, j) in index_pairs() {
            m[(i, j)] = entry(k, i, j);
        }
    }
    a
}

fn field(t: f64, _y: &Unipotent) -> Alg {
    let [a0, a1, a2] = coefficients();
    vee(&(a0 + a1 * t + a2 * (t * t)))
}

/// A matrix polynomial `Σ_k c_k t^k`.
type MatPoly = Vec<Mat>;

/// The flow `Φ(t) = Σ_{k<N} P_k(t)` of `Ẏ = A(t)Y` as a matrix polynomial (module docs).
fn flow() -> MatPoly {
    let a = coefficients();
    let mut term: MatPoly = vec![Mat::identity()];
    let mut total = term.clone();
    for _ in 1..N {
        // A(s)·P(s), then ∫₀ᵗ.
        let mut product = vec![Mat::zeros(); term.len() + a.len() - 1];
        for (i, ai) in a.iter().enumerate() {
            for (j, pj) in term.iter().enumerate() {
                product[i + j] += ai * pj;
            }
        }
        term = std::iter::once(Mat::zeros())
            .chain(
                product
                    .iter()
                    .enumerate()
                    .map(|(k, c)| c / (k as f64 + 1.0)),
            )
            .collect();
        total.resize(term.len(), Mat::zeros());
        for (t, p) in total.iter_mut().zip(&term) {
            *t += p;
        }
    }
    total
}

fn evaluate(p: &MatPoly, t: f64) -> Mat {
    p.iter().rev().fold(Mat::zeros(), |acc, c| acc * t + c)
}

/// The start point: a fixed unipotent matrix (not the identity, so that a wrong side of the
/// action would show).
fn y0() -> Unipotent {
    let mut v = Alg::zeros();
    for k in 0..D {
        v[k] = 0.3 * ((k as f64 + 0.5) * 1.3).sin();
    }
    Unipotent::exp(&v)
}

const H: f64 = 0.5;
const POINTS: usize = 40;
const DEGREE: usize = 18;
/// A vanishing scaled coefficient `|e_k| H^k`: the rounding of `E(h)` (a few ulps of entries
/// of size ≤ 10) amplified by the least-squares fit (condition ≈ 10³ for degree 18 on
/// Chebyshev points) stays below 2e-13 (observed over every method); a wrong coefficient shows
/// at 1e-8 or more (the last test).
const TOL: f64 = 1e-12;

/// The scaled coefficients `|e_k| H^k`, `k = 1 … DEGREE`, of the local error of `stepper`
/// (largest over the matrix entries).
fn local_error_coefficients<S: Stepper<Act>>(stepper: &mut S) -> Vec<f64> {
    let problem = Problem::new(Act::new(), field);
    let phi = flow();
    let start = y0();
    let hs: Vec<f64> = (0..POINTS)
        .map(|j| H * (std::f64::consts::PI * (j as f64 + 0.5) / POINTS as f64).cos())
        .collect();
    // Rows: the points; columns: s^k, k = 1 … DEGREE (E(0) = 0 exactly).
    let vandermonde = DMatrix::from_fn(POINTS, DEGREE, |r, c| (hs[r] / H).powi(c as i32 + 1));
    let svd = vandermonde.svd(true, true);
    let errors: Vec<Mat> = hs
        .iter()
        .map(|&h| {
            let out = stepper
                .step(&problem.action, &problem.field, 0.0, &start, h, None)
                .unwrap_or_else(|e| panic!("{}: step h = {h}: {e}", stepper.name()));
            out.y.0 - evaluate(&phi, h) * start.0
        })
        .collect();
    let mut worst = vec![0.0_f64; DEGREE];
    for (i, j) in index_pairs() {
        let rhs = DVector::from_iterator(POINTS, errors.iter().map(|e| e[(i, j)]));
        let coefficients = svd.solve(&rhs, 1e-300).expect("the fit is well posed");
        for (w, c) in worst.iter_mut().zip(coefficients.iter()) {
            *w = w.max(c.abs());
        }
    }
    worst
}

/// `[1.2e-3, …]`.
fn list(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x:.1e}")).collect();
    format!("[{}]", items.join(", "))
}

/// `e_1 … e_p` vanish and `e_{p+1}` does not (for methods whose order on this linear problem
/// is exactly `p`).
fn check(name: &str, order: u32, coefficients: &[f64], next_must_show: bool) {
    let p = order as usize;
    eprintln!(
        "{name:>28} p = {p}: {}",
        list(&coefficients[..(p + 3).min(coefficients.len())])
    );
    for (k, &c) in coefficients.iter().enumerate().take(p) {
        assert!(
            c <= TOL,
            "{name} (order {p}): the h^{} coefficient of the local error is {c:.2e}; all: {}",
            k + 1,
            list(coefficients)
        );
    }
    if next_must_show {
        assert!(
            coefficients[p] > 1e3 * TOL,
            "{name} (order {p}): the h^{} coefficient {:.2e} vanishes too: is the stated order too low? all: {}",
            p + 1,
            coefficients[p],
            list(coefficients)
        );
    }
}

/// Methods whose order on a *linear* non-autonomous problem is higher than their order, so
/// the first nonzero coefficient is not `e_{p+1}`: none known in the catalogue, but a method
/// may be listed here with the reason.
const HIGHER_ON_LINEAR: &[&str] = &[];

#[test]
fn every_catalogue_method_has_a_local_error_of_its_order_on_a_nilpotent_group() {
    let mut checked = 0;
    for spec in METHODS {
        let mut stepper = spec.stepper_without_distance::<Act>();
        let c = local_error_coefficients(&mut stepper);
        check(
            spec.id,
            spec.order,
            &c,
            !HIGHER_ON_LINEAR.contains(&spec.id),
        );
        checked += 1;
    }
    assert_eq!(checked, METHODS.len());
    assert!(checked >= 20, "{checked} methods");
}

#[test]
fn every_explicit_tableau_in_cayley_coordinates_has_its_order() {
    let mut checked = 0;
    for tab in TABLEAUX.iter().filter(|t| t.is_explicit()) {
        let mut stepper = Rkmk::<Act, Cayley>::new(tab, Cayley).unwrap();
        let c = local_error_coefficients(&mut stepper);
        check(&format!("{} (Cayley)", tab.name), tab.order, &c, true);
        checked += 1;
    }
    assert!(checked >= 8, "{checked} tableaux");
}

/// The check sees a coefficient moved between exponentials, which the classical (abelian)
/// conditions cannot: `10⁻⁶` of `k₁`'s weight moved from the second exponential of CF4's update
/// to the first keeps every row sum, and its abelian collapse is still RK4.
#[test]
fn a_coefficient_moved_between_exponentials_is_caught() {
    let shift = 1e-6;
    let mut rows: Vec<Vec<f64>> = CF4.update.factors.iter().map(|r| r.to_vec()).collect();
    rows[0][0] -= shift;
    rows[1][0] += shift;
    let rows: &'static [&'static [f64]] = Box::leak(
        rows.into_iter()
            .map(|r| &*Box::leak(r.into_boxed_slice()))
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let stages: &'static [CfStage] = CF4.stages;
    let mutated = CommutatorFreeScheme {
        name: "CF4 (mutated)",
        update: ExpProduct::new(CF4.update.base, rows),
        stages,
        ..CF4
    };
    let mut good = CommutatorFree::<Act>::new(&CF4)
        .unwrap()
        .with_distance(NoDistance);
    let mut bad = CommutatorFree::<Act>::new(&mutated)
        .unwrap()
        .with_distance(NoDistance);
    let (cg, cb) = (
        local_error_coefficients(&mut good),
        local_error_coefficients(&mut bad),
    );
    check("CF4", 4, &cg, true);
    eprintln!("{:>28} p = 4: {}", "CF4 mutated", list(&cb[..7]));
    let worst_low = cb[..4].iter().copied().fold(0.0, f64::max);
    assert!(
        worst_low > 100.0 * TOL,
        "the mutation is invisible: {}",
        list(&cb)
    );
}
