//! The integration driver: fixed or adaptive steps over a time span, with observers, step-size
//! control and partial results on failure.

use crate::control::{Controller, ControllerState, StepControl};
use crate::error::SchemeError;
use crate::stepper::{Algebra, Problem, Scalar, StepOutput, StepStats, Stepper, Tolerance};
use homogeneous::{Action, LieVectorField};
use liegroup::VectorSpace;
use liegroup::scalar::{c, re};

/// How step sizes are chosen.
#[derive(Clone, Debug, PartialEq)]
pub enum StepSize {
    /// Steps of size `h`; the last one is shortened to end exactly at `t_end`.
    Fixed(f64),
    /// `n` equal steps.
    Count(usize),
    /// Adaptive steps controlled by an embedded error estimate.
    Adaptive(Tolerance),
}

/// Which points the [`Solution`] keeps.
///
/// Memory: every saved point costs `size_of::<T>() + size_of::<P>()` bytes plus the heap data of
/// the point (for a point of `n` `f64` coordinates about `8·(n + 1)` bytes), so the default
/// [`Save::Steps`] grows with the number of steps: about `8·(n + 1) · steps` bytes, e.g. 32 MB
/// for 10⁶ steps on S² (`n = 3`), 30.8 GB for 10⁶ steps of 642 bodies on (TS²)⁶⁴²
/// (`n = 3852`). For long runs use [`Save::Every`], [`Save::Times`] or [`Save::Final`].
#[derive(Clone, Debug, PartialEq, Default)]
pub enum Save {
    /// Every accepted step (and the initial point).
    #[default]
    Steps,
    /// The initial point, every `K`-th accepted step and the final point (`K ≥ 1`;
    /// `Every(1)` is [`Save::Steps`]). `K = 0` is [`SchemeError::InvalidOption`].
    Every(usize),
    /// Only the initial and the final point.
    Final,
    /// The points at the given increasing times inside the span, by dense output (a method with
    /// a continuous extension is required unless every time is a step end).
    Times(Vec<f64>),
}

/// Options of [`integrate`].
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Fixed, counted or adaptive steps.
    pub step: StepSize,
    /// The step-size controller and its parameters (adaptive steps only).
    pub control: StepControl,
    /// Initial step for adaptive runs; `None` selects it automatically (\[HNW93, II.4\]).
    pub h0: Option<f64>,
    /// The smallest step the controller may take before giving up. `None` (the default): 16 units
    /// in the last place of the current time, `16·ε·|t|` (at least the smallest normal number),
    /// the smallest step that still moves the time by more than rounding.
    pub h_min: Option<f64>,
    /// The largest step (default: the whole span).
    pub h_max: Option<f64>,
    /// The step budget (accepted + rejected).
    pub max_steps: usize,
    /// Which points to keep.
    pub save: Save,
}

impl Options {
    /// Fixed steps of size `h`.
    #[must_use]
    pub fn fixed(h: f64) -> Self {
        Self::with_step(StepSize::Fixed(h))
    }
    /// `n` equal steps.
    #[must_use]
    pub fn count(n: usize) -> Self {
        Self::with_step(StepSize::Count(n))
    }
    /// Adaptive steps with the given tolerances (validated when the integration starts).
    #[must_use]
    pub fn adaptive(rtol: f64, atol: f64) -> Self {
        Self::with_step(StepSize::Adaptive(Tolerance { rtol, atol }))
    }
    fn with_step(step: StepSize) -> Self {
        Self {
            step,
            control: StepControl::default(),
            h0: None,
            h_min: None,
            h_max: None,
            max_steps: 10_000_000,
            save: Save::Steps,
        }
    }
    /// Keep only the initial and final points.
    #[must_use]
    pub fn save_final(mut self) -> Self {
        self.save = Save::Final;
        self
    }
    /// Replace the step budget.
    #[must_use]
    pub fn max_steps(mut self, n: usize) -> Self {
        self.max_steps = n;
        self
    }
    /// Replace the controller.
    #[must_use]
    pub fn controller(mut self, controller: Controller) -> Self {
        self.control.controller = controller;
        self
    }
}

/// Counters of one integration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Accepted steps.
    pub accepted: usize,
    /// Rejected steps.
    pub rejected: usize,
    /// Work done by the stepper (f-evaluations, exponentials, implicit iterations).
    pub work: StepStats,
}

/// A computed trajectory.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution<T, P> {
    /// Times of the saved points.
    pub t: Vec<T>,
    /// The saved points.
    pub y: Vec<P>,
    /// Work counters.
    pub stats: Stats,
}

impl<T: Copy, P> Solution<T, P> {
    /// The last saved point and its time.
    ///
    /// # Panics
    /// Never for a solution returned by [`integrate`] (it always holds the initial point).
    #[must_use]
    pub fn last(&self) -> (T, &P) {
        (
            *self
                .t
                .last()
                .expect("a solution holds at least the initial point"),
            self.y
                .last()
                .expect("a solution holds at least the initial point"),
        )
    }
}

/// What [`integrate`] returns: the solution, or the failure with the partial solution.
pub type IntegrationResult<A> = Result<
    Solution<Scalar<A>, <A as Action>::Point>,
    Box<IntegrationFailure<Scalar<A>, <A as Action>::Point>>,
>;

/// A failed integration: the error and everything computed up to the last accepted step.
#[derive(Clone, Debug)]
pub struct IntegrationFailure<T, P> {
    /// What went wrong.
    pub error: SchemeError,
    /// The solution up to the last accepted step (it holds at least the initial point, except
    /// when the input itself was rejected, in which case it is empty).
    pub partial: Solution<T, P>,
}

impl<T, P> core::fmt::Display for IntegrationFailure<T, P> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{} (after {} accepted steps)",
            self.error, self.partial.stats.accepted
        )
    }
}

impl<T: core::fmt::Debug, P: core::fmt::Debug> std::error::Error for IntegrationFailure<T, P> {}

/// Integrate `problem` from `(t0, y0)` to `t_end` with `stepper`.
///
/// See [`integrate_with_observer`] for the details; this variant has no observer.
///
/// # Errors
/// Boxed [`IntegrationFailure`] with the partial solution.
pub fn integrate<A, F, S>(
    problem: &Problem<A, F>,
    stepper: &mut S,
    t0: f64,
    y0: A::Point,
    t_end: f64,
    options: &Options,
) -> IntegrationResult<A>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
{
    integrate_with_observer(problem, stepper, t0, y0, t_end, options, |_, _| {})
}

struct Run<T, P> {
    sol: Solution<T, P>,
    save: Save,
    next_time: usize,
}

impl<T: Copy, P: Clone> Run<T, P> {
    fn fail(mut self, error: SchemeError, work: StepStats) -> Box<IntegrationFailure<T, P>> {
        self.sol.stats.work = work;
        Box::new(IntegrationFailure {
            error,
            partial: self.sol,
        })
    }
}

/// The validated step plan of one integration.
struct Plan {
    t0: f64,
    span: f64,
    /// Fixed steps: the step and the number of steps (the last one shortened).
    fixed: Option<(f64, usize)>,
    /// Adaptive steps: the tolerances.
    tol: Option<Tolerance>,
    /// The user's minimum step; `None`: relative to the ulp of the current time.
    h_min: Option<f64>,
    h_max: f64,
}

impl Plan {
    /// Checks the input (time span, initial point, step options, save times) before anything
    /// is computed.
    fn new<A: Action, S: Stepper<A>>(
        action: &A,
        stepper: &S,
        t0: f64,
        y0: &A::Point,
        t_end: f64,
        options: &Options,
    ) -> Result<Self, SchemeError> {
        if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
            return Err(SchemeError::InvalidTimeSpan { t0, t_end });
        }
        if !action.point_is_finite(y0) {
            return Err(SchemeError::NonFinite {
                what: "initial state",
                t: t0,
            });
        }
        let span = t_end - t0;
        let (fixed_h, tol) = match &options.step {
            StepSize::Fixed(h) => {
                if !(h.is_finite() && *h > 0.0) {
                    return Err(SchemeError::InvalidStepSize { h: *h });
                }
                (Some(*h), None)
            }
            StepSize::Count(n) => {
                if *n == 0 {
                    return Err(SchemeError::InvalidOption {
                        name: "step count",
                        reason: "at least one step is needed".into(),
                    });
                }
                (Some(span / *n as f64), None)
            }
            StepSize::Adaptive(tol) => {
                let tol = Tolerance::new(tol.rtol, tol.atol)?;
                if stepper.embedded_order().is_none() {
                    return Err(SchemeError::Unsupported {
                        method: stepper.name(),
                        reason: "adaptive steps need an embedded error estimate".into(),
                    });
                }
                (None, Some(tol))
            }
        };
        options.control.validate()?;
        if options.save == Save::Every(0) {
            return Err(SchemeError::InvalidOption {
                name: "save every",
                reason: "the stride K of Save::Every(K) must be at least 1".into(),
            });
        }
        if let Save::Times(times) = &options.save {
            let ok = times.windows(2).all(|w| w[0] < w[1])
                && times
                    .iter()
                    .all(|&s| s.is_finite() && s >= t0 && s <= t_end);
            if !ok {
                return Err(SchemeError::InvalidOption {
                    name: "save times",
                    reason: format!("must be increasing and inside [{t0}, {t_end}]"),
                });
            }
        }
        let h_max = options.h_max.unwrap_or(span).min(span);
        let h_min = options.h_min;
        if !(h_max > 0.0 && h_min.is_none_or(|m| m > 0.0 && h_max >= m)) {
            return Err(SchemeError::InvalidOption {
                name: "h_min/h_max",
                reason: format!("need 0 < h_min ≤ h_max, got h_min = {h_min:?}, h_max = {h_max}"),
            });
        }
        // Number of fixed steps: the last one shortened; a relative slack of 1e-10 avoids a
        // spurious tiny last step from rounding of span / h.
        let fixed = match fixed_h {
            Some(h) => {
                let n = ((span / h) - 1e-10).ceil().max(1.0);
                // A run that cannot finish within the step budget is refused before it starts.
                if n > options.max_steps as f64 {
                    return Err(SchemeError::InvalidOption {
                        name: "step budget",
                        reason: format!(
                            "the span {span:.3e} in steps of {h:.3e} needs {n:.3e} steps, more than \
                             the budget of {} steps (raise max_steps or the step size)",
                            options.max_steps
                        ),
                    });
                }
                Some((h, n as usize))
            }
            None => None,
        };
        Ok(Self {
            t0,
            span,
            fixed,
            tol,
            h_min,
            h_max,
        })
    }

    /// The first step: the fixed step, or for adaptive steps `h0` if given, else the automatic
    /// choice of [`initial_step`], within `[h_min, h_max]`.
    fn first_step<A, F, S>(
        &self,
        action: &A,
        f: &F,
        stepper: &S,
        t0: f64,
        y0: &A::Point,
        h0: Option<f64>,
    ) -> Result<f64, SchemeError>
    where
        A: Action,
        F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
        S: Stepper<A>,
    {
        match (self.fixed, &self.tol) {
            (Some((h, _)), _) => Ok(h),
            (None, Some(tol)) => match h0 {
                Some(h0) if h0.is_finite() && h0 > 0.0 => Ok(h0.min(self.h_max)),
                Some(h0) => Err(SchemeError::InvalidStepSize { h: h0 }),
                None => Ok(initial_step(action, f, stepper, t0, y0, tol)?
                    .clamp(self.h_min_at(t0), self.h_max)),
            },
            (None, None) => unreachable!("a plan has fixed steps or tolerances"),
        }
    }

    /// The smallest step allowed at time `t`: the user's `h_min`, or 16 ulps of `t`.
    fn h_min_at(&self, t: f64) -> f64 {
        self.h_min
            .unwrap_or_else(|| (16.0 * f64::EPSILON * t.abs()).max(f64::MIN_POSITIVE))
    }

    /// Every fixed step taken, or `t_end` reached.
    fn done(&self, t: f64, t_end: f64, accepted_fixed: usize) -> bool {
        match self.fixed {
            Some((_, n)) => accepted_fixed >= n,
            None => t >= t_end,
        }
    }

    /// The step to try from `t` (and whether it is the last one): fixed steps count, adaptive
    /// steps stretch or shorten the last step to end at `t_end`.
    ///
    /// Fixed steps end on the grid `t₀ + n·h` (the end computed from `n`, never accumulated, so
    /// that no rounding builds up over many steps); the step taken is the difference of two
    /// grid times.
    /// Returns the step, the time it ends at, and whether it is the last one.
    fn next_step(&self, t: f64, h: f64, t_end: f64, accepted_fixed: usize) -> (f64, f64, bool) {
        match self.fixed {
            Some((_, n)) if accepted_fixed + 1 == n => (t_end - t, t_end, true),
            Some((h_fixed, _)) => {
                let t_next = self.t0 + (accepted_fixed + 1) as f64 * h_fixed;
                (t_next - t, t_next, false)
            }
            None if t + h >= t_end || t + 1.01 * h >= t_end => (t_end - t, t_end, true),
            None => (h, t + h, false),
        }
    }
}

/// One step of size `h` from `(t, y)`, its result checked for finiteness.
fn attempt<A, F, S>(
    action: &A,
    f: &F,
    stepper: &mut S,
    t: f64,
    y: &A::Point,
    h: f64,
    tol: Option<&Tolerance>,
) -> Result<StepOutput<A::Point>, SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
{
    let out = stepper.step(action, f, c(t), y, c(h), tol)?;
    if !action.point_is_finite(&out.y) {
        return Err(SchemeError::NonFinite {
            what: "state",
            t: t + h,
        });
    }
    Ok(out)
}

/// What the controller made of an adaptive step's error estimate.
enum Verdict {
    /// Keep the step; the next step size.
    Accept(f64),
    /// Try again from the same point with this step.
    Retry(f64),
    /// The step is kept, then the integration stops with this error.
    AcceptThenFail(SchemeError),
    /// The integration stops with this error (the step is not kept).
    Fail(SchemeError),
}

/// Judges the scaled error estimate `err` of a step of size `h_try` from `t`.
#[allow(clippy::too_many_arguments)]
fn judge(
    err: Option<f64>,
    t: f64,
    h_try: f64,
    last: bool,
    order: u32,
    plan: &Plan,
    options: &Options,
    controller: &mut ControllerState,
    last_rejected: &mut bool,
) -> Verdict {
    let err = err.unwrap_or(f64::NAN);
    if !err.is_finite() {
        // Treat a non-finite estimate as a very large error: shrink and retry.
        *last_rejected = true;
        let h = h_try * options.control.fac_min;
        if h < plan.h_min_at(t) {
            return Verdict::Fail(SchemeError::NonFinite {
                what: "error estimate",
                t,
            });
        }
        return Verdict::Retry(h);
    }
    let (accept, h_new) = controller.propose(err, h_try, order, *last_rejected);
    if !accept {
        *last_rejected = true;
        let h = h_new.min(plan.h_max);
        let h_min = plan.h_min_at(t);
        if h < h_min {
            return Verdict::Fail(SchemeError::StepSizeTooSmall { t, h, h_min });
        }
        return Verdict::Retry(h);
    }
    *last_rejected = false;
    let h_min = plan.h_min_at(t + h_try);
    if h_new < h_min && !last {
        return Verdict::AcceptThenFail(SchemeError::StepSizeTooSmall { t, h: h_new, h_min });
    }
    Verdict::Accept(h_new.clamp(h_min, plan.h_max))
}

/// Saves the initial point as `run.save` asks.
fn save_initial<A: Action>(run: &mut Run<Scalar<A>, A::Point>, t0: f64, y0: &A::Point) {
    match &run.save {
        Save::Times(times) => {
            while run.next_time < times.len() && times[run.next_time] <= t0 {
                run.sol.t.push(c(times[run.next_time]));
                run.sol.y.push(y0.clone());
                run.next_time += 1;
            }
        }
        _ => {
            run.sol.t.push(c(t0));
            run.sol.y.push(y0.clone());
        }
    }
}

/// Saves an accepted step `(t, y) → (t_new, y_new)` of size `h` as `run.save` asks (saved
/// times inside the step by the stepper's dense output).
#[allow(clippy::too_many_arguments)]
fn save_step<A, S>(
    run: &mut Run<Scalar<A>, A::Point>,
    action: &A,
    stepper: &S,
    span: f64,
    (t, y): (f64, &A::Point),
    (t_new, y_new): (f64, &A::Point),
    h: f64,
    last: bool,
) -> Result<(), SchemeError>
where
    A: Action,
    S: Stepper<A>,
{
    match &run.save {
        Save::Steps => {
            run.sol.t.push(c(t_new));
            run.sol.y.push(y_new.clone());
        }
        Save::Final => {
            if last {
                run.sol.t.push(c(t_new));
                run.sol.y.push(y_new.clone());
            }
        }
        Save::Every(k) => {
            // `stats.accepted` already counts this step.
            if last || run.sol.stats.accepted.is_multiple_of((*k).max(1)) {
                run.sol.t.push(c(t_new));
                run.sol.y.push(y_new.clone());
            }
        }
        Save::Times(times) => {
            while run.next_time < times.len() && times[run.next_time] <= t_new {
                let s = times[run.next_time];
                let p = if (s - t_new).abs() <= 1e-14 * span.max(1.0) {
                    Some(y_new.clone())
                } else {
                    stepper.dense_output(action, y, c((s - t) / h))
                };
                let Some(p) = p else {
                    return Err(SchemeError::Unsupported {
                        method: stepper.name(),
                        reason: "no dense output: save times must be step ends".into(),
                    });
                };
                run.sol.t.push(c(s));
                run.sol.y.push(p);
                run.next_time += 1;
            }
        }
    }
    Ok(())
}

/// Integrate `problem` from `(t0, y0)` to `t_end` with `stepper`, calling
/// `observer(t, &y)` after every accepted step (and once for the initial point).
///
/// - Fixed steps (`StepSize::Fixed(h)`, `StepSize::Count(n)`) take the given steps.
/// - Adaptive steps (`StepSize::Adaptive`) need an embedded method; the local error estimate
///   scaled by the tolerances is kept `≤ 1` by the controller of `options.control`
///   (elementary or PI, \[HNW93, II.4\]; \[HW96, IV.2\]), rejected steps are retried with a smaller
///   step, and the initial step is chosen automatically unless `options.h0` is given.
///
/// # Errors
/// A boxed [`IntegrationFailure`] with the typed [`SchemeError`] and the solution up to the last
/// accepted step: invalid step size, tolerance or time span, non-finite values (input, vector
/// field or state), step-size underflow, an exhausted step budget, non-converging implicit
/// stages. Never panics on user input and never loops endlessly (the step budget bounds the
/// work).
pub fn integrate_with_observer<A, F, S, O>(
    problem: &Problem<A, F>,
    stepper: &mut S,
    t0: f64,
    y0: A::Point,
    t_end: f64,
    options: &Options,
    mut observer: O,
) -> IntegrationResult<A>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
    O: FnMut(Scalar<A>, &A::Point),
{
    let action = &problem.action;
    let f = &problem.field;
    let work0 = stepper.stats();
    let work = |s: &S| {
        let w = s.stats();
        StepStats {
            f_evals: w.f_evals - work0.f_evals,
            exps: w.exps - work0.exps,
            iterations: w.iterations - work0.iterations,
        }
    };
    let mut run: Run<Scalar<A>, A::Point> = Run {
        sol: Solution {
            t: Vec::new(),
            y: Vec::new(),
            stats: Stats::default(),
        },
        save: options.save.clone(),
        next_time: 0,
    };
    // The input is checked before anything is computed (the partial solution is empty).
    let plan = match Plan::new(action, stepper, t0, &y0, t_end, options) {
        Ok(plan) => plan,
        Err(e) => return Err(run.fail(e, work(stepper))),
    };
    let (mut t, mut y) = (t0, y0);
    observer(c(t), &y);
    save_initial::<A>(&mut run, t0, &y);

    let mut h = match plan.first_step(action, f, stepper, t0, &y, options.h0) {
        Ok(h) => h,
        Err(e) => return Err(run.fail(e, work(stepper))),
    };
    let mut controller = options.control.start();
    let (mut steps_taken, mut accepted_fixed, mut last_rejected) = (0usize, 0usize, false);
    loop {
        if plan.done(t, t_end, accepted_fixed) {
            break;
        }
        if steps_taken >= options.max_steps {
            let err = SchemeError::StepBudgetExhausted {
                t,
                max_steps: options.max_steps,
            };
            return Err(run.fail(err, work(stepper)));
        }
        steps_taken += 1;
        let (h_try, t_new, last) = plan.next_step(t, h, t_end, accepted_fixed);
        if t_new <= t {
            let err = SchemeError::StalledTime { t, h: h_try };
            return Err(run.fail(err, work(stepper)));
        }
        let out = match attempt(action, f, stepper, t, &y, h_try, plan.tol.as_ref()) {
            Ok(out) => out,
            // Adaptive steps treat a non-finite stage or state like a failed error test: shrink
            // and retry, down to the minimum step.
            Err(e @ SchemeError::NonFinite { .. }) if plan.tol.is_some() => {
                run.sol.stats.rejected += 1;
                last_rejected = true;
                h = h_try * options.control.fac_min;
                if h < plan.h_min_at(t) {
                    return Err(run.fail(e, work(stepper)));
                }
                continue;
            }
            Err(e) => return Err(run.fail(e, work(stepper))),
        };
        if plan.tol.is_some() {
            let order = stepper
                .order()
                .min(stepper.embedded_order().unwrap_or(stepper.order()));
            let verdict = judge(
                out.error,
                t,
                h_try,
                last,
                order,
                &plan,
                options,
                &mut controller,
                &mut last_rejected,
            );
            match verdict {
                Verdict::Accept(h_new) => h = h_new,
                Verdict::Retry(h_new) => {
                    run.sol.stats.rejected += 1;
                    h = h_new;
                    continue;
                }
                Verdict::Fail(e) => {
                    run.sol.stats.rejected += 1;
                    return Err(run.fail(e, work(stepper)));
                }
                Verdict::AcceptThenFail(e) => {
                    // The step itself was accepted: keep it in the partial solution.
                    run.sol.t.push(c(t_new));
                    run.sol.y.push(out.y);
                    run.sol.stats.accepted += 1;
                    return Err(run.fail(e, work(stepper)));
                }
            }
        }
        // ---- accept ----
        run.sol.stats.accepted += 1;
        accepted_fixed += 1;
        let saved = save_step(
            &mut run,
            action,
            &*stepper,
            plan.span,
            (t, &y),
            (t_new, &out.y),
            h_try,
            last,
        );
        if let Err(e) = saved {
            return Err(run.fail(e, work(stepper)));
        }
        t = t_new;
        y = out.y;
        observer(c(t), &y);
        if last {
            break;
        }
    }
    run.sol.stats.work = work(stepper);
    Ok(run.sol)
}

/// The automatic initial step of \[HNW93, II.4, p. 169\], adapted to `ṗ = f(t,p)·p`: the state
/// scale is taken as 1 (the algebra element `f` measures the relative speed of the point), so
/// `d₁ = ‖f(t₀,y₀)‖/w`, `h₀ = 0.01/d₁·(1/w)`, one Lie–Euler step `y₁ = exp(h₀f₀)·y₀`,
/// `d₂ = ‖f(t₀+h₀,y₁) − f₀‖/(w h₀)` and `h = min(100h₀, (0.01/max(d₁,d₂))^{1/(p+1)})` with
/// `w = atol + rtol` and RMS norms over the algebra coordinates.
fn initial_step<A, F, S>(
    action: &A,
    f: &F,
    stepper: &S,
    t0: f64,
    y0: &A::Point,
    tol: &Tolerance,
) -> Result<f64, SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
    S: Stepper<A>,
{
    let p = stepper
        .order()
        .min(stepper.embedded_order().unwrap_or(u32::MAX));
    let w = tol.atol + tol.rtol;
    let mut f0 = stepper_algebra_template(action, f, t0, y0)?;
    let n = f0.dim().max(1) as f64;
    let rms = |v: &Algebra<A>| (re(v.inner_norm_squared()) / n).sqrt();
    let d0 = 1.0 / w;
    let d1 = rms(&f0) / w;
    let h0 = if d0 < 1e-5 || d1 < 1e-5 {
        1e-6
    } else {
        0.01 * d0 / d1
    };
    let mut hf = f0.clone();
    hf.scale_by(c(h0));
    let y1 = action.act_exp(&hf, y0);
    let mut f1 = f0.zero_like();
    f.eval(c(t0 + h0), &y1, &mut f1);
    if !f1.all_finite() {
        return Err(SchemeError::NonFinite {
            what: "vector field",
            t: t0 + h0,
        });
    }
    f0.scale_by(c(-1.0));
    f1.add_scaled(c(1.0), &f0);
    let d2 = rms(&f1) / (w * h0);
    let h1 = if d1.max(d2) <= 1e-15 {
        (h0 * 1e-3).max(1e-6)
    } else {
        (0.01 / d1.max(d2)).powf(1.0 / (f64::from(p) + 1.0))
    };
    Ok((100.0 * h0).min(h1))
}

/// Evaluate `f(t0, y0)` into a fresh algebra element, checking finiteness.
fn stepper_algebra_template<A, F>(
    action: &A,
    f: &F,
    t0: f64,
    y0: &A::Point,
) -> Result<Algebra<A>, SchemeError>
where
    A: Action,
    F: LieVectorField<Scalar<A>, A::Point, Algebra<A>>,
{
    let mut out = action.algebra_zero(y0);
    f.eval(c(t0), y0, &mut out);
    if out.all_finite() {
        Ok(out)
    } else {
        Err(SchemeError::NonFinite {
            what: "vector field",
            t: t0,
        })
    }
}
