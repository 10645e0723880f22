//! Lie–Butcher series of the exact flow and of one step of each family of methods, in the
//! truncated concatenation algebra of [`super::forests`] (conventions: the module docs of
//! [`super`]).

use super::forests::{Algebra, OrderedForests};
use crate::commutator_free::{Base, CommutatorFreeScheme, ExpProduct};
use crate::error::SchemeError;
use crate::rkmk4_2c::TwoCommutatorCoefficients;
use crate::tableau::StageMatrix;

/// The series of the exact flow at `t = h = 1`: `α(∅) = 1` and
/// `α(ω₁·B⁺(ω')) = α(ω₁) α(ω') / |ω|` (from `dα/dt = α·B⁺(α)`, coefficient by coefficient).
pub(crate) fn exact(forests: &OrderedForests, degree: u32) -> Vec<f64> {
    let mut alpha = vec![0.0; forests.len()];
    alpha[0] = 1.0;
    for n in 1..=degree {
        for w in forests.of_order(n) {
            let trees = forests.trees(w);
            let last = trees[trees.len() - 1];
            let inner = forests
                .root_children(last)
                .expect("the trees of a forest are one-tree forests");
            alpha[w] = alpha[forests.prefix(w)] * alpha[inner] / f64::from(n);
        }
    }
    alpha
}

/// The series of a commutator-free scheme: the stage points `φᵢ`, their stage derivatives
/// `kᵢ = B⁺(φᵢ)`, and the series of a product of exponentials.
pub(crate) struct CfSeries<'a> {
    alg: Algebra<'a>,
    points: Vec<Vec<f64>>,
    k: Vec<Vec<f64>>,
}

impl<'a> CfSeries<'a> {
    /// The stage series of `scheme` (assumed structurally valid).
    pub fn new(alg: Algebra<'a>, scheme: &CommutatorFreeScheme) -> Self {
        let mut this = Self {
            alg,
            points: Vec::with_capacity(scheme.stages.len()),
            k: Vec::with_capacity(scheme.stages.len()),
        };
        for stage in scheme.stages {
            let phi = this.product(&stage.point);
            this.k.push(this.alg.graft(&phi));
            this.points.push(phi);
        }
        this
    }

    /// `exp(F_J)···exp(F₁)·base` ↦ `φ_base · exp(F₁) ··· exp(F_J)`: the factor applied first
    /// stands on the left.
    pub fn product(&self, p: &ExpProduct) -> Vec<f64> {
        let mut x = match p.base {
            Base::Start => self.alg.one(),
            Base::Stage(m) => self.points[m].clone(),
        };
        for row in p.factors {
            let mut f = self.alg.zero();
            for (coef, k) in row.iter().zip(&self.k) {
                self.alg.axpy(&mut f, *coef, k);
            }
            x = self.alg.mul(&x, &self.alg.exp(&f));
        }
        x
    }
}

/// `dexp_u⁻¹ v` truncated after `ad_u^q`: `Σ_{m ≤ q} (B_m/m!) ad_uᵐ v` with the image of the
/// bracket of [`Algebra::bracket`] (absolute coefficients in magnitude mode).
fn dexpinv(alg: &Algebra<'_>, u: &[f64], v: &[f64], q: usize) -> Vec<f64> {
    let mut acc = v.to_vec();
    let mut term = v.to_vec();
    let mut inv_factorial = 1.0;
    for m in 1..=q.min(liegroup::MAX_SERIES_ORDER) {
        term = alg.bracket(u, &term);
        inv_factorial /= m as f64;
        let b = liegroup::bernoulli(m);
        if b != 0.0 {
            alg.axpy(&mut acc, b * inv_factorial, &term);
        }
    }
    acc
}

/// The series of one RKMK step with the explicit stage matrix `a`, weights `b` and `dexp⁻¹`
/// truncated after `ad^q`: `uᵢ = Σ_{j<i} a_ij k̃_j`, `kᵢ = B⁺(exp(uᵢ))`,
/// `k̃ᵢ = dexp_{uᵢ}⁻¹ kᵢ`, `y₁ ↦ exp(Σ bᵢ k̃ᵢ)`.
///
/// # Errors
/// [`SchemeError::NotExplicit`] for a non-zero `a_ij` with `j ≥ i`;
/// [`SchemeError::NonFiniteCoefficient`] for a non-finite coefficient.
pub(crate) fn rkmk<M: StageMatrix + ?Sized>(
    alg: &Algebra<'_>,
    a: &M,
    b: &[f64],
    q: usize,
) -> Result<Vec<f64>, SchemeError> {
    const METHOD: &str = "RKMK";
    let s = a.stages();
    if b.len() != s {
        return Err(SchemeError::DimensionMismatch {
            method: METHOD,
            what: "b",
            expected: s,
            found: b.len(),
        });
    }
    let mut kt: Vec<Vec<f64>> = Vec::with_capacity(s);
    for i in 0..s {
        if let Some(j) = (i..s).find(|&j| a.a(i, j) != 0.0) {
            return Err(SchemeError::NotExplicit {
                method: METHOD,
                what: format!("stage {i}"),
                referenced: j,
            });
        }
        let mut u = alg.zero();
        for (j, kj) in kt.iter().enumerate() {
            let aij = a.a(i, j);
            if !aij.is_finite() {
                return Err(SchemeError::NonFiniteCoefficient {
                    method: METHOD,
                    what: "a",
                });
            }
            alg.axpy(&mut u, aij, kj);
        }
        let k = alg.graft(&alg.exp(&u));
        kt.push(dexpinv(alg, &u, &k, q));
    }
    if !b.iter().all(|v| v.is_finite()) {
        return Err(SchemeError::NonFiniteCoefficient {
            method: METHOD,
            what: "b",
        });
    }
    let mut sigma = alg.zero();
    for (bi, k) in b.iter().zip(&kt) {
        alg.axpy(&mut sigma, *bi, k);
    }
    Ok(alg.exp(&sigma))
}

/// The series of one step of the two-commutator scheme `m` (see
/// [`TwoCommutatorCoefficients`]).
pub(crate) fn two_commutators(alg: &Algebra<'_>, m: &TwoCommutatorCoefficients) -> Vec<f64> {
    let stage = |u: &[f64]| alg.graft(&alg.exp(u));
    let k1 = stage(&alg.zero());
    let mut u = alg.zero();
    alg.axpy(&mut u, m.a21, &k1);
    let k2 = stage(&u);
    let mut u = alg.zero();
    alg.axpy(&mut u, m.a32, &k2);
    alg.axpy(&mut u, m.a32_bracket, &alg.bracket(&k1, &k2));
    let k3 = stage(&u);
    let mut u = alg.zero();
    alg.axpy(&mut u, m.a43, &k3);
    let k4 = stage(&u);
    let mut sigma = alg.zero();
    for (bi, k) in m.b.iter().zip([&k1, &k2, &k3, &k4]) {
        alg.axpy(&mut sigma, *bi, k);
    }
    alg.axpy(&mut sigma, m.b_bracket, &alg.bracket(&k1, &k4));
    alg.exp(&sigma)
}
