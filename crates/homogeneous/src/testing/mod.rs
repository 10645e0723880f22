//! The action kit: checks that an [`Action`] is a left action whose generator is its
//! derivative, with `f64` and with `num_dual::Dual64` (feature `testing`).
//!
//! # Laws
//!
//! For every sample `(p, g, h, ξ)` ([`Sample`]):
//!
//! | [`Law`] | statement | error measured |
//! |---|---|---|
//! | `ValidSample` | `p` is on the manifold | `constraint_error(p)` |
//! | `Identity` | `e · p = p` | `dist(p, e·p)` |
//! | `Compatibility` | `g · (h · p) = (g h) · p` | `dist((gh)·p, g·(h·p))` |
//! | `ActExp` | `act_exp(ξ, p) = exp(ξ) · p`, and `act_exp_assign` agrees | `dist(exp(ξ)·p, act_exp(ξ, p))`, `dist(act_exp(ξ, p), p after act_exp_assign(ξ, p))` |
//! | `OnManifold` | outputs stay on the manifold | `constraint_error` of `g·p`, `g·(h·p)`, `act_exp(ξ, p)` |
//! | `Finite` | outputs are finite | `point_is_finite` |
//! | `GeneratorFiniteDifference` | `ξ_M(p) = d/dt exp(tξ)·p \|₀` | central difference, step `10⁻⁵/max(1, ‖ξ‖∞)` |
//! | `GeneratorDual` | the same, exactly | ε part of `act_exp(εξ, p)` over `Dual64` |
//! | `Transitivity` | `transporter(a, b) · a = b` | `dist(b, g·a)` |
//!
//! Distances and derivatives are taken in the chart of [`Observable`]: ambient coordinates for
//! embedded manifolds, `log(p·base⁻¹)` for a group acting on itself. Every error is relative:
//! divided by `max(1, size of the points involved)` (and by `max(1, ‖ξ‖∞)` for generators).
//! Tolerances ([`Tolerances`]) are multiples of `f64::EPSILON` except the finite-difference one.
//!
//! Each check returns `Ok(Report)` with the largest error per law, or `Err(Failure)` naming the
//! law, the scalar type, the sample index, the error and the tolerance; an empty sample set is
//! refused ([`Failure::EmptySampleSet`]).
//!
//! - [`check_action`]: all laws but `GeneratorDual` and `Transitivity`, for any [`KitScalar`]
//!   (run it on a lifted action with [`lift_samples`] to check the laws on dual numbers).
//! - [`check_generator_dual`]: `GeneratorDual` for an `f64` action that lifts to `Dual64`.
//! - [`check_all`]: the three above.
//! - [`check_transitive`]: `Transitivity` for a [`TransitiveAction`].
//!
//! # Example
//! ```
//! use homogeneous::RotationAction;
//! use homogeneous::testing::{Tolerances, check_all, random_sphere2, random_vector, samples_from};
//! let samples = samples_from::<RotationAction, _, _>(
//!     20,
//!     7,
//!     |rng| random_sphere2(rng),
//!     |rng| random_vector(rng, 2.0),
//! );
//! let report = check_all(&RotationAction::new(), &samples, &Tolerances::default()).unwrap();
//! println!("{report}");
//! ```

mod dual;
mod observe;
mod random;

pub use dual::{LiftDual, eps_algebra, lift_samples};
pub use observe::{KitScalar, Observable, Scalar, ambient_chart};
pub use random::{
    KitRng, kit_rng, random_se3, random_so3, random_sphere2, random_tangent_sphere2,
    random_unit_vector, random_vector,
};

use crate::action::Action;
use crate::error::HomogeneousError;
use crate::transport::TransitiveAction;
use core::fmt;
use liegroup::{LieGroup, VectorSpace};
use num_dual::Dual64;
use num_traits::Zero;

/// The algebra of an action's group.
pub type Algebra<A> = <<A as Action>::Group as LieGroup>::Algebra;

/// One sample for the kit: a point `p`, two group elements `g`, `h` and an algebra element `ξ`.
pub struct Sample<A: Action> {
    /// The point.
    pub p: A::Point,
    /// The first group element.
    pub g: A::Group,
    /// The second group element.
    pub h: A::Group,
    /// The algebra element.
    pub xi: Algebra<A>,
}

impl<A: Action> Sample<A> {
    /// A sample.
    #[must_use]
    pub const fn new(p: A::Point, g: A::Group, h: A::Group, xi: Algebra<A>) -> Self {
        Self { p, g, h, xi }
    }
}

impl<A: Action> Clone for Sample<A> {
    fn clone(&self) -> Self {
        Self {
            p: self.p.clone(),
            g: self.g.clone(),
            h: self.h.clone(),
            xi: self.xi.clone(),
        }
    }
}

impl<A: Action> fmt::Debug for Sample<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sample")
            .field("p", &self.p)
            .field("g", &self.g)
            .field("h", &self.h)
            .field("xi", &self.xi)
            .finish()
    }
}

/// `n` seeded samples: `p = point(rng)`, `g = exp(algebra(rng))`, `h = exp(algebra(rng))`,
/// `ξ = algebra(rng)`.
pub fn samples_from<A, P, X>(n: usize, seed: u64, mut point: P, mut algebra: X) -> Vec<Sample<A>>
where
    A: Action,
    P: FnMut(&mut KitRng) -> A::Point,
    X: FnMut(&mut KitRng) -> Algebra<A>,
{
    let mut rng = kit_rng(seed);
    (0..n)
        .map(|_| {
            let p = point(&mut rng);
            let g = A::Group::exp(&algebra(&mut rng));
            let h = A::Group::exp(&algebra(&mut rng));
            let xi = algebra(&mut rng);
            Sample { p, g, h, xi }
        })
        .collect()
}

/// The tolerances of the kit, relative errors (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// `Identity`, `Compatibility`, `ActExp`, `Transitivity` (default `256 ε ≈ 5.7e-14`).
    pub laws: f64,
    /// `ValidSample` and `OnManifold` (default `256 ε`).
    pub constraint: f64,
    /// `GeneratorFiniteDifference` (default `1e-7`; the central difference with step
    /// `10⁻⁵/max(1, ‖ξ‖∞)` is accurate to ~1e-10 relative).
    pub finite_difference: f64,
    /// `GeneratorDual` (default `256 ε`).
    pub dual: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Self {
            laws: 256.0 * f64::EPSILON,
            constraint: 256.0 * f64::EPSILON,
            finite_difference: 1e-7,
            dual: 256.0 * f64::EPSILON,
        }
    }
}

/// A law checked by the kit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Law {
    /// The sample point satisfies its constraints.
    ValidSample,
    /// `act(e, p) = p`.
    Identity,
    /// `act(g, act(h, p)) = act(gh, p)`.
    Compatibility,
    /// `act_exp(ξ, p) = act(exp ξ, p)`.
    ActExp,
    /// Outputs stay on the manifold.
    OnManifold,
    /// Outputs are finite.
    Finite,
    /// The generator equals a central difference of `t ↦ exp(tξ)·p`.
    GeneratorFiniteDifference,
    /// The generator equals the ε part of `act_exp(εξ, p)` over `Dual64`.
    GeneratorDual,
    /// `act(transporter(a, b), a) = b`.
    Transitivity,
}

impl fmt::Display for Law {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::ValidSample => "sample point on the manifold",
            Self::Identity => "act(e, p) = p",
            Self::Compatibility => "act(g, act(h, p)) = act(gh, p)",
            Self::ActExp => "act_exp(ξ, p) = act(exp ξ, p)",
            Self::OnManifold => "outputs stay on the manifold",
            Self::Finite => "outputs are finite",
            Self::GeneratorFiniteDifference => {
                "generator = d/dt act(exp(tξ), p) (central difference)"
            }
            Self::GeneratorDual => "generator = d/dt act(exp(tξ), p) (Dual64)",
            Self::Transitivity => "act(transporter(a, b), a) = b",
        })
    }
}

/// The largest error found for one law.
#[derive(Clone, Debug, PartialEq)]
pub struct LawResult {
    /// The law.
    pub law: Law,
    /// The scalar type it was checked with (`"f64"` or `"Dual64"`).
    pub scalar: &'static str,
    /// The largest relative error over the samples.
    pub max_error: f64,
    /// The tolerance.
    pub tolerance: f64,
}

/// The outcome of a passed check: the largest error per law.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// The number of samples (or pairs) checked.
    pub samples: usize,
    /// One entry per law and scalar type.
    pub laws: Vec<LawResult>,
}

impl Report {
    /// The largest error of `law` over all scalar types, if it was checked.
    #[must_use]
    pub fn max_error(&self, law: Law) -> Option<f64> {
        self.laws
            .iter()
            .filter(|r| r.law == law)
            .map(|r| r.max_error)
            .reduce(f64::max)
    }

    /// Append the results of another report.
    pub fn merge(&mut self, other: Self) {
        self.samples = self.samples.max(other.samples);
        self.laws.extend(other.laws);
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} samples", self.samples)?;
        for r in &self.laws {
            writeln!(
                f,
                "  [{:>6}] {:<55} max error {:.2e} (tolerance {:.2e})",
                r.scalar,
                r.law.to_string(),
                r.max_error,
                r.tolerance
            )?;
        }
        Ok(())
    }
}

/// Why a check failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Failure {
    /// No samples were given.
    #[error("the action kit needs at least one sample; the sample set is empty")]
    EmptySampleSet,
    /// A law does not hold (a NaN error counts as a violation).
    #[error(
        "law `{law}` violated ({scalar}) at sample {sample}: error {error:e} exceeds the tolerance {tolerance:e}"
    )]
    LawViolated {
        /// The law.
        law: Law,
        /// The scalar type (`"f64"` or `"Dual64"`).
        scalar: &'static str,
        /// The index of the sample.
        sample: usize,
        /// The relative error found.
        error: f64,
        /// The tolerance.
        tolerance: f64,
    },
    /// The chart of [`Observable`] and the generator's tangent have different sizes (the
    /// [`Observable`] implementation does not fit the action).
    #[error("the chart has {chart} coordinates but the generator's tangent has {tangent}")]
    ChartMismatch {
        /// Coordinates in the chart.
        chart: usize,
        /// Coordinates of the tangent.
        tangent: usize,
    },
    /// [`TransitiveAction::transporter`] returned an error.
    #[error("transporter failed at pair {sample}: {error}")]
    Transporter {
        /// The index of the pair.
        sample: usize,
        /// The error returned.
        error: HomogeneousError,
    },
}

/// Accumulates the largest error per law and fails fast.
struct Tally {
    scalar: &'static str,
    results: Vec<LawResult>,
}

impl Tally {
    fn new(scalar: &'static str) -> Self {
        Self {
            scalar,
            results: Vec::new(),
        }
    }

    fn record(
        &mut self,
        law: Law,
        sample: usize,
        error: f64,
        tolerance: f64,
    ) -> Result<(), Failure> {
        if error.is_nan() || error > tolerance {
            return Err(Failure::LawViolated {
                law,
                scalar: self.scalar,
                sample,
                error,
                tolerance,
            });
        }
        if let Some(r) = self.results.iter_mut().find(|r| r.law == law) {
            r.max_error = r.max_error.max(error);
        } else {
            self.results.push(LawResult {
                law,
                scalar: self.scalar,
                max_error: error,
                tolerance,
            });
        }
        Ok(())
    }

    fn report(self, samples: usize) -> Report {
        Report {
            samples,
            laws: self.results,
        }
    }
}

fn coords<V: VectorSpace>(v: &V) -> Vec<V::Scalar> {
    let mut out = vec![V::Scalar::zero(); v.dim()];
    v.write_coords(&mut out);
    out
}

fn max_magnitude<S: KitScalar>(v: &[S]) -> f64 {
    v.iter().fold(0.0, |m, x| {
        let y = x.magnitude();
        if y.is_nan() || m.is_nan() {
            f64::NAN
        } else {
            m.max(y)
        }
    })
}

/// `max |chart(a, b) − chart(a, a)| / max(1, scale(a), scale(b))`.
fn distance<A: Observable>(action: &A, a: &A::Point, b: &A::Point) -> f64 {
    let ca = action.chart(a, a);
    let cb = action.chart(a, b);
    if ca.len() != cb.len() {
        return f64::NAN;
    }
    let diff: Vec<Scalar<A>> = cb.iter().zip(&ca).map(|(x, y)| *x - *y).collect();
    let scale = 1.0_f64
        .max(action.point_scale(a))
        .max(action.point_scale(b));
    max_magnitude(&diff) / scale
}

fn empty_check<T>(samples: &[T]) -> Result<(), Failure> {
    if samples.is_empty() {
        Err(Failure::EmptySampleSet)
    } else {
        Ok(())
    }
}

/// Check every law except `GeneratorDual` and `Transitivity` on `samples`, in the action's own
/// scalar type (`f64`, or `Dual64` for a lifted action — see [`lift_samples`]).
///
/// # Errors
/// [`Failure::EmptySampleSet`], [`Failure::ChartMismatch`], or the first
/// [`Failure::LawViolated`].
pub fn check_action<A: Observable>(
    action: &A,
    samples: &[Sample<A>],
    tol: &Tolerances,
) -> Result<Report, Failure> {
    empty_check(samples)?;
    let mut t = Tally::new(<Scalar<A> as KitScalar>::NAME);
    for (i, s) in samples.iter().enumerate() {
        let p = &s.p;
        let c = action.constraint_error(p).magnitude();
        t.record(Law::ValidSample, i, c, tol.constraint)?;

        let e = s.g.identity_like();
        t.record(
            Law::Identity,
            i,
            distance(action, p, &action.act(&e, p)),
            tol.laws,
        )?;

        let hp = action.act(&s.h, p);
        let g_hp = action.act(&s.g, &hp);
        let gh_p = action.act(&s.g.compose(&s.h), p);
        t.record(
            Law::Compatibility,
            i,
            distance(action, &gh_p, &g_hp),
            tol.laws,
        )?;

        let exp_p = action.act(&A::Group::exp(&s.xi), p);
        let act_exp_p = action.act_exp(&s.xi, p);
        t.record(
            Law::ActExp,
            i,
            distance(action, &exp_p, &act_exp_p),
            tol.laws,
        )?;
        let mut assigned = p.clone();
        action.act_exp_assign(&s.xi, &mut assigned);
        t.record(
            Law::ActExp,
            i,
            distance(action, &act_exp_p, &assigned),
            tol.laws,
        )?;

        let gp = action.act(&s.g, p);
        let outputs = [&gp, &hp, &g_hp, &gh_p, &exp_p, &act_exp_p];
        let on = outputs
            .iter()
            .map(|q| action.constraint_error(q).magnitude())
            .fold(0.0, |m: f64, x| {
                if x.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(x)
                }
            });
        t.record(Law::OnManifold, i, on, tol.constraint)?;
        let finite = outputs.iter().all(|q| action.point_is_finite(q));
        t.record(
            Law::Finite,
            i,
            if finite { 0.0 } else { f64::INFINITY },
            0.0,
        )?;

        // Central difference of t ↦ chart(p, exp(tξ)·p) at t = 0.
        let xi_max = s.xi.max_abs().magnitude().max(1.0);
        let step = 1e-5 / xi_max;
        let h = <Scalar<A> as KitScalar>::from_real(step);
        let plus = action.chart(p, &action.act_exp(&s.xi.scaled(h), p));
        let minus = action.chart(p, &action.act_exp(&s.xi.scaled(-h), p));
        let generator = coords(&action.generator(&s.xi, p));
        if plus.len() != generator.len() {
            return Err(Failure::ChartMismatch {
                chart: plus.len(),
                tangent: generator.len(),
            });
        }
        let two_h = h + h;
        let diff: Vec<Scalar<A>> = plus
            .iter()
            .zip(&minus)
            .zip(&generator)
            .map(|((a, b), g)| (*a - *b) / two_h - *g)
            .collect();
        let scale = 1.0_f64.max(action.point_scale(p)) * xi_max;
        t.record(
            Law::GeneratorFiniteDifference,
            i,
            max_magnitude(&diff) / scale,
            tol.finite_difference,
        )?;
    }
    Ok(t.report(samples.len()))
}

/// Check `GeneratorDual`: the generator equals the ε part of `chart(p, act_exp(εξ, p))` computed
/// with the group over `Dual64` (exact first derivative, no step size), and the real part of
/// `act_exp(0 + εξ, p)` is `p`.
///
/// # Errors
/// [`Failure::EmptySampleSet`], [`Failure::ChartMismatch`], or [`Failure::LawViolated`].
pub fn check_generator_dual<A, D>(
    action: &A,
    samples: &[Sample<A>],
    tol: &Tolerances,
) -> Result<Report, Failure>
where
    A: Observable<Group: LieGroup<Scalar = f64, Algebra: LiftDual<Dual = Algebra<D>>>>
        + LiftDual<Dual = D>,
    A::Point: LiftDual<Dual = D::Point>,
    D: Observable<Group: LieGroup<Scalar = Dual64>>,
{
    empty_check(samples)?;
    let dual_action = action.lift_dual();
    let mut t = Tally::new("Dual64");
    for (i, s) in samples.iter().enumerate() {
        let pd = s.p.lift_dual();
        let moved = dual_action.act_exp(&eps_algebra(&s.xi), &pd);
        let base = dual_action.chart(&pd, &pd);
        let chart = dual_action.chart(&pd, &moved);
        let generator = coords(&action.generator(&s.xi, &s.p));
        if chart.len() != generator.len() || base.len() != chart.len() {
            return Err(Failure::ChartMismatch {
                chart: chart.len(),
                tangent: generator.len(),
            });
        }
        let xi_max = s.xi.max_abs().max(1.0);
        let scale = 1.0_f64.max(action.point_scale(&s.p)) * xi_max;
        let err = chart
            .iter()
            .zip(&base)
            .zip(&generator)
            .map(|((c, b), g)| {
                let d = *c - *b;
                (d.eps - g).abs().max(d.re.abs())
            })
            .fold(0.0, |m: f64, x| {
                if x.is_nan() || m.is_nan() {
                    f64::NAN
                } else {
                    m.max(x)
                }
            });
        t.record(Law::GeneratorDual, i, err / scale, tol.dual)?;
    }
    Ok(t.report(samples.len()))
}

/// [`check_action`] with `f64`, [`check_generator_dual`], and [`check_action`] on the lifted
/// action with [`lift_samples`] (every law also on first derivatives, with `Dual64`).
///
/// # Errors
/// The first failure of the three checks.
pub fn check_all<A, D>(
    action: &A,
    samples: &[Sample<A>],
    tol: &Tolerances,
) -> Result<Report, Failure>
where
    A: Observable<
            Group: LieGroup<Scalar = f64, Algebra: LiftDual<Dual = Algebra<D>>>
                       + LiftDual<Dual = D::Group>,
        > + LiftDual<Dual = D>,
    A::Point: LiftDual<Dual = D::Point>,
    D: Observable<Group: LieGroup<Scalar = Dual64>>,
{
    let mut report = check_action(action, samples, tol)?;
    report.merge(check_generator_dual(action, samples, tol)?);
    let dual_samples = lift_samples(action, samples);
    report.merge(check_action(&action.lift_dual(), &dual_samples, tol)?);
    Ok(report)
}

/// Check `Transitivity` on pairs of points: `dist(b, transporter(a, b)·a)` for each `(a, b)`.
///
/// # Errors
/// [`Failure::EmptySampleSet`], [`Failure::Transporter`] or [`Failure::LawViolated`].
pub fn check_transitive<A: TransitiveAction + Observable>(
    action: &A,
    pairs: &[(A::Point, A::Point)],
    tol: &Tolerances,
) -> Result<Report, Failure> {
    empty_check(pairs)?;
    let mut t = Tally::new(<Scalar<A> as KitScalar>::NAME);
    for (i, (a, b)) in pairs.iter().enumerate() {
        let g = action
            .transporter(a, b)
            .map_err(|error| Failure::Transporter { sample: i, error })?;
        let moved = action.act(&g, a);
        t.record(Law::Transitivity, i, distance(action, b, &moved), tol.laws)?;
    }
    Ok(t.report(pairs.len()))
}
