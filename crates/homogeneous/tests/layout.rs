//! `Action::packed_point` and `ManifoldPoint::packed_scalars`: the promise that a point is `n`
//! scalars and nothing else, checked against the sizes of the point types, for every action of
//! the crate and for composite points.

use core::mem::size_of;
use homogeneous::{
    Action, CoadjointAction, LeftMultiplication, ManifoldPoint, PackedScalars, PowerAction,
    RightMultiplication, RotationAction, Sphere2, TangentSphere2, TangentSphereAction,
    VecPowerAction,
};
use liegroup::{LieGroup, R3, Se3, So3};
use nalgebra::{SVector, Vector3};

type Scalar<A> = <<A as Action>::Group as LieGroup>::Scalar;

/// The action's count, and that its points are exactly that many scalars.
fn check<A: Action>(n: usize) {
    let name = core::any::type_name::<A>();
    assert_eq!(A::packed_point().map(PackedScalars::len), Some(n), "{name}");
    assert_eq!(size_of::<A::Point>(), n * size_of::<Scalar<A>>(), "{name}");
}

#[test]
fn actions_on_fixed_size_points_are_packed() {
    check::<LeftMultiplication<So3<f64>>>(9);
    check::<RightMultiplication<Se3<f64>>>(12);
    check::<RotationAction<f64>>(3);
    check::<TangentSphereAction<f64>>(6);
    // The body-frame rigid body of `models`: SO(3) on the right, ℝ³ by translation.
    check::<(RightMultiplication<So3<f64>>, LeftMultiplication<R3<f64>>)>(12);
    // The double spherical pendulum on (TS²)².
    check::<PowerAction<TangentSphereAction<f64>, 2>>(12);
    check::<(
        RotationAction<f64>,
        TangentSphereAction<f64>,
        LeftMultiplication<So3<f64>>,
    )>(18);
    check::<LeftMultiplication<(So3<f64>, R3<f64>)>>(12);
}

#[test]
fn actions_that_cannot_promise_say_none() {
    // Runtime-sized points.
    assert_eq!(
        VecPowerAction::<TangentSphereAction<f64>>::packed_point(),
        None
    );
    // Algebra coordinates have no layout promise.
    assert_eq!(CoadjointAction::<So3<f64>>::packed_point(), None);
    // A product with one factor that cannot promise cannot either.
    assert_eq!(
        <(RotationAction<f64>, CoadjointAction<So3<f64>>)>::packed_point(),
        None
    );
}

fn point_count<P: ManifoldPoint>() -> Option<usize> {
    P::packed_scalars().map(PackedScalars::len)
}

#[test]
fn points_are_packed() {
    assert_eq!(point_count::<Sphere2<f64>>(), Some(3));
    assert_eq!(point_count::<TangentSphere2<f64>>(), Some(6));
    assert_eq!(point_count::<SVector<f64, 5>>(), Some(5));
    assert_eq!(point_count::<Vector3<f32>>(), Some(3));
    assert_eq!(point_count::<So3<f64>>(), Some(9));
    assert_eq!(point_count::<(So3<f64>, R3<f64>)>(), Some(12));
    assert_eq!(point_count::<[TangentSphere2<f64>; 3]>(), Some(18));
    assert_eq!(point_count::<Vec<Sphere2<f64>>>(), None);
    assert_eq!(size_of::<[TangentSphere2<f64>; 3]>(), 18 * 8);
}
