//! Geodesic icospheres: the subdivided icosahedron projected onto the unit sphere.

use nalgebra::Vector3;
use std::collections::HashMap;

/// A triangulated unit sphere obtained by subdividing the faces of a regular icosahedron `k`
/// times (each triangle into four, new vertices at the normalized edge midpoints). It has
/// `10·4ᵏ + 2` vertices (12, 42, 162, 642, 2562, …) and `20·4ᵏ` faces.
///
/// \[LLM09, Ex. 6\] distributes 642 molecules "uniformly" on the sphere: the vertices of
/// `Icosphere::new(3)`.
///
/// # Example
/// ```
/// use models::Icosphere;
/// let s = Icosphere::new(3);
/// assert_eq!(s.vertices.len(), 642);
/// assert_eq!(s.faces.len(), 1280);
/// assert!(s.vertices.iter().all(|v| (v.norm() - 1.0).abs() < 1e-15));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Icosphere {
    /// The vertices, unit vectors (the 12 icosahedron vertices first).
    pub vertices: Vec<Vector3<f64>>,
    /// The triangles, counter-clockwise seen from outside.
    pub faces: Vec<[usize; 3]>,
}

impl Icosphere {
    /// The icosphere after `subdivisions` subdivision steps.
    ///
    /// # Panics
    /// If `subdivisions > 10` (more than ten million vertices).
    #[must_use]
    pub fn new(subdivisions: u32) -> Self {
        assert!(subdivisions <= 10, "Icosphere: at most 10 subdivisions");
        let t = (1.0 + 5.0_f64.sqrt()) / 2.0;
        let raw = [
            (-1.0, t, 0.0),
            (1.0, t, 0.0),
            (-1.0, -t, 0.0),
            (1.0, -t, 0.0),
            (0.0, -1.0, t),
            (0.0, 1.0, t),
            (0.0, -1.0, -t),
            (0.0, 1.0, -t),
            (t, 0.0, -1.0),
            (t, 0.0, 1.0),
            (-t, 0.0, -1.0),
            (-t, 0.0, 1.0),
        ];
        let mut vertices: Vec<Vector3<f64>> = raw
            .iter()
            .map(|&(x, y, z)| Vector3::new(x, y, z).normalize())
            .collect();
        let mut faces: Vec<[usize; 3]> = vec![
            [0, 11, 5],
            [0, 5, 1],
            [0, 1, 7],
            [0, 7, 10],
            [0, 10, 11],
            [1, 5, 9],
            [5, 11, 4],
            [11, 10, 2],
            [10, 7, 6],
            [7, 1, 8],
            [3, 9, 4],
            [3, 4, 2],
            [3, 2, 6],
            [3, 6, 8],
            [3, 8, 9],
            [4, 9, 5],
            [2, 4, 11],
            [6, 2, 10],
            [8, 6, 7],
            [9, 8, 1],
        ];
        for _ in 0..subdivisions {
            let mut cache: HashMap<(usize, usize), usize> = HashMap::new();
            let mut midpoint = |a: usize, b: usize, vertices: &mut Vec<Vector3<f64>>| {
                let key = (a.min(b), a.max(b));
                *cache.entry(key).or_insert_with(|| {
                    vertices.push((vertices[a] + vertices[b]).normalize());
                    vertices.len() - 1
                })
            };
            let mut next = Vec::with_capacity(4 * faces.len());
            for &[a, b, c] in &faces {
                let ab = midpoint(a, b, &mut vertices);
                let bc = midpoint(b, c, &mut vertices);
                let ca = midpoint(c, a, &mut vertices);
                next.push([a, ab, ca]);
                next.push([b, bc, ab]);
                next.push([c, ca, bc]);
                next.push([ab, bc, ca]);
            }
            faces = next;
        }
        Self { vertices, faces }
    }

    /// The edges `(i, j)`, `i < j`, each once, sorted.
    #[must_use]
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut e: Vec<(usize, usize)> = self
            .faces
            .iter()
            .flat_map(|&[a, b, c]| [(a, b), (b, c), (c, a)])
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        e.sort_unstable();
        e.dedup();
        e
    }

    /// The mean chord length `|qᵢ − qⱼ|` over the edges (the nearest-neighbour distance).
    #[must_use]
    pub fn mean_edge_length(&self) -> f64 {
        let e = self.edges();
        let s: f64 = e
            .iter()
            .map(|&(i, j)| (self.vertices[i] - self.vertices[j]).norm())
            .sum();
        s / e.len() as f64
    }
}
