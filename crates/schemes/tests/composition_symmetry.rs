//! Compositions accept only bases that are symmetric on a Lie group.
//!
//! RKMK methods with a symmetric tableau (Gauss–Legendre with ≥ 2 stages) are not symmetric
//! on a non-abelian group: their coordinates are centred at the start point of the step, and
//! `Φ₋ₕ(Φₕ(y₀)) ≠ y₀`. Composed, they fall short of the scheme's order (`kahan-li8(gl4)` and
//! `kahan-li8(rkmk4)` observed order 5). The test of symmetry is the definition: one step
//! forward with `h`, one back with `−h`, on the free rigid body in SO(3) (non-abelian,
//! spatial frame `Ṙ = (R I⁻¹ Rᵀ m)^ R` with the constant spatial angular momentum `m`).
//!
//! (The observed orders of every accepted registry composition, `<scheme>(gl2)`, are checked
//! against the exact free rigid body in `tests/composition.rs`,
//! `compositions_of_gl2_have_the_orders_of_their_schemes`; those of the compositions of
//! `SphereVariational` in `crates/models/tests/variational.rs`.)

use homogeneous::{LeftMultiplication, PowerAction, TangentSphere2, TangentSphereAction};
use liegroup::{LieGroup, So3};
use nalgebra::{Vector3, Vector6};
use schemes::composition::{Composition, SCHEMES, registry_base_is_symmetric};
use schemes::methods::{self, METHODS};
use schemes::variational::{SphereLagrangian, SphereVariational};
use schemes::{AnyStepper, ImplicitRkmk, SchemeError, Stepper, catalogue};

type A = LeftMultiplication<So3<f64>>;

const INERTIA: Vector3<f64> = Vector3::new(1.0, 2.0, 3.0);

/// The free rigid body in the spatial frame: `ω_s = R I⁻¹ Rᵀ m`.
fn field(_t: f64, r: &So3<f64>) -> Vector3<f64> {
    let m = Vector3::new(0.4, -1.1, 0.7);
    let r = r.matrix();
    r * (r.transpose() * m).component_div(&INERTIA)
}

fn start() -> So3<f64> {
    So3::exp(&Vector3::new(0.3, -0.5, 0.8))
}

/// `‖Φ₋ₕ(Φₕ(R₀)) − R₀‖_max` (the entries of a rotation are O(1): relative = absolute).
fn defect<S: Stepper<A>>(s: &mut S, h: f64) -> f64 {
    let action = A::new();
    let y0 = start();
    let y1 = s.step(&action, &field, 0.0, &y0, h, None).unwrap().y;
    let back = s.step(&action, &field, h, &y1, -h, None).unwrap().y;
    (back.matrix() - y0.matrix()).amax()
}

const H: [f64; 3] = [0.05, 0.2, 0.5];
/// Round-off of one implicit solve (tolerance 1e-14 relative) and two exponentials.
const ROUND_OFF: f64 = 1e-13;

#[test]
fn every_accepted_rkmk_base_is_symmetric_on_so3() {
    let mut gl2 = ImplicitRkmk::<A>::exp(&catalogue::GAUSS_LEGENDRE2);
    assert!(gl2.symmetric_on_group());
    let mut reg = methods::find("gl2").unwrap().stepper::<A>();
    for h in H {
        let d = defect(&mut gl2, h);
        assert!(d <= ROUND_OFF, "gl2, h = {h}: {d:e}");
        let d = defect(&mut reg, h);
        assert!(d <= ROUND_OFF, "gl2 (registry), h = {h}: {d:e}");
    }
    // Every registry method accepted as a base passes the same test.
    for m in METHODS.iter().filter(|m| registry_base_is_symmetric(m)) {
        let mut s = m.stepper::<A>();
        for h in H {
            let d = defect(&mut s, h);
            assert!(d <= ROUND_OFF, "{}, h = {h}: {d:e}", m.id);
        }
    }
    // Compositions of a symmetric base are symmetric (they are accepted as bases too).
    for scheme in SCHEMES {
        let mut c = Composition::new::<A>(scheme, gl2.clone()).unwrap();
        assert!(Stepper::<A>::symmetric_on_group(&c));
        for h in H {
            let d = defect(&mut c, h);
            assert!(d <= 4.0 * ROUND_OFF, "{}(gl2), h = {h}: {d:e}", scheme.id);
        }
    }
}

#[test]
fn rkmk_with_symmetric_tableaux_is_not_symmetric_on_so3_and_is_refused() {
    // The defect is far above round-off: these are the reason for the refusal.
    for id in [
        "gl4",
        "gl6",
        "rkmk4",
        "rkmk-midpoint",
        "rkmk2",
        "cf4",
        "cg4",
        "rkmk4-2comm",
    ] {
        let mut s = methods::find(id).unwrap().stepper::<A>();
        // (gl6: 1.5e-10 at h = 0.5, its defect being O(h⁷).)
        let d = defect(&mut s, 0.5);
        assert!(d > 100.0 * ROUND_OFF, "{id}: defect {d:e}");
        assert!(!s.symmetric_on_group(), "{id}");
    }
    // Refused as composition bases, by value and by identifier, for every scheme.
    for scheme in SCHEMES {
        for id in ["rkmk4", "gl4", "gl6"] {
            let base = methods::find(id).unwrap().stepper::<A>();
            let r = Composition::new::<A>(scheme, base);
            assert!(
                matches!(&r, Err(SchemeError::Unsupported { method, .. }) if method == id),
                "{}({id}): {r:?}",
                scheme.id
            );
            let r = Composition::<AnyStepper<A>>::from_ids(scheme.id, id);
            assert!(
                matches!(&r, Err(SchemeError::Unsupported { reason, .. }) if reason.contains("not symmetric")),
                "{}({id}): {r:?}",
                scheme.id
            );
        }
        let gl4 = ImplicitRkmk::<A>::exp(&catalogue::GAUSS_LEGENDRE4);
        assert!(matches!(
            Composition::new::<A>(scheme, gl4),
            Err(SchemeError::Unsupported { .. })
        ));
    }
    // Only gl2 of the registry is accepted.
    let accepted: Vec<&str> = METHODS
        .iter()
        .filter(|m| registry_base_is_symmetric(m))
        .map(|m| m.id)
        .collect();
    assert_eq!(accepted, ["gl2"]);
    for m in METHODS {
        let r = Composition::<AnyStepper<A>>::from_ids("yoshida4", m.id);
        assert_eq!(r.is_ok(), m.id == "gl2", "{}", m.id);
    }
}

/// Two pendulums on S² with a full inertia matrix (the implicit form with Newton), or a
/// diagonal one (the explicit form).
struct Pendulums {
    coupling: f64,
}

impl SphereLagrangian for Pendulums {
    fn bodies(&self) -> usize {
        2
    }
    fn inertia(&self, i: usize, j: usize) -> f64 {
        if i == j {
            2.0 - f64::from(i as u8) * 0.5
        } else {
            self.coupling
        }
    }
    fn has_diagonal_inertia(&self) -> bool {
        self.coupling == 0.0
    }
    fn potential(&self, q: &[Vector3<f64>]) -> f64 {
        9.81 * (2.0 * q[0].z + q[1].z) + q[0].dot(&q[1]).powi(2)
    }
    fn potential_gradient(&self, q: &[Vector3<f64>], g: &mut [Vector3<f64>]) {
        let d = 2.0 * q[0].dot(&q[1]);
        g[0] = Vector3::new(0.0, 0.0, 2.0 * 9.81) + q[1] * d;
        g[1] = Vector3::new(0.0, 0.0, 9.81) + q[0] * d;
    }
}

#[test]
fn the_variational_integrator_is_symmetric() {
    type P = PowerAction<TangentSphereAction, 2>;
    let action = P::new(TangentSphereAction::new());
    let f = |_t: f64, _y: &[TangentSphere2; 2]| [Vector6::zeros(); 2];
    let q0 = Vector3::new(0.6, 0.0, 0.8);
    let q1 = Vector3::new(0.0, -0.28, 0.96);
    let y0 = [
        TangentSphere2::try_new(q0, Vector3::new(0.0, 1.5, 0.0)).unwrap(),
        TangentSphere2::try_new(q1, Vector3::new(0.7, 0.0, 0.0)).unwrap(),
    ];
    let implicit = SphereVariational::<_, f64>::implicit(Pendulums { coupling: 0.5 }).unwrap();
    let explicit = SphereVariational::<_, f64>::explicit(Pendulums { coupling: 0.0 }).unwrap();
    for mut s in [implicit, explicit] {
        assert!(Stepper::<P>::symmetric_on_group(&s));
        for h in [0.01, 0.05, 0.1] {
            let y1 = s.step(&action, &f, 0.0, &y0, h, None).unwrap().y;
            let back = s.step(&action, &f, h, &y1, -h, None).unwrap().y;
            let mut d: f64 = 0.0;
            for (a, b) in back.iter().zip(&y0) {
                d = d
                    .max((a.q() - b.q()).amax())
                    .max((a.omega() - b.omega()).amax());
            }
            // |ω| = O(1): round-off of the Newton solve (tol 1e-14) and of (3.12).
            assert!(d <= 1e-13, "{}, h = {h}: {d:e}", Stepper::<P>::name(&s));
        }
    }
}
