//! The two formulations of a [`SphereSystem`] as vector fields the integrators accept: the Lie
//! group field on (TS²)ⁿ and the ambient ODE on ℝ⁶ⁿ. Both own a [`Workspace`] (allocated once)
//! and call the same solve, so comparisons between them are fair.

use crate::potential::Potential;
use crate::system::{SphereSystem, Workspace};
use core::cell::RefCell;
use homogeneous::{LieVectorField, TangentSphere2};
use liegroup::Rn;
use nalgebra::{Vector3, Vector6};

/// The Lie group vector field `f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ)ᵢ ∈ se(3)ⁿ` of a [`SphereSystem`] for the
/// action of SE(3)ⁿ on (TS²)ⁿ \[CCLMO22, §5\]; se(3) coordinates rotation first. See
/// [`SphereSystem::lie_algebra_field`].
///
/// As a [`LieVectorField`] it serves both power actions of `homogeneous`:
/// `VecPowerAction<TangentSphereAction>` (points `Vec<TangentSphere2>`, algebra `Vec<Vector6>`,
/// `n` at run time) and `PowerAction<TangentSphereAction, N>` (arrays).
///
/// Holds a [`Workspace`] behind a `RefCell` (evaluation through `&self` is what
/// [`LieVectorField`] asks for), so it is `!Sync`: use one field per thread.
///
/// # Example
/// ```
/// use homogeneous::{Action, LieVectorField, TangentSphereAction, VecPowerAction};
/// use models::{LieField, NFoldPendulum, SphereModel};
/// use nalgebra::Vector6;
/// let (p, x0) = NFoldPendulum::convergence_experiment(1);
/// let f = LieField::new(p.system());
/// let action = VecPowerAction::new(TangentSphereAction::new());
/// // One Lie–Euler step y₁ = exp(h f(y₀))·y₀ stays on (TS²)² to round-off.
/// let y0 = x0.to_tangent_points();
/// let mut xi = vec![Vector6::zeros(); 2];
/// f.eval(0.0, &y0, &mut xi);
/// let xi: Vec<_> = xi.iter().map(|x| x * 0.01).collect();
/// let y1 = action.act_exp(&xi, &y0);
/// assert!(y1.iter().all(|p| (p.q().norm() - 1.0).abs() < 1e-15));
/// ```
#[derive(Debug)]
pub struct LieField<'a, P> {
    system: &'a SphereSystem<P>,
    ws: RefCell<Workspace>,
}

impl<'a, P: Potential> LieField<'a, P> {
    /// The field of `system` (allocates its workspace once).
    #[must_use]
    pub fn new(system: &'a SphereSystem<P>) -> Self {
        Self {
            system,
            ws: RefCell::new(system.workspace()),
        }
    }

    /// The system.
    #[must_use]
    pub fn system(&self) -> &'a SphereSystem<P> {
        self.system
    }

    /// `f(q, ω)` into `out` (one `Vector6` per body, rotation first).
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn eval_slices(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        out: &mut [Vector6<f64>],
    ) {
        let mut ws = self.ws.borrow_mut();
        self.system.lie_algebra_field(q, omega, &mut ws, out);
    }
}

impl<P: Potential> LieField<'_, P> {
    fn eval_points<'p>(
        &self,
        points: impl ExactSizeIterator<Item = &'p TangentSphere2<f64>>,
        out: &mut [Vector6<f64>],
    ) {
        let n = self.system.bodies();
        assert_eq!(points.len(), n, "LieField: state of the wrong length");
        assert_eq!(out.len(), n, "LieField: output of the wrong length");
        let mut ws = self.ws.borrow_mut();
        let mut q = core::mem::take(&mut ws.q);
        let mut w = core::mem::take(&mut ws.omega);
        for (i, p) in points.enumerate() {
            q[i] = *p.q();
            w[i] = *p.omega();
        }
        self.system.lie_algebra_field(&q, &w, &mut ws, out);
        ws.q = q;
        ws.omega = w;
    }
}

impl<P: Potential> LieVectorField<f64, Vec<TangentSphere2<f64>>, Vec<Vector6<f64>>>
    for LieField<'_, P>
{
    fn eval(&self, _t: f64, p: &Vec<TangentSphere2<f64>>, out: &mut Vec<Vector6<f64>>) {
        out.resize(p.len(), Vector6::zeros());
        self.eval_points(p.iter(), out);
    }
}

impl<P: Potential, const N: usize> LieVectorField<f64, [TangentSphere2<f64>; N], [Vector6<f64>; N]>
    for LieField<'_, P>
{
    fn eval(&self, _t: f64, p: &[TangentSphere2<f64>; N], out: &mut [Vector6<f64>; N]) {
        self.eval_points(p.iter(), out);
    }
}

/// The ambient ODE of a [`SphereSystem`] on ℝ⁶ⁿ: `q̇ᵢ = ωᵢ × qᵢ`, `ω̇ᵢ` from the
/// Euler–Lagrange equations (see [`SphereSystem::ambient_derivative`]), for classical
/// Runge–Kutta baselines.
///
/// As a [`LieVectorField`] on `Vec<Rn<f64, 6>>` (points `(qᵢ, ωᵢ)`, algebra `(q̇ᵢ, ω̇ᵢ)`), it runs
/// under `LeftMultiplication<Vec<Rn<f64, 6>>>`, where every Lie group scheme reduces to the
/// classical method with the same tableau. [`eval_flat`](Self::eval_flat) serves flat-vector
/// codes. Holds a [`Workspace`] behind a `RefCell`, so it is `!Sync`.
#[derive(Debug)]
pub struct AmbientField<'a, P> {
    system: &'a SphereSystem<P>,
    ws: RefCell<Workspace>,
    qdot: RefCell<Vec<Vector3<f64>>>,
    wdot: RefCell<Vec<Vector3<f64>>>,
}

impl<'a, P: Potential> AmbientField<'a, P> {
    /// The field of `system` (allocates its buffers once).
    #[must_use]
    pub fn new(system: &'a SphereSystem<P>) -> Self {
        let n = system.bodies();
        Self {
            system,
            ws: RefCell::new(system.workspace()),
            qdot: RefCell::new(vec![Vector3::zeros(); n]),
            wdot: RefCell::new(vec![Vector3::zeros(); n]),
        }
    }

    /// The system.
    #[must_use]
    pub fn system(&self) -> &'a SphereSystem<P> {
        self.system
    }

    /// `(q̇, ω̇)` at `(q, ω)`.
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn eval_slices(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        qdot: &mut [Vector3<f64>],
        omega_dot: &mut [Vector3<f64>],
    ) {
        let mut ws = self.ws.borrow_mut();
        self.system
            .ambient_derivative(q, omega, &mut ws, qdot, omega_dot);
    }

    /// `dy = F(y)` for the flat layout `y = (q₁, ω₁, q₂, ω₂, …) ∈ ℝ⁶ⁿ`.
    ///
    /// # Panics
    /// If `y` or `dy` do not have `6n` entries.
    pub fn eval_flat(&self, y: &[f64], dy: &mut [f64]) {
        let n = self.system.bodies();
        assert_eq!(y.len(), 6 * n, "AmbientField: state of the wrong length");
        assert_eq!(dy.len(), 6 * n, "AmbientField: output of the wrong length");
        let mut ws = self.ws.borrow_mut();
        let mut q = core::mem::take(&mut ws.q);
        let mut w = core::mem::take(&mut ws.omega);
        for (i, c) in y.chunks_exact(6).enumerate() {
            q[i] = Vector3::new(c[0], c[1], c[2]);
            w[i] = Vector3::new(c[3], c[4], c[5]);
        }
        let mut qd = self.qdot.borrow_mut();
        let mut wd = self.wdot.borrow_mut();
        self.system
            .ambient_derivative(&q, &w, &mut ws, &mut qd, &mut wd);
        for (i, c) in dy.chunks_exact_mut(6).enumerate() {
            c[..3].copy_from_slice(qd[i].as_slice());
            c[3..].copy_from_slice(wd[i].as_slice());
        }
        ws.q = q;
        ws.omega = w;
    }
}

impl<P: Potential> LieVectorField<f64, Vec<Rn<f64, 6>>, Vec<Vector6<f64>>> for AmbientField<'_, P> {
    fn eval(&self, _t: f64, p: &Vec<Rn<f64, 6>>, out: &mut Vec<Vector6<f64>>) {
        let n = self.system.bodies();
        assert_eq!(p.len(), n, "AmbientField: state of the wrong length");
        let mut ws = self.ws.borrow_mut();
        let mut q = core::mem::take(&mut ws.q);
        let mut w = core::mem::take(&mut ws.omega);
        for (i, pi) in p.iter().enumerate() {
            q[i] = Vector3::new(pi.0[0], pi.0[1], pi.0[2]);
            w[i] = Vector3::new(pi.0[3], pi.0[4], pi.0[5]);
        }
        let mut qd = self.qdot.borrow_mut();
        let mut wd = self.wdot.borrow_mut();
        self.system
            .ambient_derivative(&q, &w, &mut ws, &mut qd, &mut wd);
        out.resize(n, Vector6::zeros());
        for (o, (a, b)) in out.iter_mut().zip(qd.iter().zip(wd.iter())) {
            *o = Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z);
        }
        ws.q = q;
        ws.omega = w;
    }
}
