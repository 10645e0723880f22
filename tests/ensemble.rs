//! Ensembles: the library (`lie_integrators::ensemble`) and the program's `ensemble` and
//! `merge` subcommands. A member's result depends on the spec and its index only, so any
//! sharding merges to the same bytes; a bad member is its own error; bad specs are one line on
//! stderr and exit code 2; nothing the user owns is overwritten.
#![cfg(feature = "cli")]

use lie_integrators::ensemble::{EnsembleSpec, MemberStatus, json_number, run_member};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_lie-integrators"))
}

fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "lie-integrators-ensemble-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Seven members: the preset, parameter changes, a NaN start, a smaller step, adaptive steps,
/// an unknown parameter.
const SPEC: &str = r#"{
  "model": "double-spherical-pendulum", "method": "rkmk4", "t_end": 0.3, "h": 0.01,
  "members": [
    {},
    {"params": {"l1": 4.905}},
    {"initial_state": ["NaN", 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0]},
    {"h": 0.005},
    {"params": {"m2": 2}},
    {"params": {"nope": 1}},
    {"params": {"g": 1}}
  ]
}"#;

fn write_spec(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("spec.json");
    std::fs::write(&p, text).unwrap();
    p
}

fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn usage_error(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(needle), "'{needle}' not in {err}");
}

#[test]
fn one_shard_and_three_shards_merge_to_the_same_bytes() {
    let dir = temp_dir("shards");
    let spec = write_spec(&dir, SPEC);
    let spec = spec.to_str().unwrap();
    let (one, three) = (dir.join("one"), dir.join("three"));
    ok(&run(&["ensemble", spec, "--out", one.to_str().unwrap()]));
    for i in 0..3 {
        ok(&run(&[
            "ensemble",
            spec,
            "--shard",
            &format!("{i}/3"),
            "--out",
            three.to_str().unwrap(),
        ]));
    }
    // Strided shards: 0/3 holds members 0, 3, 6.
    let s0 = std::fs::read_to_string(three.join("shard-0-of-3.jsonl")).unwrap();
    let members: Vec<u64> = s0
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["member"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(members, [0, 3, 6]);
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    ok(&run(&[
        "merge",
        one.to_str().unwrap(),
        "--out",
        a.to_str().unwrap(),
    ]));
    ok(&run(&[
        "merge",
        three.to_str().unwrap(),
        "--out",
        b.to_str().unwrap(),
    ]));
    let (a_text, b_text) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(a_text, b_text);
    assert_eq!(String::from_utf8(a_text).unwrap().lines().count(), 7);
    // The merged file is not overwritten without --force.
    usage_error(
        &run(&[
            "merge",
            three.to_str().unwrap(),
            "--out",
            b.to_str().unwrap(),
        ]),
        "pass --force",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_finished_shard_is_skipped_and_a_foreign_file_is_kept() {
    let dir = temp_dir("resume");
    let spec = write_spec(&dir, SPEC);
    let spec = spec.to_str().unwrap();
    let out = dir.join("out");
    let args = [
        "ensemble",
        spec,
        "--shard",
        "1/2",
        "--out",
        out.to_str().unwrap(),
    ];
    ok(&run(&args));
    let file = out.join("shard-1-of-2.jsonl");
    let before = std::fs::metadata(&file).unwrap().modified().unwrap();
    let first = std::fs::read(&file).unwrap();
    let err = ok(&run(&args));
    assert!(err.contains("skipped"), "{err}");
    assert_eq!(std::fs::read(&file).unwrap(), first);
    assert_eq!(
        std::fs::metadata(&file).unwrap().modified().unwrap(),
        before
    );
    // No temporary file is left behind.
    let names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["shard-1-of-2.jsonl"]);
    // A file of the user under a shard's name is not overwritten without --force.
    let user = out.join("shard-0-of-2.jsonl");
    std::fs::write(&user, "my notes\n").unwrap();
    let e = run(&[
        "ensemble",
        spec,
        "--shard",
        "0/2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(e.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&user).unwrap(), "my notes\n");
    // A merge with shard 0 missing names what is missing.
    std::fs::remove_file(&user).unwrap();
    usage_error(
        &run(&[
            "merge",
            out.to_str().unwrap(),
            "--out",
            dir.join("m.jsonl").to_str().unwrap(),
        ]),
        "4 of 7 members missing",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_nan_member_is_reported_and_the_others_are_intact() {
    let spec = EnsembleSpec::from_json(SPEC).unwrap();
    let nan = run_member(&spec, 2);
    assert_eq!(nan.status, MemberStatus::Error);
    let msg = nan.message.clone().unwrap();
    assert!(msg.contains("q1_1") && msg.contains("not finite"), "{msg}");
    let unknown = run_member(&spec, 5);
    assert_eq!(unknown.status, MemberStatus::Error);
    assert!(unknown.message.unwrap().contains("nope"));
    // The ensemble's first member is the preset's run, bit for bit, whatever else the spec
    // holds; and a spec of that member alone gives the same line.
    let alone = EnsembleSpec::from_json(
        r#"{"model": "double-spherical-pendulum", "method": "rkmk4", "t_end": 0.3, "h": 0.01,
            "members": [{}]}"#,
    )
    .unwrap();
    let (a, b) = (run_member(&spec, 0), run_member(&alone, 0));
    assert_eq!(a.status, MemberStatus::Completed);
    assert_eq!(a.final_state, b.final_state);
    assert_eq!(a.steps, 30);
    // Physics of the members: doubling m2 alone changes the energy; g = 1 instead of 9.81
    // scales the (purely potential at rest, plus kinetic) energy differently; a halved step
    // takes twice the steps.
    assert_eq!(run_member(&spec, 3).steps, 60);
    assert_ne!(run_member(&spec, 4).energy0, a.energy0);
    assert!(run_member(&spec, 6).energy0.abs() < a.energy0.abs());
    // Every line reads back to the same numbers (shortest round-trip form).
    let line = a.to_json_line(&spec.hash(), spec.members.len());
    let v: serde_json::Value = serde_json::from_str(&line).unwrap();
    let state: Vec<f64> = v["final_state"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    assert_eq!(state, a.final_state);
    assert_eq!(
        v["energy0"].as_f64().unwrap().to_bits(),
        a.energy0.to_bits()
    );
}

#[test]
fn numbers_are_written_in_shortest_round_trip_form() {
    for x in [
        0.1,
        -0.0,
        1e-300,
        1.0 / 3.0,
        9.81,
        2.0_f64.powi(60),
        f64::MIN_POSITIVE,
    ] {
        let s = json_number(x);
        assert_eq!(s.parse::<f64>().unwrap().to_bits(), x.to_bits(), "{s}");
    }
    assert_eq!(json_number(0.1), "0.1");
    assert_eq!(json_number(f64::NAN), "\"NaN\"");
    assert_eq!(json_number(f64::NEG_INFINITY), "\"-inf\"");
}

#[test]
fn the_spec_hash_ignores_layout_and_sees_content() {
    let a = EnsembleSpec::from_json(SPEC).unwrap();
    let compact: String = SPEC.split_whitespace().collect::<Vec<_>>().join(" ");
    let b = EnsembleSpec::from_json(&compact).unwrap();
    assert_eq!(a.hash(), b.hash());
    let c = EnsembleSpec::from_json(&SPEC.replace("0.005", "0.0025")).unwrap();
    assert_ne!(a.hash(), c.hash());
}

#[test]
fn shards_of_different_specs_do_not_merge() {
    let dir = temp_dir("mixed");
    let out = dir.join("out");
    let s1 = write_spec(&dir, SPEC);
    ok(&run(&[
        "ensemble",
        s1.to_str().unwrap(),
        "--shard",
        "0/2",
        "--out",
        out.to_str().unwrap(),
    ]));
    let s2 = write_spec(&dir, &SPEC.replace("\"t_end\": 0.3", "\"t_end\": 0.2"));
    ok(&run(&[
        "ensemble",
        s2.to_str().unwrap(),
        "--shard",
        "1/2",
        "--out",
        out.to_str().unwrap(),
    ]));
    usage_error(
        &run(&[
            "merge",
            out.to_str().unwrap(),
            "--out",
            dir.join("m.jsonl").to_str().unwrap(),
        ]),
        "shards of different specs",
    );
    assert!(!dir.join("m.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_specs_exit_2_with_one_line() {
    let dir = temp_dir("bad");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    let cases: &[(&str, &str)] = &[
        ("{not json", "not valid JSON"),
        (
            r#"{"method": "rkmk4", "members": [{}]}"#,
            "'model' is missing",
        ),
        (
            r#"{"model": "nope", "method": "rkmk4", "members": [{}]}"#,
            "unknown model",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rk99", "members": [{}]}"#,
            "unknown method",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rkmk4", "members": []}"#,
            "'members' must hold",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rkmk4", "h": -1, "members": [{}]}"#,
            "h must be positive",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rkmk4", "step": 1, "members": [{}]}"#,
            "unknown key 'step'",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rkmk4", "members": [{"h": 1, "rtol": 1}]}"#,
            "rtol",
        ),
        (
            r#"{"model": "free-rigid-body", "method": "rkmk4", "params": {"I4": 1}, "members": [{}]}"#,
            "unknown parameter 'I4'",
        ),
    ];
    for (text, needle) in cases {
        let spec = write_spec(&dir, text);
        usage_error(
            &run(&["ensemble", spec.to_str().unwrap(), "--out", out]),
            needle,
        );
    }
    let spec = write_spec(&dir, SPEC);
    usage_error(
        &run(&[
            "ensemble",
            spec.to_str().unwrap(),
            "--shard",
            "2/2",
            "--out",
            out,
        ]),
        "--shard expects i/n",
    );
    usage_error(
        &run(&[
            "ensemble",
            dir.join("missing.json").to_str().unwrap(),
            "--out",
            out,
        ]),
        "missing.json",
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    usage_error(
        &run(&[
            "merge",
            empty.to_str().unwrap(),
            "--out",
            dir.join("m.jsonl").to_str().unwrap(),
        ]),
        "no shard files",
    );
    let _ = std::fs::remove_dir_all(&dir);
}
