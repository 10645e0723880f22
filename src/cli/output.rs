//! Files written by the experiments program: CSV tables and SVG plots (plotters' SVG backend,
//! which needs no system fonts).

use super::CliError;
use plotters::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

/// Write a CSV file with a header row.
pub fn write_csv(path: &Path, header: &[String], rows: &[Vec<f64>]) -> Result<(), CliError> {
    let mut s = String::with_capacity(rows.len() * header.len() * 12);
    s.push_str(&header.join(","));
    s.push('\n');
    for row in rows {
        for (i, x) in row.iter().enumerate() {
            if i > 0 {
                s.push(',');
            }
            let _ = write!(s, "{x:e}");
        }
        s.push('\n');
    }
    std::fs::write(path, s).map_err(|e| CliError::io(path, &e))
}

/// One line of a plot.
pub struct Series {
    /// Legend entry.
    pub name: String,
    /// The points.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A named series.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self {
            name: name.into(),
            points,
        }
    }
}

/// Axis scale.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Linear axis.
    Linear,
    /// Base-10 logarithmic axis (non-positive values are dropped).
    Log,
}

/// A line plot written as SVG.
pub struct Plot<'a> {
    /// Title.
    pub title: &'a str,
    /// x-axis label.
    pub x_label: &'a str,
    /// y-axis label.
    pub y_label: &'a str,
    /// x scale.
    pub x_scale: Scale,
    /// y scale.
    pub y_scale: Scale,
    /// Draw markers at the points (for short series such as convergence studies).
    pub markers: bool,
}

fn range(values: impl Iterator<Item = f64>, scale: Scale) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        if v.is_finite() && (scale == Scale::Linear || v > 0.0) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    if !lo.is_finite() {
        return if scale == Scale::Log {
            (1e-16, 1.0)
        } else {
            (0.0, 1.0)
        };
    }
    match scale {
        Scale::Linear => {
            let pad = if hi > lo {
                0.05 * (hi - lo)
            } else {
                lo.abs().max(1.0) * 0.05
            };
            (lo - pad, hi + pad)
        }
        Scale::Log => {
            if hi > lo {
                (lo / 1.5, hi * 1.5)
            } else {
                (lo / 10.0, hi * 10.0)
            }
        }
    }
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
];

impl Plot<'_> {
    /// Render `series` into an SVG file.
    pub fn write(&self, path: &Path, series: &[Series]) -> Result<(), CliError> {
        let map_err =
            |e: &dyn std::fmt::Display| CliError::Io(format!("plot {}: {e}", path.display()));
        let keep = |(x, y): &(f64, f64)| {
            x.is_finite()
                && y.is_finite()
                && (self.x_scale == Scale::Linear || *x > 0.0)
                && (self.y_scale == Scale::Linear || *y > 0.0)
        };
        let data: Vec<(&str, Vec<(f64, f64)>)> = series
            .iter()
            .map(|s| {
                (
                    s.name.as_str(),
                    s.points.iter().copied().filter(keep).collect(),
                )
            })
            .collect();
        let xs = data.iter().flat_map(|(_, p)| p.iter().map(|q| q.0));
        let ys = data.iter().flat_map(|(_, p)| p.iter().map(|q| q.1));
        let (x0, x1) = range(xs, self.x_scale);
        let (y0, y1) = range(ys, self.y_scale);
        let root = SVGBackend::new(path, (720, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| map_err(&e))?;
        let mut builder = ChartBuilder::on(&root);
        builder
            .caption(self.title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(72);
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart.map_err(|e| map_err(&e))?;
                chart
                    .configure_mesh()
                    .x_desc(self.x_label)
                    .y_desc(self.y_label)
                    .x_label_formatter(&|v| format!("{v:.3e}"))
                    .y_label_formatter(&|v| format!("{v:.2e}"))
                    .draw()
                    .map_err(|e| map_err(&e))?;
                for (i, (name, pts)) in data.iter().enumerate() {
                    let color = PALETTE[i % PALETTE.len()];
                    chart
                        .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                        .map_err(|e| map_err(&e))?
                        .label(*name)
                        .legend(move |(x, y)| {
                            PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                        });
                    if self.markers {
                        chart
                            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled())))
                            .map_err(|e| map_err(&e))?;
                    }
                }
                chart
                    .configure_series_labels()
                    .background_style(WHITE.mix(0.85))
                    .border_style(BLACK)
                    .draw()
                    .map_err(|e| map_err(&e))?;
            }};
        }
        match (self.x_scale, self.y_scale) {
            (Scale::Linear, Scale::Linear) => draw!(builder.build_cartesian_2d(x0..x1, y0..y1)),
            (Scale::Log, Scale::Log) => {
                draw!(builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale()))
            }
            (Scale::Linear, Scale::Log) => {
                draw!(builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale()))
            }
            (Scale::Log, Scale::Linear) => {
                draw!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1))
            }
        }
        root.present().map_err(|e| map_err(&e))?;
        Ok(())
    }
}
