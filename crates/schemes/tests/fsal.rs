//! Exponential reuse in RKMK for tableaux whose last row of `A` equals `b` (Dormand–Prince 5(4),
//! Bogacki–Shampine 3(2)): the last stage point is returned as `y₁`, one exponential less per
//! step, and the result is the same point `exp(σ)·y₀` (checked against the continuous extension
//! at θ = 1, which applies `exp(h Σ bᵢ(1) k̃ᵢ)` explicitly).

use homogeneous::{RotationAction, Sphere2};
use nalgebra::Vector3;
use schemes::catalogue::{BOGACKI_SHAMPINE32, DOPRI54, RK4};
use schemes::{Rkmk, Stepper, Tolerance};

fn field(_t: f64, m: &Sphere2) -> Vector3<f64> {
    -m.q().component_div(&Vector3::new(1.0, 2.0, 3.0))
}

#[test]
fn fsal_rows_save_one_exponential_and_give_the_same_point() {
    let action = RotationAction::<f64>::new();
    let y0 = Sphere2::try_new(Vector3::new(0.6, 0.0, 0.8)).unwrap();
    let tol = Tolerance::new(1e-6, 1e-6).unwrap();
    for (tableau, stages) in [(&DOPRI54, 7), (&BOGACKI_SHAMPINE32, 4)] {
        let mut st = Rkmk::<RotationAction>::exp(tableau).unwrap();
        let out = st.step(&action, &field, 0.0, &y0, 0.3, Some(&tol)).unwrap();
        let stats = st.stats();
        assert_eq!(stats.f_evals, stages, "{}", tableau.name);
        // Stage 1 needs no exponential, and y₁ reuses the last stage point.
        assert_eq!(stats.exps, stages - 1, "{}", tableau.name);
        assert!(out.error.is_some());
        if st.has_dense_output() {
            let d = st.dense_output(&action, &y0, 1.0).unwrap();
            assert!((d.q() - out.y.q()).norm() < 1e-14, "{}", tableau.name);
        }
        // Stepping back with −h returns to y₀ up to the local error (a wrong y₁ would be O(h)
        // off).
        let back = st.step(&action, &field, 0.3, &out.y, -0.3, None).unwrap().y;
        assert!((back.q() - y0.q()).norm() < 1e-3, "{}", tableau.name);
    }
    // RK4's last row is not b: one exponential per stage after the first, plus the update.
    let mut st = Rkmk::<RotationAction>::exp(&RK4).unwrap();
    st.step(&action, &field, 0.0, &y0, 0.3, None).unwrap();
    assert_eq!(st.stats().exps, 4);
}
