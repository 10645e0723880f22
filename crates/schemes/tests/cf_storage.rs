//! The commutator-free / Crouch–Grossman engine and the two-commutator RKMK4 have one step body,
//! instantiated on local values for fixed-size problems and on the stepper's heap buffers for
//! runtime-sized ones. The same problem posed on SO(3) × ℝ³ (fixed size) and on the runtime
//! power `Vec<SO(3) × ℝ³>` with one factor (heap buffers) must then give the same steps to the
//! bit, the same error estimates and work counters, and report a non-finite field value at the
//! time of the same (first) stage, for every scheme of the catalogue and for schemes with more
//! stages than any shipped one (CF4 composed with itself, built here).
//!
//! The field is a heavy top in body momentum with a full inertia matrix and a time-dependent
//! centre of mass: state-dependent, non-autonomous and non-commuting.

use homogeneous::LeftMultiplication;
use liegroup::{LieGroup, Rn, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::{CF4, COMMUTATOR_FREE};
use schemes::{
    Base, CfEmbedded, CfStage, CommutatorFree, CommutatorFreeScheme, ExpProduct, GroupLogDistance,
    Problem, Rkmk, Rkmk4TwoCommutators, SchemeError, Stepper, Tolerance, measure_order,
};

type P = (So3<f64>, Rn<f64, 3>);
type Alg = (Vector3<f64>, Vector3<f64>);
type A = LeftMultiplication<P>;
type VecA = LeftMultiplication<Vec<P>>;

/// `f(R, Π) = (RΩ, Π × Ω + Γ × X)`, `Ω = J⁻¹Π`, `Γ = Rᵀe₃`.
fn field(t: f64, p: &P) -> Alg {
    let j_inv = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.8, 0.05, 0.0, 0.05, 0.3);
    let omega = j_inv * p.1.0;
    let gamma = p.0.inverse_rotate(&Vector3::z());
    let x = Vector3::new(0.0, 2.0 + 0.1 * t.sin(), 0.3);
    (p.0.rotate(&omega), p.1.0.cross(&omega) + gamma.cross(&x))
}

/// The same field on the runtime power with one factor (the field of `Vec<P>` takes `&Vec<P>`).
#[allow(clippy::ptr_arg)]
fn field_vec(t: f64, p: &Vec<P>) -> Vec<Alg> {
    vec![field(t, &p[0])]
}

fn start() -> P {
    (
        So3::exp(&Vector3::new(0.3, -0.2, 0.9)),
        Rn::new(Vector3::new(1.0, 2.0, -0.5)),
    )
}

/// `scheme` composed with itself `m` times over sub-steps `h/m`, as one commutator-free scheme
/// of `m·s` stages and the same order: the first stage of piece `p > 0` is the update point
/// of piece `p − 1` (its product, shifted), the other stages and the update of piece `p` start
/// from that stage where the original starts from `y₀`. Coefficients are divided by `m`,
/// nodes are `(p + cᵢ)/m`. Leaked: schemes hold `'static` slices.
fn compose(scheme: &CommutatorFreeScheme, m: usize) -> CommutatorFreeScheme {
    let s = scheme.stages.len();
    let scale = 1.0 / m as f64;
    // The product `q` of piece `p` (whose first stage has index `p·s`).
    let shift = |q: &ExpProduct, p: usize| -> ExpProduct {
        let base = match q.base {
            Base::Start if p == 0 => Base::Start,
            Base::Start => Base::Stage(p * s),
            Base::Stage(k) => Base::Stage(p * s + k),
        };
        let factors: Vec<&'static [f64]> = q
            .factors
            .iter()
            .map(|row| {
                let mut shifted = vec![0.0; p * s];
                shifted.extend(row.iter().map(|a| a * scale));
                &*Vec::leak(shifted)
            })
            .collect();
        ExpProduct::new(base, Vec::leak(factors))
    };
    let mut stages = Vec::with_capacity(m * s);
    for p in 0..m {
        for (i, stage) in scheme.stages.iter().enumerate() {
            let point = if i == 0 && p > 0 {
                shift(&scheme.update, p - 1)
            } else {
                shift(&stage.point, p)
            };
            stages.push(CfStage::new((p as f64 + stage.c) * scale, point));
        }
    }
    let composed = CommutatorFreeScheme {
        name: Box::leak(format!("{} ×{m}", scheme.name).into_boxed_str()),
        order: scheme.order,
        reference: scheme.reference,
        stages: Vec::leak(stages),
        update: shift(&scheme.update, m - 1),
        embedded: scheme.embedded.map(|e| CfEmbedded {
            order: e.order,
            update: shift(&e.update, m - 1),
        }),
    };
    composed
        .validate()
        .expect("a composition of a valid scheme is valid");
    composed
}

/// Every catalogue scheme, and CF4 composed 3 times (12 stages: local arrays of 16) and 5 times
/// (20 stages: more than the local arrays hold, heap buffers on every problem).
fn schemes() -> Vec<CommutatorFreeScheme> {
    let mut all: Vec<CommutatorFreeScheme> = COMMUTATOR_FREE.iter().map(|s| **s).collect();
    all.push(compose(&CF4, 3));
    all.push(compose(&CF4, 5));
    all
}

#[test]
fn compositions_have_the_stage_counts_and_the_collapse_of_their_order() {
    for m in [3, 5] {
        let c = compose(&CF4, m);
        assert_eq!(c.stages_count(), 4 * m);
        assert_eq!(c.stages_for_update(), 4 * m);
        // Each piece: 3 stage exponentials, 2 update exponentials (the next piece's first
        // stage, or the update).
        assert_eq!(c.exponential_count(), 5 * m);
        assert!(
            c.stages_count()
                > COMMUTATOR_FREE
                    .iter()
                    .map(|s| s.stages_count())
                    .max()
                    .unwrap()
        );
        let report = c.verify_abelian_order();
        assert!(
            report.order >= 4,
            "{}: abelian order {}",
            c.name,
            report.order
        );
    }
}

/// Local values and heap buffers: equal steps (and error estimates for pairs) over a chain.
#[test]
fn fixed_size_and_heap_steps_are_bitwise_equal_for_every_scheme() {
    let (action, vec_action) = (A::new(), VecA::new());
    let tol = Tolerance::new(1e-8, 1e-8).unwrap();
    let h = 0.01;
    for scheme in schemes() {
        for with_tol in [false, true] {
            if with_tol && scheme.embedded.is_none() {
                continue;
            }
            let tol = with_tol.then_some(&tol);
            let mut fixed = CommutatorFree::<A>::new(&scheme)
                .unwrap()
                .with_distance(GroupLogDistance);
            let mut heap = CommutatorFree::<VecA>::new(&scheme)
                .unwrap()
                .with_distance(GroupLogDistance);
            let (mut y, mut yv) = (start(), vec![start()]);
            for i in 0..300 {
                let t = h * f64::from(i);
                let a = fixed.step(&action, &field, t, &y, h, tol).unwrap();
                let b = heap.step(&vec_action, &field_vec, t, &yv, h, tol).unwrap();
                assert_eq!(a.y, b.y[0], "{} step {i}", scheme.name);
                assert_eq!(a.error, b.error, "{} step {i}", scheme.name);
                assert_eq!(a.error.is_some(), with_tol, "{}", scheme.name);
                (y, yv) = (a.y, b.y);
            }
            assert_eq!(fixed.stats(), heap.stats(), "{}", scheme.name);
            let per_step = if with_tol {
                scheme.exponential_count_with_embedded()
            } else {
                scheme.exponential_count()
            };
            assert_eq!(fixed.stats().exps, 300 * per_step, "{}", scheme.name);
        }
    }
}

#[test]
fn two_commutator_rkmk4_fixed_size_and_heap_steps_are_bitwise_equal() {
    let (action, vec_action) = (A::new(), VecA::new());
    let (mut fixed, mut heap) = (
        Rkmk4TwoCommutators::<A>::new(),
        Rkmk4TwoCommutators::<VecA>::new(),
    );
    let (mut y, mut yv) = (start(), vec![start()]);
    for i in 0..1000 {
        let t = 0.01 * f64::from(i);
        y = fixed.step(&action, &field, t, &y, 0.01, None).unwrap().y;
        yv = heap
            .step(&vec_action, &field_vec, t, &yv, 0.01, None)
            .unwrap()
            .y;
        assert_eq!(y, yv[0], "step {i}");
    }
    assert_eq!(fixed.stats(), heap.stats());
}

fn non_finite_time<Y>(r: Result<Y, SchemeError>) -> Option<f64> {
    match r {
        Err(SchemeError::NonFinite { t, .. }) => Some(t),
        Ok(_) => None,
        Err(other) => panic!("expected NonFinite, got {other}"),
    }
}

/// A field that is NaN (or infinite) from time `after` on. Stage `i` of a step from `t = 0`
/// is evaluated at `h·cᵢ`; the stages before the first one with `h·cᵢ > after` see only
/// finite values, so the error must name that stage's time.
#[test]
fn a_non_finite_field_is_reported_at_the_first_stage_that_produced_it() {
    let (action, vec_action) = (A::new(), VecA::new());
    let h = 0.01;
    for scheme in schemes() {
        let n = scheme.stages_for_update();
        let mut nodes: Vec<f64> = scheme.stages[..n].iter().map(|s| s.c).collect();
        nodes.sort_by(f64::total_cmp);
        nodes.dedup();
        // Thresholds below, between and above the nodes.
        let mut thresholds = vec![-1.0];
        thresholds.extend(nodes.windows(2).map(|w| 0.5 * (w[0] + w[1])));
        thresholds.push(2.0);
        for theta in thresholds {
            let after = h * theta;
            let expected = scheme.stages[..n]
                .iter()
                .find(|s| h * s.c > after)
                .map(|s| 0.0 + h * s.c);
            for bad_value in [f64::NAN, f64::INFINITY] {
                let bad = |t: f64, p: &P| {
                    let mut k = field(t, p);
                    if t > after {
                        k.1.y = bad_value;
                    }
                    k
                };
                let bad_vec = |t: f64, p: &Vec<P>| vec![bad(t, &p[0])];
                let mut fixed = CommutatorFree::<A>::new(&scheme).unwrap();
                let mut heap = CommutatorFree::<VecA>::new(&scheme).unwrap();
                let a = fixed.step(&action, &bad, 0.0, &start(), h, None);
                let b = heap.step(&vec_action, &bad_vec, 0.0, &vec![start()], h, None);
                let what = format!("{} θ = {theta} ({bad_value})", scheme.name);
                assert_eq!(non_finite_time(a), expected, "{what}");
                assert_eq!(non_finite_time(b), expected, "{what}");
            }
        }
    }
    // RKMK4 with two commutators: stages at 0, h/2, h/2, h.
    for (after, expected) in [(-1.0, Some(0.0)), (0.004, Some(0.005)), (0.007, Some(0.01))] {
        let bad = |t: f64, p: &P| {
            let mut k = field(t, p);
            if t > after {
                k.0.z = f64::NAN;
            }
            k
        };
        let bad_vec = |t: f64, p: &Vec<P>| vec![bad(t, &p[0])];
        let mut fixed = Rkmk4TwoCommutators::<A>::new();
        let mut heap = Rkmk4TwoCommutators::<VecA>::new();
        let a = fixed.step(&action, &bad, 0.0, &start(), h, None);
        let b = heap.step(&vec_action, &bad_vec, 0.0, &vec![start()], h, None);
        assert_eq!(non_finite_time(a), expected, "rkmk4-2comm after {after}");
        assert_eq!(non_finite_time(b), expected, "rkmk4-2comm after {after}");
    }
}

/// Finite stage values whose weighted sum overflows: not a non-finite field value, so the step
/// is returned (the same one on both storages).
#[test]
fn an_overflowing_sum_of_finite_stage_values_is_not_an_error() {
    let huge = |_t: f64, _p: &P| (Vector3::zeros(), Vector3::new(f64::MAX, 0.0, 0.0));
    let huge_vec = |t: f64, p: &Vec<P>| vec![huge(t, &p[0])];
    let (action, vec_action) = (A::new(), VecA::new());
    let mut fixed = CommutatorFree::<A>::new(&CF4).unwrap();
    let mut heap = CommutatorFree::<VecA>::new(&CF4).unwrap();
    // With h = 8 the first term of the first update exponent, 8·(3/12)·f64::MAX, overflows.
    let a = fixed
        .step(&action, &huge, 0.0, &start(), 8.0, None)
        .unwrap();
    let b = heap
        .step(&vec_action, &huge_vec, 0.0, &vec![start()], 8.0, None)
        .unwrap();
    assert!(!a.y.1.0.x.is_finite());
    assert_eq!(a.y.1.0.x, b.y[0].1.0.x);
}

/// CF4 composed 3 times (12 stages, local arrays) and 5 times (20 stages, heap buffers) keeps
/// order 4 on the state-dependent heavy top: the fitted slope against a reference from RKMK
/// with Butcher's sixth-order tableau at a much finer step.
#[test]
fn schemes_with_more_stages_than_any_shipped_converge_with_their_order() {
    let problem = Problem::new(A::new(), field);
    let (t_end, y0) = (2.0, start());
    // The reference point: RKMK with Butcher's sixth-order tableau, 4096 steps (its error is
    // far below the compositions' errors at 128 steps).
    let mut reference = Rkmk::<A>::exp(&schemes::catalogue::BUTCHER6).unwrap();
    let opts = schemes::Options::count(4096).save_final();
    let sol = schemes::integrate(&problem, &mut reference, 0.0, y0, t_end, &opts).unwrap();
    let y_ref = *sol.last().1;
    let distance = |a: &P, b: &P| {
        let d = a.compose(&b.inverse()).log();
        (d.0.norm_squared() + d.1.norm_squared()).sqrt()
    };
    for m in [3, 5] {
        let scheme = compose(&CF4, m);
        let mut stepper = CommutatorFree::<A>::new(&scheme).unwrap();
        let row = measure_order(
            &problem,
            &mut stepper,
            0.0,
            &y0,
            t_end,
            &y_ref,
            &[8, 16, 32, 64, 128],
            distance,
            1e-12,
        )
        .unwrap();
        let slope = row.observed_order();
        assert!(
            (slope - 4.0).abs() <= 0.2,
            "{}: slope {slope}, errors {:?}",
            scheme.name,
            row.errors
        );
    }
}

#[test]
fn a_scheme_that_is_not_explicit_is_a_typed_error_not_a_panic() {
    // Stage 1 uses its own derivative k₁ (implicit), and a stage with no stages at all.
    const IMPLICIT: CommutatorFreeScheme = CommutatorFreeScheme {
        name: "implicit stage",
        order: 1,
        reference: "test",
        stages: &[
            CfStage::new(0.0, ExpProduct::START),
            CfStage::new(
                1.0,
                ExpProduct {
                    base: Base::Start,
                    factors: &[&[0.5, 0.5]],
                },
            ),
        ],
        update: ExpProduct {
            base: Base::Start,
            factors: &[&[0.5, 0.5]],
        },
        embedded: None,
    };
    match CommutatorFree::<A>::new(&IMPLICIT) {
        Err(SchemeError::NotExplicit { referenced, .. }) => assert_eq!(referenced, 1),
        other => panic!("expected NotExplicit, got {:?}", other.map(|s| s.name())),
    }
    const EMPTY: CommutatorFreeScheme = CommutatorFreeScheme {
        name: "no stages",
        order: 1,
        reference: "test",
        stages: &[],
        update: ExpProduct::START,
        embedded: None,
    };
    assert!(matches!(
        CommutatorFree::<A>::new(&EMPTY),
        Err(SchemeError::DimensionMismatch { .. })
    ));
    // Consistency is not required to build a stepper (only `validate` checks row sums).
    const INCONSISTENT: CommutatorFreeScheme = CommutatorFreeScheme {
        name: "update sums to 2",
        order: 1,
        reference: "test",
        stages: &[CfStage::new(0.0, ExpProduct::START)],
        update: ExpProduct {
            base: Base::Start,
            factors: &[&[2.0]],
        },
        embedded: None,
    };
    assert!(INCONSISTENT.validate().is_err());
    assert!(CommutatorFree::<A>::new(&INCONSISTENT).is_ok());
}
