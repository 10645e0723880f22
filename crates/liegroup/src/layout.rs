//! The memory layout promise of fixed-size group elements and points ([`PackedScalars`]).

/// The promise that a point type is made of `n` scalars and nothing else, returned by
/// `ManifoldPoint::packed_scalars` (crate `homogeneous`) and [`LieGroup::packed_scalars`](crate::LieGroup::packed_scalars).
///
/// Why it exists: an integrator step reads its start point from memory that the caller has
/// just written, typically by copying the previous step's result (`y = step(&y)?.y`), which
/// compilers do in 16-byte pieces. A processor forwards a pending store to a later load only
/// when the load lies inside that one store; a load that straddles two of them waits until
/// both have reached the cache, which serialises consecutive steps. Compilers lay out the loads
/// of a 3 × 3 matrix by rows or by columns (an 8-byte element, a 16-byte pair, …), and some of
/// those pairs straddle the caller's 16-byte pieces. Knowing that the point is `n` scalars, the
/// fixed-size kernels of `schemes` read it in the caller's 16-byte pieces instead (on x86-64,
/// for `f64` points; measured in `docs/performance.md`).
///
/// It can only be made through the `unsafe` [`PackedScalars::new`], because a wrong promise
/// would let a kernel read padding bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedScalars(usize);

impl PackedScalars {
    /// The promise for `n` scalars.
    ///
    /// # Safety
    /// The type it is returned for must consist of exactly `n` values of its scalar type, with
    /// no other fields, no padding bytes and nothing owned elsewhere (so that a copy of its
    /// bytes is a valid value): for example a struct of `nalgebra` fixed-size vectors and
    /// matrices of that scalar, or a tuple or array of such types.
    #[must_use]
    pub const unsafe fn new(n: usize) -> Self {
        Self(n)
    }

    /// The promise for `n` scalars of type `S` if `T` has their size, `None` otherwise (a guard
    /// against a miscounted `n`).
    ///
    /// # Safety
    /// `T` must consist of values of type `S` only, as [`new`](Self::new) requires.
    #[must_use]
    #[inline]
    pub unsafe fn sized<T, S>(n: usize) -> Option<Self> {
        (core::mem::size_of::<T>() == n * core::mem::size_of::<S>()).then_some(Self(n))
    }

    /// The number of scalars.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0
    }

    /// `true` for a type of no scalars.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The promise for a type made of these types one after the other, if its size is the sum
    /// of theirs (so no padding was added between them): tuples and arrays of packed points.
    ///
    /// # Safety
    /// `T` must consist of the values promised by `parts` and nothing else, apart from padding
    /// (which the size test rules out).
    #[must_use]
    pub unsafe fn concat<T, S>(parts: &[Option<Self>]) -> Option<Self> {
        let mut n = 0;
        for p in parts {
            n += p.as_ref()?.0;
        }
        (core::mem::size_of::<T>() == n * core::mem::size_of::<S>()).then_some(Self(n))
    }
}
