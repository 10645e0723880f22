//! Bad parameters give typed errors.

use models::{
    CoupledPendula, DipoleArray, DoubleSphericalPendulum, ElasticRod, LennardJones,
    LinearPotential, ModelError, NFoldPendulum, SphereNBody, SphereState, SphereSystem, Spring,
};
use nalgebra::{DMatrix, Vector3};

fn pot2() -> LinearPotential {
    LinearPotential::new(vec![Vector3::z(), Vector3::z()]).unwrap()
}

#[test]
fn inertia_matrix_validation() {
    let m = |v: &[f64]| DMatrix::from_row_slice(2, 2, v);
    assert!(SphereSystem::new(m(&[2.0, 0.5, 0.5, 1.0]), pot2()).is_ok());
    assert!(matches!(
        SphereSystem::new(m(&[2.0, 0.5, 0.4, 1.0]), pot2()),
        Err(ModelError::InertiaNotSymmetric { i: 0, j: 1, .. })
    ));
    assert!(matches!(
        SphereSystem::new(m(&[1.0, 2.0, 2.0, 1.0]), pot2()),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 1, .. })
    ));
    assert!(matches!(
        SphereSystem::new(m(&[-1.0, 0.0, 0.0, 1.0]), pot2()),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 0, .. })
    ));
    assert!(matches!(
        SphereSystem::new(m(&[1.0, 0.0, 0.0, f64::NAN]), pot2()),
        Err(ModelError::NonFinite { .. })
    ));
    assert!(matches!(
        SphereSystem::new(DMatrix::identity(3, 3), pot2()),
        Err(ModelError::DimensionMismatch {
            expected: 2,
            found: 3,
            ..
        })
    ));
    assert!(matches!(
        LinearPotential::new(vec![]),
        Err(ModelError::NoBodies)
    ));
}

#[test]
fn pendulum_parameters() {
    assert!(matches!(
        NFoldPendulum::new(vec![], vec![], 9.81),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        NFoldPendulum::new(vec![1.0, 0.0], vec![1.0, 1.0], 9.81),
        Err(ModelError::NonPositive {
            name: "mass",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        NFoldPendulum::new(vec![1.0, 1.0], vec![1.0, -2.0], 9.81),
        Err(ModelError::NonPositive {
            name: "length",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        NFoldPendulum::new(vec![1.0, 1.0], vec![1.0], 9.81),
        Err(ModelError::DimensionMismatch {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert!(matches!(
        NFoldPendulum::new(vec![1.0], vec![1.0], -1.0),
        Err(ModelError::Negative { name: "g", .. })
    ));
    assert!(matches!(
        NFoldPendulum::new(vec![f64::INFINITY], vec![1.0], 9.81),
        Err(ModelError::NonFinite { name: "mass", .. })
    ));
    assert!(matches!(
        NFoldPendulum::with_up(vec![1.0], vec![1.0], 9.81, Vector3::new(0.0, 0.0, 2.0)),
        Err(ModelError::NotUnit { name: "up", .. })
    ));
    assert!(matches!(
        NFoldPendulum::variable_step_experiment(0),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        DoubleSphericalPendulum::new(1.0, 1.0, 0.0, 1.0, 9.81),
        Err(ModelError::NonPositive {
            name: "length",
            index: 0,
            ..
        })
    ));
}

#[test]
fn other_models() {
    assert!(matches!(
        SphereNBody::new(vec![], 1.0),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        SphereNBody::new(vec![1.0, 1.0], 0.0),
        Err(ModelError::NonPositive { name: "gamma", .. })
    ));
    let pivots = vec![Vector3::zeros(), Vector3::x()];
    let spring = |i, j, k| Spring { i, j, stiffness: k };
    assert!(matches!(
        CoupledPendula::new(
            vec![1.0; 2],
            vec![1.0; 2],
            pivots.clone(),
            vec![spring(0, 1, -3.0)],
            9.81
        ),
        Err(ModelError::NonPositive {
            name: "stiffness",
            index: 0,
            ..
        })
    ));
    assert!(matches!(
        CoupledPendula::new(
            vec![1.0; 2],
            vec![1.0; 2],
            pivots.clone(),
            vec![spring(0, 2, 3.0)],
            9.81
        ),
        Err(ModelError::DimensionMismatch {
            expected: 2,
            found: 2,
            ..
        })
    ));
    assert!(matches!(
        CoupledPendula::new(
            vec![1.0; 2],
            vec![1.0; 2],
            pivots,
            vec![spring(1, 1, 3.0)],
            9.81
        ),
        Err(ModelError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        ElasticRod::new(
            vec![1.0; 3],
            vec![1.0; 3],
            vec![1.0, 0.0, 1.0],
            9.81,
            Vector3::x()
        ),
        Err(ModelError::NonPositive {
            name: "stiffness",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        ElasticRod::new(
            vec![1.0; 3],
            vec![1.0; 3],
            vec![1.0; 3],
            9.81,
            Vector3::new(1.0, 1.0, 0.0)
        ),
        Err(ModelError::NotUnit {
            name: "clamp direction",
            ..
        })
    ));
    assert!(matches!(
        ElasticRod::uniform(0, 1.0, 1.0, 1.0, 9.81, Vector3::x()),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        DipoleArray::new(
            vec![1.0; 2],
            vec![1.0; 2],
            vec![1.0; 2],
            vec![Vector3::zeros(); 2]
        ),
        Err(ModelError::NonPositive {
            name: "pivot distance",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        DipoleArray::new(
            vec![1.0; 2],
            vec![1.0; 2],
            vec![1.0, -1.0],
            vec![Vector3::zeros(), Vector3::x()]
        ),
        Err(ModelError::NonPositive {
            name: "magnetic moment",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        LennardJones::new(vec![], 1.0, 1.0, None),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        LennardJones::new(vec![1.0; 3], 1.0, 0.0, None),
        Err(ModelError::NonPositive { name: "sigma", .. })
    ));
    assert!(matches!(
        LennardJones::new(vec![1.0; 3], 1.0, 1.0, Some(-1.0)),
        Err(ModelError::NonPositive { name: "cutoff", .. })
    ));
}

#[test]
fn states() {
    let ok = SphereState::try_new(vec![Vector3::z()], vec![Vector3::x()]);
    assert!(ok.is_ok());
    assert!(matches!(
        SphereState::try_new(vec![], vec![]),
        Err(ModelError::NoBodies)
    ));
    assert!(matches!(
        SphereState::try_new(vec![Vector3::z() * 1.1], vec![Vector3::x()]),
        Err(ModelError::NotUnit {
            name: "q",
            index: 0,
            ..
        })
    ));
    assert!(matches!(
        SphereState::try_new(vec![Vector3::z()], vec![Vector3::new(1.0, 0.0, 0.1)]),
        Err(ModelError::NotTangent { index: 0, .. })
    ));
    assert!(matches!(
        SphereState::try_new(vec![Vector3::z()], vec![]),
        Err(ModelError::DimensionMismatch { .. })
    ));
    assert!(matches!(
        SphereState::new_projected(vec![Vector3::zeros()], vec![Vector3::x()]),
        Err(ModelError::NotUnit { norm: 0.0, .. })
    ));
    assert!(matches!(
        SphereState::from_flat(&[0.0; 7]),
        Err(ModelError::DimensionMismatch { .. })
    ));
    // Errors display their data.
    let e = NFoldPendulum::new(vec![1.0, -1.0], vec![1.0, 1.0], 9.81).unwrap_err();
    assert_eq!(e.to_string(), "mass[1] = -1 must be positive");
}
