//! Pure bending of an elastic rod of rigid elements joined by rotational springs \[LLM09, Ex. 4\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, non_negative, positive, same_len, unit};
use crate::potential::{DotTerm, Potential, TermVisitor};
use crate::state::SphereState;
use crate::system::SphereSystem;
use crate::terms::LinearTerm;
use liegroup::scalar::c;
use nalgebra::{DMatrix, RealField, Vector3};

/// The bending term `φ(c) = ½ κ (1 − c)`, `c = qᵢ₋₁·qᵢ` the cosine of the angle between two
/// neighbouring elements (`≈ ¼ κ θ²` for small angles) \[LLM09, Ex. 4\].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BendingTerm {
    /// The spring constant `κ`.
    pub stiffness: f64,
}

impl DotTerm for BendingTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, cos: T) -> T {
        c::<T>(0.5 * self.stiffness) * (T::one() - cos)
    }
}

/// The potential of [`ElasticRod`]: gravity on every element plus the bending springs, the
/// first one against the clamped direction `q₀`.
#[derive(Clone, Debug, PartialEq)]
pub struct RodPotential {
    gravity: Vec<Vector3<f64>>,
    stiffness: Vec<f64>,
    clamp: Vector3<f64>,
}

impl Potential for RodPotential {
    fn bodies(&self) -> usize {
        self.gravity.len()
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        for (i, a) in self.gravity.iter().enumerate() {
            v.site(i, &LinearTerm { a: *a, a0: 0.0 });
        }
        // ½κ₁(1 − q₀·q₁) is linear in q₁.
        let k1 = 0.5 * self.stiffness[0];
        v.site(
            0,
            &LinearTerm {
                a: -self.clamp * k1,
                a0: k1,
            },
        );
        for i in 1..self.gravity.len() {
            v.dot(
                i - 1,
                i,
                &BendingTerm {
                    stiffness: self.stiffness[i],
                },
            );
        }
    }
}

/// A rod of `n + 1` rigid uniform elements joined by rotational springs, the zeroth element
/// clamped to a wall along the fixed unit vector `q₀`; configuration `(q₁, …, qₙ) ∈ (S²)ⁿ`
/// \[LLM09, Ex. 4\]. Element `i` has mass `mᵢ`, length `lᵢ`, moment of inertia `mᵢlᵢ²/12` about
/// its centre; its centre of mass is at `Σ_{j<i} lⱼqⱼ + ½lᵢqᵢ` (from the free end of element
/// 0). `e₃` points **along** gravity.
///
/// ```text
///   Mᵢᵢ = (⅓mᵢ + Σ_{k>i} m_k) lᵢ²,     Mᵢⱼ = (½mⱼ + Σ_{k>j} m_k) lᵢ lⱼ  (i < j),
///   V(q) = −Σᵢ mᵢ g (Σ_{j<i} lⱼqⱼ + ½lᵢqᵢ)·e₃ + Σᵢ ½κᵢ (1 − qᵢ₋₁·qᵢ).
/// ```
///
/// The inertia matrix was derived here from the kinetic energy
/// `Σᵢ ½mᵢ|ċᵢ|² + ½(mᵢlᵢ²/12)|q̇ᵢ|²`; it agrees with the digits that survive in [LLM09, eq.
/// (3.24)] for equal elements (`Mᵢᵢ = (n − i + ⅓) ml²/(n+1)³`, `Mᵢⱼ = (n − j + ½) ml²/(n+1)³`,
/// `j > i`). The bending energy `½κᵢ(1 − qᵢ₋₁·qᵢ)` is as printed. The clamp breaks the
/// rotational symmetry.
#[derive(Clone, Debug)]
pub struct ElasticRod {
    masses: Vec<f64>,
    lengths: Vec<f64>,
    stiffness: Vec<f64>,
    g: f64,
    clamp: Vector3<f64>,
    system: SphereSystem<RodPotential>,
}

impl ElasticRod {
    /// The rod with element masses `mᵢ > 0`, lengths `lᵢ > 0` and spring constants `κᵢ > 0`
    /// (`κ₁` between the clamped element and element 1), gravity `g ≥ 0` along `+e₃`, clamped
    /// direction `q₀` (unit).
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`],
    /// [`ModelError::NonPositive`], [`ModelError::Negative`], [`ModelError::NotUnit`],
    /// [`ModelError::NonFinite`].
    pub fn new(
        masses: Vec<f64>,
        lengths: Vec<f64>,
        stiffness: Vec<f64>,
        g: f64,
        clamp: Vector3<f64>,
    ) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        same_len("lengths", n, lengths.len())?;
        same_len("stiffness", n, stiffness.len())?;
        all_positive("mass", &masses)?;
        all_positive("length", &lengths)?;
        for (i, &k) in stiffness.iter().enumerate() {
            positive("stiffness", i, k)?;
        }
        let g = non_negative("g", g)?;
        let clamp = unit("clamp direction", 0, &clamp)?;
        // Tail sums Σ_{k>i} m_k.
        let mut after = vec![0.0; n];
        let mut acc = 0.0;
        for i in (0..n).rev() {
            after[i] = acc;
            acc += masses[i];
        }
        let inertia = DMatrix::from_fn(n, n, |i, j| {
            if i == j {
                (masses[i] / 3.0 + after[i]) * lengths[i] * lengths[i]
            } else {
                let k = i.max(j);
                (0.5 * masses[k] + after[k]) * lengths[i] * lengths[j]
            }
        });
        let gravity = (0..n)
            .map(|k| -Vector3::z() * (g * lengths[k] * (0.5 * masses[k] + after[k])))
            .collect();
        let system = SphereSystem::new(
            inertia,
            RodPotential {
                gravity,
                stiffness: stiffness.clone(),
                clamp,
            },
        )?;
        Ok(Self {
            masses,
            lengths,
            stiffness,
            g,
            clamp,
            system,
        })
    }

    /// `n` equal elements of a rod of total mass `m` and length `l` split into `n + 1` elements
    /// (the clamped one included): `mᵢ = m/(n+1)`, `lᵢ = l/(n+1)` \[LLM09, Ex. 4\], all springs
    /// `κ`, clamped along `q₀`.
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn uniform(
        n: usize,
        total_mass: f64,
        total_length: f64,
        stiffness: f64,
        g: f64,
        clamp: Vector3<f64>,
    ) -> Result<Self, ModelError> {
        let k = (n + 1) as f64;
        Self::new(
            vec![total_mass / k; n],
            vec![total_length / k; n],
            vec![stiffness; n],
            g,
            clamp,
        )
    }

    /// The rod of \[LLM09, Ex. 4\]: `n = 10`, `m = 55 g`, `κᵢ = 1000`, `g = 9.81`, horizontal at
    /// rest (`qᵢ = e₁` for all `i`) except for an impact on the free end; `T = 3 s`.
    ///
    /// Chosen here (digits lost in extraction): total length `l = 1.1 m` (printed "1.·"), clamp
    /// `q₀ = e₁` (so the initial rod is straight and the springs unstretched), and the impact
    /// velocity `ωₙ = (0, 0, 10) rad/s` on the last element (printed `ω = [0, ·, 10]`), all other
    /// `ωᵢ = 0`. The system is stiff: with these values the highest bending frequency is of order
    /// 10⁴ rad/s. The paper reports energy dissipation and unit-length drift for an adaptive RK45
    /// method and bounded errors for the variational integrator.
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn lee_leok_mcclamroch() -> (Self, SphereState) {
        let n = 10;
        let p = Self::uniform(n, 0.055, 1.1, 1000.0, super::GRAVITY, Vector3::x())
            .expect("valid preset");
        let mut omega = vec![Vector3::zeros(); n];
        omega[n - 1] = Vector3::new(0.0, 0.0, 10.0);
        let x0 = SphereState::try_new(vec![Vector3::x(); n], omega).expect("valid preset");
        (p, x0)
    }

    /// The element masses.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// The element lengths.
    #[must_use]
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }
    /// The spring constants.
    #[must_use]
    pub fn stiffness(&self) -> &[f64] {
        &self.stiffness
    }
    /// The gravitational acceleration.
    #[must_use]
    pub fn g(&self) -> f64 {
        self.g
    }
    /// The clamped direction `q₀`.
    #[must_use]
    pub fn clamp(&self) -> Vector3<f64> {
        self.clamp
    }
}

impl SphereModel for ElasticRod {
    type Potential = RodPotential;
    fn system(&self) -> &SphereSystem<RodPotential> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "elastic rod"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::None
    }
}
