//! Step-size controllers for embedded pairs.

use crate::error::SchemeError;

/// The controller formula.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Controller {
    /// `h_new = h·min(fac_max, max(fac_min, safety·err^{−1/(q+1)}))` \[HNW93, II.4, eq. (4.13)\],
    /// with `q` the lower of the two orders of the pair.
    Elementary,
    /// The PI controller `h_new = h·safety·err_n^{−β₁}·err_{n−1}^{β₂}` with `β₁ = k₁/(q+1)`,
    /// `β₂ = k₂/(q+1)` \[HW96, IV.2, eq. (2.43c)\] (Gustafsson's choice `k₁ = 0.7`, `k₂ = 0.4`),
    /// limited by `fac_min`/`fac_max`; after a rejection the elementary formula is used.
    PI {
        /// `k₁` (the integral gain is `k₁/(q+1)`).
        k1: f64,
        /// `k₂` (the proportional gain is `k₂/(q+1)`).
        k2: f64,
    },
}

impl Controller {
    /// Gustafsson's PI controller, `k₁ = 0.7`, `k₂ = 0.4`.
    pub const PI_DEFAULT: Self = Self::PI { k1: 0.7, k2: 0.4 };
}

/// Controller parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepControl {
    /// The formula.
    pub controller: Controller,
    /// Safety factor (0 < safety ≤ 1), default 0.9.
    pub safety: f64,
    /// Smallest factor by which a step may shrink (0 < fac_min < 1), default 0.2.
    pub fac_min: f64,
    /// Largest factor by which a step may grow (> 1), default 5.
    pub fac_max: f64,
}

impl Default for StepControl {
    fn default() -> Self {
        Self {
            controller: Controller::Elementary,
            safety: 0.9,
            fac_min: 0.2,
            fac_max: 5.0,
        }
    }
}

impl StepControl {
    /// Check the parameters.
    ///
    /// # Errors
    /// [`SchemeError::InvalidOption`] when a parameter is out of range.
    pub fn validate(&self) -> Result<(), SchemeError> {
        let bad = |name, reason: &str| {
            Err(SchemeError::InvalidOption {
                name,
                reason: reason.into(),
            })
        };
        if !(self.safety > 0.0 && self.safety <= 1.0) {
            return bad("safety", "must be in (0, 1]");
        }
        if !(self.fac_min > 0.0 && self.fac_min < 1.0) {
            return bad("fac_min", "must be in (0, 1)");
        }
        if !(self.fac_max > 1.0 && self.fac_max.is_finite()) {
            return bad("fac_max", "must be finite and > 1");
        }
        if let Controller::PI { k1, k2 } = self.controller
            && !(k1.is_finite() && k2.is_finite() && k1 > 0.0 && k2 >= 0.0)
        {
            return bad("PI gains", "need k1 > 0 and k2 ≥ 0");
        }
        Ok(())
    }

    /// A fresh controller state.
    #[must_use]
    pub fn start(&self) -> ControllerState {
        ControllerState {
            control: *self,
            err_prev: 1.0,
        }
    }
}

/// The running state of a controller (the previous accepted error for PI control).
#[derive(Clone, Copy, Debug)]
pub struct ControllerState {
    control: StepControl,
    err_prev: f64,
}

impl ControllerState {
    /// Decide on a step of size `h` with scaled error `err` (accept when `err ≤ 1`) for a pair of
    /// lower order `q`; returns `(accepted, next step size)`. After a rejection the step does not
    /// grow.
    #[must_use]
    pub fn propose(&mut self, err: f64, h: f64, q: u32, after_reject: bool) -> (bool, f64) {
        let StepControl {
            controller,
            safety,
            fac_min,
            fac_max,
        } = self.control;
        let e = err.max(1e-16);
        let expo = 1.0 / (f64::from(q) + 1.0);
        if err > 1.0 {
            let fac = (safety * e.powf(-expo)).clamp(fac_min, 1.0);
            return (false, h * fac);
        }
        let fac = match controller {
            Controller::Elementary => safety * e.powf(-expo),
            Controller::PI { k1, k2 } => {
                if after_reject {
                    safety * e.powf(-expo)
                } else {
                    safety * e.powf(-k1 * expo) * self.err_prev.max(1e-16).powf(k2 * expo)
                }
            }
        };
        let fac_hi = if after_reject { 1.0 } else { fac_max };
        self.err_prev = e;
        (true, h * fac.clamp(fac_min, fac_hi))
    }
}
