//! The heavy top [CCLMO22, §3.4] with the data of \[BC10\], in the three formulations of the paper
//! (canonical on T*SO(3), Lie–Poisson on se(3)*, canonical on T*SE(3) with a left-invariant
//! quadratic Hamiltonian), the body-momentum form (with spatial and with body-frame velocities)
//! and the ambient ODE.

use crate::error::{ModelError, non_negative, positive};
use crate::rigid_body::{
    Ambient12Action, AttitudeAction, AttitudeBodyAction, AttitudePoint, BodyFrame, CotangentAction,
    RigidBodyState, finite3, join12, split12, validate_inertia,
};
use homogeneous::{LeftMultiplication, LieVectorField, Se3Coadjoint};
use liegroup::{LieGroup, Rn, Se3, So3, hat};
use nalgebra::{Matrix3, SVector, Vector3, Vector6};
use schemes::Problem;

/// SE(3) × SE(3) acting on T*SE(3) ≅ SE(3) × se(3)* (left trivialization) by left
/// multiplication on the configuration and by the coadjoint action on the body momentum:
/// `(h, k)·(g, μ) = (hg, Ad*_{k⁻¹} μ)`.
pub type LargerGroupAction = (LeftMultiplication<Se3<f64>>, Se3Coadjoint<f64>);
/// A point `((R, x), (Π, Γ))` of [`LargerGroupAction`].
pub type LargerGroupPoint = (Se3<f64>, Vector6<f64>);

/// `e₃`, the vertical unit vector (up: gravity acts along `−e₃`).
fn e3() -> Vector3<f64> {
    Vector3::z()
}

/// `Γ = Rᵀe₃`, the third row of `R` (read off, not multiplied out).
#[inline]
fn vertical_in_body(r: &Matrix3<f64>) -> Vector3<f64> {
    Vector3::new(r[(2, 0)], r[(2, 1)], r[(2, 2)])
}

/// `(a, b) ∈ ℝ³ × ℝ³ ↦ (a, b) ∈ ℝ⁶` (rotation part first).
fn join6(a: &Vector3<f64>, b: &Vector3<f64>) -> Vector6<f64> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

/// `ℝ⁶ ↦ (first three, last three)`.
fn split6(v: &Vector6<f64>) -> (Vector3<f64>, Vector3<f64>) {
    (
        v.fixed_rows::<3>(0).into_owned(),
        v.fixed_rows::<3>(3).into_owned(),
    )
}

/// A heavy top: a rigid body of mass `m` with one point fixed in space, in uniform gravity `g`
/// along `−e₃` [CCLMO22, §3.4], \[BC10\].
///
/// `J_cm` is the inertia about the centre of mass and `X` the centre of mass in body coordinates
/// (from the fixed point; the paper's `ℓχ` with `ℓ = |X|`). The inertia about the fixed point is
/// `J = J_cm + m(|X|² I − X Xᵀ)` (parallel axes). With `Ω = J⁻¹Π` and `Γ = Rᵀe₃` (the vertical
/// in body coordinates):
///
/// ```text
///   H(R, Π) = ½ Π·J⁻¹Π + m g e₃·(R X) = ½ Π·J⁻¹Π + m g Γ·X,
///   Ṙ = R Ω̂,   Π̇ = Π × Ω + m g Γ × X                      [CCLMO22, eqs. (19)–(20)]
/// ```
///
/// # Formulations
/// | method | action | point | `f(p)` | paper |
/// |---|---|---|---|---|
/// | [`canonical`](Self::canonical) | [`CotangentAction`] | `(R, π = RΠ) ∈ T*SO(3) ≅ SE(3)` | `(ω, −ω × π − m g (RX) × e₃)` | §3.4.1, eqs. (21)–(22) |
/// | [`canonical_body`](Self::canonical_body) | [`AttitudeAction`] | `(R, Π) ∈ SO(3) × ℝ³` | `(RΩ, Π × Ω + m g Γ × X)` | eqs. (19)–(20) |
/// | [`body_frame`](Self::body_frame) | [`AttitudeBodyAction`] | `(R, Π) ∈ SO(3) × ℝ³` | `(−Ω, Π × Ω + m g Γ × X)` (body frame) | eqs. (19)–(20) |
/// | [`lie_poisson`](Self::lie_poisson) | [`Se3Coadjoint`] | `(Π, Γ) ∈ se(3)*` | `−(Ω, m g X)` | §3.4.2, eqs. (23)–(24) |
/// | [`larger_group`](Self::larger_group) | [`LargerGroupAction`] | `((R, x), (Π, Γ))` | `(Ad_(R,x)(Ω, m g X), −(Ω, m g X))` | §3.4.3 |
/// | [`ambient`](Self::ambient) | [`Ambient12Action`] | `(R, Π) ∈ ℝ¹²` | `(RΩ̂, Π × Ω + m g (Rᵀe₃) × X)` | — |
///
/// - **Canonical on T*SO(3)**, right trivialized (`docs/derivations.md` §3; [CCLMO22, §3.4.1]):
///   with the spatial
///   momentum `π = RΠ`, `ω = RΩ = R J⁻¹Rᵀπ` and
///   `H(R, π) = ½ π·RJ⁻¹Rᵀπ + m g e₃·RX`, the right-trivialized derivative of `H` in `R` is
///   `ν = ω × π + m g (RX) × e₃`, and `f = (∂H/∂π, −ν)` with the generator
///   `(ξ, δ)·(R, π) = (ξ̂R, ξ × π + δ)` of T*SO(3) ≅ SO(3) ⋉ ℝ³ = SE(3) gives
///   `Ṙ = ω̂R`, `π̇ = m g e₃ × RX` (eqs. (21)–(22)): `e₃·π` is constant. This is the form the
///   symplectic integrators on right-trivialized T*G [CCLMO22, eqs. (15)–(17)] work on.
/// - **Lie–Poisson on se(3)*** (eqs. (23)–(24)): `μ = (Π, Γ)`,
///   `Π̇ = Π × Ω + m g Γ × X`, `Γ̇ = Γ × Ω`, i.e. `μ̇ = ad*_{∂H/∂μ} μ` with
///   `∂H/∂μ = (Ω, m g X)`; the coadjoint action of SE(3) has generator `−ad*_ξ μ`, hence
///   `f = −∂H/∂μ`. Casimirs `|Γ|²` and `Π·Γ` ([`casimirs`](Self::casimirs)) are preserved to
///   round-off by every Lie group method with this action.
/// - **Canonical on T*SE(3) with a quadratic Hamiltonian** (§3.4.3; \[CCLMO22\] cites
///   Holm's Section 8.5 for it): enlarge SO(3) to SE(3) = SO(3) ⋉ ℝ³ with a position `x ∈ ℝ³`
///   and treat the vertical `e₃` as the (spatial) momentum `p` conjugate to `x`. In left
///   trivialization `(g, μ) = ((R, x), (Π, P))` the Hamiltonian `H(μ) = ½ Π·J⁻¹Π + m g P·X`
///   is a polynomial of degree two in the momenta and invariant under the left action of SE(3),
///   so the canonical equations are `ġ = g ξ` with `ξ = ∂H/∂μ = (Ω, m g X)` and the
///   Lie–Poisson equation `μ̇ = ad*_ξ μ`; the spatial momentum
///   `Ad*_{g⁻¹}μ = (RΠ + x × RP, RP)` is conserved. With `RP = e₃` (i.e. `P = Γ`) initially,
///   `(R, Π)` solves the heavy top, and `x` drifts with `ẋ = m g R X`. The text of the paper's
///   eqs. (25)–(32) was lost in extraction; this reconstruction matches every surviving
///   sentence (the constant vector as a momentum conjugate to a position, a quadratic
///   Hamiltonian invariant under the left action of the larger group, T*G identified with
///   G × 𝔤*) and is checked against the other formulations. As a Lie group field:
///   `ġ = (Ad_g ξ) g` (right-trivialized velocity) and `μ̇ = −ad*_{−ξ}μ`, so
///   `f(g, μ) = (Ad_g ξ, −ξ)` for [`LargerGroupAction`].
///
/// For speed, prefer [`body_frame`](Self::body_frame) over [`canonical_body`](Self::canonical_body)
/// (the same equations): a stage then needs only `Γ` from its attitude, not `RΩ` (measured in
/// `docs/performance.md`, "Design notes measured in benchmarks").
///
/// # Invariants
/// Energy ([`energy`](Self::energy), [`energy_lie_poisson`](Self::energy_lie_poisson)), the
/// vertical angular momentum `e₃·RΠ = Π·Γ` ([`vertical_momentum`](Self::vertical_momentum)),
/// the Casimirs `|Γ|² = 1` and `Π·Γ` on se(3)*, and on T*SE(3) the spatial momentum
/// ([`larger_group_momentum`](Self::larger_group_momentum)).
///
/// # Example
/// ```
/// use models::HeavyTop;
/// use homogeneous::{Action, LieVectorField};
/// let top = HeavyTop::bruls_cardona();
/// let x0 = HeavyTop::bruls_cardona_state();
/// // The Lie–Poisson field and the body-momentum equations agree.
/// let mu = x0.to_lie_poisson();
/// let problem = top.lie_poisson();
/// let mut f = nalgebra::Vector6::zeros();
/// problem.field.eval(0.0, &mu, &mut f);
/// let rate = problem.action.generator(&f, &mu);
/// let (_, dpi) = top.ambient_rate(x0.attitude.matrix(), &x0.momentum);
/// assert!((rate.fixed_rows::<3>(0) - dpi).norm() < 1e-12 * dpi.norm().max(1.0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeavyTop {
    mass: f64,
    inertia_cm: Matrix3<f64>,
    com: Vector3<f64>,
    g: f64,
    inertia: Matrix3<f64>,
    inertia_inv: Matrix3<f64>,
    /// `m g X`, computed once (every right-hand side uses it).
    weight_arm: Vector3<f64>,
}

impl HeavyTop {
    /// A heavy top of mass `m > 0`, inertia `J_cm` about its centre of mass (symmetric positive
    /// definite), centre of mass `X ≠ 0` in body coordinates (from the fixed point) and gravity
    /// `g ≥ 0` along `−e₃`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (`"mass"`, `"centre of mass distance"`),
    /// [`ModelError::Negative`] (`"g"`), [`ModelError::NonFinite`],
    /// [`ModelError::InertiaNotSymmetric`], [`ModelError::InertiaNotPositiveDefinite`].
    pub fn new(
        mass: f64,
        inertia_cm: Matrix3<f64>,
        com: Vector3<f64>,
        g: f64,
    ) -> Result<Self, ModelError> {
        let mass = positive("mass", 0, mass)?;
        let inertia_cm = validate_inertia("inertia about the centre of mass", &inertia_cm)?;
        let com = finite3("centre of mass", &com)?;
        positive("centre of mass distance", 0, com.norm())?;
        let g = non_negative("g", g)?;
        let inertia =
            inertia_cm + (Matrix3::identity() * com.norm_squared() - com * com.transpose()) * mass;
        let inertia_inv = inertia
            .try_inverse()
            .expect("a positive definite matrix is invertible");
        Ok(Self {
            mass,
            inertia_cm,
            com,
            g,
            inertia,
            inertia_inv,
            weight_arm: com * (mass * g),
        })
    }

    /// The heavy top of \[BC10\] as used in [CCLMO22, §3.4.4]: `m = 15`,
    /// `J_cm = diag(0.234375, 0.46875, 0.234375)`, `X = (0, 1, 0)`, `g = 9.81` along `−e₃`;
    /// inertia about the fixed point `J = diag(15.234375, 0.46875, 15.234375)`.
    ///
    /// # Panics
    /// Never (valid preset).
    #[must_use]
    pub fn bruls_cardona() -> Self {
        Self::new(
            15.0,
            Matrix3::from_diagonal(&Vector3::new(0.234375, 0.46875, 0.234375)),
            Vector3::new(0.0, 1.0, 0.0),
            crate::GRAVITY,
        )
        .expect("valid preset")
    }

    /// The initial state of \[BC10\]: `R₀ = I`, `Ω₀ = (0, 150, −4.61538)` (body frame), so
    /// `Π₀ = JΩ₀ = (0, 70.3125, −70.3124…)`; energy `H₀ ≈ 5435.7` (kinetic only: the centre of
    /// mass starts at the height of the fixed point). The spin period about `e₂` is about
    /// `2π/150 ≈ 0.042`.
    #[must_use]
    pub fn bruls_cardona_state() -> RigidBodyState {
        Self::bruls_cardona()
            .state_from_velocity(So3::identity(), Vector3::new(0.0, 150.0, -4.61538))
    }

    /// The state with attitude `R` and body angular velocity `Ω` (`Π = JΩ`).
    #[must_use]
    pub fn state_from_velocity(&self, attitude: So3<f64>, omega: Vector3<f64>) -> RigidBodyState {
        RigidBodyState::new(attitude, self.inertia * omega)
    }

    /// The mass `m`.
    #[must_use]
    pub fn mass(&self) -> f64 {
        self.mass
    }
    /// The inertia `J_cm` about the centre of mass.
    #[must_use]
    pub fn inertia_cm(&self) -> Matrix3<f64> {
        self.inertia_cm
    }
    /// The inertia about the fixed point `J = J_cm + m(|X|²I − XXᵀ)`.
    #[must_use]
    pub fn inertia(&self) -> Matrix3<f64> {
        self.inertia
    }
    /// `J⁻¹`.
    #[must_use]
    pub fn inertia_inverse(&self) -> Matrix3<f64> {
        self.inertia_inv
    }
    /// The centre of mass `X` in body coordinates.
    #[must_use]
    pub fn com(&self) -> Vector3<f64> {
        self.com
    }
    /// The gravitational acceleration `g` (along `−e₃`).
    #[must_use]
    pub fn g(&self) -> f64 {
        self.g
    }
    /// `m g X`, the gradient of the potential `m g Γ·X` in `Γ` (the paper's `M g ℓ χ`).
    #[must_use]
    #[inline]
    pub fn weight_moment_arm(&self) -> Vector3<f64> {
        self.weight_arm
    }

    /// The body angular velocity `Ω = J⁻¹Π`.
    #[must_use]
    #[inline]
    pub fn angular_velocity(&self, pi: &Vector3<f64>) -> Vector3<f64> {
        self.inertia_inv * pi
    }

    /// The energy `H = ½ Π·J⁻¹Π + m g e₃·(R X)`.
    #[must_use]
    pub fn energy(&self, x: &RigidBodyState) -> f64 {
        0.5 * x.momentum.dot(&self.angular_velocity(&x.momentum))
            + self.mass * self.g * e3().dot(&x.attitude.rotate(&self.com))
    }

    /// The energy on se(3)*: `H(Π, Γ) = ½ Π·J⁻¹Π + m g Γ·X` (also the Hamiltonian of the
    /// larger-group formulation, a function of its body momentum only).
    #[must_use]
    pub fn energy_lie_poisson(&self, mu: &Vector6<f64>) -> f64 {
        let (pi, gamma) = split6(mu);
        0.5 * pi.dot(&self.angular_velocity(&pi)) + gamma.dot(&self.weight_moment_arm())
    }

    /// The vertical angular momentum `e₃·RΠ` (the momentum map of the rotations about `e₃`).
    #[must_use]
    pub fn vertical_momentum(&self, x: &RigidBodyState) -> f64 {
        e3().dot(&x.spatial_momentum())
    }

    /// The Casimirs `(|Γ|², Π·Γ)` of se(3)* at `μ = (Π, Γ)`.
    #[must_use]
    pub fn casimirs(&self, mu: &Vector6<f64>) -> (f64, f64) {
        let (pi, gamma) = split6(mu);
        (gamma.norm_squared(), pi.dot(&gamma))
    }

    /// The spatial momentum `Ad*_{g⁻¹}μ = (RΠ + x × RΓ, RΓ)` of the larger-group formulation,
    /// conserved by its flow (left invariance of `H`).
    #[must_use]
    pub fn larger_group_momentum(&self, p: &LargerGroupPoint) -> Vector6<f64> {
        p.0.coadjoint(&p.1)
    }

    /// The equations in ambient form: `(Ṙ, Π̇) = (RΩ̂, Π × Ω + m g (Rᵀe₃) × X)` (valid for
    /// any 3 × 3 matrix `R`, orthogonal or not).
    #[must_use]
    #[inline]
    pub fn ambient_rate(
        &self,
        r: &Matrix3<f64>,
        pi: &Vector3<f64>,
    ) -> (Matrix3<f64>, Vector3<f64>) {
        let omega = self.angular_velocity(pi);
        let gamma = vertical_in_body(r);
        (
            r * hat(&omega),
            pi.cross(&omega) + gamma.cross(&self.weight_moment_arm()),
        )
    }

    /// Canonical on the right-trivialized T*SO(3) ≅ SE(3), spatial momentum (eqs. (21)–(22)).
    #[must_use]
    pub fn canonical(&self) -> Problem<CotangentAction, Self> {
        Problem::new(CotangentAction::new(), *self)
    }

    /// Canonical on T*SO(3) in body momentum, `(R, Π)` on SO(3) × ℝ³ (eqs. (19)–(20)).
    #[must_use]
    pub fn canonical_body(&self) -> Problem<AttitudeAction, Self> {
        Problem::new(AttitudeAction::new(), *self)
    }

    /// The same `(R, Π)` equations (19)–(20) in the body frame: `f(R, Π) = (−Ω, Π × Ω + m g Γ × X)`
    /// for [`AttitudeBodyAction`] (`Ṙ = RΩ̂` through right multiplication). The cheaper form to
    /// integrate: a stage needs `Γ` from its attitude but never `RΩ`.
    #[must_use]
    pub fn body_frame(&self) -> Problem<AttitudeBodyAction, BodyFrame<Self>> {
        Problem::new(AttitudeBodyAction::default(), BodyFrame(*self))
    }

    /// Lie–Poisson on se(3)* with the coadjoint action of SE(3) (eqs. (23)–(24)).
    #[must_use]
    pub fn lie_poisson(&self) -> Problem<Se3Coadjoint<f64>, Self> {
        Problem::new(Se3Coadjoint::new(), *self)
    }

    /// Canonical on T*SE(3) with the left-invariant quadratic Hamiltonian (§3.4.3).
    #[must_use]
    pub fn larger_group(&self) -> Problem<LargerGroupAction, Self> {
        Problem::new((LeftMultiplication::new(), Se3Coadjoint::new()), *self)
    }

    /// The ambient ODE on ℝ¹² (`R` column-major, then `Π`).
    #[must_use]
    pub fn ambient(&self) -> Problem<Ambient12Action, Self> {
        Problem::new(Ambient12Action::new(), *self)
    }
}

impl RigidBodyState {
    /// The body vertical `Γ = Rᵀe₃`.
    #[must_use]
    pub fn body_vertical(&self) -> Vector3<f64> {
        self.attitude.inverse_rotate(&e3())
    }

    /// The heavy-top point `μ = (Π, Γ) ∈ se(3)*` (`Γ = Rᵀe₃`).
    #[must_use]
    pub fn to_lie_poisson(&self) -> Vector6<f64> {
        join6(&self.momentum, &self.body_vertical())
    }

    /// The heavy-top point `((R, 0), (Π, Rᵀe₃))` of the larger-group formulation (the position
    /// `x` starts at 0; its value does not influence `(R, Π)`).
    #[must_use]
    pub fn to_larger_group(&self) -> LargerGroupPoint {
        (
            Se3::from_parts(self.attitude, Vector3::zeros()),
            self.to_lie_poisson(),
        )
    }

    /// `(R, Π)` from a larger-group point (the position `x` and `Γ` are dropped).
    #[must_use]
    pub fn from_larger_group(p: &LargerGroupPoint) -> Self {
        Self::new(*p.0.rotation(), split6(&p.1).0)
    }
}

/// `f(R, π) = (ω, −ω × π − m g (RX) × e₃)` for [`CotangentAction`].
impl LieVectorField<f64, Se3<f64>, Vector6<f64>> for HeavyTop {
    #[inline]
    fn eval(&self, _t: f64, p: &Se3<f64>, out: &mut Vector6<f64>) {
        let r = p.rotation();
        let pi = p.translation();
        let omega = r.rotate(&self.angular_velocity(&r.inverse_rotate(pi)));
        let nu = omega.cross(pi) + r.rotate(&self.weight_moment_arm()).cross(&e3());
        *out = join6(&omega, &(-nu));
    }
}

/// `f(R, Π) = (−Ω, Π × Ω + m g Γ × X)` for [`AttitudeBodyAction`].
impl LieVectorField<f64, AttitudePoint, (Vector3<f64>, Vector3<f64>)> for BodyFrame<HeavyTop> {
    #[inline]
    fn eval(&self, _t: f64, p: &AttitudePoint, out: &mut (Vector3<f64>, Vector3<f64>)) {
        let top = &self.0;
        let pi = p.1.0;
        let omega = top.angular_velocity(&pi);
        let gamma = vertical_in_body(p.0.matrix());
        *out = (
            -omega,
            pi.cross(&omega) + gamma.cross(&top.weight_moment_arm()),
        );
    }
}

/// `f(R, Π) = (RΩ, Π × Ω + m g Γ × X)` for [`AttitudeAction`].
impl LieVectorField<f64, AttitudePoint, (Vector3<f64>, Vector3<f64>)> for HeavyTop {
    #[inline]
    fn eval(&self, _t: f64, p: &AttitudePoint, out: &mut (Vector3<f64>, Vector3<f64>)) {
        let pi = p.1.0;
        let omega = self.angular_velocity(&pi);
        let gamma = vertical_in_body(p.0.matrix());
        *out = (
            p.0.rotate(&omega),
            pi.cross(&omega) + gamma.cross(&self.weight_moment_arm()),
        );
    }
}

/// `f(Π, Γ) = −(J⁻¹Π, m g X)` for [`Se3Coadjoint`].
impl LieVectorField<f64, Vector6<f64>, Vector6<f64>> for HeavyTop {
    #[inline]
    fn eval(&self, _t: f64, mu: &Vector6<f64>, out: &mut Vector6<f64>) {
        let (pi, _) = split6(mu);
        *out = -join6(&self.angular_velocity(&pi), &self.weight_moment_arm());
    }
}

/// `f(g, μ) = (Ad_g ξ, −ξ)`, `ξ = (J⁻¹Π, m g X)`, for [`LargerGroupAction`].
impl LieVectorField<f64, LargerGroupPoint, (Vector6<f64>, Vector6<f64>)> for HeavyTop {
    #[inline]
    fn eval(&self, _t: f64, p: &LargerGroupPoint, out: &mut (Vector6<f64>, Vector6<f64>)) {
        let (pi, _) = split6(&p.1);
        let xi = join6(&self.angular_velocity(&pi), &self.weight_moment_arm());
        *out = (p.0.adjoint(&xi), -xi);
    }
}

/// `(Ṙ, Π̇)` flattened, for [`Ambient12Action`].
impl LieVectorField<f64, Rn<f64, 12>, SVector<f64, 12>> for HeavyTop {
    #[inline]
    fn eval(&self, _t: f64, p: &Rn<f64, 12>, out: &mut SVector<f64, 12>) {
        let (r, pi) = split12(&p.0);
        let (rd, pd) = self.ambient_rate(&r, &pi);
        *out = join12(&rd, &pd);
    }
}
