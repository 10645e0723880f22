//! Nonholonomic mechanical systems on Lie groups, for the integrators of
//! [`schemes::nonholonomic`] (see `docs/nonholonomic.md`):
//!
//! - [`ChaplyginSleigh`] and [`KnifeEdge`] (on an inclined plane) on SE(2),
//! - [`VerticalRollingDisk`] on SE(2) × ℝ,
//! - [`SuslovProblem`] on SO(3),
//! - the lift of the (S²)ⁿ systems of [`SphereSystem`](crate::SphereSystem) to SO(3)ⁿ
//!   (`SphereSystem` implements [`schemes::nonholonomic::SphereLagrangian`]).
//!
//! Each is a [`LieNonholonomicSystem`] in left trivialization `ġ = gξ`; se(2) coordinates are
//! `ξ = (ω, u, v)` (angular velocity, then the body-frame velocity `(u, v)` of the frame origin,
//! `u` forward), group elements `g = (θ, x, y)`.

use crate::error::{ModelError, non_negative, positive};
use liegroup::{LieGroup, Rn, Se2, So3};
use nalgebra::{Matrix3, Vector1, Vector3};
use schemes::nonholonomic::LieNonholonomicSystem;

/// The Chaplygin sleigh [Bloch, *Nonholonomic Mechanics and Control*, §1.7;
/// `docs/nonholonomic.md` §6.2]:
/// a rigid body on the plane supported by a knife edge at the frame origin that cannot slip
/// sideways, with centre of mass at distance `a` ahead on the blade:
///
/// ```text
///   ℓ(ω, u, v) = ½ m (u² + (v + aω)²) + ½ J ω²,    constraint v = 0 (ω¹ = e_v*),     (M1)
///   μ = (Jω + ma(v + aω), m u, m(v + aω)),
///   ω̇ = −m a u ω/(J + m a²),  u̇ = a ω²,  E = ½ m u² + ½ (J + m a²) ω²,
/// ```
///
/// with `J` the moment of inertia about the centre of mass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChaplyginSleigh {
    m: f64,
    j: f64,
    a: f64,
}

impl ChaplyginSleigh {
    /// Mass `m > 0`, inertia `J > 0` about the centre of mass, offset `a` (finite).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`], [`ModelError::NonFinite`].
    pub fn new(m: f64, j: f64, a: f64) -> Result<Self, ModelError> {
        positive("mass", 0, m)?;
        positive("inertia", 0, j)?;
        if !a.is_finite() {
            return Err(ModelError::NonFinite {
                name: "offset",
                index: 0,
            });
        }
        Ok(Self { m, j, a })
    }
    /// The test data of `docs/nonholonomic.md` §6.2: `m = 1, J = 0.5, a = 0.3`.
    #[must_use]
    pub fn preset() -> Self {
        Self {
            m: 1.0,
            j: 0.5,
            a: 0.3,
        }
    }
    /// The right-hand side `(ω̇, u̇)` of the reduced equations (M1) on `v = 0`.
    #[must_use]
    pub fn reduced_field(&self, omega: f64, u: f64) -> (f64, f64) {
        (
            -self.m * self.a * u * omega / (self.j + self.m * self.a * self.a),
            self.a * omega * omega,
        )
    }
}

impl LieNonholonomicSystem for ChaplyginSleigh {
    type Group = Se2<f64>;
    fn constraint_count(&self) -> usize {
        1
    }
    fn kinetic(&self, x: &Vector3<f64>) -> f64 {
        let s = x[2] + self.a * x[0];
        0.5 * self.m * (x[1] * x[1] + s * s) + 0.5 * self.j * x[0] * x[0]
    }
    fn momentum(&self, x: &Vector3<f64>) -> Vector3<f64> {
        let s = self.m * (x[2] + self.a * x[0]);
        Vector3::new(self.j * x[0] + self.a * s, self.m * x[1], s)
    }
    fn constraint_form(&self, _g: &Se2<f64>, _a: usize) -> Vector3<f64> {
        Vector3::z()
    }
}

/// The knife edge on an inclined plane [Bloch, *Nonholonomic Mechanics and Control*, §1.6]:
/// a blade of mass `m` and inertia `J` about its contact point sliding without sideways slip on
/// a plane inclined at angle `α`, `x` pointing downhill:
///
/// ```text
///   ℓ = ½ m (u² + v²) + ½ J ω²,   V(g) = −m g sin α · x,   constraint v = 0,          (M2)
///   dV(g) = −m g sin α (0, cos θ, −sin θ)       (left-trivialized).
/// ```
///
/// Exact solution ([`exact`](Self::exact), `ω₀ ≠ 0`): `θ = θ₀ + ω₀t`,
/// `u = u₀ + k(sin θ − sin θ₀)` with `k = g sin α/ω₀`, and
///
/// ```text
///   x = x₀ + (u₀ − k s₀)(sin θ − s₀)/ω₀ + k (sin²θ − s₀²)/(2ω₀),
///   y = y₀ + (u₀ − k s₀)(c₀ − cos θ)/ω₀ + k [t/2 − (sin 2θ − sin 2θ₀)/(4ω₀)],           (M3)
/// ```
///
/// `s₀ = sin θ₀`, `c₀ = cos θ₀` (derived here from `u̇ = g sin α cos θ`, `ẋ = u cos θ`,
/// `ẏ = u sin θ`). Energy `½ m u² + ½ J ω² − m g sin α x`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KnifeEdge {
    m: f64,
    j: f64,
    g_sin: f64,
}

impl KnifeEdge {
    /// Mass `m > 0`, inertia `J > 0`, gravity `g ≥ 0`, inclination `α` (finite).
    ///
    /// # Errors
    /// [`ModelError::NonPositive`], [`ModelError::Negative`], [`ModelError::NonFinite`].
    pub fn new(m: f64, j: f64, g: f64, alpha: f64) -> Result<Self, ModelError> {
        positive("mass", 0, m)?;
        positive("inertia", 0, j)?;
        non_negative("gravity", g)?;
        if !alpha.is_finite() {
            return Err(ModelError::NonFinite {
                name: "inclination",
                index: 0,
            });
        }
        Ok(Self {
            m,
            j,
            g_sin: g * alpha.sin(),
        })
    }
    /// The exact solution (M3) at time `t` from `g₀ = (θ₀, x₀, y₀)` and `ξ₀ = (ω₀, u₀, 0)`,
    /// returning `(g(t), ξ(t))`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] when `ω₀ = 0` (the formula divides by `ω₀`).
    pub fn exact(
        &self,
        g0: &Se2<f64>,
        xi0: &Vector3<f64>,
        t: f64,
    ) -> Result<(Se2<f64>, Vector3<f64>), ModelError> {
        let w = xi0[0];
        if w == 0.0 || !w.is_finite() {
            return Err(ModelError::NonPositive {
                name: "|ω₀|",
                index: 0,
                value: w.abs(),
            });
        }
        let th0 = g0.rotation().angle();
        let p0 = g0.translation();
        let (s0, c0) = th0.sin_cos();
        let th = th0 + w * t;
        let (s, c) = th.sin_cos();
        let k = self.g_sin / w;
        let u0 = xi0[1];
        let x = p0.x + (u0 - k * s0) * (s - s0) / w + k * (s * s - s0 * s0) / (2.0 * w);
        let y = p0.y
            + (u0 - k * s0) * (c0 - c) / w
            + k * (t / 2.0 - ((2.0 * th).sin() - (2.0 * th0).sin()) / (4.0 * w));
        let u = u0 + k * (s - s0);
        Ok((
            Se2::from_angle_translation(th, nalgebra::Vector2::new(x, y)),
            Vector3::new(w, u, 0.0),
        ))
    }
}

impl LieNonholonomicSystem for KnifeEdge {
    type Group = Se2<f64>;
    fn constraint_count(&self) -> usize {
        1
    }
    fn kinetic(&self, x: &Vector3<f64>) -> f64 {
        0.5 * self.m * (x[1] * x[1] + x[2] * x[2]) + 0.5 * self.j * x[0] * x[0]
    }
    fn momentum(&self, x: &Vector3<f64>) -> Vector3<f64> {
        Vector3::new(self.j * x[0], self.m * x[1], self.m * x[2])
    }
    fn potential(&self, g: &Se2<f64>) -> f64 {
        -self.m * self.g_sin * g.translation().x
    }
    fn potential_differential(&self, g: &Se2<f64>) -> Vector3<f64> {
        let (s, c) = g.rotation().angle().sin_cos();
        Vector3::new(0.0, c, -s) * (-self.m * self.g_sin)
    }
    fn constraint_form(&self, _g: &Se2<f64>, _a: usize) -> Vector3<f64> {
        Vector3::z()
    }
}

/// The vertical rolling disk [Bloch, §1.4] on `SE(2) × ℝ`: `g = ((φ, x, y), θ)` with heading
/// `φ`, contact point `(x, y)` and rolling angle `θ`; `ξ = ((ω, u, v), θ̇)`. Radius `R`, mass
/// `m`, inertias `I` (about the rolling axis) and `J` (about the vertical):
///
/// ```text
///   ℓ = ½ m (u² + v²) + ½ I θ̇² + ½ J ω²,
///   constraints u − R θ̇ = 0, v = 0  (ẋ = R cos φ θ̇, ẏ = R sin φ θ̇),                   (M4)
/// ```
///
/// exact solution ([`exact`](Self::exact)): `φ = φ₀ + ω t`, `θ = θ₀ + θ̇ t`,
/// `x = x₀ + ρ(sin φ − sin φ₀)`, `y = y₀ − ρ(cos φ − cos φ₀)`, `ρ = R θ̇/ω` (`docs/nonholonomic.md`
/// §6.2; odelab `VerticalRollingDisk.exact`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VerticalRollingDisk {
    m: f64,
    r: f64,
    i: f64,
    j: f64,
}

/// The configuration group of the rolling disk, `SE(2) × ℝ`.
pub type DiskGroup = (Se2<f64>, Rn<f64, 1>);
/// Its algebra `se(2) × ℝ`.
pub type DiskAlgebra = (Vector3<f64>, Vector1<f64>);

impl VerticalRollingDisk {
    /// Mass `m`, radius `R`, inertias `I`, `J`, all positive.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`], [`ModelError::NonFinite`].
    pub fn new(m: f64, r: f64, i: f64, j: f64) -> Result<Self, ModelError> {
        positive("mass", 0, m)?;
        positive("radius", 0, r)?;
        positive("inertia", 0, i)?;
        positive("inertia", 1, j)?;
        Ok(Self { m, r, i, j })
    }
    /// The exact solution (M4) at time `t` from `g₀` and a velocity satisfying the constraints.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] when `ω = 0`.
    pub fn exact(
        &self,
        g0: &DiskGroup,
        xi0: &DiskAlgebra,
        t: f64,
    ) -> Result<DiskGroup, ModelError> {
        let w = xi0.0[0];
        if w == 0.0 || !w.is_finite() {
            return Err(ModelError::NonPositive {
                name: "|ω|",
                index: 0,
                value: w.abs(),
            });
        }
        let phi0 = g0.0.rotation().angle();
        let p0 = g0.0.translation();
        let rho = self.r * xi0.1[0] / w;
        let phi = phi0 + w * t;
        let x = p0.x + rho * (phi.sin() - phi0.sin());
        let y = p0.y - rho * (phi.cos() - phi0.cos());
        Ok((
            Se2::from_angle_translation(phi, nalgebra::Vector2::new(x, y)),
            Rn(g0.1.0 + xi0.1 * t),
        ))
    }
}

impl LieNonholonomicSystem for VerticalRollingDisk {
    type Group = DiskGroup;
    fn constraint_count(&self) -> usize {
        2
    }
    fn kinetic(&self, x: &DiskAlgebra) -> f64 {
        let (s, r) = x;
        0.5 * self.m * (s[1] * s[1] + s[2] * s[2])
            + 0.5 * self.i * r[0] * r[0]
            + 0.5 * self.j * s[0] * s[0]
    }
    fn momentum(&self, x: &DiskAlgebra) -> DiskAlgebra {
        let (s, r) = x;
        (
            Vector3::new(self.j * s[0], self.m * s[1], self.m * s[2]),
            Vector1::new(self.i * r[0]),
        )
    }
    fn constraint_form(&self, _g: &DiskGroup, a: usize) -> DiskAlgebra {
        if a == 0 {
            (Vector3::y(), Vector1::new(-self.r))
        } else {
            (Vector3::z(), Vector1::zeros())
        }
    }
}

/// The Suslov problem [Bloch, §1.9; Fedorov & Zenkov 2005]: a rigid body with inertia `𝕀`
/// whose body angular velocity is constrained to the plane `⟨a, Ω⟩ = 0` for a fixed body
/// vector `a`:
///
/// ```text
///   ℓ(Ω) = ½ Ω·𝕀Ω,   𝕀Ω̇ = 𝕀Ω × Ω + λ a,   a·Ω = 0,   E = ½ Ω·𝕀Ω.                   (M5)
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SuslovProblem {
    inertia: Matrix3<f64>,
    a: Vector3<f64>,
}

impl SuslovProblem {
    /// Inertia `𝕀` (symmetric positive definite) and constraint vector `a` (unit).
    ///
    /// # Errors
    /// [`ModelError::InertiaNotSymmetric`], [`ModelError::InertiaNotPositiveDefinite`],
    /// [`ModelError::NotUnit`], [`ModelError::NonFinite`].
    pub fn new(inertia: Matrix3<f64>, a: Vector3<f64>) -> Result<Self, ModelError> {
        for (k, v) in inertia.iter().enumerate() {
            if !v.is_finite() {
                return Err(ModelError::NonFinite {
                    name: "inertia",
                    index: k,
                });
            }
        }
        for i in 0..3 {
            for j in 0..i {
                let (mij, mji) = (inertia[(i, j)], inertia[(j, i)]);
                if (mij - mji).abs() > 1e-12 * (1.0 + mij.abs()) {
                    return Err(ModelError::InertiaNotSymmetric { i, j, mij, mji });
                }
            }
        }
        // Leading principal minors (Sylvester).
        let minors = [
            inertia[(0, 0)],
            inertia[(0, 0)] * inertia[(1, 1)] - inertia[(0, 1)] * inertia[(1, 0)],
            inertia.determinant(),
        ];
        for (pivot, &value) in minors.iter().enumerate() {
            if value <= 0.0 {
                return Err(ModelError::InertiaNotPositiveDefinite { pivot, value });
            }
        }
        let a = crate::error::unit("a", 0, &a)?;
        Ok(Self { inertia, a })
    }
    /// The constraint vector `a`.
    #[must_use]
    pub fn constraint_vector(&self) -> Vector3<f64> {
        self.a
    }
}

impl LieNonholonomicSystem for SuslovProblem {
    type Group = So3<f64>;
    fn constraint_count(&self) -> usize {
        1
    }
    fn kinetic(&self, x: &Vector3<f64>) -> f64 {
        0.5 * x.dot(&(self.inertia * x))
    }
    fn momentum(&self, x: &Vector3<f64>) -> Vector3<f64> {
        self.inertia * x
    }
    fn constraint_form(&self, _g: &So3<f64>, _a: usize) -> Vector3<f64> {
        self.a
    }
}

/// The nonholonomic particle [Bloch, §1.2; `docs/nonholonomic.md` §6.2] on `ℝ³` (the additive
/// group, so `ξ = q̇` and `exp(ξ) = ξ`), with the potential of the test data there:
///
/// ```text
///   L = ½|q̇|² − V(q),   V = ½(x² + y² + z²) + ε x² z²,   constraint ż = y ẋ,
///   ω(q) = (−y, 0, 1),   E = ½|q̇|² + V(q).                                               (M6)
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NonholonomicParticle {
    eps: f64,
}

impl NonholonomicParticle {
    /// Coupling `ε` (finite).
    ///
    /// # Errors
    /// [`ModelError::NonFinite`].
    pub fn new(eps: f64) -> Result<Self, ModelError> {
        if !eps.is_finite() {
            return Err(ModelError::NonFinite {
                name: "epsilon",
                index: 0,
            });
        }
        Ok(Self { eps })
    }
}

impl LieNonholonomicSystem for NonholonomicParticle {
    type Group = Rn<f64, 3>;
    fn constraint_count(&self) -> usize {
        1
    }
    fn kinetic(&self, x: &Vector3<f64>) -> f64 {
        0.5 * x.norm_squared()
    }
    fn momentum(&self, x: &Vector3<f64>) -> Vector3<f64> {
        *x
    }
    fn potential(&self, g: &Rn<f64, 3>) -> f64 {
        let q = g.0;
        0.5 * q.norm_squared() + self.eps * q.x * q.x * q.z * q.z
    }
    fn potential_differential(&self, g: &Rn<f64, 3>) -> Vector3<f64> {
        let q = g.0;
        q + Vector3::new(
            2.0 * self.eps * q.x * q.z * q.z,
            0.0,
            2.0 * self.eps * q.x * q.x * q.z,
        )
    }
    fn constraint_form(&self, g: &Rn<f64, 3>, _a: usize) -> Vector3<f64> {
        Vector3::new(-g.0.y, 0.0, 1.0)
    }
}

/// The velocity-level constraint residual `max_a |⟨ωᵃ(g), ξ⟩|` of any system.
#[must_use]
pub fn constraint_residual<S: LieNonholonomicSystem>(
    system: &S,
    g: &S::Group,
    xi: &<S::Group as LieGroup>::Algebra,
) -> f64 {
    system
        .constraint_values(g, xi)
        .into_iter()
        .fold(0.0, |m, v| m.max(v.abs()))
}
