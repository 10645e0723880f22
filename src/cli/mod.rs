//! The experiments program: convergence studies, the paper reproductions, and their output
//! (CSV, SVG, HTML report, JSON). The model registry lives in the library
//! ([`lie_integrators::registry`]).

#[macro_use]
pub mod stdout;
pub mod compositions;
pub mod convergence;
pub mod ensemble;
pub mod experiments;
pub mod heavy_top;
pub mod homogeneous_nh;
pub mod langevin;
pub mod llm09;
pub mod llm09_kinetic_energy;
pub mod nonholonomic;
pub mod output;
pub mod quadrotor;
pub mod report;
pub mod ts2_preservation;
pub mod variable_step;
pub mod work_precision;

pub use lie_integrators::registry::{Error as CliError, num, one_line};
use std::path::{Path, PathBuf};

/// The model registry of the library ([`lie_integrators::registry`]).
pub mod registry {
    pub use lie_integrators::registry::*;
}

/// The method identifiers of the library ([`lie_integrators::registry::methods`]).
pub mod methods {
    pub use lie_integrators::registry::methods::*;
}

/// A clap error in one line: its first paragraph (the message and the arguments it names,
/// e.g. `the following required arguments were not provided: --method <METHOD>`), without
/// the usage block and the `--help` hint.
pub fn clap_message(rendered: &str) -> String {
    let first: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let msg = first.join(" ");
    let msg = msg.trim_start_matches("error: ").trim();
    if msg.is_empty() {
        "invalid arguments".into()
    } else {
        one_line(msg)
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
    probe_writable(dir)?;
    Ok(dir.to_path_buf())
}

/// Check that `dir` is writable without touching the user's files: create a file under a name
/// that is not taken (`create_new`, never an existing file) and remove only that file.
fn probe_writable(dir: &Path) -> Result<(), CliError> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    for attempt in 0..100u32 {
        let probe = dir.join(format!(
            ".lie-integrators-probe-{}-{stamp}-{attempt}",
            std::process::id()
        ));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&probe)
        {
            Ok(file) => {
                drop(file);
                let _ = std::fs::remove_file(&probe);
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(CliError::io(dir, &e)),
        }
    }
    Err(CliError::Io(format!(
        "{}: cannot find a free name to test that the folder is writable",
        dir.display()
    )))
}
