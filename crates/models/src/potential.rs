//! Potentials on (S²)ⁿ written once, generic over the scalar, and differentiated term by term.
//!
//! A potential `V(q₁, …, qₙ)` is a sum of **terms**, each depending on few variables:
//!
//! | term kind | depends on | value written as | gradient by num-dual over |
//! |---|---|---|---|
//! | [`SiteTerm`] | one `qᵢ` | `φ(qᵢ)` | `qᵢ` (3 duals, [`site_gradient`]) |
//! | [`PairTerm`] | `qᵢ, qⱼ` | `φ(qᵢ, qⱼ)` | the 6 coordinates ([`pair_gradient`]) |
//! | [`DotTerm`] | `c = qᵢ·qⱼ` | `φ(c)` | the scalar `c` ([`dot_gradient`]) |
//! | [`RadialTerm`] | `r² = |qᵢ − qⱼ|²` | `φ(r²)` | the scalar `r²` ([`radial_gradient`]) |
//! | [`SeparationTerm`] | `d = r + cⱼqⱼ − cᵢqᵢ` | `φ(d)` | the separation `d` (3 duals, [`separation_gradient`]) |
//!
//! A [`Potential`] lists its terms once, in [`Potential::visit_terms`]; the value (for any
//! `T: RealField + Copy`, so also for dual numbers), the ambient gradient `∂V/∂qᵢ ∈ ℝ³` and the
//! Hessian–vector product are then assembled by visitors that differentiate **each term over its
//! fewest variables** and add the pieces by hand. A single dual vector over all `3n` coordinates
//! is never formed: every term would then carry a derivative part of length `3n` although it
//! depends on a few coordinates (measured in `docs/performance.md`, "Design notes measured in
//! benchmarks").
//!
//! # Writing a potential
//! ```
//! use models::{Potential, SiteTerm, DotTerm, TermVisitor};
//! use nalgebra::{RealField, Vector3};
//! use liegroup::scalar::c;
//!
//! /// V = Σᵢ k·(e₃·qᵢ) + Σᵢ κ (1 − qᵢ·qᵢ₊₁).
//! struct Chain { n: usize, k: f64, kappa: f64 }
//! struct Height(f64);
//! impl SiteTerm for Height {
//!     fn value<T: RealField + Copy>(&self, q: &Vector3<T>) -> T { q.z * c::<T>(self.0) }
//! }
//! struct Bend(f64);
//! impl DotTerm for Bend {
//!     fn value<T: RealField + Copy>(&self, cos: T) -> T { (T::one() - cos) * c::<T>(self.0) }
//! }
//! impl Potential for Chain {
//!     fn bodies(&self) -> usize { self.n }
//!     fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
//!         for i in 0..self.n { v.site(i, &Height(self.k)); }
//!         for i in 1..self.n { v.dot(i - 1, i, &Bend(self.kappa)); }
//!     }
//! }
//! let pot = Chain { n: 3, k: 2.0, kappa: 5.0 };
//! let q = vec![Vector3::z(), Vector3::x(), Vector3::z()];
//! let mut g = vec![Vector3::zeros(); 3];
//! let v = pot.gradient(&q, &mut g);
//! assert!((v - (4.0 + 10.0)).abs() < 1e-14);
//! // ∂V/∂q₁ = k e₃ − κ q₀ − κ q₂ = (0, 0, 2 − 5 − 5).
//! assert!((g[1] - Vector3::new(0.0, 0.0, -8.0)).norm() < 1e-14);
//! ```

use liegroup::scalar::{c, re};
use nalgebra::{Matrix3, RealField, SMatrix, SVector, Vector3};
use num_dual::{Dual2SVec64, DualSVec64};

/// A term `φ(qᵢ)` depending on one sphere.
pub trait SiteTerm {
    /// `φ(q)` for any scalar (f64 or a dual number).
    fn value<T: RealField + Copy>(&self, q: &Vector3<T>) -> T;
}

/// A term `φ(qᵢ, qⱼ)` depending on two spheres in a general way (differentiated over the six
/// coordinates).
pub trait PairTerm {
    /// `φ(qᵢ, qⱼ)` for any scalar.
    fn value<T: RealField + Copy>(&self, qi: &Vector3<T>, qj: &Vector3<T>) -> T;
}

/// A term `φ(qᵢ·qⱼ)` depending on the cosine of the angle between two spheres (differentiated
/// over one scalar: `∂φ/∂qᵢ = φ′ qⱼ`, `∂φ/∂qⱼ = φ′ qᵢ`).
pub trait DotTerm {
    /// `φ(c)` for any scalar, `c = qᵢ·qⱼ`.
    fn value<T: RealField + Copy>(&self, c: T) -> T;
}

/// A radial pair term `φ(r²)`, `r² = |qᵢ − qⱼ|²` (differentiated over one scalar:
/// `∂φ/∂qᵢ = 2φ′(r²)(qᵢ − qⱼ) = −∂φ/∂qⱼ`).
pub trait RadialTerm {
    /// `φ(r²)` for any scalar (without the cut-off, which the visitors apply).
    fn value<T: RealField + Copy>(&self, r2: T) -> T;
    /// Pairs with `r² ≥ cutoff_squared()` contribute nothing (value, gradient and Hessian); no
    /// cut-off by default.
    fn cutoff_squared(&self) -> Option<f64> {
        None
    }
}

/// A term `φ(d)` of an affine separation `d = r + cⱼ qⱼ − cᵢ qᵢ` between two spheres
/// (differentiated over the three coordinates of `d`: `∂φ/∂qᵢ = −cᵢ ∇φ(d)`,
/// `∂φ/∂qⱼ = cⱼ ∇φ(d)`). The coefficients are given by a [`Separation`].
pub trait SeparationTerm {
    /// `φ(d)` for any scalar.
    fn value<T: RealField + Copy>(&self, d: &Vector3<T>) -> T;
}

/// The affine map `d = offset + cj·qⱼ − ci·qᵢ` of a [`SeparationTerm`] (e.g. the vector between
/// two points at distances `cᵢ`, `cⱼ` along two pendula whose pivots are `offset` apart).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Separation {
    /// The constant part `r`.
    pub offset: Vector3<f64>,
    /// The coefficient `cᵢ` of `−qᵢ`.
    pub ci: f64,
    /// The coefficient `cⱼ` of `qⱼ`.
    pub cj: f64,
}

impl Separation {
    /// `d = offset + cj·qⱼ − ci·qᵢ` for any scalar.
    #[inline]
    #[must_use]
    pub fn apply<T: RealField + Copy>(&self, qi: &Vector3<T>, qj: &Vector3<T>) -> Vector3<T> {
        self.offset.cast::<T>() + qj * c::<T>(self.cj) - qi * c::<T>(self.ci)
    }
}

/// Receives the terms of a [`Potential`]; the value, gradient and Hessian–vector visitors of this
/// module implement it. Indices are body indices `0 … n−1`; for pair kinds `i ≠ j`.
pub trait TermVisitor {
    /// A term of one sphere.
    fn site<S: SiteTerm>(&mut self, i: usize, term: &S);
    /// A general term of two spheres.
    fn pair<P: PairTerm>(&mut self, i: usize, j: usize, term: &P);
    /// A term of `qᵢ·qⱼ`.
    fn dot<D: DotTerm>(&mut self, i: usize, j: usize, term: &D);
    /// A term of `|qᵢ − qⱼ|²`.
    fn radial<R: RadialTerm>(&mut self, i: usize, j: usize, term: &R);
    /// The same radial term for every pair `i < j` (visitors may override this with a faster
    /// loop; the default calls [`radial`](TermVisitor::radial) pair by pair).
    fn radial_all_pairs<R: RadialTerm>(&mut self, n: usize, term: &R) {
        for i in 0..n {
            for j in i + 1..n {
                self.radial(i, j, term);
            }
        }
    }
    /// A term of the separation `d = offset + cⱼqⱼ − cᵢqᵢ`.
    fn separation<S: SeparationTerm>(&mut self, i: usize, j: usize, sep: &Separation, term: &S);
}

/// A potential `V: (S²)ⁿ → ℝ` given as a sum of terms (see the [module docs](self)).
///
/// Implementors write [`bodies`](Potential::bodies) and [`visit_terms`](Potential::visit_terms);
/// the value (generic over the scalar), the gradient and the Hessian–vector product follow.
/// `V` is understood as a function on the ambient space (ℝ³)ⁿ, and its gradient is the
/// ambient gradient `∂V/∂qᵢ`; only its component tangent to the sphere enters the equations of
/// motion (through `qᵢ × ∂V/∂qᵢ`).
pub trait Potential {
    /// The number `n` of spheres.
    fn bodies(&self) -> usize;

    /// Present every term to the visitor (each unordered pair once).
    fn visit_terms<V: TermVisitor>(&self, visitor: &mut V);

    /// `V(q)` for any scalar type (f64, or a num-dual number to differentiate a whole
    /// expression; gradients are cheaper with [`gradient`](Potential::gradient)).
    ///
    /// # Panics
    /// If `q.len() != self.bodies()`.
    fn value<T: RealField + Copy>(&self, q: &[Vector3<T>]) -> T {
        assert_eq!(q.len(), self.bodies(), "potential: wrong number of spheres");
        let mut v = ValueVisitor { q, acc: T::zero() };
        self.visit_terms(&mut v);
        v.acc
    }

    /// Write the ambient gradient `∂V/∂qᵢ` into `grad` (overwritten) and return `V(q)`.
    ///
    /// Each term is differentiated with num-dual over its fewest variables and the pieces are
    /// added by hand.
    ///
    /// # Panics
    /// If `q` or `grad` do not have [`bodies`](Potential::bodies) entries.
    fn gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) -> f64 {
        assert_eq!(q.len(), self.bodies(), "potential: wrong number of spheres");
        assert_eq!(
            grad.len(),
            q.len(),
            "potential: gradient buffer of wrong size"
        );
        grad.iter_mut().for_each(|g| *g = Vector3::zeros());
        let mut v = GradientVisitor { q, grad, acc: 0.0 };
        self.visit_terms(&mut v);
        v.acc
    }

    /// The Hessian–vector product `out = ∇²V(q)·v` in ambient coordinates (overwritten), from
    /// per-term second derivatives (num-dual `Dual2` numbers over the term's variables).
    ///
    /// # Panics
    /// If the slices do not have [`bodies`](Potential::bodies) entries.
    fn hessian_vector(&self, q: &[Vector3<f64>], v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
        assert_eq!(q.len(), self.bodies(), "potential: wrong number of spheres");
        assert_eq!(v.len(), q.len(), "potential: direction of wrong size");
        assert_eq!(out.len(), q.len(), "potential: output buffer of wrong size");
        out.iter_mut().for_each(|g| *g = Vector3::zeros());
        let mut vis = HessianVectorVisitor { q, v, out };
        self.visit_terms(&mut vis);
    }
}

// ---------------------------------------------------------------------------------------------
// Per-term derivatives (public helpers for model authors)
// ---------------------------------------------------------------------------------------------

/// `(φ(q), ∇φ(q))` of a site term, by num-dual over the three coordinates of `q`
/// (`DualSVec64<3>`).
#[inline]
#[must_use]
pub fn site_gradient<S: SiteTerm>(term: &S, q: &Vector3<f64>) -> (f64, Vector3<f64>) {
    num_dual::gradient(|x: Vector3<DualSVec64<3>>| term.value(&x), q)
}

/// `(φ, ∂φ/∂qᵢ, ∂φ/∂qⱼ)` of a pair term, by num-dual over the six coordinates
/// (`DualSVec64<6>`).
#[inline]
#[must_use]
pub fn pair_gradient<P: PairTerm>(
    term: &P,
    qi: &Vector3<f64>,
    qj: &Vector3<f64>,
) -> (f64, Vector3<f64>, Vector3<f64>) {
    let x = SVector::<f64, 6>::new(qi.x, qi.y, qi.z, qj.x, qj.y, qj.z);
    let (v, g) = num_dual::gradient(
        |x: SVector<DualSVec64<6>, 6>| {
            let a = Vector3::new(x[0], x[1], x[2]);
            let b = Vector3::new(x[3], x[4], x[5]);
            term.value(&a, &b)
        },
        &x,
    );
    (
        v,
        Vector3::new(g[0], g[1], g[2]),
        Vector3::new(g[3], g[4], g[5]),
    )
}

/// `(φ(c), φ′(c))` of a dot term at `c = qᵢ·qⱼ`, by num-dual over the scalar `c` (`Dual64`).
/// The gradients are `φ′ qⱼ` (with respect to `qᵢ`) and `φ′ qᵢ` (with respect to `qⱼ`).
#[inline]
#[must_use]
pub fn dot_gradient<D: DotTerm>(term: &D, cos: f64) -> (f64, f64) {
    num_dual::first_derivative(|x| term.value(x), cos)
}

/// `(φ(r²), φ′(r²))` of a radial term, by num-dual over the scalar `r²` (`Dual64`). The
/// gradients are `±2φ′(r²)(qᵢ − qⱼ)`. The cut-off is not applied here.
#[inline]
#[must_use]
pub fn radial_gradient<R: RadialTerm>(term: &R, r2: f64) -> (f64, f64) {
    num_dual::first_derivative(|x| term.value(x), r2)
}

/// `(φ(d), ∇φ(d))` of a separation term, by num-dual over the three coordinates of `d`
/// (`DualSVec64<3>`). The gradients are `−cᵢ∇φ` (for `qᵢ`) and `cⱼ∇φ` (for `qⱼ`).
#[inline]
#[must_use]
pub fn separation_gradient<S: SeparationTerm>(term: &S, d: &Vector3<f64>) -> (f64, Vector3<f64>) {
    num_dual::gradient(|x: Vector3<DualSVec64<3>>| term.value(&x), d)
}

/// `(φ, ∇φ, ∇²φ)` of a site term, by num-dual `Dual2SVec64<3>`.
#[must_use]
pub fn site_hessian<S: SiteTerm>(term: &S, q: &Vector3<f64>) -> (f64, Vector3<f64>, Matrix3<f64>) {
    num_dual::hessian(|x: Vector3<Dual2SVec64<3>>| term.value(&x), q)
}

/// `(φ, ∇φ, ∇²φ)` of a pair term over the six coordinates `(qᵢ, qⱼ)`, by num-dual
/// `Dual2SVec64<6>`.
#[must_use]
pub fn pair_hessian<P: PairTerm>(
    term: &P,
    qi: &Vector3<f64>,
    qj: &Vector3<f64>,
) -> (f64, SVector<f64, 6>, SMatrix<f64, 6, 6>) {
    let x = SVector::<f64, 6>::new(qi.x, qi.y, qi.z, qj.x, qj.y, qj.z);
    num_dual::hessian(
        |x: SVector<Dual2SVec64<6>, 6>| {
            let a = Vector3::new(x[0], x[1], x[2]);
            let b = Vector3::new(x[3], x[4], x[5]);
            term.value(&a, &b)
        },
        &x,
    )
}

/// `(φ, φ′, φ″)` of a scalar function (dot and radial terms), by num-dual `Dual2_64`.
#[must_use]
pub fn scalar_second_derivative<F>(f: F, x: f64) -> (f64, f64, f64)
where
    F: Fn(num_dual::Dual2_64) -> num_dual::Dual2_64,
{
    num_dual::second_derivative(f, x)
}

// ---------------------------------------------------------------------------------------------
// Visitors
// ---------------------------------------------------------------------------------------------

/// Sums the term values for any scalar type.
struct ValueVisitor<'a, T: RealField + Copy> {
    q: &'a [Vector3<T>],
    acc: T,
}

impl<T: RealField + Copy> TermVisitor for ValueVisitor<'_, T> {
    fn site<S: SiteTerm>(&mut self, i: usize, term: &S) {
        self.acc += term.value(&self.q[i]);
    }
    fn pair<P: PairTerm>(&mut self, i: usize, j: usize, term: &P) {
        self.acc += term.value(&self.q[i], &self.q[j]);
    }
    fn dot<D: DotTerm>(&mut self, i: usize, j: usize, term: &D) {
        self.acc += term.value(self.q[i].dot(&self.q[j]));
    }
    fn radial<R: RadialTerm>(&mut self, i: usize, j: usize, term: &R) {
        let r2 = (self.q[i] - self.q[j]).norm_squared();
        if let Some(rc2) = term.cutoff_squared()
            && re(r2) >= rc2
        {
            return;
        }
        self.acc += term.value(r2);
    }
    fn separation<S: SeparationTerm>(&mut self, i: usize, j: usize, sep: &Separation, term: &S) {
        self.acc += term.value(&sep.apply(&self.q[i], &self.q[j]));
    }
}

/// Assembles `V` and `∂V/∂qᵢ` from per-term num-dual gradients.
struct GradientVisitor<'a> {
    q: &'a [Vector3<f64>],
    grad: &'a mut [Vector3<f64>],
    acc: f64,
}

impl TermVisitor for GradientVisitor<'_> {
    #[inline]
    fn site<S: SiteTerm>(&mut self, i: usize, term: &S) {
        let (v, g) = site_gradient(term, &self.q[i]);
        self.acc += v;
        self.grad[i] += g;
    }
    #[inline]
    fn pair<P: PairTerm>(&mut self, i: usize, j: usize, term: &P) {
        let (v, gi, gj) = pair_gradient(term, &self.q[i], &self.q[j]);
        self.acc += v;
        self.grad[i] += gi;
        self.grad[j] += gj;
    }
    #[inline]
    fn dot<D: DotTerm>(&mut self, i: usize, j: usize, term: &D) {
        let (qi, qj) = (self.q[i], self.q[j]);
        let (v, d) = dot_gradient(term, qi.dot(&qj));
        self.acc += v;
        self.grad[i] += qj * d;
        self.grad[j] += qi * d;
    }
    #[inline]
    fn radial<R: RadialTerm>(&mut self, i: usize, j: usize, term: &R) {
        let d = self.q[i] - self.q[j];
        let r2 = d.norm_squared();
        if let Some(rc2) = term.cutoff_squared()
            && r2 >= rc2
        {
            return;
        }
        let (v, dv) = radial_gradient(term, r2);
        self.acc += v;
        let g = d * (2.0 * dv);
        self.grad[i] += g;
        self.grad[j] -= g;
    }
    fn radial_all_pairs<R: RadialTerm>(&mut self, n: usize, term: &R) {
        // The pair loop with qᵢ and its gradient held in registers; the same loop structure as
        // the hand-written Lennard-Jones gradient, so that benchmarks compare the derivative
        // code only.
        let rc2 = term.cutoff_squared().unwrap_or(f64::INFINITY);
        let q = &self.q[..n];
        let grad = &mut self.grad[..n];
        let mut acc = 0.0;
        for i in 0..n {
            let qi = q[i];
            let mut gi = Vector3::zeros();
            for (qj, gj) in q[i + 1..].iter().zip(grad[i + 1..].iter_mut()) {
                let d = qi - qj;
                let r2 = d.norm_squared();
                if r2 >= rc2 {
                    continue;
                }
                let (v, dv) = radial_gradient(term, r2);
                acc += v;
                let g = d * (2.0 * dv);
                gi += g;
                *gj -= g;
            }
            grad[i] += gi;
        }
        self.acc += acc;
    }
    #[inline]
    fn separation<S: SeparationTerm>(&mut self, i: usize, j: usize, sep: &Separation, term: &S) {
        let d = sep.apply(&self.q[i], &self.q[j]);
        let (v, g) = separation_gradient(term, &d);
        self.acc += v;
        self.grad[i] -= g * sep.ci;
        self.grad[j] += g * sep.cj;
    }
}

/// Assembles `∇²V·v` from per-term second derivatives.
struct HessianVectorVisitor<'a> {
    q: &'a [Vector3<f64>],
    v: &'a [Vector3<f64>],
    out: &'a mut [Vector3<f64>],
}

impl TermVisitor for HessianVectorVisitor<'_> {
    fn site<S: SiteTerm>(&mut self, i: usize, term: &S) {
        let (_, _, h) = site_hessian(term, &self.q[i]);
        self.out[i] += h * self.v[i];
    }
    fn pair<P: PairTerm>(&mut self, i: usize, j: usize, term: &P) {
        let (_, _, h) = pair_hessian(term, &self.q[i], &self.q[j]);
        let (vi, vj) = (self.v[i], self.v[j]);
        let x = SVector::<f64, 6>::new(vi.x, vi.y, vi.z, vj.x, vj.y, vj.z);
        let y = h * x;
        self.out[i] += Vector3::new(y[0], y[1], y[2]);
        self.out[j] += Vector3::new(y[3], y[4], y[5]);
    }
    fn dot<D: DotTerm>(&mut self, i: usize, j: usize, term: &D) {
        // φ(qᵢ·qⱼ): ∂²/∂qᵢ² = φ″ qⱼqⱼᵀ, ∂²/∂qᵢ∂qⱼ = φ″ qⱼqᵢᵀ + φ′ I, ∂²/∂qⱼ² = φ″ qᵢqᵢᵀ.
        let (qi, qj) = (self.q[i], self.q[j]);
        let (vi, vj) = (self.v[i], self.v[j]);
        let (_, d1, d2) = scalar_second_derivative(|x| term.value(x), qi.dot(&qj));
        let s = d2 * (qj.dot(&vi) + qi.dot(&vj));
        self.out[i] += qj * s + vj * d1;
        self.out[j] += qi * s + vi * d1;
    }
    fn radial<R: RadialTerm>(&mut self, i: usize, j: usize, term: &R) {
        // φ(|d|²), d = qᵢ − qⱼ: ∂²/∂qᵢ² = 2φ′ I + 4φ″ ddᵀ = −∂²/∂qᵢ∂qⱼ.
        let d = self.q[i] - self.q[j];
        let r2 = d.norm_squared();
        if let Some(rc2) = term.cutoff_squared()
            && r2 >= rc2
        {
            return;
        }
        let (_, d1, d2) = scalar_second_derivative(|x| term.value(x), r2);
        let u = self.v[i] - self.v[j];
        let w = u * (2.0 * d1) + d * (4.0 * d2 * d.dot(&u));
        self.out[i] += w;
        self.out[j] -= w;
    }
    fn separation<S: SeparationTerm>(&mut self, i: usize, j: usize, sep: &Separation, term: &S) {
        // d = r + cⱼqⱼ − cᵢqᵢ: ∇²_{qᵢqᵢ} = cᵢ²H, ∇²_{qᵢqⱼ} = −cᵢcⱼH, ∇²_{qⱼqⱼ} = cⱼ²H.
        let d = sep.apply(&self.q[i], &self.q[j]);
        let (_, _, h) = num_dual::hessian(|x: Vector3<Dual2SVec64<3>>| term.value(&x), &d);
        let u = self.v[j] * sep.cj - self.v[i] * sep.ci;
        let w = h * u;
        self.out[i] -= w * sep.ci;
        self.out[j] += w * sep.cj;
    }
}
