//! The right-trivialized cotangent bundle `T*G ≅ G × 𝔤*` as the semidirect-product group
//! `G ⋉ 𝔤*`, acting on itself by left multiplication.
//!
//! See `docs/symplectic.md` §2.1–2.2 for the derivation (eqs. (S1)–(S7)), in the setting of
//! \[CMO14\] and [CCLMO22, §3.2, eqs. (13)–(14)].

use homogeneous::LeftMultiplication;
use liegroup::{LieGroup, LieGroupInPlace, So3, StaticLieGroup, StaticVectorSpace, VectorSpace};
use nalgebra::{RealField, Vector3};
use num_traits::{One, Zero};

/// `dexp*_x μ := (dexp_x)ᵀ μ`, the dual (transpose) of the right-trivialized `dexp_x`:
/// `⟨dexp*_x μ, η⟩ = ⟨μ, dexp_x η⟩` for every `η` (`docs/symplectic.md`, eq. (S1)).
///
/// Evaluated on the basis, `(dexp*_x μ)ᵢ = ⟨μ, dexp_x eᵢ⟩`, so it is exact whenever the group's
/// [`LieGroup::dexp`] is (closed forms for the shipped groups), for any group, also when the
/// coordinate basis is not orthonormal for an `Ad`-invariant product (e.g. SE(3), where
/// `dexp*_x ≠ dexp_{−x}`). On SO(3) it equals `dexp_{−x} μ`.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// use schemes::symplectic::dexp_star;
/// let (x, mu) = (Vector3::new(0.3, -0.2, 0.5), Vector3::new(1.0, 2.0, 3.0));
/// assert!((dexp_star::<So3>(&x, &mu) - So3::dexp(&-x, &mu)).norm() < 1e-15);
/// ```
#[must_use]
pub fn dexp_star<G: LieGroup>(x: &G::Algebra, mu: &G::Algebra) -> G::Algebra {
    transpose_on_basis(mu, |e| G::dexp(x, e))
}

/// `dexp⁻*_x μ := ((dexp_x)⁻¹)ᵀ μ`, the dual of `dexp_x⁻¹` (the inverse of [`dexp_star`]):
/// `⟨dexp⁻*_x μ, η⟩ = ⟨μ, dexp_x⁻¹ η⟩` (`docs/symplectic.md`, eq. (S1)). Evaluated on the basis
/// with the group's [`LieGroup::dexpinv`].
///
/// # Example
/// ```
/// use liegroup::So3;
/// use nalgebra::Vector3;
/// use schemes::symplectic::{dexp_star, dexpinv_star};
/// let (x, mu) = (Vector3::new(0.3, -0.2, 0.5), Vector3::new(1.0, 2.0, 3.0));
/// let back = dexpinv_star::<So3>(&x, &dexp_star::<So3>(&x, &mu));
/// assert!((back - mu).norm() < 1e-14);
/// ```
#[must_use]
pub fn dexpinv_star<G: LieGroup>(x: &G::Algebra, mu: &G::Algebra) -> G::Algebra {
    transpose_on_basis(mu, |e| G::dexpinv(x, e))
}

/// `Lᵀ μ` for a linear map `L` on the algebra given by its action: `(Lᵀμ)ᵢ = ⟨μ, L eᵢ⟩`.
fn transpose_on_basis<V: VectorSpace>(mu: &V, map: impl Fn(&V) -> V) -> V {
    let n = mu.dim();
    let mut unit = vec![V::Scalar::zero(); n];
    let mut result = vec![V::Scalar::zero(); n];
    let mut e = mu.zero_like();
    for (i, r) in result.iter_mut().enumerate() {
        unit[i] = V::Scalar::one();
        e.read_coords(&unit);
        unit[i] = V::Scalar::zero();
        *r = mu.inner(&map(&e));
    }
    let mut out = mu.zero_like();
    out.read_coords(&result);
    out
}

/// A point of the cotangent bundle of a Lie group in the **right trivialization**,
/// `T*G ≅ G × 𝔤*`, `p_g ↦ (g, μ)` with `μ = (T_eR_g)* p_g` ([CCLMO22, §3.2];
/// `docs/symplectic.md` §2). For a rigid body (`G = SO(3)`, `g = R` body → space) `μ = π` is the
/// **spatial** angular momentum; the body momentum is `Π = Rᵀπ`.
///
/// It is also an element of the semidirect-product group `G ⋉ 𝔤*` (eq. (S3)),
///
/// ```text
///   (g₁, μ₁)·(g₂, μ₂) = (g₁g₂, μ₁ + Ad*_{g₁⁻¹} μ₂),      (g, μ)⁻¹ = (g⁻¹, −Ad*_g μ),
///   exp(ξ, δ) = (exp ξ, dexp*_{−ξ} δ),                    log(g, μ) = (x, dexp⁻*_{−x} μ), x = log g,
///   [(ξ, α), (η, β)] = ([ξ, η], ad*_η α − ad*_ξ β),
///   Ad_{(g,μ)}(ξ, δ) = (Ad_g ξ, Ad*_{g⁻¹} δ + ad*_{Ad_g ξ} μ),
/// ```
///
/// whose left multiplication ([`CotangentAction`]) is transitive on `T*G`, with infinitesimal
/// generator `(ξ, δ)·(g, μ) = (ξg, δ − ad*_ξ μ)` (eq. (S4)). So every Lie group integrator of
/// this crate runs on `T*G` with the Hamiltonian vector field
/// [`HamiltonianVectorField`](super::HamiltonianVectorField), and the symplectic methods of
/// this module are [`Stepper`](crate::Stepper)s for [`CotangentAction`].
///
/// The algebra `𝔤 ⋉ 𝔤*` is stored as the pair `(ξ, δ)` (coordinates concatenated, `ξ` first).
/// `Ad*_{g⁻¹}` is [`LieGroup::coadjoint`]. For `G = SO(3)` the group is SE(3) with
/// `(R, π) ↔ [[R, π], [0, 1]]` (rotation first).
///
/// `dexp`/`dexp⁻¹` of `G ⋉ 𝔤*` are the default Bernoulli series of [`LieGroup`] (no closed
/// form is provided); `exp` and `log` are exact whenever the group's `dexp`/`dexp⁻¹` are.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So3};
/// use nalgebra::Vector3;
/// use schemes::symplectic::CotangentPoint;
/// let r = So3::exp(&Vector3::new(0.1, 0.2, 0.3));
/// let y = CotangentPoint::from_body(r, Vector3::new(1.0, 2.0, 3.0));
/// assert!((y.mu - r.matrix() * Vector3::new(1.0, 2.0, 3.0)).norm() < 1e-15);
/// let e = y.compose(&y.inverse());
/// assert!(e.mu.norm() < 1e-15);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CotangentPoint<G: LieGroup> {
    /// The configuration `g ∈ G`.
    pub g: G,
    /// The right-trivialized momentum `μ ∈ 𝔤*` (dual coordinates).
    pub mu: G::Algebra,
}

/// The action of `G ⋉ 𝔤*` on `T*G ≅ G ⋉ 𝔤*` by left multiplication (the one the symplectic
/// steppers of this module implement [`Stepper`](crate::Stepper) for).
pub type CotangentAction<G> = LeftMultiplication<CotangentPoint<G>>;

impl<G: LieGroup> CotangentPoint<G> {
    /// The point `(g, μ)`.
    #[must_use]
    pub fn new(g: G, mu: G::Algebra) -> Self {
        Self { g, mu }
    }
}

impl<T: RealField + Copy> CotangentPoint<So3<T>> {
    /// The point `(R, π = RΠ)` from the rotation `R` (body → space) and the **body** angular
    /// momentum `Π`.
    #[must_use]
    pub fn from_body(r: So3<T>, body_momentum: Vector3<T>) -> Self {
        let mu = r.rotate(&body_momentum);
        Self { g: r, mu }
    }

    /// The body angular momentum `Π = Rᵀπ`.
    #[must_use]
    pub fn body_momentum(&self) -> Vector3<T> {
        self.g.inverse_rotate(&self.mu)
    }
}

impl<G: LieGroup> LieGroup for CotangentPoint<G> {
    type Scalar = G::Scalar;
    type Algebra = (G::Algebra, G::Algebra);

    fn identity_like(&self) -> Self {
        Self {
            g: self.g.identity_like(),
            mu: self.mu.zero_like(),
        }
    }

    fn algebra_zero(&self) -> Self::Algebra {
        (self.g.algebra_zero(), self.mu.zero_like())
    }

    /// `(g₁g₂, μ₁ + Ad*_{g₁⁻¹} μ₂)`.
    fn compose(&self, other: &Self) -> Self {
        Self {
            g: self.g.compose(&other.g),
            mu: self.mu.added(&self.g.coadjoint(&other.mu)),
        }
    }

    /// `(g⁻¹, −Ad*_g μ)` with `Ad*_g = coadjoint(g⁻¹, ·)`.
    fn inverse(&self) -> Self {
        let g = self.g.inverse();
        let mu = g.coadjoint(&self.mu).scaled(-G::Scalar::one());
        Self { g, mu }
    }

    /// `(exp ξ, dexp*_{−ξ} δ)`.
    fn exp(xi: &Self::Algebra) -> Self {
        let minus = xi.0.scaled(-G::Scalar::one());
        Self {
            g: G::exp(&xi.0),
            mu: dexp_star::<G>(&minus, &xi.1),
        }
    }

    /// `(x, dexp⁻*_{−x} μ)` with `x = log g` (the principal logarithm of `G`).
    fn log(&self) -> Self::Algebra {
        let x = self.g.log();
        let minus = x.scaled(-G::Scalar::one());
        let delta = dexpinv_star::<G>(&minus, &self.mu);
        (x, delta)
    }

    /// `([ξ, η], ad*_η α − ad*_ξ β)`.
    fn bracket(x: &Self::Algebra, y: &Self::Algebra) -> Self::Algebra {
        let mut second = G::ad_star(&y.0, &x.1);
        second.add_scaled(-G::Scalar::one(), &G::ad_star(&x.0, &y.1));
        (G::bracket(&x.0, &y.0), second)
    }

    /// `(Ad_g ξ, Ad*_{g⁻¹} δ + ad*_{Ad_g ξ} μ)`.
    fn adjoint(&self, xi: &Self::Algebra) -> Self::Algebra {
        let a = self.g.adjoint(&xi.0);
        let mut second = self.g.coadjoint(&xi.1);
        second.add_scaled(G::Scalar::one(), &G::ad_star(&a, &self.mu));
        (a, second)
    }

    fn all_finite(&self) -> bool {
        self.g.all_finite() && self.mu.all_finite()
    }
}

/// The default in-place forms (integrators on `T*G` move their points through them).
impl<G: LieGroup> LieGroupInPlace for CotangentPoint<G> {}

impl<G: StaticLieGroup> StaticLieGroup for CotangentPoint<G> {
    fn identity() -> Self {
        Self {
            g: G::identity(),
            mu: <G::Algebra as StaticVectorSpace>::zero_vector(),
        }
    }
}
