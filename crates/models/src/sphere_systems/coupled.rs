//! Spherical pendula coupled by linear springs \[LLM09, Ex. 3\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, non_negative, positive, same_len};
use crate::potential::{Potential, Separation, SeparationTerm, TermVisitor};
use crate::state::SphereState;
use crate::system::SphereSystem;
use crate::terms::LinearTerm;
use liegroup::scalar::c;
use nalgebra::{DMatrix, DVector, RealField, Vector3};

/// A linear spring between the midpoints of the links of pendula `i` and `j`, of stiffness `κ`
/// (N/m); its rest length is the distance between the pivots.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// The first pendulum.
    pub i: usize,
    /// The second pendulum.
    pub j: usize,
    /// The stiffness `κᵢⱼ > 0`.
    pub stiffness: f64,
}

/// The spring energy `φ(d) = ½ κ (|d| − ℓ)²` of a separation `d` and rest length `ℓ ≥ 0`
/// (`½ κ |d|²` when `ℓ = 0`, smooth at `d = 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpringTerm {
    /// The stiffness `κ`.
    pub stiffness: f64,
    /// The rest length `ℓ`.
    pub rest: f64,
}

impl SeparationTerm for SpringTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, d: &Vector3<T>) -> T {
        let half_k = c::<T>(0.5 * self.stiffness);
        if self.rest == 0.0 {
            half_k * d.norm_squared()
        } else {
            let s = d.norm() - c::<T>(self.rest);
            half_k * s * s
        }
    }
}

/// The potential of [`CoupledPendula`]: uniform gravity on each link plus springs on the
/// separations `d = rᵢⱼ + ½lⱼqⱼ − ½lᵢqᵢ` of the link midpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct CoupledPendulaPotential {
    gravity: Vec<Vector3<f64>>,
    springs: Vec<(usize, usize, Separation, SpringTerm)>,
}

impl Potential for CoupledPendulaPotential {
    fn bodies(&self) -> usize {
        self.gravity.len()
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        for (i, a) in self.gravity.iter().enumerate() {
            v.site(i, &LinearTerm { a: *a, a0: 0.0 });
        }
        for (i, j, sep, term) in &self.springs {
            v.separation(*i, *j, sep, term);
        }
    }
}

/// `n` spherical pendula with pivots in a horizontal plane, connected by linear springs at the
/// midpoints of their links \[LLM09, Ex. 3\]. `e₃` points **along** gravity:
///
/// ```text
///   M = diag(mᵢ lᵢ²),
///   V(q) = −Σᵢ mᵢ g lᵢ e₃·qᵢ + Σ_{(i,j)∈Ξ} ½ κᵢⱼ (|rᵢⱼ + ½lⱼqⱼ − ½lᵢqᵢ| − |rᵢⱼ|)²,
/// ```
///
/// `rᵢⱼ = pⱼ − pᵢ` the vector between the pivots. No rotational symmetry (the pivot offsets are
/// fixed in space).
#[derive(Clone, Debug)]
pub struct CoupledPendula {
    masses: Vec<f64>,
    lengths: Vec<f64>,
    pivots: Vec<Vector3<f64>>,
    springs: Vec<Spring>,
    g: f64,
    system: SphereSystem<CoupledPendulaPotential>,
}

impl CoupledPendula {
    /// Pendula with masses `mᵢ > 0`, lengths `lᵢ > 0`, pivot positions `pᵢ`, springs and
    /// gravity `g ≥ 0` along `+e₃`.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`] (also for a spring index out
    /// of range or a spring from a pendulum to itself: `expected` is the number of pendula),
    /// [`ModelError::NonPositive`], [`ModelError::Negative`], [`ModelError::NonFinite`].
    pub fn new(
        masses: Vec<f64>,
        lengths: Vec<f64>,
        pivots: Vec<Vector3<f64>>,
        springs: Vec<Spring>,
        g: f64,
    ) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        same_len("lengths", n, lengths.len())?;
        same_len("pivots", n, pivots.len())?;
        all_positive("mass", &masses)?;
        all_positive("length", &lengths)?;
        let g = non_negative("g", g)?;
        for (k, p) in pivots.iter().enumerate() {
            if !p.iter().all(|x| x.is_finite()) {
                return Err(ModelError::NonFinite {
                    name: "pivot",
                    index: k,
                });
            }
        }
        let mut terms = Vec::with_capacity(springs.len());
        for (k, s) in springs.iter().enumerate() {
            for idx in [s.i, s.j] {
                if idx >= n {
                    return Err(ModelError::DimensionMismatch {
                        what: "spring endpoint (index below the number of pendula)",
                        expected: n,
                        found: idx,
                    });
                }
            }
            if s.i == s.j {
                return Err(ModelError::DimensionMismatch {
                    what: "spring endpoints (two different pendula)",
                    expected: n,
                    found: s.i,
                });
            }
            let kappa = positive("stiffness", k, s.stiffness)?;
            let r = pivots[s.j] - pivots[s.i];
            terms.push((
                s.i,
                s.j,
                Separation {
                    offset: r,
                    ci: 0.5 * lengths[s.i],
                    cj: 0.5 * lengths[s.j],
                },
                SpringTerm {
                    stiffness: kappa,
                    rest: r.norm(),
                },
            ));
        }
        let gravity = (0..n)
            .map(|i| -Vector3::z() * (masses[i] * g * lengths[i]))
            .collect();
        let inertia = DMatrix::from_diagonal(&DVector::from_iterator(
            n,
            (0..n).map(|i| masses[i] * lengths[i] * lengths[i]),
        ));
        let system = SphereSystem::new(
            inertia,
            CoupledPendulaPotential {
                gravity,
                springs: terms,
            },
        )?;
        Ok(Self {
            masses,
            lengths,
            pivots,
            springs,
            g,
            system,
        })
    }

    /// The four pendula of \[LLM09, Ex. 3\] and their initial state.
    ///
    /// From the paper: `n = 4`, springs `Ξ = {(1,2), (2,3), (3,4), (4,1)}` with
    /// `κ₁₂ = 10, κ₂₃ = 20, κ₃₄ = 30, κ₄₁ = 40 N/m`, pivots on a square of side `l`:
    /// `r₁₂ = −r₃₄ = l e₁`, `r₂₃ = −r₄₁ = −l e₂`; `g = 9.81`; initially `q₁ = q₂ = q₃ = e₃`
    /// (hanging), one pendulum displaced and one moving.
    ///
    /// Chosen here (digits lost in extraction): `mᵢ = 0.1 kg`, `lᵢ = 0.5 m`,
    /// `q₄ = (0.3, 0.3, 0.9)/|·|`, `ω₁ = (−1, 0.5, 0) rad/s`, `ω₂ = ω₃ = ω₄ = 0`. Indices here are
    /// 0-based (`Spring { i: 0, j: 1, .. }` is `(1, 2)`). The paper compares the explicit
    /// variational integrator with a fixed-step RK2 method with and without projection (energy
    /// grows for both, more with projection).
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn four_pendula() -> (Self, SphereState) {
        let l = 0.5;
        let pivots = vec![
            Vector3::zeros(),
            Vector3::new(l, 0.0, 0.0),
            Vector3::new(l, -l, 0.0),
            Vector3::new(0.0, -l, 0.0),
        ];
        let springs = vec![
            Spring {
                i: 0,
                j: 1,
                stiffness: 10.0,
            },
            Spring {
                i: 1,
                j: 2,
                stiffness: 20.0,
            },
            Spring {
                i: 2,
                j: 3,
                stiffness: 30.0,
            },
            Spring {
                i: 3,
                j: 0,
                stiffness: 40.0,
            },
        ];
        let p = Self::new(vec![0.1; 4], vec![l; 4], pivots, springs, super::GRAVITY)
            .expect("valid preset");
        let x0 = SphereState::new_projected(
            vec![
                Vector3::z(),
                Vector3::z(),
                Vector3::z(),
                Vector3::new(0.3, 0.3, 0.9),
            ],
            vec![
                Vector3::new(-1.0, 0.5, 0.0),
                Vector3::zeros(),
                Vector3::zeros(),
                Vector3::zeros(),
            ],
        )
        .expect("valid preset");
        (p, x0)
    }

    /// The masses.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// The link lengths.
    #[must_use]
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }
    /// The pivot positions.
    #[must_use]
    pub fn pivots(&self) -> &[Vector3<f64>] {
        &self.pivots
    }
    /// The springs.
    #[must_use]
    pub fn springs(&self) -> &[Spring] {
        &self.springs
    }
    /// The gravitational acceleration.
    #[must_use]
    pub fn g(&self) -> f64 {
        self.g
    }
}

impl SphereModel for CoupledPendula {
    type Potential = CoupledPendulaPotential;
    fn system(&self) -> &SphereSystem<CoupledPendulaPotential> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "spring-coupled spherical pendula"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::None
    }
}
