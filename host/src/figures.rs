//! SVG figures with `plotters`: line charts (win percentage against epsilon, seed 003's
//! Figure 4; the learning curve) and bar charts (the learned weights, seed 003's
//! Figure 3).

use plotters::prelude::*;

/// One line of a line chart: its name, colour (RGB) and points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// RGB colour.
    pub color: (u8, u8, u8),
    /// Points (x, y) in order of x.
    pub points: Vec<(f64, f64)>,
    /// Dashed rather than solid.
    pub dashed: bool,
}

/// Axis ranges and labels of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Axes {
    /// Title above the plot.
    pub title: String,
    /// X axis label.
    pub x_label: String,
    /// Y axis label.
    pub y_label: String,
    /// X range.
    pub x: (f64, f64),
    /// Y range.
    pub y: (f64, f64),
    /// A logarithmic x axis (x values and range must be positive).
    pub log_x: bool,
}

fn rgb(c: (u8, u8, u8)) -> RGBColor {
    RGBColor(c.0, c.1, c.2)
}

/// A line chart with markers and a legend, as SVG text.
pub fn line_chart(axes: &Axes, series: &[Series]) -> Result<String, String> {
    // A log axis is drawn as log10(x) with 10^x labels.
    let tx = |x: f64| if axes.log_x { x.log10() } else { x };
    let x_range = (tx(axes.x.0), tx(axes.x.1));
    let series: Vec<Series> = series
        .iter()
        .map(|s| Series {
            points: s
                .points
                .iter()
                .filter(|p| !axes.log_x || p.0 > 0.0)
                .map(|&(x, y)| (tx(x), y))
                .collect(),
            ..s.clone()
        })
        .collect();
    let step = (x_range.1 - x_range.0).abs() / 10.0;
    let decimals = if step > 0.0 {
        (-step.log10()).ceil().clamp(1.0, 6.0) as usize
    } else {
        1
    };
    let label = |x: &f64| {
        if axes.log_x {
            let v = 10f64.powf(*x);
            if (v - v.round()).abs() < 1e-6 * v.max(1.0)
                && (v.log10() - v.log10().round()).abs() < 1e-9
            {
                format!("{}", v.round())
            } else {
                String::new()
            }
        } else {
            // As many decimals as the ticks' step needs (about ten ticks over the axis):
            // one decimal made 0.05 apart ticks read 0.0, 0.1, 0.1, 0.2, ...
            format!("{x:.decimals$}")
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 460)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&axes.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(56)
            .build_cartesian_2d(x_range.0..x_range.1, axes.y.0..axes.y.1)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&axes.x_label)
            .x_label_formatter(&label)
            .y_desc(&axes.y_label)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        for s in &series {
            let color = rgb(s.color);
            let dashed = s.dashed;
            let style = color.stroke_width(2);
            let drawn = if s.dashed {
                chart.draw_series(DashedLineSeries::new(s.points.iter().copied(), 6, 4, style))
            } else {
                chart.draw_series(LineSeries::new(s.points.iter().copied(), style))
            };
            drawn
                .map_err(|e| e.to_string())?
                .label(&s.name)
                .legend(move |(x, y)| {
                    // A dashed series shows two dashes in the legend, a solid one a line.
                    let gap = if dashed { 4 } else { 0 };
                    EmptyElement::at((x, y))
                        + PathElement::new(vec![(0, 0), (7, 0)], color.stroke_width(2))
                        + PathElement::new(vec![(7 + gap, 0), (18, 0)], color.stroke_width(2))
                });
            chart
                .draw_series(s.points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::LowerLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// One bar: its label, value and colour.
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Label under the bar.
    pub label: String,
    /// Height (may be negative).
    pub value: f64,
    /// RGB colour.
    pub color: (u8, u8, u8),
}

/// A bar chart in the given order, with a zero line, as SVG text; `legend` names the
/// colours.
pub fn bar_chart(
    title: &str,
    y_label: &str,
    bars: &[Bar],
    legend: &[(&str, (u8, u8, u8))],
) -> Result<String, String> {
    let lo = bars.iter().map(|b| b.value).fold(0.0f64, f64::min);
    let hi = bars.iter().map(|b| b.value).fold(0.0f64, f64::max);
    let pad = (hi - lo).max(1.0) * 0.08;
    let n = bars.len().max(1);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 480)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let labels: Vec<String> = bars.iter().map(|b| b.label.clone()).collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(110)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..n as f64, (lo - pad)..(hi + pad))
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(n * 2 + 1)
            .x_label_formatter(&|x| {
                let i = x.floor() as usize;
                let centre = (x - x.floor() - 0.5).abs() < 1e-6;
                if centre {
                    labels.get(i).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_label_style(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .y_desc(y_label)
            .draw()
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(bars.iter().enumerate().map(|(i, b)| {
                let x = i as f64;
                Rectangle::new(
                    [(x + 0.15, 0.0), (x + 0.85, b.value)],
                    rgb(b.color).filled(),
                )
            }))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (n as f64, 0.0)], BLACK))
            .map_err(|e| e.to_string())?;
        for &(name, color) in legend {
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(|e| e.to_string())?
                .label(name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 12, y + 5)], rgb(color).filled())
                });
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

/// A log-log scatter of `points` (x, y > 0) with the line y = x ("break-even"), as SVG
/// text: points below the line have the smaller y.
pub fn scatter_chart(
    axes: &Axes,
    points: &[(f64, f64)],
    color: (u8, u8, u8),
) -> Result<String, String> {
    let lg = |v: f64| v.max(1e-12).log10();
    let (x0, x1) = (lg(axes.x.0), lg(axes.x.1));
    let (y0, y1) = (lg(axes.y.0), lg(axes.y.1));
    let decade = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            let p = 10f64.powf(v.round());
            if p >= 1.0 {
                format!("{p:.0}")
            } else {
                format!("{p}")
            }
        } else {
            String::new()
        }
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (720, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(&axes.title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(|e| e.to_string())?;
        chart
            .configure_mesh()
            .x_desc(&axes.x_label)
            .y_desc(&axes.y_label)
            .x_labels(((x1 - x0).ceil() as usize * 4).max(2))
            .y_labels(((y1 - y0).ceil() as usize * 4).max(2))
            .x_label_formatter(&decade)
            .y_label_formatter(&decade)
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(|e| e.to_string())?;
        let lo = x0.max(y0);
        let hi = x1.min(y1);
        chart
            .draw_series(DashedLineSeries::new(
                [(lo, lo), (hi, hi)],
                6,
                4,
                BLACK.stroke_width(1),
            ))
            .map_err(|e| e.to_string())?
            .label("break-even (equal time)")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], BLACK.stroke_width(1)));
        let c = rgb(color);
        chart
            .draw_series(
                points
                    .iter()
                    .filter(|p| p.0 > 0.0 && p.1 > 0.0)
                    .map(|&(x, y)| Circle::new((lg(x), lg(y)), 2, c.mix(0.5).filled())),
            )
            .map_err(|e| e.to_string())?
            .label("one job")
            .legend(move |(x, y)| Circle::new((x + 9, y), 3, c.filled()));
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Axes of an epsilon chart over `x`.
    fn epsilon_axes(x: (f64, f64)) -> Axes {
        Axes {
            title: "t".into(),
            x_label: "epsilon".into(),
            y_label: "win %".into(),
            x,
            y: (0.0, 100.0),
            log_x: false,
        }
    }

    /// A series of `points`, `dashed` or not.
    fn series(name: &str, points: Vec<(f64, f64)>, dashed: bool) -> Series {
        Series {
            name: name.into(),
            color: (200, 0, 0),
            points,
            dashed,
        }
    }

    /// The x axis's tick labels have the decimals their step needs: over 0 to 0.5 the
    /// ticks 0.05 apart read 0.0, 0.1, 0.1, 0.2, ... with one decimal.
    #[test]
    fn tick_labels_are_distinct() {
        let s = series("s", vec![(0.1, 90.0), (0.25, 60.0), (0.5, 40.0)], false);
        let svg = line_chart(&epsilon_axes((0.0, 0.5)), &[s]).unwrap();
        let labels: Vec<&str> = svg
            .split("</text>")
            .filter_map(|t| t.rsplit('>').next())
            .map(str::trim)
            .filter(|t| t.starts_with("0."))
            .collect();
        assert!(
            labels.contains(&"0.05") && labels.contains(&"0.25"),
            "{labels:?}"
        );
        let mut distinct = labels.clone();
        distinct.dedup();
        assert_eq!(distinct, labels);
    }

    #[test]
    fn charts_are_svg_with_their_labels() {
        let s = series(
            "vs simple, as White",
            vec![(0.0, 90.0), (0.5, 60.0), (1.0, 40.0)],
            true,
        );
        let svg = line_chart(&epsilon_axes((0.0, 1.0)), &[s]).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..100]);
        assert!(svg.contains("vs simple, as White") && svg.contains("epsilon"));
        let bars = [Bar {
            label: "own.queen".into(),
            value: -120.0,
            color: (0, 0, 200),
        }];
        let svg = bar_chart("w", "weight", &bars, &[("own", (0, 0, 200))]).unwrap();
        assert!(svg.contains("own.queen"));
    }
}
