//! Group elements as points of their ambient matrix spaces, so that a group acting on itself
//! ([`LeftMultiplication`](crate::LeftMultiplication)) works with every tool that needs ambient
//! coordinates (error estimates of commutator-free pairs, output, structure checks).

use crate::action::ManifoldPoint;
use liegroup::{Rn, Se2, Se3, So2, So3};
use nalgebra::{Matrix3, RealField, SVector};

/// ℝᴰ: the ambient coordinates are the vector itself; there is no constraint.
impl<T: RealField + Copy, const D: usize> ManifoldPoint for Rn<T, D> {
    type Scalar = T;
    type Tangent = SVector<T, D>;
    fn ambient_dim(&self) -> usize {
        D
    }
    fn write_ambient(&self, out: &mut [T]) {
        out[..D].copy_from_slice(self.0.as_slice());
    }
    fn constraint_error(&self) -> T {
        T::zero()
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

/// SO(3) as a point of ℝ⁹: the rotation matrix entries in column-major order
/// (`R₁₁, R₂₁, R₃₁, R₁₂, …`); the constraint error is `‖RᵀR − I‖_F`.
impl<T: RealField + Copy> ManifoldPoint for So3<T> {
    type Scalar = T;
    type Tangent = SVector<T, 9>;
    fn ambient_dim(&self) -> usize {
        9
    }
    fn write_ambient(&self, out: &mut [T]) {
        out[..9].copy_from_slice(self.matrix().as_slice());
    }
    fn constraint_error(&self) -> T {
        let r = self.matrix();
        (r.transpose() * r - Matrix3::identity()).norm()
    }
    fn all_finite(&self) -> bool {
        self.matrix().iter().all(|x| x.is_finite())
    }
}

/// SE(3) as a point of ℝ¹²: the rotation entries (column-major) followed by the translation;
/// the constraint error is that of the rotation.
impl<T: RealField + Copy> ManifoldPoint for Se3<T> {
    type Scalar = T;
    type Tangent = SVector<T, 12>;
    fn ambient_dim(&self) -> usize {
        12
    }
    fn write_ambient(&self, out: &mut [T]) {
        self.rotation().write_ambient(&mut out[..9]);
        out[9..12].copy_from_slice(self.translation().as_slice());
    }
    fn constraint_error(&self) -> T {
        self.rotation().constraint_error()
    }
    fn all_finite(&self) -> bool {
        self.rotation().all_finite() && self.translation().iter().all(|x| x.is_finite())
    }
}

/// SO(2) as a point of ℝ²: `(cos θ, sin θ)`; the constraint error is `|cos²θ + sin²θ − 1|`.
impl<T: RealField + Copy> ManifoldPoint for So2<T> {
    type Scalar = T;
    type Tangent = SVector<T, 2>;
    fn ambient_dim(&self) -> usize {
        2
    }
    fn write_ambient(&self, out: &mut [T]) {
        out[0] = self.cos();
        out[1] = self.sin();
    }
    fn constraint_error(&self) -> T {
        (self.cos() * self.cos() + self.sin() * self.sin() - T::one()).abs()
    }
    fn all_finite(&self) -> bool {
        self.cos().is_finite() && self.sin().is_finite()
    }
}

/// SE(2) as a point of ℝ⁴: `(cos θ, sin θ, x, y)`; the constraint error is that of the rotation.
impl<T: RealField + Copy> ManifoldPoint for Se2<T> {
    type Scalar = T;
    type Tangent = SVector<T, 4>;
    fn ambient_dim(&self) -> usize {
        4
    }
    fn write_ambient(&self, out: &mut [T]) {
        self.rotation().write_ambient(&mut out[..2]);
        out[2..4].copy_from_slice(self.translation().as_slice());
    }
    fn constraint_error(&self) -> T {
        self.rotation().constraint_error()
    }
    fn all_finite(&self) -> bool {
        self.rotation().all_finite() && self.translation().iter().all(|x| x.is_finite())
    }
}
