//! Two quadrotors carrying a point load on rigid links [CCLMO22, §6], \[LSK13\], with the
//! geometric controller of \[LSK13\].
//!
//! Reference keys used here and not (yet) in `docs/references.md`:
//! \[LSK13\] T. Lee, K. Sreenath, V. Kumar, Geometric control of cooperating multiple quadrotor
//! UAVs with a suspended payload, Proc. 52nd IEEE CDC (2013) 5510–5515 ·
//! \[LLM10\] T. Lee, M. Leok, N. H. McClamroch, Geometric tracking control of a quadrotor UAV on
//! SE(3), Proc. 49th IEEE CDC (2010) 5420–5425.

mod control;
mod path;

pub use control::{Gains, GeometricController};
pub use path::{HoverPath, LoadPath, ParabolicPath, PathJet};

use crate::error::{ModelError, non_negative, positive, unit};
use crate::rigid_body::{finite3, validate_inertia};
use control::{Translational, attitude_command};
use homogeneous::{
    LeftMultiplication, LieVectorField, PowerAction, TangentSphere2, TangentSphereAction,
};
use liegroup::{R3, Rn, Se3, So3, hat, vee};
use nalgebra::{Matrix3, SVector, Vector3, Vector6};
use num_dual::{Dual2_64, Dual64};
use schemes::Problem;

/// The group `ℝ⁶ × (TSO(3))² × SE(3)²` of [CCLMO22, §6.1] (direct product; TSO(3) ≅ SO(3) × ℝ³
/// as a direct product).
pub type QuadrotorGroup = (Rn<f64, 6>, [(So3<f64>, R3<f64>); 2], [Se3<f64>; 2]);
/// A point of `TR³ × (TSO(3))² × (TS²)²`: `((y, ẏ), [(Rᵢ, Ωᵢ)], [(qᵢ, ωᵢ)])`.
pub type QuadrotorPoint = (
    Rn<f64, 6>,
    [(So3<f64>, R3<f64>); 2],
    [TangentSphere2<f64>; 2],
);
/// The algebra of [`QuadrotorGroup`]: `(ℝ⁶, [(so(3), ℝ³)]², [se(3)]²)`.
pub type QuadrotorAlgebra = (
    SVector<f64, 6>,
    [(Vector3<f64>, Vector3<f64>); 2],
    [Vector6<f64>; 2],
);
/// The action of [CCLMO22, §6.1] built from the shipped actions:
/// `((a₁, a₂), (Bᵢ, bᵢ), (Cᵢ, cᵢ))·((y, v), (Rᵢ, Ωᵢ), (qᵢ, ωᵢ)) =
/// ((y + a₁, v + a₂), (BᵢRᵢ, Ωᵢ + bᵢ), (Cᵢqᵢ, Cᵢωᵢ + cᵢ × Cᵢqᵢ))`, with generator
/// `((ξ₁, ξ₂), (ηᵢ, ζᵢ), (uᵢ, vᵢ)) ↦ ((ξ₁, ξ₂), (η̂ᵢRᵢ, ζᵢ), (uᵢ × qᵢ, uᵢ × ωᵢ + vᵢ × qᵢ))`.
pub type QuadrotorAction = (
    LeftMultiplication<Rn<f64, 6>>,
    PowerAction<LeftMultiplication<(So3<f64>, R3<f64>)>, 2>,
    PowerAction<TangentSphereAction<f64>, 2>,
);
/// ℝ⁴² acting on itself by translation (the ambient ODE).
pub type QuadrotorAmbientAction = LeftMultiplication<Rn<f64, 42>>;

/// How the rotor thrust enters the translational dynamics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThrustModel {
    /// The full model \[LSK13\]: quadrotor `i` produces the force `−fᵢRᵢe₃` with `fᵢ = −uᵢ·Rᵢe₃`,
    /// so the attitude loop feeds back into the load dynamics.
    #[default]
    Attitude,
    /// The simplified model of the experiments of [CCLMO22, §6.2]: the commanded force `uᵢ` is
    /// applied directly; the attitudes (still driven by the geometric attitude controller) do not
    /// influence the load.
    Commanded,
}

/// The state of the system: load `(y, v = ẏ)`, attitudes and body angular velocities
/// `(Rᵢ, Ωᵢ)` of the quadrotors (`Ṙᵢ = RᵢΩ̂ᵢ`), link directions and their angular velocities
/// `(qᵢ, ωᵢ)` (`q̇ᵢ = ωᵢ × qᵢ`, `qᵢ·ωᵢ = 0`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadrotorState {
    /// Load position `y`.
    pub y: Vector3<f64>,
    /// Load velocity `v = ẏ`.
    pub v: Vector3<f64>,
    /// Attitudes `Rᵢ = world_from_body`.
    pub attitude: [So3<f64>; 2],
    /// Body angular velocities `Ωᵢ`.
    pub body_rate: [Vector3<f64>; 2],
    /// Link directions `qᵢ ∈ S²` (from quadrotor `i` to the load).
    pub q: [Vector3<f64>; 2],
    /// Link angular velocities `ωᵢ ⊥ qᵢ`.
    pub omega: [Vector3<f64>; 2],
}

impl QuadrotorState {
    /// A validated state: finite entries, `||qᵢ| − 1| ≤` [`UNIT_TOLERANCE`](crate::UNIT_TOLERANCE),
    /// `|qᵢ·ωᵢ| ≤ UNIT_TOLERANCE·max(1, |ωᵢ|)`.
    ///
    /// # Errors
    /// [`ModelError::NonFinite`], [`ModelError::NotUnit`], [`ModelError::NotTangent`].
    pub fn try_new(
        y: Vector3<f64>,
        v: Vector3<f64>,
        attitude: [So3<f64>; 2],
        body_rate: [Vector3<f64>; 2],
        q: [Vector3<f64>; 2],
        omega: [Vector3<f64>; 2],
    ) -> Result<Self, ModelError> {
        finite3("y", &y)?;
        finite3("v", &v)?;
        for i in 0..2 {
            finite3("body rate", &body_rate[i])?;
            finite3("omega", &omega[i])?;
            unit("q", i, &q[i])?;
            let dot = q[i].dot(&omega[i]);
            if dot.abs() > crate::UNIT_TOLERANCE * omega[i].norm().max(1.0) {
                return Err(ModelError::NotTangent { index: i, dot });
            }
        }
        Ok(Self {
            y,
            v,
            attitude,
            body_rate,
            q,
            omega,
        })
    }

    /// The point of [`QuadrotorAction`].
    #[must_use]
    pub fn to_point(&self) -> QuadrotorPoint {
        let mut yv = SVector::<f64, 6>::zeros();
        yv.fixed_rows_mut::<3>(0).copy_from(&self.y);
        yv.fixed_rows_mut::<3>(3).copy_from(&self.v);
        (
            Rn::new(yv),
            core::array::from_fn(|i| (self.attitude[i], Rn::new(self.body_rate[i]))),
            core::array::from_fn(|i| TangentSphere2::new_unchecked(self.q[i], self.omega[i])),
        )
    }

    /// From a point of [`QuadrotorAction`].
    #[must_use]
    pub fn from_point(p: &QuadrotorPoint) -> Self {
        Self {
            y: p.0.0.fixed_rows::<3>(0).into_owned(),
            v: p.0.0.fixed_rows::<3>(3).into_owned(),
            attitude: [p.1[0].0, p.1[1].0],
            body_rate: [p.1[0].1.0, p.1[1].1.0],
            q: [*p.2[0].q(), *p.2[1].q()],
            omega: [*p.2[0].omega(), *p.2[1].omega()],
        }
    }

    /// The ambient point `(y, v, R₁, Ω₁, R₂, Ω₂, q₁, ω₁, q₂, ω₂) ∈ ℝ⁴²` (matrices column-major;
    /// the layout of the authors' companion code).
    #[must_use]
    pub fn to_ambient(&self) -> Rn<f64, 42> {
        let mut x = SVector::<f64, 42>::zeros();
        let s = x.as_mut_slice();
        s[0..3].copy_from_slice(self.y.as_slice());
        s[3..6].copy_from_slice(self.v.as_slice());
        for i in 0..2 {
            let o = 6 + 12 * i;
            s[o..o + 9].copy_from_slice(self.attitude[i].matrix().as_slice());
            s[o + 9..o + 12].copy_from_slice(self.body_rate[i].as_slice());
            let o = 30 + 6 * i;
            s[o..o + 3].copy_from_slice(self.q[i].as_slice());
            s[o + 3..o + 6].copy_from_slice(self.omega[i].as_slice());
        }
        Rn::new(x)
    }

    /// From an ambient point (matrices and unit vectors taken as they are).
    #[must_use]
    pub fn from_ambient(p: &Rn<f64, 42>) -> Self {
        let s = p.0.as_slice();
        let v3 = |o: usize| Vector3::new(s[o], s[o + 1], s[o + 2]);
        Self {
            y: v3(0),
            v: v3(3),
            attitude: core::array::from_fn(|i| {
                So3::from_matrix_unchecked(Matrix3::from_column_slice(&s[6 + 12 * i..15 + 12 * i]))
            }),
            body_rate: core::array::from_fn(|i| v3(15 + 12 * i)),
            q: core::array::from_fn(|i| v3(30 + 6 * i)),
            omega: core::array::from_fn(|i| v3(33 + 6 * i)),
        }
    }

    /// The positions `xᵢ = y − Lᵢqᵢ` of the quadrotors.
    #[must_use]
    pub fn quadrotor_positions(&self, lengths: [f64; 2]) -> [Vector3<f64>; 2] {
        core::array::from_fn(|i| self.y - self.q[i] * lengths[i])
    }

    fn translational(&self) -> Translational<f64> {
        Translational {
            y: self.y,
            v: self.v,
            q: self.q,
            w: self.omega,
        }
    }
}

/// Time derivatives of a [`QuadrotorState`] (besides `ẏ = v`, `Ṙᵢ = RᵢΩ̂ᵢ`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QuadrotorRates {
    /// `v̇ = ÿ`.
    pub acceleration: Vector3<f64>,
    /// `Ω̇ᵢ`.
    pub body_rate_dot: [Vector3<f64>; 2],
    /// `q̇ᵢ = ωᵢ × qᵢ`.
    pub q_dot: [Vector3<f64>; 2],
    /// `ω̇ᵢ`.
    pub omega_dot: [Vector3<f64>; 2],
}

/// The controller's outputs at one state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ControlOutput {
    /// The desired total link force on the load `F_d`.
    pub load_force: Vector3<f64>,
    /// The desired link directions `q_id`.
    pub link_command: [Vector3<f64>; 2],
    /// The commanded forces `uᵢ = uᵢ^∥ + uᵢ^⊥`.
    pub force_command: [Vector3<f64>; 2],
    /// The forces applied by the rotors (`−fᵢRᵢe₃`, or `uᵢ` for [`ThrustModel::Commanded`]).
    pub applied_force: [Vector3<f64>; 2],
    /// The thrust magnitudes `fᵢ = −uᵢ·Rᵢe₃`.
    pub thrust: [f64; 2],
    /// The moments `Mᵢ` of the geometric attitude controller.
    pub moment: [Vector3<f64>; 2],
    /// The attitude commands `R_ci`.
    pub attitude_command: [Matrix3<f64>; 2],
    /// `Ω_ci` (`Ω̂_c = R_cᵀṘ_c`).
    pub rate_command: [Vector3<f64>; 2],
    /// `Ω̇_ci`.
    pub rate_command_dot: [Vector3<f64>; 2],
}

/// Two quadrotors carrying a point load on massless rigid links [CCLMO22, §6], \[LSK13\], closed
/// by the geometric controller of \[LSK13\] ([`GeometricController`]).
///
/// # Model
/// Frame and sign conventions follow the equations of \[LSK13\] and of the authors' companion
/// code for \[CCLMO22\]: gravity acts along **+e₃** (the third axis points down), the quadrotors
/// are at `xᵢ = y − Lᵢqᵢ` (`qᵢ` points from quadrotor `i` to the load), and rotor thrust acts
/// along `−Rᵢe₃`. (The prose of [CCLMO22, §6] reads "third axis … opposite orientation" to
/// gravity; with that reading the given `qᵢ(0)` would put the quadrotors below the load. The
/// equations below, (37) of the paper, are those of the downward axis.) With `Fᵢ` the force of
/// the rotors of quadrotor `i` and `Mᵢ` its moment:
///
/// ```text
///   ẏ = v,   M_q v̇ = Σᵢ (qᵢqᵢᵀFᵢ − mᵢLᵢ|ωᵢ|² qᵢ) + M_q g e₃,   M_q = m_y I + Σᵢ mᵢ qᵢqᵢᵀ,
///   q̇ᵢ = ωᵢ × qᵢ,   ω̇ᵢ = (1/Lᵢ) qᵢ × (v̇ − g e₃) − (1/(mᵢLᵢ)) qᵢ × Fᵢ,
///   Ṙᵢ = RᵢΩ̂ᵢ,   JᵢΩ̇ᵢ = Mᵢ − Ωᵢ × JᵢΩᵢ
/// ```
///
/// \[LSK13\], [CCLMO22, eqs. (36)–(38)] (the link equation is eq. (6) of \[LSK13\] as cited
/// by the authors' code). `Fᵢ = −fᵢRᵢe₃` ([`ThrustModel::Attitude`],
/// default) or `Fᵢ = uᵢ` ([`ThrustModel::Commanded`]). The energy
/// `E = ½m_y|v|² + ½Σᵢ mᵢ|v − Lᵢq̇ᵢ|² + ½Σᵢ Ωᵢ·JᵢΩᵢ − m_y g e₃·y − Σᵢ mᵢ g e₃·(y − Lᵢqᵢ)`
/// ([`energy`](Self::energy)) changes at the rate of the input power
/// `Σᵢ Fᵢ·ẋᵢ + Σᵢ Mᵢ·Ωᵢ` ([`power`](Self::power)); the tests check this identity, which
/// validates the equations.
///
/// # Formulations
/// - [`lie`](Self::lie): the Lie group field of [CCLMO22, §6.1] for [`QuadrotorAction`]
///   (`ℝ⁶ × (TSO(3))² × SE(3)²` on `TR³ × (TSO(3))² × (TS²)²`):
///   `f = ((v, v̇), (RᵢΩᵢ, Ω̇ᵢ), (ωᵢ, qᵢ × ω̇ᵢ))`. The second entry is the spatial angular
///   velocity because left multiplication is right trivialized (`Ṙᵢ = (RᵢΩᵢ)^Rᵢ`); the third
///   gives `q̇ᵢ = ωᵢ × qᵢ` and `ω̇ᵢ` through the generator of [`TangentSphereAction`].
/// - [`ambient`](Self::ambient): the same equations on ℝ⁴² for classical baselines.
///
/// Both are non-autonomous (through `y_d(t)`) and call the same closed-loop evaluation
/// ([`closed_loop`](Self::closed_loop)).
///
/// # Example
/// ```
/// use models::QuadrotorLoad;
/// use schemes::{integrate, Options};
/// let model = QuadrotorLoad::cclmo22();
/// let x0 = QuadrotorLoad::cclmo22_state();
/// let mut rkmk4 = schemes::methods::find("rkmk4")?.stepper();
/// let sol = integrate(&model.lie(), &mut rkmk4, 0.0, x0.to_point(), 0.5, &Options::fixed(1e-3))
///     .map_err(|e| e.error)?;
/// let x = models::QuadrotorState::from_point(sol.last().1);
/// assert!(x.q.iter().all(|q| (q.norm() - 1.0).abs() < 1e-13));
/// # Ok::<(), schemes::SchemeError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct QuadrotorLoad<P: LoadPath = ParabolicPath> {
    load_mass: f64,
    masses: [f64; 2],
    lengths: [f64; 2],
    inertia: [Matrix3<f64>; 2],
    inertia_inv: [Matrix3<f64>; 2],
    g: f64,
    controller: GeometricController,
    path: P,
    thrust_model: ThrustModel,
}

impl<P: LoadPath> QuadrotorLoad<P> {
    /// A validated system: load mass `m_y > 0`, quadrotor masses `mᵢ > 0`, link lengths
    /// `Lᵢ > 0`, inertias `Jᵢ` symmetric positive definite, `g ≥ 0` (along `+e₃`), a controller
    /// and a desired load path.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (`"load mass"`, `"mass"`, `"length"`),
    /// [`ModelError::Negative`] (`"g"`), [`ModelError::NonFinite`],
    /// [`ModelError::InertiaNotSymmetric`], [`ModelError::InertiaNotPositiveDefinite`].
    pub fn new(
        load_mass: f64,
        masses: [f64; 2],
        lengths: [f64; 2],
        inertia: [Matrix3<f64>; 2],
        g: f64,
        controller: GeometricController,
        path: P,
    ) -> Result<Self, ModelError> {
        let load_mass = positive("load mass", 0, load_mass)?;
        for i in 0..2 {
            positive("mass", i, masses[i])?;
            positive("length", i, lengths[i])?;
        }
        let inertia = [
            validate_inertia("quadrotor inertia", &inertia[0])?,
            validate_inertia("quadrotor inertia", &inertia[1])?,
        ];
        let inertia_inv = inertia.map(|j| {
            j.try_inverse()
                .expect("a positive definite matrix is invertible")
        });
        let g = non_negative("g", g)?;
        Ok(Self {
            load_mass,
            masses,
            lengths,
            inertia,
            inertia_inv,
            g,
            controller,
            path,
            thrust_model: ThrustModel::Attitude,
        })
    }

    /// The same system with another thrust model.
    #[must_use]
    pub fn with_thrust_model(mut self, model: ThrustModel) -> Self {
        self.thrust_model = model;
        self
    }

    /// The load mass `m_y`.
    #[must_use]
    pub fn load_mass(&self) -> f64 {
        self.load_mass
    }
    /// The quadrotor masses `mᵢ`.
    #[must_use]
    pub fn masses(&self) -> [f64; 2] {
        self.masses
    }
    /// The link lengths `Lᵢ`.
    #[must_use]
    pub fn lengths(&self) -> [f64; 2] {
        self.lengths
    }
    /// The quadrotor inertias `Jᵢ`.
    #[must_use]
    pub fn inertia(&self) -> [Matrix3<f64>; 2] {
        self.inertia
    }
    /// `g` (along `+e₃`).
    #[must_use]
    pub fn g(&self) -> f64 {
        self.g
    }
    /// The controller.
    #[must_use]
    pub fn controller(&self) -> &GeometricController {
        &self.controller
    }
    /// The desired load path.
    #[must_use]
    pub fn path(&self) -> &P {
        &self.path
    }
    /// The thrust model.
    #[must_use]
    pub fn thrust_model(&self) -> ThrustModel {
        self.thrust_model
    }

    /// The tracking error `|y − y_d(t)|`.
    #[must_use]
    pub fn tracking_error(&self, t: f64, x: &QuadrotorState) -> f64 {
        (x.y - self.path.jet(t).position).norm()
    }

    /// The total energy `E` (see the type's documentation).
    #[must_use]
    pub fn energy(&self, x: &QuadrotorState) -> f64 {
        let e3 = Vector3::z();
        let mut e =
            0.5 * self.load_mass * x.v.norm_squared() - self.load_mass * self.g * e3.dot(&x.y);
        for i in 0..2 {
            let xdot = x.v - x.omega[i].cross(&x.q[i]) * self.lengths[i];
            e += 0.5 * self.masses[i] * xdot.norm_squared()
                + 0.5 * x.body_rate[i].dot(&(self.inertia[i] * x.body_rate[i]))
                - self.masses[i] * self.g * e3.dot(&(x.y - x.q[i] * self.lengths[i]));
        }
        e
    }

    /// The input power `Σᵢ Fᵢ·ẋᵢ + Σᵢ Mᵢ·Ωᵢ` of forces `Fᵢ` applied at the quadrotors and moments
    /// `Mᵢ`, `ẋᵢ = v − Lᵢ ωᵢ × qᵢ`.
    #[must_use]
    pub fn power(
        &self,
        x: &QuadrotorState,
        forces: &[Vector3<f64>; 2],
        moments: &[Vector3<f64>; 2],
    ) -> f64 {
        (0..2)
            .map(|i| {
                let xdot = x.v - x.omega[i].cross(&x.q[i]) * self.lengths[i];
                forces[i].dot(&xdot) + moments[i].dot(&x.body_rate[i])
            })
            .sum()
    }

    /// The open-loop equations of motion with given forces `Fᵢ` (at the quadrotors) and moments
    /// `Mᵢ`.
    #[must_use]
    pub fn open_loop_rates(
        &self,
        x: &QuadrotorState,
        forces: &[Vector3<f64>; 2],
        moments: &[Vector3<f64>; 2],
    ) -> QuadrotorRates {
        let (acceleration, q_dot, omega_dot) = self.plant_translational(&x.translational(), forces);
        let body_rate_dot = core::array::from_fn(|i| {
            let w = x.body_rate[i];
            self.inertia_inv[i] * (moments[i] - w.cross(&(self.inertia[i] * w)))
        });
        QuadrotorRates {
            acceleration,
            body_rate_dot,
            q_dot,
            omega_dot,
        }
    }

    /// The attitude commands `R_ci` at `(t, x)` (no derivatives).
    #[must_use]
    pub fn attitude_command(&self, t: f64, x: &QuadrotorState) -> [Matrix3<f64>; 2] {
        let cmd = self.command(t, &x.translational());
        core::array::from_fn(|i| {
            attitude_command(&cmd.u[i], &self.controller.lateral_headings()[i])
        })
    }

    /// The closed loop at `(t, x)`: the controller's outputs and the rates.
    ///
    /// `Ω_c` and `Ω̇_c` are the exact derivatives of `R_c(t) = R_c(u(t, y(t), …))` along the
    /// actual flow, by forward-mode AD (see [`GeometricController`]): one `Dual64` evaluation of
    /// the translational rates on the curve `(t + s, y + s v, v + s v̇, qᵢ + s q̇ᵢ, ωᵢ + s ω̇ᵢ,
    /// Rᵢe₃ + s RᵢΩ̂ᵢe₃)` gives the second derivatives, and one `Dual2_64` evaluation of the
    /// command on the second-order curve gives `u, u̇, ü` and `R_c, Ṙ_c, R̈_c`.
    #[must_use]
    pub fn closed_loop(&self, t: f64, x: &QuadrotorState) -> (QuadrotorRates, ControlOutput) {
        let e3 = Vector3::z();
        let w0 = x.translational();
        let b3: [Vector3<f64>; 2] = core::array::from_fn(|i| x.attitude[i].rotate(&e3));
        let r0 = self.translational_rates(t, &w0, &b3);
        // First-order curve → second derivatives of the translational state.
        let d1 =
            |a: &Vector3<f64>, b: &Vector3<f64>| Vector3::from_fn(|k, _| Dual64::new(a[k], b[k]));
        let w1 = Translational {
            y: d1(&x.y, &x.v),
            v: d1(&x.v, &r0.v_dot),
            q: core::array::from_fn(|i| d1(&x.q[i], &r0.q_dot[i])),
            w: core::array::from_fn(|i| d1(&x.omega[i], &r0.w_dot[i])),
        };
        let b3_1: [Vector3<Dual64>; 2] =
            core::array::from_fn(|i| d1(&b3[i], &x.attitude[i].rotate(&x.body_rate[i].cross(&e3))));
        let r1 = self.translational_rates(Dual64::new(t, 1.0), &w1, &b3_1);
        let eps = |v: &Vector3<Dual64>| v.map(|z| z.eps);
        let v_ddot = eps(&r1.v_dot);
        let q_ddot: [Vector3<f64>; 2] = core::array::from_fn(|i| eps(&r1.q_dot[i]));
        let w_ddot: [Vector3<f64>; 2] = core::array::from_fn(|i| eps(&r1.w_dot[i]));
        // Second-order curve → u, u̇, ü and R_c, Ṙ_c, R̈_c.
        let d2 = |a: &Vector3<f64>, b: &Vector3<f64>, c: &Vector3<f64>| {
            Vector3::from_fn(|k, _| Dual2_64::new(a[k], b[k], c[k]))
        };
        let w2 = Translational {
            y: d2(&x.y, &x.v, &r0.v_dot),
            v: d2(&x.v, &r0.v_dot, &v_ddot),
            q: core::array::from_fn(|i| d2(&x.q[i], &r0.q_dot[i], &q_ddot[i])),
            w: core::array::from_fn(|i| d2(&x.omega[i], &r0.w_dot[i], &w_ddot[i])),
        };
        let cmd2 = self.command(Dual2_64::new(t, 1.0, 0.0), &w2);
        let mut moment = [Vector3::zeros(); 2];
        let mut body_rate_dot = [Vector3::zeros(); 2];
        let mut attitude_cmd = [Matrix3::zeros(); 2];
        let mut rate_cmd = [Vector3::zeros(); 2];
        let mut rate_cmd_dot = [Vector3::zeros(); 2];
        let mut thrust = [0.0; 2];
        let k = self.controller.gains();
        for i in 0..2 {
            let rc2 = attitude_command(&cmd2.u[i], &self.controller.lateral_headings()[i]);
            let rc = rc2.map(|z| z.re);
            let rc_dot = rc2.map(|z| z.v1);
            let rc_ddot = rc2.map(|z| z.v2);
            let omega_c = vee(&skew(&(rc.transpose() * rc_dot)));
            let omega_c_dot = vee(&skew(&(rc.transpose() * rc_ddot)));
            let r = x.attitude[i].matrix();
            let w = x.body_rate[i];
            let j = self.inertia[i];
            let rel = r.transpose() * rc;
            let e_r = vee(&(rel.transpose() - rel)) * 0.5;
            let e_w = w - rel * omega_c;
            let m = -e_r * (k.k_r / (k.epsilon * k.epsilon)) - e_w * (k.k_body_rate / k.epsilon)
                + w.cross(&(j * w))
                - j * (w.cross(&(rel * omega_c)) - rel * omega_c_dot);
            body_rate_dot[i] = self.inertia_inv[i] * (m - w.cross(&(j * w)));
            moment[i] = m;
            attitude_cmd[i] = rc;
            rate_cmd[i] = omega_c;
            rate_cmd_dot[i] = omega_c_dot;
            thrust[i] = -r0.command.u[i].dot(&b3[i]);
        }
        (
            QuadrotorRates {
                acceleration: r0.v_dot,
                body_rate_dot,
                q_dot: r0.q_dot,
                omega_dot: r0.w_dot,
            },
            ControlOutput {
                load_force: r0.command.fd,
                link_command: r0.command.qd,
                force_command: r0.command.u,
                applied_force: r0.applied,
                thrust,
                moment,
                attitude_command: attitude_cmd,
                rate_command: rate_cmd,
                rate_command_dot: rate_cmd_dot,
            },
        )
    }

    /// The Lie group formulation of [CCLMO22, §6.1] ([`QuadrotorAction`]).
    #[must_use]
    pub fn lie(&self) -> Problem<QuadrotorAction, Self> {
        Problem::new(
            (
                LeftMultiplication::new(),
                PowerAction::new(LeftMultiplication::new()),
                PowerAction::new(TangentSphereAction::new()),
            ),
            self.clone(),
        )
    }

    /// The ambient ODE on ℝ⁴² ([`QuadrotorState::to_ambient`] layout).
    #[must_use]
    pub fn ambient(&self) -> Problem<QuadrotorAmbientAction, Self> {
        Problem::new(QuadrotorAmbientAction::new(), self.clone())
    }
}

impl QuadrotorLoad<ParabolicPath> {
    /// The system of [CCLMO22, §6.2] (`docs/models.md`, "Two quadrotors"):
    /// `Jᵢ = diag(0.0820, 0.0845, 0.1377)`,
    /// `mᵢ = 0.755`, `m_y = 0.4`, `L₁ = 0.6`, `L₂ = 0.8`, `g = 9.81`,
    /// [`GeometricController::cclmo22`] and the parabola [`ParabolicPath::cclmo22`]; thrust
    /// model [`ThrustModel::Attitude`].
    ///
    /// # Panics
    /// Never (valid preset).
    #[must_use]
    pub fn cclmo22() -> Self {
        let j = Matrix3::from_diagonal(&Vector3::new(0.0820, 0.0845, 0.1377));
        Self::new(
            0.4,
            [0.755, 0.755],
            [0.6, 0.8],
            [j, j],
            crate::GRAVITY,
            GeometricController::cclmo22(),
            ParabolicPath::cclmo22(),
        )
        .expect("valid preset")
    }

    /// The initial state of [CCLMO22, §6.2]: `y₀ = (−2, 0, 0)`, `v₀ = 0`, `Rᵢ = I`, `Ωᵢ = 0`,
    /// `q₁ = (sin 80°, 0, cos 80°)`, `q₂ = (−sin 80°, 0, cos 80°)`, `ωᵢ = 0` (the paper runs to
    /// `T = 5`).
    #[must_use]
    pub fn cclmo22_state() -> QuadrotorState {
        let (s, c) = 80f64.to_radians().sin_cos();
        QuadrotorState {
            y: Vector3::new(-2.0, 0.0, 0.0),
            v: Vector3::zeros(),
            attitude: [So3::identity(); 2],
            body_rate: [Vector3::zeros(); 2],
            q: [Vector3::new(s, 0.0, c), Vector3::new(-s, 0.0, c)],
            omega: [Vector3::zeros(); 2],
        }
    }
}

/// The skew-symmetric part `(A − Aᵀ)/2`.
fn skew(a: &Matrix3<f64>) -> Matrix3<f64> {
    (a - a.transpose()) * 0.5
}

/// `f = ((v, v̇), (RᵢΩᵢ, Ω̇ᵢ), (ωᵢ, qᵢ × ω̇ᵢ))` for [`QuadrotorAction`].
impl<P: LoadPath> LieVectorField<f64, QuadrotorPoint, QuadrotorAlgebra> for QuadrotorLoad<P> {
    fn eval(&self, t: f64, p: &QuadrotorPoint, out: &mut QuadrotorAlgebra) {
        let x = QuadrotorState::from_point(p);
        let (rates, _) = self.closed_loop(t, &x);
        let mut yv = SVector::<f64, 6>::zeros();
        yv.fixed_rows_mut::<3>(0).copy_from(&x.v);
        yv.fixed_rows_mut::<3>(3).copy_from(&rates.acceleration);
        *out = (
            yv,
            core::array::from_fn(|i| {
                (
                    x.attitude[i].rotate(&x.body_rate[i]),
                    rates.body_rate_dot[i],
                )
            }),
            core::array::from_fn(|i| {
                let v = x.q[i].cross(&rates.omega_dot[i]);
                let w = x.omega[i];
                Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z)
            }),
        );
    }
}

/// The ambient rates for [`QuadrotorAmbientAction`].
impl<P: LoadPath> LieVectorField<f64, Rn<f64, 42>, SVector<f64, 42>> for QuadrotorLoad<P> {
    fn eval(&self, t: f64, p: &Rn<f64, 42>, out: &mut SVector<f64, 42>) {
        let x = QuadrotorState::from_ambient(p);
        let (rates, _) = self.closed_loop(t, &x);
        let s = out.as_mut_slice();
        s[0..3].copy_from_slice(x.v.as_slice());
        s[3..6].copy_from_slice(rates.acceleration.as_slice());
        for i in 0..2 {
            let o = 6 + 12 * i;
            let r_dot = x.attitude[i].matrix() * hat(&x.body_rate[i]);
            s[o..o + 9].copy_from_slice(r_dot.as_slice());
            s[o + 9..o + 12].copy_from_slice(rates.body_rate_dot[i].as_slice());
            let o = 30 + 6 * i;
            s[o..o + 3].copy_from_slice(rates.q_dot[i].as_slice());
            s[o + 3..o + 6].copy_from_slice(rates.omega_dot[i].as_slice());
        }
    }
}
