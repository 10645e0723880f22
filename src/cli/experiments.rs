//! The paper reproductions run by `reproduce`.

use super::CliError;
use super::methods::MethodChoice;
use super::output::{Plot, Scale, Series, write_csv};
use super::registry::{FreeRigidBody, Model, find_model};
use super::report::{Section, Table};
use schemes::ConvergenceRow;
use std::path::Path;

/// An experiment of `reproduce`.
pub struct Experiment {
    /// Identifier (`reproduce <id>`).
    pub id: &'static str,
    /// What it reproduces.
    pub description: &'static str,
    run: fn(&Path, bool) -> Result<Section, CliError>,
}

impl Experiment {
    /// Run into `dir` (a sub-folder named after the experiment is used).
    pub fn run(&self, dir: &Path, quick: bool) -> Result<Section, CliError> {
        let sub = dir.join(self.id);
        std::fs::create_dir_all(&sub).map_err(|e| CliError::io(&sub, &e))?;
        (self.run)(&sub, quick)
    }
}

/// Every experiment, in the order `reproduce all` runs them.
pub fn experiments() -> Vec<Experiment> {
    vec![
        Experiment {
            id: "cclmo-convergence",
            description: "[CCLMO22 §5] convergence of Lie–Euler, RKMK2, RKMK3, RKMK4, CF4, RKMK4 (two commutators) on the 2-fold pendulum",
            run: cclmo_convergence,
        },
        Experiment {
            id: "free-rigid-body-orders",
            description: "observed orders of every method on the free rigid body against its exact solution",
            run: free_rigid_body_orders,
        },
        Experiment {
            id: "ts2-preservation",
            description: "[CCLMO22 §5] |q| and q·ω preserved to round-off by RKMK4 and CF4 on (TS²)², no projection; ambient Dopri5 and RK4 drift",
            run: super::ts2_preservation::ts2_preservation,
        },
        Experiment {
            id: "variable-step",
            description: "[CCLMO22 §5.3] RKMK(5,4) with tol 1e-6 against constant-step RKMK5 with as many steps, N-fold pendulum with unit links, N = 2…20; step sizes and ω̇ for N = 2",
            run: super::variable_step::variable_step,
        },
        Experiment {
            id: "heavy-top",
            description: "[BC10, CCLMO22 §3.4] the heavy top with symplectic Lie group integrators (θ-family, LGVI, DLM splitting) against RKMK4 and CF4; SLGI and SLGIKK orders and energy at h = 0.01",
            run: super::heavy_top::heavy_top,
        },
        Experiment {
            id: "quadrotor-tracking",
            description: "[CCLMO22 §6, LSK13] two quadrotors carrying a point load along a parabola under geometric control (RKMK4)",
            run: super::quadrotor::quadrotor_tracking,
        },
        Experiment {
            id: "nonholonomic-energy",
            description: "[C03] the energy-conserving extended discrete Lagrange–d'Alembert integrator with variable steps against fixed-step DLA",
            run: super::nonholonomic::nonholonomic_energy,
        },
        Experiment {
            id: "llm09",
            description: "[LLM09 §3.3] the six examples: the variational integrator against the paper's RK45 / RK2 / RK2 with reprojection on the ambient equations, at the paper's steps and horizons",
            run: super::llm09::llm09,
        },
        Experiment {
            id: "work-precision",
            description: "the race: every adaptive Lie pair vs ode_solvers Dopri5/Dop853 (ambient) and Dormand–Prince with projection, error and manifold error against wall time on the double spherical pendulum, the heavy top and the 10-link chain",
            run: super::work_precision::work_precision,
        },
        Experiment {
            id: "homogeneous-nh",
            description: "[S22] nonholonomic partitioned RKMK on (S²)ⁿ (our derivation): orders 2/4/6 and long-run energy, L_z and |x| on the spherical and double spherical pendulum",
            run: super::homogeneous_nh::homogeneous_nh,
        },
        Experiment {
            id: "llm09-fig-3-2",
            description: "[LLM09 Fig. 3.2] three bodies on a sphere: energy and unit-length errors against step size, variational integrator vs RK2",
            run: super::llm09::llm09_fig_3_2,
        },
        Experiment {
            id: "llm09-kinetic-energy",
            description: "[LLM09 Fig. 3.7] kinetic-energy distribution of the 642 Lennard-Jones molecules on a 5120-face icosahedral mesh at several times",
            run: super::llm09_kinetic_energy::llm09_kinetic_energy,
        },
        Experiment {
            id: "compositions",
            description: "[Yos90, Suz90, KL97, McL95] observed orders of the compositions (orders 4, 6, 8) of the variational integrator on the double spherical pendulum",
            run: super::compositions::compositions,
        },
        Experiment {
            id: "langevin",
            description: "[SLG08, Per34] rigid-body Langevin dynamics: equipartition and Stokes–Einstein diffusion of a sphere and a Perrin spheroid against theory",
            run: super::langevin::langevin,
        },
    ]
}

fn fmt_e(x: f64) -> String {
    format!("{x:.2e}")
}

/// Write `{name}.csv` (expected order, h, error) and a log–log `{name}.svg` of convergence rows;
/// returns the table and the plot's path.
pub fn convergence_outputs(
    dir: &Path,
    name: &str,
    title: &str,
    rows: &[ConvergenceRow],
) -> Result<(Table, std::path::PathBuf), CliError> {
    let mut table = Table::new(&[
        "method",
        "expected",
        "observed",
        "finest error",
        "points used",
    ]);
    let mut csv_rows = Vec::new();
    let mut series = Vec::new();
    for r in rows {
        table.row(vec![
            r.method.clone(),
            r.expected_order.to_string(),
            format!("{:.2}", r.observed_order()),
            fmt_e(*r.errors.last().unwrap_or(&f64::NAN)),
            r.fit
                .as_ref()
                .map_or(String::from("—"), |f| format!("{}", f.used.len())),
        ]);
        for (h, e) in r.h.iter().zip(&r.errors) {
            csv_rows.push(vec![f64::from(r.expected_order), *h, *e]);
        }
        series.push(Series::new(
            r.method.clone(),
            r.h.iter().copied().zip(r.errors.iter().copied()).collect(),
        ));
    }
    write_csv(
        &dir.join(format!("{name}.csv")),
        &["expected_order".into(), "h".into(), "error".into()],
        &csv_rows,
    )?;
    let svg = dir.join(format!("{name}.svg"));
    Plot {
        title,
        x_label: "h",
        y_label: "error at T",
        x_scale: Scale::Log,
        y_scale: Scale::Log,
        markers: true,
    }
    .write(&svg, &series)?;
    Ok((table, svg))
}

fn orders_summary(rows: &[ConvergenceRow]) -> String {
    rows.iter()
        .map(|r| format!("{} {:.2}", r.method, r.observed_order()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cclmo_convergence(dir: &Path, quick: bool) -> Result<Section, CliError> {
    let model = find_model("n-pendulum")?;
    let ids = ["lie-euler", "rkmk2", "rkmk3", "rkmk4", "cf4", "rkmk4-2comm"];
    let methods: Vec<_> = ids
        .iter()
        .map(|id| MethodChoice::parse(id))
        .collect::<Result<_, _>>()?;
    let steps: Vec<usize> = if quick {
        vec![4, 8, 16, 32, 64]
    } else {
        vec![4, 8, 16, 32, 64, 128, 256]
    };
    let rows = model.convergence("convergence", &methods, &steps, 0.1)?;
    let (table, svg) = convergence_outputs(
        dir,
        "convergence",
        "2-fold pendulum, T = 0.1: error vs h",
        &rows,
    )?;
    Ok(Section {
        id: "cclmo-convergence".into(),
        title: "Convergence on the 2-fold 3D pendulum [CCLMO22 §5]".into(),
        text: vec![
            "N = 2, L = m = 1, seeded random start on (TS²)², T = 0.1; reference: RKMK6 with 8× the finest step count. Expected orders: Lie–Euler 1, RKMK2 2, RKMK3 3, RKMK4, CF4 and RKMK4 with two commutators 4.".into(),
        ],
        tables: vec![table],
        figures: vec![svg],
        summary: orders_summary(&rows),
    })
}

fn free_rigid_body_orders(dir: &Path, quick: bool) -> Result<Section, CliError> {
    let methods: Vec<_> = schemes::methods::METHODS.iter().collect();
    let mut rows = Vec::new();
    for m in &methods {
        let base = match m.order {
            1 => 64,
            2 => 32,
            3 => 16,
            4 => 8,
            _ => 4,
        };
        let k = if quick { 5 } else { 7 };
        let steps: Vec<usize> = (0..k).map(|i| base << i).collect();
        // High orders cross their asymptotic window in few doublings: insert midpoints.
        let steps = schemes::dense_grid(&steps, m.order);
        rows.extend(FreeRigidBody.convergence("s2", &[MethodChoice::Registry(m)], &steps, 2.0)?);
    }
    let (table, svg) = convergence_outputs(
        dir,
        "orders",
        "free rigid body on S², T = 2: error vs h",
        &rows,
    )?;
    let worst = rows
        .iter()
        .map(|r| (r.observed_order() - f64::from(r.expected_order)).abs())
        .fold(0.0, f64::max);
    Ok(Section {
        id: "free-rigid-body-orders".into(),
        title: "Observed orders on the free rigid body (exact elliptic solution)".into(),
        text: vec!["I = (1, 2, 3), m₀ = (cos 1.2, 0, sin 1.2), T = 2, error against the exact solution in Jacobi elliptic functions [LL76 §37].".into()],
        tables: vec![table],
        figures: vec![svg],
        summary: format!("{} methods, largest |observed − expected| = {worst:.2}", rows.len()),
    })
}
