//! High-order integrators for Lagrangian systems on `(S²)ⁿ = SO(3)ⁿ/SO(2)ⁿ` via nonholonomic
//! mechanics on the group \[S22\]: variational partitioned RKMK (VPRKMK) with the Cayley
//! retraction, in a stage-constrained (discrete Chetaev) and a regularized fully variational
//! version (`docs/nonholonomic.md` §3 and §6.4).

use super::newton::{self, NewtonOptions};
use crate::error::SchemeError;
use crate::tableau::ButcherTableau;
use nalgebra::{DMatrix, DVector, Matrix3, Vector3};

/// The Lagrangian systems on `(S²)ⁿ` these integrators take are the ones of the variational
/// integrators (eq. (H1): `L(x, ẋ) = ½ Σᵢⱼ Mᵢⱼ ẋᵢ·ẋⱼ − V(x)`, `xᵢ ∈ S²`).
pub use crate::variational::SphereLagrangian;

/// Which lift of `L` to `SO(3)ⁿ` is discretized.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lift {
    /// The nonholonomic lift of [S22, abstract]: `ℓ(R, Η) = L(Re₃, R(Η × e₃))` with the algebra
    /// curve constrained to `𝔪 = e₃^⊥` (`Ηᵢ·e₃ = 0`) **at every stage**, a discrete Chetaev
    /// principle in which the nodes `g_k` are varied only along `𝔪` (so the discrete Legendre
    /// transform (E0) holds on `𝔪*` only, (H5)) and the stage force `λ(cᵢ)e₃` is a polynomial
    /// of degree `s − 2` in the stage time (none for `s = 1`, (H6)); `docs/nonholonomic.md` §7.
    /// Orders 2/4/6 with Gauss–Legendre `s = 1/2/3`, energy error bounded over 10⁵ steps
    /// (measured, same place). Needs an invertible RK matrix (Gauss; Lobatto IIIA is refused).
    /// This is **this workspace's derivation**, not the paper's printed scheme (which could not
    /// be read).
    StageConstrained,
    /// The regularized, fully variational lift `ℓ_c = ℓ + ½c Σᵢ(Ηᵢ·e₃)²` (a symmetric top with
    /// zero spin about e₃ per factor), discretized by the unconstrained VPRKMK: symplectic on
    /// `T*SO(3)ⁿ`, the spin `Ηᵢ·e₃` stays `O(hᵖ)` small and `xᵢ = Rᵢe₃` follows the system on
    /// `(S²)ⁿ` (`docs/nonholonomic.md` §6.4, "The two lifts"; not the paper's method).
    Regularized {
        /// The spin inertia `c > 0`.
        c: f64,
    },
}

/// The state on `T*SO(3)ⁿ` (left trivialization): rotations `Rᵢ` with `xᵢ = Rᵢe₃` and body
/// momenta `μᵢ ∈ so(3)* ≅ ℝ³`.
#[derive(Clone, Debug, PartialEq)]
pub struct LiftedState {
    /// Time.
    pub t: f64,
    /// Rotations `Rᵢ ∈ SO(3)`.
    pub rotations: Vec<Matrix3<f64>>,
    /// Body momenta `μᵢ = ∂ℓ/∂Ηᵢ`.
    pub momenta: Vec<Vector3<f64>>,
}

/// `cay(v) = (I − v̂/2)⁻¹(I + v̂/2) = I + 4/(4 + |v|²)(v̂ + v̂²/2)` (the RKMK Cayley convention,
/// `docs/notation.md`).
#[must_use]
pub fn cayley(v: &Vector3<f64>) -> Matrix3<f64> {
    let vh = v.cross_matrix();
    Matrix3::identity() + (vh + vh * vh * 0.5) * (4.0 / (4.0 + v.norm_squared()))
}

/// A rotation `R` with `R e₃ = x` (the rotation about `e₃ × x`; for `x ≈ −e₃`, the rotation by
/// π about `e₁`).
#[must_use]
pub fn rotation_to(x: &Vector3<f64>) -> Matrix3<f64> {
    let x = x.normalize();
    let e3 = Vector3::z();
    let c = e3.dot(&x);
    if c < -1.0 + 1e-12 {
        return Matrix3::from_diagonal(&Vector3::new(1.0, -1.0, -1.0));
    }
    let v = e3.cross(&x);
    let vh = v.cross_matrix();
    Matrix3::identity() + vh + vh * vh / (1.0 + c)
}

/// The variational partitioned RKMK integrator on `SO(3)ⁿ` (left trivialization, Cayley
/// retraction `τ = cay`) for the lift of a [`SphereLagrangian`] (`docs/nonholonomic.md` §6.4).
///
/// With stage velocities `W^j` (algebra coordinates), `Ξ^i = hΣⱼ a_ij W^j`, `ξ = hΣⱼ bⱼ W^j`,
/// `G^i = R cay(Ξ^i)`, `Η^i = dτ_{−Ξ^i} W^i = κ(W^i − ½Ξ^i × W^i)`, `κ = 4/(4 + |Ξ^i|²)`, the
/// momenta `M^i = ∂ℓ/∂Η`, forces `N^i = ∂_gℓ + F^i`, and
///
/// ```text
///   P^i = dτ*_{−Ξ^i} M^i = κ(M^i + ½Ξ^i × M^i),
///   Ṗ^i = κ(N^i + ½Ξ^i × N^i) − 8/(4+|Ξ^i|²)² (M^i·(W^i − ½Ξ^i×W^i)) Ξ^i
///         + 2/(4+|Ξ^i|²) M^i × W^i,                                                 (H2)
/// ```
///
/// the unknowns `(W^1..W^s, p₁)` (and, for [`Lift::StageConstrained`], the `s − 1` coefficients
/// `Λ_m` of the stage force `F^i = λ(cᵢ)e₃`, `λ(c) = Σ_{m ≤ s−2} Λ_m (c − ½)^m`, (H6)) solve
///
/// ```text
///   (S)   P^j = p₁ − h Σᵢ (bᵢ a_ij / bⱼ) Ṗ^i,                    j = 1..s,
///   (E0)  μ₀ = dτ⁻*_ξ p₁ − h Σᵢ bᵢ cay(Ξ^i) N^i      (stage-constrained: 𝔪* part only, (H5)),
///   (C)   Η^i·e₃ = 0 per factor                                (stage-constrained only), (H3)
///   out:  R₁ = R₀ cay(ξ),  μ₁ = dτ⁻*_{−ξ} p₁            (stage-constrained: μ₁·e₃ := 0),
/// ```
///
/// with `dτ⁻*_{±ξ} p = p ± ½ξ × p + ξ(ξ·p)/4`. Per factor, with `vᵢ = Ηᵢ × e₃` and the
/// spatial momentum `Pᵢ = Σⱼ Mᵢⱼ ẋⱼ`, `ẋⱼ = Rⱼ vⱼ`:
///
/// ```text
///   Mᵢ = e₃ × (RᵢᵀPᵢ) [+ c (Ηᵢ·e₃) e₃],   Nᵢ = vᵢ × (RᵢᵀPᵢ) − e₃ × (Rᵢᵀ∇ᵢV) [+ λᵢe₃].  (H4)
/// ```
///
/// These are derived in `docs/nonholonomic.md` §6.4 and §7 (not the printed equations of
/// \[S22\], which could not be read). Tableaux need `bⱼ ≠ 0`; Gauss–Legendre with `s` stages
/// gives order `2s` (measured: 2, 4 and 6, both lifts).
#[derive(Clone, Debug)]
pub struct Vprkmk<'a, L> {
    system: L,
    tableau: &'a ButcherTableau,
    lift: Lift,
    opts: NewtonOptions,
    evals: usize,
    stage_evals: usize,
    guess: Option<DVector<f64>>,
}

impl<'a, L: SphereLagrangian> Vprkmk<'a, L> {
    /// A VPRKMK integrator with the given tableau (implicit, `bⱼ ≠ 0`) and lift.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] when a weight `bⱼ` vanishes, `c ≤ 0`, the system has no
    /// bodies, or the lift is [`Lift::StageConstrained`] and the RK matrix `A` is singular
    /// (Lobatto IIIA: its first stage is explicit, and the stage constraints and the stage force
    /// polynomial (H5)–(H6) are then singular; `docs/nonholonomic.md` §7); invalid Newton
    /// options.
    pub fn new(
        system: L,
        tableau: &'a ButcherTableau,
        lift: Lift,
        opts: NewtonOptions,
    ) -> Result<Self, SchemeError> {
        opts.validate()?;
        if tableau.b.contains(&0.0) {
            return Err(SchemeError::InvalidOption {
                name: "tableau",
                reason: "VPRKMK needs all weights b_j ≠ 0".into(),
            });
        }
        if lift == Lift::StageConstrained && !stage_matrix_invertible(tableau) {
            return Err(SchemeError::InvalidOption {
                name: "tableau",
                reason: format!(
                    "{}: the stage-constrained lift needs an invertible RK matrix A (Gauss–Legendre); \
                     with a singular A (Lobatto IIIA) the stage constraints and forces are singular \
                     — use Lift::Regularized",
                    tableau.name
                ),
            });
        }
        if let Lift::Regularized { c } = lift
            && !(c.is_finite() && c > 0.0)
        {
            return Err(SchemeError::InvalidOption {
                name: "lift c",
                reason: format!("spin inertia c = {c} must be positive"),
            });
        }
        if system.bodies() == 0 {
            return Err(SchemeError::InvalidOption {
                name: "system",
                reason: "no bodies".into(),
            });
        }
        Ok(Self {
            system,
            tableau,
            lift,
            opts,
            evals: 0,
            stage_evals: 0,
            guess: None,
        })
    }

    /// The system.
    pub fn system(&self) -> &L {
        &self.system
    }

    /// The lift.
    #[must_use]
    pub fn lift(&self) -> Lift {
        self.lift
    }

    /// Residual evaluations of (H3) so far (including finite-difference Jacobians).
    #[must_use]
    pub fn residual_evaluations(&self) -> usize {
        self.evals
    }

    /// Evaluations of the Lagrangian's derivatives (H4) at one stage (all `n` factors at once;
    /// `s` per residual evaluation): the cost unit comparable to one vector-field evaluation.
    #[must_use]
    pub fn stage_evaluations(&self) -> usize {
        self.stage_evals
    }

    fn stages(&self) -> usize {
        self.tableau.b.len()
    }

    /// `a_ij` of the tableau.
    fn a(&self, i: usize, j: usize) -> f64 {
        self.tableau.a(i, j)
    }

    /// `(Mᵢ, Nᵢ)` of (H4) (without multiplier) at rotations `g` and algebra velocities `eta`.
    fn derivatives(
        &self,
        g: &[Matrix3<f64>],
        eta: &[Vector3<f64>],
        m_out: &mut [Vector3<f64>],
        n_out: &mut [Vector3<f64>],
    ) {
        let n = g.len();
        let e3 = Vector3::z();
        let x: Vec<Vector3<f64>> = g.iter().map(|r| r.column(2).into_owned()).collect();
        let v: Vec<Vector3<f64>> = eta.iter().map(|h| h.cross(&e3)).collect();
        let xd: Vec<Vector3<f64>> = (0..n).map(|i| g[i] * v[i]).collect();
        let mut grad = vec![Vector3::zeros(); n];
        self.system.potential_gradient(&x, &mut grad);
        for i in 0..n {
            let mut p = Vector3::zeros();
            for (j, xdj) in xd.iter().enumerate() {
                p += xdj * self.system.inertia(i, j);
            }
            let bp = g[i].transpose() * p;
            m_out[i] = e3.cross(&bp);
            if let Lift::Regularized { c } = self.lift {
                m_out[i] += e3 * (c * eta[i].z);
            }
            n_out[i] = v[i].cross(&bp) - e3.cross(&(g[i].transpose() * grad[i]));
        }
    }

    /// Recover the algebra velocities `Ηᵢ` from body momenta `μᵢ` at rotations `Rᵢ`: the `𝔪`
    /// parts solve the `2n × 2n` linear system `P_𝔪 Mᵢ(Η) = P_𝔪 μᵢ` of (H4), and `Ηᵢ·e₃` is
    /// `μᵢ·e₃/c` for the regularized lift and 0 otherwise.
    ///
    /// # Panics
    /// If the inertia is singular (programmer error: the system must be regular).
    #[must_use]
    pub fn velocities(
        &self,
        rotations: &[Matrix3<f64>],
        momenta: &[Vector3<f64>],
    ) -> Vec<Vector3<f64>> {
        let n = rotations.len();
        let mut a = DMatrix::zeros(2 * n, 2 * n);
        let mut rhs = DVector::zeros(2 * n);
        let e3 = Vector3::z();
        // M_i = e3 × R_iᵀ Σ_j M_ij R_j (Η_j × e3): linear in the (Η_j)_{1,2}.
        for i in 0..n {
            rhs[2 * i] = momenta[i].x;
            rhs[2 * i + 1] = momenta[i].y;
            for j in 0..n {
                for k in 0..2 {
                    let mut eta = Vector3::zeros();
                    eta[k] = 1.0;
                    let body = rotations[i].transpose() * (rotations[j] * eta.cross(&e3));
                    let col = e3.cross(&body) * self.system.inertia(i, j);
                    a[(2 * i, 2 * j + k)] = col.x;
                    a[(2 * i + 1, 2 * j + k)] = col.y;
                }
            }
        }
        let sol = a.lu().solve(&rhs).expect("regular inertia");
        (0..n)
            .map(|i| {
                let z = match self.lift {
                    Lift::Regularized { c } => momenta[i].z / c,
                    Lift::StageConstrained => 0.0,
                };
                Vector3::new(sol[2 * i], sol[2 * i + 1], z)
            })
            .collect()
    }

    /// The initial state from points `xᵢ ∈ S²` and angular velocities `ωᵢ` (`ẋᵢ = ωᵢ × xᵢ`;
    /// the components along `xᵢ` are ignored): `Rᵢ = `[`rotation_to`]`(xᵢ)`,
    /// `Ηᵢ = Rᵢᵀ(ωᵢ − (ωᵢ·xᵢ)xᵢ) ∈ 𝔪`, `μᵢ = ∂ℓ/∂Ηᵢ`.
    ///
    /// # Panics
    /// If the slices do not have `n` entries.
    #[must_use]
    pub fn initial_state(
        &self,
        t0: f64,
        x: &[Vector3<f64>],
        omega: &[Vector3<f64>],
    ) -> LiftedState {
        let n = self.system.bodies();
        assert_eq!(x.len(), n, "wrong number of points");
        assert_eq!(omega.len(), n, "wrong number of velocities");
        let rotations: Vec<Matrix3<f64>> = x.iter().map(rotation_to).collect();
        let eta: Vec<Vector3<f64>> = (0..n)
            .map(|i| {
                let xi = x[i].normalize();
                let w = omega[i] - xi * omega[i].dot(&xi);
                rotations[i].transpose() * w
            })
            .collect();
        let mut m = vec![Vector3::zeros(); n];
        let mut nn = vec![Vector3::zeros(); n];
        self.derivatives(&rotations, &eta, &mut m, &mut nn);
        LiftedState {
            t: t0,
            rotations,
            momenta: m,
        }
    }

    /// Points `xᵢ = Rᵢe₃` and angular velocities `ωᵢ = xᵢ × ẋᵢ`, `ẋᵢ = Rᵢ(Ηᵢ × e₃)`, of a state.
    #[must_use]
    pub fn positions_velocities(&self, s: &LiftedState) -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
        let eta = self.velocities(&s.rotations, &s.momenta);
        let e3 = Vector3::z();
        let x: Vec<Vector3<f64>> = s
            .rotations
            .iter()
            .map(|r| r.column(2).into_owned())
            .collect();
        let w = (0..x.len())
            .map(|i| x[i].cross(&(s.rotations[i] * eta[i].cross(&e3))))
            .collect();
        (x, w)
    }

    /// The energy `½Σ Mᵢⱼ ẋᵢ·ẋⱼ + V(x)` of (H1) at a state (the physical energy: the spin
    /// term of the regularized lift is excluded).
    #[must_use]
    pub fn energy(&self, s: &LiftedState) -> f64 {
        let (x, w) = self.positions_velocities(s);
        let xd: Vec<Vector3<f64>> = (0..x.len()).map(|i| w[i].cross(&x[i])).collect();
        let mut t = 0.0;
        for i in 0..x.len() {
            for j in 0..x.len() {
                t += 0.5 * self.system.inertia(i, j) * xd[i].dot(&xd[j]);
            }
        }
        t + self.system.potential(&x)
    }

    /// Number of stage-force coefficients per factor: `s − 1` for [`Lift::StageConstrained`]
    /// (the stage force is a polynomial of degree `s − 2` in the stage time, (H6)), 0 otherwise.
    fn force_coefficients(&self) -> usize {
        match self.lift {
            Lift::StageConstrained => self.stages() - 1,
            Lift::Regularized { .. } => 0,
        }
    }

    /// The residual of (H3) at `z = (W¹..Wˢ, p₁, Λ)` (`Λ` the coefficients of the stage force
    /// polynomial of (H6), stage-constrained lift only).
    fn residual(&self, s0: &LiftedState, h: f64, z: &DVector<f64>, r: &mut DVector<f64>) {
        let n = s0.rotations.len();
        let s = self.stages();
        let b = self.tableau.b;
        let c = self.tableau.c;
        let nw = 3 * n * s;
        let w = |j: usize, i: usize| {
            Vector3::new(
                z[3 * (n * j + i)],
                z[3 * (n * j + i) + 1],
                z[3 * (n * j + i) + 2],
            )
        };
        let p1 = |i: usize| Vector3::new(z[nw + 3 * i], z[nw + 3 * i + 1], z[nw + 3 * i + 2]);
        let constrained = matches!(self.lift, Lift::StageConstrained);
        let nf = self.force_coefficients();
        // (E0) rows per factor: all of 𝔤* (regularized) or only 𝔪* (H5).
        let ne = if constrained { 2 } else { 3 };
        let crow = nw + ne * n;
        let mut pdot = vec![vec![Vector3::zeros(); n]; s];
        let mut pst = vec![vec![Vector3::zeros(); n]; s];
        let mut force = vec![vec![Vector3::zeros(); n]; s];
        let mut big_xi = vec![vec![Vector3::zeros(); n]; s];
        let mut g = vec![Matrix3::zeros(); n];
        let mut eta = vec![Vector3::zeros(); n];
        let mut mm = vec![Vector3::zeros(); n];
        let mut nn = vec![Vector3::zeros(); n];
        let mut row = 0;
        for st in 0..s {
            for i in 0..n {
                let mut xi = Vector3::zeros();
                for j in 0..s {
                    xi += w(j, i) * (h * self.a(st, j));
                }
                big_xi[st][i] = xi;
                g[i] = s0.rotations[i] * cayley(&xi);
                let wi = w(st, i);
                eta[i] = (wi - xi.cross(&wi) * 0.5) * (4.0 / (4.0 + xi.norm_squared()));
            }
            self.derivatives(&g, &eta, &mut mm, &mut nn);
            for i in 0..n {
                let xi = big_xi[st][i];
                let q = 4.0 + xi.norm_squared();
                let kappa = 4.0 / q;
                let mut ni = nn[i];
                if constrained {
                    // (H6): λ(cᵢ) = Σ_m Λ_m (cᵢ − ½)^m, degree ≤ s − 2.
                    let mut lambda = 0.0;
                    let mut pow = 1.0;
                    for m in 0..nf {
                        lambda += z[nw + 3 * n + nf * i + m] * pow;
                        pow *= c[st] - 0.5;
                    }
                    ni += Vector3::z() * lambda;
                    // (H5): Η^i·e₃ = 0 at every stage.
                    r[crow + n * st + i] = eta[i].z;
                }
                force[st][i] = ni;
                let wi = w(st, i);
                pst[st][i] = (mm[i] + xi.cross(&mm[i]) * 0.5) * kappa;
                pdot[st][i] = (ni + xi.cross(&ni) * 0.5) * kappa
                    - xi * (8.0 / (q * q) * mm[i].dot(&(wi - xi.cross(&wi) * 0.5)))
                    + mm[i].cross(&wi) * (2.0 / q);
            }
        }
        // (S)
        for j in 0..s {
            for i in 0..n {
                let mut v = pst[j][i] - p1(i);
                for st in 0..s {
                    v += pdot[st][i] * (h * b[st] * self.a(st, j) / b[j]);
                }
                for k in 0..3 {
                    r[row + k] = v[k];
                }
                row += 3;
            }
        }
        // (E0), for the stage-constrained lift only its 𝔪* components (H5).
        for i in 0..n {
            let mut xi = Vector3::zeros();
            for (j, bj) in b.iter().enumerate() {
                xi += w(j, i) * (h * bj);
            }
            let p = p1(i);
            let mut v = p + xi.cross(&p) * 0.5 + xi * (xi.dot(&p) * 0.25) - s0.momenta[i];
            for (st, bs) in b.iter().enumerate() {
                v -= cayley(&big_xi[st][i]) * force[st][i] * (h * bs);
            }
            for k in 0..ne {
                r[row + k] = v[k];
            }
            row += ne;
        }
    }

    /// One step of size `h` from `s0`.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`]; [`SchemeError::NonConvergence`] when Newton fails;
    /// [`SchemeError::NonFinite`].
    pub fn step(&mut self, s0: &LiftedState, h: f64) -> Result<LiftedState, SchemeError> {
        if !(h.is_finite() && h > 0.0) {
            return Err(SchemeError::InvalidStepSize { h });
        }
        let n = s0.rotations.len();
        let s = self.stages();
        let nw = 3 * n * s;
        let dim = nw + 3 * n + n * self.force_coefficients();
        let mut z = match &self.guess {
            Some(gz) if gz.len() == dim => gz.clone(),
            _ => {
                let eta = self.velocities(&s0.rotations, &s0.momenta);
                let mut z = DVector::zeros(dim);
                for j in 0..s {
                    for i in 0..n {
                        for k in 0..3 {
                            z[3 * (n * j + i) + k] = eta[i][k];
                        }
                    }
                }
                for i in 0..n {
                    for k in 0..3 {
                        z[nw + 3 * i + k] = s0.momenta[i][k];
                    }
                }
                z
            }
        };
        let (evals, _) = {
            let this = &*self;
            let rscale =
                1.0 + liegroup::linalg::max_abs(s0.momenta.iter().flat_map(|v| v.iter().copied()));
            newton::solve(
                |z, r| this.residual(s0, h, z, r),
                &mut z,
                &self.opts,
                rscale,
                s0.t,
            )?
        };
        self.evals += evals;
        self.stage_evals += evals * s;
        let b = self.tableau.b;
        let mut rotations = Vec::with_capacity(n);
        let mut momenta = Vec::with_capacity(n);
        for i in 0..n {
            let mut xi = Vector3::zeros();
            for (j, bj) in b.iter().enumerate() {
                xi += Vector3::new(
                    z[3 * (n * j + i)],
                    z[3 * (n * j + i) + 1],
                    z[3 * (n * j + i) + 2],
                ) * (h * bj);
            }
            let p = Vector3::new(z[nw + 3 * i], z[nw + 3 * i + 1], z[nw + 3 * i + 2]);
            rotations.push(s0.rotations[i] * cayley(&xi));
            let mut mu = p - xi.cross(&p) * 0.5 + xi * (xi.dot(&p) * 0.25);
            if matches!(self.lift, Lift::StageConstrained) {
                // (H5): the 𝔥* part of the node momentum is the free node multiplier; the
                // physical momentum `∂ℓ/∂Η = e₃ × (·)` has none.
                mu.z = 0.0;
            }
            momenta.push(mu);
        }
        if rotations.iter().any(|r| !r.iter().all(|x| x.is_finite()))
            || momenta.iter().any(|m| !m.iter().all(|x| x.is_finite()))
        {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: s0.t + h,
            });
        }
        self.guess = Some(z);
        Ok(LiftedState {
            t: s0.t + h,
            rotations,
            momenta,
        })
    }

    /// Forget the initial guess carried over from the last step (call before starting a new
    /// trajectory with a different step size).
    pub fn reset(&mut self) {
        self.guess = None;
    }
}

/// Whether the RK matrix `A` of a tableau is invertible (`|det A| > 1e-12·max|a_ij|^s`): false
/// for Lobatto IIIA, whose first row vanishes.
fn stage_matrix_invertible(tableau: &ButcherTableau) -> bool {
    let s = tableau.b.len();
    let a = DMatrix::from_fn(s, s, |i, j| tableau.a(i, j));
    let scale = a.amax();
    scale > 0.0 && a.determinant().abs() > 1e-12 * scale.powi(s as i32)
}

/// The two-stage Lobatto IIIA method (trapezoidal rule), order 2 [HNW93 IV.5, Table 5.7]:
/// `c = (0, 1)`, `A = [[0, 0], [1/2, 1/2]]`, `b = (1/2, 1/2)`. As the first tableau of VPRKMK it
/// gives the Lobatto IIIA–IIIB pair ([`Lift::Regularized`] only: [`Vprkmk::new`] refuses it with
/// [`Lift::StageConstrained`], whose stage systems are singular for it, `docs/nonholonomic.md`
/// §7; measured with the regularized lift: order 2, energy error bounded over 10⁴ steps).
pub const LOBATTO_IIIA2: ButcherTableau = ButcherTableau {
    name: "Lobatto IIIA 2",
    order: 2,
    reference: "[HNW93]",
    a: &[&[0.0, 0.0], &[0.5, 0.5]],
    b: &[0.5, 0.5],
    c: &[0.0, 1.0],
    embedded: None,
    dense_output: None,
};

/// The three-stage Lobatto IIIA method, order 4 [HNW93 IV.5, Table 5.7]:
/// `c = (0, 1/2, 1)`, `A = [[0, 0, 0], [5/24, 1/3, −1/24], [1/6, 2/3, 1/6]]`,
/// `b = (1/6, 2/3, 1/6)`. [`Lift::Regularized`] only (as [`LOBATTO_IIIA2`]); measured order 4.
pub const LOBATTO_IIIA4: ButcherTableau = ButcherTableau {
    name: "Lobatto IIIA 4",
    order: 4,
    reference: "[HNW93]",
    a: &[
        &[0.0, 0.0, 0.0],
        &[5.0 / 24.0, 1.0 / 3.0, -1.0 / 24.0],
        &[1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0],
    ],
    b: &[1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0],
    c: &[0.0, 0.5, 1.0],
    embedded: None,
    dense_output: None,
};
