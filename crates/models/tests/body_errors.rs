//! Bad parameters of the rigid body, the heavy top and the quadrotor system give typed errors.

use liegroup::So3;
use models::quadrotor::{Gains, GeometricController, ParabolicPath};
use models::{FreeRigidBody, HeavyTop, ModelError, QuadrotorLoad, QuadrotorState};
use nalgebra::{Matrix3, Vector3};

fn diag(a: f64, b: f64, c: f64) -> Matrix3<f64> {
    Matrix3::from_diagonal(&Vector3::new(a, b, c))
}

#[test]
fn rigid_body_inertia_validation() {
    assert!(FreeRigidBody::new(diag(1.0, 2.0, 3.0)).is_ok());
    let mut m = diag(1.0, 2.0, 3.0);
    m[(0, 1)] = 0.1;
    assert!(matches!(
        FreeRigidBody::new(m),
        Err(ModelError::InertiaNotSymmetric { i: 0, j: 1, .. })
    ));
    m[(1, 0)] = 0.1;
    assert!(FreeRigidBody::new(m).is_ok());
    // Symmetric but indefinite: the second Cholesky pivot is 1 − 4 < 0.
    let m = Matrix3::new(1.0, 2.0, 0.0, 2.0, 1.0, 0.0, 0.0, 0.0, 1.0);
    assert!(matches!(
        FreeRigidBody::new(m),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 1, .. })
    ));
    assert!(matches!(
        FreeRigidBody::new(diag(1.0, 0.0, 1.0)),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 1, .. })
    ));
    assert!(matches!(
        FreeRigidBody::new(diag(1.0, f64::NAN, 1.0)),
        Err(ModelError::NonFinite { .. })
    ));
    assert!(matches!(
        FreeRigidBody::principal(Vector3::new(1.0, -2.0, 3.0)),
        Err(ModelError::NonPositive {
            name: "moment of inertia",
            index: 1,
            ..
        })
    ));
    let body = FreeRigidBody::landau_lifshitz();
    assert!(matches!(
        body.lie_poisson_sphere(0.0),
        Err(ModelError::NonPositive { name: "radius", .. })
    ));
    let sphere = body.lie_poisson_sphere(1.0).unwrap();
    assert!(matches!(
        sphere.field.point(&Vector3::zeros()),
        Err(ModelError::NonPositive { .. })
    ));
}

#[test]
fn heavy_top_parameters() {
    let j = diag(0.234375, 0.46875, 0.234375);
    let x = Vector3::new(0.0, 1.0, 0.0);
    assert!(HeavyTop::new(15.0, j, x, 9.81).is_ok());
    assert!(matches!(
        HeavyTop::new(0.0, j, x, 9.81),
        Err(ModelError::NonPositive { name: "mass", .. })
    ));
    assert!(matches!(
        HeavyTop::new(-1.0, j, x, 9.81),
        Err(ModelError::NonPositive { name: "mass", .. })
    ));
    assert!(matches!(
        HeavyTop::new(15.0, j, Vector3::zeros(), 9.81),
        Err(ModelError::NonPositive {
            name: "centre of mass distance",
            ..
        })
    ));
    assert!(matches!(
        HeavyTop::new(15.0, j, x, -9.81),
        Err(ModelError::Negative { name: "g", .. })
    ));
    assert!(matches!(
        HeavyTop::new(15.0, diag(1.0, -1.0, 1.0), x, 9.81),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 1, .. })
    ));
    let mut bad = j;
    bad[(2, 0)] = 0.01;
    assert!(matches!(
        HeavyTop::new(15.0, bad, x, 9.81),
        Err(ModelError::InertiaNotSymmetric { i: 0, j: 2, .. })
    ));
    assert!(matches!(
        HeavyTop::new(15.0, j, Vector3::new(0.0, f64::INFINITY, 0.0), 9.81),
        Err(ModelError::NonFinite { .. })
    ));
    // The preset's inertia about the fixed point.
    let top = HeavyTop::bruls_cardona();
    assert!((top.inertia() - diag(15.234375, 0.46875, 15.234375)).amax() < 1e-14);
    assert_eq!(FreeRigidBody::bruls_cardona_body().inertia(), top.inertia());
}

fn quad(
    load: f64,
    m: [f64; 2],
    l: [f64; 2],
    j: [Matrix3<f64>; 2],
    g: f64,
) -> Result<QuadrotorLoad, ModelError> {
    QuadrotorLoad::new(
        load,
        m,
        l,
        j,
        g,
        GeometricController::cclmo22(),
        ParabolicPath::cclmo22(),
    )
}

#[test]
fn quadrotor_parameters() {
    let j = diag(0.0820, 0.0845, 0.1377);
    assert!(quad(0.4, [0.755; 2], [0.6, 0.8], [j, j], 9.81).is_ok());
    assert!(matches!(
        quad(0.0, [0.755; 2], [0.6, 0.8], [j, j], 9.81),
        Err(ModelError::NonPositive {
            name: "load mass",
            ..
        })
    ));
    assert!(matches!(
        quad(0.4, [0.755, -1.0], [0.6, 0.8], [j, j], 9.81),
        Err(ModelError::NonPositive {
            name: "mass",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        quad(0.4, [0.755; 2], [0.0, 0.8], [j, j], 9.81),
        Err(ModelError::NonPositive {
            name: "length",
            index: 0,
            ..
        })
    ));
    assert!(matches!(
        quad(0.4, [0.755; 2], [0.6, 0.8], [j, diag(1.0, 1.0, -1.0)], 9.81),
        Err(ModelError::InertiaNotPositiveDefinite { pivot: 2, .. })
    ));
    assert!(matches!(
        quad(0.4, [0.755; 2], [0.6, 0.8], [j, j], -1.0),
        Err(ModelError::Negative { name: "g", .. })
    ));
    assert!(matches!(
        quad(f64::NAN, [0.755; 2], [0.6, 0.8], [j, j], 9.81),
        Err(ModelError::NonFinite { .. })
    ));
}

#[test]
fn controller_parameters() {
    let (s, c) = 30f64.to_radians().sin_cos();
    let r = [Vector3::new(s, 0.0, c), Vector3::new(-s, 0.0, c)];
    let e2 = Vector3::y();
    assert!(GeometricController::new(Gains::cclmo22(), r, e2, [e2, e2]).is_ok());
    let gains = Gains {
        epsilon: 0.0,
        ..Gains::cclmo22()
    };
    assert!(matches!(
        GeometricController::new(gains, r, e2, [e2, e2]),
        Err(ModelError::NonPositive {
            name: "epsilon",
            ..
        })
    ));
    let gains = Gains {
        k_q: -16.0,
        ..Gains::cclmo22()
    };
    assert!(matches!(
        GeometricController::new(gains, r, e2, [e2, e2]),
        Err(ModelError::NonPositive { name: "k_q", .. })
    ));
    assert!(matches!(
        GeometricController::new(Gains::cclmo22(), [r[0] * 2.0, r[1]], e2, [e2, e2]),
        Err(ModelError::NotUnit {
            name: "r_d",
            index: 0,
            ..
        })
    ));
    // A link pointing up (from the quadrotor to the load) is not a valid formation.
    assert!(matches!(
        GeometricController::new(Gains::cclmo22(), [r[0], -r[1]], e2, [e2, e2]),
        Err(ModelError::NonPositive {
            name: "r_d·e3",
            index: 1,
            ..
        })
    ));
    assert!(matches!(
        GeometricController::new(Gains::cclmo22(), r, e2 * 0.5, [e2, e2]),
        Err(ModelError::NotUnit { name: "s_d", .. })
    ));
    assert!(matches!(
        GeometricController::new(Gains::cclmo22(), r, e2, [e2, Vector3::zeros()]),
        Err(ModelError::NotUnit {
            name: "b2_d",
            index: 1,
            ..
        })
    ));
}

#[test]
fn quadrotor_states() {
    let x = QuadrotorLoad::cclmo22_state();
    assert!(QuadrotorState::try_new(x.y, x.v, x.attitude, x.body_rate, x.q, x.omega).is_ok());
    assert!(matches!(
        QuadrotorState::try_new(
            x.y,
            x.v,
            x.attitude,
            x.body_rate,
            [x.q[0] * 1.1, x.q[1]],
            x.omega
        ),
        Err(ModelError::NotUnit {
            name: "q",
            index: 0,
            ..
        })
    ));
    assert!(matches!(
        QuadrotorState::try_new(
            x.y,
            x.v,
            x.attitude,
            x.body_rate,
            x.q,
            [Vector3::zeros(), x.q[1]]
        ),
        Err(ModelError::NotTangent { index: 1, .. })
    ));
    assert!(matches!(
        QuadrotorState::try_new(
            Vector3::new(f64::NAN, 0.0, 0.0),
            x.v,
            [So3::identity(); 2],
            x.body_rate,
            x.q,
            x.omega
        ),
        Err(ModelError::NonFinite { name: "y", .. })
    ));
}
