//! Rigid bodies with a fixed point (free rigid body, heavy top) as Hamiltonians on `T*SO(3)`.
//!
//! Conventions: `R ∈ SO(3)` maps body to space coordinates; `Π` is the body angular momentum,
//! `π = RΠ` the spatial one; the body frame is a principal frame, `I = diag(I₁, I₂, I₃)` the
//! inertia about the fixed point; `e₃` points **up**, against gravity.

use super::cotangent::CotangentPoint;
use super::hamiltonian::CotangentHamiltonian;
use crate::error::SchemeError;
use core::fmt::Debug;
use liegroup::So3;
use liegroup::scalar::c;
use nalgebra::{RealField, Vector3};

/// A potential `U(R)` of a rigid body, with its body-frame moment `M(R)`.
///
/// `M` is minus the left-trivialized derivative of `U`:
/// `⟨M(R), η⟩ = −d/dε U(R exp(εη̂))|₀`, equivalently `S(M) = (∂U/∂R)ᵀR − Rᵀ(∂U/∂R)` with
/// `∂U/∂R` the matrix of partial derivatives \[LLM07\]. The body equations
/// are `Π̇ = Π × Ω + M(R)`, and the right-trivialized derivative of `U` is `−R M(R)`.
pub trait RigidBodyPotential<T: RealField + Copy>: Clone + Debug {
    /// `U(R)`.
    fn potential(&self, r: &So3<T>) -> T;
    /// The body-frame moment `M(R)`.
    fn moment(&self, r: &So3<T>) -> Vector3<T>;
}

/// No potential: the free rigid body (`U = 0`, `M = 0`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoPotential;

impl<T: RealField + Copy> RigidBodyPotential<T> for NoPotential {
    fn potential(&self, _r: &So3<T>) -> T {
        T::zero()
    }
    fn moment(&self, _r: &So3<T>) -> Vector3<T> {
        Vector3::zeros()
    }
}

/// Uniform gravity on a body with a fixed point (the heavy top):
/// `U(R) = m g e₃·(R X)`, `M(R) = m g (Rᵀe₃) × X`, with `m` the
/// mass, `g` the gravitational acceleration (along `−e₃`) and `X` the centre of mass in body
/// coordinates, measured from the fixed point (`X = ℓχ` in [CCLMO22, §3.4]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UniformGravity {
    mass: f64,
    gravity: f64,
    center_of_mass: Vector3<f64>,
}

impl UniformGravity {
    /// Gravity with mass `m`, acceleration `g` (along `−e₃`) and body centre of mass `X`.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] if a value is not finite.
    pub fn new(mass: f64, gravity: f64, center_of_mass: Vector3<f64>) -> Result<Self, SchemeError> {
        if !(mass.is_finite()
            && gravity.is_finite()
            && center_of_mass.iter().all(|x| x.is_finite()))
        {
            return Err(SchemeError::InvalidOption {
                name: "gravity",
                reason: format!(
                    "mass, acceleration and centre of mass must be finite, got m = {mass}, g = {gravity}, X = {center_of_mass:?}"
                ),
            });
        }
        Ok(Self {
            mass,
            gravity,
            center_of_mass,
        })
    }

    /// The mass `m`.
    #[must_use]
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The gravitational acceleration `g` (along `−e₃`).
    #[must_use]
    pub fn gravity(&self) -> f64 {
        self.gravity
    }

    /// The body centre of mass `X`.
    #[must_use]
    pub fn center_of_mass(&self) -> Vector3<f64> {
        self.center_of_mass
    }
}

impl<T: RealField + Copy> RigidBodyPotential<T> for UniformGravity {
    fn potential(&self, r: &So3<T>) -> T {
        let x: Vector3<T> = self.center_of_mass.cast();
        c::<T>(self.mass * self.gravity) * r.rotate(&x)[2]
    }
    fn moment(&self, r: &So3<T>) -> Vector3<T> {
        let x: Vector3<T> = self.center_of_mass.cast();
        // Rᵀe₃ is the third row of R.
        let m = r.matrix();
        let up = Vector3::new(m[(2, 0)], m[(2, 1)], m[(2, 2)]);
        up.cross(&x) * c::<T>(self.mass * self.gravity)
    }
}

/// A rigid body with a fixed point: principal moments of inertia `I = diag(I₁, I₂, I₃)` about the
/// fixed point and a potential `U(R)`.
///
/// As a Hamiltonian on `T*SO(3)` in the right trivialization (state `(R, π)`, `π` spatial;
/// `docs/symplectic.md` §3):
///
/// ```text
///   H(R, π) = ½ πᵀ R I⁻¹ Rᵀ π + U(R),
///   ∂H/∂π = ω = R I⁻¹ Rᵀ π,              ν = ω × π − R M(R).
/// ```
///
/// For the heavy top `ν = ω × π + m g (RX) × e₃`, and Hamilton's equations are
/// `Ṙ = ω̂ R`, `π̇ = m g e₃ × (RX)` [CCLMO22, eqs. (21)–(22)].
///
/// # Example
/// ```
/// use schemes::symplectic::RigidBody;
/// let top = RigidBody::heavy_top_bc10();
/// let y0 = RigidBody::heavy_top_bc10_initial();
/// let e0: f64 = top.energy(&y0);
/// assert!(e0.is_finite());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct RigidBody<P> {
    inertia: Vector3<f64>,
    potential: P,
}

/// The free rigid body (no potential).
pub type FreeRigidBody = RigidBody<NoPotential>;
/// The heavy top (uniform gravity).
pub type HeavyTop = RigidBody<UniformGravity>;

impl<P> RigidBody<P> {
    /// A body with principal moments `inertia` (about the fixed point) and a potential.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] unless every moment is finite and positive.
    pub fn new(inertia: Vector3<f64>, potential: P) -> Result<Self, SchemeError> {
        if !inertia.iter().all(|&i| i.is_finite() && i > 0.0) {
            return Err(SchemeError::InvalidOption {
                name: "inertia",
                reason: format!("principal moments must be finite and positive, got {inertia:?}"),
            });
        }
        Ok(Self { inertia, potential })
    }

    /// The principal moments of inertia `(I₁, I₂, I₃)`.
    #[must_use]
    pub fn inertia(&self) -> Vector3<f64> {
        self.inertia
    }

    /// The potential.
    #[must_use]
    pub fn potential(&self) -> &P {
        &self.potential
    }

    /// The body angular velocity `Ω = I⁻¹Π`.
    #[must_use]
    pub fn body_velocity<T: RealField + Copy>(&self, body_momentum: &Vector3<T>) -> Vector3<T> {
        body_momentum.component_div(&self.inertia.cast())
    }

    /// The state `(R, π = R I Ω)` from the body angular velocity `Ω`.
    #[must_use]
    pub fn state_from_body_velocity<T: RealField + Copy>(
        &self,
        r: So3<T>,
        body_velocity: Vector3<T>,
    ) -> CotangentPoint<So3<T>> {
        CotangentPoint::from_body(r, body_velocity.component_mul(&self.inertia.cast()))
    }
}

impl FreeRigidBody {
    /// The free rigid body with principal moments `inertia`.
    ///
    /// # Errors
    /// As [`RigidBody::new`].
    pub fn free(inertia: Vector3<f64>) -> Result<Self, SchemeError> {
        Self::new(inertia, NoPotential)
    }
}

impl HeavyTop {
    /// The heavy top of \[BC10\]: `m = 15`,
    /// `J_cm = diag(0.234375, 0.46875, 0.234375)`, body centre of mass `X = (0, 1, 0)`,
    /// `g = 9.81` along `−e₃`; the inertia about the fixed point is
    /// `J = J_cm + m(|X|²I − XXᵀ) = diag(15.234375, 0.46875, 15.234375)`.
    #[must_use]
    pub fn heavy_top_bc10() -> Self {
        let mass = 15.0;
        let x = Vector3::new(0.0, 1.0, 0.0);
        let j_cm = Vector3::new(0.234_375, 0.468_75, 0.234_375);
        // Diagonal of J_cm + m(|X|²I − XXᵀ); the off-diagonal part vanishes for X on an axis.
        let inertia = j_cm + (Vector3::repeat(x.norm_squared()) - x.component_mul(&x)) * mass;
        Self {
            inertia,
            potential: UniformGravity {
                mass,
                gravity: 9.81,
                center_of_mass: x,
            },
        }
    }

    /// The initial state of \[BC10\]: `R₀ = I`, `Ω₀ = (0, 150, −4.61538)` rad/s (body), so
    /// `π₀ = Π₀ = J Ω₀`.
    #[must_use]
    pub fn heavy_top_bc10_initial() -> CotangentPoint<So3<f64>> {
        Self::heavy_top_bc10()
            .state_from_body_velocity(So3::identity(), Vector3::new(0.0, 150.0, -4.615_38))
    }
}

impl<P> RigidBody<P> {
    /// `H(R, π) = ½ Π·I⁻¹Π + U(R)`, `Π = Rᵀπ`.
    #[must_use]
    pub fn energy<T: RealField + Copy>(&self, y: &CotangentPoint<So3<T>>) -> T
    where
        P: RigidBodyPotential<T>,
    {
        CotangentHamiltonian::<So3<T>>::energy(self, &y.g, &y.mu)
    }
}

impl<T: RealField + Copy, P: RigidBodyPotential<T>> CotangentHamiltonian<So3<T>> for RigidBody<P> {
    fn energy(&self, r: &So3<T>, pi: &Vector3<T>) -> T {
        let body = r.inverse_rotate(pi);
        let omega = self.body_velocity(&body);
        c::<T>(0.5) * body.dot(&omega) + self.potential.potential(r)
    }

    fn dh_dmu(&self, r: &So3<T>, pi: &Vector3<T>) -> Vector3<T> {
        r.rotate(&self.body_velocity(&r.inverse_rotate(pi)))
    }

    fn dh_dg(&self, r: &So3<T>, pi: &Vector3<T>) -> Vector3<T> {
        let omega = self.dh_dmu(r, pi);
        omega.cross(pi) - r.rotate(&self.potential.moment(r))
    }
}
