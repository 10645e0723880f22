//! Owned coefficient arrays consumed by the engines (built once per stepper from the catalogue
//! data).

use crate::tableau::ButcherTableau;
use liegroup::scalar::c;
use nalgebra::RealField;

/// The continuous extension `bᵢ(θ) = Σ_k p_{ik} θ^{k}` of a Runge–Kutta method.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DenseCoeffs {
    /// `poly[i]` holds the coefficients of `bᵢ(θ)` in increasing powers of θ (constant first).
    pub poly: Vec<Vec<f64>>,
}

impl DenseCoeffs {
    /// `bᵢ(θ)`.
    pub fn weight<T: RealField + Copy>(&self, i: usize, theta: T) -> T {
        let mut acc = T::zero();
        for &a in self.poly[i].iter().rev() {
            acc = acc * theta + c::<T>(a);
        }
        acc
    }
}

/// A Butcher tableau in owned, row-major form.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Coeffs {
    pub s: usize,
    pub a: Vec<f64>,
    pub b: Vec<f64>,
    pub c: Vec<f64>,
    pub b_hat: Option<Vec<f64>>,
    pub order: u32,
    pub embedded_order: Option<u32>,
    pub dense: Option<DenseCoeffs>,
}

impl Coeffs {
    /// The owned, full row-major form of a catalogue tableau.
    pub fn from_tableau(t: &ButcherTableau) -> Self {
        let s = t.c.len();
        let mut a = vec![0.0; s * s];
        for i in 0..s {
            for j in 0..s {
                a[i * s + j] = t.a(i, j);
            }
        }
        Self {
            s,
            a,
            b: t.b.to_vec(),
            c: t.c.to_vec(),
            b_hat: t.b_hat().map(<[f64]>::to_vec),
            order: t.order,
            embedded_order: t.embedded_order(),
            dense: t.dense_output.map(|d| DenseCoeffs {
                // The catalogue stores b_i(θ) without its (zero) constant term.
                poly: d
                    .coefficients
                    .iter()
                    .map(|row| core::iter::once(0.0).chain(row.iter().copied()).collect())
                    .collect(),
            }),
        }
    }

    #[inline]
    pub fn a(&self, i: usize, j: usize) -> f64 {
        self.a[i * self.s + j]
    }
    pub fn is_explicit(&self) -> bool {
        (0..self.s).all(|i| (i..self.s).all(|j| self.a(i, j) == 0.0))
    }
}

/// `out ← h Σ aⱼ ks[j]` over the non-zero terms `(j, aⱼ)` (zero for an empty list); the first
/// term is written, not added to a zeroed buffer.
#[inline(always)]
pub(crate) fn combine<V: liegroup::VectorSpace>(
    out: &mut V,
    h: V::Scalar,
    terms: &[(usize, f64)],
    ks: &[V],
) {
    /// Terms combined in one call of `set_combination` (more: one call per term).
    const MAX_TERMS: usize = 16;
    match terms.split_first() {
        None => out.set_zero(),
        Some(_) if terms.len() <= MAX_TERMS => {
            let zero = <V::Scalar as num_traits::Zero>::zero();
            let mut buf = [(zero, &ks[terms[0].0]); MAX_TERMS];
            for (slot, &(j, a)) in buf.iter_mut().zip(terms) {
                *slot = (h * c::<V::Scalar>(a), &ks[j]);
            }
            out.set_combination(&buf[..terms.len()]);
        }
        Some((&(j, a), rest)) => {
            out.set_scaled(h * c::<V::Scalar>(a), &ks[j]);
            for &(j, a) in rest {
                out.add_scaled(h * c::<V::Scalar>(a), &ks[j]);
            }
        }
    }
}

/// `for $i in 0..$n { $body }` written out for `$i = 0, 1, …, 15` (each copy guarded by the
/// constant test `$i < $n`, `$n` a const generic of at most 16): every index in the body is then
/// a constant, so arrays of stage values stay in registers. The compiler does not unroll a
/// loop whose body is a whole integrator stage by itself.
macro_rules! unrolled {
    ($n:expr, |$i:ident| $body:block) => {
        $crate::coeffs::unrolled!(@ $n, $i, $body, 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)
    };
    (@ $n:expr, $i:ident, $body:block, $($k:literal)*) => {{
        const { assert!($n <= 16, "unrolled! covers at most 16 iterations") };
        $(
            if $k < $n {
                let $i: usize = $k;
                $body
            }
        )*
    }};
}
pub(crate) use unrolled;
