//! [`SphereVariational`] as a [`Stepper`] on runtime and fixed-size powers of TS².

use super::*;

impl<L: SphereLagrangian, T: VariationalScalar> Stepper<VecPowerAction<TangentSphereAction<T>>>
    for SphereVariational<L, T>
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        2
    }
    /// Symmetric: the discrete Lagrangian of \[LLM09\] is self-adjoint (tested forward and
    /// back in `tests/composition_symmetry.rs`).
    fn symmetric_on_group(&self) -> bool {
        true
    }
    /// One step; `f` is ignored (the stepper holds the Lagrangian).
    fn step<F>(
        &mut self,
        _action: &VecPowerAction<TangentSphereAction<T>>,
        _f: &F,
        t: T,
        y: &Vec<TangentSphere2<T>>,
        h: T,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<Vec<TangentSphere2<T>>>, SchemeError>
    where
        F: LieVectorField<
                Scalar<VecPowerAction<TangentSphereAction<T>>>,
                Vec<TangentSphere2<T>>,
                Algebra<VecPowerAction<TangentSphereAction<T>>>,
            >,
    {
        self.unsupported_tol(tol)?;
        self.load(y.iter())?;
        self.advance(re(t), h)?;
        Ok(StepOutput {
            y: (0..self.n).map(|i| self.output(i)).collect(),
            error: None,
        })
    }
    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}

impl<L: SphereLagrangian, T: VariationalScalar, const N: usize>
    Stepper<PowerAction<TangentSphereAction<T>, N>> for SphereVariational<L, T>
{
    fn name(&self) -> String {
        self.name.clone()
    }
    fn order(&self) -> u32 {
        2
    }
    /// Symmetric: the discrete Lagrangian of \[LLM09\] is self-adjoint (tested forward and
    /// back in `tests/composition_symmetry.rs`).
    fn symmetric_on_group(&self) -> bool {
        true
    }
    /// One step; `f` is ignored (the stepper holds the Lagrangian).
    fn step<F>(
        &mut self,
        _action: &PowerAction<TangentSphereAction<T>, N>,
        _f: &F,
        t: T,
        y: &[TangentSphere2<T>; N],
        h: T,
        tol: Option<&Tolerance>,
    ) -> Result<StepOutput<[TangentSphere2<T>; N]>, SchemeError>
    where
        F: LieVectorField<
                Scalar<PowerAction<TangentSphereAction<T>, N>>,
                [TangentSphere2<T>; N],
                Algebra<PowerAction<TangentSphereAction<T>, N>>,
            >,
    {
        self.unsupported_tol(tol)?;
        self.load(y.iter())?;
        self.advance(re(t), h)?;
        Ok(StepOutput {
            y: core::array::from_fn(|i| self.output(i)),
            error: None,
        })
    }
    fn stats(&self) -> StepStats {
        self.stats
    }
    fn reset_stats(&mut self) {
        self.stats = StepStats::default();
    }
}
