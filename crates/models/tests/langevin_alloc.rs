//! The Langevin splitting step and the rotation-matrix RATTLE step allocate nothing (fixed-size
//! problems): the O-step matrices and the per-body generators are made once. Serial build only
//! for the Langevin step (with the `rayon` feature the bodies run on the pool's threads, which
//! this per-thread counter does not see).

use liegroup::So3;
use nalgebra::Vector3;
use schemes::symplectic::{CotangentPoint, HeavyTop, RattleRotation, RigidBody, UniformGravity};

#[path = "common/counting.rs"]
mod counting;
use counting::{Counting, allocations};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[cfg(not(feature = "rayon"))]
#[test]
fn langevin_steps_do_not_allocate() {
    use models::langevin::{HarmonicTrap, LangevinBody, LangevinSplitting, LangevinState};
    let body = LangevinBody::spheroid(1.0, 2.0, 1.0, 0.1, 1.0).unwrap();
    let trap = HarmonicTrap::new(1.0).unwrap();
    let mut lang = LangevinSplitting::new(body, trap, 0.01, 8, 3).unwrap();
    let mut states = vec![LangevinState::at_rest(Vector3::zeros(), So3::identity()); 8];
    lang.step(&mut states).unwrap();
    let before = allocations();
    for _ in 0..100 {
        lang.step(&mut states).unwrap();
    }
    assert_eq!(allocations() - before, 0);
}

#[test]
fn rattle_steps_do_not_allocate() {
    let top: HeavyTop = RigidBody::new(
        Vector3::new(1.0, 2.0, 2.5),
        UniformGravity::new(1.0, 1.0, Vector3::new(0.0, 0.0, 1.0)).unwrap(),
    )
    .unwrap();
    let mut rattle = RattleRotation::new(top).unwrap();
    let y0 = CotangentPoint::new(So3::identity(), Vector3::new(0.5, -1.0, 2.0));
    let mut s = rattle.lift(&y0);
    let before = allocations();
    for _ in 0..100 {
        s = rattle.advance_matrix(0.0, &s, 0.05).unwrap();
    }
    assert_eq!(allocations() - before, 0);
    assert!((s.q.transpose() * s.q - nalgebra::Matrix3::identity()).amax() < 1e-14);
}
