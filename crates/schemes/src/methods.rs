//! Every shipped method under a stable kebab-case identifier, and [`AnyStepper`], which runs
//! any of them through one type.

use crate::catalogue as cat;
use crate::cf::CommutatorFree;
use crate::commutator_free::CommutatorFreeScheme;
use crate::error::SchemeError;
use crate::implicit::ImplicitRkmk;
use crate::point_map::{AmbientDistance, PointDistance};
use crate::rkmk::Rkmk;
use crate::rkmk4_2c::Rkmk4TwoCommutators;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use crate::tableau::ButcherTableau;
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::{Cayley, CayleyGroup, Exp};

/// How a method is built.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MethodKind {
    /// Explicit RKMK with `exp` and the group's [`dexp⁻¹`](liegroup::LieGroup::dexpinv): a closed
    /// form when the group has one ([`EXACT_DEXP`](liegroup::LieGroup::EXACT_DEXP)), otherwise
    /// the default Bernoulli series truncated after `ad¹⁴`
    /// ([`DEFAULT_SERIES_ORDER`](liegroup::DEFAULT_SERIES_ORDER)).
    Rkmk(&'static ButcherTableau),
    /// Explicit RKMK with `exp` and `dexp⁻¹` from the Bernoulli series through `ad^{p−2}`
    /// \[MK99, Thm. 4.1\].
    RkmkSeries(&'static ButcherTableau),
    /// Implicit RKMK (simplified Newton to round-off).
    ImplicitRkmk(&'static ButcherTableau),
    /// A commutator-free or Crouch–Grossman scheme.
    CommutatorFree(&'static CommutatorFreeScheme),
    /// RKMK4 with two commutators \[MKO99\].
    Rkmk4TwoCommutators,
}

/// A named method: a stable identifier, its order and reference, and how to build it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodSpec {
    /// Stable kebab-case identifier (`rkmk4`, `cf4`, …), used by the command-line program.
    pub id: &'static str,
    /// The classical order.
    pub order: u32,
    /// The order of the embedded method, for pairs.
    pub embedded_order: Option<u32>,
    /// Reference key(s).
    pub reference: &'static str,
    /// One line of description.
    pub description: &'static str,
    /// How to build it.
    pub kind: MethodKind,
}

impl MethodSpec {
    /// A stepper for this method on the action `A`. Embedded commutator-free pairs measure
    /// their error in ambient coordinates ([`AmbientDistance`]), so the stepper can be run
    /// only when `A::Point: ManifoldPoint`. For any other action use
    /// [`stepper_without_distance`](Self::stepper_without_distance) (every method except the
    /// error estimate of the commutator-free pairs) or
    /// [`stepper_with_distance`](Self::stepper_with_distance) (pairs with your distance, e.g.
    /// [`GroupLogDistance`](crate::GroupLogDistance) for a group acting on itself).
    #[must_use]
    pub fn stepper<A: ActionInPlace>(&self) -> AnyStepper<A> {
        self.stepper_with_distance(AmbientDistance)
    }

    /// A stepper for this method on any action `A: ActionInPlace` — no distance between points
    /// (hence no `ManifoldPoint` bound) is needed.
    ///
    /// Every method is built as by [`stepper`](Self::stepper), except that an embedded
    /// commutator-free pair (`cf32`, `cf43`) is built without its embedded solution: it runs
    /// its main method with fixed steps, reports `embedded_order() == None`, and adaptive
    /// steps with it fail with [`SchemeError::Unsupported`] (use
    /// [`stepper_with_distance`](Self::stepper_with_distance) for the pairs). RKMK pairs
    /// (`rkmk54`, `rkmk-bs32`) estimate their error in the algebra and stay adaptive.
    ///
    /// # Example
    /// A user's group acting on itself needs no `ManifoldPoint`:
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::{LieGroup, So3};
    /// use nalgebra::Vector3;
    /// use schemes::{Options, Problem, integrate, methods::find};
    /// let xi = Vector3::new(0.1, -0.2, 0.3);
    /// let problem = Problem::new(LeftMultiplication::<So3>::new(), move |_t: f64, _g: &So3| xi);
    /// let mut s = find("rkmk4").unwrap().stepper_without_distance::<LeftMultiplication<So3>>();
    /// let sol = integrate(&problem, &mut s, 0.0, So3::identity(), 1.0, &Options::count(4)).unwrap();
    /// let err = sol.last().1.compose(&So3::exp(&xi).inverse()).log().norm();
    /// assert!(err < 1e-14);
    /// ```
    #[must_use]
    pub fn stepper_without_distance<A: ActionInPlace>(&self) -> AnyStepper<A, NoDistance> {
        match self.kind {
            MethodKind::CommutatorFree(s) if s.embedded.is_some() => {
                let main = CommutatorFreeScheme {
                    embedded: None,
                    ..*s
                };
                AnyStepper::CommutatorFree(
                    CommutatorFree::new(&main)
                        .expect("catalogue schemes are explicit (tested)")
                        .named(self.id)
                        .with_distance(NoDistance),
                )
            }
            _ => self.stepper_with_distance(NoDistance),
        }
    }

    /// A stepper whose embedded commutator-free pairs measure their error with `distance`
    /// (e.g. [`GroupLogDistance`](crate::GroupLogDistance) for a group acting on itself).
    #[must_use]
    pub fn stepper_with_distance<A: ActionInPlace, D>(&self, distance: D) -> AnyStepper<A, D> {
        let named = |t: &ButcherTableau, map: Exp| -> Rkmk<A, Exp> {
            Rkmk::new(t, map)
                .expect("catalogue tableaux listed as explicit are explicit")
                .named(self.id)
        };
        match self.kind {
            MethodKind::Rkmk(t) => AnyStepper::Rkmk(named(t, Exp::exact())),
            MethodKind::RkmkSeries(t) => {
                AnyStepper::Rkmk(named(t, Exp::series(t.order.saturating_sub(2) as usize)))
            }
            MethodKind::ImplicitRkmk(t) => {
                AnyStepper::Implicit(ImplicitRkmk::exp(t).named(self.id))
            }
            MethodKind::CommutatorFree(s) => AnyStepper::CommutatorFree(
                CommutatorFree::new(s)
                    .expect("catalogue schemes are explicit (tested)")
                    .named(self.id)
                    .with_distance(distance),
            ),
            MethodKind::Rkmk4TwoCommutators => {
                AnyStepper::TwoCommutators(Rkmk4TwoCommutators::new().named(self.id))
            }
        }
    }
}

impl MethodSpec {
    /// The Butcher tableau of an explicit RKMK method ([`MethodKind::Rkmk`] or
    /// [`MethodKind::RkmkSeries`]), if this is one.
    #[must_use]
    pub fn explicit_tableau(&self) -> Option<&'static ButcherTableau> {
        match self.kind {
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t) => Some(t),
            _ => None,
        }
    }

    /// The **embedded solution of a pair run as the method**: for an RKMK pair the tableau
    /// `(A, b̂, c)` (order [`embedded_order`](Self::embedded_order), no error estimate, no
    /// dense output; with the `dexp⁻¹` of the pair's kind), for a commutator-free pair the
    /// scheme with the embedded update `ŷ₁` (the stages stay the same, so `cf43` still
    /// evaluates its fifth stage). Used for order studies of the error estimators (the
    /// command-line ids `<id>-embedded`). `None` for methods without an embedded solution.
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::So3;
    /// use schemes::{Stepper, methods::find};
    /// let s = find("rkmk54").unwrap().embedded_stepper::<LeftMultiplication<So3>>().unwrap();
    /// assert_eq!((s.order(), s.embedded_order()), (4, None));
    /// assert!(find("rkmk4").unwrap().embedded_stepper::<LeftMultiplication<So3>>().is_none());
    /// ```
    #[must_use]
    pub fn embedded_stepper<A: ActionInPlace>(&self) -> Option<AnyStepper<A>> {
        self.embedded_stepper_with_distance(AmbientDistance)
    }

    /// [`embedded_stepper`](Self::embedded_stepper) with a distance type for the
    /// commutator-free case (never evaluated: the embedded method has no error estimate).
    #[must_use]
    pub fn embedded_stepper_with_distance<A: ActionInPlace, D>(
        &self,
        distance: D,
    ) -> Option<AnyStepper<A, D>> {
        let name = format!("{}-embedded", self.id);
        match self.kind {
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t) => {
                let e = t.embedded?;
                let tab = ButcherTableau {
                    order: e.order,
                    b: e.b_hat,
                    embedded: None,
                    dense_output: None,
                    ..*t
                };
                let map = match self.kind {
                    MethodKind::RkmkSeries(_) => Exp::series(e.order.saturating_sub(2) as usize),
                    _ => Exp::exact(),
                };
                let stepper = Rkmk::new(&tab, map).expect("explicit (tested)").named(name);
                Some(AnyStepper::Rkmk(stepper))
            }
            MethodKind::CommutatorFree(s) => {
                let e = s.embedded?;
                let scheme = CommutatorFreeScheme {
                    order: e.order,
                    update: e.update,
                    embedded: None,
                    ..*s
                };
                let stepper = CommutatorFree::new(&scheme)
                    .expect("catalogue schemes are explicit (tested)")
                    .named(name)
                    .with_distance(distance);
                Some(AnyStepper::CommutatorFree(stepper))
            }
            _ => None,
        }
    }

    /// RKMK of this method's explicit tableau in **Cayley coordinates**, `ψ = cay` with the
    /// exact `dcay⁻¹` \[MK99\], \[HLW06 IV.8.3\] (the command-line ids `<id>-cayley`), on a
    /// group with a Cayley map (quadratic groups: SO(3), SE(3), their products and powers).
    /// Pairs keep their error estimate and dense output. `None` unless the method is an
    /// explicit RKMK method with the group's `dexp⁻¹` ([`MethodKind::Rkmk`]).
    ///
    /// # Example
    /// ```
    /// use homogeneous::LeftMultiplication;
    /// use liegroup::So3;
    /// use schemes::{Stepper, methods::find};
    /// let s = find("rkmk-vern65").unwrap().cayley_stepper::<LeftMultiplication<So3>>().unwrap();
    /// assert_eq!((s.order(), s.embedded_order()), (6, Some(5)));
    /// assert!(find("cf4").unwrap().cayley_stepper::<LeftMultiplication<So3>>().is_none());
    /// ```
    #[must_use]
    pub fn cayley_stepper<A: ActionInPlace>(&self) -> Option<Rkmk<A, Cayley>>
    where
        A::Group: CayleyGroup,
    {
        match self.kind {
            MethodKind::Rkmk(t) => Some(
                Rkmk::new(t, Cayley)
                    .expect("catalogue tableaux listed as explicit are explicit")
                    .named(format!("{}-cayley", self.id)),
            ),
            _ => None,
        }
    }
}

/// The distance of steppers built by [`MethodSpec::stepper_without_distance`]: implemented
/// for every point type, never evaluated by them (they contain no commutator-free pair with an
/// embedded solution). Should a pair be given it anyway (via
/// [`CommutatorFree::with_distance`]), its scaled error is NaN, which the driver treats as a
/// rejected step and finally reports as [`SchemeError::NonFinite`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoDistance;

impl<P> PointDistance<P> for NoDistance {
    fn scaled_error(&self, _y0: &P, _y1: &P, _y1_hat: &P, _tol: &Tolerance) -> f64 {
        f64::NAN
    }
}

macro_rules! rk {
    ($id:literal, $t:path, $kind:ident, $desc:literal) => {
        MethodSpec {
            id: $id,
            order: $t.order,
            embedded_order: match $t.embedded {
                Some(e) => Some(e.order),
                None => None,
            },
            reference: $t.reference,
            description: $desc,
            kind: MethodKind::$kind(&$t),
        }
    };
}

macro_rules! cf {
    ($id:literal, $t:path, $desc:literal) => {
        MethodSpec {
            id: $id,
            order: $t.order,
            embedded_order: match $t.embedded {
                Some(e) => Some(e.order),
                None => None,
            },
            reference: $t.reference,
            description: $desc,
            kind: MethodKind::CommutatorFree(&$t),
        }
    };
}

/// Every shipped method, by identifier.
pub const METHODS: &[MethodSpec] = &[
    cf!(
        "lie-euler",
        cat::LIE_EULER,
        "Lie–Euler: y₁ = exp(h f(y₀))·y₀"
    ),
    rk!(
        "rkmk2",
        cat::HEUN,
        Rkmk,
        "RKMK with Heun's method (explicit trapezoid)"
    ),
    rk!(
        "rkmk-midpoint",
        cat::MIDPOINT,
        Rkmk,
        "RKMK with the explicit midpoint rule"
    ),
    rk!(
        "rkmk3",
        cat::KUTTA3,
        Rkmk,
        "RKMK with Kutta's third-order method"
    ),
    rk!(
        "rkmk-ralston3",
        cat::RALSTON3,
        Rkmk,
        "RKMK with Ralston's third-order method"
    ),
    rk!(
        "rkmk4",
        cat::RK4,
        Rkmk,
        "RKMK with the classical RK4 and the group's dexp⁻¹ (closed form or series)"
    ),
    rk!(
        "rkmk4-series",
        cat::RK4,
        RkmkSeries,
        "RKMK4 with dexp⁻¹ truncated after ad² [MK99]"
    ),
    rk!("rkmk-rk38", cat::RK38, Rkmk, "RKMK with Kutta's 3/8 rule"),
    MethodSpec {
        id: "rkmk4-2comm",
        order: 4,
        embedded_order: None,
        reference: "[MKO99]",
        description: "RKMK4 with two commutators per step",
        kind: MethodKind::Rkmk4TwoCommutators,
    },
    rk!(
        "rkmk-bs32",
        cat::BOGACKI_SHAMPINE32,
        Rkmk,
        "RKMK with the Bogacki–Shampine 3(2) pair"
    ),
    rk!(
        "rkmk54",
        cat::DOPRI54,
        Rkmk,
        "RKMK(5,4): RKMK with the Dormand–Prince 5(4) pair and dense output"
    ),
    rk!(
        "rkmk6",
        cat::BUTCHER6,
        Rkmk,
        "RKMK with Butcher's 7-stage sixth-order method"
    ),
    rk!(
        "gl2",
        cat::GAUSS_LEGENDRE2,
        ImplicitRkmk,
        "implicit RKMK, Gauss–Legendre 1 stage (midpoint)"
    ),
    rk!(
        "gl4",
        cat::GAUSS_LEGENDRE4,
        ImplicitRkmk,
        "implicit RKMK, Gauss–Legendre 2 stages"
    ),
    rk!(
        "gl6",
        cat::GAUSS_LEGENDRE6,
        ImplicitRkmk,
        "implicit RKMK, Gauss–Legendre 3 stages"
    ),
    cf!("cf3", cat::CF3, "commutator-free, third order"),
    cf!("cf32", cat::CF32, "commutator-free 3(2) pair"),
    cf!(
        "cf4",
        cat::CF4,
        "commutator-free, fourth order, 5 exponentials"
    ),
    cf!("cf43", cat::CF43, "commutator-free 4(3) pair"),
    cf!("cg3", cat::CG3, "Crouch–Grossman, third order"),
    cf!("cg4", cat::CG4, "Crouch–Grossman, fourth order (5 stages)"),
    rk!(
        "rkmk-tsit54",
        cat::TSIT54,
        Rkmk,
        "RKMK with the Tsitouras 5(4) pair and its free quartic dense output"
    ),
    rk!(
        "rkmk-vern65",
        cat::VERN65,
        Rkmk,
        "RKMK with Verner's most efficient 6(5) pair (9 stages, FSAL)"
    ),
    rk!(
        "rkmk-vern76",
        cat::VERN76,
        Rkmk,
        "RKMK with Verner's most efficient 7(6) pair (10 stages)"
    ),
    rk!(
        "rkmk-vern87",
        cat::VERN87,
        Rkmk,
        "RKMK with Verner's most efficient 8(7) pair (13 stages)"
    ),
    rk!(
        "rkmk853",
        cat::DOP853,
        Rkmk,
        "RKMK with Dormand–Prince 8(5,3) (DOP853; 12 stages, 5th-order error estimate)"
    ),
];

/// The method with identifier `id`.
///
/// # Errors
/// [`SchemeError::InvalidOption`] naming the known identifiers.
///
/// # Example
/// ```
/// let m = schemes::methods::find("cf4").unwrap();
/// assert_eq!(m.order, 4);
/// assert!(schemes::methods::find("cf5").is_err());
/// ```
pub fn find(id: &str) -> Result<&'static MethodSpec, SchemeError> {
    METHODS.iter().find(|m| m.id == id).ok_or_else(|| {
        let known: Vec<&str> = METHODS.iter().map(|m| m.id).collect();
        SchemeError::InvalidOption {
            name: "method",
            reason: format!("unknown method '{id}'; known: {}", known.join(", ")),
        }
    })
}

/// Any shipped stepper behind one type (enum dispatch; no allocation, no dynamic dispatch).
#[derive(Clone, Debug)]
pub enum AnyStepper<A: ActionInPlace, D = AmbientDistance> {
    /// An explicit RKMK method.
    Rkmk(Rkmk<A, Exp>),
    /// An implicit RKMK method.
    Implicit(ImplicitRkmk<A, Exp>),
    /// A commutator-free or Crouch–Grossman method.
    CommutatorFree(CommutatorFree<A, D>),
    /// RKMK4 with two commutators.
    TwoCommutators(Rkmk4TwoCommutators<A>),
}

macro_rules! dispatch {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            AnyStepper::Rkmk($s) => $e,
            AnyStepper::Implicit($s) => $e,
            AnyStepper::CommutatorFree($s) => $e,
            AnyStepper::TwoCommutators($s) => $e,
        }
    };
}

impl<A: ActionInPlace, D: PointDistance<A::Point>> Stepper<A> for AnyStepper<A, D> {
    fn name(&self) -> String {
        dispatch!(self, s => s.name())
    }
    fn order(&self) -> u32 {
        dispatch!(self, s => s.order())
    }
    fn embedded_order(&self) -> Option<u32> {
        dispatch!(self, s => s.embedded_order())
    }
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: Scalar<A>,
        y: &A::Point,
        h: Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    {
        dispatch!(self, s => s.step(action, f, t, y, h, tol))
    }
    fn has_dense_output(&self) -> bool {
        dispatch!(self, s => s.has_dense_output())
    }
    fn dense_output(&self, action: &A, y_prev: &A::Point, theta: Scalar<A>) -> Option<A::Point> {
        dispatch!(self, s => s.dense_output(action, y_prev, theta))
    }
    fn symmetric_on_group(&self) -> bool {
        dispatch!(self, s => s.symmetric_on_group())
    }
    fn stats(&self) -> StepStats {
        dispatch!(self, s => s.stats())
    }
    fn reset_stats(&mut self) {
        dispatch!(self, s => s.reset_stats());
    }
}
