//! The experiments program fed thousands of generated argument vectors: random subcommands,
//! method identifiers, numbers (NaN, ±inf, 0, subnormals, huge values), garbage strings,
//! repeated and missing flags. Every run must end with exit code 0 or 2 (never a panic, exit
//! 101, or a signal), a failure must be one line on stderr, and without `--force` no file that
//! was in `--out` before may change.
//!
//! Runs are kept tiny: `run` always gets a step budget (`--max-steps 2000`), the slow models are
//! only named in vectors that are refused before any work, `reproduce` only gets experiment
//! names that do not exist, and each process has a timeout.

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CASES: u32 = 2000;
const TIMEOUT: Duration = Duration::from_secs(60);

const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "0.5",
    "0.1",
    "1e-3",
    "-1",
    "nan",
    "NaN",
    "-nan",
    "inf",
    "-inf",
    "+inf",
    "infinity",
    "4.9e-324",
    "2.2e-308",
    "1e-300",
    "1e300",
    "-1e300",
    "1.7976931348623157e308",
    "1e309",
    "abc",
    "",
    " ",
    "1,2",
    "0x10",
    "1e",
    "--",
    "é",
    "18446744073709551616",
];

const COUNTS: &[&str] = &[
    "0",
    "1",
    "2",
    "7",
    "100",
    "-1",
    "18446744073709551615",
    "18446744073709551616",
    "2305843009213693952",
    "nan",
    "1.5",
    "",
    "x",
];

const METHODS: &[&str] = &[
    "rkmk4",
    "lie-euler",
    "rkmk54",
    "cf4",
    "cf43",
    "gl2",
    "llm-implicit",
    "llm-explicit",
    "yoshida4+gl2",
    "yoshida4+yoshida4+gl2",
    "yoshida4+rkmk4",
    "yoshida4+",
    "+",
    "++",
    "kahan-li8+llm-implicit",
    "no-such-method",
    "",
    "RKMK4",
];

/// Models whose runs are fast; the others appear in vectors refused before any work.
const FAST_MODELS: &[&str] = &["free-rigid-body", "double-spherical-pendulum", "n-pendulum"];
const OTHER_MODELS: &[&str] = &["no-such-model", "", "FREE-RIGID-BODY"];

const STEP_LISTS: &[&str] = &[
    "8,16",
    "4,8,16",
    "16,8",
    "8,8",
    "0,8",
    "8",
    "8,",
    ",",
    "a,b",
    "8,2305843009213693952",
    "8,18446744073709551615",
    "-8,16",
    "",
];

const PRESETS: &[&str] = &[
    "s2",
    "llm09",
    "convergence",
    "chain-3",
    "chain-0",
    "chain-x",
    "bogus",
];

/// The files put into `--out` before every case; without `--force` none may change.
const SENTINELS: &[&str] = &[
    ".write-probe",
    "free-rigid-body-rkmk4.csv",
    "free-rigid-body-rkmk4.json",
    "free-rigid-body-lie-euler-states.svg",
    "convergence-free-rigid-body.csv",
    "report.html",
    "notes.txt",
];

fn pick(list: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::sample::select(list).prop_map(str::to_string)
}

fn garbage() -> impl Strategy<Value = String> {
    prop_oneof!["[a-z-]{0,12}", "--[a-z-]{1,10}", "-[a-zA-Z]", "\\PC{0,8}",]
}

/// An option `--name value`, sometimes without its value.
fn opt(
    name: &'static str,
    values: impl Strategy<Value = String>,
) -> impl Strategy<Value = Vec<String>> {
    (values, prop::bool::weighted(0.95)).prop_map(move |(v, with_value)| {
        if with_value {
            vec![name.to_string(), v]
        } else {
            vec![name.to_string()]
        }
    })
}

/// Up to `n` optional options in random order (some may repeat).
fn options(
    choices: Vec<BoxedStrategy<Vec<String>>>,
    n: usize,
) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(proptest::strategy::Union::new(choices), 0..=n)
        .prop_map(|v| v.into_iter().flatten().collect())
}

#[derive(Clone, Debug)]
struct Case {
    args: Vec<String>,
    /// Whether to pass `--out DIR` (the folder with the sentinel files).
    out: bool,
    /// Whether the vector may do work (it then gets the step budget).
    runs: bool,
}

fn run_case() -> impl Strategy<Value = Case> {
    let model = prop_oneof![8 => pick(FAST_MODELS), 1 => pick(OTHER_MODELS)];
    let method = prop_oneof![9 => pick(METHODS), 1 => garbage()];
    let extra = options(
        vec![
            opt("--h", pick(NUMBERS)).boxed(),
            opt("--h", Just("0.05".to_string())).boxed(),
            opt("--rtol", pick(NUMBERS)).boxed(),
            opt("--atol", pick(NUMBERS)).boxed(),
            opt("--t-end", pick(NUMBERS)).boxed(),
            opt("--t-end", Just("0.5".to_string())).boxed(),
            opt("--t0", pick(NUMBERS)).boxed(),
            opt("--h-min", pick(NUMBERS)).boxed(),
            opt("--save-every", pick(COUNTS)).boxed(),
            opt("--preset", pick(PRESETS)).boxed(),
            Just(vec!["--json".to_string()]).boxed(),
            Just(vec!["--force".to_string()]).boxed(),
            garbage().prop_map(|g| vec![g]).boxed(),
        ],
        6,
    );
    (
        model,
        method,
        prop::bool::weighted(0.9),
        extra,
        prop::bool::ANY,
    )
        .prop_map(|(model, method, with_method, extra, out)| {
            let mut args = vec!["run".to_string(), model];
            if with_method {
                args.extend(["--method".to_string(), method]);
            }
            args.extend(extra);
            args.extend(["--max-steps".to_string(), "2000".to_string()]);
            Case {
                args,
                out,
                runs: true,
            }
        })
}

fn convergence_case() -> impl Strategy<Value = Case> {
    let methods = prop::collection::vec(pick(METHODS), 1..3).prop_map(|v| v.join(","));
    let extra = options(
        vec![
            opt("--steps", pick(STEP_LISTS)).boxed(),
            opt("--t-end", pick(NUMBERS)).boxed(),
            opt("--t-end", Just("0.2".to_string())).boxed(),
            opt("--preset", pick(PRESETS)).boxed(),
            Just(vec!["--json".to_string()]).boxed(),
            Just(vec!["--force".to_string()]).boxed(),
            garbage().prop_map(|g| vec![g]).boxed(),
        ],
        4,
    );
    (pick(FAST_MODELS), methods, extra, prop::bool::ANY).prop_map(|(model, methods, extra, out)| {
        let mut args = vec!["convergence".to_string(), model];
        args.extend(["--methods".to_string(), methods]);
        // The default step counts of a preset; a long horizon is cut to keep the case tiny.
        if !args.iter().chain(&extra).any(|a| a == "--steps") {
            args.extend(["--steps".to_string(), "4,8".to_string()]);
        }
        args.extend(extra);
        Case {
            args,
            out,
            runs: true,
        }
    })
}

fn other_case() -> impl Strategy<Value = Case> {
    prop_oneof![
        // `list` with random flags.
        prop::collection::vec(prop_oneof![Just("--json".to_string()), garbage()], 0..3).prop_map(
            |extra| {
                let mut args = vec!["list".to_string()];
                args.extend(extra);
                Case {
                    args,
                    out: false,
                    runs: false,
                }
            }
        ),
        // `reproduce` of an experiment that does not exist (a real one takes minutes).
        (
            "[a-z]{1,8}-x",
            prop::collection::vec(
                prop_oneof![
                    Just("--quick".to_string()),
                    Just("--force".to_string()),
                    garbage()
                ],
                0..3
            )
        )
            .prop_map(|(name, extra)| {
                let mut args = vec!["reproduce".to_string(), name];
                args.extend(extra);
                Case {
                    args,
                    out: true,
                    runs: false,
                }
            }),
        // A slow model or a garbage subcommand: refused before any work.
        (
            prop_oneof![
                Just("run".to_string()),
                Just("convergence".to_string()),
                garbage()
            ],
            prop_oneof![
                Just("lennard-jones".to_string()),
                Just("elastic-rod".to_string()),
                garbage()
            ],
            pick(NUMBERS),
        )
            .prop_map(|(cmd, model, x)| Case {
                args: vec![
                    cmd,
                    model,
                    "--method".into(),
                    "rk99".into(),
                    "--h".into(),
                    x
                ],
                out: false,
                runs: false,
            }),
        // Arbitrary words.
        prop::collection::vec(garbage(), 1..5).prop_map(|args| Case {
            args,
            out: false,
            runs: false,
        }),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![5 => run_case(), 2 => convergence_case(), 2 => other_case()]
}

fn fill_sentinels(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
    SENTINELS
        .iter()
        .map(|n| {
            let p = dir.join(n);
            let content = format!("the user's {n}\n").into_bytes();
            std::fs::write(&p, &content).unwrap();
            (p, content)
        })
        .collect()
}

/// Exit codes seen: `[0, 2]`.
static EXITS: [std::sync::atomic::AtomicUsize; 2] = [
    std::sync::atomic::AtomicUsize::new(0),
    std::sync::atomic::AtomicUsize::new(0),
];

fn check(case: &Case, dir: &Path, stderr_path: &Path) -> Result<(), TestCaseError> {
    let sentinels = fill_sentinels(dir);
    let mut args = case.args.clone();
    if case.out {
        args.extend(["--out".to_string(), dir.to_string_lossy().into_owned()]);
    }
    let stderr = std::fs::File::create(stderr_path).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_lie-integrators"))
        .args(&args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("the binary runs");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(TestCaseError::fail(format!(
                "{args:?}: no answer within {TIMEOUT:?}"
            )));
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let err = std::fs::read_to_string(stderr_path).unwrap_or_default();
    prop_assert!(
        matches!(status.code(), Some(0 | 2)),
        "{:?}: exit {:?}, stderr: {}",
        args,
        status,
        err
    );
    prop_assert!(!err.contains("panicked"), "{:?}: {}", args, err);
    let slot = usize::from(status.code() == Some(2));
    EXITS[slot].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    if status.code() == Some(2) {
        prop_assert_eq!(err.trim_end().lines().count(), 1, "{:?}: {}", args, err);
    }
    let forced = args.iter().any(|a| a == "--force");
    if !forced {
        for (p, content) in &sentinels {
            let now = std::fs::read(p).unwrap_or_default();
            prop_assert!(&now == content, "{:?}: {} changed", args, p.display());
        }
    }
    Ok(())
}

#[test]
fn generated_argument_vectors_exit_0_or_2_and_keep_user_files() {
    let dir = std::env::temp_dir().join(format!("lie-integrators-fuzz-{}", std::process::id()));
    let stderr_path = std::env::temp_dir().join(format!(
        "lie-integrators-fuzz-{}.stderr",
        std::process::id()
    ));
    let config = Config {
        cases: CASES,
        failure_persistence: Some(Box::new(FileFailurePersistence::Off)),
        max_shrink_iters: 200,
        ..Config::default()
    };
    let mut runner = proptest::test_runner::TestRunner::new(config);
    let ran = std::sync::atomic::AtomicUsize::new(0);
    let did_work = std::sync::atomic::AtomicUsize::new(0);
    let result = runner.run(&case(), |c| {
        ran.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        did_work.fetch_add(usize::from(c.runs), std::sync::atomic::Ordering::Relaxed);
        check(&c, &dir, &stderr_path)
    });
    let (ran, did_work) = (ran.into_inner(), did_work.into_inner());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&stderr_path);
    if let Err(e) = result {
        panic!("{e}");
    }
    let ok = EXITS[0].load(std::sync::atomic::Ordering::Relaxed);
    let refused = EXITS[1].load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{ran} vectors ({did_work} that may run): {ok} exit 0, {refused} exit 2");
    assert!(ran >= CASES as usize, "{ran} cases");
    assert!(did_work > 0);
    // The generator reaches both outcomes (not only parse errors).
    assert!(
        ok >= 100 && refused >= 100,
        "{ok} successes, {refused} refusals"
    );
}
