//! The reduction test: on the abelian group ℝⁿ (acting on itself by translation) every Lie
//! group method must reproduce the classical Runge–Kutta method with the same coefficients —
//! for RKMK the tableau itself, for commutator-free / Crouch–Grossman schemes the tableau they
//! collapse to when exponentials commute.

use homogeneous::{LeftMultiplication, RightMultiplication};
use liegroup::Rn;
use nalgebra::Vector3;
use schemes::methods::{METHODS, MethodKind};
use schemes::{Options, Problem, StageMatrix, integrate};

type Act = LeftMultiplication<Rn<f64, 3>>;
type Coefficient = Box<dyn Fn(usize, usize) -> f64>;

/// A non-autonomous, nonlinear test field (so that every node cᵢ and every stage matters).
fn field(t: f64, y: &Vector3<f64>) -> Vector3<f64> {
    Vector3::new(
        y[1] * y[2] + t.sin(),
        -y[0] * y[2] + 0.5 * t.cos() * y[1],
        -0.3 * y[0] * y[1] + y[2] * y[2] * 0.1 - t,
    )
}

/// The classical s-stage Runge–Kutta step with coefficients (A, b, c); implicit stages are
/// solved by fixed-point iteration to round-off (an independent, deliberately plain
/// implementation).
fn classical_step(
    a: &dyn Fn(usize, usize) -> f64,
    b: &[f64],
    c: &[f64],
    t: f64,
    y: Vector3<f64>,
    h: f64,
) -> Vector3<f64> {
    let s = b.len();
    let mut k = vec![field(t, &y); s];
    for _ in 0..200 {
        let mut next = k.clone();
        for i in 0..s {
            let mut yi = y;
            for (j, kj) in k.iter().enumerate() {
                yi += h * a(i, j) * kj;
            }
            next[i] = field(t + c[i] * h, &yi);
        }
        let change = next
            .iter()
            .zip(&k)
            .map(|(x, y)| (x - y).amax())
            .fold(0.0, f64::max);
        k = next;
        if change == 0.0 {
            break;
        }
    }
    let mut y1 = y;
    for i in 0..s {
        y1 += h * b[i] * k[i];
    }
    y1
}

#[test]
fn every_method_reduces_to_classical_rk_on_rn() {
    let problem = Problem::new(Act::new(), |t: f64, y: &Rn<f64, 3>| field(t, &y.0));
    let y0 = Vector3::new(0.3, -0.2, 0.5);
    let (t0, t_end, n) = (0.1, 0.5, 8);
    let h = (t_end - t0) / n as f64;
    let mut checked = 0;
    for spec in METHODS {
        // The reference: classical RK with the method's (collapsed) tableau.
        let owned;
        let (a, b, c): (Coefficient, Vec<f64>, Vec<f64>) = match spec.kind {
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t) | MethodKind::ImplicitRkmk(t) => {
                (Box::new(move |i, j| t.a(i, j)), t.b.to_vec(), t.c.to_vec())
            }
            MethodKind::CommutatorFree(s) => {
                owned = s.abelian_tableau();
                let tab = owned.clone();
                (
                    Box::new(move |i, j| StageMatrix::a(&tab, i, j)),
                    owned.b.clone(),
                    owned.c.clone(),
                )
            }
            MethodKind::Rkmk4TwoCommutators => {
                let rk4 = &schemes::catalogue::RK4;
                (
                    Box::new(move |i, j| rk4.a(i, j)),
                    rk4.b.to_vec(),
                    rk4.c.to_vec(),
                )
            }
        };
        let mut y = y0;
        for step in 0..n {
            y = classical_step(&*a, &b, &c, t0 + step as f64 * h, y, h);
        }
        let mut stepper = spec.stepper::<Act>();
        let sol = integrate(
            &problem,
            &mut stepper,
            t0,
            Rn::new(y0),
            t_end,
            &Options::count(n).save_final(),
        )
        .unwrap_or_else(|e| panic!("{}: {e}", spec.id));
        let diff = (sol.last().1.0 - y).amax();
        assert!(
            diff <= 1e-13,
            "{}: differs from classical RK by {diff:e}",
            spec.id
        );
        checked += 1;
    }
    assert_eq!(checked, METHODS.len());
}

/// On ℝⁿ, right multiplication by the inverse (`p ↦ p − g`) with the field `−f` is the same
/// method as translation with `f`: every negation is exact, so every method gives the same
/// bits in both forms (the body-frame path through `LieGroup::exp_right_mul_assign` reduces to
/// classical RK like the spatial one).
#[test]
fn right_multiplication_on_rn_equals_translation_bitwise() {
    let left = Problem::new(Act::new(), |t: f64, y: &Rn<f64, 3>| field(t, &y.0));
    let right = Problem::new(
        RightMultiplication::<Rn<f64, 3>>::new(),
        |t: f64, y: &Rn<f64, 3>| -field(t, &y.0),
    );
    let y0 = Rn::new(Vector3::new(0.3, -0.2, 0.5));
    let opts = Options::count(8).save_final();
    for spec in METHODS {
        let mut a = spec.stepper::<Act>();
        let mut b = spec.stepper::<RightMultiplication<Rn<f64, 3>>>();
        let ya = integrate(&left, &mut a, 0.1, y0, 0.5, &opts).unwrap();
        let yb = integrate(&right, &mut b, 0.1, y0, 0.5, &opts).unwrap();
        assert_eq!(ya.last().1, yb.last().1, "{}", spec.id);
    }
}
