//! The experiment `compositions`: observed orders of the symmetric compositions (Yoshida 4 and
//! 6 \[Yos90\], Suzuki 4 \[Suz90\], Kahan–Li 6 and 8 \[KL97\], McLachlan 8 \[McL95\]) of the
//! Lee–Leok–McClamroch variational integrator \[LLM09, §3\] (symmetric, order 2) on the double
//! spherical pendulum of \[LLM09, §4.1\] (the base method named in [CCLMO22, §4]).

use super::CliError;
use super::experiments::convergence_outputs;
use super::report::Section;
use homogeneous::{TangentSphere2, TangentSphereAction, VecPowerAction};
use models::{DoubleSphericalPendulum, LieField, SphereModel};
use schemes::composition::{self, Composition, CompositionScheme};
use schemes::{ConvergenceRow, Options, Problem, integrate, measure_order, methods};
use std::path::Path;

type A = VecPowerAction<TangentSphereAction>;

/// Final time: about a third of the slow period of the pendulum.
const T_END: f64 = 2.0;

/// Step counts per scheme: chosen so that the errors sit in the asymptotic regime, between
/// about 1e-3 and 1e-12 (high orders need few, large steps before round-off and the reference
/// error take over).
fn grids() -> Vec<(Option<&'static CompositionScheme>, Vec<usize>)> {
    vec![
        (None, vec![8, 16, 32, 64, 128, 256]),
        (Some(&composition::YOSHIDA4), vec![4, 8, 16, 32, 64, 128]),
        (Some(&composition::SUZUKI4), vec![4, 8, 16, 32, 64, 128]),
        (Some(&composition::YOSHIDA6), vec![4, 6, 8, 12, 16, 24, 32]),
        (Some(&composition::KAHAN_LI6), vec![2, 3, 4, 6, 8, 12, 16]),
        (Some(&composition::KAHAN_LI8), vec![2, 3, 4, 5, 6, 8, 10]),
        (Some(&composition::MCLACHLAN8), vec![3, 4, 5, 6, 8, 10, 12]),
    ]
}

/// The ambient max-norm distance between two states of (TS²)².
#[allow(clippy::ptr_arg)] // the point type of the power action is `Vec<TangentSphere2>`
fn distance(a: &Vec<TangentSphere2>, b: &Vec<TangentSphere2>) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x.q() - y.q()).amax().max((x.omega() - y.omega()).amax()))
        .fold(0.0, f64::max)
}

fn integration(e: impl std::fmt::Display) -> CliError {
    CliError::Integration(format!("compositions: {e}"))
}

/// The convergence rows of the base and of every composition (reference: RKMK6 with 4000
/// steps, whose own error, ~(T/4000)⁶, is far below the finest error measured).
fn rows() -> Result<Vec<ConvergenceRow>, CliError> {
    let pendulum = DoubleSphericalPendulum::lee_leok_mcclamroch();
    let sys = pendulum.system();
    let y0 = DoubleSphericalPendulum::initial_state().to_tangent_points();
    let action = VecPowerAction::new(TangentSphereAction::new());
    let problem = Problem::new(action, LieField::new(sys));
    let mut rk6 = methods::find("rkmk6")?.stepper::<A>();
    let reference = integrate(
        &problem,
        &mut rk6,
        0.0,
        y0.clone(),
        T_END,
        &Options::count(4000).save_final(),
    )
    .map_err(integration)?
    .last()
    .1
    .clone();
    let mut rows = Vec::new();
    for (scheme, steps) in grids() {
        let base = sys.variational_integrator::<f64>().map_err(integration)?;
        let row = match scheme {
            None => {
                let mut base = base;
                measure_order(
                    &problem, &mut base, 0.0, &y0, T_END, &reference, &steps, distance, 1e-12,
                )
            }
            Some(s) => {
                let mut comp = Composition::new::<A>(s, base)?;
                measure_order(
                    &problem, &mut comp, 0.0, &y0, T_END, &reference, &steps, distance, 1e-12,
                )
            }
        }
        .map_err(integration)?;
        rows.push(row);
    }
    Ok(rows)
}

/// The experiment `compositions` (the same grid in the quick and the full run: it takes about a
/// second).
pub fn compositions(dir: &Path, _quick: bool) -> Result<Section, CliError> {
    let rows = rows()?;
    let (table, svg) = convergence_outputs(
        dir,
        "orders",
        "double spherical pendulum [LLM09], T = 2: compositions of the variational integrator",
        &rows,
    )?;
    let within = rows
        .iter()
        .filter(|r| (r.observed_order() - f64::from(r.expected_order)).abs() <= 0.3)
        .count();
    let list = rows
        .iter()
        .map(|r| format!("{} {:.2}", r.method, r.observed_order()))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(Section {
        id: "compositions".into(),
        title: "Symmetric compositions of the variational integrator [Yos90, Suz90, KL97, McL95]"
            .into(),
        text: vec![
            format!(
                "Double spherical pendulum of [LLM09 §4.1] (m₁ = m₂ = 1, l₁ = l₂ = 9.81, g = 9.81), T = {T_END}; base: the Lee–Leok–McClamroch variational integrator (symmetric, order 2); compositions Ψ_h = Φ_(γₛh) ∘ … ∘ Φ_(γ₁h) with the palindromic coefficients of Yoshida (order 4, 3 substeps; order 6, 7 substeps), Suzuki (order 4, 5 substeps), Kahan–Li (order 6, 9 substeps; order 8, 17 substeps) and McLachlan (order 8, 15 substeps). Error at T in the ambient max norm against RKMK6 with 4000 steps; slopes fitted where the errors lie between the pre-asymptotic range and the 1e-12 floor, which needs large steps for the 8th-order schemes (h = T/2 … T/12)."
            ),
            format!(
                "Observed orders: {list}; {within} of {} within ±0.3 of the theory (orders.csv: expected order, h, error).",
                rows.len()
            ),
        ],
        tables: vec![table],
        figures: vec![svg],
        summary: format!(
            "{within}/{} observed orders within ±0.3 of 2, 4, 4, 6, 6, 8, 8",
            rows.len()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each composition shows the order of its scheme, the base order 2, within ±0.3.
    #[test]
    fn observed_orders_match_the_theory() {
        let rows = rows().unwrap();
        assert_eq!(rows.len(), 7);
        for r in &rows {
            let fit = r.fit.as_ref().expect("a fit");
            assert!(fit.used.len() >= 3, "{}: {:?}", r.method, r.errors);
            assert!(
                (r.observed_order() - f64::from(r.expected_order)).abs() <= 0.3,
                "{}: observed {:.3}, expected {}; errors {:?}",
                r.method,
                r.observed_order(),
                r.expected_order,
                r.errors
            );
        }
    }
}
