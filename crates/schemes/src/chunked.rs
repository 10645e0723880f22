//! Reading a fixed-size start point in the 16-byte pieces its caller most likely wrote.
//!
//! A step usually starts from a point the caller has just stored: the previous step's result,
//! copied (`y = stepper.step(…, &y, …)?.y`), which compilers do in 16-byte pieces from the
//! start of the value. A processor hands a pending store to a later load only when the load
//! lies inside that one store; a load that straddles two stores waits until both have reached
//! the cache, so that the next step cannot start before the previous one has retired. The
//! compiler lays out the kernel's own loads for its arithmetic: for a 3 × 3 matrix stored by
//! columns, pairs from one column or one row, such as `R₁₂, R₂₂` at bytes 24–39, which
//! straddles the caller's pieces 16–31 and 32–47. The kernels therefore read a packed point
//! ([`Action::packed_point`]) in the caller's pieces, through an empty `asm!` that keeps the
//! compiler from merging the copy back into its own loads. Measured in `docs/performance.md`:
//! the body-frame heavy-top RKMK4 step from 88 to 80 ns.

use crate::stepper::Scalar;
use homogeneous::Action;

/// A copy of `p` read in 16-byte pieces from its start (x86-64, `f64` points of up to
/// [`MAX_SCALARS`] scalars whose action promises [`Action::packed_point`]); `None` otherwise,
/// and the kernel reads `p` itself. The copy is bitwise `p`.
#[inline(always)]
pub(crate) fn chunked_copy<A: Action>(p: &A::Point) -> Option<A::Point> {
    #[cfg(target_arch = "x86_64")]
    {
        x86::copy::<A::Point, Scalar<A>>(A::packed_point(), p)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = p;
        None
    }
}

/// The largest point (in scalars) read in pieces; larger fixed-size points are read directly.
pub(crate) const MAX_SCALARS: usize = 64;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::MAX_SCALARS;
    use core::any::TypeId;
    use core::arch::x86_64::{_mm_load_sd, _mm_loadu_pd, _mm_store_sd, _mm_storeu_pd};
    use core::mem::{MaybeUninit, size_of};
    use homogeneous::PackedScalars;

    /// `packed`: the promise that `P` is made of scalars of type `S` only.
    #[inline(always)]
    pub(super) fn copy<P, S: 'static>(packed: Option<PackedScalars>, p: &P) -> Option<P> {
        let n = packed?.len();
        if TypeId::of::<S>() != TypeId::of::<f64>()
            || size_of::<P>() != n * size_of::<f64>()
            || n == 0
            || n > MAX_SCALARS
        {
            return None;
        }
        let mut out = MaybeUninit::<P>::uninit();
        let src = (p as *const P).cast::<f64>();
        let dst = out.as_mut_ptr().cast::<f64>();
        let mut k = 0;
        while k + 2 <= n {
            // SAFETY: `P` is `n` values of `f64` and nothing else (the `PackedScalars` promise,
            // with its size checked above), so both pointers address `n` valid `f64` slots and
            // `k + 2 ≤ n`; SSE2 is part of x86-64. The `asm!` is empty: it only hides the value
            // from the optimiser, which would otherwise load the pieces in its own layout.
            unsafe {
                let mut v = _mm_loadu_pd(src.add(k));
                core::arch::asm!("/* {0} */", inout(xmm_reg) v,
                    options(pure, nomem, nostack, preserves_flags));
                _mm_storeu_pd(dst.add(k), v);
            }
            k += 2;
        }
        if k < n {
            // SAFETY: as above, for the last scalar `k = n − 1`.
            unsafe {
                let mut v = _mm_load_sd(src.add(k));
                core::arch::asm!("/* {0} */", inout(xmm_reg) v,
                    options(pure, nomem, nostack, preserves_flags));
                _mm_store_sd(dst.add(k), v);
            }
        }
        // SAFETY: every byte of `out` has been written with the bytes of the valid value `*p`,
        // and a `P` made of scalars only is valid as any copy of its bytes.
        Some(unsafe { out.assume_init() })
    }
}

/// `let y = …`: rebinds the start point `y: &P` of a fixed-size kernel to a copy read in
/// 16-byte pieces ([`chunked_copy`]) when the point allows it.
macro_rules! read_in_pieces {
    ($y:ident) => {
        let copy;
        let $y = match $crate::chunked::chunked_copy::<A>($y) {
            Some(p) => {
                copy = p;
                &copy
            }
            None => $y,
        };
    };
}
pub(crate) use read_in_pieces;

#[cfg(test)]
mod tests {
    use super::chunked_copy;
    use homogeneous::{
        Action, LeftMultiplication, PowerAction, RightMultiplication, RotationAction, Sphere2,
        TangentSphere2, TangentSphereAction, VecPowerAction,
    };
    use liegroup::num_dual::Dual64;
    use liegroup::{LieGroup, R3, Rn, Se3, So3};
    use nalgebra::{Matrix3, Vector3};

    /// Bit patterns that an arithmetic copy would not keep: signed zeros, subnormals, NaN
    /// payloads, infinities.
    fn awkward(k: usize) -> f64 {
        [
            -0.0,
            f64::from_bits(1),
            f64::from_bits(0x7ff8_0000_dead_beef),
            f64::NEG_INFINITY,
            1.0 / 3.0,
            -2.5e300,
        ][k % 6]
    }

    fn bits_of<A: Action>(p: &A::Point) -> Vec<u64> {
        let n = core::mem::size_of::<A::Point>() / 8;
        // SAFETY: test points are `n` f64 (checked by the layout tests of `homogeneous`).
        let s = unsafe { core::slice::from_raw_parts((p as *const A::Point).cast::<u64>(), n) };
        s.to_vec()
    }

    fn same_bits<A: Action>(p: &A::Point) {
        let copy = chunked_copy::<A>(p);
        if cfg!(target_arch = "x86_64") {
            let copy = copy.expect("a packed f64 point");
            assert_eq!(bits_of::<A>(&copy), bits_of::<A>(p));
        } else {
            assert!(copy.is_none());
        }
    }

    #[test]
    fn copies_are_bitwise() {
        let m = Matrix3::from_fn(|i, j| awkward(3 * j + i));
        let r = So3::from_matrix_unchecked(m);
        // 12 scalars: six pieces.
        same_bits::<(RightMultiplication<So3<f64>>, LeftMultiplication<R3<f64>>)>(&(
            r,
            Rn::new(Vector3::new(awkward(1), awkward(2), awkward(5))),
        ));
        // 9 scalars: four pieces and a last scalar.
        same_bits::<LeftMultiplication<So3<f64>>>(&r);
        // 3 scalars.
        let q = Sphere2::try_new(Vector3::new(0.0, -0.0, 1.0)).unwrap();
        same_bits::<RotationAction<f64>>(&q);
        // 12 scalars in an array of two tangent-sphere points.
        let ts = TangentSphere2::try_new(Vector3::x(), Vector3::new(-0.0, 2.0, 3.0)).unwrap();
        same_bits::<PowerAction<TangentSphereAction<f64>, 2>>(&[ts, ts]);
        same_bits::<LeftMultiplication<Se3<f64>>>(&Se3::exp(&nalgebra::Vector6::new(
            0.1, 0.2, 0.3, 0.4, 0.5, 0.6,
        )));
    }

    #[test]
    fn only_packed_f64_points_are_copied() {
        let q = Sphere2::try_new(Vector3::z()).unwrap();
        assert!(chunked_copy::<VecPowerAction<RotationAction<f64>>>(&vec![q; 3]).is_none());
        let q32 = Sphere2::try_new(Vector3::<f32>::z()).unwrap();
        assert!(chunked_copy::<RotationAction<f32>>(&q32).is_none());
        let r = So3::<Dual64>::identity();
        assert!(chunked_copy::<LeftMultiplication<So3<Dual64>>>(&r).is_none());
        // Larger than `MAX_SCALARS`.
        let big = [So3::<f64>::identity(); 8];
        assert!(chunked_copy::<LeftMultiplication<[So3<f64>; 8]>>(&big).is_none());
    }
}
