//! Rigid bodies in a heat bath and the BAOAB-type splitting integrator on `(SO(3) × ℝ³)ᴺ`
//! (`docs/langevin.md` §3–§4).

use super::resistance::ResistanceTensor;
use crate::error::{ModelError, positive, same_len};
use liegroup::So3;
use nalgebra::{Matrix6, Vector3, Vector6};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use schemes::symplectic::{CotangentPoint, DlmSplitting, NoPotential, RigidBody};

/// A rigid body in a heat bath: mass `m`, principal moments of inertia `I` about the centre of
/// mass, the resistance tensor `Ξ` in body coordinates **at the centre of mass**, and the
/// temperature `kT` (\[SLG08\], `docs/langevin.md` §3).
///
/// With the generalized body-frame velocity `u = (V, Ω)` (`V = Rᵀv` the body components of the
/// centre-of-mass velocity, `Ω` the body angular velocity; translation first) and
/// `𝕄 = diag(m, m, m, I₁, I₂, I₃)`, the friction and noise act as
///
/// ```text
///   𝕄 du = −Ξ u dt + √(2kT) Ξ^{½} dW      (in addition to the Hamiltonian motion),
/// ```
///
/// whose noise covariance `2kT Ξ` is the fluctuation–dissipation theorem: the Gibbs
/// distribution `u ~ N(0, kT 𝕄⁻¹)` is invariant.
#[derive(Clone, Debug, PartialEq)]
pub struct LangevinBody {
    mass: f64,
    inertia: Vector3<f64>,
    resistance: ResistanceTensor,
    kt: f64,
}

impl LangevinBody {
    /// A body from its mass, principal inertia, resistance tensor at the centre of mass (body
    /// frame) and `kT`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] unless `m`, every `Iᵢ` and `kT` are
    /// positive and finite.
    pub fn new(
        mass: f64,
        inertia: Vector3<f64>,
        resistance_at_com: ResistanceTensor,
        kt: f64,
    ) -> Result<Self, ModelError> {
        positive("mass", 0, mass)?;
        for i in 0..3 {
            positive("inertia", i, inertia[i])?;
        }
        positive("kT", 0, kt)?;
        Ok(Self {
            mass,
            inertia,
            resistance: resistance_at_com,
            kt,
        })
    }

    /// As [`new`](Self::new), with `Ξ` given at a reference point `O`; `r_o_com` is the centre of
    /// mass relative to `O` (body frame), and `Ξ` is moved there by
    /// [`ResistanceTensor::moved_to`].
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn with_resistance_at(
        mass: f64,
        inertia: Vector3<f64>,
        resistance: &ResistanceTensor,
        r_o_com: &Vector3<f64>,
        kt: f64,
    ) -> Result<Self, ModelError> {
        Self::new(mass, inertia, resistance.moved_to(r_o_com), kt)
    }

    /// A uniform solid sphere of radius `a` (`I = 2ma²/5`) with Stokes' resistance in a fluid of
    /// viscosity `η`.
    ///
    /// # Errors
    /// As [`new`](Self::new) and [`ResistanceTensor::sphere`].
    pub fn sphere(mass: f64, radius: f64, eta: f64, kt: f64) -> Result<Self, ModelError> {
        let xi = ResistanceTensor::sphere(eta, radius)?;
        Self::new(mass, Vector3::repeat(0.4 * mass * radius * radius), xi, kt)
    }

    /// A uniform solid spheroid, symmetry axis body `e₃` with semi-axis `a`, equatorial
    /// semi-axes `b` (`I₁ = I₂ = m(a² + b²)/5`, `I₃ = 2mb²/5`), with Perrin's resistance
    /// ([`ResistanceTensor::spheroid`]).
    ///
    /// # Errors
    /// As [`new`](Self::new) and [`ResistanceTensor::spheroid`].
    pub fn spheroid(mass: f64, a: f64, b: f64, eta: f64, kt: f64) -> Result<Self, ModelError> {
        let xi = ResistanceTensor::spheroid(eta, a, b)?;
        let perp = 0.2 * mass * (a * a + b * b);
        Self::new(mass, Vector3::new(perp, perp, 0.4 * mass * b * b), xi, kt)
    }

    /// The mass `m`.
    #[must_use]
    pub fn mass(&self) -> f64 {
        self.mass
    }

    /// The principal moments of inertia about the centre of mass.
    #[must_use]
    pub fn inertia(&self) -> Vector3<f64> {
        self.inertia
    }

    /// The resistance tensor at the centre of mass (body frame).
    #[must_use]
    pub fn resistance(&self) -> &ResistanceTensor {
        &self.resistance
    }

    /// `kT`.
    #[must_use]
    pub fn kt(&self) -> f64 {
        self.kt
    }

    /// The diffusion tensor `D = kT Ξ⁻¹` at the centre of mass (body frame, translation first).
    ///
    /// # Errors
    /// Never for a body built by the constructors (`Ξ` is positive definite).
    pub fn diffusion(&self) -> Result<Matrix6<f64>, ModelError> {
        self.resistance.diffusion(self.kt)
    }

    /// `½ m |v|²`.
    #[must_use]
    pub fn translational_kinetic_energy(&self, s: &LangevinState) -> f64 {
        0.5 * self.mass * s.v.norm_squared()
    }

    /// `½ ΩᵀIΩ`.
    #[must_use]
    pub fn rotational_kinetic_energy(&self, s: &LangevinState) -> f64 {
        0.5 * s.omega.dot(&self.inertia.component_mul(&s.omega))
    }
}

/// The state of one body: centre of mass `x`, attitude `R` (body → space), centre-of-mass
/// velocity `v` (space frame) and body angular velocity `Ω`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LangevinState {
    /// Centre of mass (space frame).
    pub x: Vector3<f64>,
    /// Attitude, body → space.
    pub r: So3,
    /// Centre-of-mass velocity (space frame).
    pub v: Vector3<f64>,
    /// Angular velocity (body frame).
    pub omega: Vector3<f64>,
}

impl LangevinState {
    /// A body at rest at `x` with attitude `R`.
    #[must_use]
    pub fn at_rest(x: Vector3<f64>, r: So3) -> Self {
        Self {
            x,
            r,
            v: Vector3::zeros(),
            omega: Vector3::zeros(),
        }
    }
}

/// An external potential `U(x, R)` on each body: the space-frame force `F = −∇ₓU` and the
/// body-frame moment `M(R)` (the convention of
/// [`RigidBodyPotential`](schemes::symplectic::RigidBodyPotential)).
pub trait BodyPotential: Clone + core::fmt::Debug + Send + Sync {
    /// `U(x, R)`.
    fn energy(&self, x: &Vector3<f64>, r: &So3) -> f64;
    /// `F = −∇ₓU` (space frame).
    fn force(&self, x: &Vector3<f64>, r: &So3) -> Vector3<f64>;
    /// The body-frame moment `M`.
    fn moment(&self, x: &Vector3<f64>, r: &So3) -> Vector3<f64>;
}

/// No external potential (free Brownian bodies).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FreeBodies;

impl BodyPotential for FreeBodies {
    fn energy(&self, _x: &Vector3<f64>, _r: &So3) -> f64 {
        0.0
    }
    fn force(&self, _x: &Vector3<f64>, _r: &So3) -> Vector3<f64> {
        Vector3::zeros()
    }
    fn moment(&self, _x: &Vector3<f64>, _r: &So3) -> Vector3<f64> {
        Vector3::zeros()
    }
}

/// An isotropic harmonic trap `U = ½ k |x|²` on the centre of mass (`⟨U⟩ = 3/2 kT` at
/// equilibrium).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HarmonicTrap {
    stiffness: f64,
}

impl HarmonicTrap {
    /// The trap with stiffness `k`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] unless `k` is positive and finite.
    pub fn new(stiffness: f64) -> Result<Self, ModelError> {
        Ok(Self {
            stiffness: positive("stiffness", 0, stiffness)?,
        })
    }
}

impl BodyPotential for HarmonicTrap {
    fn energy(&self, x: &Vector3<f64>, _r: &So3) -> f64 {
        0.5 * self.stiffness * x.norm_squared()
    }
    fn force(&self, x: &Vector3<f64>, _r: &So3) -> Vector3<f64> {
        -x * self.stiffness
    }
    fn moment(&self, _x: &Vector3<f64>, _r: &So3) -> Vector3<f64> {
        Vector3::zeros()
    }
}

/// The splitting integrator for `N` identical, independent rigid bodies in a heat bath
/// (`docs/langevin.md` §4): one step of size `h` is
///
/// ```text
///   B(h/2) A(h/2) O(h) A(h/2) B(h/2)
/// ```
///
/// - **B** (kick): `v ← v + τ F/m`, `Ω ← Ω + τ I⁻¹M` (the DLM kicks (D3)/(D4)).
/// - **A** (drift): `x ← x + τ v` and the DLM free rotor (D2) for time `τ` on `(R, Π = IΩ)`
///   ([`DlmSplitting`], \[DLM97\]): exact rotations, so `R` stays orthogonal to round-off.
/// - **O** (friction and noise, exact): with `u = (Rᵀv, Ω)` and `K = 𝕄^{−½} Ξ 𝕄^{−½} = VΛVᵀ`,
///
///   ```text
///     u ← E u + C z,   E = e^{−h𝕄⁻¹Ξ} = 𝕄^{−½} V e^{−hΛ} Vᵀ 𝕄^{½},
///                      C = √kT 𝕄^{−½} V (1 − e^{−2hΛ})^{½},   z ~ N(0, 1₆),
///   ```
///
///   the exact transition of the Ornstein–Uhlenbeck process `𝕄 du = −Ξu dt + √(2kT) Ξ^{½} dW`
///   for a frozen attitude: its covariance `CCᵀ = kT(𝕄⁻¹ − E𝕄⁻¹Eᵀ)` is fixed by
///   fluctuation–dissipation, so `N(0, kT𝕄⁻¹)` is exactly invariant (for momenta
///   `p = 𝕄u` this is `kT(𝕄 − e^{−hΞ𝕄⁻¹}𝕄e^{−h𝕄⁻¹Ξ})`).
///
/// With no potential and an isotropic inertia the step leaves the Maxwell distribution exactly
/// invariant; an anisotropic inertia adds the `O(h²)` error of the DLM free rotor. `E` and `C`
/// are computed once (`h` is fixed); a step allocates nothing.
///
/// **Random numbers.** Body `i` draws from its own ChaCha8 stream (`seed`, stream `i`) with
/// Box–Muller normals, so a run is bitwise reproducible for a seed, and (with the `rayon`
/// feature, bodies stepped in parallel) for any number of threads.
///
/// # Example
/// ```
/// use liegroup::So3;
/// use models::langevin::{FreeBodies, LangevinBody, LangevinSplitting, LangevinState};
/// use nalgebra::Vector3;
/// let body = LangevinBody::sphere(1.0, 1.0, 0.1, 1.0).unwrap();
/// let mut lang = LangevinSplitting::new(body, FreeBodies, 0.01, 4, 7).unwrap();
/// let mut states = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); 4];
/// lang.step(&mut states).unwrap();
/// assert!(states.iter().all(|s| s.v.norm() > 0.0));
/// ```
#[derive(Clone, Debug)]
pub struct LangevinSplitting<P> {
    body: LangevinBody,
    potential: P,
    h: f64,
    decay: Matrix6<f64>,
    noise: Matrix6<f64>,
    rotor: DlmSplitting<NoPotential>,
    rngs: Vec<ChaCha8Rng>,
}

impl<P: BodyPotential> LangevinSplitting<P> {
    /// The integrator with step `h` for `n_bodies` bodies, noise seeded by `seed`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] for a step that is not positive
    /// and finite, [`ModelError::NoBodies`] for `n_bodies = 0`,
    /// [`ModelError::NotPositiveDefinite`] if `Ξ` is not (it always is when built by
    /// [`ResistanceTensor`]'s constructors).
    pub fn new(
        body: LangevinBody,
        potential: P,
        h: f64,
        n_bodies: usize,
        seed: u64,
    ) -> Result<Self, ModelError> {
        positive("step size", 0, h)?;
        if n_bodies == 0 {
            return Err(ModelError::NoBodies);
        }
        let (decay, noise) = ou_matrices(&body, h)?;
        let rigid = RigidBody::free(body.inertia).map_err(|_| ModelError::NonPositive {
            name: "inertia",
            index: 0,
            value: body.inertia.min(),
        })?;
        let rngs = (0..n_bodies)
            .map(|i| {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                rng.set_stream(i as u64);
                rng
            })
            .collect();
        Ok(Self {
            body,
            potential,
            h,
            decay,
            noise,
            rotor: DlmSplitting::new(rigid),
            rngs,
        })
    }

    /// The body.
    #[must_use]
    pub fn body(&self) -> &LangevinBody {
        &self.body
    }

    /// The potential.
    #[must_use]
    pub fn potential(&self) -> &P {
        &self.potential
    }

    /// The step size `h`.
    #[must_use]
    pub fn step_size(&self) -> f64 {
        self.h
    }

    /// The matrices `(E, C)` of the O step (see the type's documentation).
    #[must_use]
    pub fn ou_matrices(&self) -> (Matrix6<f64>, Matrix6<f64>) {
        (self.decay, self.noise)
    }

    /// One step of every body.
    ///
    /// # Errors
    /// [`ModelError::DimensionMismatch`] unless `states.len()` is the number of bodies given to
    /// [`new`](Self::new); [`ModelError::NonFinite`] (with the body index) if a state becomes
    /// non-finite.
    pub fn step(&mut self, states: &mut [LangevinState]) -> Result<(), ModelError> {
        same_len("Langevin bodies", self.rngs.len(), states.len())?;
        let ctx = StepContext {
            body: &self.body,
            potential: &self.potential,
            h: self.h,
            decay: &self.decay,
            noise: &self.noise,
            rotor: &self.rotor,
        };
        #[cfg(feature = "rayon")]
        {
            use rayon::prelude::*;
            states
                .par_iter_mut()
                .zip(self.rngs.par_iter_mut())
                .enumerate()
                .try_for_each(|(i, (s, rng))| ctx.step_one(i, s, rng))
        }
        #[cfg(not(feature = "rayon"))]
        {
            states
                .iter_mut()
                .zip(self.rngs.iter_mut())
                .enumerate()
                .try_for_each(|(i, (s, rng))| ctx.step_one(i, s, rng))
        }
    }
}

/// The shared read-only data of a step.
struct StepContext<'a, P> {
    body: &'a LangevinBody,
    potential: &'a P,
    h: f64,
    decay: &'a Matrix6<f64>,
    noise: &'a Matrix6<f64>,
    rotor: &'a DlmSplitting<NoPotential>,
}

impl<P: BodyPotential> StepContext<'_, P> {
    fn step_one(
        &self,
        index: usize,
        s: &mut LangevinState,
        rng: &mut ChaCha8Rng,
    ) -> Result<(), ModelError> {
        let half = 0.5 * self.h;
        self.kick(s, half);
        self.drift(index, s, half)?;
        // O: exact Ornstein–Uhlenbeck step on u = (Rᵀv, Ω).
        let vb = s.r.inverse_rotate(&s.v);
        let u = Vector6::new(vb.x, vb.y, vb.z, s.omega.x, s.omega.y, s.omega.z);
        let u1 = self.decay * u + self.noise * gaussian6(rng);
        s.v = s.r.rotate(&Vector3::new(u1[0], u1[1], u1[2]));
        s.omega = Vector3::new(u1[3], u1[4], u1[5]);
        self.drift(index, s, half)?;
        self.kick(s, half);
        let finite =
            s.x.iter()
                .chain(s.v.iter())
                .chain(s.omega.iter())
                .all(|x| x.is_finite());
        if finite {
            Ok(())
        } else {
            Err(ModelError::NonFinite {
                name: "Langevin state",
                index,
            })
        }
    }

    /// B: `v ← v + τF/m`, `Ω ← Ω + τI⁻¹M`.
    fn kick(&self, s: &mut LangevinState, tau: f64) {
        let f = self.potential.force(&s.x, &s.r);
        let m = self.potential.moment(&s.x, &s.r);
        s.v += f * (tau / self.body.mass);
        s.omega += m.component_div(&self.body.inertia) * tau;
    }

    /// A: `x ← x + τv` and the DLM free rotor for `τ`.
    fn drift(&self, index: usize, s: &mut LangevinState, tau: f64) -> Result<(), ModelError> {
        s.x += s.v * tau;
        let y = CotangentPoint::from_body(s.r, s.omega.component_mul(&self.body.inertia));
        // `advance` takes `&mut` for its step counters; a copy (no heap) keeps the context shared
        // between threads.
        let mut rotor = self.rotor.clone();
        let y1 = rotor
            .advance(0.0, &y, tau)
            .map_err(|_| ModelError::NonFinite {
                name: "Langevin state",
                index,
            })?;
        s.r = y1.g;
        s.omega =
            y1.g.inverse_rotate(&y1.mu)
                .component_div(&self.body.inertia);
        Ok(())
    }
}

/// Six standard normal numbers by Box–Muller from three pairs of uniforms, `u₁ ∈ (0, 1]`.
fn gaussian6(rng: &mut ChaCha8Rng) -> Vector6<f64> {
    let mut z = Vector6::zeros();
    for k in 0..3 {
        let u1 = 1.0 - rng.random::<f64>();
        let u2 = rng.random::<f64>();
        let r = (-2.0 * u1.ln()).sqrt();
        let (s, c) = (std::f64::consts::TAU * u2).sin_cos();
        z[2 * k] = r * c;
        z[2 * k + 1] = r * s;
    }
    z
}

/// `E = e^{−h𝕄⁻¹Ξ}` and `C` with `CCᵀ = kT(𝕄⁻¹ − E𝕄⁻¹Eᵀ)`, from the eigen-decomposition of the
/// symmetric `K = 𝕄^{−½}Ξ𝕄^{−½}`.
fn ou_matrices(body: &LangevinBody, h: f64) -> Result<(Matrix6<f64>, Matrix6<f64>), ModelError> {
    let sqrt_m = Vector6::new(
        body.mass.sqrt(),
        body.mass.sqrt(),
        body.mass.sqrt(),
        body.inertia.x.sqrt(),
        body.inertia.y.sqrt(),
        body.inertia.z.sqrt(),
    );
    let inv_sqrt_m = sqrt_m.map(|x| 1.0 / x);
    let xi = body.resistance.matrix();
    let k = Matrix6::from_fn(|i, j| inv_sqrt_m[i] * xi[(i, j)] * inv_sqrt_m[j]);
    let eig = k.symmetric_eigen();
    let smallest = eig.eigenvalues.min();
    if smallest.is_nan() || smallest <= 0.0 {
        return Err(ModelError::NotPositiveDefinite {
            name: "resistance tensor",
            smallest_eigenvalue: smallest,
        });
    }
    let v = eig.eigenvectors;
    let damp = eig.eigenvalues.map(|l| (-h * l).exp());
    let spread = eig.eigenvalues.map(|l| (-(-2.0 * h * l).exp_m1()).sqrt());
    let kt_sqrt = body.kt.sqrt();
    let decay = Matrix6::from_fn(|i, j| {
        let mut acc = 0.0;
        for k in 0..6 {
            acc += v[(i, k)] * damp[k] * v[(j, k)];
        }
        inv_sqrt_m[i] * acc * sqrt_m[j]
    });
    let noise = Matrix6::from_fn(|i, j| kt_sqrt * inv_sqrt_m[i] * v[(i, j)] * spread[j]);
    Ok((decay, noise))
}
