//! Your own Lie group, checked and integrated: **SU(2) as unit quaternions**, written from
//! scratch in this file.
//!
//! 1. `Su2<T>` implements [`liegroup::LieGroup`] (identity, product, inverse, exp, log, bracket,
//!    adjoint, closed-form `dexp`/`dexp⁻¹`) and [`liegroup::LieGroupInPlace`] (the in-place forms
//!    integrators use, all defaults). The algebra su(2) is stored in the coordinates in which
//!    `exp(ξ) = (cos(θ/2), sin(θ/2) ξ/θ)`, `θ = |ξ|`: there the bracket is the cross product, as
//!    for so(3) (SU(2) is the double cover of SO(3)), and `Ad_q ξ` is the rotation of `ξ` by `q`.
//!    `exp` and `log` use half-angle formulas whose small-angle branches are series in θ²
//!    (`liegroup::angle`), so dual numbers differentiate them at the identity too.
//! 2. The conformance kit `liegroup::testing` checks the implementation: group axioms, exp/log,
//!    Ad, the bracket, the coadjoint action and `dexp`/`dexp⁻¹` with `f64`, and the exact
//!    derivatives with dual numbers.
//! 3. Every method of `schemes::methods::METHODS` integrates a state-dependent problem on SU(2)
//!    acting on itself: the free rigid body in the spatial frame,
//!    `q̇ = ω(q)·q`, `ω(q) = Ad_q(I⁻¹ Ad_{q⁻¹} π)` with a fixed spatial angular momentum `π`.
//!    Each method's observed order (`schemes::measure_order`, against a reference computed by
//!    RKMK6 with a small step) is printed next to its nominal order.
//!
//! The program exits with code 1 when a method's observed order is more than 0.3 away from its
//! nominal order (or a check fails), so it is a real test; the last line says whether all of
//! them matched within 0.2.
//!
//! ```text
//! cargo run --release --example own_group
//! ```

use homogeneous::LeftMultiplication;
use liegroup::angle::{cosc, g2, sinc, sinc3};
use liegroup::nalgebra::{RealField, Vector3};
use liegroup::num_dual::Dual64;
use liegroup::scalar::c;
use liegroup::testing::{SampleSet, check_group, check_group_dual};
use liegroup::{LieGroup, LieGroupInPlace, StaticLieGroup};
use schemes::methods::METHODS;
use schemes::{GroupLogDistance, Options, Problem, integrate, measure_order};
use std::process::ExitCode;

/// A unit quaternion `w + v` (`w` real part, `v` vector part), an element of SU(2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Su2<T: RealField + Copy = f64> {
    w: T,
    v: Vector3<T>,
}

impl<T: RealField + Copy> Su2<T> {
    /// `atan(x)/x` from `x2 = x²` for `x² < 1/100`: `Σ (−1)ᵏ x²ᵏ/(2k+1)` through `k = 9`
    /// (the first omitted term is below 10⁻²⁰).
    fn atanc_series(x2: T) -> T {
        let mut acc = T::zero();
        for k in (0..10).rev() {
            let sign = if k % 2 == 0 { 1.0 } else { -1.0 };
            acc = acc * x2 + c::<T>(sign / (2 * k + 1) as f64);
        }
        acc
    }
}

impl<T: RealField + Copy> LieGroup for Su2<T> {
    type Scalar = T;
    type Algebra = Vector3<T>;

    fn identity_like(&self) -> Self {
        Self::identity()
    }
    fn algebra_zero(&self) -> Vector3<T> {
        Vector3::zeros()
    }
    /// The quaternion product `(w₁ + v₁)(w₂ + v₂)`.
    fn compose(&self, o: &Self) -> Self {
        Self {
            w: self.w * o.w - self.v.dot(&o.v),
            v: o.v * self.w + self.v * o.w + self.v.cross(&o.v),
        }
    }
    /// The conjugate (the inverse of a unit quaternion).
    fn inverse(&self) -> Self {
        Self {
            w: self.w,
            v: -self.v,
        }
    }
    /// `exp(ξ) = (cos(θ/2), (sin(θ/2)/θ) ξ)` with `cos h = 1 − h²·cosc(h²)` and
    /// `sin h/(2h) = ½ sinc(h²)`, `h = θ/2`: functions of θ² only.
    fn exp(xi: &Vector3<T>) -> Self {
        let h2 = xi.norm_squared() * c::<T>(0.25);
        Self {
            w: T::one() - h2 * cosc(h2),
            v: xi * (c::<T>(0.5) * sinc(h2)),
        }
    }
    /// The principal logarithm `θ v/|v|`, `θ = 2 atan2(|v|, w) ∈ [0, 2π)` (injective for
    /// `θ < 2π`: SU(2) covers each rotation twice). Near the identity `θ/|v| = (2/w) atan(x)/x`
    /// with `x = |v|/w`, a series in `x² = |v|²/w²`; elsewhere `atan` of a ratio of modulus
    /// ≤ 1, so dual parts are right everywhere.
    fn log(&self) -> Vector3<T> {
        let (w, s2) = (self.w, self.v.norm_squared());
        if w > T::zero() && s2 < c::<T>(1e-2) * w * w {
            let two: T = c(2.0);
            return self.v * (two / w * Self::atanc_series(s2 / (w * w)));
        }
        let s = s2.sqrt();
        let half = if w >= s {
            (s / w).atan()
        } else if -w >= s {
            T::pi() - (s / -w).atan()
        } else {
            T::frac_pi_2() - (w / s).atan()
        };
        self.v * (c::<T>(2.0) * half / s)
    }
    /// In these coordinates `[x, y] = x × y` (the quaternion commutator of `x/2` and `y/2` is
    /// `(x × y)/2`).
    fn bracket(x: &Vector3<T>, y: &Vector3<T>) -> Vector3<T> {
        x.cross(y)
    }
    /// `Ad_q ξ = q ξ q⁻¹`: the rotation of `ξ` by `q`, `ξ + w t + v × t` with `t = 2 v × ξ`.
    fn adjoint(&self, xi: &Vector3<T>) -> Vector3<T> {
        let t = self.v.cross(xi) * c::<T>(2.0);
        xi + t * self.w + self.v.cross(&t)
    }
    const EXACT_DEXP: bool = true;
    /// `dexp_u v = v + ((1 − cos θ)/θ²) u×v + ((θ − sin θ)/θ³) u×(u×v)`, the closed form of
    /// so(3) (the same algebra).
    fn dexp(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let t2 = u.norm_squared();
        let uv = u.cross(v);
        v + uv * cosc(t2) + u.cross(&uv) * sinc3(t2)
    }
    /// `dexp_u⁻¹ v = v − ½ u×v + g₂(θ) u×(u×v)`, `g₂ = (1 − (θ/2)cot(θ/2))/θ²`.
    fn dexpinv(u: &Vector3<T>, v: &Vector3<T>) -> Vector3<T> {
        let t2 = u.norm_squared();
        let uv = u.cross(v);
        v - uv * c::<T>(0.5) + u.cross(&uv) * g2(t2)
    }
    fn all_finite(&self) -> bool {
        self.w.is_finite() && self.v.iter().all(|x| x.is_finite())
    }
}

/// The in-place forms integrators use: the defaults, written with the methods above.
impl<T: RealField + Copy> LieGroupInPlace for Su2<T> {}

impl<T: RealField + Copy> StaticLieGroup for Su2<T> {
    fn identity() -> Self {
        Self {
            w: T::one(),
            v: Vector3::zeros(),
        }
    }
}

/// Step counts of the order study: coarser for high orders, so that the finest errors stay
/// above round-off (the fit drops points below 10⁻¹², see `schemes::fit_order`).
fn step_counts(order: u32) -> Vec<usize> {
    let base: &[usize] = match order {
        0..=2 => &[40, 80, 160, 320, 640, 1280],
        3..=5 => &[20, 40, 80, 160, 320],
        _ => &[12, 17, 24, 34, 48, 68, 96],
    };
    base.to_vec()
}

fn main() -> ExitCode {
    // 1. The conformance kit.
    match check_group(&SampleSet::<Su2>::standard_static()) {
        Ok(report) => println!(
            "conformance kit, f64: passed ({} evaluations, worst error/tolerance {:.2})",
            report.evaluations(),
            report.worst_ratio()
        ),
        Err(failure) => {
            eprintln!("conformance kit, f64: FAILED: {failure}");
            return ExitCode::FAILURE;
        }
    }
    match check_group_dual(&SampleSet::<Su2<Dual64>>::standard_static()) {
        Ok(report) => println!(
            "conformance kit, dual numbers: passed ({} evaluations, worst error/tolerance {:.2})",
            report.evaluations(),
            report.worst_ratio()
        ),
        Err(failure) => {
            eprintln!("conformance kit, dual numbers: FAILED: {failure}");
            return ExitCode::FAILURE;
        }
    }

    // 2. A state-dependent problem: the free rigid body in the spatial frame on SU(2).
    // Principal moments of inertia 10/3, 1, 0.4 (inverses below) and a spatial momentum π.
    let inertia_inv = Vector3::new(0.3, 1.0, 2.5);
    let pi = Vector3::new(1.0, 0.5, -0.8);
    let field = move |_t: f64, q: &Su2| -> Vector3<f64> {
        let body = q.inverse().adjoint(&pi);
        q.adjoint(&body.component_mul(&inertia_inv))
    };
    let problem = Problem::new(LeftMultiplication::<Su2>::new(), field);
    let q0 = Su2::exp(&Vector3::new(0.3, -0.2, 0.5));
    let t_end = 3.0;
    let reference_steps = 1000;
    let distance = |a: &Su2, b: &Su2| a.compose(&b.inverse()).log().norm();

    let reference = {
        let spec = schemes::methods::find("rkmk6").expect("rkmk6 is in the catalogue");
        let mut stepper =
            spec.stepper_with_distance::<LeftMultiplication<Su2>, _>(GroupLogDistance);
        let sol = integrate(
            &problem,
            &mut stepper,
            0.0,
            q0,
            t_end,
            &Options::count(reference_steps).save_final(),
        );
        match sol {
            Ok(sol) => *sol.last().1,
            Err(e) => {
                eprintln!("reference run failed: {e}");
                return ExitCode::FAILURE;
            }
        }
    };
    let rotation = reference.compose(&q0.inverse()).log().norm();
    println!(
        "free rigid body on SU(2): T = {t_end}, rotation angle of q(T)·q(0)⁻¹ = {rotation:.3} rad; \
         reference: rkmk6, {reference_steps} steps"
    );
    println!(
        "{:<16} {:>7} {:>9} {:>7}   errors (coarse → fine)",
        "method", "nominal", "observed", "|diff|"
    );

    let (mut all_within_02, mut all_within_03) = (true, true);
    for spec in METHODS {
        let mut stepper =
            spec.stepper_with_distance::<LeftMultiplication<Su2>, _>(GroupLogDistance);
        let steps = step_counts(spec.order);
        let row = match measure_order(
            &problem,
            &mut stepper,
            0.0,
            &q0,
            t_end,
            &reference,
            &steps,
            distance,
            1e-12,
        ) {
            Ok(row) => row,
            Err(e) => {
                eprintln!("{}: integration failed: {e}", spec.id);
                return ExitCode::FAILURE;
            }
        };
        let observed = row.observed_order();
        let diff = (observed - f64::from(spec.order)).abs();
        // A NaN difference (no usable fit) counts as a mismatch.
        all_within_02 &= diff <= 0.2;
        all_within_03 &= diff <= 0.3;
        let errors: Vec<String> = row.errors.iter().map(|e| format!("{e:.1e}")).collect();
        println!(
            "{:<16} {:>7} {:>9.2} {:>7.2}   {}{}",
            spec.id,
            spec.order,
            observed,
            diff,
            errors.join(" "),
            if diff <= 0.3 {
                ""
            } else {
                "   <-- off by more than 0.3"
            }
        );
    }
    println!(
        "all {} methods matched their nominal order within 0.2: {}",
        METHODS.len(),
        if all_within_02 { "yes" } else { "no" }
    );
    if all_within_03 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
