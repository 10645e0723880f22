//! With the `rayon` feature, long runtime powers are processed on rayon's pool: the explicit
//! variational step's passes over the bodies and the RKMK engine's loops over the factors of
//! `VecPowerAction<TangentSphereAction>` (through `liegroup`'s and `homogeneous`'s `Vec` powers).
//! Above the length threshold, steps on pools of 1, 2 and 3 threads give the same bits, and an
//! error for bad input names the same body as a serial scan (the first bad one).
#![cfg(feature = "rayon")]

use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use liegroup::par::PAR_THRESHOLD;
use nalgebra::{Vector3, Vector6};
use schemes::variational::{SphereLagrangian, SphereVariational};
use schemes::{SchemeError, Stepper};

type Act = VecPowerAction<TangentSphereAction>;

/// Bodies: well above the threshold, several chunks and an incomplete last one.
const N: usize = 3 * PAR_THRESHOLD + 123;

/// `N` independent spherical pendulums of unit mass in slightly different fields: diagonal
/// inertia, `V = Σ gᵢ·qᵢ`.
struct Pendulums;

fn field(i: usize) -> Vector3<f64> {
    let x = i as f64;
    Vector3::new((0.37 * x).sin(), (0.11 * x).cos(), 9.81 + 0.01 * x)
}

impl SphereLagrangian for Pendulums {
    fn bodies(&self) -> usize {
        N
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        if i == j { 1.0 + 0.001 * i as f64 } else { 0.0 }
    }
    fn has_diagonal_inertia(&self) -> bool {
        true
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        q.iter().enumerate().map(|(i, q)| field(i).dot(q)).sum()
    }
    fn potential_gradient(&self, _q: &[Vector3<f64>], grad: &mut [Vector3<f64>]) {
        for (i, g) in grad.iter_mut().enumerate() {
            *g = field(i);
        }
    }
}

fn state() -> (Vec<Vector3<f64>>, Vec<Vector3<f64>>) {
    (0..N)
        .map(|i| {
            let x = i as f64;
            let q =
                Vector3::new((1.3 * x).cos(), (0.7 * x).sin(), 0.5 + (0.3 * x).sin()).normalize();
            let r = Vector3::new((0.9 * x).sin(), 1.0, (0.2 * x).cos());
            (q, r - q * q.dot(&r))
        })
        .unzip()
}

fn on_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

type Slices = (Vec<Vector3<f64>>, Vec<Vector3<f64>>);

/// Three explicit steps (the second and third reuse the cached gradient).
fn explicit_steps(q: &[Vector3<f64>], w: &[Vector3<f64>]) -> Result<Slices, SchemeError> {
    let mut vi = SphereVariational::explicit(Pendulums).unwrap();
    let (mut qa, mut wa) = (q.to_vec(), w.to_vec());
    let (mut qb, mut wb) = (vec![Vector3::zeros(); N], vec![Vector3::zeros(); N]);
    for _ in 0..3 {
        vi.step_slices(0.0, &qa, &wa, 0.01, &mut qb, &mut wb)?;
        core::mem::swap(&mut qa, &mut qb);
        core::mem::swap(&mut wa, &mut wb);
    }
    Ok((qa, wa))
}

#[test]
fn explicit_variational_steps_are_bitwise_independent_of_the_number_of_threads() {
    let (q, w) = state();
    let one = on_pool(1, || explicit_steps(&q, &w)).unwrap();
    for threads in [2, 3] {
        let other = on_pool(threads, || explicit_steps(&q, &w)).unwrap();
        assert!(one == other, "{threads} threads");
    }
    // The serial reference: the same closed form, body by body.
    let (q1, _) = &one;
    assert!(q1.iter().all(|q| (q.norm() - 1.0).abs() < 1e-13));
}

/// `(what, index)` of an error of a step (the body named by the error, if any).
fn describe(e: &SchemeError) -> String {
    match e {
        SchemeError::NotOnManifold { what, index, .. } => format!("{what} at {index}"),
        SchemeError::StepTooLarge { reason, .. } => reason.clone(),
        other => format!("{other}"),
    }
}

#[test]
fn explicit_step_errors_name_the_same_body_on_any_pool() {
    let (q, w) = state();
    // Off the sphere at two bodies in different chunks: the first one is reported.
    let mut off = q.clone();
    off[N - 10] *= 1.01;
    off[PAR_THRESHOLD + 7] *= 1.01;
    // Not tangent at two bodies.
    let mut skew = w.clone();
    skew[N - 3] += q[N - 3];
    skew[PAR_THRESHOLD + 1] += q[PAR_THRESHOLD + 1];
    // |aᵢ| ≥ 1 in (3.17) at two bodies (a huge tangent velocity).
    let mut fast = w.clone();
    for i in [N - 1, 2 * PAR_THRESHOLD + 5] {
        fast[i] = fast[i].normalize() * 1e4;
    }
    // A non-finite ω.
    let mut nan = w.clone();
    nan[N - 100].y = f64::NAN;
    type Case<'a> = (&'a str, &'a [Vector3<f64>], &'a [Vector3<f64>], String);
    let cases: [Case; 4] = [
        (
            "off the sphere",
            &off,
            &w,
            format!("||q| − 1| at {}", PAR_THRESHOLD + 7),
        ),
        (
            "not tangent",
            &q,
            &skew,
            format!("|q·ω|/max(1, |ω|) at {}", PAR_THRESHOLD + 1),
        ),
        (
            "step too large",
            &q,
            &fast,
            format!("for body {} in (3.17)", 2 * PAR_THRESHOLD + 5),
        ),
        ("non-finite", &q, &nan, "non-finite state".into()),
    ];
    for (name, q, w, expected) in cases {
        let one = describe(&on_pool(1, || explicit_steps(q, w)).unwrap_err());
        assert!(
            one.contains(&expected) || matches!(name, "non-finite"),
            "{name}: {one}"
        );
        for threads in [2, 3] {
            let other = describe(&on_pool(threads, || explicit_steps(q, w)).unwrap_err());
            assert_eq!(one, other, "{name} on {threads} threads");
        }
    }
    let e = on_pool(2, || explicit_steps(&q, &nan)).unwrap_err();
    assert!(
        matches!(e, SchemeError::NonFinite { what: "state", .. }),
        "{e}"
    );
}

/// The Lie field of the pendulums on (TS²)ᴺ: `(ωᵢ, qᵢ × ω̇ᵢ)` with `ω̇ᵢ = −qᵢ × gᵢ / mᵢ`.
fn lie_field(_t: f64, p: &Vec<TangentSphere2>, out: &mut Vec<Vector6<f64>>) {
    out.resize(p.len(), Vector6::zeros());
    for (i, (o, p)) in out.iter_mut().zip(p).enumerate() {
        let (q, w) = (p.q(), p.omega());
        let a = -q.cross(&field(i)) / (1.0 + 0.001 * i as f64);
        let v = q.cross(&a);
        *o = Vector6::new(w.x, w.y, w.z, v.x, v.y, v.z);
    }
}

fn rkmk_steps(id: &str, y0: &[TangentSphere2]) -> Vec<TangentSphere2> {
    let action = Act::new(TangentSphereAction::new());
    let mut stepper = schemes::methods::find(id).unwrap().stepper::<Act>();
    let f = |t: f64, p: &Vec<TangentSphere2>| {
        let mut out = Vec::new();
        lie_field(t, p, &mut out);
        out
    };
    let mut y = y0.to_vec();
    for k in 0..3 {
        y = stepper
            .step(&action, &f, 0.01 * f64::from(k), &y, 0.01, None)
            .unwrap()
            .y;
    }
    y
}

#[test]
fn rkmk_and_commutator_free_steps_are_bitwise_independent_of_the_number_of_threads() {
    let (q, w) = state();
    let y0: Vec<TangentSphere2> = q
        .iter()
        .zip(&w)
        .map(|(q, w)| TangentSphere2::new_projected(*q, *w).unwrap())
        .collect();
    for id in ["rkmk4", "rkmk54", "cf4"] {
        let one = on_pool(1, || rkmk_steps(id, &y0));
        for threads in [2, 3] {
            let other = on_pool(threads, || rkmk_steps(id, &y0));
            assert!(one == other, "{id} on {threads} threads");
        }
        assert!(one.iter().all(|p| (p.q().norm() - 1.0).abs() < 1e-12));
    }
}
