//! The Lee–Leok–McClamroch variational integrator [LLM09, §3] (`schemes::variational`) on the
//! models of this crate: order 2 (implicit and explicit forms) and the orders 4, 6, 8 of its
//! symmetric compositions; symmetry; agreement of the explicit form with eqs. (3.17)–(3.18) as
//! printed; Newton against fixed-point iteration; momentum conservation; symplecticity of the
//! exact (dual-number) Jacobian of a step in canonical coordinates; typed errors.
//!
//! The long run of the double spherical pendulum (10⁶ steps) is in `variational_long.rs`.

// Index loops mirror the formulas (sums over bodies i, j).
#![allow(clippy::needless_range_loop)]
// `&Vec<TangentSphere2>` is the point type of the power action (closures and fn items must
// match it exactly).
#![allow(clippy::ptr_arg)]

use homogeneous::{PowerAction, TangentSphere2, TangentSphereAction, VecPowerAction};
use liegroup::num_dual::DualSVec64;
use models::{
    DoubleSphericalPendulum, ElasticRod, LieField, NFoldPendulum, Potential, SphereModel,
    SphereNBody, SphereState, SphereSystem,
};
use nalgebra::{DMatrix, DVector, Matrix3x2, Vector2, Vector3, Vector6};
use schemes::composition::{self, Composition};
use schemes::variational::{
    SphereLagrangian, SphereVariational, VariationalForm, VariationalOptions, VariationalScalar,
    VariationalSolver,
};
use schemes::{
    ConvergenceRow, Options, Problem, SchemeError, Stepper, format_table, integrate, measure_order,
    methods,
};

type A = VecPowerAction<TangentSphereAction>;

fn action() -> A {
    VecPowerAction::new(TangentSphereAction::new())
}

/// The ambient max-norm distance between two states of (TS²)ⁿ.
fn distance(a: &Vec<TangentSphere2>, b: &Vec<TangentSphere2>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.q() - y.q()).amax().max((x.omega() - y.omega()).amax()))
        .fold(0.0, f64::max)
}

/// A reference solution by RKMK6 (order 6) with `steps` steps.
fn reference<P: Potential>(
    sys: &SphereSystem<P>,
    x0: &SphereState,
    t: f64,
    steps: usize,
) -> Vec<TangentSphere2> {
    let problem = Problem::new(action(), LieField::new(sys));
    let mut rk6 = methods::find("rkmk6").unwrap().stepper::<A>();
    let sol = integrate(
        &problem,
        &mut rk6,
        0.0,
        x0.to_tangent_points(),
        t,
        &Options::count(steps).save_final(),
    )
    .unwrap();
    sol.last().1.clone()
}

fn check_rows(title: &str, rows: &[ConvergenceRow]) {
    println!("\n{title}\n{}", format_table(rows));
    for r in rows {
        let slope = r.observed_order();
        assert!(
            (slope - f64::from(r.expected_order)).abs() <= 0.2,
            "{title}: {} observed order {slope:.3}, expected {} (errors {:?}, fit {:?})",
            r.method,
            r.expected_order,
            r.errors,
            r.fit
        );
    }
}

#[test]
fn order_two_and_compositions_on_the_double_spherical_pendulum() {
    // Implicit form (non-diagonal inertia). T = 2 s (about a third of the slow period).
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x0 = DoubleSphericalPendulum::initial_state();
    let t_end = 2.0;
    let exact = reference(sys, &x0, t_end, 4000);
    let problem = Problem::new(action(), LieField::new(sys));
    let y0 = x0.to_tangent_points();
    let mut rows = Vec::new();
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    assert_eq!(vi.form(), VariationalForm::Implicit);
    rows.push(
        measure_order(
            &problem,
            &mut vi,
            0.0,
            &y0,
            t_end,
            &exact,
            &[8, 16, 32, 64, 128, 256],
            distance,
            1e-12,
        )
        .unwrap(),
    );
    for (scheme, steps) in [
        (&composition::YOSHIDA4, vec![4, 8, 16, 32, 64, 128]),
        (&composition::SUZUKI4, vec![4, 8, 16, 32, 64, 128]),
        (&composition::YOSHIDA6, vec![4, 6, 8, 12, 16, 24, 32]),
        (&composition::KAHAN_LI6, vec![2, 3, 4, 6, 8, 12, 16]),
        (&composition::KAHAN_LI8, vec![2, 3, 4, 5, 6, 8, 10]),
        (&composition::MCLACHLAN8, vec![3, 4, 5, 6, 8, 10, 12]),
    ] {
        let base = sys.variational_integrator::<f64>().unwrap();
        let mut comp = Composition::new::<A>(scheme, base).unwrap();
        rows.push(
            measure_order(
                &problem, &mut comp, 0.0, &y0, t_end, &exact, &steps, distance, 1e-12,
            )
            .unwrap(),
        );
    }
    check_rows(
        "double spherical pendulum, T = 2 (reference: RKMK6, 4000 steps)",
        &rows,
    );
}

#[test]
fn order_two_of_the_explicit_form() {
    // Diagonal inertia: three bodies on a sphere (Kozlov–Harin) and the coupled pendula.
    let (p, x0) = SphereNBody::three_body();
    let sys = p.system();
    let t_end = 1.0;
    let exact = reference(sys, &x0, t_end, 4000);
    let problem = Problem::new(action(), LieField::new(sys));
    let mut vi = SphereVariational::explicit(sys).unwrap();
    let row = measure_order(
        &problem,
        &mut vi,
        0.0,
        &x0.to_tangent_points(),
        t_end,
        &exact,
        &[16, 32, 64, 128, 256, 512],
        distance,
        1e-12,
    )
    .unwrap();
    let (p2, x2) = models::CoupledPendula::four_pendula();
    let sys2 = p2.system();
    let exact2 = reference(sys2, &x2, t_end, 8000);
    let problem2 = Problem::new(action(), LieField::new(sys2));
    let mut vi2 = SphereVariational::explicit(sys2).unwrap();
    let row2 = measure_order(
        &problem2,
        &mut vi2,
        0.0,
        &x2.to_tangent_points(),
        t_end,
        &exact2,
        &[32, 64, 128, 256, 512, 1024],
        distance,
        1e-12,
    )
    .unwrap();
    check_rows(
        "explicit form: three bodies (T = 1) / four coupled pendula (T = 1)",
        &[row, row2],
    );
}

/// A field for `Stepper::step` (ignored by the variational stepper).
fn no_field(_t: f64, y: &Vec<TangentSphere2>) -> Vec<Vector6<f64>> {
    vec![Vector6::zeros(); y.len()]
}

/// `(|Φ₋ₕ(Φₕ(x)) − x|, |Φₕ(x) − x|)`.
fn symmetry_defect<P: Potential>(sys: &SphereSystem<P>, x: &SphereState, h: f64) -> (f64, f64) {
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    let y0 = x.to_tangent_points();
    let y1 = vi.step(&action(), &no_field, 0.0, &y0, h, None).unwrap().y;
    let back = vi.step(&action(), &no_field, h, &y1, -h, None).unwrap().y;
    (distance(&back, &y0), distance(&y1, &y0))
}

#[test]
fn the_method_is_symmetric() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let (nb, xb) = SphereNBody::three_body();
    let rod = ElasticRod::uniform(4, 0.055, 1.1, 0.5, 9.81, Vector3::x()).unwrap();
    let xr = SphereState::random(4, 1.0, 3);
    for (name, (back, moved)) in [
        (
            "double spherical pendulum (implicit)",
            symmetry_defect(p.system(), &DoubleSphericalPendulum::initial_state(), 0.05),
        ),
        (
            "three bodies (explicit)",
            symmetry_defect(nb.system(), &xb, 0.05),
        ),
        (
            "elastic rod, 4 elements (implicit)",
            symmetry_defect(rod.system(), &xr, 0.002),
        ),
    ] {
        println!("{name}: |Φ₋ₕ(Φₕ(x)) − x| = {back:.1e} (one step moves {moved:.1e})");
        assert!(back < 1e-13, "{name}: {back:e}");
        assert!(moved > 1e-3, "{name}: {moved:e}");
    }
}

#[test]
fn explicit_form_is_eqs_3_17_and_3_18_as_printed() {
    // aᵢ = hωᵢ − (h²/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ, qᵢ′ = aᵢ × qᵢ + √(1 − |aᵢ|²) qᵢ,
    // ωᵢ′ = ωᵢ − (h/2Mᵢᵢ) qᵢ × ∂V/∂qᵢ − (h/2Mᵢᵢ) qᵢ′ × ∂V/∂qᵢ′ [LLM09, (3.17)–(3.18)].
    let (p, x) = SphereNBody::three_body();
    let sys = p.system();
    let n = 3;
    let h = 0.02;
    let mut g = vec![Vector3::zeros(); n];
    let mut g1 = vec![Vector3::zeros(); n];
    sys.potential().gradient(&x.q, &mut g);
    let m: Vec<f64> = (0..n).map(|i| sys.inertia()[(i, i)]).collect();
    let q1: Vec<Vector3<f64>> = (0..n)
        .map(|i| {
            let a = x.omega[i] * h - x.q[i].cross(&g[i]) * (h * h / (2.0 * m[i]));
            a.cross(&x.q[i]) + x.q[i] * (1.0 - a.norm_squared()).sqrt()
        })
        .collect();
    sys.potential().gradient(&q1, &mut g1);
    let w1: Vec<Vector3<f64>> = (0..n)
        .map(|i| {
            x.omega[i]
                - x.q[i].cross(&g[i]) * (h / (2.0 * m[i]))
                - q1[i].cross(&g1[i]) * (h / (2.0 * m[i]))
        })
        .collect();
    let mut vi = SphereVariational::explicit(sys).unwrap();
    let (mut qa, mut wa) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    vi.step_slices(0.0, &x.q, &x.omega, h, &mut qa, &mut wa)
        .unwrap();
    for i in 0..n {
        assert!((qa[i] - q1[i]).amax() < 1e-15, "q {i}");
        assert!(
            (wa[i] - w1[i]).amax() < 1e-14,
            "ω {i}: {:e}",
            (wa[i] - w1[i]).amax()
        );
    }
    // The implicit form with a diagonal inertia matrix is the same map.
    let mut vim = SphereVariational::implicit(sys).unwrap();
    let (mut qb, mut wb) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
    vim.step_slices(0.0, &x.q, &x.omega, h, &mut qb, &mut wb)
        .unwrap();
    assert_eq!((qa, wa), (qb, wb));
}

#[test]
fn newton_and_fixed_point_agree() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x = DoubleSphericalPendulum::initial_state();
    let mut newton = SphereVariational::implicit(sys).unwrap();
    let mut fixed = SphereVariational::implicit(sys)
        .unwrap()
        .with_options(VariationalOptions {
            solver: VariationalSolver::FixedPoint,
            tol: 1e-15,
            max_iter: 1000,
        })
        .unwrap();
    let (mut qa, mut wa) = (vec![Vector3::zeros(); 2], vec![Vector3::zeros(); 2]);
    let (mut qb, mut wb) = (vec![Vector3::zeros(); 2], vec![Vector3::zeros(); 2]);
    for h in [0.01, 0.1] {
        newton
            .step_slices(0.0, &x.q, &x.omega, h, &mut qa, &mut wa)
            .unwrap();
        fixed
            .step_slices(0.0, &x.q, &x.omega, h, &mut qb, &mut wb)
            .unwrap();
        let d = (0..2)
            .map(|i| (qa[i] - qb[i]).amax().max((wa[i] - wb[i]).amax()))
            .fold(0.0, f64::max);
        println!(
            "h = {h}: |Newton − fixed point| = {d:.1e}; iterations: Newton {}, fixed point {}",
            Stepper::<A>::stats(&newton).iterations,
            Stepper::<A>::stats(&fixed).iterations
        );
        assert!(d < 1e-13, "h = {h}: {d:e}");
        Stepper::<A>::reset_stats(&mut newton);
        Stepper::<A>::reset_stats(&mut fixed);
    }
}

#[test]
fn momentum_maps_are_conserved() {
    // Full rotational symmetry (three bodies on a sphere, explicit form) and axial symmetry
    // (5-fold pendulum, implicit form), 2000 steps each.
    fn run<P: Potential>(
        sys: &SphereSystem<P>,
        x: &SphereState,
        h: f64,
        axis: Option<Vector3<f64>>,
    ) -> f64 {
        let mut vi = sys.variational_integrator::<f64>().unwrap();
        let j0 = sys.angular_momentum(&x.q, &x.omega);
        let n = x.bodies();
        let (mut q, mut w) = (x.q.clone(), x.omega.clone());
        let (mut q1, mut w1) = (vec![Vector3::zeros(); n], vec![Vector3::zeros(); n]);
        let mut p = vec![Vector3::zeros(); n];
        let mut err: f64 = 0.0;
        let mut scale: f64 = 0.0;
        for _ in 0..2000 {
            vi.step_slices(0.0, &q, &w, h, &mut q1, &mut w1).unwrap();
            core::mem::swap(&mut q, &mut q1);
            core::mem::swap(&mut w, &mut w1);
            let dj = sys.angular_momentum(&q, &w) - j0;
            err = err.max(match axis {
                Some(a) => dj.dot(&a).abs(),
                None => dj.amax(),
            });
            sys.conjugate_momenta(&q, &w, &mut p);
            scale = scale.max(q.iter().zip(&p).map(|(a, b)| a.cross(b).norm()).sum());
        }
        err / scale
    }
    let (nb, xb) = SphereNBody::three_body();
    let e1 = run(nb.system(), &xb, 0.01, None);
    let chain = NFoldPendulum::uniform(5, 1.0, 1.0, 9.81).unwrap();
    let xc = SphereState::random(5, 1.0, 11);
    let e2 = run(chain.system(), &xc, 0.002, Some(Vector3::z()));
    println!(
        "relative momentum drift over 2000 steps: three bodies (all of J) {e1:.1e}, 5-fold pendulum (J·e₃) {e2:.1e}"
    );
    assert!(e1 < 1e-13, "{e1:e}");
    assert!(e2 < 1e-13, "{e2:e}");
}

#[test]
fn vec_and_array_power_actions_give_the_same_step() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x = DoubleSphericalPendulum::initial_state();
    let y = x.to_tangent_points();
    let arr: [TangentSphere2; 2] = [y[0], y[1]];
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    let a = vi
        .step(&action(), &no_field, 0.0, &y, 0.01, None)
        .unwrap()
        .y;
    let pa = PowerAction::<_, 2>::new(TangentSphereAction::new());
    let fa = |_t: f64, _y: &[TangentSphere2; 2]| [Vector6::zeros(); 2];
    let b = vi.step(&pa, &fa, 0.0, &arr, 0.01, None).unwrap().y;
    assert_eq!(a, b.to_vec());
}

// ---------------------------------------------------------------------------------------------
// Symplecticity: the exact Jacobian of one step in canonical coordinates
// ---------------------------------------------------------------------------------------------

/// A chart of S² at `q̄`: `q(x) = (q̄ + Bx)/|q̄ + Bx|`, `B` an orthonormal basis of `q̄^⊥`;
/// `x(q) = Bᵀq/(q̄·q)`.
struct Chart {
    qbar: Vector3<f64>,
    b: Matrix3x2<f64>,
}

impl Chart {
    fn at(qbar: Vector3<f64>) -> Self {
        let e = if qbar.x.abs() < 0.6 {
            Vector3::x()
        } else {
            Vector3::y()
        };
        let b1 = qbar.cross(&e).normalize();
        let b2 = qbar.cross(&b1);
        Self {
            qbar,
            b: Matrix3x2::from_columns(&[b1, b2]),
        }
    }
    /// `(q, ∂q/∂x)` at `x`.
    fn point<T: VariationalScalar>(&self, x: &Vector2<T>) -> (Vector3<T>, nalgebra::Matrix3x2<T>) {
        let b = self.b.cast::<T>();
        let u = self.qbar.cast::<T>() + b * x;
        let r = u.norm();
        let q = u / r;
        let jac = (nalgebra::Matrix3::identity() - q * q.transpose()) * b / r;
        (q, jac)
    }
    fn coords<T: VariationalScalar>(&self, q: &Vector3<T>) -> Vector2<T> {
        self.b.cast::<T>().transpose() * q / self.qbar.cast::<T>().dot(q)
    }
}

/// `(x, p_x) ↦ (q, ω)`: `q̇ = J ẋ` with `G ẋ = p_x`, `Gᵢⱼ = Mᵢⱼ JᵢᵀJⱼ` (`L = ½ẋᵀGẋ − V`, so
/// `p_x = Gẋ` is the canonical momentum of the chart), `ωᵢ = qᵢ × q̇ᵢ`.
fn to_state<T: VariationalScalar>(
    charts: &[Chart],
    m: &DMatrix<f64>,
    z: &[T],
) -> (Vec<Vector3<T>>, Vec<Vector3<T>>) {
    let n = charts.len();
    let pts: Vec<_> = (0..n)
        .map(|i| charts[i].point(&Vector2::new(z[2 * i], z[2 * i + 1])))
        .collect();
    let g = DMatrix::<T>::from_fn(2 * n, 2 * n, |r, c| {
        let (i, a) = (r / 2, r % 2);
        let (j, b) = (c / 2, c % 2);
        let mij: T = nalgebra::convert(m[(i, j)]);
        mij * pts[i].1.column(a).dot(&pts[j].1.column(b))
    });
    let p = DVector::<T>::from_fn(2 * n, |r, _| z[2 * n + r]);
    let xdot = g.lu().solve(&p).expect("G is invertible");
    let q: Vec<_> = pts.iter().map(|p| p.0).collect();
    let omega = (0..n)
        .map(|i| {
            let qdot = pts[i].1 * Vector2::new(xdot[2 * i], xdot[2 * i + 1]);
            q[i].cross(&qdot)
        })
        .collect();
    (q, omega)
}

/// `(q, ω) ↦ (x, p_x)`, `p_x,ᵢ = Jᵢᵀ Σⱼ Mᵢⱼ (ωⱼ × qⱼ)`.
fn to_coords<T: VariationalScalar>(
    charts: &[Chart],
    m: &DMatrix<f64>,
    q: &[Vector3<T>],
    omega: &[Vector3<T>],
) -> Vec<T> {
    let n = charts.len();
    let mut z = vec![T::zero(); 4 * n];
    for i in 0..n {
        let x = charts[i].coords(&q[i]);
        let (_, jac) = charts[i].point(&x);
        let mut pi = Vector3::zeros();
        for j in 0..n {
            let mij: T = nalgebra::convert(m[(i, j)]);
            pi += omega[j].cross(&q[j]) * mij;
        }
        let px = jac.transpose() * pi;
        z[2 * i] = x[0];
        z[2 * i + 1] = x[1];
        z[2 * n + 2 * i] = px[0];
        z[2 * n + 2 * i + 1] = px[1];
    }
    z
}

/// `max|JᵀΩJ − Ω|` of one step of size `h` from `x0` (chart centred at `x0`), with `J` the
/// exact Jacobian from `DualSVec64<D>` numbers flowing through the stepper (`D = 4n`); also
/// `max|J|`.
fn symplecticity_defect<P: Potential, const D: usize>(
    sys: &SphereSystem<P>,
    x0: &SphereState,
    h: f64,
) -> (f64, f64) {
    type T<const D: usize> = DualSVec64<D>;
    let n = x0.bodies();
    assert_eq!(D, 4 * n);
    let charts: Vec<Chart> = x0.q.iter().map(|q| Chart::at(*q)).collect();
    let m = sys.inertia().clone();
    let z0 = to_coords::<f64>(&charts, &m, &x0.q, &x0.omega);
    let z: Vec<T<D>> = (0..D)
        .map(|k| T::<D>::from_re(z0[k]).derivative(k))
        .collect();
    let (q, omega) = to_state(&charts, &m, &z);
    let y: Vec<TangentSphere2<T<D>>> = q
        .iter()
        .zip(&omega)
        .map(|(a, b)| TangentSphere2::new_unchecked(*a, *b))
        .collect();
    let mut vi = sys.variational_integrator::<T<D>>().unwrap();
    let act = VecPowerAction::new(TangentSphereAction::<T<D>>::new());
    let f = |_t: T<D>, y: &Vec<TangentSphere2<T<D>>>| vec![Vector6::<T<D>>::zeros(); y.len()];
    let y1 = vi
        .step(&act, &f, T::<D>::from_re(0.0), &y, T::<D>::from_re(h), None)
        .unwrap()
        .y;
    let q1: Vec<_> = y1.iter().map(|p| *p.q()).collect();
    let w1: Vec<_> = y1.iter().map(|p| *p.omega()).collect();
    let z1 = to_coords(&charts, &m, &q1, &w1);
    let jac = DMatrix::<f64>::from_fn(D, D, |r, c| z1[r].eps.0.map_or(0.0, |e| e[c]));
    let half = 2 * n;
    let mut omega_std = DMatrix::<f64>::zeros(D, D);
    for k in 0..half {
        omega_std[(k, half + k)] = 1.0;
        omega_std[(half + k, k)] = -1.0;
    }
    let defect = (jac.transpose() * &omega_std * &jac - &omega_std).amax();
    (defect, jac.amax())
}

#[test]
fn a_step_is_symplectic_in_canonical_coordinates() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let x = DoubleSphericalPendulum::initial_state();
    let fast = SphereState::new_projected(
        vec![Vector3::new(0.5, 0.2, 0.8), Vector3::new(-0.3, 0.6, 0.7)],
        vec![Vector3::new(0.4, -1.0, 0.3), Vector3::new(1.5, 0.2, -0.4)],
    )
    .unwrap();
    let (nb, xb) = SphereNBody::three_body();
    let rod = ElasticRod::uniform(3, 0.055, 1.1, 0.5, 9.81, Vector3::x()).unwrap();
    let xr = SphereState::random(3, 2.0, 17);
    let cases = [
        (
            "double spherical pendulum (implicit), LLM09 start, h = 0.01",
            symplecticity_defect::<_, 8>(p.system(), &x, 0.01),
        ),
        (
            "double spherical pendulum (implicit), fast start, h = 0.05",
            symplecticity_defect::<_, 8>(p.system(), &fast, 0.05),
        ),
        (
            "three bodies on a sphere (explicit), h = 0.02",
            symplecticity_defect::<_, 12>(nb.system(), &xb, 0.02),
        ),
        (
            "elastic rod, 3 elements (implicit, nonlinear V), h = 0.005",
            symplecticity_defect::<_, 12>(rod.system(), &xr, 0.005),
        ),
    ];
    for (name, (defect, jmax)) in cases {
        println!("{name}: max|JᵀΩJ − Ω| = {defect:.1e} (max|J| = {jmax:.1e})");
        assert!(defect < 1e-11, "{name}: {defect:e}");
    }
}

// ---------------------------------------------------------------------------------------------
// Typed errors
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_input_and_failed_solves_give_typed_errors() {
    let p = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = p.system();
    let x = DoubleSphericalPendulum::initial_state();
    let y = x.to_tangent_points();
    let mut vi = sys.variational_integrator::<f64>().unwrap();
    let act = action();
    // h = 0 or non-finite.
    for h in [0.0, f64::NAN, f64::INFINITY] {
        let r = vi.step(&act, &no_field, 0.0, &y, h, None);
        assert!(
            matches!(r, Err(SchemeError::InvalidStepSize { .. })),
            "h = {h}: {r:?}"
        );
    }
    // h ≤ 0 through the driver.
    let problem = Problem::new(act, LieField::new(sys));
    for h in [0.0, -0.01] {
        let r = integrate(&problem, &mut vi, 0.0, y.clone(), 1.0, &Options::fixed(h));
        assert!(matches!(
            r.map_err(|e| e.error),
            Err(SchemeError::InvalidStepSize { .. })
        ));
    }
    // Non-unit q, non-tangent ω.
    let mut bad = y.clone();
    bad[1] = TangentSphere2::new_unchecked(Vector3::new(0.0, 0.0, 1.0 + 1e-8), Vector3::zeros());
    match vi.step(&act, &no_field, 0.0, &bad, 0.01, None) {
        Err(SchemeError::NotOnManifold {
            index, deviation, ..
        }) => {
            assert_eq!(index, 1);
            assert!((deviation - 1e-8).abs() < 1e-12);
        }
        other => panic!("expected NotOnManifold, got {other:?}"),
    }
    let mut bad = y.clone();
    bad[0] = TangentSphere2::new_unchecked(*y[0].q(), y[0].omega() + y[0].q() * 0.1);
    assert!(matches!(
        vi.step(&act, &no_field, 0.0, &bad, 0.01, None),
        Err(SchemeError::NotOnManifold { index: 0, .. })
    ));
    // Non-finite state; wrong number of bodies.
    let mut bad = y.clone();
    bad[0] = TangentSphere2::new_unchecked(Vector3::new(f64::NAN, 0.0, 1.0), Vector3::zeros());
    assert!(matches!(
        vi.step(&act, &no_field, 0.0, &bad, 0.01, None),
        Err(SchemeError::NonFinite { .. })
    ));
    assert!(matches!(
        vi.step(&act, &no_field, 0.0, &y[..1].to_vec(), 0.01, None),
        Err(SchemeError::InvalidOption { .. })
    ));
    // Adaptive steps are not supported.
    let tol = schemes::Tolerance::new(1e-6, 1e-6).unwrap();
    assert!(matches!(
        vi.step(&act, &no_field, 0.0, &y, 0.01, Some(&tol)),
        Err(SchemeError::Unsupported { .. })
    ));
    // Newton capped at one iteration cannot reach round-off: NonConvergence with the residual.
    let mut capped = SphereVariational::implicit(sys)
        .unwrap()
        .with_options(VariationalOptions {
            max_iter: 1,
            ..VariationalOptions::default()
        })
        .unwrap();
    match capped.step(&act, &no_field, 2.5, &y, 0.01, None) {
        Err(SchemeError::NonConvergence {
            t,
            residual,
            iterations,
            ..
        }) => {
            assert_eq!(t, 2.5);
            assert_eq!(iterations, 1);
            assert!(residual > 0.0 && residual.is_finite());
        }
        other => panic!("expected NonConvergence, got {other:?}"),
    }
    // A huge step: the fixed-point iteration diverges (or has no root), Newton fails to converge.
    let fast = SphereState::new_projected(
        x.q.clone(),
        vec![Vector3::new(0.0, 50.0, 0.0), Vector3::new(0.0, -80.0, 0.0)],
    )
    .unwrap();
    let mut fixed = SphereVariational::implicit(sys)
        .unwrap()
        .with_options(VariationalOptions {
            solver: VariationalSolver::FixedPoint,
            tol: 1e-14,
            max_iter: 200,
        })
        .unwrap();
    let r = fixed.step(&act, &no_field, 0.0, &fast.to_tangent_points(), 1.0, None);
    assert!(
        matches!(r, Err(SchemeError::NonConvergence { .. })),
        "{r:?}"
    );
    // The explicit form: no root for |aᵢ| ≥ 1.
    let (nb, xb) = SphereNBody::three_body();
    let mut ex = SphereVariational::explicit(nb.system()).unwrap();
    let r = ex.step(&act, &no_field, 0.0, &xb.to_tangent_points(), 1.0, None);
    assert!(matches!(r, Err(SchemeError::StepTooLarge { .. })), "{r:?}");
    // Constructors: the explicit form needs a diagonal inertia; options are validated.
    assert!(matches!(
        SphereVariational::<_, f64>::explicit(sys),
        Err(SchemeError::InvalidOption { .. })
    ));
    assert!(matches!(
        SphereVariational::<_, f64>::implicit(sys)
            .unwrap()
            .with_options(VariationalOptions {
                tol: 0.0,
                ..VariationalOptions::default()
            }),
        Err(SchemeError::InvalidTolerance { .. })
    ));
    assert!(matches!(
        SphereVariational::<_, f64>::implicit(sys)
            .unwrap()
            .with_options(VariationalOptions {
                max_iter: 0,
                ..VariationalOptions::default()
            }),
        Err(SchemeError::InvalidOption { .. })
    ));
    assert!(schemes::variational::find("llm-midpoint").is_err());
    let spec = schemes::variational::find("llm-implicit").unwrap();
    assert_eq!(
        Stepper::<A>::name(&spec.stepper::<_, f64>(sys).unwrap()),
        "llm-implicit"
    );
    // SphereSystem as a SphereLagrangian.
    assert_eq!(SphereLagrangian::bodies(sys), 2);
    assert!(!SphereLagrangian::has_diagonal_inertia(sys));
    assert_eq!(SphereLagrangian::inertia(sys, 0, 1), sys.inertia()[(0, 1)]);
}
