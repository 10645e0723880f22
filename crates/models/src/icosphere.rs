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

    /// The face containing the direction `p` (not necessarily unit): the face `[a, b, c]`
    /// maximising `min(p·(a × b), p·(b × c), p·(c × a))`, which is `≥ 0` exactly for the faces
    /// whose spherical triangle contains `p` (faces are counter-clockwise seen from outside). A
    /// point on an edge or a vertex belongs to several faces; the first (lowest index) wins.
    /// Brute force over the faces, `O(F)`; see [`locate_all`](Self::locate_all).
    #[must_use]
    pub fn locate(&self, p: &Vector3<f64>) -> usize {
        self.locate_with(&self.edge_normals(), p)
    }

    /// [`locate`](Self::locate) for every point, sharing the edge normals.
    #[must_use]
    pub fn locate_all(&self, points: &[Vector3<f64>]) -> Vec<usize> {
        let normals = self.edge_normals();
        points
            .iter()
            .map(|p| self.locate_with(&normals, p))
            .collect()
    }

    fn edge_normals(&self) -> Vec<[Vector3<f64>; 3]> {
        let v = &self.vertices;
        self.faces
            .iter()
            .map(|&[a, b, c]| [v[a].cross(&v[b]), v[b].cross(&v[c]), v[c].cross(&v[a])])
            .collect()
    }

    fn locate_with(&self, normals: &[[Vector3<f64>; 3]], p: &Vector3<f64>) -> usize {
        let mut best = (0, f64::NEG_INFINITY);
        for (f, n) in normals.iter().enumerate() {
            let m = p.dot(&n[0]).min(p.dot(&n[1])).min(p.dot(&n[2]));
            if m > best.1 {
                best = (f, m);
            }
        }
        best.0
    }

    /// For every face, the other faces that share at least one vertex with it (12 for most
    /// faces, 9 around the 12 vertices of degree 5), sorted.
    #[must_use]
    pub fn face_neighbours(&self) -> Vec<Vec<usize>> {
        let mut at_vertex = vec![Vec::new(); self.vertices.len()];
        for (f, face) in self.faces.iter().enumerate() {
            for &v in face {
                at_vertex[v].push(f);
            }
        }
        self.faces
            .iter()
            .enumerate()
            .map(|(f, face)| {
                let mut n: Vec<usize> = face
                    .iter()
                    .flat_map(|&v| at_vertex[v].iter().copied())
                    .filter(|&g| g != f)
                    .collect();
                n.sort_unstable();
                n.dedup();
                n
            })
            .collect()
    }

    /// The kinetic-energy map of \[LLM09, Fig. 3.7\]: molecule `i` at `q[i]` with kinetic
    /// energy `ke[i]` is binned into the face containing it ([`locate_all`](Self::locate_all));
    /// each face gets the mean kinetic energy of the molecules in it **and in its neighbouring
    /// faces** (those sharing a vertex, [`face_neighbours`](Self::face_neighbours)). A face
    /// whose neighbourhood holds no molecule takes the next ring of faces (neighbours of
    /// neighbours, …) until it holds one, so that every face has a value.
    ///
    /// # Panics
    /// If `q` and `ke` differ in length or are empty.
    #[must_use]
    pub fn kinetic_energy_map(&self, q: &[Vector3<f64>], ke: &[f64]) -> FaceEnergies {
        assert_eq!(q.len(), ke.len(), "Icosphere: one energy per molecule");
        assert!(!q.is_empty(), "Icosphere: no molecules");
        let nf = self.faces.len();
        let face_of = self.locate_all(q);
        let (mut sum, mut count) = (vec![0.0; nf], vec![0usize; nf]);
        for (&f, &k) in face_of.iter().zip(ke) {
            sum[f] += k;
            count[f] += 1;
        }
        let neighbours = self.face_neighbours();
        let mut mean = vec![0.0; nf];
        let mut in_region = vec![usize::MAX; nf];
        for (f, m) in mean.iter_mut().enumerate() {
            // Grow the region ring by ring from {f} ∪ N(f) until it holds a molecule.
            let mut region = vec![f];
            in_region[f] = f;
            let mut frontier = vec![f];
            loop {
                let mut next = Vec::new();
                for &g in &frontier {
                    for &h in &neighbours[g] {
                        if in_region[h] != f {
                            in_region[h] = f;
                            next.push(h);
                        }
                    }
                }
                region.extend_from_slice(&next);
                frontier = next;
                let c: usize = region.iter().map(|&g| count[g]).sum();
                if c > 0 || frontier.is_empty() {
                    let s: f64 = region.iter().map(|&g| sum[g]).sum();
                    *m = s / c as f64;
                    break;
                }
            }
        }
        FaceEnergies {
            face_of,
            sum,
            count,
            mean,
        }
    }
}

/// The result of [`Icosphere::kinetic_energy_map`].
#[derive(Clone, Debug, PartialEq)]
pub struct FaceEnergies {
    /// The face of each molecule.
    pub face_of: Vec<usize>,
    /// Per face, the kinetic energy of the molecules in it (`Σ_f sum[f]` is the total).
    pub sum: Vec<f64>,
    /// Per face, the number of molecules in it.
    pub count: Vec<usize>,
    /// Per face, the mean kinetic energy of the molecules in it and its neighbouring faces.
    pub mean: Vec<f64>,
}
