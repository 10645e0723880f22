//! Shared helpers of the integration tests: a classical RK4 on the ambient ODE, random points,
//! relative errors.

#![allow(dead_code)]

use homogeneous::LeftMultiplication;
use liegroup::Rn;
use models::{AmbientField, Potential, SphereState, SphereSystem};
use nalgebra::Vector3;
use schemes::catalogue::RK4;
use schemes::{Options, Problem, Rkmk, integrate_with_observer};

/// SplitMix64 for reproducible test data.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [−1, 1).
    pub fn sym(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64) / (1u64 << 52) as f64 - 1.0
    }
    pub fn vec3(&mut self) -> Vector3<f64> {
        Vector3::new(self.sym(), self.sym(), self.sym())
    }
    /// A unit vector (rejection sampling in the unit ball).
    pub fn unit(&mut self) -> Vector3<f64> {
        loop {
            let v = self.vec3();
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// `max |a − b| / max |b|` over a list of vectors.
pub fn rel_err(a: &[Vector3<f64>], b: &[Vector3<f64>]) -> f64 {
    let num = a
        .iter()
        .zip(b)
        .map(|(x, y)| (x - y).amax())
        .fold(0.0, f64::max);
    let den = b.iter().map(|y| y.amax()).fold(0.0, f64::max);
    num / den.max(f64::MIN_POSITIVE)
}

/// The result of a fixed-step RK4 run.
pub struct Run {
    pub state: SphereState,
    /// max_t |E(t) − E₀| / max_t (T(t) + |V(t)|)
    pub energy_drift: f64,
    /// max_t |J(t) − J₀| (componentwise), and the scale max_t Σᵢ |qᵢ × pᵢ|.
    pub momentum_drift: Vector3<f64>,
    pub momentum_scale: f64,
    pub e0: f64,
}

/// Classical RK4 with `steps` steps of size `h` on the ambient ODE of `sys`, from `x0`, run by
/// the schemes crate: RKMK with the RK4 tableau on ℝ⁶ⁿ under left multiplication (which is the
/// classical method, the reduction property); tracks energy and angular momentum after every
/// step.
pub fn rk4<P: Potential>(sys: &SphereSystem<P>, x0: &SphereState, h: f64, steps: usize) -> Run {
    type A = LeftMultiplication<Vec<Rn<f64, 6>>>;
    let problem = Problem::new(A::new(), AmbientField::new(sys));
    let mut stepper = Rkmk::<A>::exp(&RK4).unwrap();
    let t0 = sys.kinetic_energy(&x0.q, &x0.omega);
    let v0 = sys.potential_energy(&x0.q);
    let e0 = t0 + v0;
    let mut scale = t0 + v0.abs();
    let mut max_de: f64 = 0.0;
    let j0 = sys.angular_momentum(&x0.q, &x0.omega);
    let n = x0.q.len();
    let mut p = vec![Vector3::zeros(); n];
    let mut momentum_drift = Vector3::zeros();
    let mut momentum_scale: f64 = 0.0;
    let sol = integrate_with_observer(
        &problem,
        &mut stepper,
        0.0,
        x0.to_rn_points(),
        h * steps as f64,
        &Options::count(steps).save_final(),
        |_t, y| {
            let s = SphereState::from_rn_points(y);
            let (t, v) = (
                sys.kinetic_energy(&s.q, &s.omega),
                sys.potential_energy(&s.q),
            );
            max_de = max_de.max((t + v - e0).abs());
            scale = scale.max(t + v.abs());
            let j = sys.angular_momentum(&s.q, &s.omega);
            momentum_drift = momentum_drift.sup(&(j - j0).abs());
            sys.conjugate_momenta(&s.q, &s.omega, &mut p);
            let js: f64 = s.q.iter().zip(&p).map(|(q, p)| q.cross(p).norm()).sum();
            momentum_scale = momentum_scale.max(js);
        },
    )
    .unwrap();
    let (_, y) = sol.last();
    let energy_drift = max_de / scale;
    Run {
        state: SphereState::from_rn_points(y),
        energy_drift,
        momentum_drift,
        momentum_scale,
        e0,
    }
}
