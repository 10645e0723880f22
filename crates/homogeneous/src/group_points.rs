//! Group elements as points of their ambient matrix spaces, so that a group acting on itself
//! ([`LeftMultiplication`](crate::LeftMultiplication)) works with every tool that needs ambient
//! coordinates (error estimates of commutator-free pairs, output, structure checks).

use crate::action::ManifoldPoint;
use liegroup::Rn;
use nalgebra::{RealField, SVector};

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
