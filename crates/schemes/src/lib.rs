//! # schemes
//!
//! Lie group integrators. A method is **data** — a table of `f64` coefficients in a `const` —
//! and a handful of engines step with any table on any group and any action:
//!
//! - [`Rkmk`]: Runge–Kutta–Munthe-Kaas with any explicit Butcher tableau and coordinate map
//!   (exp with exact or truncated `dexp⁻¹`, or Cayley) \[MK99\]; [`ImplicitRkmk`] for implicit
//!   tableaux (Gauss–Legendre) by fixed-point iteration or simplified Newton;
//!   [`Rkmk4TwoCommutators`] \[MKO99\].
//! - [`CommutatorFree`]: commutator-free and Crouch–Grossman methods \[CMO03, CG93, OM99\].
//! - [`integrate`]: fixed or adaptive steps (embedded pairs, elementary or PI control,
//!   automatic initial step), observers, dense output, typed errors with partial results.
//! - [`measure_order`] / [`fit_order`]: observed orders of convergence.
//! - [`methods`]: every shipped method under a stable kebab-case identifier.
//! - [`symplectic`]: symplectic and variational integrators on the right-trivialized `T*G`
//!   (the θ-family on any group, the LGVI and the DLM splitting for rigid bodies).
//! - [`variational`]: the Lee–Leok–McClamroch variational integrator on (S²)ⁿ \[LLM09\] for
//!   any [`SphereLagrangian`](variational::SphereLagrangian), implicit or explicit.
//! - [`composition`]: symmetric compositions (Yoshida, Suzuki, Kahan–Li, McLachlan) of any
//!   symmetric one-step method, raising its order to 4, 6 or 8.
//!
//! The data side:
//!
//! - [`ButcherTableau`]: explicit and implicit Runge–Kutta tableaux with optional embedded
//!   weights and an optional continuous extension (dense output). Used by RKMK engines
//!   \[MK99\], where the Euler tableau gives the Lie–Euler method.
//! - [`CommutatorFreeScheme`]: stages and updates that are products of exponentials of linear
//!   combinations of the stage derivatives `k_j = h f(Y_j)`, with exponential reuse
//!   \[CMO03, CO03\]; Crouch–Grossman methods \[CG93, OM99\] are the special case with one `k_j`
//!   per exponential. See the module [`commutator_free`] for the data layout, written out for
//!   CF4.
//! - [`catalogue`]: every method as a `pub const` with name, order and reference key, plus the
//!   lists [`catalogue::TABLEAUX`] and [`catalogue::COMMUTATOR_FREE`] for iteration.
//! - [`order_conditions`]: rooted trees up to order 9, densities γ(t), elementary weights
//!   Φ(t) of any (possibly implicit) tableau, and [`OrderChecker`], which reports the largest
//!   order whose conditions Φ(t) = 1/γ(t) hold and lists the violated ones.
//! - [`lie_order_conditions`]: the Lie group order conditions on ordered rooted forests
//!   (Lie–Butcher series) \[OM99, O06, MW08\], and [`LieOrderChecker`], which verifies
//!   commutator-free, Crouch–Grossman, RKMK and two-commutator methods beyond their abelian
//!   collapse.
//!
//! All data are `&'static` slices of `f64`: an engine can consume them without allocating.
//!
//! ```
//! use schemes::catalogue::{CF4, DOPRI54, RK4};
//! use schemes::OrderChecker;
//!
//! let checker = OrderChecker::new();
//! assert_eq!(checker.check(&RK4, RK4.b, 5).order, 4);
//! assert_eq!(DOPRI54.verify_order().order, 5);
//! // On an abelian algebra CF4 collapses to the classical RK4 tableau.
//! let collapsed = CF4.abelian_tableau();
//! assert_eq!(checker.check(&collapsed, &collapsed.b, 4).order, 4);
//! ```
//!
//! ## Conventions
//! Left actions; in a product of exponentials the **rightmost factor acts first**
//! (`docs/notation.md`). Stage derivatives are `k_j = h f(Y_j)` with `f` taking values in the
//! Lie algebra. Indices in Rust data are 0-based; formulas in the docs use the papers'
//! 1-based numbering (`k₁` is `k[0]`).
//!
//! ## Threads
//! With the `rayon` feature (which turns on those of `liegroup` and `homogeneous`), the `O(N)`
//! work of a step on a long runtime power runs on rayon's current thread pool: the engines'
//! loops over the factors of `Vec` groups, algebras and points (stage combinations, `dexp⁻¹`,
//! exponentials applied to points, finiteness checks, through `liegroup::par`) and the passes
//! over the bodies of [`SphereVariational`](variational::SphereVariational)'s explicit step
//! (validation, (3.17) and (3.18), copies), from `liegroup::par::PAR_THRESHOLD` factors or
//! bodies on. Shorter problems stay serial. Results and error reports are bitwise the same for
//! any number of threads.
//!
//! ## References
//! Keys (full entries in `docs/references.md`): \[MK99\] Munthe-Kaas, Appl. Numer. Math. 29 (1999) · \[CG93\] Crouch
//! & Grossman, J. Nonlinear Sci. 3 (1993) · \[OM99\] Owren & Marthinsen, BIT 39 (1999) ·
//! \[JMO00\] Jackiewicz, Marthinsen & Owren, Adv. Comput. Math. 13 (2000) · \[CMO03\] Celledoni,
//! Marthinsen & Owren, FGCS 19 (2003) · \[CO03\] Celledoni & Owren, CMAME 192 (2003) ·
//! \[CO19\] Curry & Owren, Numer. Algorithms 82 (2019) · \[CCLMO22\] Celledoni, Çokaj, Leone,
//! Murari & Owren, Int. J. Comput. Math. 99 (2022) · \[HNW93\] Hairer, Nørsett & Wanner,
//! Solving ODEs I (2nd ed.) · \[HLW06\] Hairer, Lubich & Wanner, Geometric Numerical
//! Integration · \[DP80\] Dormand & Prince, J. Comput. Appl. Math. 6 (1980) · \[MKO99\]
//! Munthe-Kaas & Owren, Phil. Trans. A 357 (1999) · \[O06\] Owren, J. Phys. A 39 (2006) ·
//! \[MW08\] Munthe-Kaas & Wright, Found. Comput. Math. 8 (2008).
//!
//! Keys added by this crate (classical methods):
//! \[Eul68\] Euler, Institutionum calculi integralis (1768) · \[Run95\] Runge, Math. Ann. 46 (1895)
//! · \[Heu00\] Heun, Z. Math. Phys. 45 (1900) · \[Kut01\] Kutta, Z. Math. Phys. 46 (1901) ·
//! \[Ral62\] Ralston, Math. Comp. 16 (1962) · \[BS89\] Bogacki & Shampine, Appl. Math. Lett. 2
//! (1989) · \[But64a\] Butcher, J. Austral. Math. Soc. 4 (1964) 179–194 (explicit methods of
//! order 6) · \[But64b\] Butcher, Math. Comp. 18 (1964) 50–64 (implicit Gauss methods) ·
//! \[Sha86\] Shampine, Math. Comp. 46 (1986) (the dense output of Dormand–Prince 5(4)) ·
//! \[But16\] Butcher, Numerical Methods for Ordinary Differential Equations, 3rd ed. (2016).

#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod catalogue;
mod cf;
mod coeffs;
pub mod commutator_free;
pub mod composition;
mod control;
mod convergence;
mod driver;
mod error;
mod implicit;
pub mod lie_order_conditions;
pub mod methods;
pub mod nonholonomic;
pub mod order_conditions;
mod point_map;
mod rkmk;
mod rkmk4_2c;
pub mod special;
mod stepper;
pub mod symplectic;
mod tableau;
pub mod variational;

pub use cf::CommutatorFree;
pub use commutator_free::{Base, CfEmbedded, CfStage, CommutatorFreeScheme, ExpProduct};
pub use composition::Composition;
pub use control::{Controller, ControllerState, StepControl};
pub use convergence::{
    ConvergenceRow, GridSearch, OrderFit, SkippedPoint, ToleranceRow, dense_grid, fit_order,
    format_table, measure_order, measure_tolerance_order, search_grid,
};
pub use driver::{
    IntegrationFailure, IntegrationResult, Options, Save, Solution, Stats, StepSize, integrate,
    integrate_with_observer,
};
pub use error::SchemeError;
pub use implicit::{ImplicitOptions, ImplicitRkmk, StageSolver};
pub use lie_order_conditions::{
    LieOrderChecker, LieOrderReport, LieViolation, MAX_LIE_ORDER, OrderedForests,
};
pub use methods::{AnyStepper, MethodSpec};
pub use order_conditions::{
    MAX_TREE_ORDER, OrderChecker, OrderReport, RootedTree, RootedTrees, Violation,
};
pub use point_map::{AmbientDistance, GroupLogDistance, PointDistance, PointMap};
pub use rkmk::{LOCAL_STAGES, Rkmk};
pub use rkmk4_2c::{RKMK4_TWO_COMMUTATORS, Rkmk4TwoCommutators, TwoCommutatorCoefficients};
pub use stepper::{Algebra, Problem, Scalar, StepOutput, StepStats, Stepper, Tolerance};
pub use tableau::{
    ButcherTableau, ContinuousExtension, EmbeddedWeights, OwnedTableau, StageMatrix,
};

// The crate README's example, compiled and run as a doctest (`cargo test -p schemes --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
