//! The experiment `homogeneous-nh`: the nonholonomic partitioned RKMK integrators on
//! `(S²)ⁿ = SO(3)ⁿ/SO(2)ⁿ` of \[S22\] (arXiv:2201.12022), in this workspace's derivation
//! (`schemes::nonholonomic::Vprkmk`, `docs/nonholonomic.md` §7): observed orders of the
//! stage-constrained lift with Gauss–Legendre `s = 1, 2, 3` on the spherical and the double
//! spherical pendulum, and the energy, vertical angular momentum and unit-length errors over
//! long runs, against the regularized (fully variational) lift.

use super::CliError;
use super::output::{Plot, Scale, Series, write_csv};
use super::report::{Section, Table};
use models::{DoubleSphericalPendulum, LinearPotential, NFoldPendulum, SphereModel, SphereSystem};
use nalgebra::Vector3;
use schemes::catalogue::{GAUSS_LEGENDRE2, GAUSS_LEGENDRE4, GAUSS_LEGENDRE6};
use schemes::nonholonomic::{Lift, NewtonOptions, SphereLagrangian, Vprkmk, rotation_to};
use schemes::{ButcherTableau, fit_order};
use std::path::Path;

type Sys = SphereSystem<LinearPotential>;

/// A model with its initial points and angular velocities.
type Start<M> = (M, Vec<Vector3<f64>>, Vec<Vector3<f64>>);

fn fail(e: schemes::SchemeError) -> CliError {
    CliError::Integration(format!("homogeneous-nh: {e}"))
}

/// Spherical pendulum, `m l² = m g l = 1`, e₃ up, `x(0) = (sin 1, 0, −cos 1)`, `Η₀ = (0.3, 0.8,
/// 0)` in the body frame of `rotation_to(x₀)` (the data of `docs/nonholonomic.md` §6.4).
fn pendulum() -> Result<Start<NFoldPendulum>, CliError> {
    let p = NFoldPendulum::new(vec![1.0], vec![1.0], 1.0)?;
    let x0 = Vector3::new(1.0_f64.sin(), 0.0, -(1.0_f64.cos()));
    let w0 = rotation_to(&x0) * Vector3::new(0.3, 0.8, 0.0);
    Ok((p, vec![x0], vec![w0]))
}

fn final_positions(
    sys: &Sys,
    tab: &ButcherTableau,
    lift: Lift,
    x0: &[Vector3<f64>],
    w0: &[Vector3<f64>],
    t: f64,
    n: usize,
) -> Result<Vec<Vector3<f64>>, CliError> {
    let mut m = Vprkmk::new(sys, tab, lift, NewtonOptions::default()).map_err(fail)?;
    let mut s = m.initial_state(0.0, x0, w0);
    for _ in 0..n {
        s = m.step(&s, t / n as f64).map_err(fail)?;
    }
    Ok(m.positions_velocities(&s).0)
}

/// The vertical angular momentum `L_z = Σᵢⱼ Mᵢⱼ e₃·(xᵢ × ẋⱼ)`, conserved by the rotation
/// symmetry about e₃ of both pendulums.
fn vertical_momentum(sys: &Sys, x: &[Vector3<f64>], w: &[Vector3<f64>]) -> f64 {
    let n = x.len();
    let mut l = 0.0;
    for i in 0..n {
        for j in 0..n {
            l += SphereLagrangian::inertia(sys, i, j) * x[i].cross(&w[j].cross(&x[j])).z;
        }
    }
    l
}

/// A long run: sampled `(t, max |ΔE| since the last sample, max |ΔL_z| likewise)`, and
/// `max ||xᵢ| − 1|` over the run.
struct LongRun {
    t: Vec<f64>,
    de: Vec<f64>,
    dl: Vec<f64>,
    unit: f64,
}

fn long_run(
    sys: &Sys,
    tab: &ButcherTableau,
    lift: Lift,
    x0: &[Vector3<f64>],
    w0: &[Vector3<f64>],
    h: f64,
    steps: usize,
) -> Result<LongRun, CliError> {
    let mut m = Vprkmk::new(sys, tab, lift, NewtonOptions::default()).map_err(fail)?;
    let mut s = m.initial_state(0.0, x0, w0);
    let e0 = m.energy(&s);
    let (x, w) = m.positions_velocities(&s);
    let l0 = vertical_momentum(sys, &x, &w);
    let stride = (steps / 1000).max(1);
    let mut r = LongRun {
        t: Vec::with_capacity(steps / stride + 1),
        de: Vec::with_capacity(steps / stride + 1),
        dl: Vec::with_capacity(steps / stride + 1),
        unit: 0.0,
    };
    let (mut de, mut dl) = (0.0_f64, 0.0_f64);
    for k in 1..=steps {
        s = m.step(&s, h).map_err(fail)?;
        let (x, w) = m.positions_velocities(&s);
        de = de.max((m.energy(&s) - e0).abs());
        dl = dl.max((vertical_momentum(sys, &x, &w) - l0).abs());
        for xi in &x {
            r.unit = r.unit.max((xi.norm() - 1.0).abs());
        }
        if k % stride == 0 {
            r.t.push(s.t);
            r.de.push(de);
            r.dl.push(dl);
            de = 0.0;
            dl = 0.0;
        }
    }
    Ok(r)
}

fn amax(v: &[f64]) -> f64 {
    v.iter().fold(0.0, |a: f64, x| a.max(x.abs()))
}

/// The experiment `homogeneous-nh`.
pub fn homogeneous_nh(dir: &Path, quick: bool) -> Result<Section, CliError> {
    let (pend, xp, wp) = pendulum()?;
    let dsp = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let ds = DoubleSphericalPendulum::initial_state();
    let t = 2.0;
    let n_ref = if quick { 320 } else { 640 };
    let tabs: [(&ButcherTableau, u32, &[usize]); 3] = if quick {
        [
            (&GAUSS_LEGENDRE2, 2, &[20, 40, 80]),
            (&GAUSS_LEGENDRE4, 4, &[10, 20, 40]),
            (&GAUSS_LEGENDRE6, 6, &[5, 10, 20]),
        ]
    } else {
        [
            (&GAUSS_LEGENDRE2, 2, &[20, 40, 80, 160, 320]),
            (&GAUSS_LEGENDRE4, 4, &[10, 20, 40, 80, 160]),
            (&GAUSS_LEGENDRE6, 6, &[5, 10, 20, 40]),
        ]
    };

    // 1. Orders at T = 2 against a Gauss 6 regularized reference (the other lift).
    let mut orders = Table::new(&[
        "system",
        "tableau",
        "stages s",
        "expected",
        "observed",
        "finest error",
    ]);
    let mut csv = Vec::new();
    let mut series = Vec::new();
    let mut worst_order_gap = 0.0_f64;
    for (k, (name, sys, x0, w0)) in [
        ("spherical pendulum", pend.system(), &xp, &wp),
        ("double spherical pendulum", dsp.system(), &ds.q, &ds.omega),
    ]
    .into_iter()
    .enumerate()
    {
        let reference = final_positions(
            sys,
            &GAUSS_LEGENDRE6,
            Lift::Regularized { c: 1.0 },
            x0,
            w0,
            t,
            n_ref,
        )?;
        for &(tab, p, ns) in &tabs {
            let mut h = Vec::new();
            let mut err = Vec::new();
            for &n in ns {
                let x = final_positions(sys, tab, Lift::StageConstrained, x0, w0, t, n)?;
                let e = x
                    .iter()
                    .zip(&reference)
                    .map(|(a, b)| (a - b).amax())
                    .fold(0.0, f64::max);
                h.push(t / n as f64);
                err.push(e);
                csv.push(vec![k as f64, f64::from(p), t / n as f64, e]);
            }
            let slope = fit_order(&h, &err, 1e-13).map_or(f64::NAN, |f| f.slope);
            worst_order_gap = worst_order_gap.max((slope - f64::from(p)).abs());
            orders.row(vec![
                name.into(),
                tab.name.into(),
                tab.b.len().to_string(),
                p.to_string(),
                format!("{slope:.2}"),
                format!("{:.2e}", err.last().copied().unwrap_or(f64::NAN)),
            ]);
            series.push(Series::new(
                format!("{name}, Gauss s = {}", tab.b.len()),
                h.into_iter().zip(err).collect(),
            ));
        }
    }
    write_csv(
        &dir.join("orders.csv"),
        &[
            "system".into(),
            "expected_order".into(),
            "h".into(),
            "error".into(),
        ],
        &csv,
    )?;
    let orders_svg = dir.join("orders.svg");
    Plot {
        title: "stage-constrained VPRKMK: position error at T = 2",
        x_label: "h",
        y_label: "max |x_i − x_i,ref|",
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        markers: true,
    }
    .write(&orders_svg, &series)?;

    // 2. Long runs at h = 0.1 on the spherical pendulum, h = 0.05 on the double one.
    let (steps_sp, steps_dsp) = if quick {
        (2_000, 1_000)
    } else {
        (100_000, 20_000)
    };
    let runs = [
        (
            "spherical pendulum",
            "stage-constrained, Gauss s = 1",
            pend.system(),
            &GAUSS_LEGENDRE2,
            Lift::StageConstrained,
            &xp,
            &wp,
            0.1,
            steps_sp,
        ),
        (
            "spherical pendulum",
            "regularized (c = 1), Gauss s = 1",
            pend.system(),
            &GAUSS_LEGENDRE2,
            Lift::Regularized { c: 1.0 },
            &xp,
            &wp,
            0.1,
            steps_sp,
        ),
        (
            "spherical pendulum",
            "stage-constrained, Gauss s = 2",
            pend.system(),
            &GAUSS_LEGENDRE4,
            Lift::StageConstrained,
            &xp,
            &wp,
            0.1,
            steps_sp,
        ),
        (
            "double spherical pendulum",
            "stage-constrained, Gauss s = 1",
            dsp.system(),
            &GAUSS_LEGENDRE2,
            Lift::StageConstrained,
            &ds.q,
            &ds.omega,
            0.05,
            steps_dsp,
        ),
        (
            "double spherical pendulum",
            "regularized (c = 1), Gauss s = 1",
            dsp.system(),
            &GAUSS_LEGENDRE2,
            Lift::Regularized { c: 1.0 },
            &ds.q,
            &ds.omega,
            0.05,
            steps_dsp,
        ),
    ];
    let mut long = Table::new(&[
        "system",
        "method",
        "h",
        "steps",
        "max |ΔE| first tenth",
        "max |ΔE| last tenth",
        "max |ΔL_z|",
        "max ||x|−1|",
    ]);
    let mut e_series = Vec::new();
    let mut l_series = Vec::new();
    let mut long_csv = Vec::new();
    let mut worst_growth = 0.0_f64;
    let mut sp_stage_max = 0.0;
    for (k, (system, method, sys, tab, lift, x0, w0, h, steps)) in runs.into_iter().enumerate() {
        let r = long_run(sys, tab, lift, x0, w0, h, steps)?;
        let tenth = (r.de.len() / 10).max(1);
        let first = amax(&r.de[..tenth]);
        let last = amax(&r.de[r.de.len() - tenth..]);
        worst_growth = worst_growth.max(last / first);
        if k == 0 {
            sp_stage_max = amax(&r.de);
        }
        long.row(vec![
            system.into(),
            method.into(),
            format!("{h}"),
            steps.to_string(),
            format!("{first:.3e}"),
            format!("{last:.3e}"),
            format!("{:.2e}", amax(&r.dl)),
            format!("{:.1e}", r.unit),
        ]);
        for i in 0..r.t.len() {
            long_csv.push(vec![k as f64, r.t[i], r.de[i], r.dl[i]]);
        }
        let label = format!("{system}: {method}");
        e_series.push(Series::new(
            label.clone(),
            r.t.iter().copied().zip(r.de.iter().copied()).collect(),
        ));
        l_series.push(Series::new(
            label,
            r.t.iter()
                .copied()
                .zip(r.dl.iter().map(|v| v.max(1e-17)))
                .collect(),
        ));
    }
    write_csv(
        &dir.join("long-runs.csv"),
        &[
            "run".into(),
            "t".into(),
            "max_abs_energy_error".into(),
            "max_abs_lz_error".into(),
        ],
        &long_csv,
    )?;
    let energy_svg = dir.join("energy.svg");
    Plot {
        title: "energy error (max over each sampling window)",
        x_label: "t",
        y_label: "|E − E₀|",
        x_scale: Scale::Linear,
        y_scale: Scale::Log,
        markers: false,
    }
    .write(&energy_svg, &e_series)?;
    let lz_svg = dir.join("vertical-momentum.svg");
    Plot {
        title: "vertical angular momentum error",
        x_label: "t",
        y_label: "|L_z − L_z(0)|",
        x_scale: Scale::Linear,
        y_scale: Scale::Log,
        markers: false,
    }
    .write(&lz_svg, &l_series)?;

    Ok(Section {
        id: "homogeneous-nh".into(),
        title: "High-order nonholonomic integrators on homogeneous spaces [S22]".into(),
        text: vec![
            "What is run: the variational partitioned RKMK (VPRKMK) integrators on (S²)ⁿ = SO(3)ⁿ/SO(2)ⁿ with the Cayley retraction, in two lifts: the stage-constrained (nonholonomic, discrete Chetaev) lift, with Η ∈ 𝔪 at every stage, the nodes varied in 𝔪 only and a stage force polynomial of degree s − 2; and the regularized, fully variational lift (a symmetric top with zero spin), which is not the paper's method. The discrete equations are this workspace's derivation (docs/nonholonomic.md §6.4 and §7), NOT the equations printed in [S22] (arXiv:2201.12022): our text of the paper has lost its equations, and no readable copy was found, so the paper's multiplier placement, tableaux, test problems, step sizes and figures could not be compared.".into(),
            format!(
                "What matches the paper's claims (its abstract: high order, properties of the variational counterparts): the stage-constrained lift converges with order 2s for Gauss–Legendre s = 1, 2, 3 on both pendulums (largest deviation of a fitted order from 2s: {worst_order_gap:.2}); its energy error is bounded with no drift (largest ratio of the last to the first tenth over all long runs: {worst_growth:.2}); |x| = 1 to round-off without projection. What differs between the lifts: L_z is conserved, up to the solver tolerance of each step, only by the regularized lift (symplectic and equivariant); the stage-constrained lift keeps it bounded, without drift, at the size of its energy error (O(h^2s)), not exactly. Lobatto IIIA tableaux are refused with stage constraints (the stage systems are singular) and run only with the regularized lift. The paper's own numbers could not be reproduced (see above)."
            ),
        ],
        tables: vec![orders, long],
        figures: vec![orders_svg, energy_svg, lz_svg],
        summary: format!(
            "orders 2/4/6 (max deviation {worst_order_gap:.2}); spherical pendulum h = 0.1, {steps_sp} steps: max |ΔE| = {sp_stage_max:.2e}, last/first tenth ≤ {worst_growth:.2}"
        ),
    })
}
