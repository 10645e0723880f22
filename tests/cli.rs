//! The experiments program, run as a binary: outputs that scripts read, and bad input (one line
//! on stderr, exit code 2, nothing overwritten).

use std::path::PathBuf;
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lie-integrators"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "lie-integrators-test-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn assert_usage_error(out: &Output, needle: &str) {
    assert_eq!(
        out.status.code(),
        Some(2),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "one line expected, got: {err}"
    );
    assert!(err.contains(needle), "'{needle}' not in: {err}");
    assert!(out.stdout.is_empty(), "nothing on stdout for errors");
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    assert_usage_error(
        &run(&["run", "no-such-model", "--method", "rkmk4", "--h", "0.1"]),
        "unknown model",
    );
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "rk99", "--h", "0.1"]),
        "unknown method",
    );
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "rkmk4", "--h", "0"]),
        "--h must be positive",
    );
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "rkmk4", "--h", "-0.1"]),
        "--h must be positive",
    );
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "rkmk4", "--h", "nan"]),
        "--h must be positive",
    );
    assert_usage_error(
        &run(&[
            "run",
            "free-rigid-body",
            "--method",
            "rkmk4",
            "--rtol",
            "1e-6",
            "--atol",
            "1e-6",
        ]),
        "no embedded",
    );
    assert_usage_error(
        &run(&[
            "run",
            "free-rigid-body",
            "--method",
            "rkmk4",
            "--preset",
            "nope",
        ]),
        "unknown preset",
    );
    assert_usage_error(
        &run(&["convergence", "free-rigid-body", "--methods", "rkmk4,,cf4"]),
        "malformed method list",
    );
    assert_usage_error(
        &run(&[
            "convergence",
            "free-rigid-body",
            "--methods",
            "rkmk4",
            "--steps",
            "8,x,32",
        ]),
        "malformed step-count list",
    );
    assert_usage_error(
        &run(&[
            "convergence",
            "free-rigid-body",
            "--methods",
            "rkmk4",
            "--steps",
            "32,16",
        ]),
        "increasing",
    );
    assert_usage_error(
        &run(&["reproduce", "no-such-experiment", "--out", "/tmp"]),
        "unknown experiment",
    );
    assert_usage_error(&run(&["frobnicate"]), "unrecognized subcommand");
}

#[test]
fn unwritable_or_existing_output_is_refused() {
    // A folder below a regular file cannot be created.
    let file = temp_dir("file");
    std::fs::write(&file, b"x").unwrap();
    let below = file.join("out");
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "rkmk4",
        "--h",
        "0.1",
        "--t-end",
        "1",
        "--out",
        below.to_str().unwrap(),
    ]);
    assert_usage_error(&out, "out");
    let _ = std::fs::remove_file(&file);

    // Existing output is not overwritten without --force.
    let dir = temp_dir("existing");
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("free-rigid-body-rkmk4.csv");
    std::fs::write(&csv, b"keep me").unwrap();
    let args = [
        "run",
        "free-rigid-body",
        "--method",
        "rkmk4",
        "--h",
        "0.1",
        "--t-end",
        "1",
        "--out",
        dir.to_str().unwrap(),
    ];
    assert_usage_error(&run(&args), "--force");
    assert_eq!(std::fs::read(&csv).unwrap(), b"keep me");
    let mut forced = args.to_vec();
    forced.push("--force");
    let out = run(&forced);
    assert!(out.status.success());
    assert_ne!(std::fs::read(&csv).unwrap(), b"keep me");
    assert!(dir.join("free-rigid-body-rkmk4-invariants.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn run_json_is_one_object_with_the_documented_fields() {
    let out = run(&[
        "run",
        "double-spherical-pendulum",
        "--method",
        "cf4",
        "--h",
        "0.01",
        "--t-end",
        "1",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["model"], "double-spherical-pendulum");
    assert_eq!(v["method"], "cf4");
    assert_eq!(v["final_state"].as_array().unwrap().len(), 12);
    assert_eq!(v["state_layout"][0], "q1_1");
    assert_eq!(v["steps"], 100);
    assert!((v["t_final"].as_f64().unwrap() - 1.0).abs() < 1e-12);
    assert!(v["max_unit_length_error"].as_f64().unwrap() < 1e-13);
    assert!(v["max_energy_error"].as_f64().unwrap() < 1e-8);
    // The final state is on (TS²)².
    let s: Vec<f64> = v["final_state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    for b in s.chunks(6) {
        let q2: f64 = b[..3].iter().map(|x| x * x).sum();
        assert!((q2 - 1.0).abs() < 1e-13);
    }
}

#[test]
fn convergence_json_reports_fourth_order() {
    let out = run(&[
        "convergence",
        "double-spherical-pendulum",
        "--methods",
        "rkmk4,cf4",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let methods = v["methods"].as_array().unwrap();
    assert_eq!(methods.len(), 2);
    for m in methods {
        let p = m["observed_order"].as_f64().unwrap();
        assert!((p - 4.0).abs() < 0.2, "{m}");
    }
}

#[test]
fn list_json_and_a_quick_reproduction() {
    let out = run(&["list", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["methods"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == "rkmk4" && m["order"] == 4)
    );
    assert!(
        v["models"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == "free-rigid-body")
    );

    let dir = temp_dir("reproduce");
    let out = run(&[
        "reproduce",
        "cclmo-convergence",
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("rkmk4-2comm"));
    assert!(
        dir.join("cclmo-convergence")
            .join("convergence.csv")
            .exists()
    );
    // A second run without --force refuses to overwrite.
    let again = run(&[
        "reproduce",
        "cclmo-convergence",
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn variational_methods_and_compositions_by_name() {
    // The variational integrator conserves the vertical angular momentum of the double
    // spherical pendulum to round-off (it is symplectic and momentum-preserving).
    let out = run(&[
        "run",
        "double-spherical-pendulum",
        "--method",
        "llm-implicit",
        "--h",
        "0.01",
        "--t-end",
        "5",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["max_momentum_error"].as_f64().unwrap() < 1e-11, "{v}");
    assert!(v["max_unit_length_error"].as_f64().unwrap() < 1e-13);
    // A Yoshida composition of it has order 4.
    let out = run(&[
        "convergence",
        "double-spherical-pendulum",
        "--methods",
        "yoshida4+llm-implicit",
        "--steps",
        "16,32,64,128",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let p = v["methods"][0]["observed_order"].as_f64().unwrap();
    assert!((p - 4.0).abs() < 0.2, "{v}");
    // Variational methods need a Lagrangian model; compositions need an even-order base.
    assert_usage_error(
        &run(&[
            "run",
            "free-rigid-body",
            "--method",
            "llm-implicit",
            "--h",
            "0.1",
        ]),
        "(S²)ⁿ",
    );
    assert_usage_error(
        &run(&[
            "run",
            "free-rigid-body",
            "--method",
            "yoshida4+rkmk3",
            "--h",
            "0.1",
        ]),
        "even order",
    );
}

/// Spawn the binary with stdout piped, read at most `keep` bytes and close the pipe.
fn run_and_close_stdout_after(args: &[&str], keep: usize) -> Output {
    use std::io::Read;
    let mut child = bin()
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut buf = vec![0u8; keep];
    let _ = stdout.read(&mut buf);
    drop(stdout);
    child.wait_with_output().expect("the binary ends")
}

#[test]
fn broken_pipe_ends_quietly() {
    for (args, keep) in [
        (vec!["list"], 1),
        (vec!["list", "--json"], 1),
        (
            vec![
                "run",
                "free-rigid-body",
                "--method",
                "rkmk4",
                "--h",
                "0.1",
                "--t-end",
                "1",
            ],
            10,
        ),
        (
            vec![
                "run",
                "free-rigid-body",
                "--method",
                "rkmk4",
                "--h",
                "0.1",
                "--t-end",
                "1",
                "--json",
            ],
            10,
        ),
        (
            vec![
                "convergence",
                "free-rigid-body",
                "--methods",
                "rkmk4",
                "--steps",
                "8,16",
            ],
            1,
        ),
    ] {
        let out = run_and_close_stdout_after(&args, keep);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: stderr {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(
            err.trim().is_empty(),
            "{args:?}: nothing on stderr, got {err}"
        );
    }
}

#[test]
fn deeply_nested_composition_is_a_usage_error() {
    let id = format!("{}gl2", "yoshida4+".repeat(3000));
    let out = run(&["run", "free-rigid-body", "--method", &id, "--h", "0.1"]);
    assert_usage_error(&out, "at most 8");
    let out = run(&[
        "convergence",
        "free-rigid-body",
        "--methods",
        &id,
        "--steps",
        "8,16",
    ]);
    assert_usage_error(&out, "at most 8");
    // Nesting within the limit still works.
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "yoshida4+yoshida4+gl2",
        "--h",
        "0.5",
        "--t-end",
        "1",
        "--json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn write_probe_of_the_user_survives() {
    let dir = temp_dir("write-probe");
    std::fs::create_dir_all(&dir).unwrap();
    let probe = dir.join(".write-probe");
    let content = b"the user's own file\n\x00\xff";
    std::fs::write(&probe, content).unwrap();
    for force in [false, true] {
        let mut args = vec![
            "run",
            "free-rigid-body",
            "--method",
            "rkmk4",
            "--h",
            "0.1",
            "--t-end",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ];
        if force {
            args.push("--force");
        }
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(&probe).unwrap(), content);
    }
    // No probe file of the program is left behind.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') && n != ".write-probe")
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn huge_convergence_step_count_is_a_usage_error() {
    for model in ["double-spherical-pendulum", "free-rigid-body"] {
        let out = run(&[
            "convergence",
            model,
            "--methods",
            "rkmk4",
            "--steps",
            "8,2305843009213693952",
        ]);
        assert_usage_error(&out, "above the limit of 1250000");
    }
    let out = run(&[
        "convergence",
        "free-rigid-body",
        "--methods",
        "rkmk4",
        "--steps",
        &format!("8,{}", usize::MAX),
    ]);
    assert_usage_error(&out, "above the limit");
}

#[test]
fn messages_are_meaningful_single_lines() {
    // clap: the missing flag is named.
    let out = run(&["run", "free-rigid-body"]);
    assert_usage_error(&out, "--method");
    let out = run(&["run", "free-rigid-body", "--method", "rkmk4", "--bogus"]);
    assert_usage_error(&out, "--bogus");
    // Huge numbers in short scientific notation.
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "rkmk4",
        "--h",
        "-1e300",
    ]);
    assert_usage_error(&out, "-1.000e300");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.len() < 200, "{err}");
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "rkmk4",
        "--h",
        "1e300",
        "--t-end",
        "1e300",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("0000000000"), "{err}");
    assert!(err.trim_end().lines().count() <= 1, "{err}");
    // A blow-up is not blamed on the vector field alone.
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "rkmk4",
        "--h",
        "1e150",
        "--t-end",
        "1e151",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(2) && err.contains("non-finite") {
        assert!(err.contains("stage"), "{err}");
        assert!(!err.contains("0000000000"), "{err}");
    }
}

fn run_json_of(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

#[test]
fn run_options_t0_max_steps_h_min_save_every() {
    let base = ["run", "free-rigid-body", "--method", "rkmk4", "--h", "0.01"];
    // --t0: the run covers [t0, t_end].
    let mut a = base.to_vec();
    a.extend(["--t0", "1", "--t-end", "2", "--json"]);
    let v = run_json_of(&a);
    assert_eq!(v["t0"], 1.0);
    assert!((v["t_final"].as_f64().unwrap() - 2.0).abs() < 1e-12);
    assert_eq!(v["steps"], 100);
    assert_eq!(v["interrupted"], false);
    // --t-end before --t0 is a usage error.
    let mut a = base.to_vec();
    a.extend(["--t0", "3", "--t-end", "2"]);
    assert_usage_error(&run(&a), "after --t0");
    // --max-steps: a fixed-step run longer than the budget is refused.
    let mut a = base.to_vec();
    a.extend(["--t-end", "2", "--max-steps", "10"]);
    assert_usage_error(&run(&a), "budget");
    let mut a = base.to_vec();
    a.extend(["--max-steps", "0"]);
    assert_usage_error(&run(&a), "--max-steps");
    // --h-min: validated; an adaptive run that needs smaller steps fails with the partial result.
    for bad in ["0", "-1", "nan", "inf"] {
        let a = [
            "run",
            "free-rigid-body",
            "--method",
            "rkmk54",
            "--rtol",
            "1e-6",
            "--atol",
            "1e-6",
            "--h-min",
            bad,
        ];
        assert_usage_error(&run(&a), "--h-min");
    }
    let dir = temp_dir("h-min");
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "rkmk54",
        "--rtol",
        "1e-12",
        "--atol",
        "1e-12",
        "--h-min",
        "0.5",
        "--t-end",
        "5",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_usage_error(&out, "underflow");
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("free-rigid-body-rkmk54.json")).unwrap())
            .unwrap();
    assert!(saved["error"].as_str().unwrap().contains("underflow"));
    assert_eq!(saved["interrupted"], false);
    let _ = std::fs::remove_dir_all(&dir);
    // --save-every K: the initial point, every K-th step and the final point.
    let dir = temp_dir("save-every");
    let mut a = base.to_vec();
    a.extend([
        "--t-end",
        "1",
        "--save-every",
        "30",
        "--out",
        dir.to_str().unwrap(),
    ]);
    let out = run(&a);
    assert!(out.status.success());
    let csv = std::fs::read_to_string(dir.join("free-rigid-body-rkmk4.csv")).unwrap();
    // Header, t = 0, 0.3, 0.6, 0.9 and the final point t = 1.
    assert_eq!(csv.lines().count(), 1 + 5, "{csv}");
    let _ = std::fs::remove_dir_all(&dir);
    let mut a = base.to_vec();
    a.extend(["--save-every", "0"]);
    assert_usage_error(&run(&a), "--save-every");
}

#[test]
fn stored_output_is_bounded_for_long_runs() {
    // 200000 steps with --save-every 1: at most 100000 points (+ the final one) are kept.
    let dir = temp_dir("bounded");
    let out = run(&[
        "run",
        "free-rigid-body",
        "--method",
        "lie-euler",
        "--h",
        "0.0001",
        "--t-end",
        "20",
        "--save-every",
        "1",
        "--json",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["steps"], 200_000);
    assert!(v["save_every"].as_u64().unwrap() >= 2);
    let csv = std::fs::read_to_string(dir.join("free-rigid-body-lie-euler.csv")).unwrap();
    assert!(csv.lines().count() <= 100_002, "{}", csv.lines().count());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Peak resident memory (KiB) of one run of the binary, from `wait4`'s resource usage.
#[cfg(target_os = "linux")]
// The child is reaped by `wait4` below (which also returns its peak RSS), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn peak_rss_kib(args: &[&str]) -> i64 {
    use std::process::Stdio;
    let child = bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: `rusage` is plain data that `wait4` fills; `pid` is our own child, reaped here
    // exactly once (`child` is not waited on afterwards).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4 failed");
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    usage.ru_maxrss
}

/// Issue 19: memory with `--save-every` stays flat. Ten times the steps may not cost more than
/// a few MB more at its peak; keeping every step would cost 32 bytes × 9·10⁵ ≈ 29 MB more.
#[cfg(target_os = "linux")]
#[test]
fn peak_memory_with_save_every_does_not_grow_with_the_run() {
    let dir = temp_dir("rss");
    let args = |t_end: &'static str, stem: &'static str| -> Vec<String> {
        [
            "run",
            "free-rigid-body",
            "--method",
            "lie-euler",
            "--h",
            "0.001",
            "--t-end",
            t_end,
            "--save-every",
            "1000",
            "--out",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .chain([dir.join(stem).to_string_lossy().into_owned()])
        .collect()
    };
    let short = args("100", "short");
    let long = args("1000", "long");
    let peak = |a: &[String]| peak_rss_kib(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let (p_short, p_long) = (peak(&short), peak(&long));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        p_long - p_short <= 8 * 1024,
        "peak RSS {p_short} KiB for 1e5 steps, {p_long} KiB for 1e6 steps"
    );
}

#[cfg(unix)]
#[test]
fn sigint_writes_the_partial_run_and_exits_130() {
    let dir = temp_dir("sigint");
    let child = bin()
        .args([
            "run",
            "free-rigid-body",
            "--method",
            "rkmk4",
            "--h",
            "1e-4",
            "--t-end",
            "999",
            "--json",
            "--out",
            dir.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Let it start integrating (the output folder exists once the input is checked).
    let start = std::time::Instant::now();
    while !dir.exists() && start.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "stderr: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["interrupted"], true);
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("free-rigid-body-rkmk4.json")).unwrap())
            .unwrap();
    assert_eq!(saved["interrupted"], true);
    let t = saved["t_final"].as_f64().unwrap();
    assert!(t > 0.0 && t < 999.0, "{t}");
    let steps = saved["steps"].as_u64().unwrap();
    assert!(steps > 0);
    let csv = std::fs::read_to_string(dir.join("free-rigid-body-rkmk4.csv")).unwrap();
    let last_t: f64 = csv
        .lines()
        .last()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((last_t - t).abs() < 1e-9, "{last_t} vs {t}");
    assert!(dir.join("free-rigid-body-rkmk4-states.svg").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 22: the work–precision experiment names its methods in the CSV, runs every kind of
/// contender, and shows what the ambient codes lose: the Lie pairs end on the manifold to
/// round-off at every tolerance, Dopri5 on the ambient equations does not at a loose one.
#[test]
fn work_precision_names_methods_and_shows_the_manifold_error() {
    let dir = temp_dir("work-precision");
    let out = run(&[
        "reproduce",
        "work-precision",
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let csv = std::fs::read_to_string(dir.join("work-precision").join("pendulum.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("method,kind,tol,steps,seconds,error,manifold_error")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    for kind in ["lie", "ambient", "ambient+projection"] {
        assert!(rows.iter().any(|r| r[1] == kind), "no {kind} run");
    }
    for r in &rows {
        let manifold: f64 = r[6].parse().unwrap();
        let tol: f64 = r[2].parse().unwrap();
        match r[1] {
            "lie" | "ambient+projection" => {
                assert!(manifold < 1e-13, "{}: manifold error {manifold:e}", r[0]);
            }
            _ if r[0] == "ode_solvers-dopri5" && tol >= 1e-4 => {
                assert!(manifold > 1e-9, "{}: manifold error {manifold:e}", r[0]);
            }
            _ => {}
        }
    }
    assert!(
        dir.join("work-precision")
            .join("heavy-top-race.csv")
            .exists()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn reproduce_homogeneous_nh_quick() {
    // The stage-constrained VPRKMK on (S²)ⁿ: the fitted orders in orders.csv are 2s for Gauss
    // s = 1, 2, 3 (docs/nonholonomic.md §7), and the long-run energy error does not grow.
    let dir = temp_dir("homogeneous-nh");
    let out = run(&[
        "reproduce",
        "homogeneous-nh",
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sub = dir.join("homogeneous-nh");
    let rows: Vec<Vec<f64>> = std::fs::read_to_string(sub.join("orders.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    for system in [0.0, 1.0] {
        for p in [2.0, 4.0, 6.0] {
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r[0] == system && r[1] == p)
                .map(|r| (r[2].ln(), r[3].ln()))
                .collect();
            let n = pts.len() as f64;
            assert!(n >= 3.0);
            let (mx, my) = (
                pts.iter().map(|q| q.0).sum::<f64>() / n,
                pts.iter().map(|q| q.1).sum::<f64>() / n,
            );
            let slope = pts.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum::<f64>()
                / pts.iter().map(|q| (q.0 - mx) * (q.0 - mx)).sum::<f64>();
            assert!(
                (slope - p).abs() < 0.3,
                "system {system}, order {p}: {slope}"
            );
        }
    }
    // Run 0 (spherical pendulum, stage-constrained, Gauss 1, h = 0.1): the energy error in
    // the last tenth of the samples is not larger than 1.5 × the first tenth's.
    let e: Vec<f64> = std::fs::read_to_string(sub.join("long-runs.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            l.split(',')
                .map(|x| x.parse().unwrap())
                .collect::<Vec<f64>>()
        })
        .filter(|r| r[0] == 0.0)
        .map(|r| r[2])
        .collect();
    let tenth = e.len() / 10;
    let amax = |v: &[f64]| v.iter().fold(0.0_f64, |a, x| a.max(*x));
    assert!(amax(&e[e.len() - tenth..]) <= 1.5 * amax(&e[..tenth]));
    for f in ["orders.svg", "energy.svg", "vertical-momentum.svg"] {
        assert!(sub.join(f).exists(), "{f}");
    }
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("NOT the equations printed"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every derived identifier that `list` prints (`<id>-cayley`, `<id>-embedded`) resolves and
/// runs; each measured on the free rigid body with the order `list` gives it (the
/// embedded solution of a pair is its lower order, the Cayley variant keeps the order
/// [MK99, Thm. 4.1]); ids without a variant are usage errors.
#[test]
fn variant_ids_are_listed_and_resolve() {
    let text = String::from_utf8(run(&["list"]).stdout).unwrap();
    let out = run(&["list", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let variants = v["variants"].as_array().unwrap();
    let ids: Vec<&str> = variants.iter().map(|v| v["id"].as_str().unwrap()).collect();
    for id in [
        "rkmk4-cayley",
        "rkmk-vern87-cayley",
        "rkmk54-embedded",
        "cf32-embedded",
        "cf43-embedded",
        "rkmk853-embedded",
    ] {
        assert!(ids.contains(&id), "{id} not in {ids:?}");
        assert!(text.contains(id), "`list` does not print {id}");
    }
    let out = run(&[
        "convergence",
        "free-rigid-body",
        "--methods",
        &ids.join(","),
        "--steps",
        "16,32,64",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows = c["methods"].as_array().unwrap();
    assert_eq!(rows.len(), ids.len());
    for (row, var) in rows.iter().zip(variants) {
        assert_eq!(row["method"], var["id"]);
        assert_eq!(row["expected_order"], var["order"]);
        let errors = row["errors"].as_array().unwrap();
        assert!(errors.iter().all(|e| e.as_f64().unwrap() < 1e-2), "{row}");
    }
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "rkmk4-embedded"]),
        "no variant '-embedded'",
    );
    assert_usage_error(
        &run(&["run", "free-rigid-body", "--method", "cf4-cayley"]),
        "no variant '-cayley'",
    );
}

/// Without `--steps`, `convergence` searches a grid per method: an eighth-order pair gets a
/// slope from at least three points in the asymptotic range (not `null`), and the points the
/// fit dropped are reported.
#[test]
fn convergence_searches_a_grid_for_high_orders() {
    let out = run(&[
        "convergence",
        "free-rigid-body",
        "--methods",
        "rkmk853,rkmk4",
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for (m, p) in v["methods"].as_array().unwrap().iter().zip([8.0, 4.0]) {
        let slope = m["observed_order"].as_f64().expect("a slope, not null");
        assert!((slope - p).abs() < 0.5, "{m}");
        assert!(m["points_used"].as_array().unwrap().len() >= 3, "{m}");
        assert!(!m["grids_tried"].as_array().unwrap().is_empty(), "{m}");
    }
    let text =
        String::from_utf8(run(&["convergence", "free-rigid-body", "--methods", "rkmk853"]).stdout)
            .unwrap();
    assert!(text.contains("(round-off)"), "{text}");
}

/// `convergence --adaptive`: for pairs p(p−1) run with local extrapolation, the error is
/// proportional to the tolerance (slope 1 within ±0.15) [HNW93 II.4]; the CSV names the
/// method in its first column.
#[test]
fn convergence_adaptive_tolerance_proportionality() {
    let dir = temp_dir("adaptive");
    let out = run(&[
        "convergence",
        "free-rigid-body",
        "--adaptive",
        "--methods",
        "rkmk-bs32,rkmk54,cf32,cf43",
        "--tols",
        "1e-5,1e-6,1e-7,1e-8,1e-9,1e-10",
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for m in v["methods"].as_array().unwrap() {
        let slope = m["tolerance_slope"].as_f64().unwrap();
        assert!((slope - 1.0).abs() < 0.15, "{m}");
    }
    let csv =
        std::fs::read_to_string(dir.join("convergence-adaptive-free-rigid-body.csv")).unwrap();
    assert_eq!(csv.lines().next(), Some("method,tol,steps,error"));
    assert!(
        csv.lines().nth(1).unwrap().starts_with("rkmk-bs32,1e-5,"),
        "{csv}"
    );
    assert!(
        dir.join("convergence-adaptive-free-rigid-body.svg")
            .exists()
    );
    assert_usage_error(
        &run(&[
            "convergence",
            "free-rigid-body",
            "--adaptive",
            "--methods",
            "rkmk4",
        ]),
        "no embedded error estimate",
    );
    assert_usage_error(&run(&["convergence", "free-rigid-body"]), "needs --methods");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The [LLM09] experiments run in `--quick` mode in under 5 s each and write their figures.
#[test]
fn llm09_experiments_quick() {
    for (id, file) in [
        ("llm09", "coupled-pendula-rk2-reprojection.csv"),
        ("llm09-fig-3-2", "fig-3-2.csv"),
        ("llm09-kinetic-energy", "kinetic-energy-t0.svg"),
    ] {
        let dir = temp_dir(id);
        let start = std::time::Instant::now();
        let out = run(&["reproduce", id, "--quick", "--out", dir.to_str().unwrap()]);
        let secs = start.elapsed().as_secs_f64();
        assert!(
            out.status.success(),
            "{id}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(secs < 5.0, "{id}: {secs} s");
        assert!(dir.join(id).join(file).exists(), "{id}: {file}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Run `reproduce <id> --quick` into a fresh folder and return it.
fn reproduce_quick(id: &str) -> PathBuf {
    let dir = temp_dir(id);
    let out = run(&["reproduce", id, "--quick", "--out", dir.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// The numeric rows of a CSV file with a header line.
fn csv_rows(path: &std::path::Path) -> Vec<Vec<f64>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect()
}

#[test]
fn heavy_top_slgi_and_slgikk_are_second_order() {
    // [CCLMO22 §3.4.4]: the θ = ½ methods on both formulations attain order 2.
    let dir = reproduce_quick("heavy-top");
    let sub = dir.join("heavy-top");
    let rows = csv_rows(&sub.join("orders.csv"));
    // Consecutive (h, error) pairs of the expected-order-2 rows (SLGI θ=½, SLGIKK θ=½), with h
    // halving inside a method's block.
    let second: Vec<&Vec<f64>> = rows.iter().filter(|r| r[0] == 2.0).collect();
    assert!(second.len() >= 6);
    let mut slopes = 0;
    for w in second.windows(2) {
        if (w[0][1] / w[1][1] - 2.0).abs() < 1e-9 {
            let slope = (w[0][2] / w[1][2]).log2();
            assert!((slope - 2.0).abs() < 0.3, "local slope {slope}");
            slopes += 1;
        }
    }
    assert!(slopes >= 4);
    assert!(sub.join("energy-h0.01.csv").exists() && sub.join("energy-h0.01.svg").exists());
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("SLGIKK"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cclmo22_experiments_run_quickly_and_write_their_files() {
    for (id, files) in [
        ("compositions", &["orders.csv", "orders.svg"][..]),
        (
            "ts2-preservation",
            &["ts2-defects.csv", "unit-length.svg", "tangency.svg"][..],
        ),
        (
            "variable-step",
            &[
                "variable-step.csv",
                "n2-history.csv",
                "n2-step-size.svg",
                "n2-angular-acceleration.svg",
            ][..],
        ),
    ] {
        let dir = reproduce_quick(id);
        for f in files {
            assert!(dir.join(id).join(f).exists(), "{id}: {f}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `reproduce langevin --quick`: the report, both figures and the CSV are written, and the
/// sphere's mean-square displacement at the end of the CSV is within 25 % of the exact
/// Ornstein–Uhlenbeck value in the next column (200 bodies: a standard error of ~6 %).
#[test]
fn quick_langevin_reproduction() {
    let dir = temp_dir("langevin");
    let out = run(&[
        "reproduce",
        "langevin",
        "--quick",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sub = dir.join("langevin");
    assert!(sub.join("msd.svg").exists() && sub.join("orientation.svg").exists());
    let csv = std::fs::read_to_string(sub.join("diffusion.csv")).unwrap();
    let last: Vec<f64> = csv
        .lines()
        .last()
        .unwrap()
        .split(',')
        .map(|x| x.parse().unwrap())
        .collect();
    let (msd, theory) = (last[1], last[2]);
    assert!((msd / theory - 1.0).abs() < 0.25, "{msd} vs {theory}");
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains("Perrin") && html.contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parameters_and_initial_states_on_the_command_line() {
    let base = ["run", "double-spherical-pendulum", "--method", "rkmk4"];
    let with = |extra: &[&str]| {
        let mut a: Vec<&str> = base.to_vec();
        a.extend_from_slice(extra);
        run(&a)
    };
    assert_usage_error(
        &with(&["--param", "length=2"]),
        "unknown parameter 'length'",
    );
    assert_usage_error(&with(&["--param", "l1=-2"]), "parameter 'l1'");
    assert_usage_error(&with(&["--param", "l1"]), "NAME=VALUE");
    assert_usage_error(&with(&["--initial-state", "0,0,1"]), "expected 12");
    assert_usage_error(
        &run(&[
            "run",
            "free-rigid-body",
            "--method",
            "rkmk4",
            "--initial-state",
            "0,0.6,0.9",
        ]),
        "off the unit sphere",
    );
    let json = |out: Output| -> serde_json::Value {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let a = json(with(&["--t-end", "0.01", "--json"]));
    let b = json(with(&[
        "--t-end", "0.01", "--json", "--param", "m1=2", "--param", "m2=2",
    ]));
    // Doubling both masses doubles the energy (kinetic and potential are linear in the masses).
    let (e_a, e_b) = (
        a["energy0"].as_f64().unwrap(),
        b["energy0"].as_f64().unwrap(),
    );
    assert!((e_b / e_a - 2.0).abs() < 1e-13, "{e_a} {e_b}");
    // `list --json` shows the parameters of each preset.
    let list = json(run(&["list", "--json"]));
    let dsp = list["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == "double-spherical-pendulum")
        .unwrap();
    let names: Vec<&str> = dsp["presets"][0]["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["m1", "m2", "l1", "l2", "g"]);
}
