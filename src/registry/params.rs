//! Model parameters by name and initial states in ambient coordinates.
//!
//! Each model declares its parameters per preset ([`Parameter`]: name, default, meaning with
//! units, admissible range); a run overrides them by name ([`RunSpec::params`](super::RunSpec))
//! and may start from its own initial state ([`RunSpec::initial_state`](super::RunSpec)) in the
//! ambient coordinates of [`RunResult::state_names`](super::RunResult). Nothing is projected
//! silently: an initial state off the manifold by more than [`INITIAL_STATE_ULPS`] machine
//! epsilons is an error.

use super::Error;
use nalgebra::Vector3;

/// A named model parameter of a preset.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameter {
    /// The name, as given to an override (`l1`, `g`, `seed`, …).
    pub name: &'static str,
    /// The preset's value.
    pub default: f64,
    /// One line: the meaning, with units.
    pub meaning: &'static str,
    /// The smallest admissible value (inclusive).
    pub min: f64,
    /// The largest admissible value (inclusive).
    pub max: f64,
    /// Only whole numbers are admissible (a seed, a count).
    pub integer: bool,
}

/// The largest value of an integer parameter: `2⁵³`, the last integer up to which every
/// integer is an `f64`.
pub const MAX_INTEGER_PARAMETER: f64 = 9_007_199_254_740_992.0;

impl Parameter {
    /// A positive real parameter (`0 < value < ∞`; the smallest admissible value is the
    /// smallest positive normal `f64`).
    #[must_use]
    pub const fn positive(name: &'static str, default: f64, meaning: &'static str) -> Self {
        Self {
            name,
            default,
            meaning,
            min: f64::MIN_POSITIVE,
            max: f64::MAX,
            integer: false,
        }
    }

    /// A non-negative real parameter (`0 ≤ value < ∞`).
    #[must_use]
    pub const fn non_negative(name: &'static str, default: f64, meaning: &'static str) -> Self {
        Self {
            name,
            default,
            meaning,
            min: 0.0,
            max: f64::MAX,
            integer: false,
        }
    }

    /// A whole-number parameter in `[0, 2⁵³]` (a seed).
    #[must_use]
    pub const fn seed(name: &'static str, default: f64, meaning: &'static str) -> Self {
        Self {
            name,
            default,
            meaning,
            min: 0.0,
            max: MAX_INTEGER_PARAMETER,
            integer: true,
        }
    }

    /// Check `value` against the range (and integrality) of the parameter.
    ///
    /// # Errors
    /// [`Error::Parameter`] naming the parameter for a non-finite value, a value outside
    /// `[min, max]`, or a fractional value of an integer parameter.
    pub fn check(&self, model: &str, value: f64) -> Result<f64, Error> {
        let bad = |reason: String| Error::Parameter {
            name: self.name.into(),
            message: format!("parameter '{}' of {model}: {reason}", self.name),
        };
        if !value.is_finite() {
            return Err(bad(format!("must be finite, got {value}")));
        }
        if value < self.min || value > self.max {
            let range = if self.min == f64::MIN_POSITIVE && self.max == f64::MAX {
                "must be positive".to_string()
            } else if self.min == 0.0 && self.max == f64::MAX {
                "must be non-negative".to_string()
            } else {
                format!(
                    "must lie in [{}, {}]",
                    super::num(self.min),
                    super::num(self.max)
                )
            };
            return Err(bad(format!("{range}, got {}", super::num(value))));
        }
        if self.integer && value.fract() != 0.0 {
            return Err(bad(format!(
                "must be a whole number, got {}",
                super::num(value)
            )));
        }
        Ok(value)
    }
}

/// The values of `declared` (in its order) with `overrides` applied by name.
///
/// # Errors
/// [`Error::Parameter`] for an unknown name (the message lists the known ones), a name given
/// twice, or a value [`Parameter::check`] refuses.
pub fn resolve(
    model: &str,
    declared: &[Parameter],
    overrides: &[(String, f64)],
) -> Result<Vec<f64>, Error> {
    let mut values: Vec<f64> = declared.iter().map(|p| p.default).collect();
    let mut seen: Vec<&str> = Vec::with_capacity(overrides.len());
    for (name, value) in overrides {
        if seen.contains(&name.as_str()) {
            return Err(Error::Parameter {
                name: name.clone(),
                message: format!("parameter '{name}' of {model} is given twice"),
            });
        }
        seen.push(name);
        let Some(i) = declared.iter().position(|p| p.name == name) else {
            let known: Vec<&str> = declared.iter().map(|p| p.name).collect();
            let known = if known.is_empty() {
                "it has no parameters".to_string()
            } else {
                format!("known: {}", known.join(", "))
            };
            return Err(Error::Parameter {
                name: name.clone(),
                message: format!("unknown parameter '{name}' of {model}; {known}"),
            });
        };
        values[i] = declared[i].check(model, *value)?;
    }
    Ok(values)
}

/// An initial state may leave its manifold by at most this many machine epsilons: `||q| − 1|`
/// (and `|q·ω|/max(1, |ω|)` on TS²) at most `INITIAL_STATE_ULPS · f64::EPSILON` ≈ 1.4·10⁻¹⁴.
/// A state normalised in double precision and written with 17 significant digits passes.
pub const INITIAL_STATE_ULPS: f64 = 64.0;

/// The tolerance of [`INITIAL_STATE_ULPS`] as a number.
#[must_use]
pub fn initial_state_tolerance() -> f64 {
    INITIAL_STATE_ULPS * f64::EPSILON
}

/// Check the length and finiteness of an ambient initial state.
///
/// # Errors
/// [`Error::InitialState`] for a wrong length or a non-finite entry (named by coordinate).
pub fn check_shape(model: &str, names: &[String], x: &[f64]) -> Result<(), Error> {
    if x.len() != names.len() {
        return Err(Error::InitialState(format!(
            "initial state of {model} has {} values; expected {} ({})",
            x.len(),
            names.len(),
            abbreviate(names)
        )));
    }
    if let Some(i) = x.iter().position(|v| !v.is_finite()) {
        return Err(Error::InitialState(format!(
            "initial state of {model}: coordinate {} is not finite ({})",
            names[i], x[i]
        )));
    }
    Ok(())
}

/// The names of the coordinates, shortened to the first and last few for a long list.
fn abbreviate(names: &[String]) -> String {
    if names.len() <= 8 {
        names.join(", ")
    } else {
        format!(
            "{}, …, {}",
            names[..4].join(", "),
            names[names.len() - 2..].join(", ")
        )
    }
}

/// Check that `q` (the direction `label`) is a unit vector within the tolerance.
///
/// # Errors
/// [`Error::InitialState`] with the deviation.
pub fn check_unit(model: &str, label: &str, q: &Vector3<f64>) -> Result<(), Error> {
    let dev = (q.norm() - 1.0).abs();
    if dev > initial_state_tolerance() {
        return Err(Error::InitialState(format!(
            "initial state of {model}: |{label}| − 1 = {dev:.3e} is off the unit sphere by more than {INITIAL_STATE_ULPS}·ε = {:.3e} (normalise it; nothing is projected)",
            initial_state_tolerance()
        )));
    }
    Ok(())
}

/// Check that `ω` is tangent at `q` within the tolerance: `|q·ω| ≤ tol · max(1, |ω|)`.
///
/// # Errors
/// [`Error::InitialState`] with the offending dot product.
pub fn check_tangent(
    model: &str,
    label: &str,
    q: &Vector3<f64>,
    w: &Vector3<f64>,
) -> Result<(), Error> {
    let dot = q.dot(w);
    if dot.abs() > initial_state_tolerance() * w.norm().max(1.0) {
        return Err(Error::InitialState(format!(
            "initial state of {model}: {label} is not tangent, q·ω = {dot:.3e} exceeds {INITIAL_STATE_ULPS}·ε·max(1, |ω|) (remove the normal component; nothing is projected)"
        )));
    }
    Ok(())
}
