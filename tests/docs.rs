//! `docs/methods.md` is generated from the method constants and must stay in sync with them:
//! this test regenerates it and compares. Run `UPDATE_DOCS=1 cargo test --test docs` to
//! rewrite the file after changing the catalogue.

use schemes::methods::{METHODS, MethodKind};
use std::fmt::Write as _;

fn fmt_coef(x: f64) -> String {
    // Show simple rationals exactly, other values to 16 significant digits.
    for den in 1..=720u32 {
        let num = x * f64::from(den);
        if (num - num.round()).abs() < 1e-12 && num.round().abs() < 1e6 {
            let n = num.round() as i64;
            return if den == 1 {
                format!("{n}")
            } else {
                format!("{n}/{den}")
            };
        }
    }
    format!("{x:.16}")
}

/// The hand-written part of `docs/methods.md`: derived identifiers, the sources of the
/// high-order coefficients and which methods have dense output.
const VARIANTS_AND_SOURCES: &str = "
## Derived identifiers (command line)

The experiments program accepts two families of derived identifiers (`list` prints them all):

- **`<id>-cayley`** for every explicit RKMK method above with the group's `dexp⁻¹` (kind
  `Rkmk`: `rkmk2-cayley`, …, `rkmk4-cayley`, `rkmk54-cayley`, `rkmk-vern87-cayley`,
  `rkmk853-cayley`): the same tableau in Cayley coordinates, `ψ = cay` with the exact
  `dcay⁻¹` [MK99], [HLW06 IV.8.3], on quadratic groups (SO(3), SE(3) and their products and
  powers: every model of the program). Same order; pairs keep their error estimate
  (`MethodSpec::cayley_stepper`).
- **`<id>-embedded`** for every pair (`rkmk-bs32`, `rkmk54`, `cf32`, `cf43`, `rkmk-tsit54`,
  `rkmk-vern65`, `rkmk-vern76`, `rkmk-vern87`, `rkmk853`): the embedded solution run as the
  method, of the embedded order, without error estimate (`MethodSpec::embedded_stepper`), for
  order studies of the error estimators.

## High-order pairs: coefficient sources, checks, dense output

| id | tableau | stages | source of the coefficients |
|---|---|---|---|
| `rkmk-tsit54` | Tsitouras 5(4) | 7, FSAL | [Tsi11] (40-digit decimals as tabulated by Stone; first column `a_i1 = c_i − Σ_j a_ij` to 25 digits) |
| `rkmk-vern65` | Verner 6(5) \"most efficient\" | 9, FSAL | [Ver10], [VerWeb] file RKV65.IIIXb.Efficient (nodes exact; other entries the shortest round-trip `f64` of the 40-digit values) |
| `rkmk-vern76` | Verner 7(6) \"most efficient\" | 10 | [Ver10], [VerWeb] file RKV76.IIa.Efficient (rows 2–5 exact fractions, the rest 40 digits) |
| `rkmk-vern87` | Verner 8(7) \"most efficient\" | 13 | [Ver10], [VerWeb] file RKV87.IIa.Efficient (40 digits) |
| `rkmk853` | Dormand–Prince 8(5,3), DOP853 | 12 | [HNW93 II.10] and Hairer's DOP853 code (30 digits); embedded weights `b̂ = b − e` of its fifth-order estimate [PD81] |

Every one is verified, not trusted: the order-condition checker (rooted trees to order 9,
486 trees) confirms the stated order and embedded order of each and that both violate the
next order; the row sums `c_i = Σ_j a_ij` hold to `4ε Σ_j |a_ij|` (`crates/schemes/tests/catalogue.rs`).
Observed orders: `crates/schemes/tests/high_order.rs` (free rigid body, `Y' = hat(ω(t))Y`,
and SO(3) without closed-form `dexp⁻¹`, where the Bernoulli series through `ad^{p−2}` keeps
order `p` and through `ad^{p−3}` drops to `p − 1` for even `p`). Verner's pairs and
Tsitouras' have small principal error coefficients: on smooth problems their main solutions
often show slope `p + 1` down to round-off.

**Dense output.** `rkmk54` (Shampine's quartic, order 4 [HNW93 II.6]) and `rkmk-tsit54`
(Tsitouras' free quartic interpolant, order 4, no extra stage [Tsi11 §3]; checked at eight
values of θ) have continuous extensions. Verner's interpolants and DOP853's seventh-order
dense output need extra stages, which a `ButcherTableau` does not hold: `rkmk-vern65`,
`rkmk-vern76`, `rkmk-vern87` and `rkmk853` have **no dense output** here (the driver then
saves at step points only).
";

/// The hand-written part of the section on the Lie group order conditions.
const LIE_ORDER_THEORY: &str = "
## Lie group order conditions (ordered forests)

The classical conditions above see a Lie group method only through its abelian collapse: a
commutator-free scheme whose exponentials commute is a Runge–Kutta method, and moving weight
from one exponential to another, or reordering them, leaves that collapse unchanged. The
order theory of Lie group methods is indexed by **ordered** rooted trees and forests [OM99],
[O06], [MW08]; `schemes::lie_order_conditions::LieOrderChecker` implements it.

**What it computes.** For `y' = f(y)·y` (𝔤 acting on the left on `M`) and a test function
`ψ`, one step is expanded as `ψ(y₁) = Σ_ω a(ω) h^{|ω|} F(ω)[ψ](y₀)` over ordered forests `ω`
(1, 1, 2, 5, 14, 42, 132 with 0 … 6 nodes: Catalan numbers), where `F(B⁺(ω)) = Σᵢ F(ω)[fᵢ](y₀)
Eᵢ` is a frozen vector field (the coefficients `fᵢ` of `f` in a basis `Eᵢ` of generators,
differentiated by `F(ω)` and evaluated at `y₀`) and a forest `ω₁ω₂` is the composition of the
frozen operators [MW08]. The exact flow has `ψ(y(h)) = Σ_ω α(ω) h^{|ω|} F(ω)[ψ](y₀)`, and the
method has order `p` when `a(ω) = α(ω)` for every forest with at most `p` nodes. The checker
computes both series in the algebra of ordered forests truncated at 6 nodes, with `f64`
coefficients, and compares them forest by forest (tolerance `256 ε` times the sum of the
magnitudes of the terms, as for the classical checker).

**Conventions** (derived in `crates/schemes/src/lie_order_conditions/mod.rs`):

- `ψ(exp(A)·exp(B)·y₀) = (exp(B)·exp(A))[ψ](y₀)` for frozen fields: the exponential applied
  first stands on the left. A stage `Yᵢ = exp(F_J)···exp(F₁)·Y_m` has the series
  `φ_m·exp(F₁)···exp(F_J)`.
- `k_j = h f(Y_j) = B⁺(φ_j)`: grafting the stage's series onto a root.
- A left action turns brackets around: `E_ξE_η − E_ηE_ξ = −E_[ξ,η]`, so the bracket `[u, v]`
  of 𝔤 is `v·u − u·v` in the forest algebra (RKMK's `dexp⁻¹`, the two-commutator method).
- The exact flow: `dα/dt = α·B⁺(α)`, i.e. `α(∅) = 1` and `α(ω₁·B⁺(ω')) = α(ω₁)α(ω')/|ω|`.

**Checks of the checker** (`crates/schemes/tests/lie_order_conditions.rs`): Lie–Euler has order
exactly 1; RK4 as one exponential of the classical sum (no `dexp⁻¹`) has order 2, with
`dexp⁻¹` through `ad¹` order 3, through `ad²` order 4 [MK99]; summed over the orderings of each
unordered tree the coefficients are Butcher's `Φ(t)/σ(t)` and `1/(σ(t)γ(t))` [HNW93 II.2] for
every tree to 6 nodes; all series are shuffle characters (`a(u)a(v) = Σ_{w ∈ u ⧢ v} a(w)`:
exponentials of Lie series), so only 1, 1, 3, 8, 25, 75 of the forest conditions of orders
1 … 6 are independent; CG3 with its exponentials in reverse order (same collapse) has order 2.
For every shipped commutator-free, Crouch–Grossman and two-commutator method a change of
`10⁻⁶` in **any single coefficient** (every exponential's weights and every stage coefficient,
the nodes reset to the new row sums so that only the order conditions can notice; the two
commutator coefficients of `rkmk4-2comm`) is caught at the method's order, and so is `10⁻⁶`
moved between CF4's two update exponentials, which the classical conditions cannot see.

**Results** (generated by running the checker; `worst residual` is `max |a(ω) − α(ω)|` over
the forests with at most `p` nodes; `p + 1` shows the largest residual of the next order,
where the method fails; RKMK rows use `dexp⁻¹` through `ad^{p−2}`, the engine's series, or
exact for the `Rkmk` kind, and its tableau's `p ≤ 5`):

";

/// The table of Lie group orders verified by the ordered-forest checker.
fn lie_order_table(s: &mut String) {
    use schemes::lie_order_conditions::{LieOrderChecker, LieOrderReport, MAX_LIE_ORDER};
    let checker = LieOrderChecker::new();
    let _ = writeln!(
        s,
        "| id | solution | order verified | worst residual | at p + 1 |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|");
    let mut row = |id: &str, which: &str, p: u32, r: LieOrderReport| {
        assert_eq!(r.order, p.min(MAX_LIE_ORDER), "{id} {which}");
        let worst = r.worst_residual[..p as usize]
            .iter()
            .fold(0.0_f64, |a, &b| a.max(b));
        let next = r
            .worst_residual
            .get(p as usize)
            .map_or("—".to_string(), |x| format!("{x:.1e} (fails)"));
        let _ = writeln!(s, "| `{id}` | {which} | {p} | {worst:.1e} | {next} |");
    };
    let up_to = |p: u32| (p + 1).min(MAX_LIE_ORDER);
    for m in METHODS {
        match m.kind {
            MethodKind::CommutatorFree(c) => {
                let r = checker.check_commutator_free(c, up_to(c.order)).unwrap();
                row(m.id, "main", c.order, r);
                if let Some(e) = c.embedded {
                    let r = checker
                        .check_commutator_free_embedded(c, up_to(e.order))
                        .unwrap();
                    row(m.id, "embedded", e.order, r);
                }
            }
            MethodKind::Rkmk4TwoCommutators => {
                let r = checker
                    .check_two_commutators(&schemes::RKMK4_TWO_COMMUTATORS, 5)
                    .unwrap();
                row(m.id, "main", 4, r);
            }
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t)
                if t.is_explicit() && t.order < MAX_LIE_ORDER =>
            {
                let q = match m.kind {
                    MethodKind::RkmkSeries(_) => t.order as usize - 2,
                    _ => MAX_LIE_ORDER as usize,
                };
                let r = checker.check_rkmk(t, t.b, q, up_to(t.order)).unwrap();
                row(m.id, "main", t.order, r);
                if let (Some(b_hat), Some(e)) = (t.b_hat(), m.embedded_order) {
                    let r = checker.check_rkmk(t, b_hat, q, up_to(e)).unwrap();
                    row(m.id, "embedded", e, r);
                }
            }
            _ => {}
        }
    }
}

fn generate() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Method catalogue\n\n<!-- Generated from schemes::methods::METHODS by tests/docs.rs; do not edit by hand. -->\n\n\
         Every method runs on every group and action. Identifiers are used by the experiments program\n\
         (`--method`) and by `schemes::methods::find`. Orders are checked by the order-condition\n\
         checker (classical conditions to order 9), the Lie group orders by the ordered-forest\n\
         checker (below, to 6 nodes), and measured on state-dependent problems with exact\n\
         solutions by the convergence tests.\n"
    );
    let _ = writeln!(s, "| id | order | embedded | reference | description |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for m in METHODS {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} |",
            m.id,
            m.order,
            m.embedded_order.map_or("—".to_string(), |e| e.to_string()),
            m.reference,
            m.description
        );
    }
    let _ = writeln!(s, "{}", VARIANTS_AND_SOURCES);
    let _ = write!(s, "{}", LIE_ORDER_THEORY);
    lie_order_table(&mut s);
    let _ = writeln!(s, "\n## Coefficients\n");
    for m in METHODS {
        let _ = writeln!(s, "### `{}`\n", m.id);
        match m.kind {
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t) | MethodKind::ImplicitRkmk(t) => {
                let n = t.c.len();
                let _ = writeln!(
                    s,
                    "Butcher tableau {} ({} stages, {}):\n",
                    t.name,
                    n,
                    if t.is_explicit() {
                        "explicit"
                    } else {
                        "implicit"
                    }
                );
                let _ = writeln!(s, "```text");
                for i in 0..n {
                    let row: Vec<String> = (0..n).map(|j| fmt_coef(t.a(i, j))).collect();
                    let _ = writeln!(s, "{:>20} | {}", fmt_coef(t.c[i]), row.join("  "));
                }
                let _ = writeln!(s, "{:>20}-+-", "");
                let b: Vec<String> = t.b.iter().map(|x| fmt_coef(*x)).collect();
                let _ = writeln!(s, "{:>20} | {}", "b", b.join("  "));
                if let Some(bh) = t.b_hat() {
                    let bh: Vec<String> = bh.iter().map(|x| fmt_coef(*x)).collect();
                    let _ = writeln!(s, "{:>20} | {}", "b̂", bh.join("  "));
                }
                let _ = writeln!(s, "```\n");
            }
            MethodKind::CommutatorFree(c) => {
                let _ = writeln!(s, "```text\n{c}\n```\n");
            }
            MethodKind::Rkmk4TwoCommutators => {
                let _ = writeln!(
                    s,
                    "```text\nk₁ = h f(t, y₀)\nk₂ = h f(t + h/2, exp(½k₁)·y₀)\nk₃ = h f(t + h/2, exp(½k₂ − ⅛[k₁, k₂])·y₀)\nk₄ = h f(t + h, exp(k₃)·y₀)\ny₁ = exp(⅙(k₁ + 2k₂ + 2k₃ + k₄ − ½[k₁, k₄]))·y₀\n```\n"
                );
            }
        }
    }
    s
}

#[test]
fn method_catalogue_matches_the_constants() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/methods.md");
    let expected = generate();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/methods.md is out of date; regenerate with `UPDATE_DOCS=1 cargo test --test docs`"
    );
}
