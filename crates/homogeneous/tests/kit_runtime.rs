//! The action kit on a runtime-sized group and action: SO(n) (n chosen at run time) rotating
//! ℝⁿ, with algebra elements and points `DVector`. `check_all` needs every object to lift to
//! dual numbers (`LiftDual`), which the user can only provide for their own types: the
//! `DVector`/`DMatrix` lifts come from the crate.

use homogeneous::testing::{
    Failure, Law, LiftDual, Observable, Sample, Tolerances, check_all, random_vector, samples_from,
};
use homogeneous::{Action, ActionInPlace};
use liegroup::{LieGroup, LieGroupInPlace};
use nalgebra::{DMatrix, DVector, RealField};
use num_dual::Dual64;

/// The dimension `n(n − 1)/2` of so(n) → `n`.
fn order_of(dim: usize) -> usize {
    (1..).find(|n| n * (n - 1) / 2 >= dim).unwrap()
}

/// so(n) coordinates → skew matrix: `X_ij = −ξ_k`, `X_ji = ξ_k` for the k-th pair `i < j`.
fn hat<T: RealField + Copy>(xi: &DVector<T>) -> DMatrix<T> {
    let n = order_of(xi.len());
    let mut x = DMatrix::zeros(n, n);
    let mut k = 0;
    for i in 0..n {
        for j in i + 1..n {
            x[(i, j)] = -xi[k];
            x[(j, i)] = xi[k];
            k += 1;
        }
    }
    x
}

/// The inverse of [`hat`] on the skew part.
fn vee<T: RealField + Copy>(x: &DMatrix<T>) -> DVector<T> {
    let n = x.nrows();
    let half = nalgebra::convert::<f64, T>(0.5);
    let mut out = Vec::with_capacity(n * (n - 1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            out.push((x[(j, i)] - x[(i, j)]) * half);
        }
    }
    DVector::from_vec(out)
}

/// Matrix logarithm of a rotation by inverse scaling and squaring: Denman–Beavers square roots
/// until `‖Y − I‖ ≤ 1/4`, then `log Y = 2 Σ_{j odd} Zʲ/j` with `Z = (Y − I)(Y + I)⁻¹`.
fn logm<T: RealField + Copy>(r: &DMatrix<T>) -> DMatrix<T> {
    let n = r.nrows();
    let eye = DMatrix::<T>::identity(n, n);
    let mut y = r.clone();
    let mut k = 0;
    while (&y - &eye).norm() > nalgebra::convert(0.25) && k < 40 {
        let (mut a, mut b) = (y.clone(), eye.clone());
        let half = nalgebra::convert::<f64, T>(0.5);
        for _ in 0..40 {
            let ai = a.clone().try_inverse().expect("invertible");
            let bi = b.clone().try_inverse().expect("invertible");
            a = (&a + &bi) * half;
            b = (&b + &ai) * half;
        }
        y = a;
        k += 1;
    }
    let z = (&y - &eye) * (&y + &eye).try_inverse().expect("invertible");
    let z2 = &z * &z;
    let mut term = z.clone();
    let mut sum = DMatrix::zeros(n, n);
    for j in (1..80).step_by(2) {
        sum += &term * nalgebra::convert::<f64, T>(1.0 / f64::from(j));
        term = &term * &z2;
    }
    sum * nalgebra::convert::<f64, T>(2.0 * f64::from(1u32 << k))
}

/// Matrix exponential by scaling and squaring of a 24-term Taylor series (generic over the
/// scalar, so dual numbers carry the derivative through it).
fn expm<T: RealField + Copy>(x: &DMatrix<T>) -> DMatrix<T> {
    let n = x.nrows();
    let mut s = 0u32;
    while x.norm() > nalgebra::convert(0.25 * f64::from(1u32 << s)) {
        s += 1;
    }
    let y = x * nalgebra::convert::<f64, T>(1.0 / f64::from(1u32 << s));
    let mut term = DMatrix::<T>::identity(n, n);
    let mut sum = term.clone();
    for k in 1..24 {
        term = &term * &y * nalgebra::convert::<f64, T>(1.0 / f64::from(k));
        sum += &term;
    }
    for _ in 0..s {
        sum = &sum * &sum;
    }
    sum
}

/// SO(n) with n fixed at run time.
#[derive(Clone, Debug, PartialEq)]
struct SoN<T: RealField + Copy>(DMatrix<T>);

impl<T: RealField + Copy> LieGroup for SoN<T> {
    type Scalar = T;
    type Algebra = DVector<T>;
    fn identity_like(&self) -> Self {
        let n = self.0.nrows();
        Self(DMatrix::identity(n, n))
    }
    fn algebra_zero(&self) -> DVector<T> {
        let n = self.0.nrows();
        DVector::zeros(n * (n - 1) / 2)
    }
    fn compose(&self, o: &Self) -> Self {
        Self(&self.0 * &o.0)
    }
    fn inverse(&self) -> Self {
        Self(self.0.transpose())
    }
    fn exp(xi: &DVector<T>) -> Self {
        Self(expm(&hat(xi)))
    }
    fn log(&self) -> DVector<T> {
        vee(&logm(&self.0))
    }
    fn bracket(x: &DVector<T>, y: &DVector<T>) -> DVector<T> {
        let (a, b) = (hat(x), hat(y));
        vee(&(&a * &b - &b * &a))
    }
    fn adjoint(&self, xi: &DVector<T>) -> DVector<T> {
        vee(&(&self.0 * hat(xi) * self.0.transpose()))
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> LieGroupInPlace for SoN<T> {}

impl LiftDual for SoN<f64> {
    type Dual = SoN<Dual64>;
    fn lift_dual(&self) -> SoN<Dual64> {
        SoN(self.0.lift_dual())
    }
}

/// SO(n) rotating ℝⁿ: `g·p = R p`, generator `ξ_M(p) = ξ̂ p`.
#[derive(Clone, Copy, Debug)]
struct RotN<T>(core::marker::PhantomData<T>);

impl<T> RotN<T> {
    const fn new() -> Self {
        Self(core::marker::PhantomData)
    }
}

impl<T: RealField + Copy> Action for RotN<T> {
    type Group = SoN<T>;
    type Point = DVector<T>;
    type Tangent = DVector<T>;
    fn act(&self, g: &SoN<T>, p: &DVector<T>) -> DVector<T> {
        &g.0 * p
    }
    fn algebra_zero(&self, p: &DVector<T>) -> DVector<T> {
        DVector::zeros(p.len() * (p.len() - 1) / 2)
    }
    fn generator(&self, xi: &DVector<T>, p: &DVector<T>) -> DVector<T> {
        hat(xi) * p
    }
    fn point_is_finite(&self, p: &DVector<T>) -> bool {
        p.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> ActionInPlace for RotN<T> {}

impl<T: homogeneous::testing::KitScalar> Observable for RotN<T> {
    fn chart(&self, _base: &DVector<T>, p: &DVector<T>) -> Vec<T> {
        p.iter().copied().collect()
    }
}

impl LiftDual for RotN<f64> {
    type Dual = RotN<Dual64>;
    fn lift_dual(&self) -> RotN<Dual64> {
        RotN::new()
    }
}

fn samples(n: usize, seed: u64) -> Vec<Sample<RotN<f64>>> {
    let m = n * (n - 1) / 2;
    samples_from::<RotN<f64>, _, _>(
        12,
        seed,
        |rng| DVector::from_column_slice(&random_vector::<_, 16>(rng, 3.0).as_slice()[..n]),
        |rng| DVector::from_column_slice(&random_vector::<_, 16>(rng, 1.5).as_slice()[..m]),
    )
}

#[test]
fn check_all_accepts_runtime_sized_rotations() {
    for n in [2, 3, 5] {
        let rep = check_all(&RotN::<f64>::new(), &samples(n, 7), &Tolerances::default())
            .unwrap_or_else(|f| panic!("n = {n}: {f}"));
        println!("n = {n}: {rep}");
    }
}

#[test]
fn lifts_of_runtime_sized_objects_keep_values_and_have_zero_derivative() {
    let v = DVector::from_vec(vec![1.0, -2.0, 3.5]);
    let d = v.lift_dual();
    assert_eq!(d.len(), 3);
    assert!(
        d.iter()
            .zip(v.iter())
            .all(|(a, b)| a.re == *b && a.eps == 0.0)
    );
    let m = DMatrix::from_fn(2, 3, |i, j| (i * 3 + j) as f64);
    let d = m.lift_dual();
    assert_eq!(d.shape(), (2, 3));
    assert!(
        d.iter()
            .zip(m.iter())
            .all(|(a, b)| a.re == *b && a.eps == 0.0)
    );
}

#[test]
fn log_inverts_exp_on_the_test_group() {
    // The group of this test is itself correct: log(exp ξ) = ξ for |ξ| < π.
    for (i, s) in samples(4, 3).iter().enumerate() {
        let back = SoN::exp(&s.xi).log();
        assert!((&back - &s.xi).amax() < 1e-12, "sample {i}");
    }
}

/// A generator with the wrong sign is caught on the runtime-sized action too.
#[derive(Clone, Copy, Debug)]
struct WrongSign<T>(RotN<T>);

impl<T: RealField + Copy> Action for WrongSign<T> {
    type Group = SoN<T>;
    type Point = DVector<T>;
    type Tangent = DVector<T>;
    fn act(&self, g: &SoN<T>, p: &DVector<T>) -> DVector<T> {
        self.0.act(g, p)
    }
    fn algebra_zero(&self, p: &DVector<T>) -> DVector<T> {
        self.0.algebra_zero(p)
    }
    fn generator(&self, xi: &DVector<T>, p: &DVector<T>) -> DVector<T> {
        -self.0.generator(xi, p)
    }
    fn point_is_finite(&self, p: &DVector<T>) -> bool {
        self.0.point_is_finite(p)
    }
}

impl<T: RealField + Copy> ActionInPlace for WrongSign<T> {}

impl<T: homogeneous::testing::KitScalar> Observable for WrongSign<T> {
    fn chart(&self, base: &DVector<T>, p: &DVector<T>) -> Vec<T> {
        self.0.chart(base, p)
    }
}

impl LiftDual for WrongSign<f64> {
    type Dual = WrongSign<Dual64>;
    fn lift_dual(&self) -> WrongSign<Dual64> {
        WrongSign(RotN::new())
    }
}

#[test]
fn check_all_rejects_a_wrong_generator_on_runtime_sized_rotations() {
    let s: Vec<Sample<WrongSign<f64>>> = samples(4, 11)
        .into_iter()
        .map(|s| Sample::new(s.p, s.g, s.h, s.xi))
        .collect();
    let err = check_all(&WrongSign(RotN::<f64>::new()), &s, &Tolerances::default()).unwrap_err();
    assert!(
        matches!(
            err,
            Failure::LawViolated {
                law: Law::GeneratorFiniteDifference | Law::GeneratorDual,
                ..
            }
        ),
        "{err}"
    );
}
