//! Finite-dimensional real vector spaces in coordinates.
//!
//! Lie algebra elements (and dual elements, momenta, stage derivatives) are stored as their
//! coordinates in a fixed basis. [`VectorSpace`] is the small interface the integrators need:
//! a zero of matching size, `y ← y + a x`, scaling, the Euclidean dot product of coordinates and
//! reading/writing the flat coordinate array. Implementations are provided for
//! [`SVector`], [`DVector`], tuples of 2 to 4 spaces, arrays `[V; N]` and `Vec<V>`, so products
//! and powers of groups get their algebras for free.
//!
//! All operations except [`VectorSpace::zero_like`] on runtime-sized spaces are allocation
//! free. With the `rayon` feature the element-wise operations of `Vec<V>` (`set_zero`,
//! `add_scaled`, `scale_by`, `set_scaled`, `all_finite`, `zero_like`) run on rayon's current
//! pool from [`PAR_THRESHOLD`](crate::par::PAR_THRESHOLD) factors on, with bitwise the serial
//! results; the sums (`inner`) stay serial ([`par`](crate::par)).

use crate::par;
use core::fmt::Debug;
use nalgebra::{ComplexField, DVector, RealField, SVector};
use num_traits::{One, Zero};

/// A real vector space given in coordinates with respect to a fixed basis.
///
/// The inner product [`inner`](VectorSpace::inner) is the Euclidean product of coordinates; it also
/// serves as the pairing between a space and its dual when dual elements are written in the
/// dual basis (as [`LieGroup::coadjoint`](crate::LieGroup::coadjoint) does).
///
/// # Example
/// ```
/// use liegroup::VectorSpace;
/// use nalgebra::Vector3;
/// let mut y = Vector3::new(1.0, 2.0, 3.0);
/// y.add_scaled(2.0, &Vector3::new(1.0, 0.0, 0.0));
/// assert_eq!(y, Vector3::new(3.0, 2.0, 3.0));
/// assert_eq!(VectorSpace::dim(&y), 3);
/// ```
pub trait VectorSpace: Clone + Debug + PartialEq {
    /// The scalar field (f64, or a num-dual number).
    type Scalar: RealField + Copy;

    /// The zero vector of the same dimension as `self`.
    #[must_use]
    fn zero_like(&self) -> Self;

    /// The number of coordinates.
    fn dim(&self) -> usize;

    /// `self ← self + a·x`.
    ///
    /// # Panics
    /// If the dimensions differ (a programmer error for runtime-sized spaces).
    fn add_scaled(&mut self, a: Self::Scalar, x: &Self);

    /// `self ← a·self`.
    fn scale_by(&mut self, a: Self::Scalar);

    /// `self ← a·x` (the first term of a linear combination, without zeroing first). Default:
    /// copy, then [`scale_by`](Self::scale_by); the shipped spaces write `a·xᵢ` directly.
    ///
    /// # Panics
    /// If the dimensions differ (a programmer error for runtime-sized spaces).
    fn set_scaled(&mut self, a: Self::Scalar, x: &Self) {
        self.clone_from(x);
        self.scale_by(a);
    }

    /// `self ← a₀x₀ + a₁x₁ + …` (`self ← 0` for no terms): bitwise the same as
    /// [`set_scaled`](Self::set_scaled)`(a₀, x₀)` followed by
    /// [`add_scaled`](Self::add_scaled)`(aᵢ, xᵢ)` in order, which is the default. Runtime powers
    /// (`Vec`) override it to make one pass over their factors instead of one per term (the
    /// stage combinations of the integrators are memory-bound at large N).
    ///
    /// # Panics
    /// If the dimensions differ (a programmer error for runtime-sized spaces).
    ///
    /// # Example
    /// ```
    /// use liegroup::VectorSpace;
    /// let (x, y) = (vec![nalgebra::Vector2::new(1.0, 2.0)], vec![nalgebra::Vector2::new(0.5, 0.0)]);
    /// let mut z = x.zero_like();
    /// z.set_combination(&[(2.0, &x), (-4.0, &y)]);
    /// assert_eq!(z[0], nalgebra::Vector2::new(0.0, 4.0));
    /// ```
    fn set_combination(&mut self, terms: &[(Self::Scalar, &Self)]) {
        match terms.split_first() {
            None => self.set_zero(),
            Some((&(a, x), rest)) => {
                self.set_scaled(a, x);
                for &(a, x) in rest {
                    self.add_scaled(a, x);
                }
            }
        }
    }

    /// Euclidean inner product of the coordinates.
    fn inner(&self, other: &Self) -> Self::Scalar;

    /// Write the coordinates into `out[..self.dim()]`.
    ///
    /// # Panics
    /// If `out` is shorter than `self.dim()`.
    fn write_coords(&self, out: &mut [Self::Scalar]);

    /// Overwrite the coordinates from `src[..self.dim()]` (the size of `self` is kept).
    ///
    /// # Panics
    /// If `src` is shorter than `self.dim()`.
    fn read_coords(&mut self, src: &[Self::Scalar]);

    /// Set every coordinate to zero (the shipped implementations do not allocate).
    fn set_zero(&mut self) {
        *self = self.zero_like();
    }

    /// The squared Euclidean norm of the coordinates.
    fn inner_norm_squared(&self) -> Self::Scalar {
        self.inner(self)
    }

    /// The Euclidean norm of the coordinates.
    ///
    /// Not differentiable at zero with dual numbers (as any norm); use
    /// [`inner_norm_squared`](VectorSpace::inner_norm_squared) inside differentiable code.
    fn inner_norm(&self) -> Self::Scalar {
        self.inner(self).sqrt()
    }

    /// The largest absolute coordinate.
    fn max_abs(&self) -> Self::Scalar;

    /// `true` when every coordinate is finite.
    fn all_finite(&self) -> bool;

    /// `a·self` as a new vector.
    #[must_use]
    fn scaled(&self, a: Self::Scalar) -> Self {
        let mut y = self.clone();
        y.scale_by(a);
        y
    }

    /// `self + other` as a new vector.
    #[must_use]
    fn added(&self, other: &Self) -> Self {
        let mut y = self.clone();
        y.add_scaled(Self::Scalar::one(), other);
        y
    }

    /// `self − other` as a new vector.
    #[must_use]
    fn subtracted(&self, other: &Self) -> Self {
        let mut y = self.clone();
        y.add_scaled(-Self::Scalar::one(), other);
        y
    }

    /// The `i`-th basis vector of a space of the same dimension as `self`.
    ///
    /// # Panics
    /// If `i >= self.dim()`.
    #[must_use]
    fn basis_like(&self, i: usize) -> Self {
        let n = self.dim();
        assert!(i < n, "basis index {i} out of range for dimension {n}");
        let mut coords = vec![Self::Scalar::zero(); n];
        coords[i] = Self::Scalar::one();
        let mut e = self.zero_like();
        e.read_coords(&coords);
        e
    }
}

/// A vector space whose dimension is known at compile time, so that a zero can be made from
/// nothing.
pub trait StaticVectorSpace: VectorSpace {
    /// The dimension.
    const DIM: usize;
    /// The zero vector.
    #[must_use]
    fn zero_vector() -> Self;
}

impl<T: RealField + Copy, const D: usize> VectorSpace for SVector<T, D> {
    type Scalar = T;
    #[inline]
    fn zero_like(&self) -> Self {
        Self::zeros()
    }
    #[inline]
    fn dim(&self) -> usize {
        D
    }
    #[inline]
    fn set_zero(&mut self) {
        self.fill(T::zero());
    }
    #[inline]
    fn add_scaled(&mut self, a: T, x: &Self) {
        for i in 0..D {
            self[i] += a * x[i];
        }
    }
    #[inline]
    fn scale_by(&mut self, a: T) {
        for i in 0..D {
            self[i] *= a;
        }
    }
    #[inline]
    fn set_scaled(&mut self, a: T, x: &Self) {
        for i in 0..D {
            self[i] = a * x[i];
        }
    }
    #[inline]
    fn inner(&self, other: &Self) -> T {
        let mut s = T::zero();
        for i in 0..D {
            s += self[i] * other[i];
        }
        s
    }
    #[inline]
    fn write_coords(&self, out: &mut [T]) {
        out[..D].copy_from_slice(self.as_slice());
    }
    #[inline]
    fn read_coords(&mut self, src: &[T]) {
        self.as_mut_slice().copy_from_slice(&src[..D]);
    }
    #[inline]
    fn max_abs(&self) -> T {
        self.iter().fold(T::zero(), |m, x| m.max(x.abs()))
    }
    #[inline]
    fn all_finite(&self) -> bool {
        self.iter().all(|x| x.is_finite())
    }
}

impl<T: RealField + Copy, const D: usize> StaticVectorSpace for SVector<T, D> {
    const DIM: usize = D;
    #[inline]
    fn zero_vector() -> Self {
        Self::zeros()
    }
}

impl<T: RealField + Copy> VectorSpace for DVector<T> {
    type Scalar = T;
    fn zero_like(&self) -> Self {
        DVector::zeros(self.len())
    }
    #[inline]
    fn dim(&self) -> usize {
        self.len()
    }
    #[inline]
    fn set_zero(&mut self) {
        self.fill(T::zero());
    }
    #[inline]
    fn add_scaled(&mut self, a: T, x: &Self) {
        assert_eq!(self.len(), x.len(), "dimension mismatch in axpy");
        for i in 0..self.len() {
            self[i] += a * x[i];
        }
    }
    #[inline]
    fn scale_by(&mut self, a: T) {
        for v in self.iter_mut() {
            *v *= a;
        }
    }
    #[inline]
    fn set_scaled(&mut self, a: T, x: &Self) {
        if self.len() != x.len() {
            *self = x * a;
            return;
        }
        for (v, xi) in self.iter_mut().zip(x.iter()) {
            *v = a * *xi;
        }
    }
    #[inline]
    fn inner(&self, other: &Self) -> T {
        assert_eq!(self.len(), other.len(), "dimension mismatch in dot");
        let mut s = T::zero();
        for i in 0..self.len() {
            s += self[i] * other[i];
        }
        s
    }
    fn write_coords(&self, out: &mut [T]) {
        out[..self.len()].copy_from_slice(self.as_slice());
    }
    fn read_coords(&mut self, src: &[T]) {
        let n = self.len();
        self.as_mut_slice().copy_from_slice(&src[..n]);
    }
    fn max_abs(&self) -> T {
        self.iter().fold(T::zero(), |m, x| m.max(x.abs()))
    }
    fn all_finite(&self) -> bool {
        self.iter().all(|x| x.is_finite())
    }
}

macro_rules! tuple_vector_space {
    ($($name:ident $idx:tt),+) => {
        impl<S: RealField + Copy, $($name: VectorSpace<Scalar = S>),+> VectorSpace for ($($name,)+) {
            type Scalar = S;
            fn zero_like(&self) -> Self {
                ($(self.$idx.zero_like(),)+)
            }
            #[inline]
            fn dim(&self) -> usize {
                0 $(+ self.$idx.dim())+
            }
            #[inline]
            fn set_zero(&mut self) {
                $(self.$idx.set_zero();)+
            }
            #[inline]
            fn add_scaled(&mut self, a: S, x: &Self) {
                $(self.$idx.add_scaled(a, &x.$idx);)+
            }
            #[inline]
            fn scale_by(&mut self, a: S) {
                $(self.$idx.scale_by(a);)+
            }
            #[inline]
            fn set_scaled(&mut self, a: S, x: &Self) {
                $(self.$idx.set_scaled(a, &x.$idx);)+
            }
            #[inline]
            fn inner(&self, other: &Self) -> S {
                S::zero() $(+ self.$idx.inner(&other.$idx))+
            }
            fn write_coords(&self, out: &mut [S]) {
                let mut off = 0;
                $(
                    let n = self.$idx.dim();
                    self.$idx.write_coords(&mut out[off..off + n]);
                    off += n;
                )+
                let _ = off;
            }
            fn read_coords(&mut self, src: &[S]) {
                let mut off = 0;
                $(
                    let n = self.$idx.dim();
                    self.$idx.read_coords(&src[off..off + n]);
                    off += n;
                )+
                let _ = off;
            }
            fn max_abs(&self) -> S {
                S::zero() $(.max(self.$idx.max_abs()))+
            }
            fn all_finite(&self) -> bool {
                true $(&& self.$idx.all_finite())+
            }
        }

        impl<S: RealField + Copy, $($name: StaticVectorSpace<Scalar = S>),+> StaticVectorSpace for ($($name,)+) {
            const DIM: usize = 0 $(+ $name::DIM)+;
            fn zero_vector() -> Self {
                ($($name::zero_vector(),)+)
            }
        }
    };
}

tuple_vector_space!(A 0, B 1);
tuple_vector_space!(A 0, B 1, C 2);
tuple_vector_space!(A 0, B 1, C 2, D 3);

impl<V: VectorSpace, const N: usize> VectorSpace for [V; N] {
    type Scalar = V::Scalar;
    fn zero_like(&self) -> Self {
        core::array::from_fn(|i| self[i].zero_like())
    }
    #[inline]
    fn dim(&self) -> usize {
        self.iter().map(VectorSpace::dim).sum()
    }
    #[inline]
    fn set_zero(&mut self) {
        factors::set_zero(self);
    }
    #[inline]
    fn add_scaled(&mut self, a: V::Scalar, x: &Self) {
        factors::add_scaled(self, a, x);
    }
    #[inline]
    fn scale_by(&mut self, a: V::Scalar) {
        factors::scale_by(self, a);
    }
    #[inline]
    fn set_scaled(&mut self, a: V::Scalar, x: &Self) {
        factors::set_scaled(self, a, x);
    }
    #[inline]
    fn inner(&self, other: &Self) -> V::Scalar {
        factors::inner(self, other)
    }
    fn write_coords(&self, out: &mut [V::Scalar]) {
        factors::write_coords(self, out);
    }
    fn read_coords(&mut self, src: &[V::Scalar]) {
        factors::read_coords(self, src);
    }
    fn max_abs(&self) -> V::Scalar {
        factors::max_abs(self)
    }
    fn all_finite(&self) -> bool {
        self.iter().all(VectorSpace::all_finite)
    }
}

impl<V: StaticVectorSpace, const N: usize> StaticVectorSpace for [V; N] {
    const DIM: usize = N * V::DIM;
    fn zero_vector() -> Self {
        core::array::from_fn(|_| V::zero_vector())
    }
}

impl<V: VectorSpace + Send + Sync> VectorSpace for Vec<V>
where
    V::Scalar: Send + Sync,
{
    type Scalar = V::Scalar;
    fn zero_like(&self) -> Self {
        par::map(self, VectorSpace::zero_like)
    }
    #[inline]
    fn dim(&self) -> usize {
        self.iter().map(VectorSpace::dim).sum()
    }
    #[inline]
    fn set_zero(&mut self) {
        par::for_each_mut(self, VectorSpace::set_zero);
    }
    #[inline]
    fn add_scaled(&mut self, a: V::Scalar, x: &Self) {
        assert_eq!(self.len(), x.len(), "dimension mismatch in add_scaled");
        par::zip_mut(self, x, |y, x| y.add_scaled(a, x));
    }
    #[inline]
    fn scale_by(&mut self, a: V::Scalar) {
        par::for_each_mut(self, |y| y.scale_by(a));
    }
    #[inline]
    fn set_scaled(&mut self, a: V::Scalar, x: &Self) {
        if self.len() == x.len() {
            par::zip_mut(self, x, |y, x| y.set_scaled(a, x));
        } else {
            self.clone_from(x);
            self.scale_by(a);
        }
    }
    /// One pass over the factors (each factor combines its terms in order: bitwise the same as
    /// the default's one pass per term).
    fn set_combination(&mut self, terms: &[(V::Scalar, &Self)]) {
        let Some((&(a0, x0), rest)) = terms.split_first() else {
            self.set_zero();
            return;
        };
        if self.len() != x0.len() {
            self.clone_from(x0);
            self.scale_by(a0);
            for &(a, x) in rest {
                self.add_scaled(a, x);
            }
            return;
        }
        for &(_, x) in rest {
            assert_eq!(self.len(), x.len(), "dimension mismatch in set_combination");
        }
        par::for_each_indexed_mut(self, |i, y| {
            y.set_scaled(a0, &x0[i]);
            for &(a, x) in rest {
                y.add_scaled(a, &x[i]);
            }
        });
    }
    #[inline]
    fn inner(&self, other: &Self) -> V::Scalar {
        // A sum: serial, in factor order (bitwise the same for any number of threads).
        factors::inner(self, other)
    }
    fn write_coords(&self, out: &mut [V::Scalar]) {
        factors::write_coords(self, out);
    }
    fn read_coords(&mut self, src: &[V::Scalar]) {
        factors::read_coords(self, src);
    }
    fn max_abs(&self) -> V::Scalar {
        factors::max_abs(self)
    }
    fn all_finite(&self) -> bool {
        par::all(self, VectorSpace::all_finite)
    }
}

/// Factor-by-factor operations shared by the array and `Vec` powers (slices of spaces).
mod factors {
    use super::VectorSpace;
    use nalgebra::RealField;
    use num_traits::Zero;

    pub fn set_zero<V: VectorSpace>(ys: &mut [V]) {
        ys.iter_mut().for_each(VectorSpace::set_zero);
    }
    pub fn add_scaled<V: VectorSpace>(ys: &mut [V], a: V::Scalar, xs: &[V]) {
        assert_eq!(ys.len(), xs.len(), "dimension mismatch in add_scaled");
        for (y, x) in ys.iter_mut().zip(xs) {
            y.add_scaled(a, x);
        }
    }
    pub fn set_scaled<V: VectorSpace>(ys: &mut [V], a: V::Scalar, xs: &[V]) {
        assert_eq!(ys.len(), xs.len(), "dimension mismatch in set_scaled");
        for (y, x) in ys.iter_mut().zip(xs) {
            y.set_scaled(a, x);
        }
    }
    pub fn scale_by<V: VectorSpace>(ys: &mut [V], a: V::Scalar) {
        for y in ys {
            y.scale_by(a);
        }
    }
    pub fn inner<V: VectorSpace>(xs: &[V], ys: &[V]) -> V::Scalar {
        assert_eq!(xs.len(), ys.len(), "dimension mismatch in inner");
        xs.iter()
            .zip(ys)
            .fold(V::Scalar::zero(), |s, (a, b)| s + a.inner(b))
    }
    pub fn write_coords<V: VectorSpace>(xs: &[V], out: &mut [V::Scalar]) {
        let mut off = 0;
        for v in xs {
            let n = v.dim();
            v.write_coords(&mut out[off..off + n]);
            off += n;
        }
    }
    pub fn read_coords<V: VectorSpace>(xs: &mut [V], src: &[V::Scalar]) {
        let mut off = 0;
        for v in xs {
            let n = v.dim();
            v.read_coords(&src[off..off + n]);
            off += n;
        }
    }
    pub fn max_abs<V: VectorSpace>(xs: &[V]) -> V::Scalar {
        xs.iter()
            .fold(V::Scalar::zero(), |m, v| RealField::max(m, v.max_abs()))
    }
}
