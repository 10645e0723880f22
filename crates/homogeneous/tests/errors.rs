//! User data that is not a valid point gives a typed error, never a panic.

use homogeneous::testing::{kit_rng, random_tangent_sphere2};
use homogeneous::{
    HomogeneousError, ManifoldPoint, RotationAction, SPHERE_TOLERANCE, Sphere2, TANGENCY_TOLERANCE,
    TangentSphere2, TangentSphereAction, TransitiveAction, VecPowerAction,
};
use nalgebra::{Vector3, Vector6};
use proptest::prelude::*;

#[test]
fn off_sphere_by_1e6_is_rejected_with_its_deviation() {
    let q = Vector3::new(0.6, 0.0, 0.8) * (1.0 + 1e-6);
    for result in [
        Sphere2::try_new(q).map(|_| ()),
        TangentSphere2::try_new(q, Vector3::y()).map(|_| ()),
    ] {
        match result {
            Err(HomogeneousError::OffSphere {
                deviation,
                tolerance,
            }) => {
                assert!((deviation - 1e-6).abs() < 1e-15, "{deviation}");
                assert_eq!(tolerance, SPHERE_TOLERANCE);
            }
            other => panic!("expected OffSphere, got {other:?}"),
        }
    }
    let e = Sphere2::try_new(q).unwrap_err();
    assert!(
        e.to_string().contains("1e-6") || e.to_string().contains("9.99"),
        "{e}"
    );
}

#[test]
fn non_tangent_omega_is_rejected_with_q_dot_omega() {
    let q: Vector3<f64> = Vector3::new(0.0, 0.6, 0.8);
    let omega = Vector3::new(1.0, 0.0, 0.0) + q * 1e-6;
    match TangentSphere2::try_new(q, omega) {
        Err(HomogeneousError::NotTangent {
            q_dot_omega,
            omega_norm,
            tolerance,
        }) => {
            assert!((q_dot_omega - 1e-6).abs() < 1e-15);
            assert!((omega_norm - omega.norm()).abs() < 1e-15);
            assert_eq!(tolerance, TANGENCY_TOLERANCE);
        }
        other => panic!("expected NotTangent, got {other:?}"),
    }
    // The tolerance is relative to |ω|: the same direction scaled up or down is judged alike.
    for scale in [1e-12, 1e12] {
        assert!(matches!(
            TangentSphere2::try_new(q, omega * scale),
            Err(HomogeneousError::NotTangent { .. })
        ));
        assert!(TangentSphere2::try_new(q, Vector3::x() * scale).is_ok());
    }
    // …and new_projected removes the normal part explicitly.
    let p = TangentSphere2::new_projected(q, omega).unwrap();
    assert!(p.q().dot(p.omega()).abs() < 1e-16);
}

#[test]
fn nan_and_infinity_are_rejected() {
    let bad = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY];
    for x in bad {
        let v = Vector3::new(x, 0.0, 0.0);
        assert!(matches!(
            Sphere2::try_new(v),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            Sphere2::new_normalize(v),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            TangentSphere2::try_new(v, Vector3::zeros()),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            TangentSphere2::try_new(Vector3::z(), v),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            TangentSphere2::new_projected(Vector3::z(), v),
            Err(HomogeneousError::NonFinite { .. })
        ));
        assert!(matches!(
            Sphere2::try_from_ambient(&[0.0, x, 1.0]),
            Err(HomogeneousError::NonFinite { .. })
        ));
    }
}

#[test]
fn sizes_are_checked() {
    assert!(matches!(
        Sphere2::<f64>::try_from_ambient(&[1.0, 0.0, 0.0, 0.0]),
        Err(HomogeneousError::DimensionMismatch {
            expected: 3,
            found: 4
        })
    ));
    assert!(matches!(
        TangentSphere2::<f64>::try_from_ambient(&[1.0, 0.0, 0.0]),
        Err(HomogeneousError::DimensionMismatch {
            expected: 6,
            found: 3
        })
    ));
    assert!(matches!(
        TangentSphere2::<f64>::try_vec_from_ambient(3, &[0.0; 12]),
        Err(HomogeneousError::DimensionMismatch {
            expected: 18,
            found: 12
        })
    ));
    let action = VecPowerAction::new(TangentSphereAction::new());
    let mut rng = kit_rng(5);
    let x: Vec<TangentSphere2> = (0..3)
        .map(|_| random_tangent_sphere2(&mut rng, 1.0))
        .collect();
    let xi = vec![Vector6::zeros(); 2];
    assert!(matches!(
        action.try_act_exp(&xi, &x),
        Err(HomogeneousError::DimensionMismatch {
            expected: 3,
            found: 2
        })
    ));
    let g = homogeneous::testing::random_se3(&mut rng, 1.0, 1.0);
    assert!(matches!(
        action.try_act(&[g; 4], &x),
        Err(HomogeneousError::DimensionMismatch {
            expected: 3,
            found: 4
        })
    ));
    assert_eq!(action.try_act(&[g; 3], &x).unwrap().len(), 3);
    assert!(matches!(
        action.transporter(&x, &x[..1].to_vec()),
        Err(HomogeneousError::DimensionMismatch {
            expected: 3,
            found: 1
        })
    ));
    let s = VecPowerAction::new(RotationAction::<f64>::new());
    assert!(s.transporter(&vec![], &vec![]).unwrap().is_empty());
}

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -2.0..2.0_f64,
        1 => any::<f64>(),
        1 => Just(0.0),
        1 => Just(f64::MAX),
        1 => Just(f64::MIN_POSITIVE / 8.0),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(20_240_611),
        ..ProptestConfig::default()
    })]

    /// Every constructor returns Ok or Err on any input, and an Ok point is valid.
    #[test]
    fn constructors_never_panic(c in proptest::array::uniform6(any_f64())) {
        let q = Vector3::new(c[0], c[1], c[2]);
        let w = Vector3::new(c[3], c[4], c[5]);
        if let Ok(p) = Sphere2::try_new(q) {
            prop_assert!(p.constraint_error() <= SPHERE_TOLERANCE);
        }
        if let Ok(p) = Sphere2::new_normalize(q) {
            prop_assert!(p.all_finite() && p.constraint_error() < 1e-15);
        }
        if let Ok(p) = TangentSphere2::try_new(q, w) {
            prop_assert!(p.all_finite());
        }
        if let Ok(p) = TangentSphere2::new_projected(q, w) {
            prop_assert!(p.all_finite());
            // A projected point passes the checked constructor (unless ω is subnormal, where
            // the relative tangency test has no precision to work with).
            prop_assert!(w.norm() < 1e-290 || TangentSphere2::try_new(*p.q(), *p.omega()).is_ok());
            // Tangent to round-off relative to |ω| (for ω in the normal range; a subnormal ω has
            // lost its relative precision already).
            let n = p.omega().norm();
            prop_assert!(n < 1e-290 || p.q().dot(p.omega()).abs() <= 8.0 * f64::EPSILON * n);
        }
        let _ = TangentSphere2::<f64>::try_from_ambient(&c);
        let _ = TangentSphere2::<f64>::try_vec_from_ambient(1, &c);
    }
}
