//! The kinetic-energy map of [LLM09, Fig. 3.7] (`Icosphere::kinetic_energy_map`) on the
//! 642 Lennard-Jones molecules and the 5120-face mesh (icosphere subdivided 4 times):
//! every molecule lies in the face it is binned into, the per-face sums add up to the total
//! kinetic energy, every face has a value, the area-weighted integral of the map over the
//! sphere is the mean energy per molecule (within 1%: the map smooths over neighbouring
//! faces), and a uniform kinetic energy maps to itself.

use models::{Icosphere, LennardJones, SphereModel};

#[test]
fn kinetic_energy_map_of_the_molecules() {
    let mesh = Icosphere::new(4);
    assert_eq!(mesh.faces.len(), 5120);
    let (model, x0) = LennardJones::icosphere_642();
    let sys = model.system();
    let n = x0.bodies();
    // Per-molecule kinetic energy ½ mᵢ |ωᵢ × qᵢ|² (mᵢ = 1), which sums to the system's.
    let ke: Vec<f64> =
        x0.q.iter()
            .zip(&x0.omega)
            .map(|(q, w)| 0.5 * w.cross(q).norm_squared())
            .collect();
    let total = sys.kinetic_energy(&x0.q, &x0.omega);
    let map = mesh.kinetic_energy_map(&x0.q, &ke);
    // Each molecule lies in (or on the boundary of) its face.
    for (q, &f) in x0.q.iter().zip(&map.face_of) {
        let [a, b, c] = mesh.faces[f].map(|v| mesh.vertices[v]);
        for s in [
            q.dot(&a.cross(&b)),
            q.dot(&b.cross(&c)),
            q.dot(&c.cross(&a)),
        ] {
            assert!(s >= -4.0 * f64::EPSILON, "molecule outside its face: {s:e}");
        }
    }
    // The count-weighted per-face energies integrate to the total.
    assert_eq!(map.count.iter().sum::<usize>(), n);
    let s: f64 = map.sum.iter().sum();
    assert!(
        (s - total).abs() <= n as f64 * f64::EPSILON * total,
        "Σ_f K_f = {s:e}, total {total:e}"
    );
    // Every face has a finite, non-negative value within the range of the molecules'.
    let (lo, hi) = ke
        .iter()
        .fold((f64::INFINITY, 0.0_f64), |(l, h), &k| (l.min(k), h.max(k)));
    assert_eq!(map.mean.len(), 5120);
    for &m in &map.mean {
        assert!(
            m.is_finite() && m >= lo * (1.0 - 1e-12) && m <= hi * (1.0 + 1e-12),
            "{m}"
        );
    }
    // The area-weighted mean of the map (spherical excess of each face, Van Oosterom and
    // Strackee's formula) is the mean energy per molecule up to the smoothing: the molecules
    // are spread uniformly at t = 0.
    let area = |f: &[usize; 3]| {
        let [a, b, c] = f.map(|v| mesh.vertices[v]);
        let num = a.dot(&b.cross(&c));
        let den = 1.0 + a.dot(&b) + b.dot(&c) + c.dot(&a);
        2.0 * num.atan2(den)
    };
    let areas: Vec<f64> = mesh.faces.iter().map(area).collect();
    let sphere: f64 = areas.iter().sum();
    assert!(
        (sphere - 4.0 * std::f64::consts::PI).abs() < 1e-10,
        "{sphere}"
    );
    let integral: f64 = map.mean.iter().zip(&areas).map(|(m, a)| m * a).sum::<f64>() / sphere;
    let per_molecule = total / n as f64;
    println!("area-weighted mean {integral:e}, per molecule {per_molecule:e}");
    assert!(
        (integral / per_molecule - 1.0).abs() < 0.01,
        "{integral:e} vs {per_molecule:e}"
    );
    // A uniform kinetic energy gives the same value on every face.
    let uniform = vec![0.25; n];
    let map = mesh.kinetic_energy_map(&x0.q, &uniform);
    for &m in &map.mean {
        assert!((m - 0.25).abs() <= 16.0 * f64::EPSILON, "{m}");
    }
}
