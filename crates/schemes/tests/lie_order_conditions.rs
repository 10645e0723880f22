//! The Lie group (ordered-forest) order conditions of every shipped commutator-free,
//! Crouch–Grossman and two-commutator method, their sensitivity to every single coefficient,
//! and the sanity checks of the conventions (Lie–Euler, RKMK4 with and without `dexp⁻¹`, the
//! abelian quotient against Butcher's conditions).

use schemes::catalogue::{
    CF4, CG3, COMMUTATOR_FREE, DOPRI54, EULER, GAUSS_LEGENDRE4, LIE_EULER, RK4,
    RKMK4_TWO_COMMUTATORS,
};
use schemes::lie_order_conditions::{LieOrderChecker, MAX_LIE_ORDER, OrderedForests};
use schemes::{
    Base, CfEmbedded, CfStage, CommutatorFreeScheme, ExpProduct, OrderChecker, RootedTrees,
    SchemeError, TwoCommutatorCoefficients,
};

/// Residuals of a satisfied condition: a few rounding errors of `O(1)` quantities.
const ROUND_OFF: f64 = 8.0 * f64::EPSILON;
/// The size of a planted coefficient change.
const DELTA: f64 = 1e-6;

fn leak_rows(rows: Vec<Vec<f64>>) -> &'static [&'static [f64]] {
    let rows: Vec<&'static [f64]> = rows
        .into_iter()
        .map(|r| &*Box::leak(r.into_boxed_slice()))
        .collect();
    Box::leak(rows.into_boxed_slice())
}

/// Where a coefficient sits: the product (stage `i`, the update, the embedded update), the
/// exponential `l` (order of application) and the stage derivative `j`.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Product {
    Stage(usize),
    Update,
    Embedded,
}

fn product(s: &CommutatorFreeScheme, p: Product) -> ExpProduct {
    match p {
        Product::Stage(i) => s.stages[i].point,
        Product::Update => s.update,
        Product::Embedded => s.embedded.expect("pair").update,
    }
}

/// Every stored coefficient of the scheme (zeros written in a row included).
fn coefficients(s: &CommutatorFreeScheme) -> Vec<(Product, usize, usize)> {
    let mut products: Vec<Product> = (0..s.stages.len()).map(Product::Stage).collect();
    products.push(Product::Update);
    if s.embedded.is_some() {
        products.push(Product::Embedded);
    }
    let mut out = Vec::new();
    for p in products {
        for (l, row) in product(s, p).factors.iter().enumerate() {
            out.extend((0..row.len()).map(|j| (p, l, j)));
        }
    }
    out
}

/// A copy of `s` with the coefficient rows of `p` changed by `edit`, and the nodes reset to
/// the row sums of the changed data (so that only the order conditions can see the change).
fn edited(
    s: &CommutatorFreeScheme,
    p: Product,
    edit: impl Fn(&mut Vec<Vec<f64>>),
) -> CommutatorFreeScheme {
    let mut rows: Vec<Vec<f64>> = product(s, p).factors.iter().map(|r| r.to_vec()).collect();
    edit(&mut rows);
    let new = ExpProduct::new(product(s, p).base, leak_rows(rows));
    let mut stages: Vec<CfStage> = s.stages.to_vec();
    let mut out = *s;
    match p {
        Product::Stage(i) => stages[i].point = new,
        Product::Update => out.update = new,
        Product::Embedded => {
            out.embedded = Some(CfEmbedded {
                order: s.embedded.expect("pair").order,
                update: new,
            });
        }
    }
    out.stages = Box::leak(stages.clone().into_boxed_slice());
    let collapse = out.abelian_tableau();
    for (stage, row) in stages.iter_mut().zip(&collapse.a) {
        stage.c = row.iter().sum();
    }
    out.stages = Box::leak(stages.into_boxed_slice());
    out
}

#[test]
fn every_shipped_commutator_free_scheme_has_its_order_and_not_more() {
    let checker = LieOrderChecker::new();
    for s in COMMUTATOR_FREE {
        let p = s.order;
        let r = checker.check_commutator_free(s, p + 1).unwrap();
        assert_eq!(r.order, p, "{}:\n{r}", s.name);
        assert!(
            r.worst_residual[..p as usize]
                .iter()
                .all(|&x| x <= ROUND_OFF),
            "{}:\n{r}",
            s.name
        );
        assert!(r.violations_of_order(p + 1).count() > 0);
        assert!(r.node_residual <= ROUND_OFF, "{}:\n{r}", s.name);
        if let Some(e) = s.embedded {
            let r = checker
                .check_commutator_free_embedded(s, e.order + 1)
                .unwrap();
            assert_eq!(r.order, e.order, "{} (embedded):\n{r}", s.name);
            assert!(
                r.worst_residual[..e.order as usize]
                    .iter()
                    .all(|&x| x <= ROUND_OFF)
            );
        }
    }
}

#[test]
fn rkmk4_with_two_commutators_has_order_four_and_not_five() {
    let r = LieOrderChecker::new()
        .check_two_commutators(&RKMK4_TWO_COMMUTATORS, 5)
        .unwrap();
    assert_eq!(r.order, 4, "{r}");
    assert!(r.worst_residual[..4].iter().all(|&x| x <= ROUND_OFF), "{r}");
    assert_eq!(r.node_residual, 0.0);
}

#[test]
fn a_change_of_any_single_coefficient_is_caught() {
    let checker = LieOrderChecker::new();
    for s in COMMUTATOR_FREE {
        for (p, l, j) in coefficients(s) {
            let t = edited(s, p, |rows| rows[l][j] += DELTA);
            assert!(t.validate_structure().is_ok());
            let main = checker.check_commutator_free(&t, s.order).unwrap();
            assert!(main.node_residual <= ROUND_OFF);
            let embedded = s.embedded.map(|e| {
                checker
                    .check_commutator_free_embedded(&t, e.order)
                    .unwrap()
                    .has_order(e.order)
            });
            let caught = match p {
                Product::Update => !main.has_order(s.order),
                Product::Embedded => embedded == Some(false),
                // A stage serves the main update, the embedded one, or both.
                Product::Stage(_) => !main.has_order(s.order) || embedded == Some(false),
            };
            assert!(caught, "{}: {p:?} exp {l} k{j} + 1e-6 not caught", s.name);
        }
    }
}

#[test]
fn moving_weight_between_exponentials_keeps_the_collapse_but_is_caught() {
    let checker = LieOrderChecker::new();
    for j in 0..4 {
        let t = edited(&CF4, Product::Update, |rows| {
            rows[0][j] += DELTA;
            rows[1][j] -= DELTA;
        });
        // The classical conditions cannot see it (up to rounding of the moved weights) …
        let collapse = t.abelian_tableau();
        assert_eq!(
            OrderChecker::new().check(&collapse, &collapse.b, 4).order,
            4
        );
        // … the ordered forests do.
        let r = checker.check_commutator_free(&t, 4).unwrap();
        assert!(r.order < 4, "k{j}: {r}");
        assert!(r.worst_residual[..2].iter().all(|&x| x <= ROUND_OFF));
    }
}

#[test]
fn the_reversed_crouch_grossman_ordering_drops_an_order() {
    // CG3 with each product's exponentials applied in the reverse order: the same abelian
    // collapse (classical order 3), but not of order 3 on a Lie group.
    let reversed = |p: &ExpProduct| {
        let rows: Vec<Vec<f64>> = p.factors.iter().rev().map(|r| r.to_vec()).collect();
        ExpProduct::new(p.base, leak_rows(rows))
    };
    let stages: Vec<CfStage> = CG3
        .stages
        .iter()
        .map(|s| CfStage::new(s.c, reversed(&s.point)))
        .collect();
    let t = CommutatorFreeScheme {
        stages: Box::leak(stages.into_boxed_slice()),
        update: reversed(&CG3.update),
        ..CG3
    };
    assert_eq!(t.verify_abelian_order().order, 3);
    let r = LieOrderChecker::new().check_commutator_free(&t, 3).unwrap();
    assert_eq!(r.order, 2, "{r}");
}

/// Every coefficient of [`TwoCommutatorCoefficients`] (nodes excepted) with a handle to it.
/// A handle to one coefficient.
type Field = fn(&mut TwoCommutatorCoefficients) -> &mut f64;

fn two_commutator_fields() -> Vec<(&'static str, Field)> {
    vec![
        ("a21", |m| &mut m.a21),
        ("a32", |m| &mut m.a32),
        ("a32_bracket", |m| &mut m.a32_bracket),
        ("a43", |m| &mut m.a43),
        ("b1", |m| &mut m.b[0]),
        ("b2", |m| &mut m.b[1]),
        ("b3", |m| &mut m.b[2]),
        ("b4", |m| &mut m.b[3]),
        ("b_bracket", |m| &mut m.b_bracket),
    ]
}

#[test]
fn a_change_of_any_two_commutator_coefficient_is_caught() {
    let checker = LieOrderChecker::new();
    for (name, field) in two_commutator_fields() {
        let mut m = RKMK4_TWO_COMMUTATORS;
        *field(&mut m) += DELTA;
        m.c = [0.0, m.a21, m.a32, m.a43];
        let r = checker.check_two_commutators(&m, 4).unwrap();
        assert_eq!(r.node_residual, 0.0);
        assert!(r.order < 4, "{name} + 1e-6 not caught: {r}");
    }
    // A node alone changes no series coefficient; it is reported as a node residual.
    let mut m = RKMK4_TWO_COMMUTATORS;
    m.c[2] += DELTA;
    let r = checker.check_two_commutators(&m, 4).unwrap();
    assert_eq!(r.order, 4);
    assert!((r.node_residual - DELTA).abs() < 1e-15);
}

#[test]
fn lie_euler_has_order_exactly_one() {
    let checker = LieOrderChecker::new();
    assert_eq!(
        checker.check_commutator_free(&LIE_EULER, 2).unwrap().order,
        1
    );
    assert_eq!(checker.check_rkmk(&EULER, EULER.b, 0, 2).unwrap().order, 1);
    // Both are exp(B⁺(∅)) = exp(τ): the coefficient of τᵐ is 1/m!, of every other forest 0.
    let series = checker
        .commutator_free_series(&LIE_EULER, false, 4)
        .unwrap();
    let forests = checker.forests();
    for (w, &coefficient) in series.iter().enumerate() {
        let n = forests.order(w);
        let expected = if n == 0 || (n <= 4 && forests.notation(w) == "τ".repeat(n as usize)) {
            1.0 / (1..=n).product::<u32>() as f64
        } else {
            0.0
        };
        assert_eq!(coefficient, expected, "{}", forests.notation(w));
    }
}

#[test]
fn rkmk_needs_the_dexpinv_correction() {
    let checker = LieOrderChecker::new();
    // One exponential of the classical RK4 sum: order 2 only [MK99].
    let naive = checker.check_rkmk(&RK4, RK4.b, 0, 5).unwrap();
    assert_eq!(naive.order, 2, "{naive}");
    // dexp⁻¹ through ad¹: order 3; through ad² = ad^{p−2}: order 4 [MK99, Thm. 4.1].
    assert_eq!(checker.check_rkmk(&RK4, RK4.b, 1, 5).unwrap().order, 3);
    let rkmk4 = checker.check_rkmk(&RK4, RK4.b, 2, 5).unwrap();
    assert_eq!(rkmk4.order, 4, "{rkmk4}");
    assert!(rkmk4.worst_residual[..4].iter().all(|&x| x <= ROUND_OFF));
    // Dormand–Prince 5 with ad³: order 5.
    assert_eq!(
        checker.check_rkmk(&DOPRI54, DOPRI54.b, 3, 6).unwrap().order,
        5
    );
}

/// A canonical name of the unordered tree underlying ordered tree `t` (children sorted).
fn unordered(forests: &OrderedForests, t: usize) -> String {
    let children = forests.root_children(t).expect("a tree");
    let mut names: Vec<String> = forests
        .trees(children)
        .iter()
        .map(|&c| unordered(forests, c))
        .collect();
    names.sort();
    format!("({})", names.concat())
}

/// The same canonical name for a classical tree.
fn classical(trees: &RootedTrees, t: usize) -> String {
    let mut names: Vec<String> = trees
        .get(t)
        .children()
        .iter()
        .map(|&c| classical(trees, c))
        .collect();
    names.sort();
    format!("({})", names.concat())
}

/// Butcher's elementary weights `Φ(t) = Σ bᵢ Φᵢ(t)`, `Φᵢ([t₁…t_m]) = Π_k Σ_j a_ij Φ_j(t_k)`.
fn elementary_weights(trees: &RootedTrees, a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let s = b.len();
    let mut stage: Vec<Vec<f64>> = Vec::new();
    for t in trees.iter() {
        let phi: Vec<f64> = (0..s)
            .map(|i| {
                t.children()
                    .iter()
                    .map(|&c| {
                        (0..s)
                            .map(|j| a[i].get(j).unwrap_or(&0.0) * stage[c][j])
                            .sum::<f64>()
                    })
                    .product()
            })
            .collect();
        stage.push(phi);
    }
    stage
        .iter()
        .map(|phi| phi.iter().zip(b).map(|(p, bi)| p * bi).sum())
        .collect()
}

#[test]
fn the_abelian_quotient_gives_butchers_conditions() {
    // Summing a(ω) over the orderings of each unordered tree gives Φ(t)/σ(t) of the abelian
    // collapse, and α gives 1/(σ(t)γ(t)) [HNW93 II.2].
    let checker = LieOrderChecker::new();
    let forests = checker.forests();
    let trees = RootedTrees::up_to(MAX_LIE_ORDER).unwrap();
    let exact = checker.exact_series(MAX_LIE_ORDER).unwrap();
    let sum_over_orderings = |series: &[f64], t: usize| -> f64 {
        let name = classical(&trees, t);
        (0..forests.len())
            .filter(|&w| forests.root_children(w).is_some() && unordered(forests, w) == name)
            .map(|w| series[w])
            .sum()
    };
    for t in 0..trees.len() {
        let tree = trees.get(t);
        let expected = 1.0 / (tree.symmetry() * tree.density()) as f64;
        assert!((sum_over_orderings(&exact, t) - expected).abs() <= ROUND_OFF);
    }
    for s in COMMUTATOR_FREE {
        let collapse = s.abelian_tableau();
        let mut cases = vec![(false, collapse.b.clone())];
        if let Some(b_hat) = collapse.b_hat.clone() {
            cases.push((true, b_hat));
        }
        for (embedded, b) in cases {
            let series = checker
                .commutator_free_series(s, embedded, MAX_LIE_ORDER)
                .unwrap();
            let phi = elementary_weights(&trees, &collapse.a, &b);
            for (t, phi_t) in phi.iter().enumerate() {
                let expected = phi_t / trees.get(t).symmetry() as f64;
                let got = sum_over_orderings(&series, t);
                assert!(
                    (got - expected).abs() <= 1e-14,
                    "{} {}: {got} vs {expected}",
                    s.name,
                    trees.get(t)
                );
            }
        }
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    let checker = LieOrderChecker::new();
    assert_eq!(
        checker.check_commutator_free(&CF4, MAX_LIE_ORDER + 1),
        Err(SchemeError::OrderTooHigh {
            requested: MAX_LIE_ORDER + 1,
            max: MAX_LIE_ORDER
        })
    );
    assert!(matches!(
        checker.check_commutator_free_embedded(&CF4, 3),
        Err(SchemeError::Unsupported { .. })
    ));
    assert!(matches!(
        checker.check_rkmk(&GAUSS_LEGENDRE4, GAUSS_LEGENDRE4.b, 2, 4),
        Err(SchemeError::NotExplicit { .. })
    ));
    assert!(matches!(
        checker.check_rkmk(&RK4, &RK4.b[..3], 2, 4),
        Err(SchemeError::DimensionMismatch { .. })
    ));
    let mut m = RKMK4_TWO_COMMUTATORS;
    m.b_bracket = f64::NAN;
    assert!(matches!(
        checker.check_two_commutators(&m, 4),
        Err(SchemeError::NonFiniteCoefficient { .. })
    ));
    // A stage built on itself.
    const BAD: CommutatorFreeScheme = CommutatorFreeScheme {
        stages: &[
            CfStage::new(0.0, ExpProduct::START),
            CfStage::new(0.5, ExpProduct::new(Base::Stage(1), &[&[0.5]])),
        ],
        ..CF4
    };
    assert!(matches!(
        checker.check_commutator_free(&BAD, 2),
        Err(SchemeError::NotExplicit { .. })
    ));
    assert!(OrderedForests::up_to(MAX_LIE_ORDER + 1).is_err());
}

/// All interleavings of the words `u` and `v` (with multiplicity).
fn shuffles(u: &[usize], v: &[usize]) -> Vec<Vec<usize>> {
    match (u.split_first(), v.split_first()) {
        (None, _) => vec![v.to_vec()],
        (_, None) => vec![u.to_vec()],
        (Some((&a, u_rest)), Some((&b, v_rest))) => {
            let mut out = Vec::new();
            for mut w in shuffles(u_rest, v) {
                w.insert(0, a);
                out.push(w);
            }
            for mut w in shuffles(u, v_rest) {
                w.insert(0, b);
                out.push(w);
            }
            out
        }
    }
}

#[test]
fn series_are_shuffle_characters() {
    // The exact flow and every step are exponentials of Lie series in the trees (group-like),
    // so their coefficients multiply by the shuffle of the forests' trees [MW08]:
    // a(u)·a(v) = Σ_{w ∈ u ⧢ v} a(w). This is why only dim 𝔏_n (1, 1, 3, 8, 25, 75) of the
    // C_n forest conditions of each order n are independent.
    let checker = LieOrderChecker::new();
    let forests = checker.forests();
    let index: std::collections::HashMap<Vec<usize>, usize> = (0..forests.len())
        .map(|w| (forests.trees(w).to_vec(), w))
        .collect();
    let mut series = vec![checker.exact_series(MAX_LIE_ORDER).unwrap()];
    for s in COMMUTATOR_FREE {
        series.push(
            checker
                .commutator_free_series(s, false, MAX_LIE_ORDER)
                .unwrap(),
        );
    }
    for a in &series {
        for u in 1..forests.len() {
            for v in 1..forests.len() {
                if forests.order(u) + forests.order(v) > MAX_LIE_ORDER {
                    continue;
                }
                let sum: f64 = shuffles(forests.trees(u), forests.trees(v))
                    .iter()
                    .map(|w| a[index[w]])
                    .sum();
                let scale = sum.abs().max(1.0);
                assert!((sum - a[u] * a[v]).abs() <= 64.0 * f64::EPSILON * scale);
            }
        }
    }
    // dim 𝔏_n from the forest counts c_n = C_n of the enumeration: with
    // s_n = n c_n − Σ_{0<k<n} s_k c_{n−k} (the coefficients of x·C'(x)/C(x)),
    // Σ_{d | n} d·dim 𝔏_d = s_n.
    let c: Vec<i64> = (0..=MAX_LIE_ORDER)
        .map(|n| forests.of_order(n).len() as i64)
        .collect();
    let mut s = vec![0_i64; c.len()];
    let mut dims = vec![0_i64; c.len()];
    for n in 1..c.len() {
        s[n] = n as i64 * c[n] - (1..n).map(|k| s[k] * c[n - k]).sum::<i64>();
        let lower: i64 = (1..n)
            .filter(|d| n % d == 0)
            .map(|d| d as i64 * dims[d])
            .sum();
        dims[n] = (s[n] - lower) / n as i64;
    }
    assert_eq!(dims[1..], [1, 1, 3, 8, 25, 75]);
}
