//! What a variational integrator on (S²)ⁿ needs from a mechanical system, and the scalar types
//! that can flow through it.

use liegroup::num_dual::{Derivative, Dual64, DualSVec64};
use nalgebra::{RealField, SVector, Vector3};

/// A Lagrangian system on (S²)ⁿ in the form of [LLM09, eq. (2.2)],
///
/// ```text
///   L(q, q̇) = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ − V(q₁, …, qₙ),   qᵢ ∈ S²,
/// ```
///
/// with a constant symmetric positive definite `n × n` inertia matrix `M` and a potential `V`
/// defined on the ambient space (ℝ³)ⁿ (only its component tangent to the spheres matters).
///
/// This is all [`SphereVariational`](crate::variational::SphereVariational) asks of a system, so
/// that `schemes` does not depend on any model crate (`models::SphereSystem` implements it).
/// Indices are 0-based body indices; gradients are the **ambient** gradients `∂V/∂qᵢ ∈ ℝ³`.
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use schemes::variational::SphereLagrangian;
///
/// /// One spherical pendulum, `M = (m l²)`, `V = m g l e₃·q` (`e₃` up).
/// struct Pendulum { ml2: f64, mgl: f64 }
/// impl SphereLagrangian for Pendulum {
///     fn bodies(&self) -> usize { 1 }
///     fn inertia(&self, _i: usize, _j: usize) -> f64 { self.ml2 }
///     fn potential(&self, q: &[Vector3<f64>]) -> f64 { self.mgl * q[0].z }
///     fn potential_gradient(&self, _q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
///         grad[0] = Vector3::new(0.0, 0.0, self.mgl);
///     }
///     fn hessian_vector(&self, _q: &[Vector3<f64>], _v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
///         out[0] = Vector3::zeros();
///     }
/// }
/// let p = Pendulum { ml2: 1.0, mgl: 9.81 };
/// assert!(p.has_diagonal_inertia());
/// ```
pub trait SphereLagrangian {
    /// The number `n ≥ 1` of spheres.
    fn bodies(&self) -> usize;

    /// The inertia matrix entry `Mᵢⱼ` (`M` symmetric positive definite).
    fn inertia(&self, i: usize, j: usize) -> f64;

    /// `true` when `Mᵢⱼ = 0` for `i ≠ j` (the bodies are coupled through the potential only, and
    /// the discrete equations are explicit, [LLM09, Cor. 3]). The default checks every entry
    /// (`n²` calls of [`inertia`](Self::inertia)); override it when the answer is known.
    ///
    /// [`SphereVariational`](crate::variational::SphereVariational) trusts a `true`: it then
    /// reads only the diagonal entries and never forms the `n × n` matrix.
    fn has_diagonal_inertia(&self) -> bool {
        let n = self.bodies();
        (0..n).all(|i| (0..n).all(|j| i == j || self.inertia(i, j) == 0.0))
    }

    /// The potential `V(q)`.
    fn potential(&self, q: &[Vector3<f64>]) -> f64;

    /// The ambient gradient `∂V/∂qᵢ` of the potential, written into `grad` (overwritten; one
    /// entry per body).
    fn potential_gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]);

    /// The Hessian–vector product `out = ∇²V(q)·v` in ambient coordinates (overwritten).
    ///
    /// Needed only when dual numbers flow through a step (sensitivities, the symplecticity
    /// check): the derivative part of `∂V/∂q` at a dual point `q + ε v` is `∇²V(q) v`. The
    /// default takes central differences of [`potential_gradient`](Self::potential_gradient)
    /// along `v` with the step `s = ε^{1/3}·max(1, maxᵢ|qᵢ|∞)/maxᵢ|vᵢ|∞` (about ten correct
    /// digits, and it allocates): implement it exactly when derivatives must be accurate.
    fn hessian_vector(&self, q: &[Vector3<f64>], v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
        let n = q.len();
        let vmax = v.iter().map(|x| x.amax()).fold(0.0, f64::max);
        if vmax == 0.0 {
            out.iter_mut().for_each(|o| *o = Vector3::zeros());
            return;
        }
        let qmax = q.iter().map(|x| x.amax()).fold(1.0, f64::max);
        let s = f64::EPSILON.cbrt() * qmax / vmax;
        let plus: Vec<Vector3<f64>> = q.iter().zip(v).map(|(a, b)| a + b * s).collect();
        let minus: Vec<Vector3<f64>> = q.iter().zip(v).map(|(a, b)| a - b * s).collect();
        let mut gp = vec![Vector3::zeros(); n];
        let mut gm = vec![Vector3::zeros(); n];
        self.potential_gradient(&plus, &mut gp);
        self.potential_gradient(&minus, &mut gm);
        for ((o, a), b) in out.iter_mut().zip(&gp).zip(&gm) {
            *o = (a - b) / (2.0 * s);
        }
    }
}

impl<L: SphereLagrangian + ?Sized> SphereLagrangian for &L {
    fn bodies(&self) -> usize {
        (**self).bodies()
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        (**self).inertia(i, j)
    }
    fn has_diagonal_inertia(&self) -> bool {
        (**self).has_diagonal_inertia()
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        (**self).potential(q)
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        (**self).potential_gradient(q, grad);
    }
    fn hessian_vector(&self, q: &[Vector3<f64>], v: &[Vector3<f64>], out: &mut [Vector3<f64>]) {
        (**self).hessian_vector(q, v, out);
    }
}

/// The total energy `E = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ + V(q)` with `q̇ᵢ = ωᵢ × qᵢ` [LLM09, eq. (2.2)].
///
/// # Panics
/// If `q` or `omega` do not have [`bodies`](SphereLagrangian::bodies) entries.
#[must_use]
pub fn sphere_energy<L: SphereLagrangian + ?Sized>(
    lagrangian: &L,
    q: &[Vector3<f64>],
    omega: &[Vector3<f64>],
) -> f64 {
    let n = lagrangian.bodies();
    assert_eq!(
        q.len(),
        n,
        "sphere_energy: q has the wrong number of bodies"
    );
    assert_eq!(
        omega.len(),
        n,
        "sphere_energy: ω has the wrong number of bodies"
    );
    let mut kinetic = 0.0;
    for i in 0..n {
        let vi = omega[i].cross(&q[i]);
        for j in 0..n {
            let mij = lagrangian.inertia(i, j);
            if mij != 0.0 {
                kinetic += 0.5 * mij * vi.dot(&omega[j].cross(&q[j]));
            }
        }
    }
    kinetic + lagrangian.potential(q)
}

/// The scalar types that flow through [`SphereVariational`](crate::variational::SphereVariational):
/// `f64`, and the dual numbers `Dual64` and `DualSVec64<N>` (forward-mode derivatives of a whole
/// step, e.g. its Jacobian for the symplecticity check).
///
/// A [`SphereLagrangian`] gives `∂V/∂q` in `f64` only; at a dual point `q = q₀ + Σₖ εₖ vₖ` the
/// gradient is `∂V/∂q(q₀) + Σₖ εₖ ∇²V(q₀) vₖ` (exact for first-order duals), assembled here from
/// [`SphereLagrangian::hessian_vector`].
pub trait VariationalScalar: RealField + Copy {
    /// Whether a gradient may be reused when the configuration compares equal (`==`): true for
    /// `f64`; false for dual numbers, whose `==` compares real parts only.
    const CACHE_GRADIENT: bool;

    /// The largest absolute value among the parts of the number (the value itself for `f64`;
    /// the real and derivative parts for duals). Convergence tests of implicit solves use it, so
    /// that the derivative parts converge too.
    fn magnitude(self) -> f64;

    /// `∂V/∂qᵢ` at `q` (for duals: with derivative parts `∇²V(q₀)vₖ`), written into `grad`.
    fn potential_gradient<L: SphereLagrangian + ?Sized>(
        lagrangian: &L,
        q: &[Vector3<Self>],
        grad: &mut [Vector3<Self>],
    );
}

impl VariationalScalar for f64 {
    const CACHE_GRADIENT: bool = true;
    #[inline]
    fn magnitude(self) -> f64 {
        self.abs()
    }
    #[inline]
    fn potential_gradient<L: SphereLagrangian + ?Sized>(
        lagrangian: &L,
        q: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
    ) {
        lagrangian.potential_gradient(q, grad);
    }
}

impl VariationalScalar for Dual64 {
    const CACHE_GRADIENT: bool = false;
    fn magnitude(self) -> f64 {
        self.re.abs().max(self.eps.abs())
    }
    /// Allocates (dual numbers serve derivative checks, not production runs).
    fn potential_gradient<L: SphereLagrangian + ?Sized>(
        lagrangian: &L,
        q: &[Vector3<Self>],
        grad: &mut [Vector3<Self>],
    ) {
        let n = q.len();
        let q0: Vec<Vector3<f64>> = q.iter().map(|x| x.map(|a| a.re)).collect();
        let v: Vec<Vector3<f64>> = q.iter().map(|x| x.map(|a| a.eps)).collect();
        let mut g0 = vec![Vector3::zeros(); n];
        let mut hv = vec![Vector3::zeros(); n];
        lagrangian.potential_gradient(&q0, &mut g0);
        lagrangian.hessian_vector(&q0, &v, &mut hv);
        for ((g, a), b) in grad.iter_mut().zip(&g0).zip(&hv) {
            *g = Vector3::new(
                Dual64::new(a.x, b.x),
                Dual64::new(a.y, b.y),
                Dual64::new(a.z, b.z),
            );
        }
    }
}

impl<const N: usize> VariationalScalar for DualSVec64<N> {
    const CACHE_GRADIENT: bool = false;
    fn magnitude(self) -> f64 {
        let e = self.eps.0.map_or(0.0, |e| e.amax());
        self.re.abs().max(e)
    }
    /// Allocates; `N` Hessian–vector products (dual numbers serve derivative checks, not
    /// production runs).
    fn potential_gradient<L: SphereLagrangian + ?Sized>(
        lagrangian: &L,
        q: &[Vector3<Self>],
        grad: &mut [Vector3<Self>],
    ) {
        let n = q.len();
        let q0: Vec<Vector3<f64>> = q.iter().map(|x| x.map(|a| a.re)).collect();
        let mut g0 = vec![Vector3::zeros(); n];
        lagrangian.potential_gradient(&q0, &mut g0);
        // eps[i][c] = the N derivative parts of coordinate c of gᵢ.
        let mut eps = vec![[SVector::<f64, N>::zeros(); 3]; n];
        let mut v = vec![Vector3::zeros(); n];
        let mut hv = vec![Vector3::zeros(); n];
        for k in 0..N {
            let mut any = false;
            for (vi, qi) in v.iter_mut().zip(q) {
                *vi = qi.map(|a| a.eps.0.map_or(0.0, |e| e[k]));
                any |= vi.amax() != 0.0;
            }
            if !any {
                continue;
            }
            lagrangian.hessian_vector(&q0, &v, &mut hv);
            for (e, h) in eps.iter_mut().zip(&hv) {
                for c in 0..3 {
                    e[c][k] = h[c];
                }
            }
        }
        for ((g, a), e) in grad.iter_mut().zip(&g0).zip(&eps) {
            *g = Vector3::from_fn(|c, _| DualSVec64::new(a[c], Derivative::some(e[c])));
        }
    }
}
