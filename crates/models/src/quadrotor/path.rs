//! Desired load paths `y_d(t)` with their first four derivatives.

use core::fmt::Debug;
use nalgebra::{RealField, Vector3};

/// A desired load path at one time: `y_d` and its first four derivatives (the controller of
/// \[LSK13\] needs `ÿ_d` in the force command, `y⃛_d` and `y_d⁽⁴⁾` in the derivatives of the
/// desired link directions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathJet<T: RealField + Copy> {
    /// `y_d(t)`.
    pub position: Vector3<T>,
    /// `ẏ_d(t)`.
    pub velocity: Vector3<T>,
    /// `ÿ_d(t)`.
    pub acceleration: Vector3<T>,
    /// `y⃛_d(t)`.
    pub jerk: Vector3<T>,
    /// `y_d⁽⁴⁾(t)`.
    pub snap: Vector3<T>,
}

/// A smooth desired path of the load, evaluated generically so that the controller can be
/// differentiated in time with dual numbers.
pub trait LoadPath: Clone + Debug {
    /// `y_d` and its first four derivatives at time `t`.
    fn jet<T: RealField + Copy>(&self, t: T) -> PathJet<T>;
}

/// The parabola of [CCLMO22, §6.2]:
/// `y_d(t) = (t − t_mid, 0, (t − t_mid)² − depth)`, with `t_mid = 2.5`, `depth = 7` in the paper.
/// (The third axis points **down** in the quadrotor model, see [`QuadrotorLoad`](crate::QuadrotorLoad),
/// so the load climbs to the altitude `depth` at `t = t_mid` and comes back.)
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParabolicPath {
    /// The time of the vertex.
    pub t_mid: f64,
    /// `−e₃·y_d(t_mid)`.
    pub depth: f64,
}

impl ParabolicPath {
    /// `t_mid = 2.5`, `depth = 7` [CCLMO22, §6.2].
    #[must_use]
    pub const fn cclmo22() -> Self {
        Self {
            t_mid: 2.5,
            depth: 7.0,
        }
    }
}

impl Default for ParabolicPath {
    fn default() -> Self {
        Self::cclmo22()
    }
}

impl LoadPath for ParabolicPath {
    fn jet<T: RealField + Copy>(&self, t: T) -> PathJet<T> {
        let s = t - nalgebra::convert::<f64, T>(self.t_mid);
        let (zero, one, two) = (T::zero(), T::one(), nalgebra::convert::<f64, T>(2.0));
        PathJet {
            position: Vector3::new(s, zero, s * s - nalgebra::convert::<f64, T>(self.depth)),
            velocity: Vector3::new(one, zero, two * s),
            acceleration: Vector3::new(zero, zero, two),
            jerk: Vector3::zeros(),
            snap: Vector3::zeros(),
        }
    }
}

/// A fixed point `y_d(t) = p` (hovering).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HoverPath {
    /// The point.
    pub point: Vector3<f64>,
}

impl LoadPath for HoverPath {
    fn jet<T: RealField + Copy>(&self, _t: T) -> PathJet<T> {
        PathJet {
            position: self.point.cast::<T>(),
            velocity: Vector3::zeros(),
            acceleration: Vector3::zeros(),
            jerk: Vector3::zeros(),
            snap: Vector3::zeros(),
        }
    }
}
