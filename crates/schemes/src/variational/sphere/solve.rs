//! The implicit equations of [`SphereVariational`]: Newton (assembled Jacobian, dense LU or
//! Cholesky) and fixed-point iteration, and the velocity solve.

use super::*;

impl<L: SphereLagrangian, T: VariationalScalar> SphereVariational<L, T> {
    /// At `f = work.f`: `work.delta = Δ(f)`, `work.rhs = −(Φ(f) − d)` and `work.jac = ∂Φ/∂f`
    /// (row-major `3n × 3n`); returns `max|Φ(f) − d|` (by [`VariationalScalar::magnitude`]).
    pub(super) fn assemble_newton(&mut self) -> f64 {
        let n = self.n;
        let dim = 3 * n;
        let two = c::<T>(2.0);
        let w = &mut self.work;
        // Δⱼ(fⱼ) and Dⱼ = ∂Δⱼ/∂fⱼ.
        for j in 0..n {
            let (f, q) = (w.f[j], w.q0[j]);
            let nf = f.norm_squared();
            let s = T::one() / (T::one() + nf);
            let delta = (f.cross(&q) - q * nf) * (two * s);
            w.delta[j] = delta;
            w.dd[j] =
                (q.cross_matrix() + q * f.transpose() * two + delta * f.transpose()) * (-two * s);
        }
        let mut residual = 0.0_f64;
        for i in 0..n {
            let (f, q) = (w.f[i], w.q0[i]);
            // Mᵢᵢ|qᵢ|²: exact identities for |qᵢ| = 1 + O(ε) (see the type's docs).
            let mii = c::<T>(self.m[i * n + i]) * q.norm_squared();
            let s = T::one() / (T::one() + f.norm_squared());
            let mut coupling = Vector3::zeros();
            for j in 0..n {
                let mij = self.m[i * n + j];
                if j != i && mij != 0.0 {
                    coupling += w.delta[j] * c::<T>(mij);
                }
            }
            let r = f * (two * mii * s) + q.cross(&coupling) - w.d[i];
            for k in 0..3 {
                residual = nan_max(residual, r[k].magnitude());
                w.rhs[3 * i + k] = -r[k];
            }
            let qhat = q.cross_matrix();
            for j in 0..n {
                let blk: Matrix3<T> = if j == i {
                    (Matrix3::identity() - f * f.transpose() * (two * s)) * (two * mii * s)
                } else {
                    let mij = self.m[i * n + j];
                    if mij == 0.0 {
                        Matrix3::zeros()
                    } else {
                        qhat * w.dd[j] * c::<T>(mij)
                    }
                };
                for a in 0..3 {
                    for b in 0..3 {
                        w.jac[(3 * i + a) * dim + 3 * j + b] = blk[(a, b)];
                    }
                }
            }
        }
        residual
    }

    /// Solve (3.16) by Newton's method; on success `work.delta` holds the increments.
    pub(super) fn newton(&mut self, t: f64) -> Result<(), SchemeError> {
        let n = self.n;
        let dim = 3 * n;
        let two = c::<T>(2.0);
        let tol = self.options.tol;
        self.work.f.iter_mut().for_each(|f| *f = Vector3::zeros());
        let mut prev_step = f64::INFINITY;
        let mut residual = f64::INFINITY;
        let mut done = 0;
        for iter in 1..=self.options.max_iter {
            self.stats.iterations += 1;
            done = iter;
            residual = self.assemble_newton();
            let w = &mut self.work;
            if !residual.is_finite() {
                break;
            }
            if lu_factor_in_place(&mut w.jac, dim, &mut w.piv).is_err() {
                break;
            }
            lu_solve_in_place(&w.jac, dim, &w.piv, &mut w.rhs);
            let mut step = 0.0_f64;
            for i in 0..n {
                for k in 0..3 {
                    let dk = w.rhs[3 * i + k];
                    step = nan_max(step, dk.magnitude());
                    w.f[i][k] += dk;
                }
            }
            if !step.is_finite() {
                // The new iterate is not finite: so is its residual (reported as NaN or ∞).
                residual = step;
                break;
            }
            let scale = max_magnitude(&w.f);
            let converged = step <= tol * scale
                || (iter > 1 && step <= 1e-12 * scale && step > 0.5 * prev_step);
            if converged {
                // The increments of the final iterate.
                for j in 0..n {
                    let (f, q) = (w.f[j], w.q0[j]);
                    let nf = f.norm_squared();
                    let s = T::one() / (T::one() + nf);
                    w.delta[j] = (f.cross(&q) - q * nf) * (two * s);
                }
                return Ok(());
            }
            prev_step = step;
        }
        Err(SchemeError::NonConvergence {
            t,
            residual,
            iterations: done,
            tolerance: tol,
        })
    }

    /// Solve (3.16) by block-Jacobi fixed-point iteration; on success `work.delta` holds the
    /// increments.
    pub(super) fn fixed_point(&mut self, t: f64) -> Result<(), SchemeError> {
        let n = self.n;
        let tol = self.options.tol;
        self.work
            .delta
            .iter_mut()
            .for_each(|d| *d = Vector3::zeros());
        let mut step = f64::INFINITY;
        let mut done = 0;
        for iter in 1..=self.options.max_iter {
            self.stats.iterations += 1;
            done = iter;
            let w = &mut self.work;
            step = 0.0;
            for i in 0..n {
                let mut coupling = Vector3::zeros();
                for j in 0..n {
                    let mij = self.m[i * n + j];
                    if j != i && mij != 0.0 {
                        coupling += w.delta[j] * c::<T>(mij);
                    }
                }
                let q = w.q0[i];
                let a =
                    (w.d[i] - q.cross(&coupling)) / (c::<T>(self.m[i * n + i]) * q.norm_squared());
                let Some(d) = closed_form_increment(&a, &q) else {
                    return Err(SchemeError::NonConvergence {
                        t,
                        residual: f64::INFINITY,
                        iterations: iter,
                        tolerance: tol,
                    });
                };
                for k in 0..3 {
                    step = nan_max(step, (d[k] - w.delta[i][k]).magnitude());
                }
                w.delta_new[i] = d;
            }
            core::mem::swap(&mut w.delta, &mut w.delta_new);
            if !step.is_finite() {
                break;
            }
            if step <= tol * max_magnitude(&w.delta) {
                return Ok(());
            }
        }
        Err(SchemeError::NonConvergence {
            t,
            residual: step,
            iterations: done,
            tolerance: tol,
        })
    }

    /// Solve `A(q′) ω′ = r` (r in `work.w1`, overwritten by ω′).
    pub(super) fn solve_omega(&mut self, t: f64) -> Result<(), SchemeError> {
        let n = self.n;
        let dim = 3 * n;
        let w = &mut self.work;
        for i in 0..n {
            for j in 0..n {
                let mij = self.m[i * n + j];
                let blk: Matrix3<T> = if i == j {
                    Matrix3::identity() * (c::<T>(mij) * w.q1[i].norm_squared())
                } else if mij == 0.0 {
                    Matrix3::zeros()
                } else {
                    let (qi, qj) = (w.q1[i], w.q1[j]);
                    (Matrix3::identity() * qi.dot(&qj) - qj * qi.transpose()) * c::<T>(mij)
                };
                for a in 0..3 {
                    for b in 0..3 {
                        w.jac[(3 * i + a) * dim + 3 * j + b] = blk[(a, b)];
                    }
                }
            }
            for k in 0..3 {
                w.rhs[3 * i + k] = w.w1[i][k];
            }
        }
        if lu_factor_in_place(&mut w.jac, dim, &mut w.piv).is_err() {
            return Err(SchemeError::NonFinite {
                what: "angular velocity (singular matrix in (3.12))",
                t,
            });
        }
        lu_solve_in_place(&w.jac, dim, &w.piv, &mut w.rhs);
        for i in 0..n {
            w.w1[i] = Vector3::new(w.rhs[3 * i], w.rhs[3 * i + 1], w.rhs[3 * i + 2]);
        }
        Ok(())
    }
}
