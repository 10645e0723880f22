//! Ensembles: one model, preset and method run from many initial states or parameter sets.
//!
//! An [`EnsembleSpec`] lists its members (each may set an initial state, parameter overrides,
//! its own step or tolerances, and a seed); [`run_member`] runs one of them. A member's result
//! depends only on the spec and its index, never on which shard or chunk runs it, so results
//! are bitwise the same serial or distributed. A bad member (a NaN initial state, an unknown
//! parameter, a step ≤ 0) gives an error result with its one-line message and leaves the other
//! members alone; nothing here panics on user input.
//!
//! The JSON-lines form of a result ([`MemberResult::to_json_line`]) writes every number in the
//! shortest form that reads back to the same `f64`, and non-finite numbers as the strings
//! `"NaN"`, `"inf"`, `"-inf"`; each line carries the spec's hash ([`EnsembleSpec::hash`]) and
//! the member count, so that shards of different specs cannot be merged by mistake.
//!
//! The spec as JSON ([`EnsembleSpec::from_json`]):
//!
//! ```json
//! {
//!   "model": "double-spherical-pendulum", "preset": "llm09", "method": "rkmk4",
//!   "t0": 0, "t_end": 1, "h": 0.01,
//!   "params": {"g": 9.81},
//!   "members": [
//!     {},
//!     {"params": {"l1": 4.9}},
//!     {"initial_state": [0.3, 0, 0.954, 0, 0, 0, 0, 0, 1, 0, 0, 0], "h": 0.005},
//!     {"rtol": 1e-8, "atol": 1e-10},
//!     {"seed": 7}
//!   ]
//! }
//! ```
//!
//! `preset` defaults to the model's first, `t0` to 0, `t_end` and the step to the preset's;
//! `h` or `rtol` with `atol` set the step of every member unless the member sets its own;
//! `params` are overridden per member by name; `seed` sets the model's `seed` parameter (only
//! models with one accept it); numbers in `initial_state` may be the strings `"NaN"`, `"inf"`,
//! `"-inf"`. Unknown keys are errors (a misspelt key would otherwise be ignored silently).

use crate::registry::{Error, MAX_INTEGER_PARAMETER, Outcome, RunSpec, STEP_BUDGET, find_model};
use crate::registry::{methods::MethodChoice, num};
use schemes::{StepSize, Tolerance};
use serde_json::Value;

/// One member of an ensemble: what it changes relative to the spec.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Member {
    /// The initial state in the ambient coordinates of the model's `state_names`; `None`: the
    /// preset's (after the parameter overrides, a seed included).
    pub initial_state: Option<Vec<f64>>,
    /// Parameter overrides by name, applied after the spec's.
    pub params: Vec<(String, f64)>,
    /// The member's own step (`None`: the spec's).
    pub step: Option<StepSize>,
    /// The model's `seed` parameter (models with a random start).
    pub seed: Option<f64>,
}

/// An ensemble: one model, preset and method over a time span, and its members.
#[derive(Clone, Debug, PartialEq)]
pub struct EnsembleSpec {
    /// Model identifier.
    pub model: String,
    /// Preset.
    pub preset: String,
    /// Method identifier (compositions included).
    pub method: String,
    /// Initial time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// The step of every member that does not set its own.
    pub step: StepSize,
    /// Keep every `K`-th step ([`RunSpec::save_every`]; the JSON lines hold final values only).
    pub save_every: Option<usize>,
    /// The step budget of each member.
    pub max_steps: usize,
    /// Parameter overrides of every member.
    pub params: Vec<(String, f64)>,
    /// The members.
    pub members: Vec<Member>,
}

/// The largest number of members of a spec.
pub const MAX_MEMBERS: usize = 10_000_000;

fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}

/// A finite-or-not number: a JSON number or one of the strings `"NaN"`, `"inf"`, `"-inf"`.
fn number(v: &Value, what: &str) -> Result<f64, Error> {
    match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| usage(format!("spec: {what} is not a number"))),
        Value::String(s) => match s.as_str() {
            "NaN" | "nan" => Ok(f64::NAN),
            "inf" | "+inf" | "Infinity" => Ok(f64::INFINITY),
            "-inf" | "-Infinity" => Ok(f64::NEG_INFINITY),
            _ => Err(usage(format!("spec: {what} is not a number ('{s}')"))),
        },
        _ => Err(usage(format!("spec: {what} is not a number"))),
    }
}

fn count(v: &Value, what: &str) -> Result<usize, Error> {
    v.as_u64()
        .and_then(|n| usize::try_from(n).ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| usage(format!("spec: {what} must be a whole number ≥ 1")))
}

fn check_keys(
    obj: &serde_json::Map<String, Value>,
    allowed: &[&str],
    what: &str,
) -> Result<(), Error> {
    for k in obj.keys() {
        if !allowed.contains(&k.as_str()) {
            return Err(usage(format!(
                "spec: unknown key '{k}' in {what}; known: {}",
                allowed.join(", ")
            )));
        }
    }
    Ok(())
}

fn params_of(v: Option<&Value>, what: &str) -> Result<Vec<(String, f64)>, Error> {
    let Some(v) = v else { return Ok(Vec::new()) };
    let obj = v.as_object().ok_or_else(|| {
        usage(format!(
            "spec: {what} must be an object {{\"name\": value}}"
        ))
    })?;
    obj.iter()
        .map(|(k, x)| Ok((k.clone(), number(x, &format!("{what}.{k}"))?)))
        .collect()
}

/// `h`, or `rtol` with `atol`, of an object (`None` when neither is set). A member's value is
/// checked when it runs (a bad one is that member's error), the spec's at once.
fn step_of(obj: &serde_json::Map<String, Value>, what: &str) -> Result<Option<StepSize>, Error> {
    match (obj.get("h"), obj.get("rtol"), obj.get("atol")) {
        (None, None, None) => Ok(None),
        (Some(h), None, None) => Ok(Some(StepSize::Fixed(number(h, &format!("{what}.h"))?))),
        (None, Some(r), Some(a)) => Ok(Some(StepSize::Adaptive(Tolerance {
            rtol: number(r, &format!("{what}.rtol"))?,
            atol: number(a, &format!("{what}.atol"))?,
        }))),
        (Some(_), _, _) => Err(usage(format!(
            "spec: {what} sets h and rtol/atol; give one of them"
        ))),
        _ => Err(usage(format!("spec: {what}: rtol and atol go together"))),
    }
}

/// A step is usable: `h > 0` finite, or `rtol, atol > 0` finite.
fn check_step(step: &StepSize) -> Result<(), Error> {
    let ok = |x: f64| x.is_finite() && x > 0.0;
    match step {
        StepSize::Fixed(h) if !ok(*h) => Err(usage(format!(
            "h must be positive and finite, got {}",
            num(*h)
        ))),
        StepSize::Adaptive(t) if !(ok(t.rtol) && ok(t.atol)) => Err(usage(format!(
            "rtol and atol must be positive and finite, got {} and {}",
            num(t.rtol),
            num(t.atol)
        ))),
        StepSize::Count(0) => Err(usage("the step count must be at least 1")),
        _ => Ok(()),
    }
}

impl EnsembleSpec {
    /// Parse a spec from JSON (the format of the [module documentation](self)), checking the
    /// model, preset, method, time span and the spec-wide step; members are checked when they
    /// run.
    ///
    /// # Errors
    /// [`Error::Usage`] with a one-line message for malformed JSON, a missing or unknown key,
    /// an unknown model, preset or method, a bad time span or step, or no members.
    pub fn from_json(text: &str) -> Result<Self, Error> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| usage(format!("spec is not valid JSON: {e}")))?;
        let obj = v
            .as_object()
            .ok_or_else(|| usage("spec must be a JSON object"))?;
        check_keys(
            obj,
            &[
                "model",
                "preset",
                "method",
                "t0",
                "t_end",
                "h",
                "rtol",
                "atol",
                "save_every",
                "max_steps",
                "params",
                "members",
            ],
            "the spec",
        )?;
        let text_of = |k: &str| -> Result<Option<String>, Error> {
            match obj.get(k) {
                None => Ok(None),
                Some(Value::String(s)) => Ok(Some(s.clone())),
                Some(_) => Err(usage(format!("spec: {k} must be a string"))),
            }
        };
        let model_id = text_of("model")?.ok_or_else(|| usage("spec: 'model' is missing"))?;
        let method = text_of("method")?.ok_or_else(|| usage("spec: 'method' is missing"))?;
        let model = find_model(&model_id)?;
        let choice = MethodChoice::parse(&method)?;
        let preset = match text_of("preset")? {
            Some(p) => p,
            None => model.presets()[0].0.clone(),
        };
        // Checks the preset.
        model.parameters(&preset)?;
        let defaults = model.defaults(&preset);
        let t0 = obj
            .get("t0")
            .map(|x| number(x, "t0"))
            .transpose()?
            .unwrap_or(0.0);
        let t_end = obj
            .get("t_end")
            .map(|x| number(x, "t_end"))
            .transpose()?
            .unwrap_or(defaults.t_end);
        if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
            return Err(usage(format!(
                "spec: t0 and t_end must be finite with t_end > t0, got {} and {}",
                num(t0),
                num(t_end)
            )));
        }
        let step = step_of(obj, "the spec")?.unwrap_or(StepSize::Fixed(defaults.h));
        check_step(&step).map_err(|e| usage(format!("spec: {e}")))?;
        if matches!(step, StepSize::Adaptive(_)) && choice.embedded_order().is_none() {
            return Err(usage(format!(
                "spec: method '{method}' has no embedded error estimate; give h or use a pair"
            )));
        }
        let save_every = obj
            .get("save_every")
            .map(|x| count(x, "save_every"))
            .transpose()?;
        let max_steps = obj
            .get("max_steps")
            .map(|x| count(x, "max_steps"))
            .transpose()?
            .unwrap_or(STEP_BUDGET);
        let params = params_of(obj.get("params"), "params")?;
        // The spec-wide overrides hold for every member: a bad one is the spec's error.
        crate::registry::resolve(&model_id, &model.parameters(&preset)?, &params)
            .map_err(|e| usage(format!("spec: {e}")))?;
        let members = obj
            .get("members")
            .ok_or_else(|| usage("spec: 'members' is missing"))?
            .as_array()
            .ok_or_else(|| usage("spec: 'members' must be a list"))?;
        if members.is_empty() || members.len() > MAX_MEMBERS {
            return Err(usage(format!(
                "spec: 'members' must hold 1 to {MAX_MEMBERS} members, got {}",
                members.len()
            )));
        }
        let members = members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let what = format!("member {i}");
                let m = m
                    .as_object()
                    .ok_or_else(|| usage(format!("spec: {what} must be an object")))?;
                check_keys(
                    m,
                    &["initial_state", "params", "h", "rtol", "atol", "seed"],
                    &what,
                )?;
                let initial_state = match m.get("initial_state") {
                    None => None,
                    Some(Value::Array(xs)) => Some(
                        xs.iter()
                            .enumerate()
                            .map(|(k, x)| number(x, &format!("{what}.initial_state[{k}]")))
                            .collect::<Result<Vec<f64>, Error>>()?,
                    ),
                    Some(_) => {
                        return Err(usage(format!(
                            "spec: {what}.initial_state must be a list of numbers"
                        )));
                    }
                };
                Ok(Member {
                    initial_state,
                    params: params_of(m.get("params"), &format!("{what}.params"))?,
                    step: step_of(m, &what)?,
                    seed: m
                        .get("seed")
                        .map(|x| number(x, &format!("{what}.seed")))
                        .transpose()?,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(Self {
            model: model_id,
            preset,
            method,
            t0,
            t_end,
            step,
            save_every,
            max_steps,
            params,
            members,
        })
    }

    /// A canonical text of the spec: every field in a fixed order, numbers in their shortest
    /// round-trip form (independent of the JSON's layout, key order and number spelling).
    #[must_use]
    pub fn canonical(&self) -> String {
        format!("{self:?}")
    }

    /// The spec's hash: 64-bit FNV-1a of [`canonical`](Self::canonical), 16 hex digits. Shards
    /// of one spec share it.
    #[must_use]
    pub fn hash(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.canonical().bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        format!("{h:016x}")
    }

    /// The member identifier: `m` and the index with at least six digits (`m000042`), so that
    /// the identifiers sort in member order.
    #[must_use]
    pub fn member_id(&self, i: usize) -> String {
        format!("m{i:06}")
    }

    /// The indices of shard `shard` of `shards` (0-based): the members `shard, shard + shards,
    /// shard + 2·shards, …` (strided, so that expensive neighbours spread over the shards).
    ///
    /// # Errors
    /// [`Error::Usage`] for `shards = 0` or `shard ≥ shards`.
    pub fn shard_members(&self, shard: usize, shards: usize) -> Result<Vec<usize>, Error> {
        if shards == 0 || shard >= shards {
            return Err(usage(format!(
                "shard {shard}/{shards}: need 0 ≤ i < n (shards are numbered from 0)"
            )));
        }
        Ok((shard..self.members.len()).step_by(shards).collect())
    }

    /// The run options of member `i` (spec options with the member's changes), or its error.
    fn run_spec(&self, i: usize) -> Result<RunSpec, Error> {
        let m = self.members.get(i).ok_or_else(|| {
            usage(format!(
                "member {i} does not exist ({} members)",
                self.members.len()
            ))
        })?;
        let step = m.step.clone().unwrap_or_else(|| self.step.clone());
        check_step(&step)?;
        let mut spec = RunSpec::new(step, self.t_end);
        spec.t0 = self.t0;
        spec.max_steps = self.max_steps;
        spec.save_every = self.save_every;
        let mut params: Vec<(String, f64)> = self
            .params
            .iter()
            .filter(|(k, _)| !m.params.iter().any(|(n, _)| n == k))
            .cloned()
            .collect();
        params.extend(m.params.iter().cloned());
        if let Some(seed) = m.seed {
            if params.iter().any(|(k, _)| k == "seed") {
                return Err(usage("the member sets seed twice (seed and params.seed)"));
            }
            if !(0.0..=MAX_INTEGER_PARAMETER).contains(&seed) || seed.fract() != 0.0 {
                return Err(Error::Parameter {
                    name: "seed".into(),
                    message: format!(
                        "seed must be a whole number in [0, 2^53], got {}",
                        num(seed)
                    ),
                });
            }
            params.push(("seed".into(), seed));
        }
        spec.params = params;
        spec.initial_state.clone_from(&m.initial_state);
        Ok(spec)
    }
}

/// How a member ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemberStatus {
    /// It reached the final time.
    Completed,
    /// The integration failed after the start (the result holds the steps up to then).
    Failed,
    /// The member could not start (bad initial state, parameter or step): no numbers.
    Error,
}

impl MemberStatus {
    /// The name in the JSON lines: `completed`, `failed`, `error`.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Completed => "completed",
            Self::Failed => "failed",
            Self::Error => "error",
        }
    }
}

/// The result of one member: final values and statistics (no trajectory, no wall time: it is
/// the same bits wherever it is computed).
#[derive(Clone, Debug, PartialEq)]
pub struct MemberResult {
    /// The member's index in the spec.
    pub index: usize,
    /// The member's identifier ([`EnsembleSpec::member_id`]).
    pub id: String,
    /// Completed, failed or error.
    pub status: MemberStatus,
    /// The one-line message of a failed or erroneous member.
    pub message: Option<String>,
    /// The final ambient state (empty for an error).
    pub final_state: Vec<f64>,
    /// The final time reached (`NaN` for an error).
    pub t_final: f64,
    /// Accepted steps.
    pub steps: usize,
    /// Rejected steps.
    pub rejected: usize,
    /// Vector-field evaluations.
    pub f_evals: usize,
    /// Initial energy (`NaN` for an error).
    pub energy0: f64,
    /// `|E(T) − E₀|/|E₀|` (`NaN` for an error).
    pub final_energy_error: f64,
    /// The largest relative energy error over every step.
    pub max_energy_error: f64,
    /// `max ||qᵢ| − 1|` over every step (the constraint error).
    pub max_unit_length_error: f64,
    /// `max |qᵢ·ωᵢ|` over every step (models on TS²).
    pub max_tangency_error: Option<f64>,
    /// The largest relative change of a conserved momentum component.
    pub max_momentum_error: Option<f64>,
}

impl MemberResult {
    fn error(spec: &EnsembleSpec, i: usize, e: &Error) -> Self {
        Self {
            index: i,
            id: spec.member_id(i),
            status: MemberStatus::Error,
            message: Some(crate::registry::one_line(&e.to_string())),
            final_state: Vec::new(),
            t_final: f64::NAN,
            steps: 0,
            rejected: 0,
            f_evals: 0,
            energy0: f64::NAN,
            final_energy_error: f64::NAN,
            max_energy_error: f64::NAN,
            max_unit_length_error: f64::NAN,
            max_tangency_error: None,
            max_momentum_error: None,
        }
    }

    /// The result as one JSON line (no trailing newline), keys in a fixed order: `spec` (the
    /// spec's hash), `members` (the member count), `member`, `id`, `status`, `message`,
    /// `t_final`, `steps`, `rejected`, `f_evals`, `energy0`, `final_energy_error`,
    /// `max_energy_error`, `max_unit_length_error`, `max_tangency_error`,
    /// `max_momentum_error`, `final_state`. Numbers in their shortest round-trip form;
    /// non-finite ones as `"NaN"`, `"inf"`, `"-inf"`; absent ones as `null`.
    #[must_use]
    pub fn to_json_line(&self, spec_hash: &str, members: usize) -> String {
        let opt = |x: Option<f64>| x.map_or_else(|| "null".to_string(), json_number);
        let message = self.message.as_ref().map_or_else(
            || "null".to_string(),
            |m| serde_json::to_string(m).unwrap_or_else(|_| "null".into()),
        );
        let state: Vec<String> = self.final_state.iter().map(|&x| json_number(x)).collect();
        format!(
            "{{\"spec\":\"{spec_hash}\",\"members\":{members},\"member\":{},\"id\":\"{}\",\"status\":\"{}\",\"message\":{message},\"t_final\":{},\"steps\":{},\"rejected\":{},\"f_evals\":{},\"energy0\":{},\"final_energy_error\":{},\"max_energy_error\":{},\"max_unit_length_error\":{},\"max_tangency_error\":{},\"max_momentum_error\":{},\"final_state\":[{}]}}",
            self.index,
            self.id,
            self.status.as_str(),
            json_number(self.t_final),
            self.steps,
            self.rejected,
            self.f_evals,
            json_number(self.energy0),
            json_number(self.final_energy_error),
            json_number(self.max_energy_error),
            json_number(self.max_unit_length_error),
            opt(self.max_tangency_error),
            opt(self.max_momentum_error),
            state.join(","),
        )
    }
}

/// A number for the JSON lines: the shortest decimal that reads back to the same `f64`
/// (Rust's `{:?}`, e.g. `0.1`, `1e-7`, `-0.0`), or `"NaN"`, `"inf"`, `"-inf"`.
#[must_use]
pub fn json_number(x: f64) -> String {
    if x.is_nan() {
        "\"NaN\"".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "\"inf\"".into()
        } else {
            "\"-inf\"".into()
        }
    } else {
        format!("{x:?}")
    }
}

/// The header of a line of a shard file: the spec hash, the member count and the member index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineKey {
    /// The spec's hash.
    pub spec: String,
    /// The member count of the spec.
    pub members: usize,
    /// The member's index.
    pub member: usize,
}

/// Read the header of a JSON line written by [`MemberResult::to_json_line`].
///
/// # Errors
/// [`Error::Usage`] when the line is not such a line.
pub fn line_key(line: &str) -> Result<LineKey, Error> {
    let v: Value = serde_json::from_str(line)
        .map_err(|e| usage(format!("not a JSON line of an ensemble result: {e}")))?;
    let spec = v.get("spec").and_then(Value::as_str);
    let members = v.get("members").and_then(Value::as_u64);
    let member = v.get("member").and_then(Value::as_u64);
    match (spec, members, member) {
        (Some(s), Some(n), Some(i)) => Ok(LineKey {
            spec: s.to_string(),
            members: usize::try_from(n).map_err(|_| usage("member count too large"))?,
            member: usize::try_from(i).map_err(|_| usage("member index too large"))?,
        }),
        _ => Err(usage(
            "not a JSON line of an ensemble result (no spec, members or member key)",
        )),
    }
}

/// Run member `i` of `spec`. Never panics on user input and never fails: a member that cannot
/// start is a [`MemberStatus::Error`] result with its one-line message.
#[must_use]
pub fn run_member(spec: &EnsembleSpec, i: usize) -> MemberResult {
    let attempt = || -> Result<MemberResult, Error> {
        let run = spec.run_spec(i)?;
        let model = find_model(&spec.model)?;
        let method = MethodChoice::parse(&spec.method)?;
        if matches!(run.step, StepSize::Adaptive(_)) && method.embedded_order().is_none() {
            return Err(usage(format!(
                "method '{}' has no embedded error estimate; give h or use a pair",
                spec.method
            )));
        }
        let r = model.simulate_with(&spec.preset, &method, &run)?;
        let (status, message) = match r.outcome {
            Outcome::Completed => (MemberStatus::Completed, None),
            Outcome::Failed(m) => (MemberStatus::Failed, Some(crate::registry::one_line(&m))),
            Outcome::Interrupted => (MemberStatus::Failed, Some("interrupted".to_string())),
        };
        Ok(MemberResult {
            index: i,
            id: spec.member_id(i),
            status,
            message,
            final_state: r.final_state,
            t_final: r.t_final,
            steps: r.steps,
            rejected: r.rejected,
            f_evals: r.f_evals,
            energy0: r.energy0,
            final_energy_error: r.final_energy_error,
            max_energy_error: r.max_energy_error,
            max_unit_length_error: r.max_unit_length_error,
            max_tangency_error: r.max_tangency_error,
            max_momentum_error: r.max_momentum_error,
        })
    };
    attempt().unwrap_or_else(|e| MemberResult::error(spec, i, &e))
}

/// Run the members of shard `shard` of `shards` ([`EnsembleSpec::shard_members`]) one after
/// the other.
///
/// # Errors
/// [`Error::Usage`] for a bad shard number.
pub fn run_shard(
    spec: &EnsembleSpec,
    shard: usize,
    shards: usize,
) -> Result<Vec<MemberResult>, Error> {
    Ok(spec
        .shard_members(shard, shards)?
        .into_iter()
        .map(|i| run_member(spec, i))
        .collect())
}
