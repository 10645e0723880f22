//! The n-body problem on the sphere with the Kozlov–Harin potential \[LLM09, Ex. 2\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, positive};
use crate::potential::{DotTerm, Potential, TermVisitor};
use crate::state::SphereState;
use crate::system::SphereSystem;
use liegroup::scalar::c;
use nalgebra::{DMatrix, RealField, Vector3};

/// The Kozlov–Harin pair term `φ(c) = −γ c/√(1 − c²) = −γ cot θ`, `c = qᵢ·qⱼ = cos θ`, the
/// analogue of the Newtonian potential on the sphere \[KH92\], \[LLM09, Ex. 2\].
/// `φ′(c) = −γ (1 − c²)^{−3/2}`. Singular at collisions (`c → 1`, attractive) and at antipodal
/// positions (`c → −1`, repulsive).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KozlovHarinTerm {
    /// The strength `γ`.
    pub gamma: f64,
}

impl DotTerm for KozlovHarinTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, cos: T) -> T {
        -c::<T>(self.gamma) * cos / (T::one() - cos * cos).sqrt()
    }
}

/// The potential `V(q) = Σ_{i<j} −γ (qᵢ·qⱼ)/√(1 − (qᵢ·qⱼ)²)` of \[LLM09, Ex. 2\] (printed there
/// as a sum over `i ≠ j` whose factor was lost in extraction; the factor ½ here is the one that
/// reproduces the equations of motion (3.21), whose force is `γ Σ_{j≠i} qⱼ/(1 − (qᵢ·qⱼ)²)^{3/2}`).
/// Invariant under all rotations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KozlovHarin {
    n: usize,
    term: KozlovHarinTerm,
}

impl KozlovHarin {
    /// The potential for `n` bodies and strength `γ`.
    #[must_use]
    pub fn new(n: usize, gamma: f64) -> Self {
        Self {
            n,
            term: KozlovHarinTerm { gamma },
        }
    }
}

impl Potential for KozlovHarin {
    fn bodies(&self) -> usize {
        self.n
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        for i in 0..self.n {
            for j in i + 1..self.n {
                v.dot(i, j, &self.term);
            }
        }
    }
}

/// `n` point masses moving on the unit sphere under the mutual Kozlov–Harin potential
/// \[LLM09, Ex. 2\]: `M = diag(mᵢ)`, `V` = [`KozlovHarin`].
#[derive(Clone, Debug)]
pub struct SphereNBody {
    masses: Vec<f64>,
    gamma: f64,
    system: SphereSystem<KozlovHarin>,
}

impl SphereNBody {
    /// Masses `mᵢ > 0` and strength `γ > 0`.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::NonPositive`], [`ModelError::NonFinite`].
    pub fn new(masses: Vec<f64>, gamma: f64) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        all_positive("mass", &masses)?;
        let gamma = positive("gamma", 0, gamma)?;
        let inertia = DMatrix::from_diagonal(&nalgebra::DVector::from_column_slice(&masses));
        let system = SphereSystem::new(inertia, KozlovHarin::new(n, gamma))?;
        Ok(Self {
            masses,
            gamma,
            system,
        })
    }

    /// The three-body problem of \[LLM09, Ex. 2\]: `m₁ = m₂ = m₃ = 1`, `γ = 1`.
    ///
    /// The paper's initial conditions lost their digits in extraction (only
    /// `q₁ = [0, −·, ·]`, `q₂ = [0, ·, ·]`, `q₃ = [−·, ·, ·]`, `ω₂ = [1, ·, ·]` and a few
    /// zeros survive). Chosen here: a perturbed Lagrange configuration, three bodies near an
    /// equilateral triangle on the great circle `x = 0`, all turning about `e₁`:
    ///
    /// ```text
    ///   q₁ = (0, −1, 0),  q₂ = (0, ½, √3/2),  q₃ = (−0.1, ½, −√3/2)/|·|,
    ///   ωᵢ = 2 e₁ projected onto the tangent plane at qᵢ.
    /// ```
    ///
    /// The exact equilateral configuration on a great circle is a relative equilibrium turning
    /// at `Ω² = 3γ/(1 − c²)^{3/2}`, `c = −½` (`Ω ≈ 2.149`); with `Ω = 2` and the displaced `q₃`
    /// the motion is a non-trivial quasi-periodic wobble in which the bodies stay at least
    /// 1.6 apart (chord distance, checked over `t ∈ [0, 40]`), far from the collision and
    /// antipodal singularities of the potential. (The start `q = (0, ±0.6, 0.8)`-type
    /// configurations collide within a second.) The paper compares the explicit variational
    /// integrator with a 2nd-order Runge–Kutta method over a range of step sizes (both second
    /// order; the energy error drops by 100 for a 10× smaller step).
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn three_body() -> (Self, SphereState) {
        let p = Self::new(vec![1.0; 3], 1.0).expect("valid preset");
        let s3 = 3f64.sqrt() / 2.0;
        let x0 = SphereState::new_projected(
            vec![
                Vector3::new(0.0, -1.0, 0.0),
                Vector3::new(0.0, 0.5, s3),
                Vector3::new(-0.1, 0.5, -s3),
            ],
            vec![Vector3::new(2.0, 0.0, 0.0); 3],
        )
        .expect("valid preset");
        (p, x0)
    }

    /// The masses.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// The strength `γ`.
    #[must_use]
    pub fn gamma(&self) -> f64 {
        self.gamma
    }
}

impl SphereModel for SphereNBody {
    type Potential = KozlovHarin;
    fn system(&self) -> &SphereSystem<KozlovHarin> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "n bodies on a sphere (Kozlov-Harin)"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::Full
    }
}
