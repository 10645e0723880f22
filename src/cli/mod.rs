//! The experiments program: model registry, simulations, convergence studies, the paper
//! reproductions, and their output (CSV, SVG, HTML report, JSON).

pub mod experiments;
pub mod heavy_top;
pub mod methods;
pub mod nonholonomic;
pub mod output;
pub mod quadrotor;
pub mod registry;
pub mod report;
pub mod work_precision;

use std::path::{Path, PathBuf};

/// A user-facing error: one line, exit code 2.
#[derive(Debug)]
pub enum CliError {
    /// Bad command-line input (unknown model or method, h ≤ 0, malformed lists, …).
    Usage(String),
    /// The output folder cannot be written or would be overwritten.
    Io(String),
    /// The integration failed.
    Integration(String),
}

impl CliError {
    /// An I/O error on `path`.
    pub fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Io(format!("{}: {e}", path.display()))
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Usage(s) | Self::Io(s) | Self::Integration(s) => f.write_str(s),
        }
    }
}

impl From<schemes::SchemeError> for CliError {
    fn from(e: schemes::SchemeError) -> Self {
        Self::Integration(e.to_string())
    }
}

impl From<models::ModelError> for CliError {
    fn from(e: models::ModelError) -> Self {
        Self::Usage(e.to_string())
    }
}

/// Prepare an output folder: create it, refuse to overwrite existing files in it unless
/// `force`, and check that it is writable.
pub fn prepare_out_dir(dir: &Path, force: bool, names: &[&str]) -> Result<PathBuf, CliError> {
    std::fs::create_dir_all(dir).map_err(|e| CliError::io(dir, &e))?;
    if !force {
        for n in names {
            let p = dir.join(n);
            if p.exists() {
                return Err(CliError::Io(format!(
                    "{} exists; pass --force to overwrite",
                    p.display()
                )));
            }
        }
    }
    let probe = dir.join(".write-probe");
    std::fs::write(&probe, b"").map_err(|e| CliError::io(dir, &e))?;
    let _ = std::fs::remove_file(&probe);
    Ok(dir.to_path_buf())
}
