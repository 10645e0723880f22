//! The geometric controller of \[LSK13\] for a point load carried by quadrotors on rigid links,
//! written once for any scalar `T: RealField + Copy` so that its time derivatives along the flow
//! come from dual numbers.

use super::path::LoadPath;
use super::{QuadrotorLoad, ThrustModel};
use crate::error::{ModelError, positive, unit};
use nalgebra::{Matrix3, RealField, Vector3};

/// Gains of [`GeometricController`], named after the symbols of \[LSK13\] and [CCLMO22, §6.2].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// `k_y`: load position.
    pub k_y: f64,
    /// `k_ẏ`: load velocity.
    pub k_ydot: f64,
    /// `k_q`: link direction.
    pub k_q: f64,
    /// `k_ω`: link angular velocity.
    pub k_omega: f64,
    /// `k_R`: attitude (divided by `ε²`).
    pub k_r: f64,
    /// `k_Ω`: body angular velocity (divided by `ε`).
    pub k_body_rate: f64,
    /// `ε`: the time-scale parameter of the attitude loop (`0 < ε`; smaller is faster).
    pub epsilon: f64,
}

impl Gains {
    /// `k_y = 12`, `k_ẏ = 5`, `k_q = 16`, `k_ω = 5`, `k_R = 9`, `k_Ω = 3`, `ε = 0.9`
    /// [CCLMO22, §6.2] (`docs/models.md`, "Two quadrotors carrying a point load").
    #[must_use]
    pub const fn cclmo22() -> Self {
        Self {
            k_y: 12.0,
            k_ydot: 5.0,
            k_q: 16.0,
            k_omega: 5.0,
            k_r: 9.0,
            k_body_rate: 3.0,
            epsilon: 0.9,
        }
    }
}

/// The geometric controller of \[LSK13\] (point load, two quadrotors on rigid links), in the
/// form used by [CCLMO22, §6.2]; the equation numbers below are those of \[LSK13\] as cited by the
/// authors' companion code, whose equations were read (not copied) to recover the details the
/// papers' text lost.
///
/// Frame: gravity acts along **+e₃** (e₃ points down), `xᵢ = y − Lᵢqᵢ` is quadrotor `i`
/// (`qᵢ` points from the quadrotor to the load), thrust `−fᵢRᵢe₃`.
///
/// **1. Load position → desired total link force** (eqs. (15)–(16)):
/// `F_d = m_y(−k_y e_y − k_ẏ ė_y + ÿ_d − g e₃)`, `e_y = y − y_d`.
///
/// **2. Desired link directions** (eqs. (17)–(18)): a formation frame `Q = [n₁, n₂, n₃]` with
/// `n₃ = −F_d/|F_d|` and `q_id = Q r_id`. The lateral axes are fixed by a direction `s_d`:
/// here `n₂ = (s_d − n₃(n₃·s_d))/|…|` (the projection of `s_d`), `n₁ = n₂ × n₃` (see "Choices"
/// below; \[LSK13\] project `s_d` onto the first axis).
///
/// **3. Parallel components** (eqs. (19), (12)): `μᵢ = cᵢ (F_d·qᵢ) qᵢ` with
/// `cᵢ = 1/((r_id·e₃)|r₁d + r₂d|)`, and
/// `uᵢ^∥ = mᵢLᵢ|ωᵢ|² qᵢ + μᵢ + (mᵢ/m_y) qᵢqᵢᵀ(μ₁ + μ₂)`. With these the load obeys
/// `ÿ = (μ₁ + μ₂)/m_y + g e₃` (eq. (13)), which equals `F_d/m_y + g e₃` when `qᵢ = q_id` and
/// `r₁d + r₂d ∥ e₃` (true for the preset).
///
/// **4. Normal components** (eqs. (23)–(24)): `e_q = q_id × qᵢ`, `e_ω = ωᵢ + qᵢ × (qᵢ × ω_id)`,
/// `ω_id = q_id × q̇_id`, and
/// `uᵢ^⊥ = mᵢLᵢ qᵢ × (−k_q e_q − k_ω e_ω − (qᵢ·ω_id) q̇ᵢ − qᵢ × (qᵢ × ω̇_id)) − (mᵢ/m_y) qᵢ × (qᵢ × μⱼ)`
/// (`j ≠ i`), which makes `ω̇ᵢ` the projection of `−k_q e_q − k_ω e_ω − …` on `T_{qᵢ}S²`.
/// `q̇_id, q̈_id` need `Ḟ_d, F̈_d`; they are the derivatives along the closed loop with the
/// commanded forces, from `ÿ` above and `y⃛ = (μ̇₁ + μ̇₂)/m_y` (`q̇ᵢ = ωᵢ × qᵢ`), in closed form.
///
/// **5. Thrust direction and attitude command** (eqs. (27)–(28)): `uᵢ = uᵢ^∥ + uᵢ^⊥`,
/// `b₃c = −uᵢ/|uᵢ|`, `b₂c = (b₂d − b₃c(b₃c·b₂d))/|…|`, `b₁c = b₂c × b₃c`,
/// `R_c = [b₁c, b₂c, b₃c]`; thrust `fᵢ = −uᵢ·Rᵢe₃` as in \[LLM10\] (so the applied force
/// `−fᵢRᵢe₃` equals `uᵢ` when `Rᵢe₃ = b₃c`).
///
/// **6. Geometric attitude control on SO(3)** (eq. (30), \[LLM10\]):
/// `e_R = ½ (R_cᵀR − RᵀR_c)^∨`, `e_Ω = Ω − RᵀR_cΩ_c`,
/// `M = −(k_R/ε²) e_R − (k_Ω/ε) e_Ω + Ω × JΩ − J(Ω × RᵀR_cΩ_c − RᵀR_cΩ̇_c)`,
/// with `Ω̂_c = R_cᵀṘ_c` and `Ω̂̇_c = (R_cᵀR̈_c)_skew`.
///
/// # How `Ω_c` and `Ω̇_c` are computed
/// They need `u̇ᵢ` and `üᵢ`. The command `uᵢ(t, y, ẏ, q, ω)` is a function of the translational
/// state only, whose actual time derivatives depend on the attitudes through the thrust
/// directions (not on the moments). So the derivatives are taken **along the actual flow**,
/// exactly, by forward-mode AD: the translational rates are evaluated once in `f64` and once with
/// `Dual64` on the first-order Taylor curve of the state (with `Ṙ = RΩ̂`), which gives the
/// second derivatives; then `uᵢ` and `R_c(uᵢ)` are evaluated with `Dual2_64` on the
/// second-order Taylor curve. (The authors' code differentiates by hand along the ideal closed
/// loop; with the coupled thrust model the two agree only when `R = R_c`.)
///
/// # Choices made here
/// - **Lateral axes.** \[LSK13\] fix the first axis of `Q` and of `R_c` by projecting a desired
///   direction (`s_d`, `b₁d`) onto the plane normal to the third. In the maneuver of
///   [CCLMO22, §6.2] everything moves in the x–z plane and `F_d`, `b₃c` sweep that plane (the
///   thrust even points sideways and down during the initial transient), so every in-plane
///   choice is singular at some instant, and an out-of-plane one turns `Q` and `R_c` by 90°
///   about e₃ away from the paper's data (`r_id` in the x–z plane, `Rᵢ(0) = I`). Here the
///   projected direction fixes the **second** axis, with `s_d = b₂d = e₂`: `n₂ = b₂c = e₂` for
///   every in-plane force, never singular, and `Q = R_c = I` for a vertical force. This is the
///   construction of \[LSK13\] up to a constant relabelling of the lateral axes.
/// - The thrust is not clipped at zero (the initial transient of the paper's data briefly asks
///   for downward thrust).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GeometricController {
    gains: Gains,
    link_directions: [Vector3<f64>; 2],
    formation_lateral: Vector3<f64>,
    lateral_headings: [Vector3<f64>; 2],
    allocation: [f64; 2],
}

impl GeometricController {
    /// A validated controller: positive finite gains and `ε`; unit desired link directions
    /// `r_id` (in the formation frame) pointing down, `r_id·e₃ > 0`; the unit lateral direction
    /// `s_d` of the formation frame and the unit lateral headings `b₂d` of the quadrotors.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] (a gain, or `"r_d·e3"`), [`ModelError::NonFinite`],
    /// [`ModelError::NotUnit`] (`"r_d"`, `"s_d"`, `"b2_d"`).
    pub fn new(
        gains: Gains,
        link_directions: [Vector3<f64>; 2],
        formation_lateral: Vector3<f64>,
        lateral_headings: [Vector3<f64>; 2],
    ) -> Result<Self, ModelError> {
        for (name, value) in [
            ("k_y", gains.k_y),
            ("k_ydot", gains.k_ydot),
            ("k_q", gains.k_q),
            ("k_omega", gains.k_omega),
            ("k_r", gains.k_r),
            ("k_body_rate", gains.k_body_rate),
            ("epsilon", gains.epsilon),
        ] {
            positive(name, 0, value)?;
        }
        for (i, r) in link_directions.iter().enumerate() {
            unit("r_d", i, r)?;
            positive("r_d·e3", i, r.z)?;
        }
        unit("s_d", 0, &formation_lateral)?;
        for (i, b) in lateral_headings.iter().enumerate() {
            unit("b2_d", i, b)?;
        }
        let sum = (link_directions[0] + link_directions[1]).norm();
        let allocation = [
            1.0 / (link_directions[0].z * sum),
            1.0 / (link_directions[1].z * sum),
        ];
        Ok(Self {
            gains,
            link_directions,
            formation_lateral,
            lateral_headings,
            allocation,
        })
    }

    /// The controller of [CCLMO22, §6.2]: [`Gains::cclmo22`],
    /// `r₁d = (sin 30°, 0, cos 30°)`, `r₂d = (−sin 30°, 0, cos 30°)`, and the choices
    /// `s_d = b₂d = e₂` (see the type's documentation).
    ///
    /// # Panics
    /// Never (valid preset).
    #[must_use]
    pub fn cclmo22() -> Self {
        let (s, c) = 30f64.to_radians().sin_cos();
        Self::new(
            Gains::cclmo22(),
            [Vector3::new(s, 0.0, c), Vector3::new(-s, 0.0, c)],
            Vector3::y(),
            [Vector3::y(), Vector3::y()],
        )
        .expect("valid preset")
    }

    /// The gains.
    #[must_use]
    pub fn gains(&self) -> &Gains {
        &self.gains
    }
    /// The desired link directions `r_id` in the formation frame.
    #[must_use]
    pub fn link_directions(&self) -> [Vector3<f64>; 2] {
        self.link_directions
    }
    /// The lateral direction `s_d` of the formation frame (projected onto its second axis).
    #[must_use]
    pub fn formation_lateral(&self) -> Vector3<f64> {
        self.formation_lateral
    }
    /// The lateral headings `b₂d` of the quadrotors (projected onto the second body axis).
    #[must_use]
    pub fn lateral_headings(&self) -> [Vector3<f64>; 2] {
        self.lateral_headings
    }
}

/// `f64 → T`.
#[inline]
pub(crate) fn c<T: RealField + Copy>(x: f64) -> T {
    nalgebra::convert::<f64, T>(x)
}

/// The translational state `(y, ẏ, qᵢ, ωᵢ)` with any scalar.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Translational<T: RealField + Copy> {
    pub y: Vector3<T>,
    pub v: Vector3<T>,
    pub q: [Vector3<T>; 2],
    pub w: [Vector3<T>; 2],
}

/// Its rates: `(v̇, q̇ᵢ, ω̇ᵢ)` (and `ẏ = v`), with the commanded and applied forces.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TranslationalRates<T: RealField + Copy> {
    pub v_dot: Vector3<T>,
    pub q_dot: [Vector3<T>; 2],
    pub w_dot: [Vector3<T>; 2],
    pub command: Command<T>,
    pub applied: [Vector3<T>; 2],
}

/// The outputs of the translational part of the controller.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Command<T: RealField + Copy> {
    /// `uᵢ`.
    pub u: [Vector3<T>; 2],
    /// `F_d`.
    pub fd: Vector3<T>,
    /// `q_id`.
    pub qd: [Vector3<T>; 2],
}

/// A vector with its first two time derivatives.
#[derive(Clone, Copy, Debug)]
struct Jet<T: RealField + Copy> {
    v: Vector3<T>,
    d1: Vector3<T>,
    d2: Vector3<T>,
}

impl<T: RealField + Copy> Jet<T> {
    /// `v/|v|` with derivatives: `ṅ = (v̇ − n ṙ)/r`, `n̈ = (v̈ − 2ṅṙ − n r̈)/r`, `ṙ = n·v̇`,
    /// `r̈ = ṅ·v̇ + n·v̈`.
    fn normalize(&self) -> Self {
        let r = self.v.norm();
        let n = self.v / r;
        let rd = n.dot(&self.d1);
        let nd = (self.d1 - n * rd) / r;
        let rdd = nd.dot(&self.d1) + n.dot(&self.d2);
        let ndd = (self.d2 - nd * (rd + rd) - n * rdd) / r;
        Self {
            v: n,
            d1: nd,
            d2: ndd,
        }
    }

    /// `a × b` with derivatives.
    fn cross(&self, b: &Self) -> Self {
        let two = c::<T>(2.0);
        Self {
            v: self.v.cross(&b.v),
            d1: self.d1.cross(&b.v) + self.v.cross(&b.d1),
            d2: self.d2.cross(&b.v) + self.d1.cross(&b.d1) * two + self.v.cross(&b.d2),
        }
    }
}

impl<P: LoadPath> QuadrotorLoad<P> {
    /// The commanded link forces `uᵢ` (steps 1–4 of [`GeometricController`]).
    pub(crate) fn command<T: RealField + Copy>(&self, t: T, x: &Translational<T>) -> Command<T> {
        let ctl = &self.controller;
        let k = &ctl.gains;
        let e3 = Vector3::<T>::z();
        let my = c::<T>(self.load_mass);
        let g = c::<T>(self.g);
        let jet = self.path.jet(t);
        // 1. Desired force and its derivatives along the closed loop (eqs. (13), (15)–(16)).
        let ey = x.y - jet.position;
        let ev = x.v - jet.velocity;
        let fd = (-ey * c::<T>(k.k_y) - ev * c::<T>(k.k_ydot) + jet.acceleration - e3 * g) * my;
        let alloc = [c::<T>(ctl.allocation[0]), c::<T>(ctl.allocation[1])];
        let mu: [Vector3<T>; 2] = core::array::from_fn(|i| x.q[i] * (alloc[i] * fd.dot(&x.q[i])));
        let accel = (mu[0] + mu[1]) / my + e3 * g;
        let ea = accel - jet.acceleration;
        let fd_dot = (-ev * c::<T>(k.k_y) - ea * c::<T>(k.k_ydot) + jet.jerk) * my;
        let q_dot: [Vector3<T>; 2] = core::array::from_fn(|i| x.w[i].cross(&x.q[i]));
        let mu_dot: [Vector3<T>; 2] = core::array::from_fn(|i| {
            let (q, qd) = (x.q[i], q_dot[i]);
            (q * (fd_dot.dot(&q) + fd.dot(&qd)) + qd * fd.dot(&q)) * alloc[i]
        });
        let ej = (mu_dot[0] + mu_dot[1]) / my - jet.jerk;
        let fd_ddot = (-ea * c::<T>(k.k_y) - ej * c::<T>(k.k_ydot) + jet.snap) * my;
        // 2. Formation frame Q = [n₁, n₂, n₃] and desired link directions (eqs. (17)–(18)).
        let s = ctl.formation_lateral.cast::<T>();
        let two = c::<T>(2.0);
        let n3 = Jet {
            v: -fd,
            d1: -fd_dot,
            d2: -fd_ddot,
        }
        .normalize();
        // n₂ ∝ −F̂²s = s|F|² − F(F·s), differentiated by the product rule.
        let (fs, fds, fdds) = (fd.dot(&s), fd_dot.dot(&s), fd_ddot.dot(&s));
        let n2 = Jet {
            v: s * fd.norm_squared() - fd * fs,
            d1: s * (two * fd.dot(&fd_dot)) - fd_dot * fs - fd * fds,
            d2: s * (two * (fd_dot.norm_squared() + fd.dot(&fd_ddot)))
                - fd_ddot * fs
                - fd_dot * (two * fds)
                - fd * fdds,
        }
        .normalize();
        let n1 = n2.cross(&n3);
        let qd: [Jet<T>; 2] = core::array::from_fn(|i| {
            let r = ctl.link_directions[i].cast::<T>();
            Jet {
                v: n1.v * r.x + n2.v * r.y + n3.v * r.z,
                d1: n1.d1 * r.x + n2.d1 * r.y + n3.d1 * r.z,
                d2: n1.d2 * r.x + n2.d2 * r.y + n3.d2 * r.z,
            }
        });
        // 3.–4. Parallel and normal components (eqs. (12), (19), (23)–(24)).
        let mu_sum = mu[0] + mu[1];
        let u = core::array::from_fn(|i| {
            let (q, w) = (x.q[i], x.w[i]);
            let mass = c::<T>(self.masses[i]);
            let ml = mass * c::<T>(self.lengths[i]);
            let ratio = mass / my;
            let u_par = q * (ml * w.norm_squared()) + mu[i] + q * (ratio * q.dot(&mu_sum));
            let wd = qd[i].v.cross(&qd[i].d1);
            let wd_dot = qd[i].v.cross(&qd[i].d2);
            let e_q = qd[i].v.cross(&q);
            let e_w = w + q.cross(&q.cross(&wd));
            let target = -e_q * c::<T>(k.k_q)
                - e_w * c::<T>(k.k_omega)
                - q_dot[i] * q.dot(&wd)
                - q.cross(&q.cross(&wd_dot));
            let other = mu[1 - i];
            let u_perp = q.cross(&target) * ml - q.cross(&q.cross(&other)) * ratio;
            u_par + u_perp
        });
        Command {
            u,
            fd,
            qd: [qd[0].v, qd[1].v],
        }
    }

    /// The forces the rotors apply: `−fᵢRᵢe₃ = (uᵢ·bᵢ)bᵢ` with `bᵢ = Rᵢe₃`
    /// ([`ThrustModel::Attitude`]), or `uᵢ` itself ([`ThrustModel::Commanded`]).
    pub(crate) fn applied_forces<T: RealField + Copy>(
        &self,
        u: &[Vector3<T>; 2],
        b3: &[Vector3<T>; 2],
    ) -> [Vector3<T>; 2] {
        match self.thrust_model {
            ThrustModel::Attitude => core::array::from_fn(|i| b3[i] * u[i].dot(&b3[i])),
            ThrustModel::Commanded => *u,
        }
    }

    /// The translational equations of motion \[LSK13\], [CCLMO22, eqs. (37)–(38)] with the
    /// applied forces `Fᵢ`:
    /// `M_q v̇ = Σᵢ (qᵢqᵢᵀFᵢ − mᵢLᵢ|ωᵢ|² qᵢ) + M_q g e₃`, `M_q = m_y I + Σᵢ mᵢqᵢqᵢᵀ`,
    /// `ω̇ᵢ = (1/Lᵢ) qᵢ × (v̇ − g e₃) − (1/(mᵢLᵢ)) qᵢ × Fᵢ`, `q̇ᵢ = ωᵢ × qᵢ`.
    pub(crate) fn plant_translational<T: RealField + Copy>(
        &self,
        x: &Translational<T>,
        applied: &[Vector3<T>; 2],
    ) -> (Vector3<T>, [Vector3<T>; 2], [Vector3<T>; 2]) {
        let e3 = Vector3::<T>::z();
        let g = c::<T>(self.g);
        let mut mq = Matrix3::<T>::identity() * c::<T>(self.load_mass);
        let mut rhs = Vector3::<T>::zeros();
        for (i, force) in applied.iter().enumerate() {
            let (q, w) = (x.q[i], x.w[i]);
            let mass = c::<T>(self.masses[i]);
            mq += q * q.transpose() * mass;
            rhs += q * q.dot(force) - q * (mass * c::<T>(self.lengths[i]) * w.norm_squared());
        }
        let v_dot = mq
            .cholesky()
            .map_or_else(|| Vector3::repeat(c::<T>(f64::NAN)), |ch| ch.solve(&rhs))
            + e3 * g;
        let q_dot = core::array::from_fn(|i| x.w[i].cross(&x.q[i]));
        let w_dot = core::array::from_fn(|i| {
            let l = c::<T>(self.lengths[i]);
            let ml = c::<T>(self.masses[i]) * l;
            x.q[i].cross(&(v_dot - e3 * g)) / l - x.q[i].cross(&applied[i]) / ml
        });
        (v_dot, q_dot, w_dot)
    }

    /// Command, applied forces and translational rates at `(t, x)` with thrust directions `b3`.
    pub(crate) fn translational_rates<T: RealField + Copy>(
        &self,
        t: T,
        x: &Translational<T>,
        b3: &[Vector3<T>; 2],
    ) -> TranslationalRates<T> {
        let command = self.command(t, x);
        let applied = self.applied_forces(&command.u, b3);
        let (v_dot, q_dot, w_dot) = self.plant_translational(x, &applied);
        TranslationalRates {
            v_dot,
            q_dot,
            w_dot,
            command,
            applied,
        }
    }
}

/// The attitude command `R_c = [b₁c, b₂c, b₃c]` for a commanded force `u` and lateral heading
/// `b₂d` [LSK13, eqs. (27)–(28)], with the lateral axes of [`GeometricController`]:
/// `b₃c = −u/|u|`, `b₂c = (b₂d − b₃c(b₃c·b₂d))/|…|`, `b₁c = b₂c × b₃c`.
pub(crate) fn attitude_command<T: RealField + Copy>(
    u: &Vector3<T>,
    lateral: &Vector3<f64>,
) -> Matrix3<T> {
    let b3 = -u / u.norm();
    let b2d = lateral.cast::<T>();
    let b2 = b2d - b3 * b3.dot(&b2d);
    let b2 = b2 / b2.norm();
    let b1 = b2.cross(&b3);
    Matrix3::from_columns(&[b1, b2, b3])
}
