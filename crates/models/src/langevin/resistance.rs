//! The 6 × 6 hydrodynamic resistance tensor of a rigid body, its change of reference point, and
//! the Stokes (sphere) and Perrin (spheroid) values (`docs/langevin.md` §2).

use crate::error::{ModelError, positive};
use liegroup::hat;
use nalgebra::{Matrix3, Matrix6, Vector3};
use std::f64::consts::PI;

/// The hydrodynamic resistance tensor `Ξ` of a rigid body at a reference point `O`, in body
/// coordinates (\[Lin06\] §`introSection:resistanceTensorRegular` of its introduction, \[SLG08\]).
///
/// For a body translating with velocity `v` (of the point `O`) and rotating with angular
/// velocity `ω` in a quiescent fluid at low Reynolds number, the drag force and the drag torque
/// about `O` are
///
/// ```text
///   (F, τ_O) = −Ξ (v, ω),     Ξ = [ Ξᵗᵗ  Ξᵗʳᵀ ]
///                                 [ Ξᵗʳ  Ξʳʳ  ],
/// ```
///
/// with `Ξᵗᵗ`, `Ξʳʳ` symmetric and `Ξ` symmetric positive definite. The 6-vectors are
/// **translation first** `(v, ω)` (a generalized velocity, not an se(3) coordinate vector).
///
/// # Example
/// ```
/// use models::langevin::ResistanceTensor;
/// use nalgebra::Vector3;
/// let xi = ResistanceTensor::sphere(1.0, 0.5).unwrap();
/// // Moving the reference point by d adds ξ_t d² to the perpendicular rotational resistance.
/// let p = xi.moved_to(&Vector3::new(0.0, 0.0, 2.0));
/// let parallel_axis = xi.rr()[(0, 0)] + xi.tt()[(0, 0)] * 4.0;
/// assert!((p.rr()[(0, 0)] - parallel_axis).abs() < 1e-14 * parallel_axis);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResistanceTensor {
    tt: Matrix3<f64>,
    tr: Matrix3<f64>,
    rr: Matrix3<f64>,
}

/// Perrin's friction coefficients of a spheroid (stick boundary conditions) \[Per34\], in the form
/// of \[Lin06\] (§ "The Resistance Tensor for Regular Shape") and \[Koe75\]: translation along
/// and across the symmetry axis, rotation about and across it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerrinFriction {
    /// `ξᵗ_∥`: translation along the symmetry axis.
    pub translation_axial: f64,
    /// `ξᵗ_⊥`: translation perpendicular to the symmetry axis.
    pub translation_equatorial: f64,
    /// `ξʳ_∥`: rotation about the symmetry axis.
    pub rotation_axial: f64,
    /// `ξʳ_⊥`: rotation about an equatorial axis.
    pub rotation_equatorial: f64,
}

/// Below `|a/b − 1| <` this the closed forms of [`perrin_friction`] cancel (their round-off
/// grows like `ε/|a/b − 1|^{3/2}`); they are replaced by the linear interpolation between the
/// sphere and the closed form at `|a/b − 1| = NEAR_SPHERE` (error `O(NEAR_SPHERE²) ≈ 1e-6`).
const NEAR_SPHERE: f64 = 1e-3;

/// Perrin's friction coefficients of a spheroid with semi-axis `a` along the symmetry axis and
/// equatorial semi-axes `b`, in a fluid of viscosity `η` (stick) \[Per34\], \[Koe75\], with `S`
/// as in \[Lin06\] (§ "The Resistance Tensor for Regular Shape"):
///
/// ```text
///   S = 2 (a² − b²)^{−½} ln[(a + (a² − b²)^{½})/b]          (prolate, a > b),
///   S = 2 (b² − a²)^{−½} arctan[(b² − a²)^{½}/a]            (oblate, a < b),
///   ξᵗ_∥ = 16πη (a² − b²) / [(2a² − b²) S − 2a],
///   ξᵗ_⊥ = 32πη (a² − b²) / [(2a² − 3b²) S + 2a],
///   ξʳ_∥ = 32πη (a² − b²) b² / [3 (2a − b² S)],
///   ξʳ_⊥ = 32πη (a⁴ − b⁴) / [3 ((2a² − b²) S − 2a)].
/// ```
///
/// At `a = b` (`S = 2/a`) these tend to Stokes' `6πηa` and `8πηa³`; within
/// `|a/b − 1| < 1e-3` the sphere value and the closed form at `1e-3` are interpolated (see
/// `NEAR_SPHERE` in the source). The isotropic mean `3/ξᵗ = 1/ξᵗ_∥ + 2/ξᵗ_⊥` equals Perrin's
/// translational factor times the Stokes friction of the sphere of equal volume (tested).
///
/// # Errors
/// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] unless `η`, `a`, `b` are positive
/// and finite.
pub fn perrin_friction(eta: f64, a: f64, b: f64) -> Result<PerrinFriction, ModelError> {
    positive("viscosity", 0, eta)?;
    positive("axial semi-axis", 0, a)?;
    positive("equatorial semi-axis", 0, b)?;
    let delta = a / b - 1.0;
    if delta.abs() >= NEAR_SPHERE {
        return Ok(perrin_closed_form(eta, a, b));
    }
    let sphere = PerrinFriction {
        translation_axial: 6.0 * PI * eta * b,
        translation_equatorial: 6.0 * PI * eta * b,
        rotation_axial: 8.0 * PI * eta * b.powi(3),
        rotation_equatorial: 8.0 * PI * eta * b.powi(3),
    };
    let d0 = NEAR_SPHERE.copysign(delta);
    let edge = perrin_closed_form(eta, b * (1.0 + d0), b);
    let w = delta / d0;
    let lerp = |s: f64, e: f64| s + w * (e - s);
    Ok(PerrinFriction {
        translation_axial: lerp(sphere.translation_axial, edge.translation_axial),
        translation_equatorial: lerp(sphere.translation_equatorial, edge.translation_equatorial),
        rotation_axial: lerp(sphere.rotation_axial, edge.rotation_axial),
        rotation_equatorial: lerp(sphere.rotation_equatorial, edge.rotation_equatorial),
    })
}

fn perrin_closed_form(eta: f64, a: f64, b: f64) -> PerrinFriction {
    let (a2, b2) = (a * a, b * b);
    let s = if a > b {
        let e = (a2 - b2).sqrt();
        2.0 / e * ((a + e) / b).ln()
    } else {
        let e = (b2 - a2).sqrt();
        2.0 / e * (e / a).atan()
    };
    let diff = a2 - b2;
    PerrinFriction {
        translation_axial: 16.0 * PI * eta * diff / ((2.0 * a2 - b2) * s - 2.0 * a),
        translation_equatorial: 32.0 * PI * eta * diff / ((2.0 * a2 - 3.0 * b2) * s + 2.0 * a),
        rotation_axial: 32.0 * PI * eta * diff * b2 / (3.0 * (2.0 * a - b2 * s)),
        rotation_equatorial: 32.0 * PI * eta * (a2 * a2 - b2 * b2)
            / (3.0 * ((2.0 * a2 - b2) * s - 2.0 * a)),
    }
}

impl ResistanceTensor {
    /// `Ξ` from its blocks `Ξᵗᵗ`, `Ξᵗʳ` (torque from translation), `Ξʳʳ`.
    ///
    /// # Errors
    /// [`ModelError::NonFinite`] for a non-finite entry, [`ModelError::NotSymmetric`] if `Ξᵗᵗ` or
    /// `Ξʳʳ` is not symmetric to `1e-12` relative, [`ModelError::NotPositiveDefinite`] if the
    /// 6 × 6 matrix is not positive definite.
    pub fn new(tt: Matrix3<f64>, tr: Matrix3<f64>, rr: Matrix3<f64>) -> Result<Self, ModelError> {
        for (name, m) in [("Ξ^tt", &tt), ("Ξ^tr", &tr), ("Ξ^rr", &rr)] {
            if let Some(index) = m.iter().position(|x| !x.is_finite()) {
                return Err(ModelError::NonFinite { name, index });
            }
        }
        for (name, m) in [("Ξ^tt", &tt), ("Ξ^rr", &rr)] {
            let asymmetry = (m - m.transpose()).amax();
            if asymmetry > 1e-12 * m.amax() {
                return Err(ModelError::NotSymmetric { name, asymmetry });
            }
        }
        let xi = Self {
            tt: (tt + tt.transpose()) * 0.5,
            tr,
            rr: (rr + rr.transpose()) * 0.5,
        };
        let smallest = xi.matrix().symmetric_eigenvalues().min();
        if smallest.is_nan() || smallest <= 0.0 {
            return Err(ModelError::NotPositiveDefinite {
                name: "resistance tensor",
                smallest_eigenvalue: smallest,
            });
        }
        Ok(xi)
    }

    /// Stokes' sphere of radius `a` in a fluid of viscosity `η` (stick), at its centre:
    /// `Ξᵗᵗ = 6πηa 𝟙`, `Ξʳʳ = 8πηa³ 𝟙`, `Ξᵗʳ = 0`.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] unless `η` and `a` are positive
    /// and finite.
    pub fn sphere(eta: f64, radius: f64) -> Result<Self, ModelError> {
        positive("viscosity", 0, eta)?;
        positive("radius", 0, radius)?;
        Self::new(
            Matrix3::identity() * (6.0 * PI * eta * radius),
            Matrix3::zeros(),
            Matrix3::identity() * (8.0 * PI * eta * radius.powi(3)),
        )
    }

    /// A spheroid with its symmetry axis along body `e₃` (semi-axis `a`) and equatorial
    /// semi-axes `b`, at its centre, from [`perrin_friction`]: `Ξᵗᵗ = diag(ξᵗ_⊥, ξᵗ_⊥, ξᵗ_∥)`,
    /// `Ξʳʳ = diag(ξʳ_⊥, ξʳ_⊥, ξʳ_∥)`, `Ξᵗʳ = 0`.
    ///
    /// # Errors
    /// As [`perrin_friction`].
    pub fn spheroid(eta: f64, a: f64, b: f64) -> Result<Self, ModelError> {
        let f = perrin_friction(eta, a, b)?;
        Self::new(
            Matrix3::from_diagonal(&Vector3::new(
                f.translation_equatorial,
                f.translation_equatorial,
                f.translation_axial,
            )),
            Matrix3::zeros(),
            Matrix3::from_diagonal(&Vector3::new(
                f.rotation_equatorial,
                f.rotation_equatorial,
                f.rotation_axial,
            )),
        )
    }

    /// `Ξᵗᵗ`.
    #[must_use]
    pub fn tt(&self) -> Matrix3<f64> {
        self.tt
    }

    /// `Ξᵗʳ` (torque about the reference point from translation).
    #[must_use]
    pub fn tr(&self) -> Matrix3<f64> {
        self.tr
    }

    /// `Ξʳʳ`.
    #[must_use]
    pub fn rr(&self) -> Matrix3<f64> {
        self.rr
    }

    /// The 6 × 6 matrix `[[Ξᵗᵗ, Ξᵗʳᵀ], [Ξᵗʳ, Ξʳʳ]]` (translation first).
    #[must_use]
    pub fn matrix(&self) -> Matrix6<f64> {
        let mut m = Matrix6::zeros();
        m.fixed_view_mut::<3, 3>(0, 0).copy_from(&self.tt);
        m.fixed_view_mut::<3, 3>(0, 3)
            .copy_from(&self.tr.transpose());
        m.fixed_view_mut::<3, 3>(3, 0).copy_from(&self.tr);
        m.fixed_view_mut::<3, 3>(3, 3).copy_from(&self.rr);
        m
    }

    /// The tensor at the point `P = O + r_OP` (`r_OP` in body coordinates), \[Lin06\] eq.
    /// `introEquation:resistanceTensorTransformation`, \[SLG08\], with
    /// `U_OP = r̂_OP` (`U_OP x = r_OP × x`):
    ///
    /// ```text
    ///   Ξᵗᵗ_P = Ξᵗᵗ_O,
    ///   Ξᵗʳ_P = Ξᵗʳ_O − U_OP Ξᵗᵗ_O,
    ///   Ξʳʳ_P = Ξʳʳ_O − U_OP Ξᵗᵗ_O U_OP + Ξᵗʳ_O U_OP − U_OP Ξᵗʳ_Oᵀ.
    /// ```
    ///
    /// This is the congruence `Ξ_P = TᵀΞ_O T`, `T = [[𝟙, U_OP], [0, 𝟙]]` (the velocity of `O` is
    /// `v_O = v_P + r_OP × ω`; the dissipated power is the same), so `Ξ_P` stays symmetric positive
    /// definite and `moved_to(−r)` undoes `moved_to(r)`.
    #[must_use]
    pub fn moved_to(&self, r_op: &Vector3<f64>) -> Self {
        let u = hat(r_op);
        Self {
            tt: self.tt,
            tr: self.tr - u * self.tt,
            rr: self.rr - u * self.tt * u + self.tr * u - u * self.tr.transpose(),
        }
    }

    /// The diffusion tensor `D = kT Ξ⁻¹` (Stokes–Einstein) at the same reference point.
    ///
    /// # Errors
    /// [`ModelError::NonPositive`] / [`ModelError::NonFinite`] unless `kT` is positive and finite.
    pub fn diffusion(&self, kt: f64) -> Result<Matrix6<f64>, ModelError> {
        positive("kT", 0, kt)?;
        // Positive definite by construction, so the Cholesky factorization exists.
        let inv = self.matrix().cholesky().map(|c| c.inverse()).ok_or(
            ModelError::NotPositiveDefinite {
                name: "resistance tensor",
                smallest_eigenvalue: f64::NAN,
            },
        )?;
        Ok(inv * kt)
    }
}
