//! Ordered (planar) rooted forests and the truncated concatenation algebra on them.

use crate::error::SchemeError;
use std::collections::HashMap;

/// The largest number of nodes [`OrderedForests::up_to`] enumerates, hence the highest order
/// the Lie group checker can confirm. There are 1, 1, 2, 5, 14, 42, 132 ordered forests with
/// 0 … 6 nodes (the Catalan numbers), 197 in all.
pub const MAX_LIE_ORDER: u32 = 6;

/// All ordered forests with at most `max_order` nodes, indexed `0, 1, …` by number of nodes
/// (index 0 is the empty forest `∅`, index 1 the single node `τ`).
///
/// An **ordered tree** is `B⁺(ω)`: a root whose children are the trees of the ordered forest
/// `ω`, in order. An **ordered forest** is a finite sequence of ordered trees; the
/// concatenation `ω₁ω₂` is the (non-commutative, associative) product with unit `∅`. The
/// number of ordered forests with `n` nodes is the Catalan number `C_n` \[MW08\].
///
/// Notation ([`Self::notation`]): `τ` is the one-node tree, `[ω]` is `B⁺(ω)`, a forest is the
/// juxtaposition of its trees: `[ττ]` is the root with two leaf children, `τ[τ]` the forest of
/// a node followed by a two-node tree.
///
/// # Example
/// ```
/// use schemes::lie_order_conditions::OrderedForests;
///
/// let forests = OrderedForests::up_to(3).unwrap();
/// let counts: Vec<usize> = (0..=3).map(|n| forests.of_order(n).len()).collect();
/// assert_eq!(counts, [1, 1, 2, 5]);
/// let names: Vec<&str> = forests.of_order(3).map(|i| forests.notation(i)).collect();
/// assert_eq!(names, ["[[τ]]", "[ττ]", "τ[τ]", "τττ", "[τ]τ"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OrderedForests {
    max_order: u32,
    forests: Vec<Forest>,
    /// `start[n]` is the index of the first forest with `n` nodes (`start[max + 1] = len`).
    start: Vec<usize>,
    /// `graft[i]` is the index of `B⁺(forest i)` (`usize::MAX` when it has too many nodes).
    graft: Vec<usize>,
    /// Every product `(i, j, k)` with forest `k` = forest `i` · forest `j`, `i` and `j`
    /// non-empty, sorted by the number of nodes of `k`.
    products: Vec<(usize, usize, usize)>,
    /// `product_end[n]`: the products whose result has at most `n` nodes are `products[..end]`.
    product_end: Vec<usize>,
}

/// One ordered forest: its trees (indices of one-tree forests), the forest under the root when
/// it is a single tree, and its notation.
#[derive(Debug, Clone, PartialEq)]
struct Forest {
    order: u32,
    trees: Vec<usize>,
    root_children: Option<usize>,
    /// The forest without its last tree (`0` for the empty forest itself).
    prefix: usize,
    notation: String,
}

impl OrderedForests {
    /// Enumerates every ordered forest with at most `max_order` nodes.
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`] if `max_order >` [`MAX_LIE_ORDER`].
    pub fn up_to(max_order: u32) -> Result<Self, SchemeError> {
        if max_order > MAX_LIE_ORDER {
            return Err(SchemeError::OrderTooHigh {
                requested: max_order,
                max: MAX_LIE_ORDER,
            });
        }
        let mut forests = vec![Forest {
            order: 0,
            trees: Vec::new(),
            root_children: None,
            prefix: 0,
            notation: "∅".into(),
        }];
        let mut index: HashMap<Vec<usize>, usize> = HashMap::new();
        index.insert(Vec::new(), 0);
        let mut start = vec![0, 1];
        for n in 1..=max_order as usize {
            // The trees B⁺(ω) with |ω| = n − 1 first, so that every tree is indexed before the
            // forests that contain it.
            for w in start[n - 1]..start[n] {
                let i = forests.len();
                let notation = if w == 0 {
                    "τ".to_string()
                } else {
                    format!("[{}]", forests[w].notation)
                };
                forests.push(Forest {
                    order: n as u32,
                    trees: vec![i],
                    root_children: Some(w),
                    prefix: 0,
                    notation,
                });
                index.insert(vec![i], i);
            }
            // Then a first tree with k < n nodes followed by a non-empty forest.
            for k in 1..n {
                let trees_k: Vec<usize> = (start[k]..start[k + 1])
                    .filter(|&t| forests[t].root_children.is_some())
                    .collect();
                for t in trees_k {
                    for rest in start[n - k]..start[n - k + 1] {
                        let mut trees = vec![t];
                        trees.extend_from_slice(&forests[rest].trees);
                        let notation = format!("{}{}", forests[t].notation, forests[rest].notation);
                        let i = forests.len();
                        index.insert(trees.clone(), i);
                        forests.push(Forest {
                            order: n as u32,
                            trees,
                            root_children: None,
                            prefix: 0,
                            notation,
                        });
                    }
                }
            }
            start.push(forests.len());
        }
        for forest in &mut forests {
            if let Some((_, head)) = forest.trees.split_last() {
                forest.prefix = index[head];
            }
        }
        let graft = (0..forests.len())
            .map(|w| {
                if forests[w].order < max_order {
                    // The trees of order n + 1 come first among the forests of that order, in
                    // the order of the forests under their roots.
                    start[forests[w].order as usize + 1] + (w - start[forests[w].order as usize])
                } else {
                    usize::MAX
                }
            })
            .collect();
        let (products, product_end) = products(&forests, &index, &start, max_order);
        Ok(Self {
            max_order,
            forests,
            start,
            graft,
            products,
            product_end,
        })
    }

    /// The largest number of nodes enumerated.
    #[must_use]
    pub fn max_order(&self) -> u32 {
        self.max_order
    }

    /// The number of forests (the empty one included).
    #[must_use]
    pub fn len(&self) -> usize {
        self.forests.len()
    }

    /// Always `false`: the empty forest is always present.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.forests.is_empty()
    }

    /// The indices of the forests with `n` nodes (empty beyond [`Self::max_order`]).
    #[must_use]
    pub fn of_order(&self, n: u32) -> core::ops::Range<usize> {
        if n > self.max_order {
            return 0..0;
        }
        self.start[n as usize]..self.start[n as usize + 1]
    }

    /// The number of nodes of forest `i`.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn order(&self, i: usize) -> u32 {
        self.forests[i].order
    }

    /// The trees of forest `i`, in order, as indices of one-tree forests.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn trees(&self, i: usize) -> &[usize] {
        &self.forests[i].trees
    }

    /// For a one-tree forest `B⁺(ω)`, the index of `ω`; `None` for other forests.
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn root_children(&self, i: usize) -> Option<usize> {
        self.forests[i].root_children
    }

    /// The notation of forest `i` (see the type docs).
    ///
    /// # Panics
    /// If `i >= self.len()`.
    #[must_use]
    pub fn notation(&self, i: usize) -> &str {
        &self.forests[i].notation
    }

    /// The forest without its last tree (`ω₁` in `ω = ω₁·B⁺(ω')`); `0` for the empty forest.
    pub(crate) fn prefix(&self, i: usize) -> usize {
        self.forests[i].prefix
    }
}

/// The table of products `(i, j, k)`, forest `k` = forest `i` · forest `j`, for non-empty
/// `i`, `j` with at most `max_order` nodes together, sorted by the order of `k`, and the ends
/// of the blocks of each order.
fn products(
    forests: &[Forest],
    index: &HashMap<Vec<usize>, usize>,
    start: &[usize],
    max_order: u32,
) -> (Vec<(usize, usize, usize)>, Vec<usize>) {
    let mut products = Vec::new();
    let mut end = vec![0, 0];
    for n in 2..=max_order as usize {
        for p in 1..n {
            for i in start[p]..start[p + 1] {
                for j in start[n - p]..start[n - p + 1] {
                    let mut trees = forests[i].trees.clone();
                    trees.extend_from_slice(&forests[j].trees);
                    products.push((i, j, index[&trees]));
                }
            }
        }
        end.push(products.len());
    }
    (products, end)
}

/// The truncated concatenation algebra: series `Σ_ω x(ω) ω` over the ordered forests with at
/// most `degree` nodes, stored densely by forest index. With `magnitude` set every operation
/// uses absolute values of the method's coefficients and turns differences into sums, so
/// that the result bounds the sum of the magnitudes of all terms of the signed computation
/// (the scale of its rounding error).
pub(crate) struct Algebra<'a> {
    pub forests: &'a OrderedForests,
    pub degree: u32,
    pub magnitude: bool,
}

impl Algebra<'_> {
    /// The length of a series (all forests, including those beyond `degree`, kept at zero).
    fn len(&self) -> usize {
        self.forests.len()
    }

    /// The coefficient `c` as used: `|c|` in magnitude mode.
    pub fn coef(&self, c: f64) -> f64 {
        if self.magnitude { c.abs() } else { c }
    }

    /// The zero series.
    pub fn zero(&self) -> Vec<f64> {
        vec![0.0; self.len()]
    }

    /// The unit `∅`.
    pub fn one(&self) -> Vec<f64> {
        let mut x = self.zero();
        x[0] = 1.0;
        x
    }

    /// `y ← y + c·x` (`|c|` in magnitude mode).
    pub fn axpy(&self, y: &mut [f64], c: f64, x: &[f64]) {
        let c = self.coef(c);
        for (yi, xi) in y.iter_mut().zip(x) {
            *yi += c * xi;
        }
    }

    /// The concatenation product `x·y`, truncated at `degree` nodes.
    pub fn mul(&self, x: &[f64], y: &[f64]) -> Vec<f64> {
        let mut z = self.zero();
        // The empty forest is the unit.
        for (k, zk) in z
            .iter_mut()
            .enumerate()
            .take(self.forests.start[self.degree as usize + 1])
        {
            *zk = x[0] * y[k] + if k == 0 { 0.0 } else { x[k] * y[0] };
        }
        for &(i, j, k) in &self.forests.products[..self.forests.product_end[self.degree as usize]] {
            z[k] += x[i] * y[j];
        }
        z
    }

    /// `exp(x) = Σ_{m ≤ degree} x^m/m!` for `x` without constant term (the higher powers
    /// vanish in the truncation).
    pub fn exp(&self, x: &[f64]) -> Vec<f64> {
        let mut sum = self.one();
        let mut term = self.one();
        for m in 1..=self.degree {
            term = self.mul(&term, x);
            let inv = 1.0 / f64::from(m);
            term.iter_mut().for_each(|t| *t *= inv);
            self.axpy(&mut sum, 1.0, &term);
        }
        sum
    }

    /// The image of the Lie algebra bracket `[u, v]` of two frozen vector fields (elements of
    /// 𝔤) in the concatenation algebra: `v·u − u·v` (`v·u + u·v` in magnitude mode). The sign
    /// and the order come from the left action: the infinitesimal generators satisfy
    /// `E_ξ E_η − E_η E_ξ = −E_[ξ,η]` as differential operators.
    pub fn bracket(&self, u: &[f64], v: &[f64]) -> Vec<f64> {
        let mut vu = self.mul(v, u);
        let uv = self.mul(u, v);
        let sign = if self.magnitude { 1.0 } else { -1.0 };
        for (a, b) in vu.iter_mut().zip(&uv) {
            *a += sign * b;
        }
        vu
    }

    /// The grafting `B⁺(x) = Σ_ω x(ω) B⁺(ω)`, truncated at `degree` nodes.
    pub fn graft(&self, x: &[f64]) -> Vec<f64> {
        let mut z = self.zero();
        if self.degree == 0 {
            return z;
        }
        for w in 0..self.forests.start[self.degree as usize] {
            z[self.forests.graft[w]] = x[w];
        }
        z
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalan_counts_and_distinct_notations() {
        let f = OrderedForests::up_to(MAX_LIE_ORDER).unwrap();
        let counts: Vec<usize> = (0..=MAX_LIE_ORDER).map(|n| f.of_order(n).len()).collect();
        assert_eq!(counts, [1, 1, 2, 5, 14, 42, 132]);
        let mut names: Vec<&str> = (0..f.len()).map(|i| f.notation(i)).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), f.len());
        // Ordered trees with n nodes: C_{n−1}.
        let trees: Vec<usize> = (1..=MAX_LIE_ORDER)
            .map(|n| {
                f.of_order(n)
                    .filter(|&i| f.root_children(i).is_some())
                    .count()
            })
            .collect();
        assert_eq!(trees, [1, 1, 2, 5, 14, 42]);
    }

    #[test]
    fn graft_and_product_are_consistent() {
        let f = OrderedForests::up_to(5).unwrap();
        let alg = Algebra {
            forests: &f,
            degree: 5,
            magnitude: false,
        };
        for w in 0..f.len() {
            if f.order(w) < 5 {
                let t = f.graft[w];
                assert_eq!(f.root_children(t), Some(w));
                assert_eq!(
                    f.notation(t),
                    if w == 0 {
                        "τ".to_string()
                    } else {
                        format!("[{}]", f.notation(w))
                    }
                );
            }
        }
        for &(i, j, k) in &f.products {
            assert_eq!(format!("{}{}", f.notation(i), f.notation(j)), f.notation(k));
        }
        // (τ)(τ) − … : exp(τ) has coefficient 1/m! on τ^m.
        let mut x = alg.zero();
        x[1] = 1.0;
        let e = alg.exp(&x);
        let tau3 = (0..f.len()).find(|&i| f.notation(i) == "τττ").unwrap();
        assert!((e[tau3] - 1.0 / 6.0).abs() < 1e-16);
    }
}
