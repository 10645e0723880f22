//! Butcher tableaux: the coefficients `(A, b, c)` of a Runge–Kutta method, optional embedded
//! weights `b̂`, and an optional continuous extension `b(θ)`.
//!
//! ```text
//!     c₁ │ a₁₁ … a₁ₛ          Y_i = y₀ + h Σ_j a_ij f(t₀ + c_i h, Y_j)     (classical)
//!      ⋮ │  ⋮       ⋮          y₁  = y₀ + h Σ_i b_i f(t₀ + c_i h, Y_i)
//!     cₛ │ aₛ₁ … aₛₛ          ŷ₁  = y₀ + h Σ_i b̂_i f(t₀ + c_i h, Y_i)     (embedded, error y₁ − ŷ₁)
//!     ───┼───────────          y(t₀ + θh) ≈ y₀ + h Σ_i b_i(θ) f(…)        (dense output)
//!        │ b₁  …  bₛ
//! ```
//!
//! On a Lie group the RKMK engine applies the same tableau to the local coordinate `σ` with
//! `σ' = dexp_σ⁻¹ f(exp(σ)·y₀)` \[MK99\].

use crate::error::SchemeError;
use crate::order_conditions::{MAX_TREE_ORDER, OrderChecker, OrderReport};

/// The coefficient matrix `A` of a Runge–Kutta method: all that the stage weights `Φ_i(t)` of
/// the order conditions need. Implemented by [`ButcherTableau`] and [`OwnedTableau`]; implement
/// it to run [`OrderChecker`] on other representations.
pub trait StageMatrix {
    /// The number of stages `s`.
    fn stages(&self) -> usize;
    /// The coefficient `a_ij` (0-based; entries not stored are zero).
    fn a(&self, i: usize, j: usize) -> f64;
}

/// Embedded weights `b̂` of a lower (or, for local extrapolation, higher) order `order`, for the
/// error estimate `y₁ − ŷ₁ = h Σ (b_i − b̂_i) k_i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EmbeddedWeights {
    /// The weights `b̂`, one per stage.
    pub b_hat: &'static [f64],
    /// The order of the method with weights `b̂`.
    pub order: u32,
}

/// A continuous extension (dense output) `y(t₀ + θh) ≈ y₀ + h Σ_i b_i(θ) k_i`, `0 ≤ θ ≤ 1`.
///
/// Each `b_i(θ)` is a polynomial without constant term, stored by its coefficients of
/// `θ¹, θ², …`: `b_i(θ) = Σ_{m≥1} coefficients[i][m−1] θ^m`, so `b_i(0) = 0` by construction
/// and `b_i(1) = b_i` is checked by [`ButcherTableau::validate`]. Rows may be shorter than
/// others (missing coefficients are zero).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ContinuousExtension {
    /// The uniform order `q` of the interpolant: `Σ b_i(θ)Φ_i(t) = θ^{|t|}/γ(t)` for `|t| ≤ q`.
    pub order: u32,
    /// Reference key for the extension (it may differ from the method's).
    pub reference: &'static str,
    /// `coefficients[i]` are the coefficients of `θ, θ², …` in `b_i(θ)`.
    pub coefficients: &'static [&'static [f64]],
}

impl ContinuousExtension {
    /// The polynomial degree (length of the longest row).
    #[must_use]
    pub fn degree(&self) -> usize {
        self.coefficients.iter().map(|r| r.len()).max().unwrap_or(0)
    }

    /// Writes `b_i(θ)` into `out` (Horner's rule; no allocation).
    ///
    /// # Panics
    /// If `out.len() != self.coefficients.len()`.
    ///
    /// # Example
    /// ```
    /// use schemes::catalogue::DOPRI54;
    ///
    /// let dense = DOPRI54.dense_output.unwrap();
    /// let mut w = [0.0; 7];
    /// dense.weights_at(1.0, &mut w);
    /// for (wi, bi) in w.iter().zip(DOPRI54.b) {
    ///     assert!((wi - bi).abs() < 1e-15);
    /// }
    /// ```
    pub fn weights_at(&self, theta: f64, out: &mut [f64]) {
        assert_eq!(
            out.len(),
            self.coefficients.len(),
            "ContinuousExtension::weights_at: wrong output length"
        );
        for (o, row) in out.iter_mut().zip(self.coefficients) {
            let mut acc = 0.0;
            for &coef in row.iter().rev() {
                acc = acc * theta + coef;
            }
            *o = acc * theta;
        }
    }
}

/// A Runge–Kutta method as data: `A` (row-major, rows may be ragged), `b`, `c`, with name,
/// order and reference key, optional embedded weights and optional dense output.
///
/// **Layout.** `a[i]` is row `i` of `A`; a row may be shorter than `s`, missing entries are
/// zero. Explicit methods therefore list only the strictly lower triangle (`a[0] = &[]`,
/// `a[1] = &[a₂₁]`, …), implicit ones full rows. All slices are `&'static`, so an engine reads
/// them without allocation. Use [`Self::a`] for zero-filled access.
///
/// # Example
/// ```
/// use schemes::ButcherTableau;
///
/// /// Heun's second-order method (explicit trapezoidal rule).
/// const HEUN: ButcherTableau = ButcherTableau {
///     name: "Heun",
///     order: 2,
///     reference: "[Heu00]",
///     a: &[&[], &[1.0]],
///     b: &[1.0 / 2.0, 1.0 / 2.0],
///     c: &[0.0, 1.0],
///     embedded: None,
///     dense_output: None,
/// };
/// assert!(HEUN.validate().is_ok());
/// assert!(HEUN.is_explicit());
/// assert_eq!(HEUN.a(0, 1), 0.0);
/// assert_eq!(HEUN.verify_order().order, 2);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ButcherTableau {
    /// Human-readable name.
    pub name: &'static str,
    /// The classical order `p`.
    pub order: u32,
    /// Reference key (see the crate docs), e.g. `"\[DP80\]"`.
    pub reference: &'static str,
    /// Rows of `A`; row `i` lists `a_i1, a_i2, …` and may stop early (the rest are zero).
    pub a: &'static [&'static [f64]],
    /// Weights `b`, one per stage.
    pub b: &'static [f64],
    /// Nodes `c`, one per stage; `c_i = Σ_j a_ij`.
    pub c: &'static [f64],
    /// Embedded weights for error estimation, if any.
    pub embedded: Option<EmbeddedWeights>,
    /// Continuous extension (dense output), if any.
    pub dense_output: Option<ContinuousExtension>,
}

impl StageMatrix for ButcherTableau {
    fn stages(&self) -> usize {
        self.b.len()
    }
    fn a(&self, i: usize, j: usize) -> f64 {
        ButcherTableau::a(self, i, j)
    }
}

/// Relative tolerance for the row-sum and consistency checks of `validate`.
const VALIDATION_ULPS: f64 = 64.0;

fn close(x: f64, y: f64, scale: f64) -> bool {
    (x - y).abs() <= VALIDATION_ULPS * f64::EPSILON * scale.max(1.0)
}

impl ButcherTableau {
    /// The number of stages `s`.
    #[must_use]
    pub const fn stages(&self) -> usize {
        self.b.len()
    }

    /// The coefficient `a_ij` (0-based), zero where the ragged row stops.
    ///
    /// # Panics
    /// If `i >= self.stages()`.
    #[must_use]
    pub fn a(&self, i: usize, j: usize) -> f64 {
        self.a[i].get(j).copied().unwrap_or(0.0)
    }

    /// The embedded weights `b̂`, if any.
    #[must_use]
    pub fn b_hat(&self) -> Option<&'static [f64]> {
        self.embedded.map(|e| e.b_hat)
    }

    /// The order of the embedded weights, if any.
    #[must_use]
    pub fn embedded_order(&self) -> Option<u32> {
        self.embedded.map(|e| e.order)
    }

    /// Whether `a_ij = 0` for all `j ≥ i` (each stage uses only earlier stages).
    #[must_use]
    pub fn is_explicit(&self) -> bool {
        self.a
            .iter()
            .enumerate()
            .all(|(i, row)| row.iter().skip(i).all(|&v| v == 0.0))
    }

    /// Whether the method is explicit and *first same as last*: `c_s = 1` and the last row of
    /// `A` equals `b` exactly (so `b_s = 0` and the last stage is `y₁`, whose derivative is the
    /// first stage derivative of the next step). Exact `f64` equality is required, because an
    /// engine reuses the value.
    #[must_use]
    pub fn is_fsal(&self) -> bool {
        let s = self.stages();
        s >= 2
            && self.is_explicit()
            && self.c[s - 1] == 1.0
            && (0..s).all(|j| self.a(s - 1, j) == self.b[j])
    }

    /// Checks the data: lengths (`a`, `c`, `b̂`, dense rows have `s` entries, rows at most
    /// `s`), finiteness, `c_i = Σ_j a_ij`, `Σ b_i = 1`, `Σ b̂_i = 1`, and `b_i(1) = b_i` for the
    /// dense output; sums within 64 ulps relative to the sum of magnitudes.
    ///
    /// # Errors
    /// The first problem found, as a [`SchemeError`].
    pub fn validate(&self) -> Result<(), SchemeError> {
        let method = self.name;
        let s = self.stages();
        let dim = |what, expected, found| SchemeError::DimensionMismatch {
            method,
            what,
            expected,
            found,
        };
        if s == 0 {
            return Err(dim("b", 1, 0));
        }
        if self.c.len() != s {
            return Err(dim("c", s, self.c.len()));
        }
        if self.a.len() != s {
            return Err(dim("a (number of rows)", s, self.a.len()));
        }
        let finite = |xs: &[f64]| xs.iter().all(|x| x.is_finite());
        if !finite(self.b) {
            return Err(SchemeError::NonFiniteCoefficient { method, what: "b" });
        }
        if !finite(self.c) {
            return Err(SchemeError::NonFiniteCoefficient { method, what: "c" });
        }
        for (i, row) in self.a.iter().enumerate() {
            if row.len() > s {
                return Err(dim("a row", s, row.len()));
            }
            if !finite(row) {
                return Err(SchemeError::NonFiniteCoefficient { method, what: "a" });
            }
            let row_sum: f64 = row.iter().sum();
            let scale: f64 = row.iter().map(|v| v.abs()).sum();
            if !close(row_sum, self.c[i], scale) {
                return Err(SchemeError::RowSum {
                    method,
                    stage: i,
                    node: self.c[i],
                    row_sum,
                });
            }
        }
        let consistent = |what, w: &[f64]| -> Result<(), SchemeError> {
            let sum: f64 = w.iter().sum();
            let scale: f64 = w.iter().map(|v| v.abs()).sum();
            if close(sum, 1.0, scale) {
                Ok(())
            } else {
                Err(SchemeError::NotConsistent { method, what, sum })
            }
        };
        consistent("b", self.b)?;
        if let Some(e) = self.embedded {
            if e.b_hat.len() != s {
                return Err(dim("b_hat", s, e.b_hat.len()));
            }
            if !finite(e.b_hat) {
                return Err(SchemeError::NonFiniteCoefficient {
                    method,
                    what: "b_hat",
                });
            }
            consistent("b_hat", e.b_hat)?;
        }
        if let Some(d) = self.dense_output {
            if d.coefficients.len() != s {
                return Err(dim("dense output rows", s, d.coefficients.len()));
            }
            for (i, row) in d.coefficients.iter().enumerate() {
                if !finite(row) {
                    return Err(SchemeError::NonFiniteCoefficient {
                        method,
                        what: "dense output",
                    });
                }
                let value: f64 = row.iter().sum();
                let scale: f64 = row.iter().map(|v| v.abs()).sum();
                if !close(value, self.b[i], scale) {
                    return Err(SchemeError::DenseOutputMismatch {
                        method,
                        stage: i,
                        value,
                        expected: self.b[i],
                    });
                }
            }
        }
        Ok(())
    }

    /// Runs the default [`OrderChecker`] on `b` up to `order + 1` (capped at
    /// [`MAX_TREE_ORDER`]): for a correct tableau `report.order == self.order`, and the
    /// violations of order `order + 1` show that the order is not higher.
    #[must_use]
    pub fn verify_order(&self) -> OrderReport {
        OrderChecker::new().check(self, self.b, (self.order + 1).min(MAX_TREE_ORDER))
    }

    /// Like [`Self::verify_order`] for the embedded weights `b̂` (up to their order + 1).
    #[must_use]
    pub fn verify_embedded_order(&self) -> Option<OrderReport> {
        self.embedded
            .map(|e| OrderChecker::new().check(self, e.b_hat, (e.order + 1).min(MAX_TREE_ORDER)))
    }

    /// A heap-allocated copy with a full `s × s` matrix.
    #[must_use]
    pub fn to_owned_tableau(&self) -> OwnedTableau {
        let s = self.stages();
        OwnedTableau {
            name: self.name.to_string(),
            order: self.order,
            a: (0..s)
                .map(|i| (0..s).map(|j| self.a(i, j)).collect())
                .collect(),
            b: self.b.to_vec(),
            c: self.c.to_vec(),
            b_hat: self.b_hat().map(<[f64]>::to_vec),
            embedded_order: self.embedded_order(),
        }
    }
}

/// A Butcher tableau that owns its coefficients (full `s × s` matrix), for tables computed at
/// run time — e.g. [`crate::CommutatorFreeScheme::abelian_tableau`] — and for experiments
/// (perturbing a coefficient). Engines use the `&'static` [`ButcherTableau`].
#[derive(Debug, Clone, PartialEq)]
pub struct OwnedTableau {
    /// Name of the method it came from.
    pub name: String,
    /// The order claimed for it.
    pub order: u32,
    /// `a[i][j] = a_ij`, a full `s × s` matrix.
    pub a: Vec<Vec<f64>>,
    /// Weights `b`.
    pub b: Vec<f64>,
    /// Nodes `c`.
    pub c: Vec<f64>,
    /// Embedded weights, if any.
    pub b_hat: Option<Vec<f64>>,
    /// Order claimed for the embedded weights, if any.
    pub embedded_order: Option<u32>,
}

impl StageMatrix for OwnedTableau {
    fn stages(&self) -> usize {
        self.b.len()
    }
    fn a(&self, i: usize, j: usize) -> f64 {
        self.a[i].get(j).copied().unwrap_or(0.0)
    }
}

impl OwnedTableau {
    /// Runs the default [`OrderChecker`] on `b` up to `order + 1` (capped at
    /// [`MAX_TREE_ORDER`]).
    #[must_use]
    pub fn verify_order(&self) -> OrderReport {
        OrderChecker::new().check(self, &self.b, (self.order + 1).min(MAX_TREE_ORDER))
    }

    /// Runs the default [`OrderChecker`] on `b̂` up to the embedded order + 1, if present.
    #[must_use]
    pub fn verify_embedded_order(&self) -> Option<OrderReport> {
        match (&self.b_hat, self.embedded_order) {
            (Some(w), Some(p)) => {
                Some(OrderChecker::new().check(self, w, (p + 1).min(MAX_TREE_ORDER)))
            }
            _ => None,
        }
    }

    /// The largest `|c_i − Σ_j a_ij|`.
    #[must_use]
    pub fn max_row_sum_defect(&self) -> f64 {
        self.a
            .iter()
            .zip(&self.c)
            .map(|(row, c)| (row.iter().sum::<f64>() - c).abs())
            .fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: ButcherTableau = ButcherTableau {
        name: "midpoint",
        order: 2,
        reference: "",
        a: &[&[], &[0.5]],
        b: &[0.0, 1.0],
        c: &[0.0, 0.5],
        embedded: None,
        dense_output: None,
    };

    #[test]
    fn validation_catches_errors() {
        assert_eq!(GOOD.validate(), Ok(()));
        let wrong_node = ButcherTableau {
            c: &[0.0, 0.4],
            ..GOOD
        };
        assert!(matches!(
            wrong_node.validate(),
            Err(SchemeError::RowSum { stage: 1, .. })
        ));
        let short_c = ButcherTableau { c: &[0.0], ..GOOD };
        assert!(matches!(
            short_c.validate(),
            Err(SchemeError::DimensionMismatch { what: "c", .. })
        ));
        let long_row = ButcherTableau {
            a: &[&[], &[0.5, 0.0, 0.0]],
            ..GOOD
        };
        assert!(matches!(
            long_row.validate(),
            Err(SchemeError::DimensionMismatch { .. })
        ));
        let bad_b = ButcherTableau {
            b: &[0.1, 1.0],
            ..GOOD
        };
        assert!(matches!(
            bad_b.validate(),
            Err(SchemeError::NotConsistent { what: "b", .. })
        ));
        let nan = ButcherTableau {
            a: &[&[], &[f64::NAN]],
            ..GOOD
        };
        assert!(matches!(
            nan.validate(),
            Err(SchemeError::NonFiniteCoefficient { .. })
        ));
        let bad_hat = ButcherTableau {
            embedded: Some(EmbeddedWeights {
                b_hat: &[0.5, 0.6],
                order: 1,
            }),
            ..GOOD
        };
        assert!(matches!(
            bad_hat.validate(),
            Err(SchemeError::NotConsistent { what: "b_hat", .. })
        ));
        // b₁(θ) = θ − θ², b₂(θ) = θ²: b(1) = (0, 1) ✓; then a wrong one.
        let dense_ok = ButcherTableau {
            dense_output: Some(ContinuousExtension {
                order: 1,
                reference: "",
                coefficients: &[&[1.0, -1.0], &[0.0, 1.0]],
            }),
            ..GOOD
        };
        assert_eq!(dense_ok.validate(), Ok(()));
        let dense_bad = ButcherTableau {
            dense_output: Some(ContinuousExtension {
                order: 1,
                reference: "",
                coefficients: &[&[1.0], &[0.0, 1.0]],
            }),
            ..GOOD
        };
        assert!(matches!(
            dense_bad.validate(),
            Err(SchemeError::DenseOutputMismatch { stage: 0, .. })
        ));
    }

    #[test]
    fn ragged_rows_read_as_zero_and_flags() {
        assert_eq!(GOOD.a(0, 0), 0.0);
        assert_eq!(GOOD.a(1, 0), 0.5);
        assert_eq!(GOOD.a(1, 1), 0.0);
        assert!(GOOD.is_explicit());
        assert!(!GOOD.is_fsal());
        let implicit = ButcherTableau {
            a: &[&[0.0, 0.0], &[0.25, 0.25]],
            ..GOOD
        };
        assert!(!implicit.is_explicit());
        let owned = GOOD.to_owned_tableau();
        assert_eq!(owned.a, [[0.0, 0.0], [0.5, 0.0]]);
        assert_eq!(owned.max_row_sum_defect(), 0.0);
        assert_eq!(owned.verify_order().order, 2);
    }
}
