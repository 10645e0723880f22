//! Order conditions of Runge–Kutta methods via rooted trees \[HNW93 II.2\], \[But16 §3\].
//!
//! A Runge–Kutta method with coefficient matrix `A = (a_ij)` and weights `b` has order `p`
//! exactly when, for every rooted tree `t` with `|t| ≤ p` vertices,
//!
//! ```text
//!     Φ(t) = Σ_i b_i Φ_i(t) = 1/γ(t),
//! ```
//!
//! where the *stage weights* are `Φ_i(τ) = 1` for the one-vertex tree `τ` and
//! `Φ_i([t₁,…,t_m]) = Π_k (Σ_j a_ij Φ_j(t_k))` for the tree whose root has the subtrees
//! `t₁,…,t_m`, and the *density* is `γ(τ) = 1`, `γ([t₁,…,t_m]) = |t| Π_k γ(t_k)`
//! \[HNW93 II.2, Def. 2.10–2.12 and Thm. 2.13\]. The formula needs no explicitness: it holds for
//! implicit tableaux (Gauss–Legendre) as well.
//!
//! A **continuous extension** `b_i(θ)` (dense output) has order `q` when
//! `Σ_i b_i(θ) Φ_i(t) = θ^{|t|}/γ(t)` for all `|t| ≤ q` \[HNW93 II.6, eq. (6.11)\];
//! [`OrderChecker::check_continuous`] checks that form.
//!
//! ## Tolerance
//! A condition counts as satisfied when
//! `|Φ(t) − θ^{|t|}/γ(t)| ≤ ulps · ε · max(Φ_abs(t), θ^{|t|}/γ(t))`, with `ε = f64::EPSILON`,
//! `ulps =` [`OrderChecker::DEFAULT_TOLERANCE_ULPS`] `= 256` unless chosen otherwise, and
//! `Φ_abs(t)` the elementary weight computed from `|a_ij|` and `|b_i|`. `Φ_abs` bounds the
//! sum of the magnitudes of all terms, so `ε · Φ_abs` is the scale of the rounding error of
//! evaluating `Φ(t)` (each coefficient is itself correctly rounded, or rounded to 16 digits
//! when published as a decimal). 256 ulps leaves room for accumulation over up to eight
//! factors and twelve stages while a perturbation of a single coefficient by `1e-6` is seen
//! at once (tested).
//!
//! ## Trees
//! [`RootedTrees::up_to`] generates all rooted trees with at most [`MAX_TREE_ORDER`] `= 9`
//! vertices: 1, 1, 2, 4, 9, 20, 48, 115, 286 of orders 1 … 9 (OEIS A000081), 486 in all
//! (200 up to order 8; order 9 is needed to see that an eighth-order method such as DOP853 or
//! Verner 8(7) is not of order 9). Each
//! tree is stored as the non-decreasing list of the indices of its root's subtrees, so a
//! multiset of subtrees is one tree and every tree appears once.

use crate::error::SchemeError;
use crate::tableau::StageMatrix;
use core::fmt;

/// The largest tree order [`RootedTrees::up_to`] generates, hence the highest order the
/// checker can confirm. A report with `order == checked_up_to == 9` means "at least 9".
pub const MAX_TREE_ORDER: u32 = 9;

/// A rooted tree, stored inside a [`RootedTrees`] collection.
///
/// `children` are the indices (into the same collection) of the subtrees attached to the
/// root, in non-decreasing order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootedTree {
    order: u32,
    children: Vec<usize>,
    density: u64,
    symmetry: u64,
    notation: String,
}

impl RootedTree {
    /// The number of vertices `|t|`.
    #[must_use]
    pub fn order(&self) -> u32 {
        self.order
    }

    /// Indices (into the owning [`RootedTrees`]) of the root's subtrees, non-decreasing.
    #[must_use]
    pub fn children(&self) -> &[usize] {
        &self.children
    }

    /// The density `γ(t)`: `γ(τ) = 1`, `γ([t₁,…,t_m]) = |t| Π γ(t_k)` \[HNW93 II.2, Def. 2.12\].
    #[must_use]
    pub fn density(&self) -> u64 {
        self.density
    }

    /// The symmetry `σ(t)`: `σ(τ) = 1`, `σ([t₁^{m₁},…,t_k^{m_k}]) = Π m_i! σ(t_i)^{m_i}` for
    /// distinct subtrees `t_i` occurring `m_i` times \[But16 §30\], \[HLW06 III.1\].
    #[must_use]
    pub fn symmetry(&self) -> u64 {
        self.symmetry
    }

    /// Bracket notation: `τ` is the single vertex, `[t₁,t₂]` grafts `t₁` and `t₂` onto a new
    /// root, and a superscript counts repeated subtrees (`[τ²]` is the cherry).
    #[must_use]
    pub fn notation(&self) -> &str {
        &self.notation
    }
}

impl fmt::Display for RootedTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation)
    }
}

/// All rooted trees up to a given order, sorted by order.
///
/// # Example
/// ```
/// use schemes::RootedTrees;
///
/// let trees = RootedTrees::up_to(4).unwrap();
/// assert_eq!(trees.len(), 1 + 1 + 2 + 4);
/// let names: Vec<&str> = trees.of_order(3).iter().map(|t| t.notation()).collect();
/// assert_eq!(names, ["[τ²]", "[[τ]]"]);
/// assert_eq!(trees.of_order(3)[0].density(), 3); // Σ b_i c_i² = 1/3
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootedTrees {
    trees: Vec<RootedTree>,
    /// `start[n]` is the index of the first tree of order `n` (`start[max + 1] = len`).
    start: Vec<usize>,
    max_order: u32,
}

impl RootedTrees {
    /// Generates all rooted trees with at most `max_order` vertices.
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`] if `max_order > MAX_TREE_ORDER`.
    pub fn up_to(max_order: u32) -> Result<Self, SchemeError> {
        if max_order > MAX_TREE_ORDER {
            return Err(SchemeError::OrderTooHigh {
                requested: max_order,
                max: MAX_TREE_ORDER,
            });
        }
        let mut trees: Vec<RootedTree> = Vec::new();
        let mut start = vec![0_usize; max_order as usize + 2];
        for n in 1..=max_order {
            start[n as usize] = trees.len();
            let limit = trees.len();
            let mut stack = Vec::new();
            let mut new = Vec::new();
            grow(&trees, limit, n - 1, 0, &mut stack, &mut new);
            trees.extend(new);
        }
        start[max_order as usize + 1] = trees.len();
        Ok(Self {
            trees,
            start,
            max_order,
        })
    }

    /// The largest order present.
    #[must_use]
    pub fn max_order(&self) -> u32 {
        self.max_order
    }

    /// Number of trees.
    #[must_use]
    pub fn len(&self) -> usize {
        self.trees.len()
    }

    /// Whether there are no trees (only for `max_order = 0`).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.trees.is_empty()
    }

    /// The tree with index `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn get(&self, i: usize) -> &RootedTree {
        &self.trees[i]
    }

    /// All trees, sorted by order.
    pub fn iter(&self) -> impl Iterator<Item = &RootedTree> {
        self.trees.iter()
    }

    /// The trees with exactly `n` vertices (empty if `n` is 0 or above [`Self::max_order`]).
    #[must_use]
    pub fn of_order(&self, n: u32) -> &[RootedTree] {
        if n == 0 || n > self.max_order {
            return &[];
        }
        &self.trees[self.start[n as usize]..self.start[n as usize + 1]]
    }

    /// The stage weights `Φ_i(t)` (rows indexed by tree, columns by stage) of the matrix `m`,
    /// with every coefficient replaced by its absolute value when `absolute` is set.
    fn stage_weights<M: StageMatrix + ?Sized>(&self, m: &M, absolute: bool) -> Vec<Vec<f64>> {
        let s = m.stages();
        let a = |i: usize, j: usize| {
            let v = m.a(i, j);
            if absolute { v.abs() } else { v }
        };
        let mut phi: Vec<Vec<f64>> = Vec::with_capacity(self.trees.len());
        // a_phi[t][i] = Σ_j a_ij Φ_j(t)
        let mut a_phi: Vec<Vec<f64>> = Vec::with_capacity(self.trees.len());
        for tree in &self.trees {
            let mut g = vec![1.0; s];
            for &child in &tree.children {
                for (i, gi) in g.iter_mut().enumerate() {
                    *gi *= a_phi[child][i];
                }
            }
            let ag: Vec<f64> = (0..s)
                .map(|i| (0..s).map(|j| a(i, j) * g[j]).sum())
                .collect();
            phi.push(g);
            a_phi.push(ag);
        }
        phi
    }
}

/// Appends to `out` every tree whose root's subtrees are `stack` plus a non-decreasing list of
/// trees with indices in `min..limit` and total order `remaining`.
fn grow(
    trees: &[RootedTree],
    limit: usize,
    remaining: u32,
    min: usize,
    stack: &mut Vec<usize>,
    out: &mut Vec<RootedTree>,
) {
    if remaining == 0 {
        out.push(make_tree(trees, stack));
        return;
    }
    for idx in min..limit {
        let o = trees[idx].order;
        if o > remaining {
            break; // sorted by order
        }
        stack.push(idx);
        grow(trees, limit, remaining - o, idx, stack, out);
        stack.pop();
    }
}

fn factorial(n: u64) -> u64 {
    (1..=n).product()
}

fn superscript(n: usize) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    n.to_string()
        .chars()
        .map(|d| DIGITS[d.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

fn make_tree(trees: &[RootedTree], children: &[usize]) -> RootedTree {
    let order = 1 + children.iter().map(|&c| trees[c].order).sum::<u32>();
    let density = u64::from(order) * children.iter().map(|&c| trees[c].density).product::<u64>();
    let mut symmetry = children.iter().map(|&c| trees[c].symmetry).product::<u64>();
    let notation = if children.is_empty() {
        "τ".to_string()
    } else {
        let mut parts = Vec::new();
        let mut k = 0;
        while k < children.len() {
            let mut m = 1;
            while k + m < children.len() && children[k + m] == children[k] {
                m += 1;
            }
            symmetry *= factorial(m as u64);
            let name = &trees[children[k]].notation;
            parts.push(if m == 1 {
                name.clone()
            } else {
                format!("{name}{}", superscript(m))
            });
            k += m;
        }
        format!("[{}]", parts.join(","))
    };
    RootedTree {
        order,
        children: children.to_vec(),
        density,
        symmetry,
        notation,
    }
}

/// One order condition that does not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct Violation {
    /// The tree, in the bracket notation of [`RootedTree::notation`].
    pub tree: String,
    /// `|t|`.
    pub order: u32,
    /// `Φ(t) = Σ b_i Φ_i(t)` computed from the method.
    pub elementary_weight: f64,
    /// The required value `θ^{|t|}/γ(t)` (`θ = 1` for a step).
    pub expected: f64,
    /// `Φ(t) − expected`.
    pub residual: f64,
    /// The tolerance the residual was compared with (see the [module docs](self)).
    pub tolerance: f64,
}

/// The outcome of an order check.
#[derive(Debug, Clone, PartialEq)]
pub struct OrderReport {
    /// The largest `p ≤ checked_up_to` such that every condition with `|t| ≤ p` holds.
    pub order: u32,
    /// The highest tree order examined. `order == checked_up_to` means "at least this order".
    pub checked_up_to: u32,
    /// Every violated condition with `|t| ≤ checked_up_to`, sorted by tree order.
    pub violations: Vec<Violation>,
    /// The largest `|residual| / tolerance` over the conditions that hold (how close the
    /// satisfied conditions came to the tolerance; below 1 by definition).
    pub worst_satisfied_ratio: f64,
}

impl OrderReport {
    /// Whether all conditions up to order `p` hold (`p ≤ checked_up_to`).
    #[must_use]
    pub fn has_order(&self, p: u32) -> bool {
        p <= self.order
    }

    /// The violated conditions of tree order `p`.
    pub fn violations_of_order(&self, p: u32) -> impl Iterator<Item = &Violation> {
        self.violations.iter().filter(move |v| v.order == p)
    }
}

impl fmt::Display for OrderReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "order {} (checked up to {})",
            self.order, self.checked_up_to
        )?;
        if let Some(first) = self.violations.first() {
            let n = self.violations_of_order(first.order).count();
            let worst = self
                .violations_of_order(first.order)
                .map(|v| v.residual.abs())
                .fold(0.0, f64::max);
            write!(
                f,
                "; {n} condition(s) of order {} violated, largest |residual| {worst:.3e} (e.g. tree {})",
                first.order, first.tree
            )?;
        }
        Ok(())
    }
}

/// Checks order conditions of Runge–Kutta tableaux (see the [module docs](self) for the
/// formulas and the tolerance).
///
/// # Example
/// ```
/// use schemes::OrderChecker;
/// use schemes::catalogue::{GAUSS_LEGENDRE4, RK4};
///
/// let checker = OrderChecker::new();
/// let report = checker.check(&RK4, RK4.b, 5);
/// assert_eq!((report.order, report.checked_up_to), (4, 5));
/// assert_eq!(report.violations.len(), 9); // all nine trees of order 5 fail
/// assert_eq!(checker.check(&GAUSS_LEGENDRE4, GAUSS_LEGENDRE4.b, 5).order, 4);
/// ```
#[derive(Debug, Clone)]
pub struct OrderChecker {
    trees: RootedTrees,
    tolerance_ulps: f64,
}

impl Default for OrderChecker {
    fn default() -> Self {
        Self::new()
    }
}

impl OrderChecker {
    /// The default tolerance, in units of `f64::EPSILON` relative to `Φ_abs(t)`.
    pub const DEFAULT_TOLERANCE_ULPS: f64 = 256.0;

    /// A checker with all trees up to [`MAX_TREE_ORDER`] and the default tolerance.
    #[must_use]
    pub fn new() -> Self {
        Self::with_tolerance_ulps(Self::DEFAULT_TOLERANCE_ULPS)
    }

    /// A checker with all trees up to [`MAX_TREE_ORDER`] and a tolerance of `ulps · ε`
    /// relative to `Φ_abs(t)`.
    #[must_use]
    pub fn with_tolerance_ulps(ulps: f64) -> Self {
        let trees = match RootedTrees::up_to(MAX_TREE_ORDER) {
            Ok(t) => t,
            Err(_) => unreachable!("MAX_TREE_ORDER is supported"),
        };
        Self {
            trees,
            tolerance_ulps: ulps,
        }
    }

    /// The trees used.
    #[must_use]
    pub fn trees(&self) -> &RootedTrees {
        &self.trees
    }

    /// Checks `Σ_i w_i Φ_i(t) = 1/γ(t)` for all trees with `|t| ≤ max_order` (clamped to
    /// [`MAX_TREE_ORDER`]), where `Φ_i` are the stage weights of `method` and `w = weights`
    /// (pass `b`, or `b̂` for embedded weights).
    ///
    /// # Panics
    /// If `weights.len() != method.stages()`.
    #[must_use]
    pub fn check<M: StageMatrix + ?Sized>(
        &self,
        method: &M,
        weights: &[f64],
        max_order: u32,
    ) -> OrderReport {
        self.check_continuous(method, weights, 1.0, max_order)
    }

    /// Checks the conditions of a continuous extension at the output point `θ`:
    /// `Σ_i w_i Φ_i(t) = θ^{|t|}/γ(t)` for `|t| ≤ max_order`, where `w_i = b_i(θ)` are the
    /// dense-output weights at `θ` (e.g. from [`crate::ContinuousExtension::weights_at`])
    /// \[HNW93 II.6\].
    ///
    /// # Panics
    /// If `weights.len() != method.stages()`.
    #[must_use]
    pub fn check_continuous<M: StageMatrix + ?Sized>(
        &self,
        method: &M,
        weights: &[f64],
        theta: f64,
        max_order: u32,
    ) -> OrderReport {
        assert_eq!(
            weights.len(),
            method.stages(),
            "OrderChecker: {} weights for a method with {} stages",
            weights.len(),
            method.stages()
        );
        let max_order = max_order.min(self.trees.max_order());
        let phi = self.trees.stage_weights(method, false);
        let phi_abs = self.trees.stage_weights(method, true);
        let mut violations = Vec::new();
        let mut worst_satisfied_ratio: f64 = 0.0;
        for (t, tree) in self.trees.iter().enumerate() {
            if tree.order > max_order {
                break;
            }
            let value: f64 = weights.iter().zip(&phi[t]).map(|(w, p)| w * p).sum();
            let scale: f64 = weights
                .iter()
                .zip(&phi_abs[t])
                .map(|(w, p)| w.abs() * p)
                .sum();
            let expected = theta.powi(tree.order as i32) / tree.density as f64;
            let residual = value - expected;
            let tolerance = self.tolerance_ulps * f64::EPSILON * scale.max(expected.abs());
            // `!(x <= tol)` also catches NaN.
            if residual.abs() <= tolerance {
                if tolerance > 0.0 {
                    worst_satisfied_ratio = worst_satisfied_ratio.max(residual.abs() / tolerance);
                }
            } else {
                violations.push(Violation {
                    tree: tree.notation.clone(),
                    order: tree.order,
                    elementary_weight: value,
                    expected,
                    residual,
                    tolerance,
                });
            }
        }
        let order = violations.first().map_or(max_order, |v| v.order - 1);
        OrderReport {
            order,
            checked_up_to: max_order,
            violations,
            worst_satisfied_ratio,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_counts_match_a000081() {
        let trees = RootedTrees::up_to(MAX_TREE_ORDER).unwrap();
        let counts: Vec<usize> = (1..=9).map(|n| trees.of_order(n).len()).collect();
        assert_eq!(counts, [1, 1, 2, 4, 9, 20, 48, 115, 286]);
        assert_eq!(trees.len(), 486);
        assert_eq!(RootedTrees::up_to(8).unwrap().len(), 200);
        assert!(RootedTrees::up_to(10).is_err());
        assert!(RootedTrees::up_to(0).unwrap().is_empty());
    }

    #[test]
    fn trees_are_distinct_and_sorted() {
        let trees = RootedTrees::up_to(MAX_TREE_ORDER).unwrap();
        let mut names: Vec<&str> = trees.iter().map(RootedTree::notation).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 486);
        for w in trees.iter().collect::<Vec<_>>().windows(2) {
            assert!(w[0].order() <= w[1].order());
        }
    }

    /// Σ_{|t|=n} n!/σ(t) = n^{n−1} (labelled rooted trees, Cayley) and
    /// Σ_{|t|=n} n!/(σ(t)γ(t)) = (n−1)! (monotonically labelled trees) \[But16 §30\].
    #[test]
    fn density_and_symmetry_identities() {
        let trees = RootedTrees::up_to(MAX_TREE_ORDER).unwrap();
        for n in 1..=MAX_TREE_ORDER {
            let nf = factorial(u64::from(n));
            let labelled: u64 = trees.of_order(n).iter().map(|t| nf / t.symmetry()).sum();
            assert_eq!(labelled, u64::from(n).pow(n - 1), "n = {n}");
            let monotone: u64 = trees
                .of_order(n)
                .iter()
                .map(|t| nf / (t.symmetry() * t.density()))
                .sum();
            assert_eq!(monotone, factorial(u64::from(n) - 1), "n = {n}");
        }
        // Tall tree and bushy tree of order 8.
        let eight = trees.of_order(8);
        assert!(
            eight
                .iter()
                .any(|t| t.density() == 40320 && t.symmetry() == 1)
        );
        assert!(
            eight
                .iter()
                .any(|t| t.density() == 8 && t.symmetry() == 5040 && t.notation() == "[τ⁷]")
        );
    }

    /// A hand-made one-stage matrix (explicit Euler): order 1, and the residual of the tree
    /// `[τ]` is `Σ b_i c_i − ½ = −½`.
    #[test]
    fn euler_is_first_order() {
        struct Euler;
        impl StageMatrix for Euler {
            fn stages(&self) -> usize {
                1
            }
            fn a(&self, _: usize, _: usize) -> f64 {
                0.0
            }
        }
        let r = OrderChecker::new().check(&Euler, &[1.0], 3);
        assert_eq!(r.order, 1);
        assert_eq!(r.violations.len(), 1 + 2);
        assert_eq!(r.violations[0].tree, "[τ]");
        assert_eq!(r.violations[0].residual, -0.5);
    }
}
