//! The experiments program: model registry, simulations, convergence studies, the paper
//! reproductions, and their output (CSV, SVG, HTML report, JSON).

#[macro_use]
pub mod stdout;
pub mod compositions;
pub mod convergence;
pub mod experiments;
pub mod heavy_top;
pub mod homogeneous_nh;
pub mod langevin;
pub mod llm09;
pub mod llm09_kinetic_energy;
pub mod methods;
pub mod nonholonomic;
pub mod output;
pub mod quadrotor;
pub mod registry;
pub mod report;
pub mod ts2_preservation;
pub mod variable_step;
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
    /// The run was stopped by Ctrl-C (exit code 130); the message says where.
    Interrupted(String),
    /// Standard output was closed by its reader (`… | head -1`): end quietly.
    BrokenPipe,
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
            Self::Usage(s) | Self::Io(s) | Self::Integration(s) | Self::Interrupted(s) => {
                f.write_str(s)
            }
            Self::BrokenPipe => f.write_str("standard output closed"),
        }
    }
}

impl From<schemes::SchemeError> for CliError {
    fn from(e: schemes::SchemeError) -> Self {
        Self::Integration(registry::scheme_message(&e))
    }
}

impl From<models::ModelError> for CliError {
    fn from(e: models::ModelError) -> Self {
        Self::Usage(e.to_string())
    }
}

/// A number for a one-line message: plain when short (`0.01`, `20`), otherwise short scientific
/// notation (`1.000e300`, `2.500e-9`), never hundreds of digits.
pub fn num(x: f64) -> String {
    let plain = format!("{x}");
    if plain.len() <= 12 {
        plain
    } else {
        format!("{x:.3e}")
    }
}

/// Rewrite every decimal number longer than 12 characters in `msg` in short scientific
/// notation (messages of the library print `f64` with `{}`, which writes `1e300` as 301 digits).
pub fn shorten_numbers(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let bytes = msg.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let starts_number = bytes[i].is_ascii_digit()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'));
        if starts_number {
            let mut j = i;
            while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
                j += 1;
            }
            // An exponent belongs to the number.
            if j < bytes.len() && (bytes[j] == b'e' || bytes[j] == b'E') {
                let mut k = j + 1;
                if k < bytes.len() && (bytes[k] == b'-' || bytes[k] == b'+') {
                    k += 1;
                }
                if k < bytes.len() && bytes[k].is_ascii_digit() {
                    while k < bytes.len() && bytes[k].is_ascii_digit() {
                        k += 1;
                    }
                    j = k;
                }
            }
            let token = &msg[i..j];
            match token.parse::<f64>() {
                Ok(x) if token.len() > 12 => out.push_str(&format!("{x:.3e}")),
                _ => out.push_str(token),
            }
            i = j;
        } else {
            let ch = msg[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The message of an error as one line: line breaks become spaces, long numbers are shortened
/// ([`shorten_numbers`]).
pub fn one_line(msg: &str) -> String {
    let joined: Vec<&str> = msg
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    shorten_numbers(&joined.join(" "))
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
