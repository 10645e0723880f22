//! Lennard-Jones molecules on the unit sphere \[LLM09, Ex. 6\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, positive};
use crate::icosphere::Icosphere;
use crate::neighbours::{DiagonalSystem, NeighbourPotential, fibonacci_sphere, hexagonal_spacing};
use crate::potential::{Potential, RadialTerm, TermVisitor};
use crate::state::SphereState;
use crate::system::SphereSystem;
use liegroup::scalar::c;
use nalgebra::{DMatrix, DVector, RealField, Vector3};

/// The fraction of the cut-off radius where the switching of [`LennardJonesTerm`] starts:
/// `r_on = 0.9 r_c`.
pub const SWITCH_START: f64 = 0.9;

/// The Lennard-Jones pair energy as a function of the squared chord distance `r² = |qᵢ − qⱼ|²`:
///
/// ```text
///   φ(r²) = 4ε [s⁶ − s³] · S(r²),   s = σ²/r²,
/// ```
///
/// i.e. `4ε[(σ/r)¹² − (σ/r)⁶]` \[LJ31\], with minimum `−ε` at `r = 2^{1/6}σ`.
/// Without a cut-off `S ≡ 1`. With a cut-off radius `r_c`, `S` switches the energy off smoothly
/// between `r_on = 0.9 r_c` ([`SWITCH_START`]) and `r_c`: with `x = r²`,
/// `t = (x − r_on²)/(r_c² − r_on²)`, `S = 1 − 10t³ + 15t⁴ − 6t⁵` (the quintic smoothstep, `S`,
/// `S′`, `S″` continuous at both ends), and `φ = 0` beyond `r_c`. The potential is then C² and
/// the forces C¹, so that integrators keep their order and energy behaviour (a truncated or
/// truncated-and-shifted potential has jumping forces). Written once, generic over the scalar;
/// differentiated over the single scalar `r²` (one `Dual64`).
///
/// The unswitched part is evaluated as `w (w − β)` with `w = (κ/r²)³`, `κ = σ²(4ε)^{1/6}`,
/// `β = 2√ε` (so `w = β(σ/r)⁶` and `w(w − β) = 4ε[(σ/r)¹² − (σ/r)⁶]`): one reciprocal, a cube and
/// one constant factor, the cheapest form for a dual number, with `w = O(1)` near the minimum
/// for any `σ` (no overflow or underflow of `σ¹²`). The hand-written
/// [`value_and_derivative`](Self::value_and_derivative) uses the same form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LennardJonesTerm {
    core: LennardJonesCore,
    /// `(r_on², r_c², 1/(r_c² − r_on²))` with a cut-off.
    switch: Option<(f64, f64, f64)>,
}

/// The unswitched Lennard-Jones pair energy `φ₀(r²) = w (w − β)`, `w = (κ/r²)³`,
/// `κ = σ²(4ε)^{1/6}`, `β = 2√ε` (the part of [`LennardJonesTerm`] without the switch; the
/// all-pairs potential without a cut-off visits it directly, so that its pair loop carries no
/// switch test).
#[derive(Clone, Copy, Debug, PartialEq)]
struct LennardJonesCore {
    kappa: f64,
    /// `1/κ`.
    kappa_inv: f64,
    beta: f64,
}

impl LennardJonesCore {
    fn new(epsilon: f64, sigma: f64) -> Self {
        let kappa = sigma * sigma * (4.0 * epsilon).powf(1.0 / 6.0);
        Self {
            kappa,
            kappa_inv: 1.0 / kappa,
            beta: 2.0 * epsilon.sqrt(),
        }
    }

    /// `(φ₀, dφ₀/dr²)` by hand: `dw/dr² = −3w/r²`, so `dφ₀/dr² = w (3β − 6w)/r²`.
    #[inline]
    fn value_and_derivative(&self, r2: f64) -> (f64, f64) {
        let inv = 1.0 / r2;
        let s = self.kappa * inv;
        let w = s * s * s;
        (w * (w - self.beta), w * (3.0 * self.beta - 6.0 * w) * inv)
    }
}

impl RadialTerm for LennardJonesCore {
    #[inline]
    fn value<T: RealField + Copy>(&self, r2: T) -> T {
        // w = (r²/κ)⁻³. The constant multiplies r² before the reciprocal: for a dual number the
        // product by a constant (whose zero derivative part still costs a multiplication) is
        // then off the dependency chain through the division. `powi(3)`, not `x * x * x`:
        // num-dual's `powi` forms the derivative `3x²x′` from the real powers directly, a
        // shorter chain than two dual products. (The hand-written `value_and_derivative` is
        // fastest in the other order, reciprocal first; both orders were measured.)
        let w = (r2 * c::<T>(self.kappa_inv)).recip().powi(3);
        w * (w - c::<T>(self.beta))
    }
}

impl LennardJonesTerm {
    /// The term for `ε`, `σ` and an optional cut-off radius (all assumed positive; see
    /// [`LennardJones::new`] for the validated model).
    #[must_use]
    pub fn new(epsilon: f64, sigma: f64, cutoff: Option<f64>) -> Self {
        let switch = cutoff.map(|rc| {
            let (on2, c2) = ((SWITCH_START * rc).powi(2), rc * rc);
            (on2, c2, 1.0 / (c2 - on2))
        });
        Self {
            core: LennardJonesCore::new(epsilon, sigma),
            switch,
        }
    }

    /// `(φ(r²), dφ/dr²)` by hand (for `r² < r_c²`; the caller skips pairs beyond the cut-off):
    /// with `w = (κ/r²)³`, `d(w(w − β))/dr² = w(3β − 6w)/r²`, times `S` plus `φ₀·S′`,
    /// `S′ = −30t²(1 − t)²/(r_c² − r_on²)`.
    #[inline]
    #[must_use]
    pub fn value_and_derivative(&self, r2: f64) -> (f64, f64) {
        let (v, dv) = self.core.value_and_derivative(r2);
        match self.switch {
            Some((on2, _, inv_w)) if r2 > on2 => {
                let t = (r2 - on2) * inv_w;
                let t2 = t * t;
                let sw = 1.0 - t2 * t * (10.0 - 15.0 * t + 6.0 * t2);
                let dsw = -30.0 * t2 * (1.0 - t) * (1.0 - t) * inv_w;
                (v * sw, dv * sw + v * dsw)
            }
            _ => (v, dv),
        }
    }
}

impl RadialTerm for LennardJonesTerm {
    #[inline]
    fn value<T: RealField + Copy>(&self, r2: T) -> T {
        let v = self.core.value(r2);
        match self.switch {
            Some((on2, _, inv_w)) if r2 > c::<T>(on2) => {
                let t = (r2 - c::<T>(on2)) * c::<T>(inv_w);
                let t2 = t * t;
                let poly = c::<T>(10.0) - c::<T>(15.0) * t + c::<T>(6.0) * t2;
                v * (T::one() - t2 * t * poly)
            }
            _ => v,
        }
    }
    #[inline]
    fn cutoff_squared(&self) -> Option<f64> {
        self.switch.map(|(_, c2, _)| c2)
    }
}

/// `V(q) = ½ Σ_{i≠j} φ(|qᵢ − qⱼ|²) = Σ_{i<j} φ(|qᵢ − qⱼ|²)` with the [`LennardJonesTerm`]
/// \[LLM09, Ex. 6\] (chord distances). Invariant under all rotations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LennardJonesPotential {
    n: usize,
    term: LennardJonesTerm,
}

impl LennardJonesPotential {
    /// The potential of `n` molecules.
    #[must_use]
    pub fn new(n: usize, term: LennardJonesTerm) -> Self {
        Self { n, term }
    }

    /// The pair term.
    #[must_use]
    pub fn term(&self) -> &LennardJonesTerm {
        &self.term
    }

    /// `V(q)` and its ambient gradient written by hand (same pair loop as the AD gradient of
    /// [`Potential::gradient`], and like it without the switch test in the loop when there is
    /// no cut-off; for tests and benchmarks): for each pair `i < j`, `d = qᵢ − qⱼ`,
    /// `∂φ/∂qᵢ = 2φ′(r²) d = −∂φ/∂qⱼ`. `grad` is overwritten.
    ///
    /// # Panics
    /// If `q` or `grad` do not have `n` entries.
    pub fn gradient_analytic(&self, q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) -> f64 {
        let n = self.n;
        assert_eq!(q.len(), n, "Lennard-Jones: wrong number of molecules");
        assert_eq!(
            grad.len(),
            n,
            "Lennard-Jones: gradient buffer of wrong size"
        );
        grad.iter_mut().for_each(|g| *g = Vector3::zeros());
        let rc2 = self.term.cutoff_squared().unwrap_or(f64::INFINITY);
        match self.term.switch {
            None => {
                let core = self.term.core;
                pair_loop_by_hand(q, grad, rc2, |r2| core.value_and_derivative(r2))
            }
            Some(_) => pair_loop_by_hand(q, grad, rc2, |r2| self.term.value_and_derivative(r2)),
        }
    }
}

/// The pair loop of [`LennardJonesPotential::gradient_analytic`] (that of
/// `GradientVisitor::radial_all_pairs` with the hand-written `(φ, φ′)`); adds into `grad`.
#[inline]
fn pair_loop_by_hand(
    q: &[Vector3<f64>],
    grad: &mut [Vector3<f64>],
    rc2: f64,
    phi: impl Fn(f64) -> (f64, f64),
) -> f64 {
    let mut acc = 0.0;
    for i in 0..q.len() {
        let qi = q[i];
        let mut gi = Vector3::zeros();
        for (qj, gj) in q[i + 1..].iter().zip(grad[i + 1..].iter_mut()) {
            let d = qi - qj;
            let r2 = d.norm_squared();
            if r2 >= rc2 {
                continue;
            }
            let (v, dv) = phi(r2);
            acc += v;
            let g = d * (2.0 * dv);
            gi += g;
            *gj -= g;
        }
        grad[i] += gi;
    }
    acc
}

impl Potential for LennardJonesPotential {
    fn bodies(&self) -> usize {
        self.n
    }
    fn visit_terms<V: TermVisitor>(&self, v: &mut V) {
        // Without a cut-off the switch is the identity: visit the unswitched term, so that the
        // pair loop carries no switch test (the hand-written gradient does the same).
        match self.term.switch {
            None => v.radial_all_pairs(self.n, &self.term.core),
            Some(_) => v.radial_all_pairs(self.n, &self.term),
        }
    }
}

/// Molecules of masses `mᵢ` moving on the unit sphere under the Lennard-Jones potential
/// \[LLM09, Ex. 6\]: `M = diag(mᵢ)`, `V` = [`LennardJonesPotential`]; the number of molecules is
/// chosen at run time.
#[derive(Clone, Debug)]
pub struct LennardJones {
    masses: Vec<f64>,
    epsilon: f64,
    sigma: f64,
    cutoff: Option<f64>,
    system: SphereSystem<LennardJonesPotential>,
}

impl LennardJones {
    /// Molecules with masses `mᵢ > 0`, `ε > 0`, `σ > 0` and an optional cut-off radius
    /// `r_c > 0` (chord distance; pairs farther apart are ignored, and the pair energy is
    /// switched off smoothly from `0.9 r_c`, see [`LennardJonesTerm`]).
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::NonPositive`], [`ModelError::NonFinite`].
    pub fn new(
        masses: Vec<f64>,
        epsilon: f64,
        sigma: f64,
        cutoff: Option<f64>,
    ) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        all_positive("mass", &masses)?;
        let epsilon = positive("epsilon", 0, epsilon)?;
        let sigma = positive("sigma", 0, sigma)?;
        if let Some(rc) = cutoff {
            positive("cutoff", 0, rc)?;
        }
        let term = LennardJonesTerm::new(epsilon, sigma, cutoff);
        let inertia = DMatrix::from_diagonal(&DVector::from_column_slice(&masses));
        let system = SphereSystem::new(inertia, LennardJonesPotential::new(n, term))?;
        Ok(Self {
            masses,
            epsilon,
            sigma,
            cutoff,
            system,
        })
    }

    /// `10·4ᵏ + 2` unit-mass molecules at the vertices of the icosphere with `k` subdivisions
    /// ([`Icosphere::new`]), with `σ = d/2^{1/6}` for the mean nearest-neighbour chord distance
    /// `d`, so that the force between neighbours vanishes initially ("σ is chosen such that the
    /// inter-molecular force between neighboring molecules is close to zero" \[LLM09, Ex. 6\]).
    ///
    /// # Errors
    /// As [`new`](Self::new).
    ///
    /// # Panics
    /// If `subdivisions > 10`.
    pub fn on_icosphere(
        subdivisions: u32,
        epsilon: f64,
        cutoff: Option<f64>,
    ) -> Result<(Self, Vec<Vector3<f64>>), ModelError> {
        let ico = Icosphere::new(subdivisions);
        let sigma = ico.mean_edge_length() / 2f64.powf(1.0 / 6.0);
        let p = Self::new(vec![1.0; ico.vertices.len()], epsilon, sigma, cutoff)?;
        Ok((p, ico.vertices))
    }

    /// The molecular-dynamics example of \[LLM09, Ex. 6\]: 642 molecules (the 3-fold subdivided
    /// icosphere), `mᵢ = 1`, `ε = 0.01`, `σ` as in [`on_icosphere`](Self::on_icosphere)
    /// (`σ ≈ 0.134`), no cut-off, and initial velocities "modelled as two vortices separated by
    /// 30 degrees"; the paper runs `T = 5 s`.
    ///
    /// Chosen here: [`two_vortex_velocities`] with centres at ±15° from `e₃` in the
    /// `(e₁, e₃)` plane, counter-rotating, peak rate `Ω = 1 rad/s`, Gaussian angular width 15°.
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn icosphere_642() -> (Self, SphereState) {
        let (p, q) = Self::on_icosphere(3, 0.01, None).expect("valid preset");
        let omega = two_vortex_velocities(&q, 30f64.to_radians(), 1.0, 15f64.to_radians());
        let x0 = SphereState::try_new(q, omega).expect("valid preset");
        (p, x0)
    }

    /// `n` unit-mass molecules on a Fibonacci lattice ([`fibonacci_sphere`]) for large-`N`
    /// runs (`10³ … 10⁵` and beyond): `σ = d/2^{1/6}` for the hexagonal spacing
    /// `d = √(8π/(√3 n))` ([`hexagonal_spacing`]), cut-off `r_c = cutoff_sigmas·σ`
    /// (switched off smoothly from `0.9 r_c`, [`LennardJonesTerm`]) and a
    /// [`NeighbourPotential`] with skin `skin_sigmas·σ`, so that one gradient costs `O(n)`
    /// (in parallel with the `rayon` feature). Returns the system and the positions.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::NonPositive`], [`ModelError::NonFinite`].
    ///
    /// # Example
    /// ```
    /// use models::LennardJones;
    /// let (sys, q) = LennardJones::large(2000, 0.01, 2.5, 0.3)?;
    /// assert_eq!(sys.bodies(), 2000);
    /// assert_eq!(q.len(), 2000);
    /// # Ok::<(), models::ModelError>(())
    /// ```
    pub fn large(
        n: usize,
        epsilon: f64,
        cutoff_sigmas: f64,
        skin_sigmas: f64,
    ) -> Result<LargeSystem, ModelError> {
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        let epsilon = positive("epsilon", 0, epsilon)?;
        let cutoff_sigmas = positive("cutoff", 0, cutoff_sigmas)?;
        let skin_sigmas = positive("skin", 0, skin_sigmas)?;
        let q = fibonacci_sphere(n);
        let sigma = hexagonal_spacing(n) / 2f64.powf(1.0 / 6.0);
        let rc = cutoff_sigmas * sigma;
        let term = LennardJonesTerm::new(epsilon, sigma, Some(rc));
        let pot = NeighbourPotential::new(n, term, rc, skin_sigmas * sigma)?;
        let sys = DiagonalSystem::new(vec![1.0; n], pot)?;
        Ok((sys, q))
    }

    /// The masses.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// `ε`.
    #[must_use]
    pub fn epsilon(&self) -> f64 {
        self.epsilon
    }
    /// `σ`.
    #[must_use]
    pub fn sigma(&self) -> f64 {
        self.sigma
    }
    /// The cut-off radius, if any.
    #[must_use]
    pub fn cutoff(&self) -> Option<f64> {
        self.cutoff
    }
}

impl SphereModel for LennardJones {
    type Potential = LennardJonesPotential;
    fn system(&self) -> &SphereSystem<LennardJonesPotential> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "Lennard-Jones molecules on a sphere"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::Full
    }
}

/// A large Lennard-Jones system with a neighbour list and the initial positions
/// ([`LennardJones::large`]).
pub type LargeSystem = (
    DiagonalSystem<NeighbourPotential<LennardJonesTerm>>,
    Vec<Vector3<f64>>,
);

/// Angular velocities of two counter-rotating vortices on the unit sphere: with centres
/// `c± = (±sin(s/2), 0, cos(s/2))` (`s` the angular separation),
///
/// ```text
///   ωᵢ = Σ± ±Ω exp(−θᵢ±²/(2w²)) (c± − (c±·qᵢ) qᵢ),   θᵢ± = ∠(qᵢ, c±),
/// ```
///
/// so that near each centre the molecules circulate about it (`q̇ᵢ = ±Ω e^{…} c± × qᵢ`) with a
/// Gaussian profile of angular width `w`. The `ωᵢ` are tangent to the `qᵢ`.
#[must_use]
pub fn two_vortex_velocities(
    q: &[Vector3<f64>],
    separation: f64,
    rate: f64,
    width: f64,
) -> Vec<Vector3<f64>> {
    let (s, cth) = (0.5 * separation).sin_cos();
    let centres = [
        (Vector3::new(s, 0.0, cth), 1.0),
        (Vector3::new(-s, 0.0, cth), -1.0),
    ];
    q.iter()
        .map(|qi| {
            let mut w = Vector3::zeros();
            for (ck, sign) in &centres {
                let cq = ck.dot(qi);
                let theta = cq.clamp(-1.0, 1.0).acos();
                let amp = sign * rate * (-theta * theta / (2.0 * width * width)).exp();
                w += (ck - qi * cq) * amp;
            }
            w
        })
        .collect()
}
