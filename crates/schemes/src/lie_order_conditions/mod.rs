//! Order conditions of Lie group methods on **ordered rooted forests** (Lie–Butcher series)
//! \[OM99\], \[O06\], \[MW08\]: the non-commutative order theory that the classical
//! conditions of [`crate::order_conditions`] (the abelian collapse) only shadow.
//!
//! # What is computed
//! Let a Lie algebra 𝔤 act on the left on a manifold `M`, and `y' = f(y)·y` with
//! `f: M → 𝔤`. Fix `y₀` and a step `h`. Every quantity of one step is expanded in the
//! *elementary differential operators* `F(ω)` at `y₀`, indexed by ordered forests `ω`
//! ([`OrderedForests`]): for a test function `ψ` on `M`,
//!
//! ```text
//!     ψ(y₁) = Σ_ω a(ω) h^{|ω|} F(ω)[ψ](y₀),       ψ(y(h)) = Σ_ω α(ω) h^{|ω|} F(ω)[ψ](y₀).
//! ```
//!
//! The operators are built from **frozen** vector fields (constant coefficients in a basis
//! `E_i` of the infinitesimal generators): `F(B⁺(ω)) = Σᵢ F(ω)[fᵢ](y₀) E_i` is the frozen field
//! whose coefficients are the derivatives `F(ω)` of the components `fᵢ` of `f`, and the
//! concatenation `ω₁ω₂` is the composition `F(ω₁)∘F(ω₂)` of frozen operators \[MW08\]. The
//! method has order `p` for every `f` when `a(ω) = α(ω)` for all `|ω| ≤ p` (both series are
//! exponentials of Lie series, so this is also necessary in the free setting) \[O06\], \[MW08\].
//! [`LieOrderChecker`] computes `a` and `α` in the algebra of ordered forests truncated at
//! [`MAX_LIE_ORDER`] nodes, with `f64` coefficients, and compares them forest by forest.
//!
//! # Conventions (derived for this crate)
//! 1. **Products of exponentials.** For frozen fields `A`, `B`, a Taylor expansion of the flow
//!    of `A` gives `ψ(exp(A)·z) = (exp(A)[ψ])(z)`, so
//!    `ψ(exp(A)·exp(B)·y₀) = (exp(B)·exp(A))[ψ](y₀)`: the exponential applied **first** (the
//!    rightmost, `B`) stands on the **left** in the concatenation algebra. A point reached from
//!    a base point `Y_m` with series `φ_m` by `exp(F₁)` then `exp(F₂)` has the series
//!    `φ_m·exp(F₁)·exp(F₂)`.
//! 2. **Stage derivatives.** `k_j = h f(Y_j)` is the frozen field `Σᵢ fᵢ(Y_j) E_i`, and
//!    `fᵢ(Y_j) = φ_j[fᵢ](y₀)`, so `k_j = B⁺(φ_j)` (the factor `h` raises the degree by one,
//!    like the extra node).
//! 3. **Brackets.** For a left action the generators satisfy
//!    `E_ξ∘E_η − E_η∘E_ξ = −E_{[ξ,η]}` (for matrices: `E_ξψ(y) = ψ'(y)ξy`), so the bracket
//!    `[u, v]` of 𝔤 (the one of `liegroup`, the matrix commutator) is `v·u − u·v` in the
//!    concatenation algebra. RKMK's `dexp_u⁻¹ v = Σ (B_m/m!) ad_uᵐ v` \[MK99\] uses it.
//! 4. **Exact flow.** Freezing `f` at `y(t)` for an instant gives `y(t + dt) = exp(dt f(y(t)))
//!    ·y(t)`, so by 1 and 2 the series `α(t)` of `y(t)` solves `dα/dt = α·B⁺(α)`, `α(0) = ∅`.
//!    Coefficient by coefficient: `α(∅) = 1`, `α(ω₁·B⁺(ω')) = α(ω₁)α(ω')/|ω|` (at `t = 1`).
//!    For example `α(τ) = 1`, `α(ττ) = α([τ]) = ½`, `α([ττ]) = ⅙`, `α(τ[τ]) = ⅙`, `α([τ]τ) = ⅓`.
//!
//! These conventions are checked, not assumed, by the tests: Lie–Euler has order exactly 1,
//! RKMK4 with `dexp⁻¹` through `ad²` has order 4 while RK4 with `dexp⁻¹ = id` (one exponential
//! of the classical sum) has order 2 only, and on the abelian quotient (forgetting the order of
//! the trees, summing over orderings) the coefficients reduce to Butcher's
//! `Φ(t)/σ(t)` and `1/(γ(t)σ(t))` \[HNW93 II.2\]. The forms of the methods:
//!
//! - **Commutator-free / Crouch–Grossman** ([`CommutatorFreeScheme`], layout in
//!   [`crate::commutator_free`]): stage `Yᵢ = exp(F_J)···exp(F₁)·base` ↦ `φ_base·exp(F₁)···
//!   exp(F_J)` with `F_l = Σ_j α_{l,j} k_j`, `kᵢ = B⁺(φᵢ)`; the update likewise \[OM99\], \[O06\].
//! - **RKMK** \[MK99\]: `uᵢ = Σ_j a_ij k̃_j`, `kᵢ = B⁺(exp(uᵢ))`, `k̃ᵢ = dexp_{uᵢ}⁻¹ kᵢ`
//!   truncated after `ad^q`, `y₁ ↦ exp(Σ bᵢ k̃ᵢ)`.
//! - **RKMK4 with two commutators** ([`TwoCommutatorCoefficients`]) \[MKO99\]: as written
//!   there, with the brackets mapped by 3.
//!
//! # Tolerance
//! A condition holds when `|a(ω) − α(ω)| ≤ ulps · ε · max(a_abs(ω), α(ω))`, `ε = f64::EPSILON`,
//! `ulps = 256` by default ([`LieOrderChecker::DEFAULT_TOLERANCE_ULPS`], as for the classical
//! checker), where `a_abs` is the same computation with every coefficient replaced by its
//! absolute value and every difference by a sum (a bound on the sum of the magnitudes of all
//! terms, the scale of the rounding error). A change of `10⁻⁶` in any single coefficient is
//! seen at once (tested for every coefficient of every shipped scheme).
//!
//! # Nodes
//! The series is that of an autonomous field. For `f(t, y)` the nodes must match the stages,
//! `cᵢ =` the sum of all coefficients producing `Yᵢ` (the time component of the method applied
//! to the autonomous system on `G × ℝ`); [`LieOrderReport::node_residual`] reports the largest
//! mismatch.
//!
//! # Example
//! ```
//! use schemes::catalogue::{CF4, CG3};
//! use schemes::lie_order_conditions::LieOrderChecker;
//!
//! let checker = LieOrderChecker::new();
//! let report = checker.check_commutator_free(&CF4, 5).unwrap();
//! assert_eq!(report.order, 4);
//! assert!(report.worst_residual[3] < 1e-15);
//! // CG3 passes its (non-commutative) order 3 but not 4.
//! assert_eq!(checker.check_commutator_free(&CG3, 4).unwrap().order, 3);
//! ```

mod forests;
mod series;

pub use forests::{MAX_LIE_ORDER, OrderedForests};

use crate::commutator_free::CommutatorFreeScheme;
use crate::error::SchemeError;
use crate::rkmk4_2c::TwoCommutatorCoefficients;
use crate::tableau::StageMatrix;
use core::fmt;
use forests::Algebra;

/// One Lie group order condition `a(ω) = α(ω)` that does not hold.
#[derive(Debug, Clone, PartialEq)]
pub struct LieViolation {
    /// The ordered forest, in the notation of [`OrderedForests`].
    pub forest: String,
    /// The number of nodes `|ω|`.
    pub order: u32,
    /// The method's coefficient `a(ω)`.
    pub method: f64,
    /// The exact flow's coefficient `α(ω)`.
    pub exact: f64,
    /// `|a(ω) − α(ω)|`.
    pub residual: f64,
    /// The tolerance it was compared with (see the [module docs](self)).
    pub tolerance: f64,
}

/// The result of a Lie group order check.
#[derive(Debug, Clone, PartialEq)]
pub struct LieOrderReport {
    /// The largest `p ≤ checked_up_to` such that every condition with `|ω| ≤ p` holds.
    pub order: u32,
    /// The largest number of nodes checked.
    pub checked_up_to: u32,
    /// `worst_residual[n − 1] = max_{|ω| = n} |a(ω) − α(ω)|` for `n = 1 … checked_up_to`.
    pub worst_residual: Vec<f64>,
    /// Every violated condition, by number of nodes.
    pub violations: Vec<LieViolation>,
    /// `maxᵢ |cᵢ − Σ (coefficients producing Yᵢ)|`: zero up to rounding when the nodes are
    /// consistent (needed for non-autonomous fields, see the [module docs](self)).
    pub node_residual: f64,
}

impl LieOrderReport {
    /// Whether every condition with at most `p` nodes holds (`p ≤ checked_up_to`).
    #[must_use]
    pub fn has_order(&self, p: u32) -> bool {
        p <= self.checked_up_to && self.order >= p
    }

    /// The violated conditions with `p` nodes.
    pub fn violations_of_order(&self, p: u32) -> impl Iterator<Item = &LieViolation> {
        self.violations.iter().filter(move |v| v.order == p)
    }
}

impl fmt::Display for LieOrderReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Lie group order {} (checked up to {}), node residual {:.1e}",
            self.order, self.checked_up_to, self.node_residual
        )?;
        for (n, r) in self.worst_residual.iter().enumerate() {
            writeln!(f, "  order {}: worst residual {r:.1e}", n + 1)?;
        }
        for v in &self.violations {
            writeln!(
                f,
                "  violated {}: method {:.17} exact {:.17} (residual {:.1e} > {:.1e})",
                v.forest, v.method, v.exact, v.residual, v.tolerance
            )?;
        }
        Ok(())
    }
}

/// Computes the Lie–Butcher series of one step of a method and of the exact flow and compares
/// them on every ordered forest (see the [module docs](self) for the theory and conventions).
#[derive(Debug, Clone, PartialEq)]
pub struct LieOrderChecker {
    forests: OrderedForests,
    ulps: f64,
}

impl Default for LieOrderChecker {
    fn default() -> Self {
        Self::new()
    }
}

/// A series and its magnitude bound.
struct Computed {
    values: Vec<f64>,
    magnitudes: Vec<f64>,
}

impl LieOrderChecker {
    /// The default tolerance, in units of `ε · scale` (see the [module docs](self)).
    pub const DEFAULT_TOLERANCE_ULPS: f64 = 256.0;

    /// A checker for up to [`MAX_LIE_ORDER`] nodes with the default tolerance.
    #[must_use]
    pub fn new() -> Self {
        Self::with_tolerance_ulps(Self::DEFAULT_TOLERANCE_ULPS)
    }

    /// A checker with the tolerance `ulps · ε · scale` (a non-finite or negative `ulps` is
    /// replaced by the default).
    #[must_use]
    pub fn with_tolerance_ulps(ulps: f64) -> Self {
        let forests = match OrderedForests::up_to(MAX_LIE_ORDER) {
            Ok(f) => f,
            Err(_) => unreachable!("MAX_LIE_ORDER is supported"),
        };
        let ulps = if ulps.is_finite() && ulps >= 0.0 {
            ulps
        } else {
            Self::DEFAULT_TOLERANCE_ULPS
        };
        Self { forests, ulps }
    }

    /// The ordered forests the series are indexed by.
    #[must_use]
    pub fn forests(&self) -> &OrderedForests {
        &self.forests
    }

    fn algebra(&self, degree: u32, magnitude: bool) -> Algebra<'_> {
        Algebra {
            forests: &self.forests,
            degree,
            magnitude,
        }
    }

    fn check_degree(up_to: u32) -> Result<(), SchemeError> {
        if up_to > MAX_LIE_ORDER {
            return Err(SchemeError::OrderTooHigh {
                requested: up_to,
                max: MAX_LIE_ORDER,
            });
        }
        Ok(())
    }

    /// The coefficients `α(ω)` of the exact flow at `t = 1` for `|ω| ≤ up_to`, indexed like
    /// [`Self::forests`] (zero beyond `up_to`).
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`] if `up_to > MAX_LIE_ORDER`.
    pub fn exact_series(&self, up_to: u32) -> Result<Vec<f64>, SchemeError> {
        Self::check_degree(up_to)?;
        Ok(series::exact(&self.forests, up_to))
    }

    /// The coefficients `a(ω)` of one step (`h = 1`) of `scheme` (its main update, or the
    /// embedded one when `embedded` is set), indexed like [`Self::forests`].
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`] if `up_to > MAX_LIE_ORDER`; the structural errors of
    /// [`CommutatorFreeScheme::validate_structure`]; [`SchemeError::Unsupported`] if
    /// `embedded` is asked of a scheme without one.
    pub fn commutator_free_series(
        &self,
        scheme: &CommutatorFreeScheme,
        embedded: bool,
        up_to: u32,
    ) -> Result<Vec<f64>, SchemeError> {
        Ok(self.cf(scheme, embedded, up_to)?.values)
    }

    fn cf(
        &self,
        scheme: &CommutatorFreeScheme,
        embedded: bool,
        up_to: u32,
    ) -> Result<Computed, SchemeError> {
        Self::check_degree(up_to)?;
        scheme.validate_structure()?;
        let update = if embedded {
            match scheme.embedded {
                Some(e) => e.update,
                None => {
                    return Err(SchemeError::Unsupported {
                        method: scheme.name.into(),
                        reason: "no embedded update to check".into(),
                    });
                }
            }
        } else {
            scheme.update
        };
        let run = |magnitude| {
            let s = series::CfSeries::new(self.algebra(up_to, magnitude), scheme);
            s.product(&update)
        };
        Ok(Computed {
            values: run(false),
            magnitudes: run(true),
        })
    }

    /// Checks the main update of a commutator-free or Crouch–Grossman scheme on every ordered
    /// forest with at most `up_to` nodes.
    ///
    /// # Errors
    /// As [`Self::commutator_free_series`].
    pub fn check_commutator_free(
        &self,
        scheme: &CommutatorFreeScheme,
        up_to: u32,
    ) -> Result<LieOrderReport, SchemeError> {
        let computed = self.cf(scheme, false, up_to)?;
        Ok(self.compare(&computed, up_to, cf_node_residual(scheme)))
    }

    /// Checks the embedded update `ŷ₁` of a pair (see [`Self::check_commutator_free`]).
    ///
    /// # Errors
    /// As [`Self::commutator_free_series`]; [`SchemeError::Unsupported`] without an embedded
    /// update.
    pub fn check_commutator_free_embedded(
        &self,
        scheme: &CommutatorFreeScheme,
        up_to: u32,
    ) -> Result<LieOrderReport, SchemeError> {
        let computed = self.cf(scheme, true, up_to)?;
        Ok(self.compare(&computed, up_to, cf_node_residual(scheme)))
    }

    /// Checks the RKMK method with the explicit stage matrix `a` and weights `b`, `dexp⁻¹`
    /// truncated after `ad^q` (`q = 0`: one exponential of the classical sum, no correction;
    /// the engine's series for a tableau of order `p` is `q = p − 2` \[MK99, Thm. 4.1\]).
    /// Nodes are not part of a [`StageMatrix`]: the report's node residual is zero.
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`]; [`SchemeError::DimensionMismatch`] if `b` does not have
    /// one weight per stage; [`SchemeError::NotExplicit`]; [`SchemeError::NonFiniteCoefficient`].
    pub fn check_rkmk<M: StageMatrix + ?Sized>(
        &self,
        a: &M,
        b: &[f64],
        q: usize,
        up_to: u32,
    ) -> Result<LieOrderReport, SchemeError> {
        Self::check_degree(up_to)?;
        let computed = Computed {
            values: series::rkmk(&self.algebra(up_to, false), a, b, q)?,
            magnitudes: series::rkmk(&self.algebra(up_to, true), a, b, q)?,
        };
        Ok(self.compare(&computed, up_to, 0.0))
    }

    /// Checks an RKMK4-type method with two commutators (the data of
    /// [`crate::Rkmk4TwoCommutators`], [`crate::RKMK4_TWO_COMMUTATORS`]).
    ///
    /// # Errors
    /// [`SchemeError::OrderTooHigh`]; [`SchemeError::NonFiniteCoefficient`].
    pub fn check_two_commutators(
        &self,
        m: &TwoCommutatorCoefficients,
        up_to: u32,
    ) -> Result<LieOrderReport, SchemeError> {
        Self::check_degree(up_to)?;
        let all = [m.a21, m.a32, m.a32_bracket, m.a43, m.b_bracket];
        if !all.iter().chain(&m.b).chain(&m.c).all(|v| v.is_finite()) {
            return Err(SchemeError::NonFiniteCoefficient {
                method: "RKMK4 (two commutators)",
                what: "coefficients",
            });
        }
        let computed = Computed {
            values: series::two_commutators(&self.algebra(up_to, false), m),
            magnitudes: series::two_commutators(&self.algebra(up_to, true), m),
        };
        let node_residual = [0.0, m.a21, m.a32, m.a43]
            .iter()
            .zip(&m.c)
            .map(|(sum, c)| (sum - c).abs())
            .fold(0.0, f64::max);
        Ok(self.compare(&computed, up_to, node_residual))
    }

    /// Compares a method's series with the exact flow's on every forest with `1 … up_to`
    /// nodes.
    fn compare(&self, computed: &Computed, up_to: u32, node_residual: f64) -> LieOrderReport {
        let exact = series::exact(&self.forests, up_to);
        let mut worst_residual = Vec::with_capacity(up_to as usize);
        let mut violations = Vec::new();
        let mut order = up_to;
        for n in 1..=up_to {
            let mut worst = 0.0_f64;
            for w in self.forests.of_order(n) {
                let (a, e) = (computed.values[w], exact[w]);
                let residual = (a - e).abs();
                let tolerance = self.ulps * f64::EPSILON * computed.magnitudes[w].max(e.abs());
                if !worst.is_nan() && (residual.is_nan() || residual > worst) {
                    worst = residual;
                }
                if residual.is_nan() || residual > tolerance {
                    violations.push(LieViolation {
                        forest: self.forests.notation(w).to_string(),
                        order: n,
                        method: a,
                        exact: e,
                        residual,
                        tolerance,
                    });
                }
            }
            if order == up_to && violations.iter().any(|v| v.order == n) {
                order = n - 1;
            }
            worst_residual.push(worst);
        }
        LieOrderReport {
            order,
            checked_up_to: up_to,
            worst_residual,
            violations,
            node_residual,
        }
    }
}

/// `maxᵢ |cᵢ − Σ_j a_ij|` over the abelian collapse of the stages.
fn cf_node_residual(scheme: &CommutatorFreeScheme) -> f64 {
    let t = scheme.abelian_tableau();
    t.a.iter()
        .zip(&t.c)
        .map(|(row, c)| (row.iter().sum::<f64>() - c).abs())
        .fold(0.0, f64::max)
}
