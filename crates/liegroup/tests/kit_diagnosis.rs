//! The kit points at the bug: a wrong Taylor coefficient below a small-angle threshold is
//! caught by the dense sweep of norms, a flipped bracket sign is reported as a bracket law
//! (not as `dexp`), every failing law is listed, most primitive first, and the edge-case
//! switches are independent.

use liegroup::nalgebra::{Matrix3, Vector3};
use liegroup::so3::hat;
use liegroup::testing::{KitFailure, Law, SampleSet, check_group};
use liegroup::{LieGroup, LieGroupInPlace, So3, StaticLieGroup};

/// Below this rotation angle [`Probe::exp`] uses its own Taylor series.
const THRESHOLD: f64 = 0.05;

/// SO(3) written by a user: `exp` by Rodrigues' formula `I + A K + B K²` (`K = hat(ξ)`,
/// `A = sin θ/θ`, `B = (1 − cos θ)/θ²`) with a Taylor branch below [`THRESHOLD`]; the default
/// (series) `dexp`/`dexp⁻¹`, `ad*` and coadjoint action.
///
/// `TAYLOR_BUG`: in the branch, one coefficient is off by a relative `10⁻³`: 1 — the `θ²/6` of
/// `A` (the rotation angle is off by `θ³/6000`: a relative error of `1.7·10⁻¹⁶` at `θ = 10⁻⁴`,
/// below round-off); 2 — the `θ²/24` of `B` (the result is off the rotation group by
/// `θ⁴/24000`, `4·10⁻²¹` at `θ = 10⁻⁴`). Neither is visible at the old sample norms `10⁻⁴`
/// and `0.1` (above the threshold).
/// `FLIP`: the bracket has the wrong sign, `[x, y] = −x × y`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Probe<const TAYLOR_BUG: u8, const FLIP: bool>(So3<f64>);

impl<const TAYLOR_BUG: u8, const FLIP: bool> LieGroup for Probe<TAYLOR_BUG, FLIP> {
    type Scalar = f64;
    type Algebra = Vector3<f64>;
    fn identity_like(&self) -> Self {
        Self(So3::identity())
    }
    fn algebra_zero(&self) -> Vector3<f64> {
        Vector3::zeros()
    }
    fn compose(&self, o: &Self) -> Self {
        Self(self.0.compose(&o.0))
    }
    fn inverse(&self) -> Self {
        Self(self.0.inverse())
    }
    fn exp(xi: &Vector3<f64>) -> Self {
        let t2 = xi.norm_squared();
        if t2 >= THRESHOLD * THRESHOLD {
            return Self(So3::exp(xi));
        }
        // Taylor series, truncation below 10⁻¹⁶ θ for θ < 0.05.
        let rel = |bug: u8| if TAYLOR_BUG == bug { 1.0 + 1e-3 } else { 1.0 };
        let c6 = rel(1) / 6.0;
        let c24 = rel(2) / 24.0;
        let a = 1.0 - t2 * c6 + t2 * t2 / 120.0 - t2 * t2 * t2 / 5040.0;
        let b = 0.5 - t2 * c24 + t2 * t2 / 720.0 - t2 * t2 * t2 / 40320.0;
        let k = hat(xi);
        Self(So3::from_matrix_unchecked(
            Matrix3::identity() + k * a + k * k * b,
        ))
    }
    fn log(&self) -> Vector3<f64> {
        self.0.log()
    }
    fn bracket(x: &Vector3<f64>, y: &Vector3<f64>) -> Vector3<f64> {
        if FLIP { -x.cross(y) } else { x.cross(y) }
    }
    fn adjoint(&self, xi: &Vector3<f64>) -> Vector3<f64> {
        self.0.adjoint(xi)
    }
    fn all_finite(&self) -> bool {
        self.0.all_finite()
    }
}

impl<const TAYLOR_BUG: u8, const FLIP: bool> LieGroupInPlace for Probe<TAYLOR_BUG, FLIP> {}

impl<const TAYLOR_BUG: u8, const FLIP: bool> StaticLieGroup for Probe<TAYLOR_BUG, FLIP> {
    fn identity() -> Self {
        Self(So3::identity())
    }
}

fn norms(samples: &[(String, Vector3<f64>)]) -> Vec<f64> {
    samples.iter().map(|(_, x)| x.norm()).collect()
}

#[test]
fn correct_taylor_branch_passes() {
    let rep = check_group(&SampleSet::<Probe<0, false>>::standard_static())
        .unwrap_or_else(|f| panic!("{f}"));
    println!("{rep}");
}

#[test]
fn wrong_taylor_coefficient_below_threshold_is_caught() {
    // The old sample set had algebra norms 1e-4 and then 0.1: the error θ⁴/24000 is below
    // 1e-20 at the first and the branch is not taken at the second.
    let err = check_group(&SampleSet::<Probe<1, false>>::standard_static())
        .expect_err("a wrong Taylor coefficient must be caught");
    println!("{err}");
    // log is correct, so log(exp ξ) = ξ is the first law to see the wrong angle.
    assert_eq!(err.law(), Some(Law::LogExp), "{err}");
    // Off the group: log (which reads the skew part) does not see it, Ad and dexp do.
    let err = check_group(&SampleSet::<Probe<2, false>>::standard_static())
        .expect_err("a wrong Taylor coefficient must be caught");
    println!("{err}");
    assert!(err.laws().contains(&Law::DexpDifferenceQuotient), "{err}");
}

#[test]
fn extra_norms_put_samples_on_both_sides_of_a_threshold() {
    let t = 0.0123;
    let samples = SampleSet::builder(&Probe::<0, false>::identity())
        .extra_norms(&[t, -1.0, f64::NAN])
        .build()
        .unwrap();
    let extra: Vec<f64> = samples
        .algebra()
        .iter()
        .filter(|(l, _)| l.contains("threshold"))
        .map(|(_, x)| x.norm())
        .collect();
    // Three norms, two directions each; the invalid norms are ignored.
    assert_eq!(extra.len(), 6);
    for r in [t * (1.0 - 1e-3), t, t * (1.0 + 1e-3)] {
        let n = extra
            .iter()
            .filter(|&&x| (x - r).abs() <= 1e-15 * r)
            .count();
        assert_eq!(n, 2, "norm {r}");
    }
    assert!(extra.iter().any(|&x| x < t) && extra.iter().any(|&x| x > t));
    let elements = samples
        .elements()
        .iter()
        .filter(|(l, _)| l.contains("threshold"))
        .count();
    assert_eq!(elements, 6);
    // And the kit still catches the wrong coefficient with them, and passes the right one.
    let with = |s: SampleSet<Probe<1, false>>| check_group(&s).unwrap_err();
    with(
        SampleSet::builder(&Probe::<1, false>::identity())
            .extra_norms(&[THRESHOLD])
            .build()
            .unwrap(),
    );
    check_group(&samples).unwrap_or_else(|f| panic!("{f}"));
}

#[test]
fn algebra_norms_are_dense_from_1e_minus_8_to_1() {
    let samples = SampleSet::<Probe<0, false>>::standard_static();
    let ns = norms(samples.algebra());
    // At least three samples in every decade [10⁻ᵏ, 10⁻ᵏ⁺¹), k = 1 … 8, along different
    // directions.
    for k in 1..=8 {
        let (lo, hi) = (10f64.powi(-k), 10f64.powi(-k + 1));
        let dirs: Vec<Vector3<f64>> = samples
            .algebra()
            .iter()
            .filter(|(_, x)| x.norm() >= lo * (1.0 - 1e-12) && x.norm() < hi * (1.0 - 1e-12))
            .map(|(_, x)| x / x.norm())
            .collect();
        assert!(dirs.len() >= 3, "decade 1e-{k}: {ns:?}");
        assert!(
            dirs.iter().skip(1).any(|d| (d - dirs[0]).norm() > 1e-3),
            "one direction only in decade 1e-{k}"
        );
    }
    // Consecutive norms of the sweep differ by a factor of at most 10^(1/4) + round-off.
    let mut sweep: Vec<f64> = ns
        .iter()
        .copied()
        .filter(|&x| (1e-8..=1.0).contains(&x))
        .collect();
    sweep.sort_by(f64::total_cmp);
    for w in sweep.windows(2) {
        assert!(w[1] / w[0] <= 10f64.powf(0.25) * (1.0 + 1e-12), "{w:?}");
    }
}

#[test]
fn flipped_bracket_is_reported_as_a_bracket_law_not_dexp() {
    let err = check_group(&SampleSet::<Probe<0, true>>::standard_static())
        .expect_err("a flipped bracket must be caught");
    println!("{err}");
    // Antisymmetry, bilinearity and Jacobi hold for −[·,·]; the bracket as the derivative of
    // Ad does not, and it comes first.
    let laws = err.laws();
    assert_eq!(laws[0], Law::AdBracketDifferenceQuotient, "{err}");
    let first_line = err.to_string().lines().next().unwrap().to_owned();
    assert!(first_line.contains(Law::AdBracketDifferenceQuotient.name()));
    assert!(!first_line.contains("dexp"), "{first_line}");
    // The series dexp is built on the bracket: it fails too, and is listed after.
    assert!(laws.contains(&Law::DexpDifferenceQuotient), "{err}");
    for law in [
        Law::BracketAntisymmetry,
        Law::BracketBilinearity,
        Law::Jacobi,
    ] {
        assert!(
            !laws.contains(&law),
            "{law} holds for a flipped bracket: {err}"
        );
    }
}

#[test]
fn every_failing_law_is_listed_once_most_primitive_first() {
    let KitFailure::Violations(v) =
        check_group(&SampleSet::<Probe<1, true>>::standard_static()).unwrap_err()
    else {
        panic!("expected violations");
    };
    assert!(v.len() >= 3);
    for w in v.windows(2) {
        assert!(
            w[0].law.rank() < w[1].law.rank(),
            "{:?} before {:?}",
            w[0].law,
            w[1].law
        );
    }
    for x in &v {
        assert!(x.failed >= 1 && x.failed <= x.evaluations, "{x}");
        assert!(x.observed.is_nan() || x.observed > x.tolerance, "{x}");
    }
    // Both bugs are visible: the wrong exp (LogExp) and the wrong bracket.
    let laws: Vec<Law> = v.iter().map(|x| x.law).collect();
    assert!(laws.contains(&Law::LogExp) && laws.contains(&Law::AdBracketDifferenceQuotient));
    // The order is a total order of the laws.
    let mut ranks: Vec<usize> = Law::PRIMITIVE_TO_DERIVED.iter().map(|l| l.rank()).collect();
    ranks.dedup();
    assert_eq!(
        ranks,
        (0..Law::PRIMITIVE_TO_DERIVED.len()).collect::<Vec<_>>()
    );
}

#[test]
fn small_norm_and_near_pi_switches_are_independent() {
    let build = |small: bool, pi: bool| {
        SampleSet::builder(&Probe::<0, false>::identity())
            .small_norms(small)
            .near_pi(pi)
            .build()
            .unwrap()
    };
    let has_pi = |s: &SampleSet<Probe<0, false>>| s.elements().iter().any(|(l, _)| l.contains('π'));
    let smallest = |s: &SampleSet<Probe<0, false>>| {
        let a = s
            .algebra()
            .iter()
            .map(|(_, x)| x.norm())
            .filter(|&x| x > 0.0)
            .fold(f64::INFINITY, f64::min);
        let g = s
            .elements()
            .iter()
            .map(|(_, g)| g.log().norm())
            .filter(|&x| x > 0.0)
            .fold(f64::INFINITY, f64::min);
        a.min(g)
    };
    let s = build(false, true);
    assert!(has_pi(&s) && smallest(&s) >= 1e-3 * (1.0 - 1e-12));
    let s = build(true, false);
    assert!(!has_pi(&s) && smallest(&s) <= 1e-99);
    // edge_cases(b) sets both.
    for on in [false, true] {
        let s = SampleSet::builder(&Probe::<0, false>::identity())
            .edge_cases(on)
            .build()
            .unwrap();
        assert_eq!(has_pi(&s), on);
        assert_eq!(smallest(&s) < 1e-3, on);
        check_group(&s).unwrap_or_else(|f| panic!("{f}"));
    }
}
