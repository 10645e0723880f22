//! SO(3) and SE(3) maps of the `liegroup` crate, vectorised over NumPy arrays.
//!
//! Every function takes arrays whose *last* axes hold one element (an algebra vector of length
//! 3 or 6, or a 3×3 / 4×4 matrix) and maps each element with the `liegroup` function of the
//! same name; the leading axes are kept. Inputs are converted to `float64` (C order) first.

use crate::errors::{ErrorKind, raise};
use liegroup::{CayleyGroup, LieError, LieGroup, Se3, So3};
use nalgebra::{Matrix3, Matrix4, Vector3, Vector6};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// The elements of `x` as a contiguous `f64` buffer, with the shape of the leading axes; the
/// trailing axes must equal `element` (`[3]`, `[6]`, `[3, 3]` or `[4, 4]`).
fn elements(
    x: &Bound<'_, PyAny>,
    what: &str,
    element: &[usize],
) -> PyResult<(Vec<usize>, Vec<f64>)> {
    let py = x.py();
    let np = py.import("numpy")?;
    let arr = np
        .call_method1("ascontiguousarray", (x, np.getattr("float64")?))
        .map_err(|e| {
            raise(
                py,
                ErrorKind::Input,
                format!("{what}: not an array of real numbers ({e})"),
            )
        })?;
    let arr = arr.cast_into::<PyArrayDyn<f64>>().map_err(|_| {
        raise(
            py,
            ErrorKind::Input,
            format!("{what}: not an array of real numbers"),
        )
    })?;
    let shape = arr.shape().to_vec();
    let k = element.len();
    if shape.len() < k || shape[shape.len() - k..] != *element {
        let want: Vec<String> = element.iter().map(ToString::to_string).collect();
        return Err(raise(
            py,
            ErrorKind::Shape,
            format!(
                "{what}: expected an array of shape (..., {}), got {}",
                want.join(", "),
                tuple(&shape)
            ),
        ));
    }
    let data = arr.readonly().as_slice()?.to_vec();
    Ok((shape[..shape.len() - k].to_vec(), data))
}

/// An array of shape `lead + element` from its row-major data.
fn array<'py>(
    py: Python<'py>,
    lead: &[usize],
    element: &[usize],
    data: Vec<f64>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let shape: Vec<usize> = lead.iter().chain(element).copied().collect();
    let a = ArrayD::from_shape_vec(IxDyn(&shape), data)
        .map_err(|e| raise(py, ErrorKind::Shape, e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// Map every element of `x` (trailing shape `input`) to one of trailing shape `output`.
fn map_one<'py>(
    x: &Bound<'py, PyAny>,
    what: &str,
    input: &[usize],
    output: &[usize],
    f: impl Fn(&[f64], &mut [f64]) -> Result<(), LieError>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let py = x.py();
    let (lead, data) = elements(x, what, input)?;
    let (n_in, n_out) = (
        input.iter().product::<usize>(),
        output.iter().product::<usize>(),
    );
    let count = lead.iter().product::<usize>();
    let mut out = vec![0.0; count * n_out];
    for (i, (a, b)) in data
        .chunks_exact(n_in)
        .zip(out.chunks_exact_mut(n_out))
        .enumerate()
    {
        f(a, b).map_err(|e| {
            let at = if lead.is_empty() {
                String::new()
            } else {
                format!(" (element {})", index(&lead, i))
            };
            raise(py, ErrorKind::NotInGroup, format!("{what}{at}: {e}"))
        })?;
    }
    array(py, &lead, output, out)
}

/// Map every pair of elements of `u` and `v` (same shape, trailing shape `[n]`) to a vector.
fn map_two<'py>(
    u: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
    n: usize,
    f: impl Fn(&[f64], &[f64], &mut [f64]),
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    let py = u.py();
    let (lead_u, du) = elements(u, "u", &[n])?;
    let (lead_v, dv) = elements(v, "v", &[n])?;
    if lead_u != lead_v {
        return Err(raise(
            py,
            ErrorKind::Shape,
            format!(
                "u and v must have the same shape, got {} and {}",
                tuple(&[lead_u.as_slice(), &[n]].concat()),
                tuple(&[lead_v.as_slice(), &[n]].concat())
            ),
        ));
    }
    let mut out = vec![0.0; du.len()];
    for ((a, b), c) in du
        .chunks_exact(n)
        .zip(dv.chunks_exact(n))
        .zip(out.chunks_exact_mut(n))
    {
        f(a, b, c);
    }
    array(py, &lead_u, &[n], out)
}

/// A shape written as Python writes it: `(2, 3)`, `(3,)`, `()`.
pub fn tuple(shape: &[usize]) -> String {
    match shape {
        [n] => format!("({n},)"),
        _ => {
            let s: Vec<String> = shape.iter().map(ToString::to_string).collect();
            format!("({})", s.join(", "))
        }
    }
}

/// The multi-index of the `i`-th element (row-major) of an array with leading shape `lead`.
fn index(lead: &[usize], mut i: usize) -> String {
    let mut idx = vec![0; lead.len()];
    for (k, &n) in lead.iter().enumerate().rev() {
        idx[k] = i % n;
        i /= n;
    }
    tuple(&idx)
}

fn v3(a: &[f64]) -> Vector3<f64> {
    Vector3::from_row_slice(a)
}

fn v6(a: &[f64]) -> Vector6<f64> {
    Vector6::from_row_slice(a)
}

/// Write a 3×3 matrix row-major.
fn put3(m: &Matrix3<f64>, out: &mut [f64]) {
    for (k, o) in out.iter_mut().enumerate() {
        *o = m[(k / 3, k % 3)];
    }
}

/// Write a 4×4 matrix row-major.
fn put4(m: &Matrix4<f64>, out: &mut [f64]) {
    for (k, o) in out.iter_mut().enumerate() {
        *o = m[(k / 4, k % 4)];
    }
}

/// `exp(x)` in SO(3): rotation matrices of shape `(..., 3, 3)` for `x` of shape `(..., 3)`.
#[pyfunction]
pub fn so3_exp<'py>(x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(x, "x", &[3], &[3, 3], |a, out| {
        put3(So3::exp(&v3(a)).matrix(), out);
        Ok(())
    })
}

/// `log(R)` in SO(3): vectors of shape `(..., 3)` (angle at most π) for rotation matrices of
/// shape `(..., 3, 3)`; a matrix that is not a rotation raises `NotInGroupError`.
#[pyfunction]
pub fn so3_log<'py>(r: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(r, "R", &[3, 3], &[3], |a, out| {
        let g = So3::try_from_matrix(Matrix3::from_row_slice(a))?;
        out.copy_from_slice(g.log().as_slice());
        Ok(())
    })
}

/// `cay(x) = (I − x̂/2)⁻¹(I + x̂/2)` in SO(3): shape `(..., 3)` → `(..., 3, 3)`.
#[pyfunction]
pub fn so3_cayley<'py>(x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(x, "x", &[3], &[3, 3], |a, out| {
        put3(So3::cay(&v3(a)).matrix(), out);
        Ok(())
    })
}

/// The right-trivialized `dexp_u v` in so(3): shapes `(..., 3)`, `(..., 3)` → `(..., 3)`.
#[pyfunction]
pub fn so3_dexp<'py>(
    u: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, v, 3, |a, b, out| {
        out.copy_from_slice(So3::dexp(&v3(a), &v3(b)).as_slice());
    })
}

/// `dexp_u⁻¹ w` in so(3): shapes `(..., 3)`, `(..., 3)` → `(..., 3)`.
#[pyfunction]
pub fn so3_dexpinv<'py>(
    u: &Bound<'py, PyAny>,
    w: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, w, 3, |a, b, out| {
        out.copy_from_slice(So3::dexpinv(&v3(a), &v3(b)).as_slice());
    })
}

/// The right-trivialized `dcay_u v` in so(3): shapes `(..., 3)`, `(..., 3)` → `(..., 3)`.
#[pyfunction]
pub fn so3_dcayley<'py>(
    u: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, v, 3, |a, b, out| {
        out.copy_from_slice(So3::dcay(&v3(a), &v3(b)).as_slice());
    })
}

/// `dcay_u⁻¹ w` in so(3): shapes `(..., 3)`, `(..., 3)` → `(..., 3)`.
#[pyfunction]
pub fn so3_dcayleyinv<'py>(
    u: &Bound<'py, PyAny>,
    w: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, w, 3, |a, b, out| {
        out.copy_from_slice(So3::dcayinv(&v3(a), &v3(b)).as_slice());
    })
}

/// `exp(ξ)` in SE(3) (ξ = (rotation, translation)): shape `(..., 6)` → homogeneous matrices
/// `(..., 4, 4)`.
#[pyfunction]
pub fn se3_exp<'py>(xi: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(xi, "xi", &[6], &[4, 4], |a, out| {
        put4(&Se3::exp(&v6(a)).to_homogeneous(), out);
        Ok(())
    })
}

/// `log(g)` in SE(3): homogeneous matrices `(..., 4, 4)` → `(..., 6)`; a matrix that is not a
/// rigid motion raises `NotInGroupError`.
#[pyfunction]
pub fn se3_log<'py>(g: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(g, "g", &[4, 4], &[6], |a, out| {
        let g = Se3::try_from_matrix(Matrix4::from_row_slice(a))?;
        out.copy_from_slice(g.log().as_slice());
        Ok(())
    })
}

/// The Cayley map of SE(3): shape `(..., 6)` → homogeneous matrices `(..., 4, 4)`.
#[pyfunction]
pub fn se3_cayley<'py>(xi: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_one(xi, "xi", &[6], &[4, 4], |a, out| {
        put4(&Se3::cay(&v6(a)).to_homogeneous(), out);
        Ok(())
    })
}

/// The right-trivialized `dexp_u v` in se(3): shapes `(..., 6)`, `(..., 6)` → `(..., 6)`.
#[pyfunction]
pub fn se3_dexp<'py>(
    u: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, v, 6, |a, b, out| {
        out.copy_from_slice(Se3::dexp(&v6(a), &v6(b)).as_slice());
    })
}

/// `dexp_u⁻¹ w` in se(3): shapes `(..., 6)`, `(..., 6)` → `(..., 6)`.
#[pyfunction]
pub fn se3_dexpinv<'py>(
    u: &Bound<'py, PyAny>,
    w: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, w, 6, |a, b, out| {
        out.copy_from_slice(Se3::dexpinv(&v6(a), &v6(b)).as_slice());
    })
}

/// The right-trivialized `dcay_u v` in se(3): shapes `(..., 6)`, `(..., 6)` → `(..., 6)`.
#[pyfunction]
pub fn se3_dcayley<'py>(
    u: &Bound<'py, PyAny>,
    v: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, v, 6, |a, b, out| {
        out.copy_from_slice(Se3::dcay(&v6(a), &v6(b)).as_slice());
    })
}

/// `dcay_u⁻¹ w` in se(3): shapes `(..., 6)`, `(..., 6)` → `(..., 6)`.
#[pyfunction]
pub fn se3_dcayleyinv<'py>(
    u: &Bound<'py, PyAny>,
    w: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyArrayDyn<f64>>> {
    map_two(u, w, 6, |a, b, out| {
        out.copy_from_slice(Se3::dcayinv(&v6(a), &v6(b)).as_slice());
    })
}

/// Register the functions in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(so3_exp, m)?)?;
    m.add_function(wrap_pyfunction!(so3_log, m)?)?;
    m.add_function(wrap_pyfunction!(so3_cayley, m)?)?;
    m.add_function(wrap_pyfunction!(so3_dexp, m)?)?;
    m.add_function(wrap_pyfunction!(so3_dexpinv, m)?)?;
    m.add_function(wrap_pyfunction!(so3_dcayley, m)?)?;
    m.add_function(wrap_pyfunction!(so3_dcayleyinv, m)?)?;
    m.add_function(wrap_pyfunction!(se3_exp, m)?)?;
    m.add_function(wrap_pyfunction!(se3_log, m)?)?;
    m.add_function(wrap_pyfunction!(se3_cayley, m)?)?;
    m.add_function(wrap_pyfunction!(se3_dexp, m)?)?;
    m.add_function(wrap_pyfunction!(se3_dexpinv, m)?)?;
    m.add_function(wrap_pyfunction!(se3_dcayley, m)?)?;
    m.add_function(wrap_pyfunction!(se3_dcayleyinv, m)?)?;
    Ok(())
}
