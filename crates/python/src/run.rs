//! Models, methods, `integrate` and the convergence tool: thin bindings of
//! `lie_integrators::registry` (the registry of the experiments program).

use crate::errors::{ErrorKind, raise, raise_with};
use lie_integrators::registry::{
    self, Error, Outcome, Progress, RunResult, RunSpec, methods::MethodChoice,
};
use lie_integrators::schemes::{self, StepSize, Tolerance};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// A registry error as the Python exception of its kind (the same one-line message).
pub fn py_error(py: Python<'_>, e: &Error) -> PyErr {
    let message = registry::one_line(&e.to_string());
    let kind = match e {
        Error::Parameter { name, .. } => {
            let name = pyo3::types::PyString::new(py, name).into_any();
            return raise_with(py, ErrorKind::Parameter, message, "name", name);
        }
        Error::InitialState(_) => ErrorKind::InitialState,
        Error::Usage(_) => ErrorKind::Input,
        Error::Io(_) => ErrorKind::Io,
        Error::Interrupted(_) => ErrorKind::Interrupted,
        Error::Integration(_) | Error::BrokenPipe => ErrorKind::Integration,
    };
    raise(py, kind, message)
}

/// Every model: a list of dicts `{id, description, presets: [(name, description)], defaults}`.
#[pyfunction]
pub fn models(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for m in registry::models() {
        let d = PyDict::new(py);
        d.set_item("id", m.id())?;
        d.set_item("description", m.description())?;
        let presets = m.presets();
        d.set_item("presets", presets.clone())?;
        let defaults = PyDict::new(py);
        for (name, _) in &presets {
            let x = m.defaults(name);
            let e = PyDict::new(py);
            e.set_item("t_end", x.t_end)?;
            e.set_item("h", x.h)?;
            e.set_item("convergence_t_end", x.conv_t_end)?;
            e.set_item("convergence_steps", x.conv_steps.to_vec())?;
            // A preset family ("chain-N") has no parameters, state or start of its own: None.
            let params = m.parameters(name).ok().map(|ps| {
                ps.into_iter()
                    .map(|p| {
                        let q = PyDict::new(py);
                        q.set_item("name", p.name)?;
                        q.set_item("default", p.default)?;
                        q.set_item("meaning", p.meaning)?;
                        q.set_item("min", p.min)?;
                        q.set_item("max", p.max)?;
                        q.set_item("integer", p.integer)?;
                        Ok(q)
                    })
                    .collect::<PyResult<Vec<_>>>()
            });
            e.set_item("parameters", params.transpose()?)?;
            e.set_item("state_names", m.state_names(name).ok())?;
            e.set_item("initial_state", m.initial_state(name, &[]).ok())?;
            defaults.set_item(name, e)?;
        }
        d.set_item("defaults", defaults)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Every method identifier the registry accepts, except compositions: a list of dicts `{id,
/// order, embedded_order, kind, description}` with `kind` one of `"method"` (the catalogue
/// `schemes::methods::METHODS`), `"variant"` (`<id>-cayley`, `<id>-embedded`) and
/// `"variational"` (the variational integrators on (S²)ⁿ).
#[pyfunction]
pub fn methods(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    let push = |id: &str, order: u32, emb: Option<u32>, kind: &str, desc: &str| {
        let d = PyDict::new(py);
        d.set_item("id", id)?;
        d.set_item("order", order)?;
        d.set_item("embedded_order", emb)?;
        d.set_item("kind", kind)?;
        d.set_item("description", desc)?;
        out.append(d)
    };
    for m in schemes::methods::METHODS {
        push(m.id, m.order, m.embedded_order, "method", m.description)?;
    }
    for v in registry::methods::variants() {
        push(&v.id, v.order, v.embedded_order, "variant", &v.description)?;
    }
    for v in schemes::variational::METHODS {
        push(v.id, v.order, None, "variational", v.description)?;
    }
    Ok(out)
}

/// The symmetric composition schemes (`scheme+base` method identifiers): a list of dicts
/// `{id, order, stages, description}` (the order is the composition's for a base of order 2).
#[pyfunction]
pub fn compositions(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for s in schemes::composition::SCHEMES {
        let d = PyDict::new(py);
        d.set_item("id", s.id)?;
        d.set_item("order", s.order)?;
        d.set_item("stages", s.stages())?;
        d.set_item("description", format!("{} [{}]", s.name, s.reference))?;
        out.append(d)?;
    }
    Ok(out)
}

/// The order and embedded order of a method identifier (parsed by the registry).
#[pyfunction]
pub fn method_info(py: Python<'_>, id: &str) -> PyResult<(String, u32, Option<u32>)> {
    let m = MethodChoice::parse(id).map_err(|e| py_error(py, &e))?;
    Ok((m.id(), m.order(), m.embedded_order()))
}

/// A run's result as a dict of NumPy arrays and numbers (the Python `RunResult` wraps it).
fn result_dict<'py>(py: Python<'py>, r: RunResult) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    let dim = r.state_names.len();
    let n = r.t.len();
    let flat: Vec<f64> = r.states.into_iter().flatten().collect();
    let states = Array2::from_shape_vec((n, dim), flat)
        .map_err(|e| raise(py, ErrorKind::Integration, e.to_string()))?;
    d.set_item("model", r.model)?;
    d.set_item("preset", r.preset)?;
    d.set_item("method", r.method)?;
    d.set_item("state_names", r.state_names)?;
    d.set_item("times", PyArray1::from_vec(py, r.t))?;
    d.set_item("states", states.into_pyarray(py))?;
    let series = PyDict::new(py);
    for s in r.series {
        series.set_item(s.name, PyArray1::from_vec(py, s.values))?;
    }
    d.set_item("series", series)?;
    d.set_item("final_state", PyArray1::from_vec(py, r.final_state))?;
    d.set_item("t0", r.t0)?;
    d.set_item("t_final", r.t_final)?;
    d.set_item("steps", r.steps)?;
    d.set_item("rejected", r.rejected)?;
    d.set_item("f_evals", r.f_evals)?;
    d.set_item("wall_time", r.wall_time)?;
    d.set_item("energy0", r.energy0)?;
    d.set_item("final_energy_error", r.final_energy_error)?;
    d.set_item("max_energy_error", r.max_energy_error)?;
    d.set_item("max_unit_length_error", r.max_unit_length_error)?;
    d.set_item("max_tangency_error", r.max_tangency_error)?;
    d.set_item("max_momentum_error", r.max_momentum_error)?;
    d.set_item("save_every", r.save_every)?;
    let (outcome, message) = match r.outcome {
        Outcome::Completed => ("completed", None),
        Outcome::Interrupted => ("interrupted", None),
        Outcome::Failed(m) => ("failed", Some(registry::one_line(&m))),
    };
    d.set_item("outcome", outcome)?;
    d.set_item("message", message)?;
    Ok(d)
}

/// The step choice of `integrate`: a fixed step `h`, a step count, tolerances, or the
/// preset's step `default_h`.
fn step_size(
    h: Option<f64>,
    steps: Option<usize>,
    tol: Option<(f64, f64)>,
    default_h: f64,
) -> StepSize {
    match (h, steps, tol) {
        (Some(h), _, _) => StepSize::Fixed(h),
        (None, Some(n), _) => StepSize::Count(n),
        (None, None, Some((rtol, atol))) => StepSize::Adaptive(Tolerance { rtol, atol }),
        (None, None, None) => StepSize::Fixed(default_h),
    }
}

/// One run of `model` (`preset`) with `method`; the GIL is released while it runs, and a
/// pending signal (Ctrl-C) stops it after the current step (`outcome = "interrupted"`).
#[pyfunction]
#[pyo3(signature = (model, preset, method, t0=0.0, t_end=None, h=None, steps=None, tol=None, max_steps=None, h_min=None, save_every=None, params=Vec::new(), initial_state=None))]
#[allow(clippy::too_many_arguments)]
pub fn integrate<'py>(
    py: Python<'py>,
    model: &str,
    preset: Option<&str>,
    method: &str,
    t0: f64,
    t_end: Option<f64>,
    h: Option<f64>,
    steps: Option<usize>,
    tol: Option<(f64, f64)>,
    max_steps: Option<usize>,
    h_min: Option<f64>,
    save_every: Option<usize>,
    params: Vec<(String, f64)>,
    initial_state: Option<Vec<f64>>,
) -> PyResult<Bound<'py, PyDict>> {
    let err = |e: Error| py_error(py, &e);
    let m = registry::find_model(model).map_err(err)?;
    let choice = MethodChoice::parse(method).map_err(err)?;
    let preset = preset.map_or_else(|| m.presets()[0].0.clone(), str::to_string);
    let stop = Arc::new(AtomicBool::new(false));
    // The exception a signal handler raised (KeyboardInterrupt for Ctrl-C).
    let signal: Arc<Mutex<Option<PyErr>>> = Arc::new(Mutex::new(None));
    let progress = {
        let (stop, signal) = (Arc::clone(&stop), Arc::clone(&signal));
        Progress(Arc::new(move |_fraction: f64| {
            Python::attach(|py| {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::SeqCst);
                    if let Ok(mut slot) = signal.lock() {
                        slot.get_or_insert(e);
                    }
                }
            });
        }))
    };
    let spec = RunSpec {
        step: step_size(h, steps, tol, m.defaults(&preset).h),
        t0,
        t_end: t_end.unwrap_or(m.defaults(&preset).t_end),
        max_steps: max_steps.unwrap_or(registry::STEP_BUDGET),
        h_min,
        save_every,
        stop: Some(stop),
        progress: Some(progress),
        params,
        initial_state,
    };
    let result = py.detach(|| m.simulate_with(&preset, &choice, &spec));
    let pending = signal.lock().ok().and_then(|mut s| s.take());
    match result {
        Ok(r) => {
            if let Some(e) = pending
                && !e.is_instance_of::<pyo3::exceptions::PyKeyboardInterrupt>(py)
            {
                return Err(e);
            }
            result_dict(py, r)
        }
        Err(e) => Err(pending.unwrap_or_else(|| py_error(py, &e))),
    }
}

/// The convergence study of `model` for `methods`: one dict per method (`method`,
/// `expected_order`, `steps`, `h`, `errors`, `observed_order`, `used`, `pre_asymptotic`,
/// `round_off`, `skipped`).
#[pyfunction]
#[pyo3(signature = (model, preset, methods, steps=None, t_end=None))]
pub fn convergence<'py>(
    py: Python<'py>,
    model: &str,
    preset: Option<&str>,
    methods: Vec<String>,
    steps: Option<Vec<usize>>,
    t_end: Option<f64>,
) -> PyResult<Bound<'py, PyList>> {
    let err = |e: Error| py_error(py, &e);
    let m = registry::find_model(model).map_err(err)?;
    let preset = preset.map_or_else(|| m.presets()[0].0.clone(), str::to_string);
    let choices = methods
        .iter()
        .map(|id| MethodChoice::parse(id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(err)?;
    let defaults = m.defaults(&preset);
    let steps = steps.unwrap_or_else(|| defaults.conv_steps.to_vec());
    let t_end = t_end.unwrap_or(defaults.conv_t_end);
    let rows = py
        .detach(|| m.convergence(&preset, &choices, &steps, t_end))
        .map_err(err)?;
    let out = PyList::empty(py);
    for r in rows {
        let d = PyDict::new(py);
        d.set_item("observed_order", r.observed_order())?;
        d.set_item("method", r.method)?;
        d.set_item("expected_order", r.expected_order)?;
        d.set_item("steps", r.steps)?;
        d.set_item("h", PyArray1::from_vec(py, r.h))?;
        d.set_item("errors", PyArray1::from_vec(py, r.errors))?;
        let (used, pre, round) = r.fit.map_or_else(Default::default, |f| {
            (f.used, f.pre_asymptotic, f.round_off)
        });
        d.set_item("used", used)?;
        d.set_item("pre_asymptotic", pre)?;
        d.set_item("round_off", round)?;
        let skipped: Vec<(f64, String)> = r
            .skipped
            .iter()
            .map(|s| (s.setting, registry::scheme_message(&s.reason)))
            .collect();
        d.set_item("skipped", skipped)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Register the functions in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(models, m)?)?;
    m.add_function(wrap_pyfunction!(methods, m)?)?;
    m.add_function(wrap_pyfunction!(compositions, m)?)?;
    m.add_function(wrap_pyfunction!(method_info, m)?)?;
    m.add_function(wrap_pyfunction!(integrate, m)?)?;
    m.add_function(wrap_pyfunction!(convergence, m)?)?;
    Ok(())
}
