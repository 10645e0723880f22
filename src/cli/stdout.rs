//! Writing to standard output without panicking on a closed pipe.
//!
//! `println!` panics when stdout is a pipe whose reader has gone (`lie-integrators list | head -1`).
//! The `outln!` and `out!` macros write through [`write`] instead: a
//! broken pipe becomes [`CliError::BrokenPipe`], which ends the program quietly with exit code 0;
//! any other write error is a one-line I/O error.

use super::CliError;
use std::io::{ErrorKind, Write};

/// Write `args` to stdout and flush.
///
/// # Errors
/// [`CliError::BrokenPipe`] when the reader has closed the pipe, [`CliError::Io`] otherwise.
pub fn write(args: std::fmt::Arguments<'_>) -> Result<(), CliError> {
    let mut out = std::io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            ErrorKind::BrokenPipe => CliError::BrokenPipe,
            _ => CliError::Io(format!("standard output: {e}")),
        })
}

/// `println!` that returns early with the error of [`write`] (use in functions returning
/// `Result<_, CliError>`).
macro_rules! outln {
    () => {
        $crate::cli::stdout::write(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `print!` that returns early with the error of [`write`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!($($arg)*))?
    };
}
