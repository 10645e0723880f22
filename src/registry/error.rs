//! The error type of the registry and its one-line message helpers.
//!
//! Every error is one line (the experiments program prints it and exits with code 2); numbers
//! in messages are short ([`num`], [`shorten_numbers`]).

use std::path::Path;

/// A user-facing error: its message is one line (the experiments program prints it and exits
/// with code 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Bad input (unknown model, preset, method or parameter, h ≤ 0, a malformed initial
    /// state, malformed lists, …).
    Usage(String),
    /// A model parameter override is unknown, given twice, not finite or out of range
    /// ([`Parameter::check`](super::Parameter::check)).
    Parameter {
        /// The parameter's name as given.
        name: String,
        /// The one-line message (names the parameter and the model).
        message: String,
    },
    /// An initial state has the wrong length, a non-finite entry, or is off the manifold
    /// (beyond [`INITIAL_STATE_ULPS`](super::INITIAL_STATE_ULPS) epsilons).
    InitialState(String),
    /// A file or folder cannot be read or written, or would be overwritten.
    Io(String),
    /// The integration failed.
    Integration(String),
    /// The run was stopped by its stop flag (Ctrl-C in the program, exit code 130); the
    /// message says where.
    Interrupted(String),
    /// Standard output was closed by its reader (`… | head -1`): end quietly (the program
    /// only).
    BrokenPipe,
}

impl std::error::Error for Error {}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: &Path, e: &std::io::Error) -> Self {
        Self::Io(format!("{}: {e}", path.display()))
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Usage(s)
            | Self::Io(s)
            | Self::Integration(s)
            | Self::Interrupted(s)
            | Self::InitialState(s)
            | Self::Parameter { message: s, .. } => f.write_str(s),
            Self::BrokenPipe => f.write_str("standard output closed"),
        }
    }
}

impl From<schemes::SchemeError> for Error {
    fn from(e: schemes::SchemeError) -> Self {
        Self::Integration(super::scheme_message(&e))
    }
}

impl From<models::ModelError> for Error {
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
