//! Symmetric composition of a symmetric one-step method to raise its order
//! (\[Yos90\]; [HLW06, §II.4, §V.3.2]).
//!
//! For a symmetric base method `Φ_h` of order 2 (e.g. the variational integrator
//! [`SphereVariational`](crate::variational::SphereVariational), the implicit midpoint RKMK
//! `gl2`), the composition
//!
//! ```text
//!   Ψ_h = Φ_{γₛh} ∘ ⋯ ∘ Φ_{γ₂h} ∘ Φ_{γ₁h}       (Φ_{γ₁h} acts first)
//! ```
//!
//! with a palindromic sequence `γᵢ = γ_{s+1−i}` and `Σγᵢ = 1` is again symmetric, and has order
//! `p` when the `γᵢ` satisfy the order conditions of symmetric compositions up to order `p`
//! (`Σγᵢ³ = 0` for order 4; `Σγᵢ⁵ = 0` and one condition with nested sums for order 6; …).
//! The coefficient sets are the ones of the published tables cited below, each verified in the tests of this
//! crate: palindromic, `Σγᵢ = 1`, and — with a generic symmetric base
//! `Φ_h = exp(hA + h³B + h⁵C + h⁷D)` of random matrices, expanded as power series in `h` — the
//! composition matches `exp(hA)` exactly through `h^p` and not at `h^{p+1}`; and by fitted
//! convergence slopes on real problems.
//!
//! **Only bases proven symmetric on a Lie group are accepted** ([`Stepper::symmetric_on_group`]):
//! the composition coefficients raise the order of a *symmetric* method only. RKMK methods with
//! symmetric tableaux (Gauss–Legendre with two or more stages, `gl4`, `gl6`) are not symmetric
//! on a non-abelian group — their coordinates are centred at the start point of the step — and
//! their compositions fall short of the claimed order (`kahan-li8(gl4)` and `kahan-li8(rkmk4)`
//! observed order 5, `yoshida6(gl4)` 5.0 on the free rigid body); they are refused with
//! [`SchemeError::Unsupported`]. Accepted: `gl2` (the implicit midpoint RKMK with the
//! exponential), [`SphereVariational`](crate::variational::SphereVariational), and compositions
//! of accepted bases.
//!
//! Several substeps have **negative** `γᵢ` (they step backwards); the base stepper must accept
//! negative step sizes (every method of this crate does; [`integrate`](crate::integrate)
//! itself only takes positive steps).
//!
//! # References
//! \[Yos90\] H. Yoshida, Phys. Lett. A 150 (1990) 262–268 · \[Suz90\] M. Suzuki, Phys. Lett. A
//! 146 (1990) 319–323 · \[KL97\] W. Kahan & R.-C. Li, Math. Comp. 66 (1997) 1089–1099 ·
//! \[McL95\] R. I. McLachlan, SIAM J. Sci. Comput. 16 (1995) 151–168 · \[HLW06\] Hairer, Lubich &
//! Wanner, Geometric Numerical Integration, 2nd ed.

use crate::error::SchemeError;
use crate::methods::AnyStepper;
use crate::stepper::{Algebra, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{ActionInPlace, LieVectorField};
use liegroup::scalar::c;

/// A symmetric composition scheme: the palindromic coefficients `γ₁, …, γₛ` for a symmetric
/// base method of order 2, and the order they give.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CompositionScheme {
    /// Stable kebab-case identifier (`yoshida4`, `suzuki4`, `yoshida6`, `kahan-li6`,
    /// `kahan-li8`, `mclachlan8`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// The order of the composition of a symmetric base method of order 2.
    pub order: u32,
    /// Reference key.
    pub reference: &'static str,
    /// All `s` coefficients `γ₁, …, γₛ` (palindromic; `γ₁` is applied first).
    pub gamma: &'static [f64],
}

impl CompositionScheme {
    /// The number of substeps `s`.
    #[must_use]
    pub fn stages(&self) -> usize {
        self.gamma.len()
    }

    /// `Σγᵢ` (1 for a consistent scheme).
    #[must_use]
    pub fn sum(&self) -> f64 {
        self.gamma.iter().sum()
    }

    /// `Σγᵢᵏ` (zero for odd `k = 3, 5, …, p − 1` in a scheme of order `p`).
    #[must_use]
    pub fn power_sum(&self, k: i32) -> f64 {
        self.gamma.iter().map(|g| g.powi(k)).sum()
    }

    /// `true` when `γᵢ = γ_{s+1−i}` exactly.
    #[must_use]
    pub fn is_palindromic(&self) -> bool {
        let g = self.gamma;
        (0..g.len()).all(|i| g[i].to_bits() == g[g.len() - 1 - i].to_bits())
    }
}

/// `2^{1/3}` (for the triple jump).
const CBRT2: f64 = 1.259_921_049_894_873_2;
/// `4^{1/3}` (for Suzuki's fractal).
const CBRT4: f64 = 1.587_401_051_968_199_5;
/// Yoshida triple jump γ₁ = 1/(2 − 2^{1/3}).
const Y4_1: f64 = 1.0 / (2.0 - CBRT2);
/// Yoshida triple jump γ₂ = −2^{1/3}/(2 − 2^{1/3}).
const Y4_2: f64 = -CBRT2 / (2.0 - CBRT2);
/// Suzuki's p = 1/(4 − 4^{1/3}).
const SZ_P: f64 = 1.0 / (4.0 - CBRT4);

/// The Yoshida / Forest–Ruth triple jump, order 4 (3 substeps):
/// `γ₁ = γ₃ = 1/(2 − 2^{1/3})`, `γ₂ = −2^{1/3}/(2 − 2^{1/3})` \[Yos90\].
pub const YOSHIDA4: CompositionScheme = CompositionScheme {
    id: "yoshida4",
    name: "Yoshida triple jump (order 4)",
    order: 4,
    reference: "[Yos90]",
    gamma: &[Y4_1, Y4_2, Y4_1],
};

/// Suzuki's fractal, order 4 (5 substeps): `γ = (p, p, 1 − 4p, p, p)`, `p = 1/(4 − 4^{1/3})`
/// \[Suz90\].
pub const SUZUKI4: CompositionScheme = CompositionScheme {
    id: "suzuki4",
    name: "Suzuki fractal (order 4, 5 substeps)",
    order: 4,
    reference: "[Suz90]",
    gamma: &[SZ_P, SZ_P, 1.0 - 4.0 * SZ_P, SZ_P, SZ_P],
};

#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const Y6_3: f64 = 0.784_513_610_477_557_263_819_497_63;
#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const Y6_2: f64 = 0.235_573_213_359_358_133_684_793_18;
#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const Y6_1: f64 = -1.177_679_984_178_871_006_946_415_68;
#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const Y6_0: f64 = 1.315_186_320_683_911_218_884_249_73;

/// Yoshida's sixth-order composition, solution A (7 substeps):
/// `(w₃, w₂, w₁, w₀, w₁, w₂, w₃)` with `w₀ = 1 − 2(w₁ + w₂ + w₃)` \[Yos90\].
pub const YOSHIDA6: CompositionScheme = CompositionScheme {
    id: "yoshida6",
    name: "Yoshida order 6, solution A (7 substeps)",
    order: 6,
    reference: "[Yos90]",
    gamma: &[Y6_3, Y6_2, Y6_1, Y6_0, Y6_1, Y6_2, Y6_3],
};

#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const KL6: [f64; 5] = [
    0.392_161_444_007_314_139_279_250_56,
    0.332_599_136_789_359_438_599_748_64,
    -0.706_246_172_557_639_359_809_964_82,
    0.082_213_596_293_550_800_231_490_45,
    0.798_543_990_934_829_963_398_950_35,
];

/// Kahan and Li's `s9odr6a`, order 6 (9 substeps) \[KL97\].
pub const KAHAN_LI6: CompositionScheme = CompositionScheme {
    id: "kahan-li6",
    name: "Kahan–Li s9odr6a (order 6, 9 substeps)",
    order: 6,
    reference: "[KL97]",
    gamma: &[
        KL6[0], KL6[1], KL6[2], KL6[3], KL6[4], KL6[3], KL6[2], KL6[1], KL6[0],
    ],
};

#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const KL8: [f64; 9] = [
    0.130_202_483_088_890_080_878_817_63,
    0.561_162_981_775_108_384_561_964_41,
    -0.389_474_962_644_847_286_408_078_60,
    0.158_841_906_555_155_600_896_210_75,
    -0.395_903_894_133_237_577_336_231_54,
    0.184_539_640_978_315_707_091_832_54,
    0.258_374_387_686_322_047_293_979_11,
    0.295_011_723_609_310_298_870_966_24,
    -0.605_508_533_830_034_511_698_921_08,
];

/// Kahan and Li's `s17odr8a`, order 8 (17 substeps) \[KL97\].
pub const KAHAN_LI8: CompositionScheme = CompositionScheme {
    id: "kahan-li8",
    name: "Kahan–Li s17odr8a (order 8, 17 substeps)",
    order: 8,
    reference: "[KL97]",
    gamma: &[
        KL8[0], KL8[1], KL8[2], KL8[3], KL8[4], KL8[5], KL8[6], KL8[7], KL8[8], KL8[7], KL8[6],
        KL8[5], KL8[4], KL8[3], KL8[2], KL8[1], KL8[0],
    ],
};

#[allow(clippy::excessive_precision)] // digits as published (see the module docs)
const MC8: [f64; 8] = [
    0.741_670_364_350_612_953_448_227_80,
    -0.409_100_825_800_031_593_997_300_10,
    0.190_754_710_296_238_379_953_876_26,
    -0.573_862_471_116_082_266_656_387_73,
    0.299_064_181_303_655_923_844_463_54,
    0.334_624_918_245_298_183_784_957_98,
    0.315_293_092_396_766_596_632_056_66,
    -0.796_887_939_352_916_354_019_788_84,
];

/// The Suzuki–Umeno / McLachlan composition of order 8 (15 substeps) \[McL95\].
pub const MCLACHLAN8: CompositionScheme = CompositionScheme {
    id: "mclachlan8",
    name: "Suzuki–Umeno / McLachlan (order 8, 15 substeps)",
    order: 8,
    reference: "[McL95]",
    gamma: &[
        MC8[0], MC8[1], MC8[2], MC8[3], MC8[4], MC8[5], MC8[6], MC8[7], MC8[6], MC8[5], MC8[4],
        MC8[3], MC8[2], MC8[1], MC8[0],
    ],
};

/// Every composition scheme, by identifier.
pub const SCHEMES: &[&CompositionScheme] = &[
    &YOSHIDA4,
    &SUZUKI4,
    &YOSHIDA6,
    &KAHAN_LI6,
    &KAHAN_LI8,
    &MCLACHLAN8,
];

/// The composition scheme with identifier `id`.
///
/// # Errors
/// [`SchemeError::InvalidOption`] naming the known identifiers.
pub fn find(id: &str) -> Result<&'static CompositionScheme, SchemeError> {
    SCHEMES.iter().copied().find(|s| s.id == id).ok_or_else(|| {
        let known: Vec<&str> = SCHEMES.iter().map(|s| s.id).collect();
        SchemeError::InvalidOption {
            name: "composition",
            reason: format!("unknown composition '{id}'; known: {}", known.join(", ")),
        }
    })
}

/// A symmetric composition `Ψ_h = Φ_{γₛh} ∘ ⋯ ∘ Φ_{γ₁h}` of any one-step method `S` (see the
/// [module docs](self)).
///
/// [`Stepper::order`] reports `max(scheme order, base order)`: the coefficients are built for a
/// **symmetric** base of order 2 (a symmetric base of higher order keeps at least its own
/// order). The base must declare itself symmetric on the group
/// ([`Stepper::symmetric_on_group`], true only for methods whose symmetry is proven and
/// tested); others are refused (composing a non-symmetric method does not reach the order of
/// the scheme).
///
/// Each substep runs the base at time `t + (γ₁ + ⋯ + γᵢ₋₁)h` with step `γᵢh`. The work counters
/// are the base's. No error estimate (adaptive steps are unsupported) and no dense output.
///
/// # Example
/// ```
/// use homogeneous::RotationAction;
/// use schemes::composition::{Composition, YOSHIDA4};
/// use schemes::{Stepper, methods};
/// type A = RotationAction<f64>;
/// let gl2 = schemes::ImplicitRkmk::<A>::exp(&schemes::catalogue::GAUSS_LEGENDRE2).named("gl2");
/// let comp = Composition::new(&YOSHIDA4, gl2)?;
/// assert_eq!(Stepper::<A>::order(&comp), 4);
/// assert_eq!(Stepper::<A>::name(&comp), "yoshida4(gl2)");
/// // Registry methods by identifier; RKMK with a symmetric tableau is not symmetric on SO(3).
/// assert!(Composition::<methods::AnyStepper<A>>::from_ids("yoshida4", "gl2").is_ok());
/// assert!(Composition::<methods::AnyStepper<A>>::from_ids("yoshida4", "gl4").is_err());
/// let gl4 = methods::find("gl4")?.stepper::<A>();
/// assert!(Composition::new(&YOSHIDA4, gl4).is_err());
/// # Ok::<(), schemes::SchemeError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Composition<S> {
    scheme: &'static CompositionScheme,
    base: S,
    name: String,
    order: u32,
}

impl<S> Composition<S> {
    fn build(
        scheme: &'static CompositionScheme,
        base: S,
        base_name: &str,
        base_order: u32,
    ) -> Self {
        Self {
            scheme,
            base,
            name: format!("{}({base_name})", scheme.id),
            order: scheme.order.max(base_order),
        }
    }

    /// The composition of `base` (a symmetric method) with `scheme`, for use on the action `A`.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] when the base has odd order (it cannot be symmetric);
    /// [`SchemeError::Unsupported`] when the base does not declare itself symmetric on the group
    /// ([`Stepper::symmetric_on_group`]).
    pub fn new<A: ActionInPlace>(
        scheme: &'static CompositionScheme,
        base: S,
    ) -> Result<Self, SchemeError>
    where
        S: Stepper<A>,
    {
        let order = base.order();
        if order % 2 == 1 {
            return Err(SchemeError::InvalidOption {
                name: "composition base",
                reason: format!(
                    "{} has odd order {order}: a symmetric method has even order",
                    base.name()
                ),
            });
        }
        if !base.symmetric_on_group() {
            return Err(not_symmetric(&base.name()));
        }
        let name = base.name();
        Ok(Self::build(scheme, base, &name, order))
    }

    /// Replace the name reported by [`Stepper::name`] (default `"<scheme id>(<base name>)"`).
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The coefficient scheme.
    #[must_use]
    pub fn scheme(&self) -> &'static CompositionScheme {
        self.scheme
    }

    /// The base method.
    #[must_use]
    pub fn base(&self) -> &S {
        &self.base
    }

    /// The base method, mutably (e.g. to change its solver options).
    pub fn base_mut(&mut self) -> &mut S {
        &mut self.base
    }

    /// The base method.
    #[must_use]
    pub fn into_base(self) -> S {
        self.base
    }
}

impl<A: ActionInPlace> Composition<AnyStepper<A>>
where
    A::Point: homogeneous::ManifoldPoint,
{
    /// The composition `scheme_id` (see [`SCHEMES`]) of the registry method `base_id` (see
    /// [`crate::methods::METHODS`]), e.g. `("yoshida4", "gl2")`: how a command-line program
    /// builds compositions by name. The only registry method symmetric on a group is `gl2`
    /// (see [`registry_base_is_symmetric`]).
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] for unknown identifiers or a base of odd order;
    /// [`SchemeError::Unsupported`] for a base that is not symmetric on the group.
    pub fn from_ids(scheme_id: &str, base_id: &str) -> Result<Self, SchemeError> {
        let scheme = find(scheme_id)?;
        let spec = crate::methods::find(base_id)?;
        if spec.order % 2 == 1 {
            return Err(SchemeError::InvalidOption {
                name: "composition base",
                reason: format!(
                    "{} has odd order {}: a symmetric method has even order",
                    spec.id, spec.order
                ),
            });
        }
        if !registry_base_is_symmetric(spec) {
            return Err(not_symmetric(spec.id));
        }
        let base = spec.stepper::<A>();
        Ok(Self::build(scheme, base, spec.id, spec.order))
    }
}

/// `true` for the registry methods that are symmetric on a Lie group: the one-stage
/// Gauss–Legendre (implicit midpoint) RKMK with the exponential (`gl2`). See
/// [`Stepper::symmetric_on_group`]. (The registry's [`AnyStepper`] does not forward
/// `symmetric_on_group`, so [`Composition::new`] refuses it; [`Composition::from_ids`] checks
/// the registry entry with this function.)
#[must_use]
pub fn registry_base_is_symmetric(spec: &crate::methods::MethodSpec) -> bool {
    matches!(spec.kind, crate::methods::MethodKind::ImplicitRkmk(t) if crate::implicit::is_implicit_midpoint(t))
}

fn not_symmetric(name: &str) -> SchemeError {
    SchemeError::Unsupported {
        method: name.to_string(),
        reason: "not symmetric on a Lie group (Φ₋ₕ∘Φₕ ≠ id): a composition would not reach the \
                 order of its scheme; symmetric bases: gl2, the variational integrators on \
                 (S²)ⁿ, compositions of these"
            .into(),
    }
}

impl<A: ActionInPlace, S: Stepper<A>> Stepper<A> for Composition<S> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn order(&self) -> u32 {
        self.order
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
        if tol.is_some() {
            return Err(SchemeError::no_error_estimate(self.name.clone()));
        }
        let mut ti = t;
        let mut yi: Option<A::Point> = None;
        for &g in self.scheme.gamma {
            let hi = h * c::<Scalar<A>>(g);
            let from = yi.as_ref().unwrap_or(y);
            let out = self.base.step(action, f, ti, from, hi, None)?;
            yi = Some(out.y);
            ti += hi;
        }
        Ok(StepOutput {
            y: yi.expect("a composition has at least one substep"),
            error: None,
        })
    }

    /// A composition of a symmetric base with palindromic coefficients is symmetric (the base
    /// was checked when the composition was built).
    fn symmetric_on_group(&self) -> bool {
        true
    }

    fn stats(&self) -> StepStats {
        self.base.stats()
    }

    fn reset_stats(&mut self) {
        self.base.reset_stats();
    }
}
