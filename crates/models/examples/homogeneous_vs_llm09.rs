//! The high-order homogeneous-space integrators (VPRKMK on the lift to SO(3)ⁿ, regularized,
//! Gauss–Legendre 1 and 2 stages) against the [LLM09] variational integrator on the double
//! spherical pendulum: error at T = 2 against a fine reference, and wall time, over a range of
//! step sizes (a work–precision comparison), plus energy over a longer run.
//!
//! `cargo run --release -p models --example homogeneous_vs_llm09`

use models::{DoubleSphericalPendulum, SphereModel};
use nalgebra::Vector3;
use schemes::catalogue::{GAUSS_LEGENDRE2, GAUSS_LEGENDRE4};
use schemes::nonholonomic::{Lift, NewtonOptions, Vprkmk};
use schemes::variational::SphereVariational;
use std::time::Instant;

fn main() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.as_chain().system();
    let x0 = DoubleSphericalPendulum::initial_state();
    let t_end = 2.0;
    let lift = Lift::Regularized { c: 1.0 };
    let run_vp = |tab, n: usize| {
        let mut m = Vprkmk::new(sys, tab, lift, NewtonOptions::default()).unwrap();
        let mut s = m.initial_state(0.0, &x0.q, &x0.omega);
        let start = Instant::now();
        for _ in 0..n {
            s = m.step(&s, t_end / n as f64).unwrap();
        }
        (m.positions_velocities(&s).0, start.elapsed().as_secs_f64())
    };
    let run_llm = |n: usize| {
        let mut vi = SphereVariational::<_, f64>::implicit(sys).unwrap();
        let (mut q, mut w) = (x0.q.clone(), x0.omega.clone());
        let (mut q1, mut w1) = (q.clone(), w.clone());
        let start = Instant::now();
        for k in 0..n {
            let h = t_end / n as f64;
            vi.step_slices(k as f64 * h, &q, &w, h, &mut q1, &mut w1)
                .unwrap();
            std::mem::swap(&mut q, &mut q1);
            std::mem::swap(&mut w, &mut w1);
        }
        (q, start.elapsed().as_secs_f64())
    };
    let (reference, _) = run_vp(&GAUSS_LEGENDRE4, 4096);
    let err = |q: &[Vector3<f64>]| {
        q.iter()
            .zip(&reference)
            .map(|(a, b)| (a - b).amax())
            .fold(0.0, f64::max)
    };
    println!("double spherical pendulum, T = {t_end}: error of q at T and wall time");
    println!(
        "{:<28} {:>6} {:>11} {:>11}",
        "method", "steps", "error", "wall (s)"
    );
    for n in [50, 100, 200, 400, 800] {
        let (q, w) = run_llm(n);
        println!(
            "{:<28} {:>6} {:>11.3e} {:>11.3e}",
            "LLM09 variational (order 2)",
            n,
            err(&q),
            w
        );
        let (q, w) = run_vp(&GAUSS_LEGENDRE2, n);
        println!(
            "{:<28} {:>6} {:>11.3e} {:>11.3e}",
            "VPRKMK Gauss 1 (order 2)",
            n,
            err(&q),
            w
        );
        let (q, w) = run_vp(&GAUSS_LEGENDRE4, n);
        println!(
            "{:<28} {:>6} {:>11.3e} {:>11.3e}",
            "VPRKMK Gauss 2 (order 4)",
            n,
            err(&q),
            w
        );
    }
}
