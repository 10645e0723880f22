//! The model entries of the registry: the free rigid body on S² and the systems on (TS²)ⁿ.

use super::*;

// ---------------------------------------------------------------------------------------------
// The free rigid body on S².

/// The free rigid body as a problem on the unit sphere of body angular momentum:
/// `ṁ = m × I⁻¹m`, i.e. `f(m) = −I⁻¹m` acting by rotation \[CCLMO22 §3\], \[LL76 §37\].
pub struct FreeRigidBody;

impl FreeRigidBody {
    const INERTIA: [f64; 3] = [1.0, 2.0, 3.0];
    fn m0() -> Vector3<f64> {
        Vector3::new(1.2f64.cos(), 0.0, 1.2f64.sin())
    }

    /// The exact solution (Jacobi elliptic functions) at time `t`.
    pub fn exact(t: f64) -> Vector3<f64> {
        let [i1, i2, i3] = Self::INERTIA;
        let m0 = Self::m0();
        let m2 = m0.norm_squared();
        let e2 = m0[0] * m0[0] / i1 + m0[2] * m0[2] / i3;
        let a = (i1 * (e2 * i3 - m2) / (i3 - i1)).sqrt();
        let b = (i2 * (e2 * i3 - m2) / (i3 - i2)).sqrt();
        let c = (i3 * (m2 - e2 * i1) / (i3 - i1)).sqrt();
        let lambda = ((i3 - i2) * (m2 - e2 * i1) / (i1 * i2 * i3)).sqrt();
        let k2 = (i2 - i1) * (e2 * i3 - m2) / ((i3 - i2) * (m2 - e2 * i1));
        let (sn, cn, dn) = jacobi_sn_cn_dn(lambda * t, k2);
        Vector3::new(a * cn, b * sn, c * dn)
    }

    fn problem() -> Problem<RotationAction, impl Fn(f64, &Sphere2) -> Vector3<f64>> {
        Self::problem_with(Vector3::from(Self::INERTIA))
    }

    fn problem_with(
        inertia: Vector3<f64>,
    ) -> Problem<RotationAction, impl Fn(f64, &Sphere2) -> Vector3<f64>> {
        Problem::new(RotationAction::new(), move |_t: f64, m: &Sphere2| {
            -m.q().component_div(&inertia)
        })
    }
}

impl Model for FreeRigidBody {
    fn id(&self) -> &'static str {
        "free-rigid-body"
    }
    fn description(&self) -> &'static str {
        "free rigid body on the sphere of body angular momentum, I = (1, 2, 3) [CCLMO22 §3]; exact solution [LL76 §37]"
    }
    fn presets(&self) -> Vec<(String, String)> {
        vec![(
            "s2".into(),
            "I = (1, 2, 3), m₀ = (cos 1.2, 0, sin 1.2)".into(),
        )]
    }
    fn parameters(&self, preset: &str) -> Result<Vec<Parameter>, Error> {
        check_preset(self, preset)?;
        let [i1, i2, i3] = Self::INERTIA;
        Ok(vec![
            Parameter::positive(
                "I1",
                i1,
                "principal moment of inertia about body axis 1 (kg·m²)",
            ),
            Parameter::positive(
                "I2",
                i2,
                "principal moment of inertia about body axis 2 (kg·m²)",
            ),
            Parameter::positive(
                "I3",
                i3,
                "principal moment of inertia about body axis 3 (kg·m²)",
            ),
        ])
    }
    fn state_names(&self, preset: &str) -> Result<Vec<String>, Error> {
        check_preset(self, preset)?;
        Ok(vec!["m1".into(), "m2".into(), "m3".into()])
    }
    fn initial_state(&self, preset: &str, params: &[(String, f64)]) -> Result<Vec<f64>, Error> {
        resolve(self.id(), &self.parameters(preset)?, params)?;
        Ok(Self::m0().as_slice().to_vec())
    }
    fn defaults(&self, _preset: &str) -> Defaults {
        Defaults {
            t_end: 20.0,
            h: 0.01,
            conv_t_end: 2.0,
            conv_steps: [8, 16, 32, 64, 128],
        }
    }
    fn simulate_with(
        &self,
        preset: &str,
        method: &MethodChoice,
        spec: &RunSpec,
    ) -> Result<RunResult, Error> {
        let v = resolve(self.id(), &self.parameters(preset)?, &spec.params)?;
        let inertia = Vector3::new(v[0], v[1], v[2]);
        let names = self.state_names(preset)?;
        let m0 = match &spec.initial_state {
            None => Self::m0(),
            Some(x) => {
                check_shape(self.id(), &names, x)?;
                let m = Vector3::new(x[0], x[1], x[2]);
                check_unit(self.id(), "m", &m)?;
                m
            }
        };
        let energy = move |m: &Vector3<f64>| 0.5 * m.component_div(&inertia).dot(m);
        record(
            self.id(),
            preset,
            method.generic::<RotationAction>()?,
            &Self::problem_with(inertia),
            Sphere2::try_new(m0).map_err(|e| Error::InitialState(e.to_string()))?,
            spec,
            names,
            |p: &Sphere2| p.q().as_slice().to_vec(),
            move |p: &Sphere2| Observation {
                energy: energy(p.q()),
                unit: (p.q().norm() - 1.0).abs(),
                tangency: None,
                momentum: None,
            },
        )
    }
    fn convergence(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        steps: &[usize],
        t_end: f64,
    ) -> Result<Vec<ConvergenceRow>, Error> {
        check_preset(self, preset)?;
        let problem = Self::problem();
        let y0 = Sphere2::try_new(Self::m0()).map_err(|e| Error::Usage(e.to_string()))?;
        let reference = Sphere2::new_unchecked(Self::exact(t_end));
        methods
            .iter()
            .map(|m| {
                let mut s = m.generic::<RotationAction>()?;
                schemes::measure_order(
                    &problem,
                    &mut s,
                    0.0,
                    &y0,
                    t_end,
                    &reference,
                    steps,
                    |a: &Sphere2, b: &Sphere2| (a.q() - b.q()).amax(),
                    1e-13,
                )
                .map_err(|e| Error::Integration(format!("{}: {}", m.id(), scheme_message(&e))))
            })
            .collect()
    }
    fn tolerance_study(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        tolerances: &[f64],
        t_end: f64,
    ) -> Result<Vec<schemes::ToleranceRow>, Error> {
        check_preset(self, preset)?;
        let problem = Self::problem();
        let y0 = Sphere2::try_new(Self::m0()).map_err(|e| Error::Usage(e.to_string()))?;
        let reference = Sphere2::new_unchecked(Self::exact(t_end));
        methods
            .iter()
            .map(|m| {
                let mut s = m.generic::<RotationAction>()?;
                schemes::measure_tolerance_order(
                    &problem,
                    &mut s,
                    0.0,
                    &y0,
                    t_end,
                    &reference,
                    tolerances,
                    |a: &Sphere2, b: &Sphere2| (a.q() - b.q()).amax(),
                    1e-13,
                )
                .map_err(|e| Error::Integration(format!("{}: {}", m.id(), scheme_message(&e))))
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Lagrangian systems on (S²)ⁿ.

/// Build a preset's model and initial state from its parameter values (in the order of the
/// preset's [`Parameter`] list).
type Build<M> = fn(&str, &[f64]) -> Result<(M, SphereState), Error>;

/// A model on (TS²)ⁿ from the `models` crate, integrated as a Lie group problem under SE(3)ⁿ.
pub struct SphereEntry<M> {
    pub(super) id: &'static str,
    pub(super) description: &'static str,
    pub(super) presets: &'static [(&'static str, &'static str)],
    pub(super) build: Build<M>,
    pub(super) params: fn(&str) -> Result<Vec<Parameter>, Error>,
    pub(super) defaults: fn(&str) -> Defaults,
}

impl<M: SphereModel + Sync> SphereEntry<M> {
    /// The model and initial state of a run: the preset with `overrides` applied, started at
    /// `initial` (ambient coordinates) when given.
    fn setup(
        &self,
        preset: &str,
        overrides: &[(String, f64)],
        initial: Option<&[f64]>,
    ) -> Result<(M, SphereState), Error> {
        let values = resolve(self.id, &self.parameters(preset)?, overrides)?;
        let (model, x0) = (self.build)(preset, &values)?;
        let x0 = match initial {
            None => x0,
            Some(x) => sphere_state(self.id, x0.bodies(), x)?,
        };
        Ok((model, x0))
    }
}

/// A state of (TS²)ⁿ from ambient coordinates `(q₁, ω₁, q₂, ω₂, …)`, checked (length,
/// finiteness, unit `qᵢ`, tangent `ωᵢ`), never projected.
fn sphere_state(model: &str, n: usize, x: &[f64]) -> Result<SphereState, Error> {
    check_shape(model, &ts_names(n), x)?;
    let mut q = Vec::with_capacity(n);
    let mut w = Vec::with_capacity(n);
    for (i, c) in x.chunks_exact(6).enumerate() {
        let qi = Vector3::new(c[0], c[1], c[2]);
        let wi = Vector3::new(c[3], c[4], c[5]);
        check_unit(model, &format!("q{}", i + 1), &qi)?;
        check_tangent(model, &format!("w{} at q{}", i + 1, i + 1), &qi, &wi)?;
        q.push(qi);
        w.push(wi);
    }
    SphereState::try_new(q, w)
        .map_err(|e| Error::InitialState(format!("initial state of {model}: {e}")))
}

fn ts_ambient(p: &Vec<TangentSphere2>) -> Vec<f64> {
    let mut v = Vec::with_capacity(6 * p.len());
    for x in p {
        v.extend_from_slice(x.q().as_slice());
        v.extend_from_slice(x.omega().as_slice());
    }
    v
}

fn ts_names(n: usize) -> Vec<String> {
    let mut names = Vec::with_capacity(6 * n);
    for i in 1..=n {
        for c in ["q", "w"] {
            for k in 1..=3 {
                names.push(format!("{c}{i}_{k}"));
            }
        }
    }
    names
}

/// Run a (TS²)ⁿ model with a Lie group method from 0 to `t_end` (the reproductions); a failed
/// run is an error.
pub fn simulate_sphere<M: SphereModel>(
    id: &str,
    preset: &str,
    model: &M,
    x0: &SphereState,
    method: &MethodChoice,
    step: &StepSize,
    t_end: f64,
) -> Result<RunResult, Error> {
    let spec = RunSpec::new(step.clone(), t_end);
    simulate_sphere_with(id, preset, model, x0, method, &spec)?.into_completed()
}

/// Run a (TS²)ⁿ model with a Lie group method and the options of `spec`.
pub fn simulate_sphere_with<M: SphereModel>(
    id: &str,
    preset: &str,
    model: &M,
    x0: &SphereState,
    method: &MethodChoice,
    spec: &RunSpec,
) -> Result<RunResult, Error> {
    let sys = model.system();
    let problem = Problem::new(
        TsAction::new(TangentSphereAction::new()),
        LieField::new(sys),
    );
    let symmetry = model.symmetry();
    let observe = |p: &Vec<TangentSphere2>| {
        let q: Vec<Vector3<f64>> = p.iter().map(|x| *x.q()).collect();
        let w: Vec<Vector3<f64>> = p.iter().map(|x| *x.omega()).collect();
        let momentum = match symmetry {
            Symmetry::None => None,
            Symmetry::Axial(axis) => Some(sys.angular_momentum(&q, &w).dot(&axis)),
            Symmetry::Full => Some(sys.angular_momentum(&q, &w).norm()),
        };
        Observation {
            energy: sys.energy(&q, &w),
            unit: models::unit_length_error(&q),
            tangency: Some(models::tangency_error(&q, &w)),
            momentum,
        }
    };
    record(
        id,
        preset,
        method.sphere(sys)?,
        &problem,
        x0.to_tangent_points(),
        spec,
        ts_names(x0.bodies()),
        ts_ambient,
        observe,
    )
}

impl<M: SphereModel + Sync> Model for SphereEntry<M> {
    fn id(&self) -> &'static str {
        self.id
    }
    fn description(&self) -> &'static str {
        self.description
    }
    fn presets(&self) -> Vec<(String, String)> {
        self.presets
            .iter()
            .map(|(a, b)| ((*a).to_string(), (*b).to_string()))
            .collect()
    }
    fn defaults(&self, preset: &str) -> Defaults {
        (self.defaults)(preset)
    }
    fn parameters(&self, preset: &str) -> Result<Vec<Parameter>, Error> {
        check_preset(self, preset)?;
        (self.params)(preset)
    }
    fn state_names(&self, preset: &str) -> Result<Vec<String>, Error> {
        let (_, x0) = self.setup(preset, &[], None)?;
        Ok(ts_names(x0.bodies()))
    }
    fn initial_state(&self, preset: &str, params: &[(String, f64)]) -> Result<Vec<f64>, Error> {
        let (_, x0) = self.setup(preset, params, None)?;
        Ok(ts_ambient(&x0.to_tangent_points()))
    }
    fn simulate_with(
        &self,
        preset: &str,
        method: &MethodChoice,
        spec: &RunSpec,
    ) -> Result<RunResult, Error> {
        let (model, x0) = self.setup(preset, &spec.params, spec.initial_state.as_deref())?;
        simulate_sphere_with(self.id, preset, &model, &x0, method, spec)
    }
    fn convergence(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        steps: &[usize],
        t_end: f64,
    ) -> Result<Vec<ConvergenceRow>, Error> {
        let (model, x0) = self.setup(preset, &[], None)?;
        let sys = model.system();
        let problem = Problem::new(
            TsAction::new(TangentSphereAction::new()),
            LieField::new(sys),
        );
        let y0 = x0.to_tangent_points();
        // Reference: the sixth-order RKMK with 8× the finest step count of the study.
        let finest = steps.iter().copied().max().unwrap_or(1).max(64);
        let n_ref = finest
            .checked_mul(REFERENCE_FACTOR)
            .filter(|&n| n <= STEP_BUDGET)
            .ok_or_else(|| {
                Error::Usage(format!(
                    "--steps: the largest step count {finest} is above the limit of {MAX_CONVERGENCE_STEPS} (the reference run takes {REFERENCE_FACTOR}× the finest count, within the step budget of {STEP_BUDGET} steps)"
                ))
            })?;
        let mut fine = schemes::methods::find("rkmk6")?.stepper::<TsAction>();
        let reference = schemes::integrate(
            &problem,
            &mut fine,
            0.0,
            y0.clone(),
            t_end,
            &Options::count(n_ref).save_final(),
        )
        .map_err(|f| Error::Integration(format!("reference run: {f}")))?
        .last()
        .1
        .clone();
        let dist = |a: &Vec<TangentSphere2>, b: &Vec<TangentSphere2>| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x.q() - y.q()).amax().max((x.omega() - y.omega()).amax()))
                .fold(0.0, f64::max)
        };
        methods
            .iter()
            .map(|m| {
                let mut s = m.sphere(sys)?;
                schemes::measure_order(
                    &problem, &mut s, 0.0, &y0, t_end, &reference, steps, dist, 1e-11,
                )
                .map_err(|e| Error::Integration(format!("{}: {}", m.id(), scheme_message(&e))))
            })
            .collect()
    }
    fn tolerance_study(
        &self,
        preset: &str,
        methods: &[MethodChoice],
        tolerances: &[f64],
        t_end: f64,
    ) -> Result<Vec<schemes::ToleranceRow>, Error> {
        let (model, x0) = self.setup(preset, &[], None)?;
        let sys = model.system();
        let problem = Problem::new(
            TsAction::new(TangentSphereAction::new()),
            LieField::new(sys),
        );
        let y0 = x0.to_tangent_points();
        // Reference: the sixth-order RKMK with 8192 steps per unit time (errors far below
        // those of the tolerances a study asks for).
        let n_ref = ((t_end.abs() * 8192.0).ceil() as usize).clamp(8192, STEP_BUDGET);
        let mut fine = schemes::methods::find("rkmk6")?.stepper::<TsAction>();
        let reference = schemes::integrate(
            &problem,
            &mut fine,
            0.0,
            y0.clone(),
            t_end,
            &Options::count(n_ref).save_final(),
        )
        .map_err(|f| Error::Integration(format!("reference run: {f}")))?
        .last()
        .1
        .clone();
        let dist = |a: &Vec<TangentSphere2>, b: &Vec<TangentSphere2>| {
            a.iter()
                .zip(b)
                .map(|(x, y)| (x.q() - y.q()).amax().max((x.omega() - y.omega()).amax()))
                .fold(0.0, f64::max)
        };
        methods
            .iter()
            .map(|m| {
                let mut s = m.sphere(sys)?;
                schemes::measure_tolerance_order(
                    &problem, &mut s, 0.0, &y0, t_end, &reference, tolerances, dist, 1e-11,
                )
                .map_err(|e| Error::Integration(format!("{}: {}", m.id(), scheme_message(&e))))
            })
            .collect()
    }
}
