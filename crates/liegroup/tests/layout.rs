//! `LieGroup::packed_scalars`: the promise that an element is `n` scalars and nothing else,
//! checked against the sizes of the types (the promise is what lets integrators read elements
//! in 16-byte pieces, so a wrong count would make them read past or short of the value).

use core::mem::size_of;
use liegroup::num_dual::Dual64;
use liegroup::{LieGroup, PackedScalars, Rn, Se2, Se3, So2, So3};
use nalgebra::Vector3;

fn count<G: LieGroup>() -> Option<usize> {
    G::packed_scalars().map(PackedScalars::len)
}

/// The count, and that the type is exactly that many scalars.
fn check<G: LieGroup>(n: usize) {
    assert_eq!(count::<G>(), Some(n), "{}", core::any::type_name::<G>());
    assert_eq!(size_of::<G>(), n * size_of::<G::Scalar>());
}

#[test]
fn groups_of_f64_are_packed() {
    check::<So3<f64>>(9);
    check::<Se3<f64>>(12);
    check::<So2<f64>>(2);
    check::<Se2<f64>>(4);
    check::<Rn<f64, 1>>(1);
    check::<Rn<f64, 7>>(7);
}

#[test]
fn groups_of_dual_numbers_are_packed_in_their_own_scalar() {
    check::<So3<Dual64>>(9);
    check::<Se3<Dual64>>(12);
    check::<Rn<Dual64, 3>>(3);
}

#[test]
fn products_and_powers_add_up() {
    check::<(So3<f64>, Rn<f64, 3>)>(12);
    check::<(Se3<f64>, So2<f64>, Rn<f64, 5>)>(19);
    check::<[So3<f64>; 4]>(36);
    check::<[(So3<f64>, Rn<f64, 3>); 2]>(24);
    check::<(So3<f32>, Rn<f32, 3>)>(12);
}

#[test]
fn runtime_sized_groups_are_not_packed() {
    assert_eq!(count::<Vec<So3<f64>>>(), None);
    assert_eq!(count::<(So3<f64>, Vec<Rn<f64, 3>>)>(), None);
}

/// A user group that keeps the default says nothing.
#[test]
fn the_default_is_none() {
    #[derive(Clone, Debug, PartialEq)]
    struct Unsaid(Rn<f64, 3>);
    // Only the layout hint is exercised: the group operations delegate to ℝ³.
    impl LieGroup for Unsaid {
        type Scalar = f64;
        type Algebra = Vector3<f64>;
        fn identity_like(&self) -> Self {
            Self(self.0.identity_like())
        }
        fn algebra_zero(&self) -> Vector3<f64> {
            Vector3::zeros()
        }
        fn compose(&self, other: &Self) -> Self {
            Self(self.0.compose(&other.0))
        }
        fn inverse(&self) -> Self {
            Self(self.0.inverse())
        }
        fn exp(u: &Vector3<f64>) -> Self {
            Self(Rn::exp(u))
        }
        fn log(&self) -> Vector3<f64> {
            self.0.log()
        }
        fn adjoint(&self, u: &Vector3<f64>) -> Vector3<f64> {
            self.0.adjoint(u)
        }
        fn bracket(u: &Vector3<f64>, v: &Vector3<f64>) -> Vector3<f64> {
            Rn::<f64, 3>::bracket(u, v)
        }
    }
    assert_eq!(count::<Unsaid>(), None);
    assert_eq!(count::<(So3<f64>, Unsaid)>(), None);
}

#[test]
fn concat_refuses_a_size_that_does_not_add_up() {
    // SAFETY: the promises are only inspected, never used to read memory.
    let one = unsafe { PackedScalars::new(1) };
    let parts = [Some(one), Some(one)];
    // Two scalars promised, three in the type: refused.
    assert_eq!(
        unsafe { PackedScalars::concat::<(f64, f64, f64), f64>(&parts) },
        None
    );
    assert_eq!(
        unsafe { PackedScalars::concat::<(f64, f64), f64>(&parts) }.map(PackedScalars::len),
        Some(2)
    );
    assert_eq!(
        unsafe { PackedScalars::concat::<(f64, f64), f64>(&[Some(one), None]) },
        None
    );
    assert_eq!(unsafe { PackedScalars::sized::<[f64; 3], f64>(2) }, None);
    assert!(unsafe { PackedScalars::new(0) }.is_empty());
}
