//! A planar array of magnetic dipoles (spherical compasses) \[LLM09, Ex. 5\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, same_len};
use crate::potential::{PairTerm, Potential, TermVisitor};
use crate::state::SphereState;
use crate::system::SphereSystem;
use liegroup::scalar::c;
use nalgebra::{DMatrix, DVector, RealField, Vector3};

/// `μ₀/4π = 10⁻⁷ N/A²` (with `μ₀ = 4π × 10⁻⁷ N/A²` \[LLM09, Ex. 5\]).
pub const MU0_OVER_4PI: f64 = 1e-7;

/// The interaction energy of two dipoles with moments `νᵢqᵢ`, `νⱼqⱼ` whose pivots are `rᵢⱼ`
/// apart: `φ(qᵢ, qⱼ) = k [qᵢ·qⱼ − 3 (qᵢ·r̂)(qⱼ·r̂)]`, `k = μ₀νᵢνⱼ/(4π|rᵢⱼ|³)`,
/// `r̂ = rᵢⱼ/|rᵢⱼ|` (differentiated over the six coordinates of `(qᵢ, qⱼ)`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DipoleTerm {
    /// `k = μ₀νᵢνⱼ/(4π|rᵢⱼ|³)`.
    pub k: f64,
    /// The unit vector `r̂` between the pivots.
    pub r_hat: Vector3<f64>,
}

impl PairTerm for DipoleTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, qi: &Vector3<T>, qj: &Vector3<T>) -> T {
        let r = self.r_hat.cast::<T>();
        c::<T>(self.k) * (qi.dot(qj) - c::<T>(3.0) * qi.dot(&r) * qj.dot(&r))
    }
}

/// The mutual potential of the dipole array,
/// `V(q) = ½ Σ_{i≠j} μ₀νᵢνⱼ/(4π|rᵢⱼ|³) [qᵢ·qⱼ − (3/|rᵢⱼ|²)(qᵢ·rᵢⱼ)(qⱼ·rᵢⱼ)]` \[LLM09, Ex. 5\],
/// summed over pairs `i < j`.
#[derive(Clone, Debug, PartialEq)]
pub struct DipolePotential {
    n: usize,
    pairs: Vec<(usize, usize, DipoleTerm)>,
}

impl Potential for DipolePotential {
    fn bodies(&self) -> usize {
        self.n
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        for (i, j, t) in &self.pairs {
            v.pair(*i, *j, t);
        }
    }
}

/// `n` thin bar magnets ("spherical compasses") pivoted at their centres at fixed points `pᵢ`,
/// interacting through their dipole fields \[LLM09, Ex. 5\]. Magnet `i` has mass `mᵢ`, length
/// `lᵢ` and moment `νᵢqᵢ` (A·m²), `qᵢ` pointing to its north pole:
///
/// ```text
///   M = diag(mᵢlᵢ²/12),   V = DipolePotential,
/// ```
///
/// (the factor 1/12 is the moment of inertia of a thin rod about its centre, as in the equations
/// of motion \[LLM09, eq. (3.25)\]). No gravity torque (pivot at the centre of mass) and no
/// rotational symmetry (the pivot vectors are fixed in space).
#[derive(Clone, Debug)]
pub struct DipoleArray {
    masses: Vec<f64>,
    lengths: Vec<f64>,
    moments: Vec<f64>,
    pivots: Vec<Vector3<f64>>,
    system: SphereSystem<DipolePotential>,
}

impl DipoleArray {
    /// Magnets with masses `mᵢ > 0`, lengths `lᵢ > 0`, moments `νᵢ > 0` at distinct pivots `pᵢ`.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`],
    /// [`ModelError::NonPositive`] (also `"pivot distance"` for two coincident pivots, with the
    /// index of the second), [`ModelError::NonFinite`].
    pub fn new(
        masses: Vec<f64>,
        lengths: Vec<f64>,
        moments: Vec<f64>,
        pivots: Vec<Vector3<f64>>,
    ) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        same_len("lengths", n, lengths.len())?;
        same_len("moments", n, moments.len())?;
        same_len("pivots", n, pivots.len())?;
        all_positive("mass", &masses)?;
        all_positive("length", &lengths)?;
        all_positive("magnetic moment", &moments)?;
        for (k, p) in pivots.iter().enumerate() {
            if !p.iter().all(|x| x.is_finite()) {
                return Err(ModelError::NonFinite {
                    name: "pivot",
                    index: k,
                });
            }
        }
        let mut pairs = Vec::with_capacity(n * (n - 1) / 2);
        for i in 0..n {
            for j in i + 1..n {
                let r = pivots[j] - pivots[i];
                let d = r.norm();
                if d <= 0.0 {
                    return Err(ModelError::NonPositive {
                        name: "pivot distance",
                        index: j,
                        value: d,
                    });
                }
                pairs.push((
                    i,
                    j,
                    DipoleTerm {
                        k: MU0_OVER_4PI * moments[i] * moments[j] / (d * d * d),
                        r_hat: r / d,
                    },
                ));
            }
        }
        let inertia = DMatrix::from_diagonal(&DVector::from_iterator(
            n,
            (0..n).map(|i| masses[i] * lengths[i] * lengths[i] / 12.0),
        ));
        let system = SphereSystem::new(inertia, DipolePotential { n, pairs })?;
        Ok(Self {
            masses,
            lengths,
            moments,
            pivots,
            system,
        })
    }

    /// The 4 × 4 array of \[LLM09, Ex. 5\]: 16 equal magnets, `mᵢ = 0.05 kg`, `lᵢ = 0.02 m`, on
    /// the vertices of a square grid; initially all `qᵢ = e₁`, `ωᵢ = 0` except one magnet that
    /// is tilted and spinning.
    ///
    /// Chosen here (digits lost in extraction): moment `νᵢ = 0.1 A·m²`, grid spacing
    /// `1.5 lᵢ = 0.03 m` in the `(e₁, e₂)` plane (pivots `(1.5l·a, 1.5l·b, 0)`, `a, b = 0…3`,
    /// magnet index `4b + a`), and the perturbed magnet is magnet 0 (a corner) with
    /// `q₀ = (0.8, 0, −0.6)`, `ω₀ = (0, 0.5, 0) rad/s` (printed `q = [0.·, ·, −0.·]`,
    /// `ω = [0, ·, 0]`). With these values the total energy is of order −10⁻³ J, the scale of the
    /// paper's energy plot. The paper compares the explicit variational integrator with an
    /// adaptive RK45 method (energy dissipation, unit-length drift).
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn grid_4x4() -> (Self, SphereState) {
        let (m, l, nu) = (0.05, 0.02, 0.1);
        let spacing = 1.5 * l;
        let mut pivots = Vec::with_capacity(16);
        for b in 0..4 {
            for a in 0..4 {
                pivots.push(Vector3::new(spacing * a as f64, spacing * b as f64, 0.0));
            }
        }
        let p = Self::new(vec![m; 16], vec![l; 16], vec![nu; 16], pivots).expect("valid preset");
        let mut q = vec![Vector3::x(); 16];
        let mut omega = vec![Vector3::zeros(); 16];
        q[0] = Vector3::new(0.8, 0.0, -0.6);
        omega[0] = Vector3::new(0.0, 0.5, 0.0);
        let x0 = SphereState::try_new(q, omega).expect("valid preset");
        (p, x0)
    }

    /// The masses.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// The magnet lengths.
    #[must_use]
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }
    /// The magnetic moments `νᵢ`.
    #[must_use]
    pub fn moments(&self) -> &[f64] {
        &self.moments
    }
    /// The pivot positions.
    #[must_use]
    pub fn pivots(&self) -> &[Vector3<f64>] {
        &self.pivots
    }
}

impl SphereModel for DipoleArray {
    type Potential = DipolePotential;
    fn system(&self) -> &SphereSystem<DipolePotential> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "magnetic dipole array"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::None
    }
}
