//! Orders of convergence and golden one-step values of the symplectic and variational
//! integrators on T*SO(3): the θ-family (any G; here SO(3)), the LGVI and the DLM splitting.
//!
//! References are RKMK runs with Butcher's sixth-order tableau on the Hamiltonian vector field
//! `f = (∂H/∂π, −ν)` of the same problem (a different method family, exact `dexp` of SO(3)), at a
//! step where they agree with a run of half the step to ~1e-13.

use homogeneous::{Action, LieVectorField};
use liegroup::scalar::c;
use liegroup::{LieGroup, So3};
use nalgebra::{Matrix3, Vector3};
use schemes::catalogue::BUTCHER6;
use schemes::symplectic::{
    CotangentAction, CotangentPoint, DlmSplitting, HamiltonianVectorField, HeavyTop, Lgvi, LgviMap,
    RigidBody, ThetaMethod, UniformGravity,
};
use schemes::{
    Algebra, ConvergenceRow, Options, Problem, Rkmk, Scalar, SchemeError, StepOutput, StepStats,
    Stepper, Tolerance, format_table, integrate, measure_order,
};

type Act = CotangentAction<So3>;

/// The reduced heavy top of `docs/derivations.md` §5: I = diag(1, 2, 3), M g ℓ = 1.5,
/// χ = (0.1, 0.2, 1)/|·|.
fn v_top() -> HeavyTop {
    let chi = Vector3::new(0.1, 0.2, 1.0).normalize();
    RigidBody::new(
        Vector3::new(1.0, 2.0, 3.0),
        UniformGravity::new(1.5, 1.0, chi).unwrap(),
    )
    .unwrap()
}

fn v_r0() -> So3 {
    So3::exp(&Vector3::new(0.3, 0.2, -0.1))
}

/// The initial state of the reduced top (`docs/derivations.md` §5): spatial momentum (0.5, −1, 2)
/// for the θ-family.
fn v_state() -> CotangentPoint<So3> {
    CotangentPoint::new(v_r0(), Vector3::new(0.5, -1.0, 2.0))
}

/// max(‖R − R_ref‖_max, ‖π − π_ref‖_∞ / max(1, ‖π_ref‖_∞)).
fn distance(a: &CotangentPoint<So3>, b: &CotangentPoint<So3>) -> f64 {
    let dr = (a.g.matrix() - b.g.matrix()).amax();
    let dp = (a.mu - b.mu).amax() / b.mu.amax().max(1.0);
    dr.max(dp)
}

fn reference(
    top: &HeavyTop,
    y0: &CotangentPoint<So3>,
    t_end: f64,
    n: usize,
) -> CotangentPoint<So3> {
    let problem = Problem::new(Act::new(), HamiltonianVectorField(top.clone()));
    let mut rk = Rkmk::<Act>::exp(&BUTCHER6).unwrap();
    let opts = Options::count(n).save_final();
    let sol = integrate(&problem, &mut rk, 0.0, y0.clone(), t_end, &opts).unwrap();
    let coarse = integrate(
        &problem,
        &mut rk,
        0.0,
        y0.clone(),
        t_end,
        &Options::count(n / 2).save_final(),
    )
    .unwrap();
    let check = distance(coarse.last().1, sol.last().1);
    assert!(check < 1e-11, "reference not converged: {check:e}");
    sol.last().1.clone()
}

fn assert_order(row: &ConvergenceRow, expected: f64) {
    let fit = row.fit.as_ref().expect("enough points for a fit");
    assert!(
        (fit.slope - expected).abs() <= 0.2 && fit.used.len() >= 3,
        "{}: observed {:.3} (expected {expected}), used {:?}, local slopes {:?}, errors {:?}",
        row.method,
        fit.slope,
        fit.used,
        fit.local_slopes,
        row.errors
    );
}

fn run<S: Stepper<Act>>(
    top: &HeavyTop,
    mut stepper: S,
    y0: &CotangentPoint<So3>,
    t_end: f64,
    reference: &CotangentPoint<So3>,
    steps: &[usize],
) -> ConvergenceRow {
    let problem = Problem::new(Act::new(), HamiltonianVectorField(top.clone()));
    measure_order(
        &problem,
        &mut stepper,
        0.0,
        y0,
        t_end,
        reference,
        steps,
        distance,
        1e-12,
    )
    .unwrap()
}

#[test]
fn golden_one_step_values_of_algorithms_v() {
    // `docs/derivations.md` §5, "One-step reference values" (an independent implementation;
    // ~12 significant digits), h = 0.1.
    let top = v_top();
    let y1 = ThetaMethod::midpoint(top.clone())
        .advance(0.0, &v_state(), 0.1)
        .unwrap();
    let pi = Vector3::new(0.518006244102591, -0.957679226309603, 2.0);
    assert!((y1.mu - pi).amax() < 1e-12, "{:?}", y1.mu);
    let r = Matrix3::new(
        0.984693991381943,
        0.056004393490447,
        0.165049238853336,
        -0.000896227260417,
        0.948583495432831,
        -0.316525747719091,
        -0.174289816435144,
        0.311533080269494,
        0.934114660940939,
    );
    assert!((y1.g.matrix() - r).amax() < 1e-12, "{}", y1.g.matrix());
    let y1 = ThetaMethod::new(top.clone(), 0.0)
        .unwrap()
        .advance(0.0, &v_state(), 0.1)
        .unwrap();
    let pi = Vector3::new(0.517510534235115, -0.955566876014242, 2.0);
    assert!((y1.mu - pi).amax() < 1e-12, "{:?}", y1.mu);
    // LGVI, c = ½, body momentum Π₀ = (0.5, −1, 2); both parametrizations of F_k.
    let yb = CotangentPoint::from_body(v_r0(), Vector3::new(0.5, -1.0, 2.0));
    for map in [LgviMap::Cayley, LgviMap::Exp] {
        let y1 = Lgvi::new(top.clone(), map).advance(0.0, &yb, 0.1).unwrap();
        let body = Vector3::new(0.550230025590817, -0.890225111872104, 2.014910911363763);
        assert!((y1.body_momentum() - body).amax() < 1e-12, "{map:?}");
        let row = Vector3::new(0.989204780111054, 0.069570253566197, 0.128972411097014);
        assert!(
            (y1.g.matrix().row(0).transpose() - row).amax() < 1e-12,
            "{map:?}"
        );
    }
}

#[test]
fn orders_on_the_algorithms_v_top() {
    let top = v_top();
    let y0 = v_state();
    let t_end = 1.0;
    let reference = reference(&top, &y0, t_end, 4000);
    let steps = [20, 40, 80, 160, 320];
    let rows = vec![
        (
            run(
                &top,
                ThetaMethod::midpoint(top.clone()),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            2.0,
        ),
        (
            run(
                &top,
                ThetaMethod::new(top.clone(), 0.0).unwrap(),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            1.0,
        ),
        (
            run(
                &top,
                ThetaMethod::new(top.clone(), 0.3).unwrap(),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            1.0,
        ),
        (
            run(
                &top,
                ThetaMethod::new(top.clone(), 1.0).unwrap(),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            1.0,
        ),
        (
            run(
                &top,
                Lgvi::new(top.clone(), LgviMap::Cayley),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            2.0,
        ),
        (
            run(
                &top,
                Lgvi::new(top.clone(), LgviMap::Exp),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            2.0,
        ),
        (
            run(
                &top,
                Lgvi::new(top.clone(), LgviMap::Cayley)
                    .with_potential_weight(0.0)
                    .unwrap(),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            1.0,
        ),
        (
            run(
                &top,
                DlmSplitting::new(top.clone()),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            2.0,
        ),
        (
            run(
                &top,
                DlmSplitting::new(top.clone())
                    .with_axis_order([2, 1, 0])
                    .unwrap(),
                &y0,
                t_end,
                &reference,
                &steps,
            ),
            2.0,
        ),
    ];
    let table: Vec<ConvergenceRow> = rows.iter().map(|(r, _)| r.clone()).collect();
    println!("{}", format_table(&table));
    for (row, p) in &rows {
        assert_eq!(f64::from(row.expected_order), *p, "{}", row.method);
        assert_order(row, *p);
    }
}

#[test]
fn orders_on_the_bc10_heavy_top() {
    // [BC10]: Ω₀ = (0, 150, −4.61538) rad/s; T = 0.1 s is 2.4 turns of the spin.
    let top = HeavyTop::heavy_top_bc10();
    let y0 = HeavyTop::heavy_top_bc10_initial();
    let t_end = 0.1;
    let reference = reference(&top, &y0, t_end, 8000);
    let steps = [50, 100, 200, 400, 800];
    let mut rows = vec![
        run(
            &top,
            ThetaMethod::midpoint(top.clone()),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
        run(
            &top,
            Lgvi::new(top.clone(), LgviMap::Cayley),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
        run(
            &top,
            Lgvi::new(top.clone(), LgviMap::Exp),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
        run(
            &top,
            DlmSplitting::new(top.clone()),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
    ];
    for row in &rows {
        assert_order(row, 2.0);
    }
    // The first-order members need smaller steps: their O(h) term is small next to the O(h²)
    // phase error of the fast spin, so the asymptotic range starts near h = 1e-4.
    let fine = [800, 1600, 3200, 6400, 12800];
    for theta in [0.0, 1.0] {
        let row = run(
            &top,
            ThetaMethod::new(top.clone(), theta).unwrap(),
            &y0,
            t_end,
            &reference,
            &fine,
        );
        assert_order(&row, 1.0);
        rows.push(row);
    }
    println!("{}", format_table(&rows));
}

/// The Yoshida triple jump Φ_{γ₁h} ∘ Φ_{γ₂h} ∘ Φ_{γ₁h} ([Yos90]; `docs/derivations.md` §4) of a
/// base stepper: order 4 exactly when the base method is symmetric of order 2.
struct TripleJump<S>(S);

const GAMMA1: f64 = 1.351_207_191_959_657_8;
const GAMMA2: f64 = -1.702_414_383_919_315_3;

impl<A: Action, S: Stepper<A>> Stepper<A> for TripleJump<S> {
    fn name(&self) -> String {
        format!("triple-jump({})", self.0.name())
    }
    fn order(&self) -> u32 {
        4
    }
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        let mut y = y.clone();
        let mut t = t;
        for g in [GAMMA1, GAMMA2, GAMMA1] {
            let hg = h * c::<Scalar<A>>(g);
            y = self.0.step(action, f, t, &y, hg, tol)?.y;
            t += hg;
        }
        Ok(StepOutput { y, error: None })
    }
    fn stats(&self) -> StepStats {
        self.0.stats()
    }
    fn reset_stats(&mut self) {
        self.0.reset_stats();
    }
}

#[test]
fn the_second_order_methods_are_symmetric_the_triple_jump_gives_order_four() {
    let top = v_top();
    let y0 = v_state();
    let t_end = 1.0;
    let reference = reference(&top, &y0, t_end, 4000);
    let steps = [10, 20, 40, 80];
    let rows = [
        run(
            &top,
            TripleJump(ThetaMethod::midpoint(top.clone())),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
        run(
            &top,
            TripleJump(Lgvi::new(top.clone(), LgviMap::Cayley)),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
        run(
            &top,
            TripleJump(DlmSplitting::new(top.clone())),
            &y0,
            t_end,
            &reference,
            &steps,
        ),
    ];
    println!("{}", format_table(&rows));
    for row in &rows {
        assert_order(row, 4.0);
    }
}
