//! The N-fold 3D pendulum \[CCLMO22, §5\] and the double spherical pendulum \[LLM09, Ex. 1\].

use super::{SphereModel, Symmetry};
use crate::error::{ModelError, all_positive, non_negative, same_len, unit};
use crate::state::SphereState;
use crate::system::SphereSystem;
use crate::terms::LinearPotential;
use nalgebra::{DMatrix, Vector3};

/// The gravitational acceleration used by the presets, `g = 9.81 m/s²` \[CCLMO22, §5\], \[LLM09\].
pub const GRAVITY: f64 = 9.81;

/// A chain of `N` spherical pendula (massless rigid links, point masses, ideal spherical
/// joints) under uniform gravity: the N-fold 3D pendulum \[CCLMO22, §5\].
///
/// `qᵢ ∈ S²` is the direction of link `i` (from mass `i − 1`, or the fixed pivot, to mass `i`),
/// `mᵢ` its mass, `Lᵢ` its length. Position of mass `i`: `xᵢ = Σ_{k≤i} L_k q_k`. Then
///
/// ```text
///   Mᵢⱼ = (Σ_{k ≥ max(i,j)} m_k) Lᵢ Lⱼ,      V(q) = Σᵢ Lᵢ g (Σ_{j≥i} mⱼ) u·qᵢ,
/// ```
///
/// with `u` the unit vector opposite to gravity (`u = e₃` in \[CCLMO22\]; the hanging equilibrium
/// is `qᵢ = −u`). With `u = e₃` these are the matrices of [CCLMO22, §5] (`docs/models.md`,
/// "N-fold 3D pendulum"):
/// `R(q)` has blocks `Mᵢᵢ I` and `−Mᵢⱼ q̂ᵢq̂ⱼ = Mᵢⱼ q̂ᵢᵀq̂ⱼ`, and
/// `rᵢ = Σ_{j≠i} Mᵢⱼ|ωⱼ|² q̂ᵢqⱼ − (Σ_{j≥i} mⱼ) g Lᵢ q̂ᵢe₃` is the right-hand side of
/// [`SphereSystem`]'s equations. The potential is invariant under rotations about `u`
/// ([`Symmetry::Axial`]).
///
/// # Example
/// ```
/// use models::{NFoldPendulum, SphereModel};
/// let (p, x0) = NFoldPendulum::convergence_experiment(7);
/// assert_eq!(p.system().bodies(), 2);
/// let e0 = p.system().energy(&x0.q, &x0.omega);
/// assert!(e0.is_finite());
/// ```
#[derive(Clone, Debug)]
pub struct NFoldPendulum {
    masses: Vec<f64>,
    lengths: Vec<f64>,
    g: f64,
    up: Vector3<f64>,
    system: SphereSystem<LinearPotential>,
}

impl NFoldPendulum {
    /// The N-fold pendulum with masses `mᵢ > 0`, lengths `Lᵢ > 0`, gravity `g ≥ 0` along `−e₃`
    /// (the convention of \[CCLMO22, §5\]).
    ///
    /// # Errors
    /// [`ModelError::NoBodies`] (N = 0), [`ModelError::DimensionMismatch`],
    /// [`ModelError::NonPositive`], [`ModelError::Negative`], [`ModelError::NonFinite`].
    pub fn new(masses: Vec<f64>, lengths: Vec<f64>, g: f64) -> Result<Self, ModelError> {
        Self::with_up(masses, lengths, g, Vector3::z())
    }

    /// As [`new`](Self::new), with gravity along `−up` (`up` a unit vector).
    ///
    /// # Errors
    /// As [`new`](Self::new), and [`ModelError::NotUnit`] for `up`.
    pub fn with_up(
        masses: Vec<f64>,
        lengths: Vec<f64>,
        g: f64,
        up: Vector3<f64>,
    ) -> Result<Self, ModelError> {
        let n = masses.len();
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        same_len("lengths", n, lengths.len())?;
        all_positive("mass", &masses)?;
        all_positive("length", &lengths)?;
        let g = non_negative("g", g)?;
        let up = unit("up", 0, &up)?;
        // Tail sums μᵢ = Σ_{k≥i} m_k.
        let mut tail = vec![0.0; n];
        let mut acc = 0.0;
        for i in (0..n).rev() {
            acc += masses[i];
            tail[i] = acc;
        }
        let inertia = DMatrix::from_fn(n, n, |i, j| tail[i.max(j)] * lengths[i] * lengths[j]);
        let coeffs = (0..n).map(|i| up * (lengths[i] * g * tail[i])).collect();
        let potential = LinearPotential::with_count(coeffs, n)?;
        let system = SphereSystem::new(inertia, potential)?;
        Ok(Self {
            masses,
            lengths,
            g,
            up,
            system,
        })
    }

    /// `n` equal links of mass `mass` and length `length`, gravity `g` along `−e₃`.
    ///
    /// # Errors
    /// As [`new`](Self::new).
    pub fn uniform(n: usize, mass: f64, length: f64, g: f64) -> Result<Self, ModelError> {
        Self::new(vec![mass; n], vec![length; n], g)
    }

    /// The convergence experiment of \[CCLMO22, §5.3\]: `N = 2`, `Lᵢ = mᵢ = 1`, `g = 9.81`, and a
    /// random initial point of (TS²)² (the paper's seed is not known; this one is
    /// [`SphereState::random`]`(2, 1.0, seed)`: `qᵢ` uniform on S², `ωᵢ` standard normal
    /// projected onto the tangent plane). The paper integrates to `T = 0.1` and observes the
    /// classical orders (Lie–Euler 1, RKMK2 2, RKMK3 3, RKMK4 / CF4 4).
    ///
    /// # Panics
    /// Never (the parameters are valid).
    #[must_use]
    pub fn convergence_experiment(seed: u64) -> (Self, SphereState) {
        let p = Self::uniform(2, 1.0, 1.0, GRAVITY).expect("valid preset");
        (p, SphereState::random(2, 1.0, seed))
    }

    /// The variable-step study of \[CCLMO22, §5.3\]: `N` links (the paper uses `N = 2 … 20`) of
    /// length `Lᵢ = 5/N` (total length 5, as in [CCLMO22, §5.3]; `docs/models.md`) and mass
    /// `mᵢ = 1`,
    /// `g = 9.81`, starting at rest and horizontal, `qᵢ(0) = (1, 0, 0)`, `ωᵢ(0) = 0`; the paper
    /// integrates to `T = 3` with RKMK(5,4) at tolerance 10⁻⁶. (The paper's text also shows a
    /// run with unit lengths: [`uniform`](Self::uniform)`(n, 1.0, 1.0, GRAVITY)` with the same start.)
    ///
    /// # Errors
    /// [`ModelError::NoBodies`] for `n = 0`.
    pub fn variable_step_experiment(n: usize) -> Result<(Self, SphereState), ModelError> {
        if n == 0 {
            return Err(ModelError::NoBodies);
        }
        let p = Self::uniform(n, 1.0, 5.0 / n as f64, GRAVITY)?;
        let x0 = SphereState::try_new(vec![Vector3::x(); n], vec![Vector3::zeros(); n])?;
        Ok((p, x0))
    }

    /// The masses `mᵢ`.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }
    /// The link lengths `Lᵢ`.
    #[must_use]
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }
    /// The gravitational acceleration `g`.
    #[must_use]
    pub fn g(&self) -> f64 {
        self.g
    }
    /// The unit vector opposite to gravity.
    #[must_use]
    pub fn up(&self) -> Vector3<f64> {
        self.up
    }
    /// The positions of the masses `xᵢ = Σ_{k≤i} L_k q_k` (pivot at the origin).
    ///
    /// # Panics
    /// If `q` does not have `N` entries.
    #[must_use]
    pub fn positions(&self, q: &[Vector3<f64>]) -> Vec<Vector3<f64>> {
        assert_eq!(
            q.len(),
            self.masses.len(),
            "positions: wrong number of links"
        );
        let mut x = Vector3::zeros();
        q.iter()
            .zip(&self.lengths)
            .map(|(qi, li)| {
                x += qi * *li;
                x
            })
            .collect()
    }
}

impl SphereModel for NFoldPendulum {
    type Potential = LinearPotential;
    fn system(&self) -> &SphereSystem<LinearPotential> {
        &self.system
    }
    fn name(&self) -> &'static str {
        "n-fold pendulum"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::Axial(self.up)
    }
}

/// The double spherical pendulum of \[LLM09, Ex. 1\]: two point masses on massless links,
/// `e₃` **along** gravity (so the hanging equilibrium is `q₁ = q₂ = e₃`):
///
/// ```text
///   M₁₁ = (m₁ + m₂) l₁²,  M₁₂ = m₂ l₁ l₂,  M₂₂ = m₂ l₂²,
///   V(q) = −(m₁ + m₂) g l₁ e₃·q₁ − m₂ g l₂ e₃·q₂.
/// ```
///
/// It is the N-fold pendulum with `N = 2` and `up = −e₃`. Invariant under rotations about `e₃`.
#[derive(Clone, Debug)]
pub struct DoubleSphericalPendulum {
    chain: NFoldPendulum,
}

impl DoubleSphericalPendulum {
    /// Masses `m₁, m₂ > 0`, lengths `l₁, l₂ > 0`, gravity `g ≥ 0` along `+e₃`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`], [`ModelError::Negative`], [`ModelError::NonFinite`].
    pub fn new(m1: f64, m2: f64, l1: f64, l2: f64, g: f64) -> Result<Self, ModelError> {
        let chain = NFoldPendulum::with_up(vec![m1, m2], vec![l1, l2], g, -Vector3::z())?;
        Ok(Self { chain })
    }

    /// The parameters of \[LLM09, Ex. 1\]: `m₁ = m₂ = 1 kg`, `l₁ = l₂ = 9.81 m`, `g = 9.81 m/s²`.
    ///
    /// # Panics
    /// Never (the parameters are valid).
    #[must_use]
    pub fn lee_leok_mcclamroch() -> Self {
        Self::new(1.0, 1.0, GRAVITY, GRAVITY, GRAVITY).expect("valid preset")
    }

    /// The initial state of \[LLM09, Ex. 1\] as restored in `docs/models.md` ("Example 1 data"):
    /// `q₁ = (0.3, 0, 0.954)/|·|`, `q₂ = e₃`, `ω₁ = (−0.3, 0, 0.1)` minus its component along
    /// `q₁`, `ω₂ = 0` (energy `E₀ ≈ −270.22` J with the preset parameters). The paper runs it to
    /// `T = 100 s` with `h = 0.01`.
    ///
    /// # Panics
    /// Never.
    #[must_use]
    pub fn initial_state() -> SphereState {
        SphereState::new_projected(
            vec![Vector3::new(0.3, 0.0, 0.954), Vector3::z()],
            vec![Vector3::new(-0.3, 0.0, 0.1), Vector3::zeros()],
        )
        .expect("valid preset")
    }

    /// The same system as an [`NFoldPendulum`] (with `up = −e₃`).
    #[must_use]
    pub fn as_chain(&self) -> &NFoldPendulum {
        &self.chain
    }
}

impl SphereModel for DoubleSphericalPendulum {
    type Potential = LinearPotential;
    fn system(&self) -> &SphereSystem<LinearPotential> {
        &self.chain.system
    }
    fn name(&self) -> &'static str {
        "double spherical pendulum"
    }
    fn symmetry(&self) -> Symmetry {
        Symmetry::Axial(Vector3::z())
    }
}
