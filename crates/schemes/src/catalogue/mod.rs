//! The catalogue: every method as a `pub const`, with name, order and reference key (see the
//! crate docs for the keys), and the lists [`TABLEAUX`] and [`COMMUTATOR_FREE`] for iteration.
//!
//! Every entry is checked by the tests: [`ButcherTableau::validate`] /
//! [`CommutatorFreeScheme::validate`], and the order conditions of [`crate::OrderChecker`]:
//! each tableau satisfies the conditions of its stated order and violates some of the next;
//! embedded weights likewise at their order; the continuous extension of [`DOPRI54`] has order
//! 4 at every θ; the abelian collapse of every commutator-free scheme satisfies the classical
//! conditions of the stated order (necessary conditions only), and every commutator-free,
//! Crouch–Grossman and two-commutator scheme satisfies the Lie group conditions on ordered
//! forests of [`crate::LieOrderChecker`] at its order and violates some of the next.
//!
//! Coefficients are written as in the literature, as fractions (`1.0 / 6.0`) where the
//! literature gives fractions. Irrational coefficients (Gauss–Legendre) use [`SQRT_3`] and
//! [`SQRT_15`], written to more digits than `f64` holds; [`CG4`] uses the 16-digit decimals of
//! \[JMO00\] (`docs/references.md`).

use crate::commutator_free::{Base, CfEmbedded, CfStage, CommutatorFreeScheme, ExpProduct};
use crate::tableau::{ButcherTableau, ContinuousExtension, EmbeddedWeights};

mod high_order;
pub use crate::rkmk4_2c::RKMK4_TWO_COMMUTATORS;
pub use high_order::{DOP853, TSIT54, VERN65, VERN76, VERN87};

/// √3 correctly rounded to `f64` (`f64::sqrt` is not `const`).
pub const SQRT_3: f64 = 1.732_050_807_568_877_293_527_446_341_505_872_366_942_805_253_810_380_6;
/// √15 correctly rounded to `f64`.
pub const SQRT_15: f64 = 3.872_983_346_207_416_885_179_265_399_782_399_610_832_921_705_291_590_8;

// ------------------------------------------------------------------------------------------
// Explicit Runge–Kutta methods
// ------------------------------------------------------------------------------------------

/// Explicit Euler, order 1 \[Eul68\]. Under RKMK it is the **Lie–Euler** method
/// `y₁ = exp(h f(y₀))·y₀` (see also [`LIE_EULER`]).
///
/// ```text
///  0 │
/// ───┼──
///    │ 1
/// ```
pub const EULER: ButcherTableau = ButcherTableau {
    name: "Euler",
    order: 1,
    reference: "[Eul68]",
    a: &[&[]],
    b: &[1.0],
    c: &[0.0],
    embedded: None,
    dense_output: None,
};

/// Heun's method (RK2, explicit trapezoidal rule), order 2 \[Heu00\].
///
/// ```text
///  0 │
///  1 │ 1
/// ───┼─────────
///    │ 1/2  1/2
/// ```
pub const HEUN: ButcherTableau = ButcherTableau {
    name: "Heun",
    order: 2,
    reference: "[Heu00]",
    a: &[&[], &[1.0]],
    b: &[1.0 / 2.0, 1.0 / 2.0],
    c: &[0.0, 1.0],
    embedded: None,
    dense_output: None,
};

/// The explicit midpoint rule (Runge's method), order 2 \[Run95\].
///
/// ```text
///   0  │
///  1/2 │ 1/2
/// ─────┼───────
///      │ 0   1
/// ```
pub const MIDPOINT: ButcherTableau = ButcherTableau {
    name: "Midpoint",
    order: 2,
    reference: "[Run95]",
    a: &[&[], &[1.0 / 2.0]],
    b: &[0.0, 1.0],
    c: &[0.0, 1.0 / 2.0],
    embedded: None,
    dense_output: None,
};

/// Kutta's third-order method \[Kut01\].
///
/// ```text
///   0  │
///  1/2 │ 1/2
///   1  │ -1    2
/// ─────┼───────────────
///      │ 1/6  2/3  1/6
/// ```
pub const KUTTA3: ButcherTableau = ButcherTableau {
    name: "Kutta 3",
    order: 3,
    reference: "[Kut01]",
    a: &[&[], &[1.0 / 2.0], &[-1.0, 2.0]],
    b: &[1.0 / 6.0, 2.0 / 3.0, 1.0 / 6.0],
    c: &[0.0, 1.0 / 2.0, 1.0],
    embedded: None,
    dense_output: None,
};

/// Ralston's third-order method (minimum error bound) \[Ral62\]; its weights are those of the
/// Bogacki–Shampine pair.
///
/// ```text
///   0  │
///  1/2 │ 1/2
///  3/4 │ 0    3/4
/// ─────┼───────────────
///      │ 2/9  1/3  4/9
/// ```
pub const RALSTON3: ButcherTableau = ButcherTableau {
    name: "Ralston 3",
    order: 3,
    reference: "[Ral62]",
    a: &[&[], &[1.0 / 2.0], &[0.0, 3.0 / 4.0]],
    b: &[2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0],
    c: &[0.0, 1.0 / 2.0, 3.0 / 4.0],
    embedded: None,
    dense_output: None,
};

/// The classical fourth-order Runge–Kutta method \[Kut01\].
///
/// ```text
///   0  │
///  1/2 │ 1/2
///  1/2 │ 0    1/2
///   1  │ 0    0    1
/// ─────┼────────────────────
///      │ 1/6  1/3  1/3  1/6
/// ```
pub const RK4: ButcherTableau = ButcherTableau {
    name: "RK4",
    order: 4,
    reference: "[Kut01]",
    a: &[&[], &[1.0 / 2.0], &[0.0, 1.0 / 2.0], &[0.0, 0.0, 1.0]],
    b: &[1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0],
    c: &[0.0, 1.0 / 2.0, 1.0 / 2.0, 1.0],
    embedded: None,
    dense_output: None,
};

/// Kutta's 3/8 rule, order 4 \[Kut01\].
///
/// ```text
///   0  │
///  1/3 │ 1/3
///  2/3 │ -1/3  1
///   1  │ 1    -1    1
/// ─────┼──────────────────────
///      │ 1/8   3/8   3/8  1/8
/// ```
pub const RK38: ButcherTableau = ButcherTableau {
    name: "3/8 rule",
    order: 4,
    reference: "[Kut01]",
    a: &[&[], &[1.0 / 3.0], &[-1.0 / 3.0, 1.0], &[1.0, -1.0, 1.0]],
    b: &[1.0 / 8.0, 3.0 / 8.0, 3.0 / 8.0, 1.0 / 8.0],
    c: &[0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0],
    embedded: None,
    dense_output: None,
};

const BS32_B: [f64; 4] = [2.0 / 9.0, 1.0 / 3.0, 4.0 / 9.0, 0.0];

/// The Bogacki–Shampine 3(2) pair \[BS89\]: order 3 with an embedded order-2 solution, FSAL
/// (the last row of `A` is `b`).
///
/// ```text
///   0  │
///  1/2 │ 1/2
///  3/4 │ 0     3/4
///   1  │ 2/9   1/3   4/9
/// ─────┼────────────────────────
///      │ 2/9   1/3   4/9   0
///      │ 7/24  1/4   1/3   1/8      (b̂, order 2)
/// ```
pub const BOGACKI_SHAMPINE32: ButcherTableau = ButcherTableau {
    name: "Bogacki–Shampine 3(2)",
    order: 3,
    reference: "[BS89]",
    a: &[&[], &[1.0 / 2.0], &[0.0, 3.0 / 4.0], &BS32_B],
    b: &BS32_B,
    c: &[0.0, 1.0 / 2.0, 3.0 / 4.0, 1.0],
    embedded: Some(EmbeddedWeights {
        b_hat: &[7.0 / 24.0, 1.0 / 4.0, 1.0 / 3.0, 1.0 / 8.0],
        order: 2,
    }),
    dense_output: None,
};

const DOPRI54_B: [f64; 7] = [
    35.0 / 384.0,
    0.0,
    500.0 / 1113.0,
    125.0 / 192.0,
    -2187.0 / 6784.0,
    11.0 / 84.0,
    0.0,
];

/// The coefficients `d_i` of Shampine's dense output for Dormand–Prince 5(4) \[Sha86\],
/// \[HNW93 II.6\] (the values used in Hairer's DOPRI5).
const DOPRI54_D: [f64; 7] = [
    -12_715_105_075.0 / 11_282_082_432.0,
    0.0,
    87_487_479_700.0 / 32_700_410_799.0,
    -10_690_763_975.0 / 1_880_347_072.0,
    701_980_252_875.0 / 199_316_789_632.0,
    -1_453_857_185.0 / 822_651_844.0,
    69_997_945.0 / 29_380_423.0,
];

/// The dense-output polynomial of stage `i` of Dormand–Prince 5(4), coefficients of θ … θ⁴.
///
/// Hairer's form \[HNW93 II.6\] of Shampine's interpolant,
/// `u(θ) = y₀ + θ(Δ + (1−θ)(hk₁' − Δ + θ(2Δ − hk₁' − hk₇' + (1−θ)h Σ d_i k_i')))` with
/// `Δ = y₁ − y₀ = h Σ b_i k_i'` (`k_i'` the stage slopes), expands to
/// `b_i(θ) = δ_i1 θ + (3b_i − 2δ_i1 − δ_i7 + d_i) θ² + (−2b_i + δ_i1 + δ_i7 − 2d_i) θ³ + d_i θ⁴`.
const fn dopri54_dense_row(i: usize) -> [f64; 4] {
    let b = DOPRI54_B[i];
    let d = DOPRI54_D[i];
    let e1 = if i == 0 { 1.0 } else { 0.0 };
    let e7 = if i == 6 { 1.0 } else { 0.0 };
    [
        e1,
        3.0 * b - 2.0 * e1 - e7 + d,
        -2.0 * b + e1 + e7 - 2.0 * d,
        d,
    ]
}

const DOPRI54_DENSE: [[f64; 4]; 7] = [
    dopri54_dense_row(0),
    dopri54_dense_row(1),
    dopri54_dense_row(2),
    dopri54_dense_row(3),
    dopri54_dense_row(4),
    dopri54_dense_row(5),
    dopri54_dense_row(6),
];

/// The Dormand–Prince 5(4) pair \[DP80\] (DOPRI5), FSAL, with Shampine's continuous extension
/// of order 4 \[Sha86\], \[HNW93 II.6\] (see [`ContinuousExtension`]; `b_i(θ)` are quartic
/// polynomials, coefficients computed in a `const fn` from `b` and the `d_i` of \[HNW93 II.6\]).
/// Used by RKMK(5,4) \[CCLMO22 §5.3\].
///
/// ```text
///   0   │
///  1/5  │ 1/5
///  3/10 │ 3/40        9/40
///  4/5  │ 44/45      -56/15       32/9
///  8/9  │ 19372/6561 -25360/2187  64448/6561  -212/729
///   1   │ 9017/3168  -355/33      46732/5247   49/176   -5103/18656
///   1   │ 35/384      0           500/1113     125/192  -2187/6784    11/84
/// ──────┼──────────────────────────────────────────────────────────────────────────
///       │ 35/384      0           500/1113     125/192  -2187/6784    11/84     0
///       │ 5179/57600  0           7571/16695   393/640  -92097/339200 187/2100  1/40  (b̂, order 4)
/// ```
pub const DOPRI54: ButcherTableau = ButcherTableau {
    name: "Dormand–Prince 5(4)",
    order: 5,
    reference: "[DP80]",
    a: &[
        &[],
        &[1.0 / 5.0],
        &[3.0 / 40.0, 9.0 / 40.0],
        &[44.0 / 45.0, -56.0 / 15.0, 32.0 / 9.0],
        &[
            19372.0 / 6561.0,
            -25360.0 / 2187.0,
            64448.0 / 6561.0,
            -212.0 / 729.0,
        ],
        &[
            9017.0 / 3168.0,
            -355.0 / 33.0,
            46732.0 / 5247.0,
            49.0 / 176.0,
            -5103.0 / 18656.0,
        ],
        &DOPRI54_B,
    ],
    b: &DOPRI54_B,
    c: &[0.0, 1.0 / 5.0, 3.0 / 10.0, 4.0 / 5.0, 8.0 / 9.0, 1.0, 1.0],
    embedded: Some(EmbeddedWeights {
        b_hat: &[
            5179.0 / 57600.0,
            0.0,
            7571.0 / 16695.0,
            393.0 / 640.0,
            -92097.0 / 339200.0,
            187.0 / 2100.0,
            1.0 / 40.0,
        ],
        order: 4,
    }),
    dense_output: Some(ContinuousExtension {
        order: 4,
        reference: "[HNW93 II.6]",
        coefficients: &[
            &DOPRI54_DENSE[0],
            &DOPRI54_DENSE[1],
            &DOPRI54_DENSE[2],
            &DOPRI54_DENSE[3],
            &DOPRI54_DENSE[4],
            &DOPRI54_DENSE[5],
            &DOPRI54_DENSE[6],
        ],
    }),
};

/// Butcher's seven-stage method of order 6 \[But64a\], as reproduced in \[HNW93 II.5\] (seven
/// stages is the minimum for order 6 \[HNW93 II.5\]).
///
/// ```text
///   0  │
///  1/3 │ 1/3
///  2/3 │ 0         2/3
///  1/3 │ 1/12      1/3     -1/12
///  5/6 │ 25/48    -55/24    35/48    15/8
///  1/6 │ 3/20     -11/24   -1/8      1/2      1/10
///   1  │ -261/260  33/13    43/156  -118/39   32/195  80/39
/// ─────┼───────────────────────────────────────────────────────────
///      │ 13/200    0        11/40    11/40    4/25    4/25   13/200
/// ```
pub const BUTCHER6: ButcherTableau = ButcherTableau {
    name: "Butcher 6",
    order: 6,
    reference: "[But64a]",
    a: &[
        &[],
        &[1.0 / 3.0],
        &[0.0, 2.0 / 3.0],
        &[1.0 / 12.0, 1.0 / 3.0, -1.0 / 12.0],
        &[25.0 / 48.0, -55.0 / 24.0, 35.0 / 48.0, 15.0 / 8.0],
        &[3.0 / 20.0, -11.0 / 24.0, -1.0 / 8.0, 1.0 / 2.0, 1.0 / 10.0],
        &[
            -261.0 / 260.0,
            33.0 / 13.0,
            43.0 / 156.0,
            -118.0 / 39.0,
            32.0 / 195.0,
            80.0 / 39.0,
        ],
    ],
    b: &[
        13.0 / 200.0,
        0.0,
        11.0 / 40.0,
        11.0 / 40.0,
        4.0 / 25.0,
        4.0 / 25.0,
        13.0 / 200.0,
    ],
    c: &[
        0.0,
        1.0 / 3.0,
        2.0 / 3.0,
        1.0 / 3.0,
        5.0 / 6.0,
        1.0 / 6.0,
        1.0,
    ],
    embedded: None,
    dense_output: None,
};

// ------------------------------------------------------------------------------------------
// Implicit Runge–Kutta methods: Gauss–Legendre collocation
// ------------------------------------------------------------------------------------------

/// The one-stage Gauss–Legendre method (implicit midpoint rule), order 2 \[But64b\],
/// \[HLW06 II.1\].
///
/// ```text
///  1/2 │ 1/2
/// ─────┼─────
///      │ 1
/// ```
pub const GAUSS_LEGENDRE2: ButcherTableau = ButcherTableau {
    name: "Gauss–Legendre 2",
    order: 2,
    reference: "[But64b]",
    a: &[&[1.0 / 2.0]],
    b: &[1.0],
    c: &[1.0 / 2.0],
    embedded: None,
    dense_output: None,
};

/// The two-stage Gauss–Legendre method, order 4 \[But64b\], \[HNW93 II.7, Table 7.4\].
///
/// ```text
///  1/2 − √3/6 │ 1/4          1/4 − √3/6
///  1/2 + √3/6 │ 1/4 + √3/6   1/4
/// ────────────┼─────────────────────────
///             │ 1/2          1/2
/// ```
pub const GAUSS_LEGENDRE4: ButcherTableau = ButcherTableau {
    name: "Gauss–Legendre 4",
    order: 4,
    reference: "[But64b]",
    a: &[
        &[1.0 / 4.0, 1.0 / 4.0 - SQRT_3 / 6.0],
        &[1.0 / 4.0 + SQRT_3 / 6.0, 1.0 / 4.0],
    ],
    b: &[1.0 / 2.0, 1.0 / 2.0],
    c: &[1.0 / 2.0 - SQRT_3 / 6.0, 1.0 / 2.0 + SQRT_3 / 6.0],
    embedded: None,
    dense_output: None,
};

/// The three-stage Gauss–Legendre method, order 6 \[But64b\], \[HNW93 II.7, Table 7.5\].
///
/// ```text
///  1/2 − √15/10 │ 5/36           2/9 − √15/15   5/36 − √15/30
///  1/2          │ 5/36 + √15/24  2/9            5/36 − √15/24
///  1/2 + √15/10 │ 5/36 + √15/30  2/9 + √15/15   5/36
/// ──────────────┼─────────────────────────────────────────────
///               │ 5/18           4/9            5/18
/// ```
pub const GAUSS_LEGENDRE6: ButcherTableau = ButcherTableau {
    name: "Gauss–Legendre 6",
    order: 6,
    reference: "[But64b]",
    a: &[
        &[
            5.0 / 36.0,
            2.0 / 9.0 - SQRT_15 / 15.0,
            5.0 / 36.0 - SQRT_15 / 30.0,
        ],
        &[
            5.0 / 36.0 + SQRT_15 / 24.0,
            2.0 / 9.0,
            5.0 / 36.0 - SQRT_15 / 24.0,
        ],
        &[
            5.0 / 36.0 + SQRT_15 / 30.0,
            2.0 / 9.0 + SQRT_15 / 15.0,
            5.0 / 36.0,
        ],
    ],
    b: &[5.0 / 18.0, 4.0 / 9.0, 5.0 / 18.0],
    c: &[
        1.0 / 2.0 - SQRT_15 / 10.0,
        1.0 / 2.0,
        1.0 / 2.0 + SQRT_15 / 10.0,
    ],
    embedded: None,
    dense_output: None,
};

/// Every Butcher tableau of the catalogue, for iteration (tests, reports, CLI).
pub const TABLEAUX: &[&ButcherTableau] = &[
    &EULER,
    &HEUN,
    &MIDPOINT,
    &KUTTA3,
    &RALSTON3,
    &RK4,
    &RK38,
    &BOGACKI_SHAMPINE32,
    &DOPRI54,
    &BUTCHER6,
    &TSIT54,
    &VERN65,
    &VERN76,
    &VERN87,
    &DOP853,
    &GAUSS_LEGENDRE2,
    &GAUSS_LEGENDRE4,
    &GAUSS_LEGENDRE6,
];

// ------------------------------------------------------------------------------------------
// Commutator-free and Crouch–Grossman methods (layout: see `crate::commutator_free`)
// ------------------------------------------------------------------------------------------

/// Lie–Euler in commutator-free form: `y₁ = exp(k₁)·y₀`, order 1 (the same method as RKMK
/// with [`EULER`]).
pub const LIE_EULER: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "Lie–Euler",
    order: 1,
    reference: "[MK99]",
    stages: &[CfStage::new(0.0, ExpProduct::START)],
    update: ExpProduct::new(Base::Start, &[&[1.0]]),
    embedded: None,
};

const CF3_STAGES: &[CfStage] = &[
    // Y₁ = y₀
    CfStage::new(0.0, ExpProduct::START),
    // Y₂ = exp(k₁/3)·y₀
    CfStage::new(1.0 / 3.0, ExpProduct::new(Base::Start, &[&[1.0 / 3.0]])),
    // Y₃ = exp(2k₂/3)·y₀
    CfStage::new(
        2.0 / 3.0,
        ExpProduct::new(Base::Start, &[&[0.0, 2.0 / 3.0]]),
    ),
];

/// y₁ = exp(−k₁/12 + 3k₃/4)·Y₂ (reuses exp(k₁/3) from Y₂).
const CF3_UPDATE: ExpProduct = ExpProduct::new(Base::Stage(1), &[&[-1.0 / 12.0, 0.0, 3.0 / 4.0]]);

/// CF3, the third-order commutator-free method \[CMO03\], `c = (0, ⅓, ⅔)`:
///
/// ```text
///     Y₂ = exp(k₁/3)·y₀,  Y₃ = exp(2k₂/3)·y₀,  y₁ = exp(−k₁/12 + 3k₃/4)·Y₂.
/// ```
///
/// Three evaluations of `f`, three exponentials. Abelian collapse: Heun's third-order method
/// (`b = (¼, 0, ¾)`).
pub const CF3: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CF3",
    order: 3,
    reference: "[CMO03]",
    stages: CF3_STAGES,
    update: CF3_UPDATE,
    embedded: None,
};

/// The CF 3(2) pair: [`CF3`] with the second-order companion `ŷ₁ = exp(½k₂ + ½k₃)·y₀` on the
/// same stages (one of the \[CO19\] pairs, as shown in \[CCLMO22 §4.2.1\]). The error estimate
/// compares `y₁` and `ŷ₁` by a group or manifold distance.
pub const CF32: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CF 3(2)",
    order: 3,
    reference: "[CO19]",
    stages: CF3_STAGES,
    update: CF3_UPDATE,
    embedded: Some(CfEmbedded {
        order: 2,
        update: ExpProduct::new(Base::Start, &[&[0.0, 1.0 / 2.0, 1.0 / 2.0]]),
    }),
};

/// y₁ = exp((−k₁ + 2k₂ + 2k₃ + 3k₄)/12)·exp((3k₁ + 2k₂ + 2k₃ − k₄)/12)·y₀ (first factor
/// listed acts first).
const CF4_UPDATE: ExpProduct = ExpProduct::new(
    Base::Start,
    &[
        &[3.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, -1.0 / 12.0],
        &[-1.0 / 12.0, 2.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0],
    ],
);

/// CF4, the fourth-order commutator-free method of Celledoni, Marthinsen and Owren \[CMO03\],
/// `c = (0, ½, ½, 1)`; four evaluations of `f`, five exponentials. Written out, with its data
/// layout, in the [`crate::commutator_free`] module docs. Abelian collapse: [`RK4`].
pub const CF4: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CF4",
    order: 4,
    reference: "[CMO03]",
    stages: &[
        // Y₁ = y₀
        CfStage::new(0.0, ExpProduct::START),
        // Y₂ = exp(½k₁)·y₀
        CfStage::new(1.0 / 2.0, ExpProduct::new(Base::Start, &[&[1.0 / 2.0]])),
        // Y₃ = exp(½k₂)·y₀
        CfStage::new(
            1.0 / 2.0,
            ExpProduct::new(Base::Start, &[&[0.0, 1.0 / 2.0]]),
        ),
        // Y₄ = exp(k₃ − ½k₁)·Y₂
        CfStage::new(
            1.0,
            ExpProduct::new(Base::Stage(1), &[&[-1.0 / 2.0, 0.0, 1.0]]),
        ),
    ],
    update: CF4_UPDATE,
    embedded: None,
};

/// The CF 4(3) pair \[CCLMO22 eq. 34\]: [`CF4`] plus an extra stage `Ȳ₃ = exp(¾k₂)·y₀` at
/// `c = ¾` (stage 5 here, `k̄₃ = k₅`), used only by the third-order update
/// `ŷ₁ = exp((−k₁ + 3k₂ + 4k̄₃)/9)·exp(⅓k₁)·y₀`. Five evaluations of `f`, eight
/// exponentials per step for the pair. Abelian collapse of `ŷ₁`: Ralston's third-order
/// weights `(2/9, 1/3, 4/9)` on the nodes `(0, ½, ¾)`.
pub const CF43: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CF 4(3)",
    order: 4,
    reference: "[CCLMO22]",
    stages: &[
        CfStage::new(0.0, ExpProduct::START),
        CfStage::new(1.0 / 2.0, ExpProduct::new(Base::Start, &[&[1.0 / 2.0]])),
        CfStage::new(
            1.0 / 2.0,
            ExpProduct::new(Base::Start, &[&[0.0, 1.0 / 2.0]]),
        ),
        CfStage::new(
            1.0,
            ExpProduct::new(Base::Stage(1), &[&[-1.0 / 2.0, 0.0, 1.0]]),
        ),
        // Ȳ₃ = exp(¾k₂)·y₀
        CfStage::new(
            3.0 / 4.0,
            ExpProduct::new(Base::Start, &[&[0.0, 3.0 / 4.0]]),
        ),
    ],
    update: CF4_UPDATE,
    embedded: Some(CfEmbedded {
        order: 3,
        update: ExpProduct::new(
            Base::Start,
            &[&[1.0 / 3.0], &[-1.0 / 9.0, 3.0 / 9.0, 0.0, 0.0, 4.0 / 9.0]],
        ),
    }),
};

/// The third-order Crouch–Grossman method CG3 \[CG93\], \[OM99\], `c = (0, ¾, 17/24)`:
///
/// ```text
///     Y₂ = exp(¾k₁)·y₀
///     Y₃ = exp(17/108 k₂)·exp(119/216 k₁)·y₀
///     y₁ = exp(24/17 k₃)·exp(−2/3 k₂)·exp(13/51 k₁)·y₀
/// ```
///
/// (`k₁` acts first; the reverse order drops to order 2 on state-dependent problems, see
/// `docs/references.md`). Three evaluations of `f`, six exponentials.
pub const CG3: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CG3",
    order: 3,
    reference: "[CG93]",
    stages: &[
        CfStage::new(0.0, ExpProduct::START),
        CfStage::new(3.0 / 4.0, ExpProduct::new(Base::Start, &[&[3.0 / 4.0]])),
        CfStage::new(
            17.0 / 24.0,
            ExpProduct::new(Base::Start, &[&[119.0 / 216.0], &[0.0, 17.0 / 108.0]]),
        ),
    ],
    update: ExpProduct::new(
        Base::Start,
        &[&[13.0 / 51.0], &[0.0, -2.0 / 3.0], &[0.0, 0.0, 24.0 / 17.0]],
    ),
    embedded: None,
};

/// The fourth-order, five-stage Crouch–Grossman method CG4 \[JMO00\], coefficients to 16
/// digits as published (`a₅₄ = −1.1092979392113465`, the value that makes
/// the row sum exact; `b₂ = −0.0183698531564020` and `b₃ = 0.7397813985370780` are written
/// without their trailing zero). `Y_i = exp(a_{i,i−1}k_{i−1})···exp(a_{i1}k₁)·y₀` and
/// `y₁ = exp(b₅k₅)···exp(b₁k₁)·y₀`, `k₁` acting first. Five evaluations of `f`, fifteen
/// exponentials.
pub const CG4: CommutatorFreeScheme = CommutatorFreeScheme {
    name: "CG4",
    order: 4,
    reference: "[JMO00]",
    stages: &[
        CfStage::new(0.0, ExpProduct::START),
        CfStage::new(
            0.817_722_798_812_485_2,
            ExpProduct::new(Base::Start, &[&[0.817_722_798_812_485_2]]),
        ),
        CfStage::new(
            0.385_974_063_903_244_9,
            ExpProduct::new(
                Base::Start,
                &[&[0.319_987_637_547_642_7], &[0.0, 0.065_986_426_355_602_2]],
            ),
        ),
        CfStage::new(
            0.324_229_052_286_693_7,
            ExpProduct::new(
                Base::Start,
                &[
                    &[0.921_441_719_446_494_6],
                    &[0.0, 0.499_785_777_677_357_3],
                    &[0.0, 0.0, -1.096_998_444_837_158_2],
                ],
            ),
        ),
        CfStage::new(
            0.876_890_326_342_042_9,
            ExpProduct::new(
                Base::Start,
                &[
                    &[0.355_235_855_902_332_2],
                    &[0.0, 0.239_095_837_230_732_6],
                    &[0.0, 0.0, 1.391_856_572_420_324_6],
                    &[0.0, 0.0, 0.0, -1.109_297_939_211_346_5],
                ],
            ),
        ),
    ],
    update: ExpProduct::new(
        Base::Start,
        &[
            &[0.137_083_152_063_075_5],
            &[0.0, -0.018_369_853_156_402],
            &[0.0, 0.0, 0.739_781_398_537_078],
            &[0.0, 0.0, 0.0, -0.190_714_256_550_588_9],
            &[0.0, 0.0, 0.0, 0.0, 0.332_219_559_106_837_4],
        ],
    ),
    embedded: None,
};

/// Every commutator-free / Crouch–Grossman scheme of the catalogue, for iteration.
pub const COMMUTATOR_FREE: &[&CommutatorFreeScheme] =
    &[&LIE_EULER, &CF3, &CF32, &CF4, &CF43, &CG3, &CG4];

/// The catalogue tableau with this name (exact match on [`ButcherTableau::name`]).
#[must_use]
pub fn tableau(name: &str) -> Option<&'static ButcherTableau> {
    TABLEAUX.iter().copied().find(|t| t.name == name)
}

/// The catalogue commutator-free scheme with this name (exact match).
#[must_use]
pub fn commutator_free(name: &str) -> Option<&'static CommutatorFreeScheme> {
    COMMUTATOR_FREE.iter().copied().find(|s| s.name == name)
}
