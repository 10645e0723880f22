//! [`DiagonalSystem`] and [`DiagonalLieField`]: systems on (S²)ⁿ with a diagonal inertia, whose
//! evaluation is one potential gradient plus `O(n)`.

use super::*;
/// A Lagrangian system on (S²)ⁿ with a **diagonal** inertia `M = diag(mᵢ)` stored as `n`
/// masses (a [`SphereSystem`](crate::SphereSystem) stores `M` as a dense `n × n` matrix, which
/// is out of reach for `n = 10⁵`). The equations of motion are the decoupled case of
/// [`SphereSystem`](crate::SphereSystem)'s solve [LLM09, eqs. (2.9)–(2.11)]:
///
/// ```text
///   q̇ᵢ = ωᵢ × qᵢ,   ω̇ᵢ = −qᵢ × ∂V/∂qᵢ / mᵢ,
/// ```
///
/// so one evaluation is one potential gradient plus `O(n)` (with a [`NeighbourPotential`],
/// `O(n)` in all).
#[derive(Clone, Debug)]
pub struct DiagonalSystem<P> {
    masses: Vec<f64>,
    potential: P,
}

impl<P: Potential> DiagonalSystem<P> {
    /// Masses `mᵢ > 0`, one per body of the potential.
    ///
    /// # Errors
    /// [`ModelError::NoBodies`], [`ModelError::DimensionMismatch`], [`ModelError::NonPositive`],
    /// [`ModelError::NonFinite`].
    pub fn new(masses: Vec<f64>, potential: P) -> Result<Self, ModelError> {
        if masses.is_empty() {
            return Err(ModelError::NoBodies);
        }
        crate::error::same_len("masses", potential.bodies(), masses.len())?;
        crate::error::all_positive("mass", &masses)?;
        Ok(Self { masses, potential })
    }

    /// The number of bodies.
    #[must_use]
    pub fn bodies(&self) -> usize {
        self.masses.len()
    }

    /// The masses `mᵢ`.
    #[must_use]
    pub fn masses(&self) -> &[f64] {
        &self.masses
    }

    /// The potential.
    #[must_use]
    pub fn potential(&self) -> &P {
        &self.potential
    }

    /// `ω̇ᵢ = −qᵢ × ∂V/∂qᵢ / mᵢ` into `out`, using `grad` as the gradient buffer; returns `V(q)`.
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn angular_accelerations(
        &self,
        q: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
        out: &mut [Vector3<f64>],
    ) -> f64 {
        let n = self.bodies();
        assert!(
            q.len() == n && grad.len() == n && out.len() == n,
            "DiagonalSystem: slices must have one entry per body"
        );
        let v = self.potential.gradient(q, grad);
        let (grad, masses) = (&*grad, &self.masses);
        for_each_indexed(out, |i, o| *o = -q[i].cross(&grad[i]) / masses[i]);
        v
    }

    /// The total energy `Σ ½ mᵢ |ωᵢ × qᵢ|² + V(q)` (`V` through the gradient, which is the
    /// `O(n)` path of a [`NeighbourPotential`]; `grad` is scratch).
    ///
    /// # Panics
    /// If a slice does not have one entry per body.
    pub fn energy(
        &self,
        q: &[Vector3<f64>],
        omega: &[Vector3<f64>],
        grad: &mut [Vector3<f64>],
    ) -> f64 {
        let t: f64 = q
            .iter()
            .zip(omega)
            .zip(&self.masses)
            .map(|((qi, wi), mi)| 0.5 * mi * wi.cross(qi).norm_squared())
            .sum();
        t + self.potential.gradient(q, grad)
    }
}

/// The Lie group vector field `f(q, ω) = (ωᵢ, qᵢ × ω̇ᵢ)ᵢ ∈ se(3)ⁿ` of a [`DiagonalSystem`] for
/// SE(3)ⁿ acting on (TS²)ⁿ (as [`LieField`](crate::LieField) for a
/// [`SphereSystem`](crate::SphereSystem)), for `VecPowerAction<TangentSphereAction>`. Owns its
/// buffers (allocated once); `!Sync` (one field per thread). With the `rayon` feature the
/// `O(n)` loops around the gradient (copying the positions, assembling `f`) run in parallel
/// too, in chunks of a few thousand bodies.
#[derive(Debug)]
pub struct DiagonalLieField<'a, P> {
    system: &'a DiagonalSystem<P>,
    /// Positions and gradient.
    buffers: core::cell::RefCell<[Vec<Vector3<f64>>; 2]>,
}

impl<'a, P: Potential> DiagonalLieField<'a, P> {
    /// The field of `system`.
    #[must_use]
    pub fn new(system: &'a DiagonalSystem<P>) -> Self {
        let z = vec![Vector3::zeros(); system.bodies()];
        Self {
            system,
            buffers: core::cell::RefCell::new([z.clone(), z]),
        }
    }
}

impl<P: Potential>
    homogeneous::LieVectorField<
        f64,
        Vec<homogeneous::TangentSphere2<f64>>,
        Vec<nalgebra::Vector6<f64>>,
    > for DiagonalLieField<'_, P>
{
    fn eval(
        &self,
        _t: f64,
        p: &Vec<homogeneous::TangentSphere2<f64>>,
        out: &mut Vec<nalgebra::Vector6<f64>>,
    ) {
        let n = self.system.bodies();
        assert_eq!(p.len(), n, "DiagonalLieField: state of the wrong length");
        let mut b = self.buffers.borrow_mut();
        let [q, grad] = &mut *b;
        for_each_indexed(q, |i, qi| *qi = *p[i].q());
        self.system.potential.gradient(q, grad);
        out.resize(n, nalgebra::Vector6::zeros());
        let (grad, masses) = (&*grad, &self.system.masses);
        for_each_indexed(out, |i, o| {
            let (qi, w) = (p[i].q(), p[i].omega());
            // ω̇ᵢ = −qᵢ × gᵢ / mᵢ (as in `angular_accelerations`), then qᵢ × ω̇ᵢ.
            let v = qi.cross(&(-qi.cross(&grad[i]) / masses[i]));
            *o = nalgebra::Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z);
        });
    }
}
