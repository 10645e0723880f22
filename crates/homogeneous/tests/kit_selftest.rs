//! The kit catches wrong actions: each deliberately broken variant of the rotation action on S²
//! must fail with the law it breaks.

use homogeneous::testing::{
    Failure, Law, LiftDual, Observable, Sample, Tolerances, ambient_chart, check_action, check_all,
    check_generator_dual, check_transitive, random_sphere2, random_vector, samples_from,
};
use homogeneous::{
    Action, ActionInPlace, ManifoldPoint, RotationAction, Sphere2, TransitiveAction,
};
use liegroup::num_dual::Dual64;
use liegroup::{LieGroup, So3};
use nalgebra::{RealField, Vector3};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bug {
    None,
    /// generator `q × ξ` instead of `ξ × q`.
    GeneratorSign,
    /// generator off by a factor 1 + 1e-4.
    GeneratorScale,
    /// `act(g, p) = g⁻¹ p` (a right action).
    RightAction,
    /// `act_exp(ξ, p) = exp(2ξ)·p`.
    ActExpDoubled,
    /// `act_exp` returns `p` when `ξ == 0` exactly (derivative lost at 0 with dual numbers).
    ZeroBranch,
    /// `act` adds a small drift off the sphere.
    Drift,
    /// the generator has 2 coordinates.
    ShortTangent,
    /// the transporter is the identity.
    LazyTransporter,
}

#[derive(Clone, Copy, Debug)]
struct Broken<T> {
    bug: Bug,
    inner: RotationAction<T>,
}

impl<T> Broken<T> {
    fn new(bug: Bug) -> Self {
        Self {
            bug,
            inner: RotationAction::new(),
        }
    }
}

impl<T: RealField + Copy> Action for Broken<T> {
    type Group = So3<T>;
    type Point = Sphere2<T>;
    type Tangent = nalgebra::DVector<T>;

    fn algebra_zero(&self, _p: &Sphere2<T>) -> nalgebra::Vector3<T> {
        nalgebra::Vector3::zeros()
    }

    fn act(&self, g: &So3<T>, p: &Sphere2<T>) -> Sphere2<T> {
        match self.bug {
            Bug::RightAction => self.inner.act(&g.inverse(), p),
            Bug::Drift => {
                let q = self.inner.act(g, p);
                Sphere2::new_unchecked(
                    q.q() * nalgebra::convert::<f64, T>(1.0 + 1e-9)
                        - p.q() * nalgebra::convert::<f64, T>(1e-9),
                )
            }
            _ => self.inner.act(g, p),
        }
    }

    fn act_exp(&self, xi: &Vector3<T>, p: &Sphere2<T>) -> Sphere2<T> {
        match self.bug {
            Bug::ActExpDoubled => self
                .inner
                .act_exp(&(xi * nalgebra::convert::<f64, T>(2.0)), p),
            Bug::ZeroBranch if xi.iter().all(|x| *x == T::zero()) => *p,
            Bug::RightAction | Bug::Drift => self.act(&So3::<T>::exp(xi), p),
            _ => self.inner.act_exp(xi, p),
        }
    }

    fn generator(&self, xi: &Vector3<T>, p: &Sphere2<T>) -> nalgebra::DVector<T> {
        let g = xi.cross(p.q());
        let g = match self.bug {
            Bug::GeneratorSign => -g,
            Bug::GeneratorScale => g * nalgebra::convert::<f64, T>(1.0 + 1e-4),
            _ => g,
        };
        if self.bug == Bug::ShortTangent {
            nalgebra::DVector::from_column_slice(&g.as_slice()[..2])
        } else {
            nalgebra::DVector::from_column_slice(g.as_slice())
        }
    }

    fn point_is_finite(&self, p: &Sphere2<T>) -> bool {
        p.all_finite()
    }
}

impl<T: RealField + Copy> ActionInPlace for Broken<T> {}

impl<T: homogeneous::testing::KitScalar> Observable for Broken<T> {
    fn chart(&self, _base: &Sphere2<T>, p: &Sphere2<T>) -> Vec<T> {
        ambient_chart(p)
    }
    fn constraint_error(&self, p: &Sphere2<T>) -> T {
        p.constraint_error()
    }
}

impl LiftDual for Broken<f64> {
    type Dual = Broken<Dual64>;
    fn lift_dual(&self) -> Broken<Dual64> {
        Broken::new(self.bug)
    }
}

impl<T: RealField + Copy> TransitiveAction for Broken<T> {
    fn transporter(
        &self,
        from: &Sphere2<T>,
        to: &Sphere2<T>,
    ) -> Result<So3<T>, homogeneous::HomogeneousError> {
        if self.bug == Bug::LazyTransporter {
            Ok(So3::<T>::exp(&Vector3::zeros()))
        } else {
            self.inner.transporter(from, to)
        }
    }
}

fn samples() -> Vec<Sample<Broken<f64>>> {
    let mut s =
        samples_from::<Broken<f64>, _, _>(10, 99, random_sphere2, |rng| random_vector(rng, 2.0));
    // one sample with ξ = 0 (where the ZeroBranch bug lives)
    let p = Sphere2::try_new(Vector3::z()).unwrap();
    let g = s[0].g;
    s.push(Sample::new(p, g, g, Vector3::zeros()));
    s.rotate_right(1);
    s
}

fn violated(result: Result<homogeneous::testing::Report, Failure>) -> (Law, &'static str) {
    match result {
        Err(Failure::LawViolated {
            law,
            scalar,
            error,
            tolerance,
            ..
        }) => {
            assert!(error.is_nan() || error > tolerance);
            (law, scalar)
        }
        other => panic!("expected a violated law, got {other:?}"),
    }
}

#[test]
fn the_correct_action_passes() {
    let tol = Tolerances::default();
    check_all(&Broken::<f64>::new(Bug::None), &samples(), &tol).unwrap();
    let pairs: Vec<_> = samples()
        .iter()
        .map(|s| (s.p, Sphere2::try_new(Vector3::x()).unwrap()))
        .collect();
    check_transitive(&Broken::<f64>::new(Bug::None), &pairs, &tol).unwrap();
}

#[test]
fn each_bug_is_caught_by_its_law() {
    let tol = Tolerances::default();
    let s = samples();
    let f64_check = |bug| violated(check_action(&Broken::<f64>::new(bug), &s, &tol));
    assert_eq!(
        f64_check(Bug::GeneratorSign),
        (Law::GeneratorFiniteDifference, "f64")
    );
    assert_eq!(
        f64_check(Bug::GeneratorScale),
        (Law::GeneratorFiniteDifference, "f64")
    );
    assert_eq!(f64_check(Bug::RightAction), (Law::Compatibility, "f64"));
    assert_eq!(f64_check(Bug::ActExpDoubled), (Law::ActExp, "f64"));
    assert_eq!(f64_check(Bug::Drift), (Law::Compatibility, "f64"));

    let dual_check = |bug| violated(check_generator_dual(&Broken::<f64>::new(bug), &s, &tol));
    assert_eq!(
        dual_check(Bug::GeneratorSign),
        (Law::GeneratorDual, "Dual64")
    );
    assert_eq!(
        dual_check(Bug::GeneratorScale),
        (Law::GeneratorDual, "Dual64")
    );
    assert_eq!(
        dual_check(Bug::ActExpDoubled),
        (Law::GeneratorDual, "Dual64")
    );
    // The zero branch passes every f64 law (finite differences never evaluate at ξ = 0 exactly)…
    check_action(&Broken::<f64>::new(Bug::ZeroBranch), &s, &tol).unwrap();
    // …and is caught by the exact dual-number derivative.
    assert_eq!(dual_check(Bug::ZeroBranch), (Law::GeneratorDual, "Dual64"));
    assert_eq!(
        violated(check_all(&Broken::<f64>::new(Bug::ZeroBranch), &s, &tol)),
        (Law::GeneratorDual, "Dual64")
    );
}

#[test]
fn drift_off_the_manifold_is_caught() {
    // With the composition law loosened, the drift shows up as points leaving the sphere.
    let tol = Tolerances {
        laws: 1.0,
        ..Tolerances::default()
    };
    assert_eq!(
        violated(check_action(
            &Broken::<f64>::new(Bug::Drift),
            &samples(),
            &tol
        )),
        (Law::OnManifold, "f64")
    );
    // Invalid sample points are refused as such.
    let mut s = samples();
    s[3].p = Sphere2::new_unchecked(Vector3::new(0.0, 0.0, 1.0 + 1e-6));
    match check_action(&Broken::<f64>::new(Bug::None), &s, &Tolerances::default()) {
        Err(Failure::LawViolated {
            law: Law::ValidSample,
            sample: 3,
            ..
        }) => {}
        other => panic!("expected ValidSample at 3, got {other:?}"),
    }
}

#[test]
fn structural_failures() {
    let tol = Tolerances::default();
    assert_eq!(
        check_action(&Broken::<f64>::new(Bug::None), &[], &tol),
        Err(Failure::EmptySampleSet)
    );
    assert_eq!(
        check_generator_dual(&Broken::<f64>::new(Bug::None), &[], &tol),
        Err(Failure::EmptySampleSet)
    );
    assert_eq!(
        check_transitive(&Broken::<f64>::new(Bug::None), &[], &tol),
        Err(Failure::EmptySampleSet)
    );
    assert_eq!(
        check_action(&Broken::<f64>::new(Bug::ShortTangent), &samples(), &tol),
        Err(Failure::ChartMismatch {
            chart: 3,
            tangent: 2
        })
    );
    let pairs = vec![(
        Sphere2::try_new(Vector3::x()).unwrap(),
        Sphere2::try_new(Vector3::y()).unwrap(),
    )];
    let (law, _) = violated(check_transitive(
        &Broken::<f64>::new(Bug::LazyTransporter),
        &pairs,
        &tol,
    ));
    assert_eq!(law, Law::Transitivity);
    // Failures name the law, the sample, the error and the tolerance.
    let msg = check_action(&Broken::<f64>::new(Bug::GeneratorSign), &samples(), &tol)
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("generator") && msg.contains("sample") && msg.contains("tolerance"),
        "{msg}"
    );
}
