//! Method identifiers of the program: the registry methods of `schemes::methods`, their
//! variants `<id>-cayley` (RKMK in Cayley coordinates, every explicit tableau) and
//! `<id>-embedded` (the embedded solution of a pair run as the method), the variational
//! integrators on (S²)ⁿ (`llm-implicit`, `llm-explicit`) and symmetric compositions written
//! `scheme+base` (e.g. `yoshida4+llm-implicit`, `kahan-li8+gl2`).

use super::Error;
use homogeneous::{Action, ActionInPlace, TangentSphereAction, VecPowerAction};
use liegroup::{Cayley, CayleyGroup};
use models::{Potential, SphereSystem};
use schemes::composition::{Composition, CompositionScheme};
use schemes::methods::MethodSpec;
use schemes::variational::{SphereVariational, VariationalSpec};
use schemes::{
    AnyStepper, PointDistance, Rkmk, SchemeError, StepOutput, StepStats, Stepper, Tolerance,
};

/// The deepest composition `scheme+scheme+…+base` that [`MethodChoice::parse`] accepts (a
/// composition of compositions multiplies the stage count: 8 levels of a 3-stage scheme are
/// already 3⁸ = 6561 base steps per step).
pub const MAX_NESTING: usize = 8;

/// A parsed method identifier.
#[derive(Clone, Debug)]
pub enum MethodChoice {
    /// A method of `schemes::methods::METHODS`.
    Registry(&'static MethodSpec),
    /// `<id>-cayley`: the explicit RKMK method `id` in Cayley coordinates.
    Cayley(&'static MethodSpec),
    /// `<id>-embedded`: the embedded solution of the pair `id`, run as the method.
    Embedded(&'static MethodSpec),
    /// A variational integrator on (S²)ⁿ.
    Variational(&'static VariationalSpec),
    /// A symmetric composition of a base method.
    Composed(&'static CompositionScheme, Box<MethodChoice>),
}

impl MethodChoice {
    /// Parse `id`, `llm-…` or `scheme+base` (at most [`MAX_NESTING`] compositions deep).
    pub fn parse(id: &str) -> Result<Self, Error> {
        let depth = id.matches('+').count();
        if depth > MAX_NESTING {
            return Err(Error::Usage(format!(
                "method identifier nests {depth} compositions; at most {MAX_NESTING} are allowed (e.g. yoshida4+yoshida4+gl2)"
            )));
        }
        Self::parse_nested(id)
    }

    /// [`parse`](Self::parse) after the depth check (the recursion is at most
    /// [`MAX_NESTING`] deep).
    fn parse_nested(id: &str) -> Result<Self, Error> {
        let usage = |e: SchemeError| Error::Usage(e.to_string());
        if let Some((scheme, base)) = id.split_once('+') {
            let scheme = schemes::composition::find(scheme).map_err(usage)?;
            let base = Self::parse_nested(base)?;
            if base.order() % 2 == 1 {
                return Err(Error::Usage(format!(
                    "composition needs a symmetric base of even order; '{}' has order {}",
                    base.id(),
                    base.order()
                )));
            }
            return Ok(Self::Composed(scheme, Box::new(base)));
        }
        if let Ok(v) = schemes::variational::find(id) {
            return Ok(Self::Variational(v));
        }
        if let Ok(m) = schemes::methods::find(id) {
            return Ok(Self::Registry(m));
        }
        for (suffix, make) in [
            ("-cayley", Self::Cayley as fn(&'static MethodSpec) -> Self),
            ("-embedded", Self::Embedded),
        ] {
            if let Some(base) = id.strip_suffix(suffix)
                && let Some(m) = schemes::methods::METHODS.iter().find(|m| m.id == base)
            {
                let choice = make(m);
                if variants().iter().any(|v| v.id == id) {
                    return Ok(choice);
                }
                return Err(Error::Usage(format!(
                    "method '{base}' has no variant '{suffix}' ({}; see `list`)",
                    if suffix == "-cayley" {
                        "Cayley coordinates exist for the explicit RKMK methods"
                    } else {
                        "embedded solutions exist for the pairs"
                    }
                )));
            }
        }
        schemes::methods::find(id).map(Self::Registry).map_err(|_| {
            let mut known: Vec<&str> = schemes::methods::METHODS.iter().map(|m| m.id).collect();
            known.extend(schemes::variational::METHODS.iter().map(|m| m.id));
            Error::Usage(format!(
                "unknown method '{id}'; known: {} (and their variants <id>-cayley, <id>-embedded, see `list`; and compositions scheme+base)",
                known.join(", ")
            ))
        })
    }

    /// The identifier.
    pub fn id(&self) -> String {
        match self {
            Self::Registry(m) => m.id.into(),
            Self::Cayley(m) => format!("{}-cayley", m.id),
            Self::Embedded(m) => format!("{}-embedded", m.id),
            Self::Variational(m) => m.id.into(),
            Self::Composed(s, b) => format!("{}+{}", s.id, b.id()),
        }
    }

    /// The order.
    pub fn order(&self) -> u32 {
        match self {
            Self::Registry(m) | Self::Cayley(m) => m.order,
            Self::Embedded(m) => m.embedded_order.unwrap_or(m.order),
            Self::Variational(m) => m.order,
            Self::Composed(s, b) => s.order.max(b.order()),
        }
    }

    /// The embedded order (pairs only).
    pub fn embedded_order(&self) -> Option<u32> {
        match self {
            Self::Registry(m) | Self::Cayley(m) => m.embedded_order,
            _ => None,
        }
    }

    /// A stepper for any action (registry methods and their compositions).
    pub fn generic<A: ActionInPlace>(&self) -> Result<GenericStepper<A>, Error>
    where
        A::Point: homogeneous::ManifoldPoint,
        A::Group: CayleyGroup,
    {
        Ok(match self {
            Self::Registry(m) => GenericStepper::Any(m.stepper::<A>()),
            Self::Cayley(m) => GenericStepper::Cayley(cayley::<A>(m)?),
            Self::Embedded(m) => GenericStepper::Any(embedded::<A>(m)?),
            Self::Variational(m) => {
                return Err(Error::Usage(format!(
                    "method '{}' applies only to the Lagrangian models on (S²)ⁿ",
                    m.id
                )));
            }
            Self::Composed(s, b) => GenericStepper::Composed(Box::new(
                Composition::new::<A>(s, b.generic::<A>()?)?.named(self.id()),
            )),
        })
    }

    /// A stepper for a Lagrangian model on (TS²)ⁿ (every method, variational ones included).
    pub fn sphere<'a, P: Potential>(
        &self,
        system: &'a SphereSystem<P>,
    ) -> Result<SphereStepper<'a, P>, Error> {
        Ok(match self {
            Self::Registry(m) => SphereStepper::Any(m.stepper::<TsAction>()),
            Self::Cayley(m) => SphereStepper::Cayley(cayley::<TsAction>(m)?),
            Self::Embedded(m) => SphereStepper::Any(embedded::<TsAction>(m)?),
            Self::Variational(m) => SphereStepper::Variational(m.stepper(system)?),
            Self::Composed(s, b) => SphereStepper::Composed(Box::new(
                Composition::new::<TsAction>(s, b.sphere(system)?)?.named(self.id()),
            )),
        })
    }
}

/// A derived method identifier (`<id>-cayley`, `<id>-embedded`) with its order, embedded
/// order and a description, for `list`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    /// The identifier.
    pub id: String,
    /// The order.
    pub order: u32,
    /// The embedded order (Cayley variants of pairs keep their estimate).
    pub embedded_order: Option<u32>,
    /// One line of description.
    pub description: String,
}

/// Every derived identifier: `<id>-cayley` for each explicit RKMK method with the group's
/// `dexp⁻¹` (`MethodKind::Rkmk`), `<id>-embedded` for each pair (RKMK and commutator-free), in
/// the order of `schemes::methods::METHODS`.
pub fn variants() -> Vec<Variant> {
    use schemes::methods::{METHODS, MethodKind};
    let mut out = Vec::new();
    for m in METHODS {
        if let MethodKind::Rkmk(t) = m.kind {
            out.push(Variant {
                id: format!("{}-cayley", m.id),
                order: m.order,
                embedded_order: m.embedded_order,
                description: format!("{} in Cayley coordinates (exact dcay⁻¹)", t.name),
            });
        }
    }
    for m in METHODS {
        if let Some(q) = m.embedded_order {
            out.push(Variant {
                id: format!("{}-embedded", m.id),
                order: q,
                embedded_order: None,
                description: format!("the embedded order-{q} solution of {} as the method", m.id),
            });
        }
    }
    out
}

fn cayley<A: ActionInPlace>(m: &MethodSpec) -> Result<Rkmk<A, Cayley>, Error>
where
    A::Group: CayleyGroup,
{
    m.cayley_stepper::<A>()
        .ok_or_else(|| Error::Usage(format!("method '{}' has no Cayley variant", m.id)))
}

fn embedded<A: ActionInPlace>(m: &MethodSpec) -> Result<AnyStepper<A>, Error> {
    m.embedded_stepper::<A>()
        .ok_or_else(|| Error::Usage(format!("method '{}' has no embedded solution", m.id)))
}

/// The action of the (S²)ⁿ models: SE(3)ⁿ on (TS²)ⁿ.
pub type TsAction = VecPowerAction<TangentSphereAction>;

/// Registry methods and compositions of them, on any action (the registry variant is kept
/// inline: it is the one that is stepped in hot loops).
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum GenericStepper<A: ActionInPlace>
where
    A::Group: CayleyGroup,
{
    /// A registry method.
    Any(AnyStepper<A>),
    /// A registry method in Cayley coordinates.
    Cayley(Rkmk<A, Cayley>),
    /// A composition.
    Composed(Box<Composition<GenericStepper<A>>>),
}

/// Every method on the (S²)ⁿ models.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum SphereStepper<'a, P> {
    /// A registry method.
    Any(AnyStepper<TsAction>),
    /// A registry method in Cayley coordinates.
    Cayley(Rkmk<TsAction, Cayley>),
    /// The Lee–Leok–McClamroch variational integrator.
    Variational(SphereVariational<&'a SphereSystem<P>, f64>),
    /// A composition.
    Composed(Box<Composition<SphereStepper<'a, P>>>),
}

macro_rules! forward_stepper {
    ($self:ident, $s:ident => $e:expr, [$($variant:ident),+]) => {
        match $self {
            $(Self::$variant($s) => $e,)+
        }
    };
}

impl<A: ActionInPlace> Stepper<A> for GenericStepper<A>
where
    A::Point: homogeneous::ManifoldPoint,
    A::Group: CayleyGroup,
    schemes::AmbientDistance: PointDistance<A::Point>,
{
    fn name(&self) -> String {
        forward_stepper!(self, s => Stepper::<A>::name(s), [Any, Cayley, Composed])
    }
    fn order(&self) -> u32 {
        forward_stepper!(self, s => Stepper::<A>::order(s), [Any, Cayley, Composed])
    }
    fn embedded_order(&self) -> Option<u32> {
        forward_stepper!(self, s => Stepper::<A>::embedded_order(s), [Any, Cayley, Composed])
    }
    fn step<F>(
        &mut self,
        action: &A,
        f: &F,
        t: schemes::Scalar<A>,
        y: &A::Point,
        h: schemes::Scalar<A>,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<A::Point>, SchemeError>
    where
        F: homogeneous::LieVectorField<schemes::Scalar<A>, A::Point, schemes::Algebra<A>>,
    {
        forward_stepper!(self, s => Stepper::<A>::step(s, action, f, t, y, h, tol), [Any, Cayley, Composed])
    }
    fn has_dense_output(&self) -> bool {
        forward_stepper!(self, s => Stepper::<A>::has_dense_output(s), [Any, Cayley, Composed])
    }
    fn dense_output(
        &self,
        action: &A,
        y_prev: &A::Point,
        theta: schemes::Scalar<A>,
    ) -> Option<A::Point> {
        forward_stepper!(self, s => Stepper::<A>::dense_output(s, action, y_prev, theta), [Any, Cayley, Composed])
    }
    fn symmetric_on_group(&self) -> bool {
        forward_stepper!(self, s => Stepper::<A>::symmetric_on_group(s), [Any, Cayley, Composed])
    }
    fn stats(&self) -> StepStats {
        forward_stepper!(self, s => Stepper::<A>::stats(s), [Any, Cayley, Composed])
    }
    fn reset_stats(&mut self) {
        forward_stepper!(self, s => Stepper::<A>::reset_stats(s), [Any, Cayley, Composed]);
    }
}

impl<P: Potential> Stepper<TsAction> for SphereStepper<'_, P> {
    fn name(&self) -> String {
        forward_stepper!(self, s => Stepper::<TsAction>::name(s), [Any, Cayley, Variational, Composed])
    }
    fn order(&self) -> u32 {
        forward_stepper!(self, s => Stepper::<TsAction>::order(s), [Any, Cayley, Variational, Composed])
    }
    fn embedded_order(&self) -> Option<u32> {
        forward_stepper!(self, s => Stepper::<TsAction>::embedded_order(s), [Any, Cayley, Variational, Composed])
    }
    fn step<F>(
        &mut self,
        action: &TsAction,
        f: &F,
        t: f64,
        y: &<TsAction as Action>::Point,
        h: f64,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<<TsAction as Action>::Point>, SchemeError>
    where
        F: homogeneous::LieVectorField<
                f64,
                <TsAction as Action>::Point,
                schemes::Algebra<TsAction>,
            >,
    {
        forward_stepper!(self, s => Stepper::<TsAction>::step(s, action, f, t, y, h, tol), [Any, Cayley, Variational, Composed])
    }
    fn has_dense_output(&self) -> bool {
        forward_stepper!(self, s => Stepper::<TsAction>::has_dense_output(s), [Any, Cayley, Variational, Composed])
    }
    fn dense_output(
        &self,
        action: &TsAction,
        y_prev: &<TsAction as Action>::Point,
        theta: f64,
    ) -> Option<<TsAction as Action>::Point> {
        forward_stepper!(self, s => Stepper::<TsAction>::dense_output(s, action, y_prev, theta), [Any, Cayley, Variational, Composed])
    }
    fn symmetric_on_group(&self) -> bool {
        forward_stepper!(self, s => Stepper::<TsAction>::symmetric_on_group(s), [Any, Cayley, Variational, Composed])
    }
    fn stats(&self) -> StepStats {
        forward_stepper!(self, s => Stepper::<TsAction>::stats(s), [Any, Cayley, Variational, Composed])
    }
    fn reset_stats(&mut self) {
        forward_stepper!(self, s => Stepper::<TsAction>::reset_stats(s), [Any, Cayley, Variational, Composed]);
    }
}
