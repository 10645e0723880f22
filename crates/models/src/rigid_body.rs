//! The free rigid body in six Lie group formulations (with spatial and with body-frame
//! velocities) and as an ambient ODE, and the rigid-body state `(R, Π)` shared with the heavy
//! top.
//!
//! Conventions (`docs/notation.md`): `hat(v) b = v × b`; `R = world_from_body` maps body to
//! space coordinates; `Π` is the **body** angular momentum, `Ω = I⁻¹Π` the body angular
//! velocity, `π = RΠ` the spatial angular momentum and `ω = RΩ` the spatial angular velocity;
//! left actions, right-trivialized algebra elements (`ṗ = ξ·p`).

use crate::error::{ModelError, positive_definite};
use homogeneous::{
    LeftMultiplication, LieVectorField, RightMultiplication, RotationAction, So3Coadjoint, Sphere2,
};
use liegroup::{R3, Rn, Se3, So3, hat};
use nalgebra::{Matrix3, SVector, Vector3, Vector6};
use schemes::Problem;

/// SO(3) × ℝ³ (direct product) acting on itself by left multiplication: the attitude `R` and a
/// body vector (`Π` or `Ω`). Generator `(ξ, η)·(R, x) = (ξ̂R, η)`.
pub type AttitudeAction = LeftMultiplication<(So3<f64>, R3<f64>)>;
/// A point of [`AttitudeAction`]: `(R, x)`.
pub type AttitudePoint = (So3<f64>, R3<f64>);
/// SO(3) acting on the attitude by right multiplication with the inverse and ℝ³ on a body
/// vector by translation, `(A, a)·(R, x) = (RA⁻¹, x + a)`: the **body-frame** form of
/// [`AttitudeAction`], on the same points. A field `(−Ω, ẋ)` gives `Ṙ = RΩ̂` (see
/// [`RightMultiplication`]), so the attitude's algebra element is the body angular velocity
/// itself, and a stage of an integrator needs no rotation of it into space.
pub type AttitudeBodyAction = (RightMultiplication<So3<f64>>, LeftMultiplication<R3<f64>>);

/// A model's equations in the body frame, for [`AttitudeBodyAction`]: the same `(R, Π)` and the
/// same `Ṙ = RΩ̂`, `Π̇`, with the field `f(R, Π) = (−Ω, Π̇)` instead of the spatial `(RΩ, Π̇)`
/// of [`AttitudeAction`]. Made by [`FreeRigidBody::body_frame`] and
/// [`HeavyTop::body_frame`](crate::HeavyTop::body_frame).
///
/// # Example
/// ```
/// use homogeneous::{Action, LieVectorField};
/// use models::HeavyTop;
/// let top = HeavyTop::bruls_cardona();
/// let p = HeavyTop::bruls_cardona_state().to_attitude();
/// let (body, spatial) = (top.body_frame(), top.canonical_body());
/// let (mut fb, mut fs) = Default::default();
/// body.field.eval(0.0, &p, &mut fb);
/// spatial.field.eval(0.0, &p, &mut fs);
/// // Both generators are the same tangent vector (Ṙ R⁻¹ = (RΩ)^, Π̇).
/// let (gb, gs) = (body.action.generator(&fb, &p), spatial.action.generator(&fs, &p));
/// assert!((gb.0 - gs.0).norm() + (gb.1 - gs.1).norm() < 1e-12 * gs.1.norm());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyFrame<M>(pub M);
/// SO(3) × SO(3) acting on SO(3) × so(3)* by left multiplication on the attitude and by the
/// coadjoint action (rotation) on the body momentum: `(A, B)·(R, Π) = (AR, BΠ)`.
pub type AttitudeCoadjointAction = (LeftMultiplication<So3<f64>>, So3Coadjoint<f64>);
/// T*SO(3) ≅ SO(3) ⋉ ℝ³ = SE(3) (right trivialization, `(R, π)` with `π` the spatial momentum)
/// acting on itself: `(A, a)·(R, π) = (AR, Aπ + a)`, generator `(ξ, δ)·(R, π) = (ξ̂R, ξ × π + δ)`
/// (`docs/symplectic.md` §2.2; `docs/derivations.md` §3).
pub type CotangentAction = LeftMultiplication<Se3<f64>>;
/// ℝ¹² acting on itself by translation: the ambient ODE, on which every Lie group scheme is the
/// classical Runge–Kutta method with the same tableau.
pub type Ambient12Action = LeftMultiplication<Rn<f64, 12>>;

/// Validate a 3 × 3 inertia matrix: finite, symmetric to `16 ε max(|Mᵢⱼ|, |Mⱼᵢ|)` (then
/// symmetrized exactly) and positive definite (Cholesky), the rule of
/// [`SphereSystem::new`](crate::SphereSystem::new).
pub(crate) fn validate_inertia(
    name: &'static str,
    m: &Matrix3<f64>,
) -> Result<Matrix3<f64>, ModelError> {
    for j in 0..3 {
        for i in 0..3 {
            if !m[(i, j)].is_finite() {
                return Err(ModelError::NonFinite {
                    name,
                    index: 3 * i + j,
                });
            }
        }
    }
    let mut s = *m;
    for i in 0..3 {
        for j in i + 1..3 {
            let (a, b) = (m[(i, j)], m[(j, i)]);
            if (a - b).abs() > 16.0 * f64::EPSILON * a.abs().max(b.abs()) {
                return Err(ModelError::InertiaNotSymmetric {
                    i,
                    j,
                    mij: a,
                    mji: b,
                });
            }
            let avg = 0.5 * (a + b);
            s[(i, j)] = avg;
            s[(j, i)] = avg;
        }
    }
    positive_definite(s.as_slice(), 3)?;
    Ok(s)
}

/// Check that every entry of a vector is finite.
pub(crate) fn finite3(name: &'static str, v: &Vector3<f64>) -> Result<Vector3<f64>, ModelError> {
    match v.iter().position(|x| !x.is_finite()) {
        Some(index) => Err(ModelError::NonFinite { name, index }),
        None => Ok(*v),
    }
}

/// The state of a rigid body (free or with a fixed point): the attitude `R = world_from_body`
/// and the **body** angular momentum `Π` (left trivialization of T*SO(3)).
///
/// The conversions below produce the points of each formulation; they are exact (no
/// projection), and the `from_*` conversions accept points that an integrator moved.
///
/// # Example
/// ```
/// use liegroup::{LieGroup, So3};
/// use models::RigidBodyState;
/// use nalgebra::Vector3;
/// let x = RigidBodyState::new(So3::exp(&Vector3::new(0.1, 0.2, 0.3)), Vector3::new(1.0, 2.0, 3.0));
/// let back = RigidBodyState::from_cotangent(&x.to_cotangent());
/// assert!((back.momentum - x.momentum).norm() < 1e-14);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RigidBodyState {
    /// `R ∈ SO(3)`, body to space.
    pub attitude: So3<f64>,
    /// `Π`, the body angular momentum.
    pub momentum: Vector3<f64>,
}

impl RigidBodyState {
    /// The state `(R, Π)`.
    #[must_use]
    pub const fn new(attitude: So3<f64>, momentum: Vector3<f64>) -> Self {
        Self { attitude, momentum }
    }

    /// The spatial angular momentum `π = RΠ`.
    #[must_use]
    pub fn spatial_momentum(&self) -> Vector3<f64> {
        self.attitude.rotate(&self.momentum)
    }

    /// The point `(R, Π)` of [`AttitudeAction`].
    #[must_use]
    pub fn to_attitude(&self) -> AttitudePoint {
        (self.attitude, Rn::new(self.momentum))
    }

    /// From a point `(R, Π)` of [`AttitudeAction`].
    #[must_use]
    pub fn from_attitude(p: &AttitudePoint) -> Self {
        Self::new(p.0, p.1.0)
    }

    /// The point `(R, Π)` of [`AttitudeCoadjointAction`].
    #[must_use]
    pub fn to_attitude_coadjoint(&self) -> (So3<f64>, Vector3<f64>) {
        (self.attitude, self.momentum)
    }

    /// From a point `(R, Π)` of [`AttitudeCoadjointAction`].
    #[must_use]
    pub fn from_attitude_coadjoint(p: &(So3<f64>, Vector3<f64>)) -> Self {
        Self::new(p.0, p.1)
    }

    /// The point `(R, π = RΠ)` of T*SO(3) ≅ SE(3) ([`CotangentAction`]; rotation `R`,
    /// translation `π`).
    #[must_use]
    pub fn to_cotangent(&self) -> Se3<f64> {
        Se3::from_parts(self.attitude, self.spatial_momentum())
    }

    /// From a point `(R, π)` of T*SO(3) ≅ SE(3): `Π = Rᵀπ`.
    #[must_use]
    pub fn from_cotangent(p: &Se3<f64>) -> Self {
        Self::new(*p.rotation(), p.rotation().inverse_rotate(p.translation()))
    }

    /// The ambient point `(R₁₁, R₂₁, R₃₁, R₁₂, …, R₃₃, Π₁, Π₂, Π₃) ∈ ℝ¹²` (the matrix in
    /// column-major order, then `Π`).
    #[must_use]
    pub fn to_ambient(&self) -> Rn<f64, 12> {
        let mut v = SVector::<f64, 12>::zeros();
        v.fixed_rows_mut::<9>(0)
            .copy_from_slice(self.attitude.matrix().as_slice());
        v.fixed_rows_mut::<3>(9).copy_from(&self.momentum);
        Rn::new(v)
    }

    /// From an ambient point (the 3 × 3 block is taken as it is, orthogonal or not: an
    /// ambient integrator drifts off SO(3), and [`orthogonality_error`] measures it).
    #[must_use]
    pub fn from_ambient(p: &Rn<f64, 12>) -> Self {
        let (r, pi) = split12(&p.0);
        Self::new(So3::from_matrix_unchecked(r), pi)
    }
}

/// `‖RᵀR − I‖_max`, the distance of a matrix from the orthogonal group (for ambient runs).
#[must_use]
pub fn orthogonality_error(r: &Matrix3<f64>) -> f64 {
    (r.transpose() * r - Matrix3::identity()).amax()
}

/// Split an ambient 12-vector into the matrix (column-major) and the vector.
pub(crate) fn split12(v: &SVector<f64, 12>) -> (Matrix3<f64>, Vector3<f64>) {
    (
        Matrix3::from_column_slice(&v.as_slice()[..9]),
        Vector3::new(v[9], v[10], v[11]),
    )
}

/// Join a matrix (column-major) and a vector into an ambient 12-vector.
pub(crate) fn join12(m: &Matrix3<f64>, x: &Vector3<f64>) -> SVector<f64, 12> {
    let mut v = SVector::<f64, 12>::zeros();
    v.fixed_rows_mut::<9>(0).copy_from_slice(m.as_slice());
    v.fixed_rows_mut::<3>(9).copy_from(x);
    v
}

/// The free rigid body [HLW06, §VII.5]: Euler's equations
///
/// ```text
///   Ṙ = R Ω̂,   Π̇ = Π × Ω,   Ω = I⁻¹Π,
/// ```
///
/// with a constant symmetric positive definite inertia matrix `I` (not necessarily diagonal).
///
/// # Invariants
/// - energy `H = ½ Π·I⁻¹Π` ([`energy`](Self::energy));
/// - the Casimir `|Π|²` of so(3)* ([`casimir`](Self::casimir)), preserved to round-off by the
///   coadjoint formulations;
/// - the spatial angular momentum `π = RΠ` ([`RigidBodyState::spatial_momentum`]), the momentum
///   map of the left SO(3) symmetry.
///
/// # Formulations
/// Each method returns a [`schemes::Problem`] (action + field) that `schemes::integrate` runs
/// with any catalogue method:
///
/// | method | action | point | `f(p)` |
/// |---|---|---|---|
/// | [`lie_poisson`](Self::lie_poisson) | [`So3Coadjoint`] | `Π ∈ so(3)*` | `−I⁻¹Π` |
/// | [`lie_poisson_sphere`](Self::lie_poisson_sphere) | [`RotationAction`] | `m = Π/‖Π‖ ∈ S²` | `−‖Π‖ I⁻¹m` |
/// | [`attitude`](Self::attitude) | [`AttitudeAction`] | `(R, Π) ∈ SO(3) × ℝ³` | `(RΩ, Π × Ω)` |
/// | [`body_frame`](Self::body_frame) | [`AttitudeBodyAction`] | `(R, Π) ∈ SO(3) × ℝ³` | `(−Ω, Π × Ω)` (body frame) |
/// | [`attitude_coadjoint`](Self::attitude_coadjoint) | [`AttitudeCoadjointAction`] | `(R, Π)` | `(RΩ, −Ω)` |
/// | [`cotangent`](Self::cotangent) | [`CotangentAction`] | `(R, π) ∈ T*SO(3) ≅ SE(3)` | `(ω, −ω × π)` |
/// | [`ambient`](Self::ambient) | [`Ambient12Action`] | `(R, Π) ∈ ℝ¹²` | `(RΩ̂, Π × Ω)` |
///
/// **Signs.** The coadjoint generator is `ξ × Π` (`−ad*_ξ Π`, `ad*_ξ Π = Π × ξ`), so
/// `f = −Ω` gives `Π̇ = −Ω × Π = Π × Ω`. For left multiplication the algebra element is the
/// right-trivialized velocity: `Ṙ = RΩ̂ = (RΩ)^ R`, i.e. the **spatial** angular velocity
/// `ω = RΩ`, not `Ω`. On T*SO(3) ≅ SE(3) the generator is `π̇ = ξ × π + δ`; with `ξ = ω` and
/// `δ = −ω × π` the spatial momentum is constant, the right-trivialized canonical equations of
/// `docs/symplectic.md` §2.1, (S6), with `H(R, π) = ½ π·R I⁻¹ Rᵀ π`. For
/// [`AttitudeBodyAction`] (right multiplication by the inverse) the generator is `−Ad_R ξ`, so
/// `f = −Ω` gives the same `Ṙ = RΩ̂`. The tests check all seven against each other at random
/// states (relative 10⁻¹²).
///
/// # Example
/// ```
/// use homogeneous::Action;
/// use models::FreeRigidBody;
/// use schemes::{integrate, methods, Options};
/// let body = FreeRigidBody::landau_lifshitz();
/// let x0 = FreeRigidBody::landau_lifshitz_state();
/// let problem = body.lie_poisson();
/// let mut rkmk4 = methods::find("rkmk4")?.stepper();
/// let sol = integrate(&problem, &mut rkmk4, 0.0, x0.momentum, 10.0, &Options::fixed(1e-2))
///     .map_err(|e| e.error)?;
/// let pi = sol.last().1;
/// // The coadjoint action keeps |Π| to round-off; the energy to the accuracy of RKMK4.
/// assert!((body.casimir(pi) - body.casimir(&x0.momentum)).abs() < 1e-13);
/// assert!((body.energy(pi) - body.energy(&x0.momentum)).abs() < 1e-8);
/// # Ok::<(), schemes::SchemeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FreeRigidBody {
    inertia: Matrix3<f64>,
    inertia_inv: Matrix3<f64>,
}

impl FreeRigidBody {
    /// A rigid body with inertia matrix `I` (body frame; finite, symmetric, positive definite).
    ///
    /// # Errors
    /// [`ModelError::NonFinite`], [`ModelError::InertiaNotSymmetric`],
    /// [`ModelError::InertiaNotPositiveDefinite`].
    pub fn new(inertia: Matrix3<f64>) -> Result<Self, ModelError> {
        let inertia = validate_inertia("inertia", &inertia)?;
        let inertia_inv = inertia
            .try_inverse()
            .expect("a positive definite matrix is invertible");
        Ok(Self {
            inertia,
            inertia_inv,
        })
    }

    /// A body with principal moments `I₁, I₂, I₃ > 0` along the body axes.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (`"moment of inertia"`), [`ModelError::NonFinite`].
    pub fn principal(moments: Vector3<f64>) -> Result<Self, ModelError> {
        for (i, &m) in moments.iter().enumerate() {
            crate::error::positive("moment of inertia", i, m)?;
        }
        Self::new(Matrix3::from_diagonal(&moments))
    }

    /// `I = diag(1, 2, 3)`: the body of the exact-solution test (`docs/models.md`, "Free rigid
    /// body"; Landau–Lifshitz §37 \[LL76\]), with the state
    /// [`landau_lifshitz_state`](Self::landau_lifshitz_state).
    ///
    /// # Panics
    /// Never (valid preset).
    #[must_use]
    pub fn landau_lifshitz() -> Self {
        Self::principal(Vector3::new(1.0, 2.0, 3.0)).expect("valid preset")
    }

    /// `R = I`, `Π = (cos 1.2, 0, sin 1.2)`: the initial value the workspace's convergence test
    /// uses with [`landau_lifshitz`](Self::landau_lifshitz) (`|Π| = 1`, `M² > 2E I₂`).
    #[must_use]
    pub fn landau_lifshitz_state() -> RigidBodyState {
        RigidBodyState::new(
            So3::identity(),
            Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin()),
        )
    }

    /// The \[BC10\] top without gravity: the inertia about its fixed point
    /// `J = diag(15.234375, 0.46875, 15.234375)` (see [`HeavyTop`](crate::HeavyTop)); with
    /// [`HeavyTop::bruls_cardona_state`](crate::HeavyTop::bruls_cardona_state) a fast spin about
    /// the body axis `e₂` (|Ω| ≈ 150 rad/s).
    ///
    /// # Panics
    /// Never (valid preset).
    #[must_use]
    pub fn bruls_cardona_body() -> Self {
        Self::new(crate::HeavyTop::bruls_cardona().inertia()).expect("valid preset")
    }

    /// The inertia matrix `I`.
    #[must_use]
    pub fn inertia(&self) -> Matrix3<f64> {
        self.inertia
    }

    /// `I⁻¹`.
    #[must_use]
    pub fn inertia_inverse(&self) -> Matrix3<f64> {
        self.inertia_inv
    }

    /// The body angular velocity `Ω = I⁻¹Π`.
    #[must_use]
    #[inline]
    pub fn angular_velocity(&self, pi: &Vector3<f64>) -> Vector3<f64> {
        self.inertia_inv * pi
    }

    /// The kinetic energy `H = ½ Π·I⁻¹Π`.
    #[must_use]
    pub fn energy(&self, pi: &Vector3<f64>) -> f64 {
        0.5 * pi.dot(&(self.inertia_inv * pi))
    }

    /// The Casimir `|Π|²` of so(3)*.
    #[must_use]
    pub fn casimir(&self, pi: &Vector3<f64>) -> f64 {
        pi.norm_squared()
    }

    /// Euler's equations in ambient form: `(Ṙ, Π̇) = (RΩ̂, Π × Ω)`, `Ω = I⁻¹Π`.
    #[must_use]
    #[inline]
    pub fn ambient_rate(
        &self,
        r: &Matrix3<f64>,
        pi: &Vector3<f64>,
    ) -> (Matrix3<f64>, Vector3<f64>) {
        let omega = self.angular_velocity(pi);
        (r * hat(&omega), pi.cross(&omega))
    }

    /// Lie–Poisson on so(3)*: `Π̇ = Π × I⁻¹Π` as `f(Π) = −I⁻¹Π` with the coadjoint action
    /// (rotation) of SO(3) [CCLMO22, §3.3, eq. (18)], \[CO03\]. Orbits are the spheres `|Π| = const`.
    #[must_use]
    pub fn lie_poisson(&self) -> Problem<So3Coadjoint<f64>, Self> {
        Problem::new(So3Coadjoint::new(), *self)
    }

    /// Lie–Poisson on the sphere of radius `|Π|`: the unit direction `m = Π/|Π|` under
    /// [`RotationAction`], `f(m) = −|Π| I⁻¹m`, so `ṁ = f × m = |Π| m × I⁻¹m` (the equation of
    /// `Π` divided by `|Π|`).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (`"radius"`) unless `radius = |Π| > 0`.
    pub fn lie_poisson_sphere(
        &self,
        radius: f64,
    ) -> Result<Problem<RotationAction<f64>, SphereField>, ModelError> {
        let radius = crate::error::positive("radius", 0, radius)?;
        Ok(Problem::new(
            RotationAction::new(),
            SphereField {
                body: *self,
                radius,
            },
        ))
    }

    /// `(R, Π)` on SO(3) × ℝ³ acting on itself: `f(R, Π) = (RΩ, Π × Ω)` (spatial angular
    /// velocity for `Ṙ = RΩ̂ = (RΩ)^R`; `Π` moves by translation, i.e. by the classical method).
    #[must_use]
    pub fn attitude(&self) -> Problem<AttitudeAction, Self> {
        Problem::new(AttitudeAction::new(), *self)
    }

    /// `(R, Π)` on SO(3) × ℝ³ in the body frame: `f(R, Π) = (−Ω, Π × Ω)` for
    /// [`AttitudeBodyAction`] (`Ṙ = RΩ̂`; `Π` moves by translation). The same equations as
    /// [`attitude`](Self::attitude), and the cheaper form to integrate: no stage needs `RΩ`.
    #[must_use]
    pub fn body_frame(&self) -> Problem<AttitudeBodyAction, BodyFrame<Self>> {
        Problem::new(AttitudeBodyAction::default(), BodyFrame(*self))
    }

    /// `(R, Π)` with SO(3) × SO(3) acting by left multiplication and by rotation:
    /// `f(R, Π) = (RΩ, −Ω)`; `|Π|` is kept to round-off.
    #[must_use]
    pub fn attitude_coadjoint(&self) -> Problem<AttitudeCoadjointAction, Self> {
        Problem::new((LeftMultiplication::new(), So3Coadjoint::new()), *self)
    }

    /// Canonical on the right-trivialized T*SO(3) ≅ SE(3) (`docs/symplectic.md` §2, [CCLMO22,
    /// §3.4.1] without gravity): `(R, π)`, `ω = R I⁻¹ Rᵀ π`, `f = (ω, −ω × π)`, so `Ṙ = ω̂R`
    /// and `π̇ = 0`.
    #[must_use]
    pub fn cotangent(&self) -> Problem<CotangentAction, Self> {
        Problem::new(CotangentAction::new(), *self)
    }

    /// The ambient ODE on ℝ¹² (`R` column-major, then `Π`) for classical baselines.
    #[must_use]
    pub fn ambient(&self) -> Problem<Ambient12Action, Self> {
        Problem::new(Ambient12Action::new(), *self)
    }
}

/// `f(Π) = −I⁻¹Π` for [`So3Coadjoint`].
impl LieVectorField<f64, Vector3<f64>, Vector3<f64>> for FreeRigidBody {
    #[inline]
    fn eval(&self, _t: f64, pi: &Vector3<f64>, out: &mut Vector3<f64>) {
        *out = -self.angular_velocity(pi);
    }
}

/// `f(R, Π) = (RΩ, Π × Ω)` for [`AttitudeAction`].
impl LieVectorField<f64, AttitudePoint, (Vector3<f64>, Vector3<f64>)> for FreeRigidBody {
    #[inline]
    fn eval(&self, _t: f64, p: &AttitudePoint, out: &mut (Vector3<f64>, Vector3<f64>)) {
        let omega = self.angular_velocity(&p.1.0);
        *out = (p.0.rotate(&omega), p.1.0.cross(&omega));
    }
}

/// `f(R, Π) = (−Ω, Π × Ω)` for [`AttitudeBodyAction`].
impl LieVectorField<f64, AttitudePoint, (Vector3<f64>, Vector3<f64>)> for BodyFrame<FreeRigidBody> {
    #[inline]
    fn eval(&self, _t: f64, p: &AttitudePoint, out: &mut (Vector3<f64>, Vector3<f64>)) {
        let omega = self.0.angular_velocity(&p.1.0);
        *out = (-omega, p.1.0.cross(&omega));
    }
}

/// `f(R, Π) = (RΩ, −Ω)` for [`AttitudeCoadjointAction`].
impl LieVectorField<f64, (So3<f64>, Vector3<f64>), (Vector3<f64>, Vector3<f64>)> for FreeRigidBody {
    #[inline]
    fn eval(&self, _t: f64, p: &(So3<f64>, Vector3<f64>), out: &mut (Vector3<f64>, Vector3<f64>)) {
        let omega = self.angular_velocity(&p.1);
        *out = (p.0.rotate(&omega), -omega);
    }
}

/// `f(R, π) = (ω, −ω × π)`, `ω = R I⁻¹ Rᵀ π`, for [`CotangentAction`].
impl LieVectorField<f64, Se3<f64>, Vector6<f64>> for FreeRigidBody {
    #[inline]
    fn eval(&self, _t: f64, p: &Se3<f64>, out: &mut Vector6<f64>) {
        let r = p.rotation();
        let pi = p.translation();
        let omega = r.rotate(&self.angular_velocity(&r.inverse_rotate(pi)));
        let d = -omega.cross(pi);
        *out = Vector6::new(omega.x, omega.y, omega.z, d.x, d.y, d.z);
    }
}

/// `(Ṙ, Π̇)` flattened, for [`Ambient12Action`].
impl LieVectorField<f64, Rn<f64, 12>, SVector<f64, 12>> for FreeRigidBody {
    #[inline]
    fn eval(&self, _t: f64, p: &Rn<f64, 12>, out: &mut SVector<f64, 12>) {
        let (r, pi) = split12(&p.0);
        let (rd, pd) = self.ambient_rate(&r, &pi);
        *out = join12(&rd, &pd);
    }
}

/// The free rigid body on the sphere of radius `|Π|` ([`FreeRigidBody::lie_poisson_sphere`]):
/// `f(m) = −|Π| I⁻¹m` for [`RotationAction`] on unit vectors `m = Π/|Π|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SphereField {
    body: FreeRigidBody,
    radius: f64,
}

impl SphereField {
    /// The radius `|Π|` of the orbit.
    #[must_use]
    pub fn radius(&self) -> f64 {
        self.radius
    }
    /// The body.
    #[must_use]
    pub fn body(&self) -> &FreeRigidBody {
        &self.body
    }
    /// The unit point `Π/|Π|` of a momentum on this orbit (no check that `|Π|` equals the
    /// radius).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (`"|Π|"`) for `Π = 0`, [`ModelError::NonFinite`].
    pub fn point(&self, pi: &Vector3<f64>) -> Result<Sphere2<f64>, ModelError> {
        let pi = finite3("momentum", pi)?;
        let n = crate::error::positive("|Π|", 0, pi.norm())?;
        Ok(Sphere2::new_unchecked(pi / n))
    }
    /// The momentum `Π = |Π| m` of a unit point.
    #[must_use]
    pub fn momentum(&self, m: &Sphere2<f64>) -> Vector3<f64> {
        m.q() * self.radius
    }
}

impl LieVectorField<f64, Sphere2<f64>, Vector3<f64>> for SphereField {
    #[inline]
    fn eval(&self, _t: f64, m: &Sphere2<f64>, out: &mut Vector3<f64>) {
        *out = -self.body.angular_velocity(m.q()) * self.radius;
    }
}
