//! The action kit on every shipped action, with f64 and Dual64.

use homogeneous::testing::{
    Algebra, KitRng, Law, LiftDual, Observable, Report, Sample, Tolerances, check_all,
    check_transitive, random_se3, random_so3, random_sphere2, random_tangent_sphere2,
    random_vector, samples_from,
};
use homogeneous::{
    Action, CoadjointAction, LeftMultiplication, PowerAction, RightMultiplication, RotationAction,
    Se3Coadjoint, So3Coadjoint, Sphere2, TangentSphere2, TangentSphereAction, TransitiveAction,
    VecPowerAction,
};
use liegroup::num_dual::Dual64;
use liegroup::{LieGroup, Rn, Se3, So3};
use nalgebra::{Vector3, Vector6};
use std::f64::consts::PI;

const N_SAMPLES: usize = 40;

fn run<A, D>(name: &str, action: &A, samples: &[Sample<A>]) -> Report
where
    A: Observable<
            Group: LieGroup<Scalar = f64, Algebra: LiftDual<Dual = Algebra<D>>>
                       + LiftDual<Dual = D::Group>,
        > + LiftDual<Dual = D>,
    A::Point: LiftDual<Dual = D::Point>,
    D: Observable<Group: LieGroup<Scalar = Dual64>>,
{
    match check_all(action, samples, &Tolerances::default()) {
        Ok(report) => {
            println!("{name}: {report}");
            assert_eq!(report.samples, samples.len());
            // 7 laws with f64, the exact dual generator, 7 laws with Dual64.
            assert_eq!(report.laws.len(), 15);
            assert!(
                report
                    .laws
                    .iter()
                    .any(|r| r.scalar == "Dual64" && r.law == Law::Compatibility)
            );
            assert!(report.max_error(Law::GeneratorDual).is_some());
            report
        }
        Err(failure) => panic!("{name}: {failure}"),
    }
}

fn so3_algebra(rng: &mut KitRng) -> Vector3<f64> {
    random_vector(rng, 2.0)
}

fn se3_algebra(rng: &mut KitRng) -> Vector6<f64> {
    random_vector(rng, 1.5)
}

/// Curated small, zero and half-turn algebra elements.
fn edge_algebra() -> Vec<Vector3<f64>> {
    vec![
        Vector3::zeros(),
        Vector3::new(1e-8, -2e-8, 0.5e-8),
        Vector3::new(0.0, 0.0, 1e-100),
        Vector3::new(0.0, 0.0, PI),
        Vector3::new(PI / 2.0, 0.0, 0.0),
        Vector3::new(0.0, 0.09, 0.05),
        Vector3::new(0.06, 0.07, 0.02),
    ]
}

#[test]
fn rotation_action_on_the_sphere() {
    let action = RotationAction::new();
    let mut samples =
        samples_from::<RotationAction, _, _>(N_SAMPLES, 1, random_sphere2, so3_algebra);
    let edges = edge_algebra();
    for (i, xi) in edges.iter().enumerate() {
        let p = Sphere2::try_new(Vector3::z()).unwrap();
        let g = liegroup_exp::<RotationAction>(&edges[(i + 1) % edges.len()]);
        let h = liegroup_exp::<RotationAction>(&edges[(i + 2) % edges.len()]);
        samples.push(Sample::new(p, g, h, *xi));
    }
    run("SO(3) on S²", &action, &samples);
}

fn liegroup_exp<A: Action>(xi: &Algebra<A>) -> A::Group {
    A::Group::exp(xi)
}

#[test]
fn tangent_sphere_action() {
    let action = TangentSphereAction::new();
    let mut samples = samples_from::<TangentSphereAction, _, _>(
        N_SAMPLES,
        2,
        |rng| random_tangent_sphere2(rng, 2.0),
        se3_algebra,
    );
    let edges = edge_algebra();
    for (i, u) in edges.iter().enumerate() {
        let p = TangentSphere2::try_new(Vector3::x(), Vector3::new(0.0, 1.0, -2.0)).unwrap();
        let v = edges[(i + 3) % edges.len()];
        let xi = Vector6::new(u.x, u.y, u.z, v.x, v.y, v.z);
        let g = liegroup_exp::<TangentSphereAction>(&Vector6::new(v.x, v.y, v.z, u.x, u.y, u.z));
        samples.push(Sample::new(p, g, g.inverse(), xi));
    }
    run("SE(3) on TS²", &action, &samples);
}

#[test]
fn coadjoint_actions() {
    let samples = samples_from::<So3Coadjoint, _, _>(
        N_SAMPLES,
        3,
        |rng| random_vector(rng, 3.0),
        so3_algebra,
    );
    run("SO(3) on so(3)*", &So3Coadjoint::new(), &samples);

    let samples = samples_from::<Se3Coadjoint, _, _>(
        N_SAMPLES,
        4,
        |rng| random_vector(rng, 3.0),
        se3_algebra,
    );
    run("SE(3) on se(3)*", &Se3Coadjoint::new(), &samples);

    type ProductCoadjoint = CoadjointAction<(So3, Rn<f64, 2>)>;
    let samples = samples_from::<ProductCoadjoint, _, _>(
        N_SAMPLES,
        5,
        |rng| (random_vector(rng, 1.0), random_vector(rng, 1.0)),
        |rng| (random_vector(rng, 2.0), random_vector(rng, 2.0)),
    );
    run("SO(3)×ℝ² on its dual", &ProductCoadjoint::new(), &samples);
}

#[test]
fn left_multiplication_over_several_groups() {
    let samples = samples_from::<LeftMultiplication<Rn<f64, 3>>, _, _>(
        N_SAMPLES,
        6,
        |rng| Rn::new(random_vector(rng, 2.0)),
        |rng| random_vector(rng, 2.0),
    );
    run("ℝ³ on itself", &LeftMultiplication::new(), &samples);

    let samples = samples_from::<LeftMultiplication<So3>, _, _>(
        N_SAMPLES,
        7,
        |rng| random_so3(rng, 3.0),
        so3_algebra,
    );
    run("SO(3) on itself", &LeftMultiplication::new(), &samples);

    let samples = samples_from::<LeftMultiplication<Se3>, _, _>(
        N_SAMPLES,
        8,
        |rng| random_se3(rng, 3.0, 2.0),
        se3_algebra,
    );
    run("SE(3) on itself", &LeftMultiplication::new(), &samples);

    let samples = samples_from::<LeftMultiplication<(So3, Rn<f64, 3>)>, _, _>(
        N_SAMPLES,
        9,
        |rng| (random_so3(rng, 3.0), Rn::new(random_vector(rng, 1.0))),
        |rng| (so3_algebra(rng), random_vector(rng, 1.0)),
    );
    run("SO(3)×ℝ³ on itself", &LeftMultiplication::new(), &samples);

    let samples = samples_from::<LeftMultiplication<[Se3; 2]>, _, _>(
        N_SAMPLES,
        10,
        |rng| [random_se3(rng, 3.0, 1.0), random_se3(rng, 1.0, 1.0)],
        |rng| [se3_algebra(rng), se3_algebra(rng)],
    );
    run("SE(3)² on itself", &LeftMultiplication::new(), &samples);
}

#[test]
fn right_multiplication_over_several_groups() {
    let samples = samples_from::<RightMultiplication<Rn<f64, 3>>, _, _>(
        N_SAMPLES,
        31,
        |rng| Rn::new(random_vector(rng, 2.0)),
        |rng| random_vector(rng, 2.0),
    );
    run(
        "ℝ³ on itself (right)",
        &RightMultiplication::new(),
        &samples,
    );

    let samples = samples_from::<RightMultiplication<So3>, _, _>(
        N_SAMPLES,
        32,
        |rng| random_so3(rng, 3.0),
        so3_algebra,
    );
    run(
        "SO(3) on itself (right)",
        &RightMultiplication::new(),
        &samples,
    );

    let samples = samples_from::<RightMultiplication<Se3>, _, _>(
        N_SAMPLES,
        33,
        |rng| random_se3(rng, 3.0, 2.0),
        se3_algebra,
    );
    run(
        "SE(3) on itself (right)",
        &RightMultiplication::new(),
        &samples,
    );

    // The body-frame rigid body: attitude by right multiplication, momentum by translation.
    type Body = (RightMultiplication<So3>, LeftMultiplication<Rn<f64, 3>>);
    let samples = samples_from::<Body, _, _>(
        N_SAMPLES,
        34,
        |rng| (random_so3(rng, 3.0), Rn::new(random_vector(rng, 1.0))),
        |rng| (so3_algebra(rng), random_vector(rng, 1.0)),
    );
    run("SO(3) (right) × ℝ³", &Body::default(), &samples);
}

/// `p exp(−ξ)` is `exp(−Ad_p ξ) p`: the right action's orbit is the left action's orbit of the
/// generator, for every point and algebra element (the identity the generator rests on).
#[test]
fn right_multiplication_orbit_is_left_orbit_of_its_generator() {
    let samples = samples_from::<RightMultiplication<Se3>, _, _>(
        N_SAMPLES,
        35,
        |rng| random_se3(rng, 3.0, 2.0),
        se3_algebra,
    );
    let (right, left) = (
        RightMultiplication::<Se3>::new(),
        LeftMultiplication::<Se3>::new(),
    );
    for s in &samples {
        let a = right.act_exp(&s.xi, &s.p);
        let b = left.act_exp(&right.generator(&s.xi, &s.p), &s.p);
        let err = (a.compose(&b.inverse())).log().norm();
        let scale = 1.0 + s.xi.norm() * s.p.log().norm().max(1.0).powi(2);
        assert!(err < 64.0 * f64::EPSILON * scale, "{err:e}");
    }
}

#[test]
fn product_actions() {
    type Pair = (RotationAction, TangentSphereAction);
    let samples = samples_from::<Pair, _, _>(
        N_SAMPLES,
        11,
        |rng| (random_sphere2(rng), random_tangent_sphere2(rng, 1.0)),
        |rng| (so3_algebra(rng), se3_algebra(rng)),
    );
    run("SO(3)×SE(3) on S²×TS²", &Pair::default(), &samples);

    type Triple = (RotationAction, So3Coadjoint, LeftMultiplication<So3>);
    let samples = samples_from::<Triple, _, _>(
        N_SAMPLES,
        12,
        |rng| {
            (
                random_sphere2(rng),
                random_vector(rng, 1.0),
                random_so3(rng, 3.0),
            )
        },
        |rng| (so3_algebra(rng), so3_algebra(rng), so3_algebra(rng)),
    );
    run("SO(3)³ on S²×so(3)*×SO(3)", &Triple::default(), &samples);

    type Quad = (
        TangentSphereAction,
        TangentSphereAction,
        Se3Coadjoint,
        RotationAction,
    );
    let samples = samples_from::<Quad, _, _>(
        N_SAMPLES,
        13,
        |rng| {
            (
                random_tangent_sphere2(rng, 1.0),
                random_tangent_sphere2(rng, 3.0),
                random_vector(rng, 1.0),
                random_sphere2(rng),
            )
        },
        |rng| {
            (
                se3_algebra(rng),
                se3_algebra(rng),
                se3_algebra(rng),
                so3_algebra(rng),
            )
        },
    );
    run("four factors", &Quad::default(), &samples);
}

#[test]
fn power_actions() {
    type P3 = PowerAction<TangentSphereAction, 3>;
    let samples = samples_from::<P3, _, _>(
        N_SAMPLES,
        14,
        |rng| core::array::from_fn(|_| random_tangent_sphere2(rng, 1.0)),
        |rng| core::array::from_fn(|_| se3_algebra(rng)),
    );
    run("SE(3)³ on (TS²)³", &P3::default(), &samples);

    for n in [1, 4] {
        type V = VecPowerAction<TangentSphereAction>;
        let samples = samples_from::<V, _, _>(
            N_SAMPLES,
            15 + n as u64,
            |rng| (0..n).map(|_| random_tangent_sphere2(rng, 1.0)).collect(),
            |rng| (0..n).map(|_| se3_algebra(rng)).collect(),
        );
        run(&format!("SE(3)^{n} on (TS²)^{n}"), &V::default(), &samples);
    }

    type VS = VecPowerAction<RotationAction>;
    let samples = samples_from::<VS, _, _>(
        N_SAMPLES,
        20,
        |rng| (0..3).map(|_| random_sphere2(rng)).collect(),
        |rng| (0..3).map(|_| so3_algebra(rng)).collect(),
    );
    run("SO(3)^3 on (S²)^3", &VS::default(), &samples);
}

fn pairs<P>(n: usize, seed: u64, mut point: impl FnMut(&mut KitRng) -> P) -> Vec<(P, P)> {
    let mut rng = homogeneous::testing::kit_rng(seed);
    (0..n).map(|_| (point(&mut rng), point(&mut rng))).collect()
}

fn transitive<A: TransitiveAction + Observable>(
    name: &str,
    action: &A,
    pairs: &[(A::Point, A::Point)],
) {
    match check_transitive(action, pairs, &Tolerances::default()) {
        Ok(report) => println!("{name}: {report}"),
        Err(failure) => panic!("{name}: {failure}"),
    }
}

#[test]
fn transitivity() {
    let mut s = pairs(N_SAMPLES, 30, random_sphere2);
    let z = Sphere2::try_new(Vector3::z()).unwrap();
    let minus_z = Sphere2::try_new(-Vector3::z()).unwrap();
    let near = Sphere2::new_normalize(Vector3::new(1e-9, 0.0, -1.0)).unwrap();
    s.extend([(z, z), (z, minus_z), (minus_z, z), (z, near)]);
    transitive("S²", &RotationAction::new(), &s);

    let mut t = pairs(N_SAMPLES, 31, |rng| random_tangent_sphere2(rng, 2.0));
    let a = TangentSphere2::try_new(Vector3::z(), Vector3::x()).unwrap();
    let b = TangentSphere2::try_new(-Vector3::z(), Vector3::new(0.0, -3.0, 0.0)).unwrap();
    t.extend([(a, a), (a, b), (b, a)]);
    transitive("TS²", &TangentSphereAction::new(), &t);

    let p = pairs(N_SAMPLES, 32, |rng| {
        [
            random_tangent_sphere2(rng, 1.0),
            random_tangent_sphere2(rng, 1.0),
        ]
    });
    transitive(
        "(TS²)²",
        &PowerAction::<TangentSphereAction, 2>::default(),
        &p,
    );

    let v = pairs(N_SAMPLES, 33, |rng| {
        (0..5)
            .map(|_| random_tangent_sphere2(rng, 1.0))
            .collect::<Vec<_>>()
    });
    transitive(
        "(TS²)⁵",
        &VecPowerAction::<TangentSphereAction>::default(),
        &v,
    );

    let tp = pairs(N_SAMPLES, 34, |rng| {
        (random_sphere2(rng), random_se3(rng, 3.0, 1.0))
    });
    transitive(
        "S² × SE(3)",
        &(RotationAction::new(), LeftMultiplication::<Se3>::new()),
        &tp,
    );
}
