//! RATTLE for a rigid body with its attitude as a constrained `3 × 3` matrix `Q`, `QᵀQ = I`
//! (\[DLM97\] §2, \[And83\]; `docs/langevin.md` §1).

use super::check_step_input;
use super::cotangent::{CotangentAction, CotangentPoint};
use super::rigid_body::{RigidBody, RigidBodyPotential};
use crate::error::SchemeError;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::LieVectorField;
use liegroup::linalg::max_abs;
use liegroup::scalar::{c, re};
use liegroup::{LieGroup, So3, hat, vee};
use nalgebra::{Matrix3, Matrix6, RealField, Vector3, Vector6};

/// A rigid-body state in the constrained matrix form of \[DLM97\] §2: the attitude `Q ∈ ℝ³ˣ³`
/// (body to space, `QᵀQ = I` held by the integrator) and its conjugate momentum `P = Q̇ J`
/// (`J` the non-standard inertia of [`RattleRotation`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RattleState<T: RealField + Copy = f64> {
    /// The attitude `Q` (body → space).
    pub q: Matrix3<T>,
    /// The momentum `P = Q̇ J`, with `QᵀP J⁻¹` skew-symmetric (hidden velocity constraint).
    pub p: Matrix3<T>,
}

/// The upper-triangle index pairs of a symmetric `3 × 3` matrix, the unknowns of the Newton
/// solve (diagonal first).
const SYM: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (0, 2), (1, 2)];

/// The symplectic RATTLE method \[And83\] for a rigid body with a fixed point written with the
/// rotation matrix `Q` as a constrained configuration in `ℝ³ˣ³` \[DLM97, eqs. (2.4)–(2.9)\]
/// (`docs/langevin.md` §1, eqs. (R1)–(R6)).
///
/// The Lagrangian `L = ½ tr(Q̇ J Q̇ᵀ) − V(Q)` with the non-standard inertia
/// `J = ½ tr(I) 𝟙 − I` (`J_i = ½(I_j + I_k − I_i)`, positive for a body that is not flat)
/// gives the kinetic energy `½ ΩᵀIΩ` for `Q̇ = QΩ̂`, and with `P = Q̇ J` and a symmetric
/// multiplier `Λ` for `QᵀQ = I` the equations of motion (thesis eqs. `RBMotionRotation`,
/// `RBMotionP` of \[Lin06\])
///
/// ```text
///   (R1)  dQ/dt = P J⁻¹,     dP/dt = −∇_Q V(Q) − 2QΛ,     QᵀQ = I.
/// ```
///
/// One step of size `h` (Λ and Λ̃ symmetric; `F(Q) = −∇_Q V`):
///
/// ```text
///   (R2)  P_{½} = P₀ + (h/2) F(Q₀) − h Q₀ Λ,
///   (R3)  Q₁ = Q₀ + h P_{½} J⁻¹,                 Q₁ᵀQ₁ = I        (6 equations for Λ),
///   (R4)  P₁ = P_{½} + (h/2) F(Q₁) − h Q₁ Λ̃,
///   (R5)  Q₁ᵀP₁J⁻¹ + (Q₁ᵀP₁J⁻¹)ᵀ = 0                               (linear in Λ̃).
/// ```
///
/// (R3) is solved by Newton's method on the 6 entries of `L = h²Λ`, from the linearized guess
/// `L_ij = (BᵀB − I)_ij / (J_i⁻¹ + J_j⁻¹)`, `B = Q₀ + h(P₀ + (h/2)F(Q₀))J⁻¹`, until
/// `‖Q₁ᵀQ₁ − I‖_max ≤ tol` (default `8ε`) or the residual stops decreasing below `64ε` (the
/// round-off floor); the constraint is imposed on `Q₁` itself, so the orthogonality error does not
/// accumulate and **no reprojection** is done. (R5) with `Q₁ᵀQ₁ = I` reads
/// `X J⁻¹ + J⁻¹ X = W + Wᵀ`, `W = Q₁ᵀ(P_{½} + (h/2)F(Q₁))J⁻¹`, `X = hΛ̃`, solved entrywise:
/// `X_ij = (W + Wᵀ)_ij / (J_i⁻¹ + J_j⁻¹)`.
///
/// **Potential.** [`RigidBodyPotential`] gives the body moment `M(Q)`; the force used is the
/// component of `−∇_Q V` tangent to the constraint, `F(Q) = ½ Q M̂(Q)` (its skew part
/// `QᵀF − FᵀQ = M̂` is all that enters: a normal component `Q S`, `S` symmetric, is absorbed by
/// `Λ` and `Λ̃` and changes nothing).
///
/// **Equivalence with the LGVI.** Eliminating `Λ`, `F_k = Q₀ᵀQ₁` satisfies
/// `F_k J − J F_kᵀ = h (Π₀ + (h/2)M₀)^` and `Π₁ = F_kᵀ(Π₀ + (h/2)M₀) + (h/2)M₁` with
/// `Π̂ = QᵀP − PᵀQ`: the discrete equations (L2), (L5) of [`Lgvi`](super::Lgvi) with `c = ½`
/// \[LLM07\]. The two methods are the same map and agree to round-off (tested); RATTLE
/// solves a 6 × 6 system for the multiplier instead of a 3-vector equation for `F_k`.
///
/// The method is symmetric, symplectic on the constraint manifold and of order 2; it conserves
/// the spatial angular momentum of the free body and `e₃·π` of the heavy top.
///
/// **As a [`Stepper`].** It steps [`CotangentAction<So3<T>>`] points `(R, π)` by
/// [`lift`](Self::lift) (`P = Q Ω̂ J`), one matrix step ([`advance_matrix`](Self::advance_matrix))
/// and [`project`](Self::project) (`π = Q Π`, `Π = 2 vee(QᵀP)`); the vector field passed to
/// [`Stepper::step`] is ignored (the stepper holds the rigid body).
///
/// # Example
/// ```
/// use nalgebra::Vector3;
/// use liegroup::So3;
/// use schemes::symplectic::{CotangentPoint, RattleRotation, RigidBody};
/// let body = RigidBody::free(Vector3::new(1.0, 2.0, 2.5)).unwrap();
/// let mut rattle = RattleRotation::new(body).unwrap();
/// let y0 = CotangentPoint::from_body(So3::identity(), Vector3::new(0.5, -1.0, 2.0));
/// let s1 = rattle.advance_matrix(0.0, &rattle.lift(&y0), 0.1).unwrap();
/// let defect = (s1.q.transpose() * s1.q - nalgebra::Matrix3::identity()).amax();
/// assert!(defect <= 8.0 * f64::EPSILON);
/// ```
#[derive(Clone, Debug)]
pub struct RattleRotation<P> {
    body: RigidBody<P>,
    j: Vector3<f64>,
    tol: f64,
    max_iter: usize,
    stats: StepStats,
}

impl<P> RattleRotation<P> {
    /// RATTLE for `body`, with `‖Q₁ᵀQ₁ − I‖_max ≤ 8ε` and at most 20 Newton iterations.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] unless every `J_i = ½(I_j + I_k − I_i)` is positive (the
    /// principal moments satisfy the strict triangle inequality; flat or linear bodies have a
    /// singular `J`).
    pub fn new(body: RigidBody<P>) -> Result<Self, SchemeError> {
        let i = body.inertia();
        let j = Vector3::repeat(0.5 * i.sum()) - i;
        if !j.iter().all(|&x| x > 0.0) {
            return Err(SchemeError::InvalidOption {
                name: "inertia",
                reason: format!(
                    "RATTLE needs J = tr(I)/2 − I positive definite (I_i < I_j + I_k), got I = {i:?}"
                ),
            });
        }
        Ok(Self {
            body,
            j,
            tol: 8.0 * f64::EPSILON,
            max_iter: 20,
            stats: StepStats::default(),
        })
    }

    /// Replace the constraint tolerance on `‖Q₁ᵀQ₁ − I‖_max`, as a multiple of `ε`, and the
    /// iteration limit.
    ///
    /// # Errors
    /// [`SchemeError::InvalidTolerance`] unless `multiple_of_eps ≥ 1` and finite,
    /// [`SchemeError::InvalidOption`] for `max_iter = 0`.
    pub fn with_tolerance(
        mut self,
        multiple_of_eps: f64,
        max_iter: usize,
    ) -> Result<Self, SchemeError> {
        if !(multiple_of_eps.is_finite() && multiple_of_eps >= 1.0) {
            return Err(SchemeError::InvalidTolerance {
                name: "constraint tolerance (multiple of ε)",
                value: multiple_of_eps,
            });
        }
        if max_iter == 0 {
            return Err(SchemeError::InvalidOption {
                name: "max_iter",
                reason: "at least one iteration is needed".into(),
            });
        }
        self.tol = multiple_of_eps * f64::EPSILON;
        self.max_iter = max_iter;
        Ok(self)
    }

    /// The rigid body.
    #[must_use]
    pub fn body(&self) -> &RigidBody<P> {
        &self.body
    }

    /// The diagonal of the non-standard inertia `J = ½ tr(I) 𝟙 − I`.
    #[must_use]
    pub fn nonstandard_inertia(&self) -> Vector3<f64> {
        self.j
    }

    /// `(Q, P) = (R, R Ω̂ J)` from `(R, π)`, `Ω = I⁻¹Rᵀπ` (so `Q̇ = PJ⁻¹ = RΩ̂`).
    #[must_use]
    pub fn lift<T: RealField + Copy>(&self, y: &CotangentPoint<So3<T>>) -> RattleState<T> {
        let omega = self.body.body_velocity(&y.g.inverse_rotate(&y.mu));
        let q = *y.g.matrix();
        RattleState {
            q,
            p: q * hat(&omega) * Matrix3::from_diagonal(&self.j.cast()),
        }
    }

    /// `(R, π) = (Q, QΠ)` with `Π̂ = QᵀP − PᵀQ`, i.e. `Π = 2 vee(QᵀP)`; `Q` is used as it is
    /// (no reprojection).
    #[must_use]
    pub fn project<T: RealField + Copy>(&self, s: &RattleState<T>) -> CotangentPoint<So3<T>> {
        let body = vee(&(s.q.transpose() * s.p)) * c::<T>(2.0);
        CotangentPoint::new(So3::from_matrix_unchecked(s.q), s.q * body)
    }

    /// The energy `½ tr(P J⁻¹ Pᵀ) + V(Q)` (equal to `½ ΩᵀIΩ + V` on the constraint manifold).
    #[must_use]
    pub fn energy<T: RealField + Copy>(&self, s: &RattleState<T>) -> T
    where
        P: RigidBodyPotential<T>,
    {
        let jinv = Matrix3::from_diagonal(&self.j.map(|x| 1.0 / x).cast::<T>());
        (s.p * jinv * s.p.transpose()).trace() * c::<T>(0.5)
            + self
                .body
                .potential()
                .potential(&So3::from_matrix_unchecked(s.q))
    }

    /// `F(Q) = ½ Q M̂(Q)`, the tangent part of `−∇_Q V`.
    fn force<T: RealField + Copy>(&self, q: &Matrix3<T>) -> Matrix3<T>
    where
        P: RigidBodyPotential<T>,
    {
        let m = self
            .body
            .potential()
            .moment(&So3::from_matrix_unchecked(*q));
        q * hat(&m) * c::<T>(0.5)
    }

    /// One RATTLE step (R2)–(R5) of size `h` on the matrix state; `t` is used only in error
    /// reports. `h = 0` returns the state unchanged.
    ///
    /// # Errors
    /// [`SchemeError::InvalidStepSize`] for a non-finite `h`, [`SchemeError::NonFinite`] for a
    /// non-finite state, [`SchemeError::NonConvergence`] when Newton's method does not reach the
    /// tolerance on `Q₁ᵀQ₁ = I` (a step far too large for the body's angular velocity).
    pub fn advance_matrix<T: RealField + Copy>(
        &mut self,
        t: T,
        s: &RattleState<T>,
        h: T,
    ) -> Result<RattleState<T>, SchemeError>
    where
        P: RigidBodyPotential<T>,
    {
        let finite = s.q.iter().chain(s.p.iter()).all(|x| re(*x).is_finite());
        check_step_input(re(t), re(h), finite)?;
        if re(h) == 0.0 {
            return Ok(*s);
        }
        let half = h * c::<T>(0.5);
        let jd = self.j.cast::<T>();
        let jinv_v = jd.map(|x| T::one() / x);
        let jinv = Matrix3::from_diagonal(&jinv_v);
        // (R2) without the multiplier, and the unconstrained position B of (R3).
        let p_free = s.p + self.force(&s.q) * half;
        let b = s.q + p_free * jinv * h;
        self.stats.f_evals += 2;
        // Linearized guess L_ij = (BᵀB − I)_ij / (J_i⁻¹ + J_j⁻¹).
        let e = b.transpose() * b - Matrix3::identity();
        let mut l = Matrix3::from_fn(|i, k| e[(i, k)] / (jinv_v[i] + jinv_v[k]));
        let mut best = f64::INFINITY;
        let mut iterations = 0;
        let q1 = loop {
            let q1 = b - s.q * l * jinv;
            let r = q1.transpose() * q1 - Matrix3::identity();
            let res = max_abs(r.iter().map(|x| re(*x)));
            if !res.is_finite() {
                return Err(SchemeError::NonFinite {
                    what: "RATTLE constraint residual",
                    t: re(t),
                });
            }
            let stalled = res >= best && res <= 64.0 * f64::EPSILON;
            if res <= self.tol || stalled {
                break q1;
            }
            if iterations >= self.max_iter {
                return Err(SchemeError::NonConvergence {
                    t: re(t),
                    residual: res,
                    iterations,
                    tolerance: self.tol,
                });
            }
            best = best.min(res);
            iterations += 1;
            self.stats.iterations += 1;
            // Newton on the 6 upper-triangle entries: d(Q₁ᵀQ₁)[δ] = −(DᵀQ₁ + Q₁ᵀD), D = Q₀δJ⁻¹.
            let mut jac = Matrix6::<T>::zeros();
            for (col, &(a, bb)) in SYM.iter().enumerate() {
                let mut basis = Matrix3::<T>::zeros();
                basis[(a, bb)] = T::one();
                basis[(bb, a)] = T::one();
                let d = s.q * basis * jinv;
                let dr = -(d.transpose() * q1 + q1.transpose() * d);
                for (row, &(i, k)) in SYM.iter().enumerate() {
                    jac[(row, col)] = dr[(i, k)];
                }
            }
            let rhs = Vector6::from_fn(|row, _| -r[SYM[row]]);
            let Some(delta) = jac.lu().solve(&rhs) else {
                return Err(SchemeError::NonConvergence {
                    t: re(t),
                    residual: res,
                    iterations,
                    tolerance: self.tol,
                });
            };
            for (row, &(i, k)) in SYM.iter().enumerate() {
                l[(i, k)] += delta[row];
                if i != k {
                    l[(k, i)] += delta[row];
                }
            }
        };
        // (R2) with the multiplier: P_½ = P_free − Q₀ L / h (L = h²Λ).
        let p_half = p_free - s.q * l / h;
        // (R4)–(R5): X = hΛ̃ from X J⁻¹ + J⁻¹ X = W + Wᵀ.
        let a = p_half + self.force(&q1) * half;
        let w = q1.transpose() * a * jinv;
        let sym = w + w.transpose();
        let x = Matrix3::from_fn(|i, k| sym[(i, k)] / (jinv_v[i] + jinv_v[k]));
        let out = RattleState {
            q: q1,
            p: a - q1 * x,
        };
        if !out.q.iter().chain(out.p.iter()).all(|x| re(*x).is_finite()) {
            return Err(SchemeError::NonFinite {
                what: "state",
                t: re(t + h),
            });
        }
        Ok(out)
    }

    /// One step on `(R, π)`: [`lift`](Self::lift), [`advance_matrix`](Self::advance_matrix),
    /// [`project`](Self::project).
    ///
    /// # Errors
    /// As [`advance_matrix`](Self::advance_matrix).
    pub fn advance<T: RealField + Copy>(
        &mut self,
        t: T,
        y: &CotangentPoint<So3<T>>,
        h: T,
    ) -> Result<CotangentPoint<So3<T>>, SchemeError>
    where
        P: RigidBodyPotential<T>,
    {
        check_step_input(re(t), re(h), y.all_finite())?;
        let s = self.lift(y);
        let s1 = self.advance_matrix(t, &s, h)?;
        Ok(self.project(&s1))
    }
}

impl<T, P> Stepper<CotangentAction<So3<T>>> for RattleRotation<P>
where
    T: RealField + Copy,
    P: RigidBodyPotential<T>,
{
    fn name(&self) -> String {
        "rattle-rotation".into()
    }

    fn order(&self) -> u32 {
        2
    }

    /// One step ([`RattleRotation::advance`]); `f` is ignored (see the type's documentation).
    fn step<F>(
        &mut self,
        _action: &CotangentAction<So3<T>>,
        _f: &F,
        t: T,
        y: &CotangentPoint<So3<T>>,
        h: T,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<CotangentPoint<So3<T>>>, SchemeError>
    where
        F: LieVectorField<
                Scalar<CotangentAction<So3<T>>>,
                CotangentPoint<So3<T>>,
                Algebra<CotangentAction<So3<T>>>,
            >,
    {
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(Stepper::<
                CotangentAction<So3<T>>,
            >::name(self)));
        }
        Ok(StepOutput {
            y: self.advance(t, y, h)?,
            error: None,
        })
    }

    fn stats(&self) -> StepStats {
        self.stats
    }

    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
