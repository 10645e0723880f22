//! [`ManifoldPoint`] for composite points and for unconstrained vectors.
//!
//! - Tuples `(P₁, …, P₄)`, arrays `[P; N]` and `Vec<P>`: the ambient coordinates are the
//!   factors' ambient coordinates concatenated in factor order, tangent vectors are tuples /
//!   arrays / `Vec`s of the factors' tangents (whose coordinates concatenate the same way), the
//!   constraint error is the maximum over the factors (zero for an empty `Vec`).
//! - `SVector<T, D>`: an unconstrained point of ℝᴰ (e.g. a momentum μ ∈ 𝔤* moved by a coadjoint
//!   action, whose orbit is left implicitly through the action), with ambient coordinates the
//!   vector itself and constraint error 0.

use crate::action::ManifoldPoint;
use nalgebra::{RealField, SVector};
use num_traits::Zero;

impl<T: RealField + Copy, const D: usize> ManifoldPoint for SVector<T, D> {
    type Scalar = T;
    type Tangent = SVector<T, D>;

    #[inline]
    fn ambient_dim(&self) -> usize {
        D
    }
    #[inline]
    fn write_ambient(&self, out: &mut [T]) {
        out[..D].copy_from_slice(self.as_slice());
    }
    #[inline]
    fn zip_ambient3<F: FnMut(T, T, T)>(&self, y: &Self, z: &Self, f: &mut F) {
        for i in 0..D {
            f(self[i], y[i], z[i]);
        }
    }
    /// Always 0 (no constraint).
    #[inline]
    fn constraint_error(&self) -> T {
        T::zero()
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.iter().all(|x| x.is_finite())
    }
}

macro_rules! tuple_point {
    ($($name:ident $idx:tt),+) => {
        impl<S: RealField + Copy, $($name: ManifoldPoint<Scalar = S>),+> ManifoldPoint for ($($name,)+) {
            type Scalar = S;
            type Tangent = ($($name::Tangent,)+);

            fn ambient_dim(&self) -> usize {
                0 $(+ self.$idx.ambient_dim())+
            }
            fn write_ambient(&self, out: &mut [S]) {
                let mut off = 0;
                $(
                    let n = self.$idx.ambient_dim();
                    self.$idx.write_ambient(&mut out[off..off + n]);
                    off += n;
                )+
                let _ = off;
            }
            fn constraint_error(&self) -> S {
                S::zero() $(.max(self.$idx.constraint_error()))+
            }
            fn all_finite(&self) -> bool {
                true $(&& self.$idx.all_finite())+
            }
            fn zip_ambient3<F>(&self, y: &Self, z: &Self, f: &mut F)
            where
                F: FnMut(S, S, S),
            {
                $(self.$idx.zip_ambient3(&y.$idx, &z.$idx, f);)+
            }
        }
    };
}

tuple_point!(A 0, B 1);
tuple_point!(A 0, B 1, C 2);
tuple_point!(A 0, B 1, C 2, D 3);

fn write_slice<P: ManifoldPoint>(points: &[P], out: &mut [P::Scalar]) {
    let mut off = 0;
    for p in points {
        let n = p.ambient_dim();
        p.write_ambient(&mut out[off..off + n]);
        off += n;
    }
}

fn max_constraint<P: ManifoldPoint>(points: &[P]) -> P::Scalar {
    points
        .iter()
        .fold(P::Scalar::zero(), |m, p| m.max(p.constraint_error()))
}

impl<P: ManifoldPoint, const N: usize> ManifoldPoint for [P; N] {
    type Scalar = P::Scalar;
    type Tangent = [P::Tangent; N];

    fn ambient_dim(&self) -> usize {
        self.iter().map(ManifoldPoint::ambient_dim).sum()
    }
    fn write_ambient(&self, out: &mut [P::Scalar]) {
        write_slice(self, out);
    }
    fn constraint_error(&self) -> P::Scalar {
        max_constraint(self)
    }
    fn all_finite(&self) -> bool {
        self.iter().all(ManifoldPoint::all_finite)
    }
    fn zip_ambient3<F>(&self, y: &Self, z: &Self, f: &mut F)
    where
        F: FnMut(P::Scalar, P::Scalar, P::Scalar),
    {
        for ((a, b), c) in self.iter().zip(y).zip(z) {
            a.zip_ambient3(b, c, f);
        }
    }
}

/// With the `rayon` feature, [`all_finite`](ManifoldPoint::all_finite) runs on rayon's current
/// pool from [`PAR_THRESHOLD`](liegroup::par::PAR_THRESHOLD) points on (a boolean: the same for
/// any number of threads); the other methods stay serial.
impl<P> ManifoldPoint for Vec<P>
where
    P: ManifoldPoint<Scalar: Send + Sync, Tangent: Send + Sync> + Send + Sync,
{
    type Scalar = P::Scalar;
    type Tangent = Vec<P::Tangent>;

    fn ambient_dim(&self) -> usize {
        self.iter().map(ManifoldPoint::ambient_dim).sum()
    }
    fn write_ambient(&self, out: &mut [P::Scalar]) {
        write_slice(self, out);
    }
    fn constraint_error(&self) -> P::Scalar {
        max_constraint(self)
    }
    fn all_finite(&self) -> bool {
        liegroup::par::all(self, ManifoldPoint::all_finite)
    }
    /// Factor by factor (the three `Vec`s must have the same length; a shorter one ends the
    /// visit).
    fn zip_ambient3<F>(&self, y: &Self, z: &Self, f: &mut F)
    where
        F: FnMut(P::Scalar, P::Scalar, P::Scalar),
    {
        for ((a, b), c) in self.iter().zip(y).zip(z) {
            a.zip_ambient3(b, c, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{ManifoldPoint, Sphere2, TangentSphere2};
    use liegroup::LieGroup;
    use nalgebra::{Vector2, Vector3};

    /// `zip_ambient3` visits exactly the coordinates `write_ambient` writes, in its order, on
    /// single points (with their own visits: spheres, tangent spheres, vectors), tuples, arrays
    /// and `Vec`s, and through the default's buffers (a group element).
    #[test]
    fn zip_ambient3_visits_the_ambient_coordinates_in_order() {
        fn check<P: ManifoldPoint<Scalar = f64>>(a: &P, b: &P, c: &P) {
            let mut seen = Vec::new();
            a.zip_ambient3(b, c, &mut |x, y, z| seen.push((x, y, z)));
            let (xa, xb, xc) = (a.ambient(), b.ambient(), c.ambient());
            let want: Vec<_> = (0..xa.len()).map(|i| (xa[i], xb[i], xc[i])).collect();
            assert_eq!(seen, want);
        }
        let t = |k: f64| {
            TangentSphere2::new_projected(
                Vector3::new(1.0, k, 0.5).normalize(),
                Vector3::new(k, 1.0, -k),
            )
            .unwrap()
        };
        let s = |k: f64| Sphere2::new_unchecked(Vector3::new(k, 1.0, 2.0).normalize());
        check(&t(0.1), &t(0.2), &t(0.3));
        check(&(s(0.1), t(0.1)), &(s(0.2), t(0.2)), &(s(0.3), t(0.3)));
        check(&[t(0.1), t(0.4)], &[t(0.2), t(0.5)], &[t(0.3), t(0.6)]);
        let long = |k: f64| (0..20).map(|i| t(k + f64::from(i))).collect::<Vec<_>>();
        check(&long(0.1), &long(0.2), &long(0.3));
        let big = |k: f64| nalgebra::SVector::<f64, 70>::from_fn(|i, _| k * i as f64);
        check(&big(1.0), &big(2.0), &big(3.0));
        check(&s(0.1), &s(0.2), &s(0.3));
        let g =
            |k: f64| liegroup::Se3::<f64>::exp(&nalgebra::Vector6::new(k, 0.2, -k, 1.0, k, 0.5));
        check(&g(0.1), &g(0.2), &g(0.3));
        let gs = |k: f64| (0..8).map(|i| g(k + f64::from(i))).collect::<Vec<_>>();
        check(&gs(0.1), &gs(0.2), &gs(0.3));
    }

    #[test]
    fn composite_points_concatenate_and_take_the_max() {
        let s: Sphere2 = Sphere2::new_unchecked(Vector3::new(0.0, 0.0, 1.0 + 1e-9));
        let t: TangentSphere2 =
            TangentSphere2::new_unchecked(Vector3::x(), Vector3::new(0.5, 1.0, 0.0));
        let pair = (s, t);
        assert_eq!(pair.ambient_dim(), 9);
        assert_eq!(
            pair.ambient(),
            vec![0.0, 0.0, 1.0 + 1e-9, 1.0, 0.0, 0.0, 0.5, 1.0, 0.0]
        );
        assert!((pair.constraint_error() - 0.5 / 1.118_033_988_749_895).abs() < 1e-12);
        let arr = [s, s, s];
        assert_eq!(arr.ambient_dim(), 9);
        assert!((arr.constraint_error() - 1e-9).abs() < 1e-15);
        let v = vec![t; 4];
        assert_eq!(v.ambient_dim(), 24);
        assert_eq!(Vec::<Sphere2>::new().constraint_error(), 0.0);
        let mu: Vector2<f64> = Vector2::new(1.0, f64::NAN);
        assert!(!mu.all_finite());
        assert_eq!(Vector2::new(3.0, 4.0).constraint_error(), 0.0);
        let triple = (s, mu, Vector2::new(1.0, 2.0));
        assert!(!triple.all_finite());
        let quad = (s, s, s, t);
        assert_eq!(quad.ambient_dim(), 15);
    }
}
