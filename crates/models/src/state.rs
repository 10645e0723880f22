//! States `(q, ω) ∈ (TS²)ⁿ` of Lagrangian systems on (S²)ⁿ, and a small seeded generator of
//! random states.

use crate::error::{ModelError, same_len, unit};
use homogeneous::TangentSphere2;
use liegroup::Rn;
use nalgebra::{Vector3, Vector6};

/// The tolerance on unit length and tangency used by the validated constructors of this crate:
/// a vector `q` is accepted as a unit vector when `||q| − 1| ≤ 10⁻¹⁰`, and `ω` as tangent to `q`
/// when `|q·ω| ≤ 10⁻¹⁰·max(1, |ω|)` (the value of `homogeneous::SPHERE_TOLERANCE`).
pub const UNIT_TOLERANCE: f64 = 1e-10;

/// A state of a system on (S²)ⁿ: directions `qᵢ ∈ S²` and angular velocities `ωᵢ` with
/// `qᵢ·ωᵢ = 0`, so that `q̇ᵢ = ωᵢ × qᵢ` \[LLM09, eq. (2.1)\].
///
/// The fields are public plain data: the constructors [`try_new`](SphereState::try_new) and
/// [`new_projected`](SphereState::new_projected) validate, while states produced by an
/// integrator in ambient coordinates may drift off (TS²)ⁿ, and every function of this crate
/// accepts them (that drift is what the invariants [`unit_length_error`](crate::unit_length_error)
/// and [`tangency_error`](crate::tangency_error) measure).
#[derive(Clone, Debug, PartialEq)]
pub struct SphereState {
    /// The directions `qᵢ`.
    pub q: Vec<Vector3<f64>>,
    /// The angular velocities `ωᵢ`.
    pub omega: Vec<Vector3<f64>>,
}

impl SphereState {
    /// A validated state: `n ≥ 1`, equal lengths, finite entries, `||qᵢ| − 1| ≤`
    /// [`UNIT_TOLERANCE`] and `|qᵢ·ωᵢ| ≤ UNIT_TOLERANCE·max(1, |ωᵢ|)`.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`], [`ModelError::NonFinite`],
    /// [`ModelError::NotUnit`], [`ModelError::NotTangent`].
    pub fn try_new(q: Vec<Vector3<f64>>, omega: Vec<Vector3<f64>>) -> Result<Self, ModelError> {
        if q.is_empty() {
            return Err(ModelError::NoBodies);
        }
        same_len("omega", q.len(), omega.len())?;
        for (i, (qi, wi)) in q.iter().zip(&omega).enumerate() {
            unit("q", i, qi)?;
            if !wi.iter().all(|x| x.is_finite()) {
                return Err(ModelError::NonFinite {
                    name: "omega",
                    index: i,
                });
            }
            let dot = qi.dot(wi);
            if dot.abs() > UNIT_TOLERANCE * wi.norm().max(1.0) {
                return Err(ModelError::NotTangent { index: i, dot });
            }
        }
        Ok(Self { q, omega })
    }

    /// A state from arbitrary non-zero `qᵢ` (normalized) and `ωᵢ` (projected onto the plane
    /// orthogonal to `qᵢ`).
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`], [`ModelError::NonFinite`],
    /// and [`ModelError::NotUnit`] (with norm 0) for a zero `qᵢ`.
    pub fn new_projected(
        q: Vec<Vector3<f64>>,
        omega: Vec<Vector3<f64>>,
    ) -> Result<Self, ModelError> {
        if q.is_empty() {
            return Err(ModelError::NoBodies);
        }
        same_len("omega", q.len(), omega.len())?;
        let mut qs = Vec::with_capacity(q.len());
        let mut ws = Vec::with_capacity(q.len());
        for (i, (qi, wi)) in q.iter().zip(&omega).enumerate() {
            if !qi.iter().chain(wi.iter()).all(|x| x.is_finite()) {
                return Err(ModelError::NonFinite {
                    name: "q",
                    index: i,
                });
            }
            let norm = qi.norm();
            if norm == 0.0 {
                return Err(ModelError::NotUnit {
                    name: "q",
                    index: i,
                    norm,
                });
            }
            let qn = qi / norm;
            qs.push(qn);
            ws.push(wi - qn * qn.dot(wi));
        }
        Ok(Self { q: qs, omega: ws })
    }

    /// A reproducible random state: `qᵢ` uniform on S², `ωᵢ` a Gaussian vector with standard
    /// deviation `omega_scale` per coordinate projected onto the tangent plane. The generator is
    /// SplitMix64 seeded with `seed`, normal deviates by Box–Muller; the sequence is part of the
    /// API (presets depend on it) and will not change.
    ///
    /// # Panics
    /// If `n == 0`.
    #[must_use]
    pub fn random(n: usize, omega_scale: f64, seed: u64) -> Self {
        assert!(n > 0, "SphereState::random: n must be positive");
        let mut rng = SplitMix64::new(seed);
        let mut q = Vec::with_capacity(n);
        let mut omega = Vec::with_capacity(n);
        for _ in 0..n {
            let qi = loop {
                let v = Vector3::new(rng.normal(), rng.normal(), rng.normal());
                let norm = v.norm();
                if norm > 1e-8 {
                    break v / norm;
                }
            };
            let w = Vector3::new(rng.normal(), rng.normal(), rng.normal()) * omega_scale;
            omega.push(w - qi * qi.dot(&w));
            q.push(qi);
        }
        Self { q, omega }
    }

    /// The number of bodies `n`.
    #[must_use]
    pub fn bodies(&self) -> usize {
        self.q.len()
    }

    /// The state as points of TS² (the points of `VecPowerAction<TangentSphereAction>`, for
    /// the Lie group formulation [`LieField`](crate::LieField)). Not re-validated (built with
    /// `TangentSphere2::new_unchecked`): a state from [`try_new`](Self::try_new) is on (TS²)ⁿ.
    #[must_use]
    pub fn to_tangent_points(&self) -> Vec<TangentSphere2<f64>> {
        self.q
            .iter()
            .zip(&self.omega)
            .map(|(q, w)| TangentSphere2::new_unchecked(*q, *w))
            .collect()
    }

    /// The state stored in points of TS².
    #[must_use]
    pub fn from_tangent_points(points: &[TangentSphere2<f64>]) -> Self {
        Self {
            q: points.iter().map(|p| *p.q()).collect(),
            omega: points.iter().map(|p| *p.omega()).collect(),
        }
    }

    /// The ambient coordinates per body, `(qᵢ, ωᵢ) ∈ ℝ⁶`, as points of ℝ⁶ (the state of the
    /// ambient ODE [`AmbientField`](crate::AmbientField) under left multiplication, i.e. for
    /// classical Runge–Kutta methods run by the Lie group engines).
    #[must_use]
    pub fn to_rn_points(&self) -> Vec<Rn<f64, 6>> {
        self.q
            .iter()
            .zip(&self.omega)
            .map(|(q, w)| Rn::new(Vector6::new(q.x, q.y, q.z, w.x, w.y, w.z)))
            .collect()
    }

    /// The state stored in ambient points `(qᵢ, ωᵢ) ∈ ℝ⁶` (no validation: ambient integrators
    /// drift off the manifold).
    #[must_use]
    pub fn from_rn_points(points: &[Rn<f64, 6>]) -> Self {
        let q = points
            .iter()
            .map(|p| Vector3::new(p.0[0], p.0[1], p.0[2]))
            .collect();
        let omega = points
            .iter()
            .map(|p| Vector3::new(p.0[3], p.0[4], p.0[5]))
            .collect();
        Self { q, omega }
    }

    /// The flat ambient vector `(q₁, ω₁, q₂, ω₂, …) ∈ ℝ⁶ⁿ` (the layout of
    /// [`AmbientField::eval_flat`](crate::AmbientField::eval_flat)).
    #[must_use]
    pub fn to_flat(&self) -> Vec<f64> {
        let mut y = Vec::with_capacity(6 * self.bodies());
        for (q, w) in self.q.iter().zip(&self.omega) {
            y.extend_from_slice(q.as_slice());
            y.extend_from_slice(w.as_slice());
        }
        y
    }

    /// The state stored in a flat ambient vector `(q₁, ω₁, q₂, ω₂, …)` (no validation).
    ///
    /// # Errors
    /// [`ModelError::DimensionMismatch`] when the length is not a positive multiple of 6.
    pub fn from_flat(y: &[f64]) -> Result<Self, ModelError> {
        if y.is_empty() || !y.len().is_multiple_of(6) {
            return Err(ModelError::DimensionMismatch {
                what: "flat ambient state (a positive multiple of 6)",
                expected: 6 * (y.len() / 6).max(1),
                found: y.len(),
            });
        }
        let q = y
            .chunks_exact(6)
            .map(|c| Vector3::new(c[0], c[1], c[2]))
            .collect();
        let omega = y
            .chunks_exact(6)
            .map(|c| Vector3::new(c[3], c[4], c[5]))
            .collect();
        Ok(Self { q, omega })
    }
}

/// SplitMix64 \[SLF14\]: a tiny, well-mixed 64-bit generator used for
/// reproducible presets and tests without a dependency on `rand`.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
    spare: Option<f64>,
}

impl SplitMix64 {
    pub(crate) const fn new(seed: u64) -> Self {
        Self {
            state: seed,
            spare: None,
        }
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform on (0, 1).
    pub(crate) fn uniform(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// Standard normal (Box–Muller, both deviates used).
    pub(crate) fn normal(&mut self) -> f64 {
        if let Some(z) = self.spare.take() {
            return z;
        }
        let u1 = self.uniform();
        let u2 = self.uniform();
        let r = (-2.0 * u1.ln()).sqrt();
        let t = core::f64::consts::TAU * u2;
        self.spare = Some(r * t.sin());
        r * t.cos()
    }
}
