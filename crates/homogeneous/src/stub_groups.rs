//! TEMPORARY stand-ins for `liegroup::So3` / `liegroup::Se3` (being written on branch `so3`),
//! with the planned API, so that this crate compiles and tests before the merge. Removed when
//! `so3` is merged.
#![allow(missing_docs, dead_code)]

use crate::rodrigues::coefficients;
use liegroup::{LieGroup, StaticLieGroup};
use nalgebra::{Matrix3, RealField, Vector3, Vector6};

pub fn hat<T: RealField + Copy>(v: &Vector3<T>) -> Matrix3<T> {
    Matrix3::new(
        T::zero(),
        -v.z,
        v.y,
        v.z,
        T::zero(),
        -v.x,
        -v.y,
        v.x,
        T::zero(),
    )
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct So3<T: RealField + Copy = f64>(Matrix3<T>);

impl<T: RealField + Copy> So3<T> {
    pub fn identity() -> Self {
        Self(Matrix3::identity())
    }
    pub fn matrix(&self) -> &Matrix3<T> {
        &self.0
    }
    pub fn from_matrix_unchecked(m: Matrix3<T>) -> Self {
        Self(m)
    }
    pub fn rotate(&self, v: &Vector3<T>) -> Vector3<T> {
        self.0 * v
    }
}

impl<T: RealField + Copy> LieGroup for So3<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;
    fn identity_like(&self) -> Self {
        Self::identity()
    }
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self(self.0 * o.0)
    }
    fn inverse(&self) -> Self {
        Self(self.0.transpose())
    }
    fn exp(xi: &Vector3<T>) -> Self {
        let k = coefficients(xi.norm_squared());
        let h = hat(xi);
        Self(Matrix3::identity() + h * k.a + h * h * k.b)
    }
    fn log(&self) -> Vector3<T> {
        let r = &self.0;
        let w = Vector3::new(
            r[(2, 1)] - r[(1, 2)],
            r[(0, 2)] - r[(2, 0)],
            r[(1, 0)] - r[(0, 1)],
        );
        let two = T::one() + T::one();
        let cos = (r.trace() - T::one()) / two;
        let sin = w.norm_squared().sqrt() / two;
        let theta = sin.atan2(cos);
        if w.norm_squared() < nalgebra::convert(1e-12) {
            // small-angle: vee of the antisymmetric part (first order plus correction)
            w / two * (T::one() + w.norm_squared() / nalgebra::convert(24.0))
        } else {
            w * (theta / (two * sin))
        }
    }
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        self.0 * xi
    }
    fn coadjoint(&self, mu: &Vector3<T>) -> Vector3<T> {
        self.0 * mu
    }
    fn ad_star(x: &Vector3<T>, mu: &Vector3<T>) -> Vector3<T> {
        mu.cross(x)
    }
    fn all_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> StaticLieGroup for So3<T> {
    fn identity() -> Self {
        Self::identity()
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Se3<T: RealField + Copy = f64> {
    r: So3<T>,
    t: Vector3<T>,
}

impl<T: RealField + Copy> Se3<T> {
    pub fn identity() -> Self {
        Self {
            r: So3::identity(),
            t: Vector3::zeros(),
        }
    }
    pub fn rotation(&self) -> &So3<T> {
        &self.r
    }
    pub fn translation(&self) -> &Vector3<T> {
        &self.t
    }
    pub fn from_parts(r: So3<T>, t: Vector3<T>) -> Self {
        Self { r, t }
    }
}

fn split<T: RealField + Copy>(x: &Vector6<T>) -> (Vector3<T>, Vector3<T>) {
    (
        x.fixed_rows::<3>(0).into_owned(),
        x.fixed_rows::<3>(3).into_owned(),
    )
}
fn join<T: RealField + Copy>(a: Vector3<T>, b: Vector3<T>) -> Vector6<T> {
    Vector6::new(a.x, a.y, a.z, b.x, b.y, b.z)
}

impl<T: RealField + Copy> LieGroup for Se3<T> {
    type Scalar = T;
    type Algebra = Vector6<T>;
    fn identity_like(&self) -> Self {
        Self::identity()
    }
    fn algebra_zero(&self) -> Vector6<T> {
        Vector6::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self {
            r: self.r.compose(&o.r),
            t: self.r.rotate(&o.t) + self.t,
        }
    }
    fn inverse(&self) -> Self {
        let ri = self.r.inverse();
        Self {
            t: -ri.rotate(&self.t),
            r: ri,
        }
    }
    fn exp(xi: &Vector6<T>) -> Self {
        let (w, v) = split(xi);
        let k = coefficients(w.norm_squared());
        let t = v + w.cross(&v) * k.b + w.cross(&w.cross(&v)) * k.c;
        Self { r: So3::exp(&w), t }
    }
    fn log(&self) -> Vector6<T> {
        // w = log R; v = V⁻¹ t by solving with the matrix V.
        let w = self.r.log();
        let k = coefficients(w.norm_squared());
        let h = hat(&w);
        let vm = Matrix3::identity() + h * k.b + h * h * k.c;
        let v = vm.try_inverse().unwrap_or_else(Matrix3::identity) * self.t;
        join(w, v)
    }
    fn bracket(x: &Vector6<T>, y: &Vector6<T>) -> Vector6<T> {
        let (a, aa) = split(x);
        let (b, bb) = split(y);
        join(a.cross(&b), a.cross(&bb) - b.cross(&aa))
    }
    fn adjoint(&self, xi: &Vector6<T>) -> Vector6<T> {
        let (a, aa) = split(xi);
        let ra = self.r.rotate(&a);
        join(ra, self.t.cross(&ra) + self.r.rotate(&aa))
    }
    fn all_finite(&self) -> bool {
        self.r.all_finite() && self.t.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy> StaticLieGroup for Se3<T> {
    fn identity() -> Self {
        Self::identity()
    }
}
