//! The self-contained HTML report: every table and every SVG plot inline.

use super::CliError;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A table: header and rows of cells.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// Column headers.
    pub header: Vec<String>,
    /// Rows.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with the given header.
    pub fn new(header: &[&str]) -> Self {
        Self {
            header: header.iter().map(|s| (*s).to_string()).collect(),
            rows: Vec::new(),
        }
    }
    /// Append a row.
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }
    /// Plain-text rendering with aligned columns.
    pub fn to_text(&self) -> String {
        let n = self.header.len();
        let mut w = vec![0usize; n];
        for r in std::iter::once(&self.header).chain(&self.rows) {
            for (i, c) in r.iter().enumerate().take(n) {
                w[i] = w[i].max(c.chars().count());
            }
        }
        let mut s = String::new();
        for r in std::iter::once(&self.header).chain(&self.rows) {
            for (i, c) in r.iter().enumerate().take(n) {
                let pad = w[i] - c.chars().count();
                if i == 0 {
                    let _ = write!(s, "{c}{}", " ".repeat(pad));
                } else {
                    let _ = write!(s, "  {}{c}", " ".repeat(pad));
                }
            }
            s.push('\n');
        }
        s
    }
    fn to_html(&self) -> String {
        let mut s = String::from("<table>\n<tr>");
        for h in &self.header {
            let _ = write!(s, "<th>{}</th>", escape(h));
        }
        s.push_str("</tr>\n");
        for r in &self.rows {
            s.push_str("<tr>");
            for c in r {
                let _ = write!(s, "<td>{}</td>", escape(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        s
    }
}

/// One section of the report (one experiment).
#[derive(Clone, Debug, Default)]
pub struct Section {
    /// Identifier (also the sub-folder of the output).
    pub id: String,
    /// Title.
    pub title: String,
    /// Paragraphs of explanation.
    pub text: Vec<String>,
    /// Tables.
    pub tables: Vec<Table>,
    /// SVG files (paths) to inline.
    pub figures: Vec<PathBuf>,
    /// The one-line result for the summary table.
    pub summary: String,
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Write `report.html` into `dir`.
pub fn write_report(
    dir: &Path,
    title: &str,
    sections: &[Section],
    summary: &Table,
) -> Result<PathBuf, CliError> {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\n<style>\
         body{{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}}\
         table{{border-collapse:collapse;margin:1em 0;font-size:0.9em}}\
         td,th{{border:1px solid #bbb;padding:3px 8px;text-align:right}}th{{background:#eee}}\
         figure{{display:inline-block;margin:0.5em}}svg{{max-width:100%;height:auto}}\
         h2{{border-bottom:1px solid #ccc;margin-top:2em}}</style></head><body>\n<h1>{t}</h1>\n",
        t = escape(title)
    );
    s.push_str("<h2>Summary</h2>\n");
    s.push_str(&summary.to_html());
    for sec in sections {
        let _ = writeln!(
            s,
            "<h2 id=\"{}\">{}</h2>",
            escape(&sec.id),
            escape(&sec.title)
        );
        for p in &sec.text {
            let _ = writeln!(s, "<p>{}</p>", escape(p));
        }
        for t in &sec.tables {
            s.push_str(&t.to_html());
        }
        for f in &sec.figures {
            let svg = std::fs::read_to_string(f).map_err(|e| CliError::io(f, &e))?;
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let _ = writeln!(
                s,
                "<figure>{svg}<figcaption>{}</figcaption></figure>",
                escape(&name)
            );
        }
    }
    s.push_str("</body></html>\n");
    let path = dir.join("report.html");
    std::fs::write(&path, s).map_err(|e| CliError::io(&path, &e))?;
    Ok(path)
}
