//! The conformance kit on every shipped group family and on a user-defined group, with `f64`
//! and `Dual64` scalars; and proof that the kit rejects wrong groups.
//!
//! Adding a group is one line: `conformance!(name, T => Type<T>, example_expr);` (append
//! `, cayley` if it implements `CayleyGroup`). `example_expr` may use `T`; it fixes the size
//! of runtime-sized groups.

mod support;

use liegroup::nalgebra::{RealField, Vector2, Vector3};
use liegroup::num_dual::Dual64;
use liegroup::scalar::re;
use liegroup::testing::strategies::sample_set;
use liegroup::testing::{
    KitFailure, KitReport, Law, SampleSet, check_cayley, check_cayley_derivatives, check_group,
    check_group_dual,
};
use liegroup::{
    CayleyGroup, LieError, LieGroup, LieGroupInPlace, Rn, Se2, Se3, So2, So3, StaticLieGroup,
};
use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
use support::sl2::Sl2;

/// The number of factors of the runtime power, chosen at run time
/// (`LIEGROUP_KIT_POWER`, default 4).
fn runtime_n() -> usize {
    std::env::var("LIEGROUP_KIT_POWER")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4)
}

fn run_f64<G: LieGroupInPlace<Scalar = f64>>(example: &G) -> KitReport {
    let rep = check_group(&SampleSet::standard(example)).unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
    rep
}

fn run_dual<G: LieGroupInPlace<Scalar = Dual64>>(example: &G) -> KitReport {
    let rep = check_group_dual(&SampleSet::standard(example)).unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
    rep
}

fn run_cayley<G: CayleyGroup<Scalar = f64>, D: CayleyGroup<Scalar = Dual64>>(g: &G, d: &D) {
    let rep = check_cayley(&SampleSet::standard(g)).unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
    let samples = SampleSet::standard(d);
    let mut rep = check_cayley(&samples).unwrap_or_else(|f| panic!("{f}"));
    rep.merge(check_cayley_derivatives(&samples).unwrap_or_else(|f| panic!("{f}")));
    println!("{rep}");
}

/// `conformance!(name, T => Group<T>, example [, cayley]);` — a module `name` with tests
/// `f64` and `dual` (and `cayley`) running the kit on `Group<f64>` and `Group<Dual64>`.
macro_rules! conformance {
    ($name:ident, $t:ident => $ty:ty, $example:expr $(, $cayley:ident)?) => {
        mod $name {
            use super::*;
            #[allow(dead_code)]
            type G<$t> = $ty;
            #[allow(unused_imports)]
            use liegroup::StaticLieGroup as _;
            fn example<$t: RealField + Copy>() -> G<$t> {
                $example
            }
            #[test]
            fn f64() {
                run_f64(&example::<f64>());
            }
            #[test]
            fn dual() {
                run_dual(&example::<Dual64>());
            }
            $(
                #[test]
                fn $cayley() {
                    run_cayley(&example::<f64>(), &example::<Dual64>());
                }
            )?
        }
    };
}

conformance!(so2, T => So2<T>, So2::identity(), cayley);
conformance!(se2, T => Se2<T>, Se2::identity(), cayley);
conformance!(so3, T => So3<T>, So3::identity(), cayley);
conformance!(se3, T => Se3<T>, Se3::identity(), cayley);
conformance!(pair_so3_r3, T => (So3<T>, Rn<T, 3>), StaticLieGroup::identity(), cayley);
conformance!(power_se3_2, T => [Se3<T>; 2], StaticLieGroup::identity(), cayley);
conformance!(runtime_power_se3, T => Vec<Se3<T>>, vec![Se3::identity(); runtime_n()], cayley);
conformance!(r3, T => Rn<T, 3>, Rn::identity(), cayley);
conformance!(pair_so2_r2, T => (So2<T>, Rn<T, 2>), StaticLieGroup::identity(), cayley);
conformance!(power_se2_3, T => [Se2<T>; 3], StaticLieGroup::identity(), cayley);
conformance!(runtime_power_se2, T => Vec<Se2<T>>, vec![Se2::identity(); runtime_n()], cayley);
conformance!(user_sl2, T => Sl2<T>, StaticLieGroup::identity());
conformance!(pair_sl2_se2, T => (Sl2<T>, Se2<T>), StaticLieGroup::identity());

#[test]
fn report_lists_every_law() {
    let mut rep = run_dual(&Se2::<Dual64>::identity());
    rep.merge(check_cayley(&SampleSet::standard(&Se2::<Dual64>::identity())).unwrap());
    for law in [
        Law::Identity,
        Law::Inverse,
        Law::Associativity,
        Law::ExpLog,
        Law::LogExp,
        Law::AdjointHomomorphism,
        Law::AdjointConjugation,
        Law::AdjointDifferenceQuotient,
        Law::AdBracket,
        Law::BracketAntisymmetry,
        Law::InPlaceForms,
        Law::BracketBilinearity,
        Law::Jacobi,
        Law::CoadjointDuality,
        Law::CoadjointAction,
        Law::AdStarDuality,
        Law::DexpDifferenceQuotient,
        Law::AdBracketDifferenceQuotient,
        Law::DexpInverse,
        Law::DexpSeries,
        Law::DualDexp,
        Law::DualLog,
        Law::DualAdjoint,
        Law::DualAd,
        Law::DualCoadjoint,
        Law::CayleyInverse,
        Law::DcayInverse,
        Law::DcayDifferenceQuotient,
    ] {
        let s = rep
            .check(law)
            .unwrap_or_else(|| panic!("{law} not checked"));
        assert!(s.evaluations > 0 && s.worst_ratio <= 1.0, "{s:?}");
    }
}

#[test]
fn sample_sets_refuse_empty_and_mismatched_input() {
    assert_eq!(
        SampleSet::<Se2>::custom(vec![], vec![Vector3::zeros()]).unwrap_err(),
        LieError::EmptySampleSet
    );
    assert_eq!(
        SampleSet::<Se2>::custom(vec![Se2::identity()], vec![]).unwrap_err(),
        LieError::EmptySampleSet
    );
    let err = SampleSet::builder(&vec![Se2::<f64>::identity(); 2])
        .element("wrong size", vec![Se2::identity(); 3])
        .build()
        .unwrap_err();
    assert_eq!(
        err,
        LieError::DimensionMismatch {
            expected: 6,
            found: 9
        }
    );
    // The standard set contains the identity and the curated edge cases.
    let s = SampleSet::<Se2>::standard_static();
    assert_eq!(s.elements()[0].1, Se2::identity());
    assert!(s.elements().iter().any(|(l, _)| l.contains("π − 1e-9")));
    assert!(s.elements().iter().any(|(l, _)| l.contains("1e-100")));
}

// ---------------------------------------------------------------------------------------------
// The kit must reject wrong groups. `Faulty<BUG>` is SE(2) with one deliberate mistake.

/// SE(2) with the bug number `BUG` (0 = none).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Faulty<T: RealField + Copy, const BUG: u8>(Se2<T>);

impl<T: RealField + Copy, const BUG: u8> LieGroup for Faulty<T, BUG> {
    type Scalar = T;
    type Algebra = Vector3<T>;
    const EXACT_DEXP: bool = true;
    fn identity_like(&self) -> Self {
        Self(Se2::identity())
    }
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self(self.0.compose(&o.0))
    }
    fn inverse(&self) -> Self {
        Self(self.0.inverse())
    }
    fn exp(xi: &Vector3<T>) -> Self {
        if BUG == 5 && re(xi[0]) == 0.0 {
            // An `if ω == 0` branch: right for f64, but the derivative in ω is lost.
            return Self(Se2::new(So2::identity(), Vector2::new(xi[1], xi[2])));
        }
        Self(Se2::exp(xi))
    }
    fn log(&self) -> Vector3<T> {
        let l = self.0.log();
        if BUG == 6 && re(l[0]) < 0.0 {
            // Angle in [0, 2π) instead of (−π, π]: exp∘log still holds.
            let w = l[0] + T::two_pi();
            let t = self.0.translation();
            // v = φ(iw)⁻¹ t, read off dexp⁻¹ at (w, 0, 0).
            let v = Se2::dexpinv(
                &Vector3::new(w, T::zero(), T::zero()),
                &Vector3::new(T::zero(), t.x, t.y),
            );
            return Vector3::new(w, v[1], v[2]);
        }
        l
    }
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        if BUG == 1 {
            -Se2::bracket(x, y)
        } else {
            Se2::bracket(x, y)
        }
    }
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        self.0.adjoint(xi)
    }
    fn ad_star(x: &Vector3<T>, mu: &Vector3<T>) -> Vector3<T> {
        Se2::ad_star(x, mu)
    }
    fn coadjoint(&self, mu: &Vector3<T>) -> Vector3<T> {
        if BUG == 3 {
            self.0.inverse().coadjoint(mu)
        } else {
            self.0.coadjoint(mu)
        }
    }
    fn dexp(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let d = Se2::dexp(u, v);
        if BUG == 4 {
            // A relative error of 1e-9·|u|.
            d + v * liegroup::scalar::c::<T>(1e-9) * u.norm()
        } else {
            d
        }
    }
    fn dexpinv(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        // dexp⁻¹_{−u} = v + ½[u, v] + … : the sign error on the −½[u, v] term.
        if BUG == 2 {
            Se2::dexpinv(&-u, v)
        } else {
            Se2::dexpinv(u, v)
        }
    }
    fn all_finite(&self) -> bool {
        self.0.all_finite()
    }
}

impl<T: RealField + Copy, const BUG: u8> LieGroupInPlace for Faulty<T, BUG> {}

impl<T: RealField + Copy, const BUG: u8> StaticLieGroup for Faulty<T, BUG> {
    fn identity() -> Self {
        Self(Se2::identity())
    }
}

fn expect_failure(result: Result<KitReport, KitFailure>, laws: &[Law]) {
    match result {
        Ok(rep) => panic!("the kit accepted a wrong group {}:\n{rep}", rep.group),
        Err(f) => {
            println!("rejected as expected: {f}");
            let law = f.law().expect("a law violation");
            assert!(laws.contains(&law), "unexpected law {law}: {f}");
        }
    }
}

#[test]
fn kit_accepts_the_unmodified_wrapper() {
    run_f64(&Faulty::<f64, 0>::identity());
    run_dual(&Faulty::<Dual64, 0>::identity());
}

#[test]
fn kit_rejects_bracket_sign_error() {
    // Antisymmetry and Jacobi survive a global sign flip; the bracket as the derivative of
    // Ad does not, and it is reported before the laws built on the bracket (ad*, dexp).
    expect_failure(
        check_group(&SampleSet::<Faulty<f64, 1>>::standard_static()),
        &[Law::AdBracketDifferenceQuotient],
    );
    expect_failure(
        liegroup::testing::check_derivatives(&SampleSet::<Faulty<Dual64, 1>>::standard_static()),
        &[Law::DualAd],
    );
}

#[test]
fn kit_rejects_dexpinv_sign_error() {
    expect_failure(
        check_group(&SampleSet::<Faulty<f64, 2>>::standard_static()),
        &[Law::DexpSeries, Law::DexpInverse],
    );
}

#[test]
fn kit_rejects_coadjoint_as_right_action() {
    expect_failure(
        check_group(&SampleSet::<Faulty<f64, 3>>::standard_static()),
        &[Law::CoadjointAction, Law::CoadjointDuality],
    );
}

#[test]
fn kit_rejects_dexp_off_by_1e_minus_9() {
    expect_failure(
        check_group(&SampleSet::<Faulty<f64, 4>>::standard_static()),
        &[Law::DexpDifferenceQuotient, Law::DexpInverse],
    );
}

#[test]
fn kit_rejects_lost_derivative_at_zero() {
    // Indistinguishable with f64 …
    run_f64(&Faulty::<f64, 5>::identity());
    // … but dual numbers see the lost derivative.
    expect_failure(
        check_group_dual(&SampleSet::<Faulty<Dual64, 5>>::standard_static()),
        &[Law::DualAdjoint, Law::DualAd, Law::DualDexp],
    );
}

#[test]
fn kit_rejects_log_off_the_principal_branch() {
    expect_failure(
        check_group(&SampleSet::<Faulty<f64, 6>>::standard_static()),
        &[Law::LogExp, Law::ExpLog],
    );
}

// ---------------------------------------------------------------------------------------------
// Random sample sets through the public proptest strategies.

fn runner(cases: u32) -> TestRunner {
    TestRunner::new(Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    })
}

#[test]
fn proptest_random_sample_sets() {
    runner(16)
        .run(&sample_set::<Se2>(6, 3.0), |s| {
            check_group(&s)
                .map_err(|f| proptest::test_runner::TestCaseError::fail(f.to_string()))?;
            check_cayley(&s)
                .map_err(|f| proptest::test_runner::TestCaseError::fail(f.to_string()))?;
            Ok(())
        })
        .unwrap();
    runner(8)
        .run(&sample_set::<[Se2; 2]>(6, 3.0), |s| {
            check_group(&s)
                .map_err(|f| proptest::test_runner::TestCaseError::fail(f.to_string()))?;
            Ok(())
        })
        .unwrap();
    runner(8)
        .run(&sample_set::<Sl2>(6, 1.0), |s| {
            check_group(&s)
                .map_err(|f| proptest::test_runner::TestCaseError::fail(f.to_string()))?;
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------------------------------------
// Every shipped group has a strategy (named or generic).

use liegroup::VectorSpace;
use liegroup::testing::strategies::{
    algebra_vector, group_element_like, rn, runtime_power, se2, so2, static_group_element,
};
use proptest::prelude::*;

fn round_trip<G: LieGroup<Scalar = f64>>(g: &G) -> f64 {
    let e = g.compose(&g.inverse()).log().inner_norm();
    let l = G::exp(&g.log()).compose(&g.inverse()).log().inner_norm();
    e.max(l)
}

proptest! {
    #![proptest_config(Config {
        cases: 64,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        ..Config::default()
    })]

    #[test]
    fn strategies_produce_group_elements(
        a in so2(std::f64::consts::PI),
        b in se2(3.0),
        r in rn::<3>(3.0),
        p in static_group_element::<(So2, Rn<f64, 2>)>(3.0),
        q in static_group_element::<[Se2; 3]>(3.0),
        v in runtime_power::<Se2>(1..=5, 3.0),
        w in group_element_like(&vec![Se2::<f64>::identity(); 4], 3.0),
        s in static_group_element::<Sl2>(1.0),
        x in algebra_vector::<3>(3.0),
    ) {
        for err in [
            round_trip(&a), round_trip(&b), round_trip(&r), round_trip(&p), round_trip(&q),
            round_trip(&v), round_trip(&w), round_trip(&s),
        ] {
            prop_assert!(err < 1e-13, "{err}");
        }
        prop_assert!(!v.is_empty() && v.len() <= 5 && w.len() == 4);
        prop_assert!(x.norm() <= 3.0 + 1e-15);
    }
}
