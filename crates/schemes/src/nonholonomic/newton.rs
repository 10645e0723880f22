//! A small dense Newton solver with a finite-difference Jacobian, shared by the nonholonomic
//! integrators (their systems have at most a few dozen unknowns).

use crate::error::SchemeError;
use liegroup::linalg::{max_abs, nan_max};
use nalgebra::{DMatrix, DVector};

/// Settings of the implicit solves of the nonholonomic integrators.
///
/// Each step solves `F(z) = 0` by Newton's method with a forward-difference Jacobian
/// `J_{·j} ≈ (F(z + δ_j e_j) − F(z))/δ_j`, `δ_j = √ε·max(1, |z_j|)`, refreshed every
/// `refresh` iterations (simplified Newton in between). The iteration stops when the update
/// satisfies `‖Δz‖∞ ≤ tol·max(1, ‖z‖∞)`; one more update is then applied so the residual sits at
/// round-off.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewtonOptions {
    /// Relative tolerance on the Newton update (default `1e-14`).
    pub tol: f64,
    /// Maximum number of iterations per step (default 50).
    pub max_iter: usize,
    /// Recompute the Jacobian every `refresh` iterations (default 4).
    pub refresh: usize,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        Self {
            tol: 1e-14,
            max_iter: 50,
            refresh: 4,
        }
    }
}

impl NewtonOptions {
    /// Validate the options.
    ///
    /// # Errors
    /// [`SchemeError::InvalidTolerance`] when `tol` is not positive and finite,
    /// [`SchemeError::InvalidOption`] when `max_iter` or `refresh` is zero.
    pub fn validate(&self) -> Result<(), SchemeError> {
        if !(self.tol.is_finite() && self.tol > 0.0) {
            return Err(SchemeError::InvalidTolerance {
                name: "newton tol",
                value: self.tol,
            });
        }
        if self.max_iter == 0 || self.refresh == 0 {
            return Err(SchemeError::InvalidOption {
                name: "newton max_iter/refresh",
                reason: "must be at least 1".into(),
            });
        }
        Ok(())
    }
}

/// Solve `F(z) = 0` from the guess `z` (overwritten with the solution). The iteration also
/// stops when `‖F(z)‖∞ ≤ 16ε·rscale` (the residual is at round-off; needed when one unknown,
/// such as the time step of the extended DLA equations, is weakly determined and its update
/// stagnates at a noise level above the update tolerance). Returns the number of
/// residual evaluations used (including those of the finite-difference Jacobians) and the
/// number of iterations.
///
/// # Errors
/// [`SchemeError::NonConvergence`] (with the last update norm and the iteration count) when the
/// tolerance is not met within `max_iter` iterations or the Jacobian is singular;
/// [`SchemeError::NonFinite`] when the residual is not finite.
pub(crate) fn solve<F>(
    mut residual: F,
    z: &mut DVector<f64>,
    opts: &NewtonOptions,
    rscale: f64,
    t: f64,
) -> Result<(usize, usize), SchemeError>
where
    F: FnMut(&DVector<f64>, &mut DVector<f64>),
{
    let n = z.len();
    let mut r = DVector::zeros(n);
    let mut rp = DVector::zeros(n);
    let mut jac = DMatrix::zeros(n, n);
    let mut lu = None;
    let mut evals = 0usize;
    let mut last = f64::INFINITY;
    let mut polish = false;
    for it in 0..opts.max_iter {
        residual(z, &mut r);
        evals += 1;
        if !r.iter().all(|x| x.is_finite()) {
            return Err(SchemeError::NonFinite {
                what: "nonholonomic residual",
                t,
            });
        }
        if r.amax() <= 16.0 * f64::EPSILON * rscale {
            return Ok((evals, it));
        }
        if lu.is_none() || it % opts.refresh == 0 {
            for j in 0..n {
                let zj = z[j];
                let d = f64::EPSILON.sqrt() * zj.abs().max(1.0);
                z[j] = zj + d;
                residual(z, &mut rp);
                evals += 1;
                z[j] = zj;
                for i in 0..n {
                    jac[(i, j)] = (rp[i] - r[i]) / d;
                }
            }
            lu = Some(jac.clone().lu());
        }
        let Some(dz) = lu.as_ref().and_then(|f| f.solve(&r)) else {
            return Err(SchemeError::NonConvergence {
                t,
                residual: max_abs(r.iter().copied()),
                iterations: it,
                tolerance: opts.tol,
            });
        };
        *z -= &dz;
        // NaN-aware norms (nalgebra's `amax` skips NaN like `f64::max`): a NaN update is
        // never converged and is reported as the residual.
        let size = max_abs(dz.iter().copied());
        last = size;
        if !size.is_finite() {
            return Err(SchemeError::NonConvergence {
                t,
                residual: size,
                iterations: it + 1,
                tolerance: opts.tol,
            });
        }
        if polish {
            return Ok((evals, it + 1));
        }
        if size <= opts.tol * nan_max(max_abs(z.iter().copied()), 1.0) {
            polish = true;
        }
    }
    if polish {
        return Ok((evals, opts.max_iter));
    }
    Err(SchemeError::NonConvergence {
        t,
        residual: last,
        iterations: opts.max_iter,
        tolerance: opts.tol,
    })
}
