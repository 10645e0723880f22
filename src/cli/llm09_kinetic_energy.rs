//! Figure 3.7 of \[LLM09\]: the kinetic-energy distribution of the 642 Lennard-Jones molecules
//! (Example 6) at several times, on the icosahedral mesh of 5120 faces (the icosphere
//! subdivided 4 times), each face coloured by the mean kinetic energy of the molecules in it
//! and in its neighbouring faces (`models::Icosphere::kinetic_energy_map`). Experiment
//! `llm09-kinetic-energy`.

use super::CliError;
use super::output::write_csv;
use super::report::{Section, Table};
use models::{FaceEnergies, Icosphere, LennardJones, SphereModel};
use nalgebra::Vector3;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The colour of `x ∈ [0, 1]` on the paper's scale: blue, green, yellow, red in ascending
/// order (piecewise linear between the four).
fn colour(x: f64) -> (u8, u8, u8) {
    const STOPS: [(f64, f64, f64); 4] = [
        (0.0, 0.2, 1.0),
        (0.0, 0.8, 0.2),
        (1.0, 0.9, 0.0),
        (0.9, 0.0, 0.0),
    ];
    let x = if x.is_finite() {
        x.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let s = x * 3.0;
    let i = (s.floor() as usize).min(2);
    let f = s - i as f64;
    let (a, b) = (STOPS[i], STOPS[i + 1]);
    let mix = |p: f64, q: f64| ((p + (q - p) * f) * 255.0).round() as u8;
    (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

/// An orthographic view of the hemisphere facing `+e₃` (screen axes `e₁` right, `e₂` up): the
/// faces whose centroid has a positive `e₃` component, painted back to front, coloured by
/// `map.mean` on the scale `[lo, hi]`, with a colour bar.
fn svg(mesh: &Icosphere, map: &FaceEnergies, lo: f64, hi: f64, title: &str) -> String {
    let (r, cx, cy) = (230.0, 260.0, 270.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="620" height="540" viewBox="0 0 620 540"><rect width="620" height="540" fill="white"/><text x="310" y="24" font-family="sans-serif" font-size="16" text-anchor="middle">{title}</text><circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="black" stroke-width="1"/>"#
    );
    let mut visible: Vec<(f64, usize)> = mesh
        .faces
        .iter()
        .enumerate()
        .filter_map(|(f, face)| {
            let c: Vector3<f64> = face.iter().map(|&v| mesh.vertices[v]).sum();
            (c.z > 0.0).then_some((c.z, f))
        })
        .collect();
    visible.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, f) in visible {
        let (red, green, blue) = colour((map.mean[f] - lo) / (hi - lo).max(f64::MIN_POSITIVE));
        let pts: Vec<String> = mesh.faces[f]
            .iter()
            .map(|&v| {
                let p = mesh.vertices[v];
                format!("{:.2},{:.2}", cx + r * p.x, cy - r * p.y)
            })
            .collect();
        let _ = write!(
            s,
            r#"<polygon points="{}" fill="rgb({red},{green},{blue})" stroke="rgb({red},{green},{blue})" stroke-width="0.4"/>"#,
            pts.join(" ")
        );
    }
    // Colour bar.
    let (bx, by, bh) = (540.0, 60.0, 420.0);
    for k in 0..100 {
        let x = f64::from(k) / 99.0;
        let (red, green, blue) = colour(x);
        let y = by + bh * (1.0 - x) - bh / 100.0;
        let _ = write!(
            s,
            r#"<rect x="{bx}" y="{y:.2}" width="20" height="{:.2}" fill="rgb({red},{green},{blue})"/>"#,
            bh / 100.0 + 0.5
        );
    }
    let _ = write!(
        s,
        r#"<text x="{}" y="{}" font-family="sans-serif" font-size="12">{hi:.2e}</text><text x="{}" y="{}" font-family="sans-serif" font-size="12">{lo:.2e}</text><text x="{}" y="{}" font-family="sans-serif" font-size="12" text-anchor="middle">kinetic energy</text><text x="{cx}" y="530" font-family="sans-serif" font-size="12" text-anchor="middle">orthographic view from +e₃ (e₁ right, e₂ up)</text></svg>"#,
        bx - 10.0,
        by - 8.0,
        bx - 10.0,
        by + bh + 16.0,
        bx + 10.0,
        by + bh + 32.0,
    );
    s
}

/// Experiment `llm09-kinetic-energy`.
pub fn llm09_kinetic_energy(dir: &Path, quick: bool) -> Result<Section, CliError> {
    let (model, x0) = LennardJones::icosphere_642();
    let sys = model.system();
    let h = 0.01;
    // [LLM09, Fig. 3.7]: t = 0, 0.25, 0.5, 0.75 and 5.
    let times: &[f64] = if quick {
        &[0.0, 0.05, 0.1]
    } else {
        &[0.0, 0.25, 0.5, 0.75, 5.0]
    };
    let mesh = Icosphere::new(4);
    let mut vi = sys
        .variational_integrator::<f64>()
        .map_err(|e| CliError::Integration(format!("variational integrator: {e}")))?;
    let (mut q, mut w) = (x0.q.clone(), x0.omega.clone());
    let (mut q1, mut w1) = (q.clone(), w.clone());
    let mut k = 0usize;
    let mut maps = Vec::new();
    for &t in times {
        let target = (t / h).round() as usize;
        while k < target {
            vi.step_slices(h * k as f64, &q, &w, h, &mut q1, &mut w1)
                .map_err(|e| CliError::Integration(format!("variational integrator: {e}")))?;
            core::mem::swap(&mut q, &mut q1);
            core::mem::swap(&mut w, &mut w1);
            k += 1;
        }
        let ke: Vec<f64> = q
            .iter()
            .zip(&w)
            .enumerate()
            .map(|(i, (q, w))| 0.5 * sys.inertia()[(i, i)] * w.cross(q).norm_squared())
            .collect();
        let map = mesh.kinetic_energy_map(&q, &ke);
        maps.push((t, sys.kinetic_energy(&q, &w), map));
    }
    let hi = maps
        .iter()
        .flat_map(|(_, _, m)| m.mean.iter().copied())
        .fold(0.0, f64::max);
    let lo = 0.0;
    let mut table = Table::new(&[
        "t",
        "total kinetic energy",
        "Σ_f K_f (faces)",
        "face value min",
        "face value max",
        "faces with a molecule",
    ]);
    let mut figures: Vec<PathBuf> = Vec::new();
    let mut rows = Vec::new();
    for (t, total, map) in &maps {
        let (mn, mx) = map
            .mean
            .iter()
            .fold((f64::INFINITY, 0.0_f64), |(a, b), &m| (a.min(m), b.max(m)));
        table.row(vec![
            format!("{t}"),
            format!("{total:.6e}"),
            format!("{:.6e}", map.sum.iter().sum::<f64>()),
            format!("{mn:.2e}"),
            format!("{mx:.2e}"),
            format!("{}", map.count.iter().filter(|&&c| c > 0).count()),
        ]);
        let path = dir.join(format!("kinetic-energy-t{t}.svg"));
        std::fs::write(
            &path,
            svg(
                &mesh,
                map,
                lo,
                hi,
                &format!("Fig. 3.7: kinetic energy of 642 molecules, t = {t}"),
            ),
        )
        .map_err(|e| CliError::io(&path, &e))?;
        figures.push(path);
        for (f, &m) in map.mean.iter().enumerate() {
            rows.push(vec![*t, f as f64, m, map.count[f] as f64]);
        }
    }
    write_csv(
        &dir.join("kinetic-energy-faces.csv"),
        &[
            "t".into(),
            "face".into(),
            "mean_kinetic_energy".into(),
            "molecules".into(),
        ],
        &rows,
    )?;
    Ok(Section {
        id: "llm09-kinetic-energy".into(),
        title: "Figure 3.7 of [LLM09]: kinetic-energy distribution of the 642 molecules".into(),
        text: vec![format!(
            "The 642 Lennard-Jones molecules of Example 6 (initially at the vertices of the 3-fold subdivided icosphere, two counter-rotating vortices 30° apart; the values lost from the paper are chosen in LennardJones::icosphere_642) integrated by the explicit variational integrator (3.17)–(3.18) with h = {h}, shown at t = {}. As in the paper, the sphere is discretised by an icosahedral mesh of 5120 triangular faces (the icosphere subdivided 4 times) and a face is coloured by the mean kinetic energy of the molecules in it and in its neighbouring faces (the faces sharing a vertex with it; where none holds a molecule, the next ring of faces), on the paper's blue–green–yellow–red scale, here common to all times (0 to the largest face value). The views are orthographic projections of the hemisphere facing +e₃, which holds both vortices. The table checks the binning: the per-face sums add to the total kinetic energy. What differs from the paper: its initial velocities and σ were lost in the text, so the pictures show the same kind of evolution (the two vortices spreading their kinetic energy over the sphere), not the same pictures.",
            times
                .iter()
                .map(|t| format!("{t}"))
                .collect::<Vec<_>>()
                .join(", ")
        )],
        tables: vec![table],
        figures,
        summary: format!("kinetic-energy maps on 5120 faces at {} times", times.len()),
    })
}
