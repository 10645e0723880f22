//! Commutator-free Lie group methods \[CMO03, CO03\] and Crouch–Grossman methods \[CG93, OM99\]
//! as data.
//!
//! A commutator-free (CF) scheme computes, with `k_j = h f(Y_j)` (values in the Lie algebra),
//! every stage `Y_i` and the update `y₁` as a **product of exponentials of linear combinations
//! of the `k_j`** acting on the left of a base point. In a product the **rightmost factor acts
//! first** (left actions, `docs/notation.md`):
//!
//! ```text
//!     Y_i = exp(Σ_j α_{i,J,j} k_j) ··· exp(Σ_j α_{i,2,j} k_j) · exp(Σ_j α_{i,1,j} k_j) · base_i
//! ```
//!
//! where `base_i` is `y₀` or an earlier stage `Y_m`: starting from a stage *reuses* the
//! exponentials that produced it. Crouch–Grossman methods are the special case in which every
//! exponential contains a single `k_j` and every base is `y₀`.
//!
//! # Data layout
//!
//! - [`ExpProduct`] `{ base, factors }`: `base` is [`Base::Start`] (`y₀`) or
//!   [`Base::Stage`]`(m)` (the stage with **0-based** index `m`, i.e. `Y_{m+1}` in the papers'
//!   numbering); `factors` lists the exponentials **in the order they are applied**, so
//!   `factors[0]` acts first (it is the *rightmost* factor of the formula). Each factor is the
//!   coefficient row `[α₁, α₂, …]` of `α₁k₁ + α₂k₂ + …`, ragged like a Butcher row: entries
//!   past the end are zero.
//! - [`CfStage`] `{ c, point }`: the node `c_i` (the time `t₀ + c_i h` at which `f` is
//!   evaluated) and the [`ExpProduct`] giving `Y_i`. The factors of stage `i` (0-based) may
//!   only use `k₀ … k_{i−1}` and its base only stages before `i`: the schemes are explicit.
//! - [`CommutatorFreeScheme`] `{ name, order, reference, stages, update, embedded }`:
//!   `update` is the [`ExpProduct`] for `y₁`; `embedded` an optional second update `ŷ₁` of a
//!   different order ([`CfEmbedded`]), which may use extra stages that the main update
//!   ignores (then [`CommutatorFreeScheme::stages_for_update`] is smaller than the number of
//!   stages).
//!
//! All slices are `&'static`: an engine walks them without allocating. To take a step it
//! evaluates, for `i = 0, 1, …`, the point `Y_i` (start from the base point, apply
//! `exp(Σ_j factor[j] k_j)` for each factor in order) and `k_i = h f(t₀ + c_i h, Y_i)`, then
//! the update in the same way.
//!
//! ## Example: CF4 \[CMO03\]
//!
//! The fourth-order scheme of Celledoni, Marthinsen and Owren, with `c = (0, ½, ½, 1)`:
//!
//! ```text
//!     Y₁ = y₀
//!     Y₂ = exp(½k₁)·y₀
//!     Y₃ = exp(½k₂)·y₀
//!     Y₄ = exp(k₃ − ½k₁)·Y₂                                   (reuses exp(½k₁) from Y₂)
//!     y½ = exp((3k₁ + 2k₂ + 2k₃ − k₄)/12)·y₀
//!     y₁ = exp((−k₁ + 2k₂ + 2k₃ + 3k₄)/12)·y½
//! ```
//!
//! Four evaluations of `f`, five exponentials. As data ([`crate::catalogue::CF4`]):
//!
//! ```
//! use schemes::{Base, CfStage, CommutatorFreeScheme, ExpProduct};
//!
//! const MY_CF4: CommutatorFreeScheme = CommutatorFreeScheme {
//!     name: "CF4",
//!     order: 4,
//!     reference: "[CMO03]",
//!     stages: &[
//!         // Y₁ = y₀
//!         CfStage::new(0.0, ExpProduct::START),
//!         // Y₂ = exp(½k₁)·y₀
//!         CfStage::new(1.0 / 2.0, ExpProduct::new(Base::Start, &[&[1.0 / 2.0]])),
//!         // Y₃ = exp(½k₂)·y₀
//!         CfStage::new(1.0 / 2.0, ExpProduct::new(Base::Start, &[&[0.0, 1.0 / 2.0]])),
//!         // Y₄ = exp(−½k₁ + k₃)·Y₂   (Base::Stage(1) is Y₂: 0-based)
//!         CfStage::new(1.0, ExpProduct::new(Base::Stage(1), &[&[-1.0 / 2.0, 0.0, 1.0]])),
//!     ],
//!     // y₁ = exp((−k₁ + 2k₂ + 2k₃ + 3k₄)/12) · exp((3k₁ + 2k₂ + 2k₃ − k₄)/12) · y₀:
//!     // factors in the order of application, the rightmost exponential first.
//!     update: ExpProduct::new(
//!         Base::Start,
//!         &[
//!             &[3.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, -1.0 / 12.0],
//!             &[-1.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0],
//!         ],
//!     ),
//!     embedded: None,
//! };
//!
//! assert_eq!(MY_CF4, schemes::catalogue::CF4);
//! assert_eq!(MY_CF4.exponential_count(), 5);
//! // `Display` renders the data back in the papers' notation (fractions reduced):
//! assert_eq!(
//!     MY_CF4.to_string(),
//!     "CF4 (order 4) [CMO03]
//! Y1 = y0    (c1 = 0)
//! Y2 = exp(1/2 k1)·y0    (c2 = 1/2)
//! Y3 = exp(1/2 k2)·y0    (c3 = 1/2)
//! Y4 = exp(-1/2 k1 + k3)·Y2    (c4 = 1)
//! y1 = exp(-1/12 k1 + 1/6 k2 + 1/6 k3 + 1/4 k4)·exp(1/4 k1 + 1/6 k2 + 1/6 k3 - 1/12 k4)·y0
//! "
//! );
//! // On an abelian algebra the exponentials commute and CF4 collapses to classical RK4.
//! let rk = MY_CF4.abelian_tableau();
//! assert_eq!(rk.a[3], [0.0, 0.0, 1.0, 0.0]); // Y₄: −½k₁ + ½k₁ + k₃
//! for (b, rk4) in rk.b.iter().zip([1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0]) {
//!     assert!((b - rk4).abs() <= 2.0 * f64::EPSILON); // 3/12 − 1/12 = 1/6 up to an ulp
//! }
//! ```
//!
//! ## Checks
//! [`CommutatorFreeScheme::validate`] checks explicitness, lengths, finiteness, that the
//! coefficients of all exponentials producing `Y_i` (through its base chain) sum to `c_i`,
//! and that those of each update sum to 1. [`CommutatorFreeScheme::abelian_tableau`] gives
//! the Butcher tableau the scheme reduces to when the algebra is abelian; the classical order
//! conditions of that tableau are *necessary* for the Lie group order (the Lie group order
//! conditions include the classical ones \[OM99\], \[CMO03\]), so the tests run the
//! [`crate::OrderChecker`] on it up to the stated order. They are not sufficient: CG3's
//! collapse has classical order 3 too, but so do wrong orderings of its factors. The Lie group
//! order itself is checked on ordered forests by [`crate::LieOrderChecker`] \[OM99, O06\].

use crate::error::SchemeError;
use crate::order_conditions::{MAX_TREE_ORDER, OrderChecker, OrderReport};
use crate::tableau::OwnedTableau;
use core::fmt;

/// The point a product of exponentials acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// The initial point `y₀` of the step.
    Start,
    /// The stage with 0-based index `m` (`Y_{m+1}` in the papers' numbering), reusing the
    /// exponentials that produced it.
    Stage(usize),
}

/// `exp(F_J)···exp(F₂)·exp(F₁)·base` with `F_l = Σ_j factors[l−1][j] k_j` (0-based `j`):
/// `factors[0]` is applied first. See the [module docs](self) for the layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpProduct {
    /// The point the product acts on.
    pub base: Base,
    /// Coefficient rows of the exponentials, in the order of application (rightmost factor of
    /// the formula first). Rows are ragged: missing trailing coefficients are zero.
    pub factors: &'static [&'static [f64]],
}

impl ExpProduct {
    /// The point `y₀` itself (no exponential): the first stage of every explicit scheme.
    pub const START: Self = Self {
        base: Base::Start,
        factors: &[],
    };

    /// A product of `factors` (first applied first) acting on `base`.
    #[must_use]
    pub const fn new(base: Base, factors: &'static [&'static [f64]]) -> Self {
        Self { base, factors }
    }

    /// The coefficient of `k_j` (0-based) in factor `l` (0-based, order of application);
    /// zero past the end of the row.
    ///
    /// # Panics
    /// If `l >= self.factors.len()`.
    #[must_use]
    pub fn coefficient(&self, l: usize, j: usize) -> f64 {
        self.factors[l].get(j).copied().unwrap_or(0.0)
    }
}

/// One stage of a commutator-free scheme: node `c` and the product giving `Y_i`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CfStage {
    /// The node `c_i`: `f` is evaluated at `t₀ + c_i h`.
    pub c: f64,
    /// `Y_i` as a product of exponentials acting on a base point.
    pub point: ExpProduct,
}

impl CfStage {
    /// A stage with node `c` and point `point`.
    #[must_use]
    pub const fn new(c: f64, point: ExpProduct) -> Self {
        Self { c, point }
    }
}

/// An embedded update `ŷ₁` and its order (for error estimation in pairs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CfEmbedded {
    /// The order of `ŷ₁`.
    pub order: u32,
    /// `ŷ₁` as a product of exponentials acting on a base point.
    pub update: ExpProduct,
}

/// A commutator-free (or Crouch–Grossman) Lie group method as data. See the
/// [module docs](self) for the layout and the CF4 example.
///
/// # Example
/// ```
/// use schemes::catalogue::{CG3, CF3};
///
/// assert!(CG3.is_crouch_grossman());
/// assert!(CG3.validate().is_ok());
/// // CF3's update acts on top of stage Y₂ (0-based Stage(1)):
/// assert_eq!(CF3.update.base, schemes::Base::Stage(1));
/// assert_eq!(CF3.abelian_tableau().verify_order().order, 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CommutatorFreeScheme {
    /// Human-readable name.
    pub name: &'static str,
    /// The order on Lie groups (non-commutative).
    pub order: u32,
    /// Reference key (see the crate docs).
    pub reference: &'static str,
    /// The stages, `stages[0]` is `Y₁ = y₀`.
    pub stages: &'static [CfStage],
    /// The update `y₁`.
    pub update: ExpProduct,
    /// An optional embedded update `ŷ₁` of another order.
    pub embedded: Option<CfEmbedded>,
}

const VALIDATION_ULPS: f64 = 64.0;

impl CommutatorFreeScheme {
    /// The number of stages `s` (evaluations of `f` per step, including stages used only by
    /// the embedded update).
    #[must_use]
    pub const fn stages_count(&self) -> usize {
        self.stages.len()
    }

    /// The nodes as a vector (allocates; for reports and tests).
    #[must_use]
    pub fn nodes(&self) -> Vec<f64> {
        self.stages.iter().map(|s| s.c).collect()
    }

    /// The number of stages the main update needs: one more than the largest stage index
    /// that the update refers to (through a non-zero coefficient or a base point, followed
    /// recursively). Stages beyond it serve only the embedded update.
    #[must_use]
    pub fn stages_for_update(&self) -> usize {
        let mut needed = vec![false; self.stages.len()];
        mark_needed(&self.update, self.stages.len(), &mut needed);
        for i in (0..self.stages.len()).rev() {
            if needed[i] {
                mark_needed(&self.stages[i].point, i, &mut needed);
            }
        }
        needed.iter().rposition(|&n| n).map_or(0, |i| i + 1)
    }

    /// The number of exponentials evaluated per step by the main method (stages up to
    /// [`Self::stages_for_update`] plus the update). CF4: 5.
    #[must_use]
    pub fn exponential_count(&self) -> usize {
        self.stages[..self.stages_for_update()]
            .iter()
            .map(|s| s.point.factors.len())
            .sum::<usize>()
            + self.update.factors.len()
    }

    /// The number of exponentials per step of the pair (all stages, both updates).
    #[must_use]
    pub fn exponential_count_with_embedded(&self) -> usize {
        self.stages
            .iter()
            .map(|s| s.point.factors.len())
            .sum::<usize>()
            + self.update.factors.len()
            + self.embedded.map_or(0, |e| e.update.factors.len())
    }

    /// Whether this is a Crouch–Grossman method: every base is `y₀` and every exponential
    /// contains at most one `k_j` \[CG93, OM99\].
    #[must_use]
    pub fn is_crouch_grossman(&self) -> bool {
        let cg = |p: &ExpProduct| {
            p.base == Base::Start
                && p.factors
                    .iter()
                    .all(|f| f.iter().filter(|&&v| v != 0.0).count() <= 1)
        };
        self.stages.iter().all(|s| cg(&s.point))
            && cg(&self.update)
            && self.embedded.is_none_or(|e| cg(&e.update))
    }

    /// The Butcher tableau the scheme reduces to on an **abelian** algebra, where products of
    /// exponentials add their arguments: `a_ij` is the sum of the coefficients of `k_j` over
    /// all factors producing `Y_i` (following base points), `b_j` and `b̂_j` likewise for the
    /// updates. The classical conditions of this tableau are necessary (not sufficient) for
    /// the Lie group order.
    ///
    /// Assumes valid data (see [`Self::validate`]); coefficients referring to stages that do
    /// not exist are ignored.
    #[must_use]
    pub fn abelian_tableau(&self) -> OwnedTableau {
        let s = self.stages.len();
        let mut a: Vec<Vec<f64>> = Vec::with_capacity(s);
        for stage in self.stages {
            let row = abelian_row(&stage.point, &a, s);
            a.push(row);
        }
        let b = abelian_row(&self.update, &a, s);
        let b_hat = self.embedded.map(|e| abelian_row(&e.update, &a, s));
        OwnedTableau {
            name: format!("{} (abelian collapse)", self.name),
            order: self.order,
            a,
            b,
            c: self.nodes(),
            b_hat,
            embedded_order: self.embedded.map(|e| e.order),
        }
    }

    /// Runs the default [`OrderChecker`] on [`Self::abelian_tableau`] up to the stated order
    /// (the classical conditions are necessary only, so checking beyond would say nothing
    /// about the Lie group order).
    #[must_use]
    pub fn verify_abelian_order(&self) -> OrderReport {
        let t = self.abelian_tableau();
        OrderChecker::new().check(&t, &t.b, self.order.min(MAX_TREE_ORDER))
    }

    /// Checks the data: at least one stage; stage `i` refers only to `k_j`, `j < i`, and to
    /// base stages `m < i`; rows no longer than `s`; finite coefficients; for every stage
    /// the coefficients of all exponentials producing it (through its base chain) sum to
    /// `c_i`; for each update they sum to 1 (64 ulps relative to the sum of magnitudes).
    ///
    /// # Errors
    /// The first problem found, as a [`SchemeError`].
    pub fn validate(&self) -> Result<(), SchemeError> {
        self.validate_structure()?;
        self.validate_sums()
    }

    /// The structural part of [`validate`](Self::validate), which a stepper needs in order to
    /// run the scheme at all: at least one stage, stage `i` refers only to `k_j`, `j < i`, and
    /// to base stages `m < i`, rows no longer than `s`, finite coefficients.
    ///
    /// # Errors
    /// The first problem found, as a [`SchemeError`].
    pub fn validate_structure(&self) -> Result<(), SchemeError> {
        let method = self.name;
        let s = self.stages.len();
        if s == 0 {
            return Err(SchemeError::DimensionMismatch {
                method,
                what: "stages",
                expected: 1,
                found: 0,
            });
        }
        let check_product =
            |p: &ExpProduct, available: usize, what: String| -> Result<(), SchemeError> {
                if let Base::Stage(m) = p.base
                    && m >= available
                {
                    return Err(SchemeError::NotExplicit {
                        method,
                        what,
                        referenced: m,
                    });
                }
                for f in p.factors {
                    if f.len() > s {
                        return Err(SchemeError::DimensionMismatch {
                            method,
                            what: "exponential coefficient row",
                            expected: s,
                            found: f.len(),
                        });
                    }
                    if !f.iter().all(|v| v.is_finite()) {
                        return Err(SchemeError::NonFiniteCoefficient {
                            method,
                            what: "exponential coefficients",
                        });
                    }
                    if let Some(j) = f
                        .iter()
                        .enumerate()
                        .skip(available)
                        .find(|(_, v)| **v != 0.0)
                        .map(|(j, _)| j)
                    {
                        return Err(SchemeError::NotExplicit {
                            method,
                            what,
                            referenced: j,
                        });
                    }
                }
                Ok(())
            };
        for (i, stage) in self.stages.iter().enumerate() {
            check_product(&stage.point, i, format!("stage {i}"))?;
            if !stage.c.is_finite() {
                return Err(SchemeError::NonFiniteCoefficient { method, what: "c" });
            }
        }
        check_product(&self.update, s, "update".to_string())?;
        if let Some(e) = self.embedded {
            check_product(&e.update, s, "embedded update".to_string())?;
        }
        Ok(())
    }

    /// The consistency part of [`validate`](Self::validate) (row sums against the nodes and
    /// against 1); assumes [`validate_structure`](Self::validate_structure) passed.
    fn validate_sums(&self) -> Result<(), SchemeError> {
        let method = self.name;
        let s = self.stages.len();
        // Sums (abelian collapse) against the nodes and against 1.
        let mut rows: Vec<Vec<f64>> = Vec::with_capacity(s);
        let mut scales: Vec<f64> = Vec::with_capacity(s);
        for (i, stage) in self.stages.iter().enumerate() {
            let row = abelian_row(&stage.point, &rows, s);
            let scale = magnitude(&stage.point, &scales);
            let row_sum: f64 = row.iter().sum();
            if (row_sum - stage.c).abs() > VALIDATION_ULPS * f64::EPSILON * scale.max(1.0) {
                return Err(SchemeError::RowSum {
                    method,
                    stage: i,
                    node: stage.c,
                    row_sum,
                });
            }
            rows.push(row);
            scales.push(scale);
        }
        let consistent = |p: &ExpProduct, what| {
            let sum: f64 = abelian_row(p, &rows, s).iter().sum();
            let scale = magnitude(p, &scales);
            if (sum - 1.0).abs() > VALIDATION_ULPS * f64::EPSILON * scale.max(1.0) {
                Err(SchemeError::NotConsistent { method, what, sum })
            } else {
                Ok(())
            }
        };
        consistent(&self.update, "update")?;
        if let Some(e) = self.embedded {
            consistent(&e.update, "embedded update")?;
        }
        Ok(())
    }
}

/// Marks the stages a product refers to (non-zero coefficients and the base stage).
fn mark_needed(p: &ExpProduct, available: usize, needed: &mut [bool]) {
    if let Base::Stage(m) = p.base
        && m < needed.len()
    {
        needed[m] = true;
    }
    for f in p.factors {
        for (j, &v) in f.iter().enumerate().take(available.min(needed.len())) {
            if v != 0.0 {
                needed[j] = true;
            }
        }
    }
}

/// The summed coefficient row of a product on an abelian algebra (length `s`).
fn abelian_row(p: &ExpProduct, rows: &[Vec<f64>], s: usize) -> Vec<f64> {
    let mut row = match p.base {
        Base::Stage(m) if m < rows.len() => rows[m].clone(),
        _ => vec![0.0; s],
    };
    for f in p.factors {
        for (r, &v) in row.iter_mut().zip(f.iter()) {
            *r += v;
        }
    }
    row
}

/// Σ |coefficients| of a product, including its base chain (scale for round-off).
fn magnitude(p: &ExpProduct, scales: &[f64]) -> f64 {
    let base = match p.base {
        Base::Stage(m) if m < scales.len() => scales[m],
        _ => 0.0,
    };
    base + p
        .factors
        .iter()
        .flat_map(|f| f.iter())
        .map(|v| v.abs())
        .sum::<f64>()
}

/// Formats a coefficient as a reduced fraction with denominator ≤ 1000 when it is one to
/// within 4 ulps, otherwise as the shortest decimal that round-trips (which may differ from a
/// published 17-digit literal in its last digit while denoting the same `f64`).
fn fmt_coefficient(x: f64) -> String {
    for den in 1..=1000_u32 {
        let d = f64::from(den);
        let num = (x * d).round();
        if (num / d - x).abs() <= 4.0 * f64::EPSILON * x.abs() {
            return if den == 1 {
                format!("{num}")
            } else {
                format!("{num}/{den}")
            };
        }
    }
    format!("{x}")
}

fn fmt_combination(row: &[f64]) -> String {
    let mut out = String::new();
    for (j, &v) in row.iter().enumerate() {
        if v == 0.0 {
            continue;
        }
        let mag = v.abs();
        let coef = if mag == 1.0 {
            String::new()
        } else {
            format!("{} ", fmt_coefficient(mag))
        };
        if out.is_empty() {
            if v < 0.0 {
                out.push('-');
            }
        } else {
            out.push_str(if v < 0.0 { " - " } else { " + " });
        }
        out.push_str(&format!("{coef}k{}", j + 1));
    }
    if out.is_empty() { "0".to_string() } else { out }
}

fn fmt_product(p: &ExpProduct) -> String {
    let mut out = String::new();
    for f in p.factors.iter().rev() {
        out.push_str(&format!("exp({})·", fmt_combination(f)));
    }
    match p.base {
        Base::Start => out.push_str("y0"),
        Base::Stage(m) => out.push_str(&format!("Y{}", m + 1)),
    }
    out
}

/// Renders the scheme in the papers' notation, 1-based, rightmost factor acting first, one
/// line per stage (with its node) and per update; coefficients as reduced fractions where
/// exact (denominator ≤ 1000), otherwise as decimals. See the CF4 example in the
/// [module docs](self).
impl fmt::Display for CommutatorFreeScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} (order {}) {}", self.name, self.order, self.reference)?;
        for (i, stage) in self.stages.iter().enumerate() {
            writeln!(
                f,
                "Y{} = {}    (c{} = {})",
                i + 1,
                fmt_product(&stage.point),
                i + 1,
                fmt_coefficient(stage.c)
            )?;
        }
        writeln!(f, "y1 = {}", fmt_product(&self.update))?;
        if let Some(e) = self.embedded {
            writeln!(f, "ŷ1 = {}    (order {})", fmt_product(&e.update), e.order)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_render() {
        assert_eq!(fmt_coefficient(119.0 / 216.0), "119/216");
        assert_eq!(fmt_coefficient(3.0 / 12.0), "1/4");
        assert_eq!(fmt_coefficient(2.0), "2");
        assert_eq!(fmt_coefficient(0.8177227988124852), "0.8177227988124852");
        assert_eq!(fmt_combination(&[-0.5, 0.0, 1.0]), "-1/2 k1 + k3");
        assert_eq!(fmt_combination(&[0.0, 0.0]), "0");
    }

    #[test]
    fn validation_catches_errors() {
        const FUTURE_K: CommutatorFreeScheme = CommutatorFreeScheme {
            name: "bad",
            order: 1,
            reference: "",
            stages: &[
                CfStage::new(0.0, ExpProduct::START),
                CfStage::new(1.0, ExpProduct::new(Base::Start, &[&[0.0, 1.0]])),
            ],
            update: ExpProduct::new(Base::Start, &[&[0.5, 0.5]]),
            embedded: None,
        };
        assert!(matches!(
            FUTURE_K.validate(),
            Err(SchemeError::NotExplicit { referenced: 1, .. })
        ));
        const FUTURE_BASE: CommutatorFreeScheme = CommutatorFreeScheme {
            stages: &[
                CfStage::new(0.0, ExpProduct::START),
                CfStage::new(0.0, ExpProduct::new(Base::Stage(1), &[])),
            ],
            ..FUTURE_K
        };
        assert!(matches!(
            FUTURE_BASE.validate(),
            Err(SchemeError::NotExplicit { .. })
        ));
        const WRONG_NODE: CommutatorFreeScheme = CommutatorFreeScheme {
            stages: &[
                CfStage::new(0.0, ExpProduct::START),
                CfStage::new(0.5, ExpProduct::new(Base::Start, &[&[1.0]])),
            ],
            ..FUTURE_K
        };
        assert!(matches!(
            WRONG_NODE.validate(),
            Err(SchemeError::RowSum { stage: 1, .. })
        ));
        const INCONSISTENT: CommutatorFreeScheme = CommutatorFreeScheme {
            stages: &[
                CfStage::new(0.0, ExpProduct::START),
                CfStage::new(1.0, ExpProduct::new(Base::Start, &[&[1.0]])),
            ],
            update: ExpProduct::new(Base::Stage(1), &[&[0.5, 0.5]]),
            ..FUTURE_K
        };
        // Base Y₂ contributes k₁, so the update sums to 2.
        assert!(matches!(
            INCONSISTENT.validate(),
            Err(SchemeError::NotConsistent { what: "update", .. })
        ));
    }
}
