//! Seeded random points, group and algebra elements for the kit and for tests.
//!
//! Every generator takes the random number generator explicitly; [`kit_rng`] makes the
//! seeded one the tests use (ChaCha8, reproducible across platforms).

use crate::sphere::Sphere2;
use crate::tangent_sphere::TangentSphere2;
use liegroup::LieGroup;
use liegroup::{Se3, So3};
use nalgebra::{SVector, Vector3};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random number generator of the kit.
pub type KitRng = ChaCha8Rng;

/// A seeded [`KitRng`].
#[must_use]
pub fn kit_rng(seed: u64) -> KitRng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A vector with independent entries uniform in `[−scale, scale]`.
pub fn random_vector<R: Rng + ?Sized, const D: usize>(rng: &mut R, scale: f64) -> SVector<f64, D> {
    SVector::from_fn(|_, _| rng.random_range(-scale..=scale))
}

/// A unit vector uniform on S² (rejection sampling in the unit ball).
pub fn random_unit_vector<R: Rng + ?Sized>(rng: &mut R) -> Vector3<f64> {
    loop {
        let v: Vector3<f64> = random_vector(rng, 1.0);
        let n2 = v.norm_squared();
        if n2 > 1e-4 && n2 <= 1.0 {
            return v / n2.sqrt();
        }
    }
}

/// A point uniform on S².
pub fn random_sphere2<R: Rng + ?Sized>(rng: &mut R) -> Sphere2 {
    Sphere2::new_unchecked(random_unit_vector(rng))
}

/// A point of TS²: `q` uniform on S², `ω` the tangential part of a vector with entries uniform
/// in `[−omega_scale, omega_scale]`.
pub fn random_tangent_sphere2<R: Rng + ?Sized>(rng: &mut R, omega_scale: f64) -> TangentSphere2 {
    let q = random_unit_vector(rng);
    let w: Vector3<f64> = random_vector(rng, omega_scale);
    TangentSphere2::new_unchecked(q, w - q * q.dot(&w))
}

/// A rotation `exp(θ n̂)` with `n` uniform on S² and `θ` uniform in `[0, max_angle]`.
pub fn random_so3<R: Rng + ?Sized>(rng: &mut R, max_angle: f64) -> So3 {
    let n = random_unit_vector(rng);
    let theta = rng.random_range(0.0..=max_angle);
    So3::exp(&(n * theta))
}

/// A rigid motion `(R, t)`: `R` from [`random_so3`], `t` with entries uniform in
/// `[−max_translation, max_translation]`.
pub fn random_se3<R: Rng + ?Sized>(rng: &mut R, max_angle: f64, max_translation: f64) -> Se3 {
    let r = random_so3(rng, max_angle);
    Se3::from_parts(r, random_vector(rng, max_translation))
}
