//! `ensemble SPEC.json --shard i/n --out DIR` and `merge DIR --out FILE`: ensembles for batch
//! schedulers. A shard writes `DIR/shard-i-of-n.jsonl` atomically (a temporary name in `DIR`,
//! then a rename), so a file under that name is complete; a complete shard of the same spec is
//! skipped when run again. `merge` joins the shards in member order, copying their lines
//! verbatim, after checking that they share one spec and hold every member exactly once.

use super::CliError;
use lie_integrators::ensemble::{EnsembleSpec, MemberStatus, line_key, run_member};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `i/n` of `--shard` (0 ≤ i < n).
pub fn parse_shard(arg: &str) -> Result<(usize, usize), CliError> {
    let bad = || {
        CliError::Usage(format!(
            "--shard expects i/n with 0 ≤ i < n (shards are numbered from 0), got '{arg}'"
        ))
    };
    let (i, n) = arg.split_once('/').ok_or_else(bad)?;
    let i: usize = i.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The file name of shard `i` of `n`.
#[must_use]
pub fn shard_file_name(i: usize, n: usize) -> String {
    format!("shard-{i}-of-{n}.jsonl")
}

/// Write `text` to `path` atomically: a new temporary file in the same folder (never an
/// existing one), then a rename over `path`.
fn write_atomically(path: &Path, text: &str) -> Result<(), CliError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    let dir = dir.unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for attempt in 0..100u32 {
        let tmp = dir.join(format!(".{name}.tmp-{}-{attempt}", std::process::id()));
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(mut f) => {
                let written = f
                    .write_all(text.as_bytes())
                    .and_then(|()| f.sync_all())
                    .and_then(|()| std::fs::rename(&tmp, path));
                if let Err(e) = written {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(CliError::io(path, &e));
                }
                return Ok(());
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(CliError::io(&tmp, &e)),
        }
    }
    Err(CliError::Io(format!(
        "{}: cannot find a free temporary name",
        dir.display()
    )))
}

/// Whether `path` holds exactly the members `expected` of the spec with hash `hash`.
fn is_complete_shard(path: &Path, hash: &str, expected: &[usize]) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let mut got = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match line_key(line) {
            Ok(k) if k.spec == hash => got.push(k.member),
            _ => return false,
        }
    }
    got == expected
}

/// `ensemble SPEC --shard i/n --out DIR [--force]`.
pub fn ensemble(spec_path: &Path, shard: &str, out: &Path, force: bool) -> Result<(), CliError> {
    let text = std::fs::read_to_string(spec_path).map_err(|e| CliError::io(spec_path, &e))?;
    let spec = EnsembleSpec::from_json(&text)
        .map_err(|e| CliError::Usage(format!("{}: {e}", spec_path.display())))?;
    let (i, n) = parse_shard(shard)?;
    let members = spec
        .shard_members(i, n)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let hash = spec.hash();
    std::fs::create_dir_all(out).map_err(|e| CliError::io(out, &e))?;
    let path = out.join(shard_file_name(i, n));
    if path.exists() {
        if is_complete_shard(&path, &hash, &members) {
            eprintln!(
                "shard {i}/{n}: {} is complete for this spec; skipped",
                path.display()
            );
            return Ok(());
        }
        if !force {
            return Err(CliError::Io(format!(
                "{} exists and is not a complete shard of this spec; pass --force to overwrite",
                path.display()
            )));
        }
    }
    let mut lines = String::new();
    let (mut completed, mut failed, mut errors) = (0usize, 0usize, 0usize);
    for &m in &members {
        let r = run_member(&spec, m);
        match r.status {
            MemberStatus::Completed => completed += 1,
            MemberStatus::Failed => failed += 1,
            MemberStatus::Error => errors += 1,
        }
        lines.push_str(&r.to_json_line(&hash, spec.members.len()));
        lines.push('\n');
    }
    write_atomically(&path, &lines)?;
    eprintln!(
        "shard {i}/{n}: {} members ({completed} completed, {failed} failed, {errors} errors) written to {}",
        members.len(),
        path.display()
    );
    Ok(())
}

/// The shard files of `dir` (`shard-<i>-of-<n>.jsonl`), sorted by name.
fn shard_files(dir: &Path) -> Result<Vec<PathBuf>, CliError> {
    let entries = std::fs::read_dir(dir).map_err(|e| CliError::io(dir, &e))?;
    let mut files = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| CliError::io(dir, &e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(core) = name
            .strip_prefix("shard-")
            .and_then(|s| s.strip_suffix(".jsonl"))
        else {
            continue;
        };
        let is_shard = core
            .split_once("-of-")
            .is_some_and(|(i, n)| i.parse::<usize>().is_ok() && n.parse::<usize>().is_ok());
        if is_shard {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

/// `merge DIR --out FILE [--force]`.
pub fn merge(dir: &Path, out: &Path, force: bool) -> Result<(), CliError> {
    let files = shard_files(dir)?;
    if files.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no shard files (shard-<i>-of-<n>.jsonl)",
            dir.display()
        )));
    }
    if out.exists() && !force {
        return Err(CliError::Io(format!(
            "{} exists; pass --force to overwrite",
            out.display()
        )));
    }
    let mut spec: Option<(String, usize, PathBuf)> = None;
    let mut lines: BTreeMap<usize, (String, PathBuf)> = BTreeMap::new();
    for f in &files {
        let text = std::fs::read_to_string(f).map_err(|e| CliError::io(f, &e))?;
        for (no, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let key = line_key(line)
                .map_err(|e| CliError::Usage(format!("{} line {}: {e}", f.display(), no + 1)))?;
            match &spec {
                None => spec = Some((key.spec.clone(), key.members, f.clone())),
                Some((h, m, first)) if *h != key.spec || *m != key.members => {
                    return Err(CliError::Usage(format!(
                        "shards of different specs: {} (spec {h}) and {} (spec {})",
                        first.display(),
                        f.display(),
                        key.spec
                    )));
                }
                Some(_) => {}
            }
            if let Some((_, other)) = lines.get(&key.member) {
                return Err(CliError::Usage(format!(
                    "member {} appears twice ({} and {})",
                    key.member,
                    other.display(),
                    f.display()
                )));
            }
            lines.insert(key.member, (line.to_string(), f.clone()));
        }
    }
    let Some((_, total, _)) = spec else {
        return Err(CliError::Usage(format!(
            "{}: the shard files are empty",
            dir.display()
        )));
    };
    let missing: Vec<usize> = (0..total).filter(|i| !lines.contains_key(i)).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(5).map(ToString::to_string).collect();
        let more = if missing.len() > 5 { ", …" } else { "" };
        return Err(CliError::Usage(format!(
            "{} of {total} members missing (first: {}{more}); run their shards first",
            missing.len(),
            shown.join(", ")
        )));
    }
    if let Some((&beyond, (_, f))) = lines.range(total..).next() {
        return Err(CliError::Usage(format!(
            "member {beyond} in {} is beyond the spec's {total} members",
            f.display()
        )));
    }
    let mut text = String::new();
    for (line, _) in lines.values() {
        text.push_str(line);
        text.push('\n');
    }
    write_atomically(out, &text)?;
    eprintln!(
        "merged {total} members from {} shard files into {}",
        files.len(),
        out.display()
    );
    Ok(())
}
