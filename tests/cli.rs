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
