//! `docs/methods.md` is generated from the method constants and must stay in sync with them:
//! this test regenerates it and compares. Run `UPDATE_DOCS=1 cargo test --test docs` to
//! rewrite the file after changing the catalogue.

use schemes::methods::{METHODS, MethodKind};
use std::fmt::Write as _;

fn fmt_coef(x: f64) -> String {
    // Show simple rationals exactly, other values to 16 significant digits.
    for den in 1..=720u32 {
        let num = x * f64::from(den);
        if (num - num.round()).abs() < 1e-12 && num.round().abs() < 1e6 {
            let n = num.round() as i64;
            return if den == 1 {
                format!("{n}")
            } else {
                format!("{n}/{den}")
            };
        }
    }
    format!("{x:.16}")
}

fn generate() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Method catalogue\n\n<!-- Generated from schemes::methods::METHODS by tests/docs.rs; do not edit by hand. -->\n\n\
         Every method runs on every group and action. Identifiers are used by the experiments program\n\
         (`--method`) and by `schemes::methods::find`. Orders are checked by the order-condition\n\
         checker (classical conditions to order 8) and measured on state-dependent problems with exact\n\
         solutions by the convergence tests.\n"
    );
    let _ = writeln!(s, "| id | order | embedded | reference | description |");
    let _ = writeln!(s, "|---|---|---|---|---|");
    for m in METHODS {
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} |",
            m.id,
            m.order,
            m.embedded_order.map_or("—".to_string(), |e| e.to_string()),
            m.reference,
            m.description
        );
    }
    let _ = writeln!(s, "\n## Coefficients\n");
    for m in METHODS {
        let _ = writeln!(s, "### `{}`\n", m.id);
        match m.kind {
            MethodKind::Rkmk(t) | MethodKind::RkmkSeries(t) | MethodKind::ImplicitRkmk(t) => {
                let n = t.c.len();
                let _ = writeln!(
                    s,
                    "Butcher tableau {} ({} stages, {}):\n",
                    t.name,
                    n,
                    if t.is_explicit() {
                        "explicit"
                    } else {
                        "implicit"
                    }
                );
                let _ = writeln!(s, "```text");
                for i in 0..n {
                    let row: Vec<String> = (0..n).map(|j| fmt_coef(t.a(i, j))).collect();
                    let _ = writeln!(s, "{:>20} | {}", fmt_coef(t.c[i]), row.join("  "));
                }
                let _ = writeln!(s, "{:>20}-+-", "");
                let b: Vec<String> = t.b.iter().map(|x| fmt_coef(*x)).collect();
                let _ = writeln!(s, "{:>20} | {}", "b", b.join("  "));
                if let Some(bh) = t.b_hat() {
                    let bh: Vec<String> = bh.iter().map(|x| fmt_coef(*x)).collect();
                    let _ = writeln!(s, "{:>20} | {}", "b̂", bh.join("  "));
                }
                let _ = writeln!(s, "```\n");
            }
            MethodKind::CommutatorFree(c) => {
                let _ = writeln!(s, "```text\n{c}\n```\n");
            }
            MethodKind::Rkmk4TwoCommutators => {
                let _ = writeln!(
                    s,
                    "```text\nk₁ = h f(t, y₀)\nk₂ = h f(t + h/2, exp(½k₁)·y₀)\nk₃ = h f(t + h/2, exp(½k₂ − ⅛[k₁, k₂])·y₀)\nk₄ = h f(t + h, exp(k₃)·y₀)\ny₁ = exp(⅙(k₁ + 2k₂ + 2k₃ + k₄ − ½[k₁, k₄]))·y₀\n```\n"
                );
            }
        }
    }
    s
}

#[test]
fn method_catalogue_matches_the_constants() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/methods.md");
    let expected = generate();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(path, &expected).unwrap();
    }
    let actual = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        actual == expected,
        "docs/methods.md is out of date; regenerate with `UPDATE_DOCS=1 cargo test --test docs`"
    );
}
