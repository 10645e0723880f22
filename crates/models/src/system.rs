//! The generic Lagrangian system on (S²)ⁿ \[LLM09, §2\]: inertia matrix, potential, the
//! Euler–Lagrange equations in angular-velocity form, energy and invariants.

use crate::error::{ModelError, positive_definite, same_len};
use crate::potential::Potential;
use liegroup::linalg::{
    cholesky_in_place, cholesky_solve_in_place, lu_factor_in_place, lu_solve_in_place,
};
use nalgebra::{DMatrix, Vector3, Vector6};

/// A Lagrangian mechanical system on (S²)ⁿ with
///
/// ```text
///   L(q, q̇) = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ − V(q₁, …, qₙ),      [LLM09, eq. (2.2)]
/// ```
///
/// `M` a constant symmetric positive definite `n × n` matrix and `V` a [`Potential`].
///
/// # Equations of motion
/// With `q̇ᵢ = ωᵢ × qᵢ`, `qᵢ·ωᵢ = 0`, Hamilton's principle with variations `δqᵢ = ξᵢ × qᵢ` gives
/// `qᵢ × (Σⱼ Mᵢⱼ q̈ⱼ + ∂V/∂qᵢ) = 0` \[LLM09, eq. (2.5)\]. Substituting
/// `q̈ⱼ = ω̇ⱼ × qⱼ − |ωⱼ|² qⱼ` and using `qᵢ × (ω̇ᵢ × qᵢ) = ω̇ᵢ` (since `ω̇ᵢ·qᵢ = 0`) gives the
/// angular-velocity form \[LLM09, Cor. 1, eqs. (2.9)–(2.11)\]:
///
/// ```text
///   Mᵢᵢ ω̇ᵢ − Σ_{j≠i} Mᵢⱼ qᵢ × (qⱼ × ω̇ⱼ) = Σ_{j≠i} Mᵢⱼ |ωⱼ|² qᵢ × qⱼ − qᵢ × ∂V/∂qᵢ,
///   q̇ᵢ = ωᵢ × qᵢ,
/// ```
///
/// a `3n × 3n` linear system `A(q) ω̇ = b(q, ω)` with diagonal blocks `Mᵢᵢ I` and off-diagonal
/// blocks `−Mᵢⱼ q̂ᵢ q̂ⱼ = −Mᵢⱼ (qⱼ qᵢᵀ − (qᵢ·qⱼ) I)`. (This derivation was redone for this crate
/// and agrees with [LLM09, eqs. (2.9)–(2.11)] (`docs/models.md`, "Lagrangian systems on (S²)ⁿ");
/// the tests check it against energy conservation and against
/// the residual of eq. (2.5).) `A(q)` is symmetric, and positive definite for unit `qᵢ`: on
/// tangent vectors `xᵀAx = Σᵢⱼ Mᵢⱼ (xᵢ × qᵢ)·(xⱼ × qⱼ)`, and normal components decouple with
/// weight `Mᵢᵢ`. Dotting row `i` with `qᵢ` gives `Mᵢᵢ qᵢ·ω̇ᵢ = 0`, so the solution is tangent.
///
/// When `M` is diagonal (bodies coupled only through the potential) the system decouples:
/// `ω̇ᵢ = −qᵢ × ∂V/∂qᵢ / Mᵢᵢ`, and no matrix is formed. Otherwise the system is assembled and
/// solved by an in-place Cholesky factorization ([`liegroup::linalg`]; an LU factorization with partial pivoting
/// takes over if a state far off the manifold makes `A` indefinite). Both formulations below
/// use this one solve:
///
/// - the Lie group vector field `f: (TS²)ⁿ → se(3)ⁿ`, `f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ)ᵢ`
///   ([`lie_algebra_field`](Self::lie_algebra_field), [`LieField`](crate::LieField)) for the
///   action of SE(3)ⁿ on (TS²)ⁿ \[CCLMO22, §5.1–5.2\];
/// - the ambient ODE on ℝ⁶ⁿ, `q̇ᵢ = ωᵢ × qᵢ`, `ω̇ᵢ` as above
///   ([`ambient_derivative`](Self::ambient_derivative), [`AmbientField`](crate::AmbientField)) for
///   classical baselines.
///
/// All evaluation functions take a [`Workspace`] (allocated once by
/// [`workspace`](Self::workspace)) and do not allocate.
#[derive(Clone, Debug)]
pub struct SphereSystem<P> {
    inertia: DMatrix<f64>,
    diagonal: bool,
    potential: P,
}

/// Scratch memory for the evaluation functions of a [`SphereSystem`] with `n` bodies: the
/// `3n × 3n` matrix (empty for diagonal inertia), right-hand side, gradient and acceleration
/// buffers. Allocate it once with [`SphereSystem::workspace`].
#[derive(Clone, Debug)]
pub struct Workspace {
    n: usize,
    /// `A(q)`, row-major `3n × 3n`, and then its factors.
    a: Vec<f64>,
    /// The row exchanges of the LU fallback.
    piv: Vec<usize>,
    /// `b(q, ω)`, and then `ω̇`.
    b: Vec<f64>,
    pub(crate) grad: Vec<Vector3<f64>>,
    pub(crate) accel: Vec<Vector3<f64>>,
    pub(crate) q: Vec<Vector3<f64>>,
    pub(crate) omega: Vec<Vector3<f64>>,
}

impl Workspace {
    /// The number of bodies the workspace is sized for.
    #[must_use]
    pub fn bodies(&self) -> usize {
        self.n
    }
}

impl<P: Potential> SphereSystem<P> {
    /// A validated system.
    ///
    /// `M` must be `n × n` with `n = potential.bodies() ≥ 1`, finite, symmetric
    /// (`|Mᵢⱼ − Mⱼᵢ| ≤ 16 ε max(|Mᵢⱼ|, |Mⱼᵢ|)`; it is then symmetrized exactly) and positive
    /// definite (its Cholesky factorization must succeed).
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`], [`ModelError::NonFinite`],
    /// [`ModelError::InertiaNotSymmetric`], [`ModelError::InertiaNotPositiveDefinite`].
    ///
    /// # Example
    /// ```
    /// use models::{SphereSystem, LinearPotential};
    /// use nalgebra::{DMatrix, Vector3};
    /// let pot = LinearPotential::new(vec![Vector3::z(), Vector3::z()])?;
    /// let ok = SphereSystem::new(DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 1.0]), pot.clone());
    /// assert!(ok.is_ok());
    /// let not_spd = SphereSystem::new(DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 2.0, 1.0]), pot);
    /// assert!(matches!(not_spd, Err(models::ModelError::InertiaNotPositiveDefinite { .. })));
    /// # Ok::<(), models::ModelError>(())
    /// ```
    pub fn new(inertia: DMatrix<f64>, potential: P) -> Result<Self, ModelError> {
        let n = potential.bodies();
        if n == 0 || inertia.nrows() == 0 {
            return Err(ModelError::NoBodies);
        }
        same_len("inertia matrix rows", n, inertia.nrows())?;
        same_len("inertia matrix columns", n, inertia.ncols())?;
        let mut m = inertia;
        for j in 0..n {
            for i in 0..n {
                if !m[(i, j)].is_finite() {
                    return Err(ModelError::NonFinite {
                        name: "inertia matrix",
                        index: i * n + j,
                    });
                }
            }
        }
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (m[(i, j)], m[(j, i)]);
                if (a - b).abs() > 16.0 * f64::EPSILON * a.abs().max(b.abs()) {
                    return Err(ModelError::InertiaNotSymmetric {
                        i,
                        j,
                        mij: a,
                        mji: b,
                    });
                }
                let s = 0.5 * (a + b);
                m[(i, j)] = s;
                m[(j, i)] = s;
            }
        }
        positive_definite(m.as_slice(), n)?;
        let diagonal = (0..n).all(|i| (0..n).all(|j| i == j || m[(i, j)] == 0.0));
        Ok(Self {
            inertia: m,
            diagonal,
            potential,
        })
    }

    /// The number of bodies `n`.
    #[must_use]
    pub fn bodies(&self) -> usize {
        self.inertia.nrows()
    }

    /// The inertia matrix `M` (symmetric positive definite, `n × n`).
    #[must_use]
    pub fn inertia(&self) -> &DMatrix<f64> {
        &self.inertia
    }

    /// `true` when `M` is diagonal (the bodies are coupled through the potential only, and the
    /// equations of motion need no linear solve).
    #[must_use]
    pub fn has_diagonal_inertia(&self) -> bool {
        self.diagonal
    }

    /// The potential `V`.
    #[must_use]
    pub fn potential(&self) -> &P {
        &self.potential
    }

    /// Scratch memory for the evaluation functions (allocated here, once).
    #[must_use]
    pub fn workspace(&self) -> Workspace {
        let n = self.bodies();
        let m = if self.diagonal { 0 } else { 3 * n };
        Workspace {
            n,
            a: vec![0.0; m * m],
            piv: vec![0; m],
            b: vec![0.0; m],
            grad: vec![Vector3::zeros(); n],
            accel: vec![Vector3::zeros(); n],
            q: vec![Vector3::zeros(); n],
            omega: vec![Vector3::zeros(); n],
        }
    }

    /// Solve the Euler–Lagrange equations (2.9)–(2.11) of \[LLM09\] for the angular accelerations
    /// `ω̇ᵢ` at `(q, ω)`, writing them into `ws.accel`. The one code path shared by the Lie and
    /// the ambient formulations. Returns `V(q)` (computed with the gradient anyway).
    fn solve(&self, q: &[Vector3<f64>], omega: &[Vector3<f64>], ws: &mut Workspace) -> f64 {
        let n = self.bodies();
        assert_eq!(q.len(), n, "SphereSystem: q has the wrong number of bodies");
        assert_eq!(
            omega.len(),
            n,
            "SphereSystem: ω has the wrong number of bodies"
        );
        assert_eq!(ws.n, n, "SphereSystem: workspace sized for another system");
        let v = self.potential.gradient(q, &mut ws.grad);
        let m = &self.inertia;
        if self.diagonal {
            for i in 0..n {
                ws.accel[i] = -q[i].cross(&ws.grad[i]) / m[(i, i)];
            }
            return v;
        }
        // Right-hand side bᵢ = Σ_{j≠i} Mᵢⱼ |ωⱼ|² qᵢ × qⱼ − qᵢ × ∂V/∂qᵢ.
        for i in 0..n {
            let mut bi = -q[i].cross(&ws.grad[i]);
            let mut s = Vector3::zeros();
            for j in 0..n {
                if j != i {
                    s += q[j] * (m[(i, j)] * omega[j].norm_squared());
                }
            }
            bi += q[i].cross(&s);
            ws.b[3 * i..3 * i + 3].copy_from_slice(bi.as_slice());
        }
        let dim = 3 * n;
        self.assemble(q, &mut ws.a);
        if cholesky_in_place(&mut ws.a, dim).is_ok() {
            cholesky_solve_in_place(&ws.a, dim, &mut ws.b);
        } else {
            self.assemble(q, &mut ws.a);
            if lu_factor_in_place(&mut ws.a, dim, &mut ws.piv).is_ok() {
                lu_solve_in_place(&ws.a, dim, &ws.piv, &mut ws.b);
            } else {
                ws.b.fill(f64::NAN);
            }
        }
        for i in 0..n {
            ws.accel[i] = Vector3::from_column_slice(&ws.b[3 * i..3 * i + 3]);
        }
        v
    }

    /// The matrix `A(q)` of eq. (2.11), row-major `3n × 3n`: blocks `Mᵢᵢ I` and
    /// `−Mᵢⱼ q̂ᵢ q̂ⱼ = −Mᵢⱼ (qⱼqᵢᵀ − (qᵢ·qⱼ) I)`.
    fn assemble(&self, q: &[Vector3<f64>], a: &mut [f64]) {
        let n = self.bodies();
        let dim = 3 * n;
        let m = &self.inertia;
        for i in 0..n {
            for j in 0..n {
                let c = q[i].dot(&q[j]);
                for row in 0..3 {
                    for col in 0..3 {
                        let x = if i == j {
                            if row == col { m[(i, i)] } else { 0.0 }
                        } else {
                            let mut x = -q[j][row] * q[i][col];
                            if row == col {
                                x += c;
                            }
                            m[(i, j)] * x
                        };
                        a[(3 * i + row) * dim + 3 * j + col] = x;
                    }
                }
            }
        }
    }

    /// The angular accelerations `ω̇ᵢ` of the Euler–Lagrange equations [LLM09, eqs.
    /// (2.9)–(2.11)] at `(q, ω)`, written into `out`; returns `V(q)`.
    ///
    /// # Panics
    /// If a slice or the workspace does not have [`bodies`](Self::bodies) entries.
    pub fn angular_accelerations(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        ws: &mut Workspace,
        out: &mut [Vector3<f64>],
    ) -> f64 {
        let v = self.solve(q, omega, ws);
        out.copy_from_slice(&ws.accel);
        v
    }

    /// The Lie group vector field `f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ)ᵢ ∈ se(3)ⁿ` (each `Vector6` rotation
    /// first) for the action of SE(3)ⁿ on (TS²)ⁿ, `(A, a)·(q, ω) = (Aq, Aω + â A q)`, whose
    /// generator is `(u, v) ↦ (u × q, u × ω + v × q)` \[CCLMO22, §5.1\]. With `u = ω`,
    /// `v = q × ω̇` it gives `q̇ = ω × q` and `ω̇ = (q × ω̇) × q = ω̇` (as `|q| = 1`, `ω̇·q = 0`),
    /// the Euler–Lagrange equations \[CCLMO22, §5.2\].
    ///
    /// # Panics
    /// If a slice or the workspace does not have [`bodies`](Self::bodies) entries.
    pub fn lie_algebra_field(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        ws: &mut Workspace,
        out: &mut [Vector6<f64>],
    ) {
        self.solve(q, omega, ws);
        for (((o, qi), wi), ai) in out.iter_mut().zip(q).zip(omega).zip(&ws.accel) {
            let v = qi.cross(ai);
            *o = Vector6::new(wi.x, wi.y, wi.z, v.x, v.y, v.z);
        }
    }

    /// The ambient ODE in ℝ⁶ⁿ: `q̇ᵢ = ωᵢ × qᵢ` and `ω̇ᵢ` from the Euler–Lagrange equations (the
    /// same solve as [`lie_algebra_field`](Self::lie_algebra_field)), written into `qdot` and
    /// `omega_dot`.
    ///
    /// # Panics
    /// If a slice or the workspace does not have [`bodies`](Self::bodies) entries.
    pub fn ambient_derivative(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        ws: &mut Workspace,
        qdot: &mut [Vector3<f64>],
        omega_dot: &mut [Vector3<f64>],
    ) {
        self.solve(q, omega, ws);
        for ((qd, qi), wi) in qdot.iter_mut().zip(q).zip(omega) {
            *qd = wi.cross(qi);
        }
        omega_dot.copy_from_slice(&ws.accel);
    }

    /// The kinetic energy `T = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ`, `q̇ᵢ = ωᵢ × qᵢ` \[LLM09, eq. (2.2)\].
    ///
    /// # Panics
    /// If a slice does not have [`bodies`](Self::bodies) entries.
    #[must_use]
    pub fn kinetic_energy(&self, q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> f64 {
        let n = self.bodies();
        assert_eq!(q.len(), n, "SphereSystem: q has the wrong number of bodies");
        assert_eq!(
            omega.len(),
            n,
            "SphereSystem: ω has the wrong number of bodies"
        );
        let m = &self.inertia;
        let mut t = 0.0;
        for i in 0..n {
            let vi = omega[i].cross(&q[i]);
            t += 0.5 * m[(i, i)] * vi.norm_squared();
            if !self.diagonal {
                for j in i + 1..n {
                    t += m[(i, j)] * vi.dot(&omega[j].cross(&q[j]));
                }
            }
        }
        t
    }

    /// The potential energy `V(q)`.
    ///
    /// # Panics
    /// If `q` does not have [`bodies`](Self::bodies) entries.
    #[must_use]
    pub fn potential_energy(&self, q: &[Vector3<f64>]) -> f64 {
        self.potential.value(q)
    }

    /// The total energy `E = ½ Σᵢⱼ Mᵢⱼ q̇ᵢ·q̇ⱼ + V(q)`, conserved by the exact flow.
    ///
    /// # Panics
    /// If a slice does not have [`bodies`](Self::bodies) entries.
    #[must_use]
    pub fn energy(&self, q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> f64 {
        self.kinetic_energy(q, omega) + self.potential_energy(q)
    }

    /// The conjugate momenta `pᵢ = Σⱼ (Mᵢⱼ q̇ⱼ − (qᵢ·Mᵢⱼ q̇ⱼ) qᵢ)` \[LLM09, eq. (2.12)\] (the
    /// projection of `Σⱼ Mᵢⱼ q̇ⱼ` onto the tangent plane at `qᵢ`), written into `out`.
    ///
    /// # Panics
    /// If a slice does not have [`bodies`](Self::bodies) entries.
    pub fn conjugate_momenta(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        out: &mut [Vector3<f64>],
    ) {
        let n = self.bodies();
        assert_eq!(q.len(), n, "SphereSystem: q has the wrong number of bodies");
        assert_eq!(
            omega.len(),
            n,
            "SphereSystem: ω has the wrong number of bodies"
        );
        assert_eq!(out.len(), n, "SphereSystem: output of the wrong size");
        let m = &self.inertia;
        for i in 0..n {
            let mut s = Vector3::zeros();
            for j in 0..n {
                let mij = m[(i, j)];
                if mij != 0.0 {
                    s += omega[j].cross(&q[j]) * mij;
                }
            }
            out[i] = s - q[i] * q[i].dot(&s);
        }
    }

    /// The total angular momentum `J = Σᵢ qᵢ × pᵢ` (the momentum map of simultaneous rotations
    /// of all `qᵢ`). The component along an axis `e` is conserved when `V` is invariant under
    /// rotations about `e` (e.g. `J·e₃` for pendula under gravity along `e₃`; all of `J` for
    /// rotation-invariant potentials such as Lennard-Jones or Kozlov–Harin).
    ///
    /// # Panics
    /// If a slice does not have [`bodies`](Self::bodies) entries.
    #[must_use]
    pub fn angular_momentum(&self, q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> Vector3<f64> {
        let n = self.bodies();
        assert_eq!(q.len(), n, "SphereSystem: q has the wrong number of bodies");
        assert_eq!(
            omega.len(),
            n,
            "SphereSystem: ω has the wrong number of bodies"
        );
        let m = &self.inertia;
        let mut j_total = Vector3::zeros();
        for i in 0..n {
            let mut s = Vector3::zeros();
            for j in 0..n {
                let mij = m[(i, j)];
                if mij != 0.0 {
                    s += omega[j].cross(&q[j]) * mij;
                }
            }
            // qᵢ × pᵢ = qᵢ × Σⱼ Mᵢⱼ q̇ⱼ (the normal component of the sum drops out).
            j_total += q[i].cross(&s);
        }
        j_total
    }
}

/// The unit-length error `maxᵢ ||qᵢ| − 1|` (zero on (S²)ⁿ).
#[must_use]
pub fn unit_length_error(q: &[Vector3<f64>]) -> f64 {
    q.iter()
        .map(|qi| (qi.norm() - 1.0).abs())
        .fold(0.0, f64::max)
}

/// The tangency error `maxᵢ |qᵢ·ωᵢ|` (zero on (TS²)ⁿ).
///
/// # Panics
/// If the slices have different lengths.
#[must_use]
pub fn tangency_error(q: &[Vector3<f64>], omega: &[Vector3<f64>]) -> f64 {
    assert_eq!(
        q.len(),
        omega.len(),
        "tangency_error: slices of different lengths"
    );
    q.iter()
        .zip(omega)
        .map(|(qi, wi)| qi.dot(wi).abs())
        .fold(0.0, f64::max)
}
