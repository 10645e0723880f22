//! Shared helpers of the integration tests: a classical RK4 on the ambient ODE, random points,
//! relative errors.

#![allow(dead_code)]

use models::{AmbientField, Potential, SphereState, SphereSystem};
use nalgebra::Vector3;

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

/// The result of a fixed-step RK4 run on the ambient ODE.
pub struct Run {
    pub state: SphereState,
    /// max_t |E(t) − E₀| / (T₀ + |V₀|)
    pub energy_drift: f64,
    /// max_t |J(t) − J₀| (vector), and the scale max_t Σᵢ |qᵢ × pᵢ|.
    pub momentum_drift: Vector3<f64>,
    pub momentum_scale: f64,
    pub e0: f64,
}

/// Classical RK4 with `steps` steps of size `h` on the ambient ODE of `sys` (flat layout), from
/// `x0`; tracks the energy and angular momentum after every step.
pub fn rk4<P: Potential>(sys: &SphereSystem<P>, x0: &SphereState, h: f64, steps: usize) -> Run {
    let field = AmbientField::new(sys);
    let n = x0.q.len();
    let mut y = x0.to_flat();
    let m = y.len();
    let (mut k1, mut k2, mut k3, mut k4, mut tmp) = (
        vec![0.0; m],
        vec![0.0; m],
        vec![0.0; m],
        vec![0.0; m],
        vec![0.0; m],
    );
    let t0 = sys.kinetic_energy(&x0.q, &x0.omega);
    let v0 = sys.potential_energy(&x0.q);
    let e0 = t0 + v0;
    let scale = t0 + v0.abs();
    let j0 = sys.angular_momentum(&x0.q, &x0.omega);
    let mut p = vec![Vector3::zeros(); n];
    let jscale = |s: &SphereState, p: &mut [Vector3<f64>]| {
        sys.conjugate_momenta(&s.q, &s.omega, p);
        s.q.iter()
            .zip(p.iter())
            .map(|(q, p)| q.cross(p).norm())
            .sum::<f64>()
    };
    let mut momentum_scale = jscale(x0, &mut p);
    let mut energy_drift: f64 = 0.0;
    let mut momentum_drift = Vector3::zeros();
    for _ in 0..steps {
        field.eval_flat(&y, &mut k1);
        for i in 0..m {
            tmp[i] = y[i] + 0.5 * h * k1[i];
        }
        field.eval_flat(&tmp, &mut k2);
        for i in 0..m {
            tmp[i] = y[i] + 0.5 * h * k2[i];
        }
        field.eval_flat(&tmp, &mut k3);
        for i in 0..m {
            tmp[i] = y[i] + h * k3[i];
        }
        field.eval_flat(&tmp, &mut k4);
        for i in 0..m {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        let s = SphereState::from_flat(&y).unwrap();
        let e = sys.energy(&s.q, &s.omega);
        energy_drift = energy_drift.max((e - e0).abs() / scale);
        let j = sys.angular_momentum(&s.q, &s.omega);
        let dj = (j - j0).abs();
        momentum_drift = momentum_drift.sup(&dj);
        momentum_scale = momentum_scale.max(jscale(&s, &mut p));
    }
    Run {
        state: SphereState::from_flat(&y).unwrap(),
        energy_drift,
        momentum_drift,
        momentum_scale,
        e0,
    }
}
