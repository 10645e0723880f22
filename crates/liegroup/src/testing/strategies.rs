//! proptest strategies for algebra and group elements of every group.
//!
//! The generic strategies cover any group, shipped or not: [`static_group_element`] is
//! `exp` of a random algebra element, [`group_element_like`] does the same for runtime-sized
//! groups. Norms are drawn by [`algebra_norm`], which mixes the edge cases (0, 10⁻¹⁰⁰, ~10⁻⁸,
//! within 10⁻⁶ of π when `max_norm ≥ π`) with uniform norms; directions are uniform on the
//! cube, normalized. Every strategy is generic over the scalar (f64 or dual numbers with zero
//! dual part).
//!
//! # Example
//! ```
//! use liegroup::testing::strategies::{runtime_power, static_group_element};
//! use liegroup::{LieGroup, Se2};
//! use proptest::prelude::*;
//! use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
//!
//! let config = Config { cases: 32, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() };
//! let mut runner = TestRunner::new(config);
//! runner
//!     .run(&(static_group_element::<Se2>(3.0), static_group_element::<Se2>(3.0)), |(g, h)| {
//!         let d = g.compose(&h).compose(&h.inverse()).compose(&g.inverse()).log();
//!         prop_assert!(d.norm() < 1e-13);
//!         Ok(())
//!     })
//!     .unwrap();
//! runner
//!     .run(&runtime_power::<Se2>(1..=4, 2.0), |g| {
//!         prop_assert!(!g.is_empty() && g.len() <= 4);
//!         Ok(())
//!     })
//!     .unwrap();
//! ```

use super::{SampleSet, from_coords};
use crate::group::{LieGroup, StaticLieGroup};
use crate::rn::Rn;
use crate::se2::Se2;
use crate::so2::So2;
use crate::vector_space::{StaticVectorSpace, VectorSpace};
use core::f64::consts::PI;
use core::ops::RangeInclusive;
use nalgebra::SVector;
use proptest::prelude::*;

/// Algebra norms in `[0, max_norm]`: 0, 10⁻¹⁰⁰, `[10⁻⁸, 2·10⁻⁸]` and (if `max_norm ≥ π`)
/// `[π − 10⁻⁶, π]` with probability 1/10 each, otherwise uniform.
pub fn algebra_norm(max_norm: f64) -> impl Strategy<Value = f64> {
    (0u8..10, 0.0..=1.0f64).prop_map(move |(k, t)| match k {
        0 => 0.0,
        1 => 1e-100_f64.min(max_norm),
        2 => (1e-8 * (1.0 + t)).min(max_norm),
        3 if max_norm >= PI => PI - 1e-6 * t,
        _ => max_norm * t,
    })
}

/// A unit vector in ℝᵈⁱᵐ (uniform on the cube, normalized; `e₀` if the draw is tiny).
pub fn unit_direction(dim: usize) -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(-1.0..=1.0f64, dim).prop_map(move |v| {
        let s = v.iter().map(|x| x * x).sum::<f64>().sqrt();
        if s > 1e-6 {
            v.into_iter().map(|x| x / s).collect()
        } else {
            let mut e = vec![0.0; dim];
            if dim > 0 {
                e[0] = 1.0;
            }
            e
        }
    })
}

/// Coordinates of an algebra element of dimension `dim` with norm from [`algebra_norm`].
pub fn algebra_coords(dim: usize, max_norm: f64) -> impl Strategy<Value = Vec<f64>> {
    (unit_direction(dim), algebra_norm(max_norm))
        .prop_map(|(d, r)| d.into_iter().map(|x| x * r).collect())
}

/// A vector in ℝᴰ (f64) with norm at most `max_norm`: the algebra of `Rn<f64, D>`, SO(3)
/// (D = 3), SE(2) (D = 3), SE(3) (D = 6). For other scalars use [`algebra_element`].
pub fn algebra_vector<const D: usize>(max_norm: f64) -> impl Strategy<Value = SVector<f64, D>> {
    algebra_coords(D, max_norm).prop_map(|v| SVector::<f64, D>::from_column_slice(&v))
}

/// An algebra element of a compile-time-sized group, norm at most `max_norm`.
pub fn algebra_element<G: StaticLieGroup>(max_norm: f64) -> impl Strategy<Value = G::Algebra> {
    algebra_coords(<G::Algebra as StaticVectorSpace>::DIM, max_norm)
        .prop_map(|v| from_coords(&<G::Algebra as StaticVectorSpace>::zero_vector(), &v))
}

/// An algebra element of the size of `example`'s group (runtime-sized groups).
pub fn algebra_element_like<G: LieGroup>(
    example: &G,
    max_norm: f64,
) -> impl Strategy<Value = G::Algebra> {
    let zero = example.algebra_zero();
    algebra_coords(zero.dim(), max_norm).prop_map(move |v| from_coords(&zero, &v))
}

/// `exp(ξ)` with ξ from [`algebra_element`]: a group element of any compile-time-sized group
/// (SO(3), SE(3), products and arrays included).
pub fn static_group_element<G: StaticLieGroup>(max_norm: f64) -> impl Strategy<Value = G> {
    algebra_element::<G>(max_norm).prop_map(|x| G::exp(&x))
}

/// `exp(ξ)` with ξ from [`algebra_element_like`].
pub fn group_element_like<G: LieGroup>(example: &G, max_norm: f64) -> impl Strategy<Value = G> {
    algebra_element_like(example, max_norm).prop_map(|x| G::exp(&x))
}

/// A runtime power `Vec<G>` with a number of factors in `len`, each from
/// [`static_group_element`].
pub fn runtime_power<G: StaticLieGroup>(
    len: RangeInclusive<usize>,
    max_norm: f64,
) -> impl Strategy<Value = Vec<G>> {
    proptest::collection::vec(static_group_element::<G>(max_norm), len)
}

/// An algebra element of a runtime power with a number of factors in `len`.
pub fn runtime_power_algebra<G: StaticLieGroup>(
    len: RangeInclusive<usize>,
    max_norm: f64,
) -> impl Strategy<Value = Vec<G::Algebra>> {
    proptest::collection::vec(algebra_element::<G>(max_norm), len)
}

/// A rotation in SO(2) (f64) with angle in `[−max_angle, max_angle]` (edge cases included).
/// Other scalars: `static_group_element::<So2<T>>`.
pub fn so2(max_angle: f64) -> impl Strategy<Value = So2> {
    static_group_element::<So2>(max_angle)
}

/// A rigid motion in SE(2) (f64), `exp(ω, v)` with `|(ω, v)| ≤ max_norm`.
pub fn se2(max_norm: f64) -> impl Strategy<Value = Se2> {
    static_group_element::<Se2>(max_norm)
}

/// A vector in `Rn<f64, D>` with norm at most `max_norm`.
pub fn rn<const D: usize>(max_norm: f64) -> impl Strategy<Value = Rn<f64, D>> {
    static_group_element::<Rn<f64, D>>(max_norm)
}

/// A random sample set for the kit: `count` group elements and `count` algebra elements
/// drawn as above (the identity is not added). Run [`check_group`](super::check_group) on
/// it inside a proptest to search beyond the curated samples.
pub fn sample_set<G: StaticLieGroup>(
    count: usize,
    max_norm: f64,
) -> impl Strategy<Value = SampleSet<G>> {
    let n = count.max(1);
    (
        proptest::collection::vec(static_group_element::<G>(max_norm), n),
        proptest::collection::vec(algebra_element::<G>(max_norm), n),
    )
        .prop_map(|(g, a)| SampleSet::custom(g, a).expect("non-empty, equally sized samples"))
}
