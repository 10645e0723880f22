//! The repository must stand alone: no text file may point at guidance documents that live
//! outside it. This test walks the repository's text files (the top-level `README.md` and
//! `CHANGELOG.md`, every `Cargo.toml`, and everything under `crates/`, `src/`, `tests/`,
//! `benches/`, `docs/` and `examples/`, skipping `target` directories and non-text files) and
//! fails, naming `file:line`, on any occurrence of a forbidden pointer (the names of the outside
//! guidance documents, a relative path into their directory, or a path into its paper extracts).
//!
//! The needles are assembled from pieces so that this file does not contain them itself.

use std::fs;
use std::path::{Path, PathBuf};

/// The forbidden substrings, built by concatenation so that this file does not trip the test.
fn needles() -> Vec<String> {
    let md = ".md";
    vec![
        ["REFER", "ENCES", md].concat(),
        ["ALGOR", "ITHMS", md].concat(),
        // The same document cited without its extension.
        ["ALGOR", "ITHMS §"].concat(),
        ["DES", "IGN", md].concat(),
        ["STY", "LE", md].concat(),
        ["..", "/sha", "red"].concat(),
        ["pap", "ers/", "0"].concat(),
    ]
}

/// Directories below the root whose whole contents are checked.
const TREES: [&str; 6] = ["crates", "src", "tests", "benches", "docs", "examples"];

/// Single files at the root that are checked.
const ROOT_FILES: [&str; 3] = ["README.md", "CHANGELOG.md", "Cargo.toml"];

/// Extensions of files that are read as text (anything else is skipped).
const TEXT_EXTENSIONS: [&str; 8] = ["rs", "md", "toml", "txt", "sh", "yml", "yaml", "json"];

fn is_text_file(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| TEXT_EXTENSIONS.contains(&e))
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() {
            let name = entry.file_name();
            if name == "target" || name.to_string_lossy().starts_with('.') {
                continue;
            }
            collect(&path, out);
        } else if kind.is_file() && is_text_file(&path) {
            out.push(path);
        }
    }
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for name in ROOT_FILES {
        let path = root.join(name);
        if path.is_file() {
            out.push(path);
        }
    }
    for tree in TREES {
        collect(&root.join(tree), &mut out);
    }
    out.sort();
    out
}

/// Every `file:line: needle` occurrence under `root`.
fn offences(root: &Path) -> Vec<String> {
    let needles = needles();
    let mut found = Vec::new();
    for path in files(root) {
        // Non-UTF-8 files are not text for this purpose.
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        let shown = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (i, line) in text.lines().enumerate() {
            for needle in &needles {
                if line.contains(needle.as_str()) {
                    found.push(format!("{shown}:{}: `{needle}`: {}", i + 1, line.trim()));
                }
            }
        }
    }
    found
}

#[test]
fn no_pointers_to_documents_outside_the_repository() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let checked = files(root);
    assert!(
        checked.len() > 20 && checked.iter().any(|p| p.ends_with("docs/references.md")),
        "the walk found too few files ({}): is CARGO_MANIFEST_DIR the repository root?",
        checked.len()
    );
    let found = offences(root);
    assert!(
        found.is_empty(),
        "{} pointer(s) to documents outside the repository; write the content into docs/ and \
         point there instead:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_needles_are_found() {
    // A scratch tree with one offending line proves the scan reports file and line.
    let dir = std::env::temp_dir().join(format!("self_contained_docs_{}", std::process::id()));
    let docs = dir.join("docs");
    fs::create_dir_all(&docs).unwrap();
    fs::write(docs.join("references.md"), "fine\n").unwrap();
    let needle = &needles()[0];
    fs::write(docs.join("x.md"), format!("line one\nsee {needle} there\n")).unwrap();
    let found = offences(&dir);
    fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("docs/x.md:2:"), "{found:?}");
}
