//! Direct products of actions: a tuple of actions is an action of the tuple group on tuples of
//! points.

use crate::action::{Action, ActionInPlace};
use liegroup::{LieGroup, LieGroupInPlace};
use nalgebra::RealField;

macro_rules! tuple_action {
    ($($name:ident $idx:tt),+) => {
        /// The product action of a tuple of actions: the tuple group `(G₁, …)` acts on tuples of
        /// points factor by factor, `(g₁, …) · (p₁, …) = (g₁·p₁, …)`; likewise `act_exp` and the
        /// generator `(ξ₁, …)_M(p₁, …) = ((ξ₁)_{M₁}(p₁), …)`. Algebra and tangent coordinates
        /// are concatenated in factor order (`docs/notation.md`).
        impl<S: RealField + Copy, $($name: Action<Group: LieGroup<Scalar = S>>),+> Action for ($($name,)+) {
            type Group = ($($name::Group,)+);
            type Point = ($($name::Point,)+);
            type Tangent = ($($name::Tangent,)+);


            #[inline]
            fn algebra_zero(&self, p: &Self::Point) -> <Self::Group as LieGroup>::Algebra {
                ($(self.$idx.algebra_zero(&p.$idx),)+)
            }

            #[inline]
            fn act(&self, g: &Self::Group, p: &Self::Point) -> Self::Point {
                ($(self.$idx.act(&g.$idx, &p.$idx),)+)
            }

            #[inline(always)]
            fn act_exp(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Point {
                ($(self.$idx.act_exp(&xi.$idx, &p.$idx),)+)
            }


            #[inline]
            fn generator(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &Self::Point) -> Self::Tangent {
                ($(self.$idx.generator(&xi.$idx, &p.$idx),)+)
            }

            #[inline]
            fn point_is_finite(&self, p: &Self::Point) -> bool {
                true $(&& self.$idx.point_is_finite(&p.$idx))+
            }
        }

        impl<S: RealField + Copy, $($name: ActionInPlace<Group: LieGroupInPlace<Scalar = S>>),+> ActionInPlace for ($($name,)+) {
            #[inline(always)]
            fn act_exp_assign(&self, xi: &<Self::Group as LieGroup>::Algebra, p: &mut Self::Point) {
                $(self.$idx.act_exp_assign(&xi.$idx, &mut p.$idx);)+
            }
        }
    };
}

tuple_action!(A 0, B 1);
tuple_action!(A 0, B 1, C 2);
tuple_action!(A 0, B 1, C 2, D 3);

#[cfg(test)]
mod tests {
    use crate::{Action, RotationAction, So3Coadjoint, Sphere2};
    use nalgebra::Vector3;

    #[test]
    fn a_pair_acts_factor_by_factor() {
        let action = (RotationAction::<f64>::new(), So3Coadjoint::<f64>::new());
        let p = (
            Sphere2::try_new(Vector3::x()).unwrap(),
            Vector3::new(0.0, 2.0, 0.0),
        );
        let xi = (Vector3::new(0.0, 0.0, 0.1), Vector3::new(0.2, 0.0, 0.0));
        let out = action.act_exp(&xi, &p);
        assert_eq!(out.0, action.0.act_exp(&xi.0, &p.0));
        assert_eq!(out.1, action.1.act_exp(&xi.1, &p.1));
        let g = action.generator(&xi, &p);
        assert_eq!(g.0, xi.0.cross(p.0.q()));
        assert_eq!(g.1, xi.1.cross(&p.1));
    }
}
