//! The groups the shipped actions use (one place to import them from).
//! TEMPORARY: points at local stand-ins until branch `so3` is merged.
pub use crate::stub_groups::{Se3, So3};
