//! A property test of `integrate` with random bad input, for every method of
//! `schemes::methods::METHODS`: start points (NaN, ±∞, huge), spans (reversed, empty, NaN,
//! infinite), steps (0, negative, NaN, subnormal, huge), counts (0), tolerances (0, negative,
//! NaN, huge) and fields that return NaN from a random time on, on a fixed-size action (SO(3)
//! acting on itself) and a runtime-sized one (a `Vec` power of it). The property: a result or
//! a typed error, never a panic; a result ends at `t_end`; an error's partial solution is
//! either empty (the input was refused before any work) or starts at `(t₀, y₀)` and holds only
//! finite points at strictly increasing times, every step of which started at or before the
//! time the field turned NaN.
//!
//! The cases come from a seeded generator (SplitMix64), so a failure is reproducible from the
//! case number printed with it. (`proptest` is not a dev-dependency of this crate; adding it
//! means editing `crates/schemes/Cargo.toml`.)

use homogeneous::{Action, LeftMultiplication, VecPowerAction};
use liegroup::{LieGroup, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::methods::METHODS;
use schemes::{IntegrationResult, Options, Problem, SchemeError, StepSize, Tolerance, integrate};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Outcomes seen: results, refused inputs, failures with a non-empty partial solution.
static OUTCOMES: [AtomicUsize; 3] = [
    AtomicUsize::new(0),
    AtomicUsize::new(0),
    AtomicUsize::new(0),
];

type So3Left = LeftMultiplication<So3<f64>>;
type So3Vec = VecPowerAction<So3Left>;

/// Cases per method (21 methods × 2 actions × 8 = 336 cases).
const CASES_PER_METHOD: usize = 8;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // SplitMix64.
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[derive(Clone, Debug)]
struct Case {
    start: Matrix3<f64>,
    t0: f64,
    t_end: f64,
    step: StepSize,
    /// The field is NaN for `t > t_bad` (∞: never).
    t_bad: f64,
}

fn case(rng: &mut Rng) -> Case {
    // Each input is bad with probability 1/4, so that every outcome is exercised.
    let bad = |rng: &mut Rng| rng.next().is_multiple_of(4);
    let good = *So3::exp(&Vector3::new(0.3, -0.5, 0.8)).matrix();
    let start = if bad(rng) {
        match rng.next() % 4 {
            0 => good.map(|x| if x > 0.5 { f64::NAN } else { x }),
            1 => good.map(|x| if x > 0.5 { f64::INFINITY } else { x }),
            2 => good * 1e300,
            _ => good * f64::MAX,
        }
    } else {
        good
    };
    let (t0, t_end) = if bad(rng) {
        rng.pick(&[
            (1.0, 0.0),
            (0.5, 0.5),
            (f64::NAN, 1.0),
            (0.0, f64::NAN),
            (0.0, f64::INFINITY),
            (-1e300, 1e300),
        ])
    } else {
        let t0 = rng.pick(&[0.0, -0.3, 2.0]);
        (t0, t0 + rng.pick(&[1.0, 0.25]))
    };
    let tol = |rng: &mut Rng| {
        if bad(rng) {
            rng.pick(&[0.0, -1e-6, f64::NAN, 1e300, f64::INFINITY, 5e-324])
        } else {
            rng.pick(&[1e-6, 1e-3])
        }
    };
    let step = match rng.next() % 4 {
        0 => StepSize::Fixed(if bad(rng) {
            rng.pick(&[0.0, -0.1, f64::NAN, 5e-324, 1e300, f64::INFINITY])
        } else {
            rng.pick(&[0.1, 0.01, 0.37])
        }),
        1 | 2 => StepSize::Count(if bad(rng) { 0 } else { rng.pick(&[1, 7, 100]) }),
        _ => StepSize::Adaptive(Tolerance {
            rtol: tol(rng),
            atol: tol(rng),
        }),
    };
    // NaN from a random time on (possibly before the start or after the end), or never.
    let t_bad = if rng.next().is_multiple_of(2) {
        f64::INFINITY
    } else {
        -0.5 + 3.0 * rng.unit()
    };
    Case {
        start,
        t0,
        t_end,
        step,
        t_bad,
    }
}

fn so3_field(t_bad: f64) -> impl Fn(f64, &So3<f64>) -> Vector3<f64> + Sync {
    move |t: f64, r: &So3<f64>| {
        if t > t_bad {
            Vector3::repeat(f64::NAN)
        } else {
            let m = Vector3::new(0.4, -1.1, 0.7);
            let r = r.matrix();
            r * (r.transpose() * m).component_div(&Vector3::new(1.0, 2.0, 3.0))
        }
    }
}

fn check<A>(label: &str, c: &Case, r: &IntegrationResult<A>, action: &A)
where
    A: Action<Group: LieGroup<Scalar = f64>>,
{
    let sol = match r {
        Ok(sol) => {
            assert_eq!(sol.t.first(), Some(&c.t0), "{label}");
            assert_eq!(sol.t.last(), Some(&c.t_end), "{label}: ends at t_end");
            OUTCOMES[0].fetch_add(1, Ordering::Relaxed);
            sol
        }
        Err(e) => {
            let p = &e.partial;
            if p.t.is_empty() {
                // Refused before any work: only input errors.
                assert!(
                    matches!(
                        e.error,
                        SchemeError::InvalidTimeSpan { .. }
                            | SchemeError::InvalidStepSize { .. }
                            | SchemeError::InvalidTolerance { .. }
                            | SchemeError::InvalidOption { .. }
                            | SchemeError::Unsupported { .. }
                            | SchemeError::NonFinite {
                                what: "initial state",
                                ..
                            }
                    ),
                    "{label}: empty partial solution with {}",
                    e.error
                );
                OUTCOMES[1].fetch_add(1, Ordering::Relaxed);
                return;
            }
            assert_eq!(p.t[0], c.t0, "{label}");
            OUTCOMES[2].fetch_add(1, Ordering::Relaxed);
            let n = p.t.len();
            if n >= 2 {
                assert!(
                    p.t[n - 2] <= c.t_bad,
                    "{label}: a kept step started after the field turned NaN ({:?}); {}",
                    &p.t[n - 2..],
                    e.error
                );
            }
            p
        }
    };
    assert_eq!(sol.t.len(), sol.y.len(), "{label}");
    assert!(sol.t.iter().all(|t| t.is_finite()), "{label}");
    assert!(
        sol.t.windows(2).all(|w| w[1] > w[0]),
        "{label}: times increase"
    );
    assert!(
        sol.y.iter().all(|y| action.point_is_finite(y)),
        "{label}: finite points"
    );
}

fn run_case(method: usize, k: usize, c: &Case, vec: bool) {
    let m = &METHODS[method];
    let label = format!(
        "case {k} ({}, {}): {c:?}",
        m.id,
        if vec { "Vec" } else { "fixed" }
    );
    let start = So3::from_matrix_unchecked(c.start);
    let mut options = match &c.step {
        StepSize::Fixed(h) => Options::fixed(*h),
        StepSize::Count(n) => Options::count(*n),
        StepSize::Adaptive(t) => Options::adaptive(t.rtol, t.atol),
    };
    // Keep a hopeless adaptive run (a tolerance at the subnormal range) short.
    options.max_steps = 20_000;
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        if vec {
            let p = Problem::new(So3Vec::new(So3Left::new()), {
                let f = so3_field(c.t_bad);
                move |t: f64, g: &Vec<So3<f64>>| -> Vec<Vector3<f64>> {
                    g.iter().map(|gi| f(t, gi)).collect()
                }
            });
            let mut s = m.stepper::<So3Vec>();
            let r = integrate(&p, &mut s, c.t0, vec![start; 3], c.t_end, &options);
            check(&label, c, &r, &p.action);
        } else {
            let p = Problem::new(So3Left::new(), so3_field(c.t_bad));
            let mut s = m.stepper::<So3Left>();
            let r = integrate(&p, &mut s, c.t0, start, c.t_end, &options);
            check(&label, c, &r, &p.action);
        }
    }));
    if let Err(panic) = outcome {
        let msg = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
            .unwrap_or_default();
        panic!("{label}: panicked: {msg}");
    }
}

#[test]
fn integrate_never_panics_and_keeps_a_clean_partial_solution() {
    let mut rng = Rng(0x5eed_1e1e);
    let mut k = 0;
    for method in 0..METHODS.len() {
        for _ in 0..CASES_PER_METHOD {
            let c = case(&mut rng);
            run_case(method, k, &c, false);
            run_case(method, k, &c, true);
            k += 1;
        }
    }
    assert_eq!(k, METHODS.len() * CASES_PER_METHOD);
    let seen: Vec<usize> = OUTCOMES.iter().map(|o| o.load(Ordering::Relaxed)).collect();
    println!(
        "{} runs: {} results, {} refused inputs, {} partial solutions",
        2 * k,
        seen[0],
        seen[1],
        seen[2]
    );
    // The generator exercises all three outcomes.
    assert!(seen.iter().all(|&n| n >= 10), "{seen:?}");
}
