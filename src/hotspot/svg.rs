//! [`Heatmap`]: a report drawn as Key Visualizer draws a table, written as SVG text.

use std::fmt::{self, Write};

use super::Report;
use super::label::{LABEL_CHARS, key_label};
use crate::schema::Schema;

/// The colour scale, dark to bright (after matplotlib's "inferno"): cold cells recede and the
/// hot band stands out, and it stays readable in greyscale and for colour-blind readers.
const STOPS: [(f64, [u8; 3]); 5] =
    [(0.0, [0, 0, 4]), (0.25, [87, 16, 110]), (0.5, [188, 55, 84]), (0.75, [249, 142, 9]), (1.0, [252, 255, 164])];

/// Cells are drawn in this many colours, one `<path>` each, which keeps the file small.
const LEVELS: usize = 32;

const LEFT: u32 = 250;
const RIGHT: u32 = 110;
const TOP: u32 = 64;
const BOTTOM: u32 = 56;

/// A Key-Visualizer-style heatmap of a [`Report`] as SVG: time across, key space down, each
/// cell coloured by how many writes it took, on a linear scale from dark (none) to bright (the
/// busiest cell), with a legend. Each window is a column.
///
/// The key space is drawn as bands of equal numbers of writes (the quantiles of every key
/// written, [64 by default](super::ReportOptions::bands)), so the drawing does not depend on how
/// the keys look and a band's height is its share of the data. Tablets change as they split,
/// so no single tablet layout fits every window; the final tablet boundaries are drawn as faint
/// lines over the bands, a few of them labelled with their keys. A hot key range is a bright
/// band; a key that grows with time is a bright diagonal running down the key space.
///
/// ```
/// use rowkey::RowKey;
/// use rowkey::hotspot::{Heatmap, Simulator, Windows};
///
/// let mut sim = Simulator::dynamic(500)?;
/// for second in 0..600u64 {
///     for device in 0..5u8 {
///         sim.record_at((second, device).to_key()?, second);
///     }
/// }
/// let report = sim.report(Windows::Length(60));
/// let svg = Heatmap::new(&report)
///     .size(800, 400)
///     .title("Timestamp-first keys")
///     .time_label("time (min)")
///     .time_format(|s| (s / 60).to_string())
///     .to_svg();
/// assert!(svg.contains("Timestamp-first keys"));
/// # Ok::<(), rowkey::Error>(())
/// ```
pub struct Heatmap<'a> {
    report: &'a Report,
    width: u32,
    height: u32,
    title: String,
    time_label: String,
    time_format: Box<dyn Fn(u64) -> String + 'a>,
    schema: Option<&'a Schema>,
}

impl fmt::Debug for Heatmap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Heatmap")
            .field("width", &self.width)
            .field("height", &self.height)
            .field("title", &self.title)
            .field("time_label", &self.time_label)
            .finish_non_exhaustive()
    }
}

impl<'a> Heatmap<'a> {
    /// A 960 × 540 heatmap titled "Writes by key range over time", with times printed as
    /// they were recorded.
    #[must_use]
    pub fn new(report: &'a Report) -> Self {
        Heatmap {
            report,
            width: 960,
            height: 540,
            title: "Writes by key range over time".to_owned(),
            time_label: "time".to_owned(),
            time_format: Box::new(|t| t.to_string()),
            schema: None,
        }
    }

    /// The image size in pixels (at least 480 × 240).
    #[must_use]
    pub fn size(mut self, width: u32, height: u32) -> Self {
        self.width = width.max(480);
        self.height = height.max(240);
        self
    }

    /// The title at the top.
    #[must_use]
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = title.into();
        self
    }

    /// The label under the time axis, such as `"time (s)"`.
    #[must_use]
    pub fn time_label(mut self, label: impl Into<String>) -> Self {
        self.time_label = label.into();
        self
    }

    /// How a time on the axis is printed, in the unit the writes were recorded with.
    #[must_use]
    pub fn time_format(mut self, format: impl Fn(u64) -> String + 'a) -> Self {
        self.time_format = Box::new(format);
        self
    }

    /// Labels the key axis by the keys' fields (`bucket=1 device_type=phone ...`, as
    /// [`Schema::inspect`] prints them) rather than their escaped bytes. A split point from
    /// [`split_planner`](Schema::split_planner) shows as `bucket=N` at a bucket boundary and as
    /// `bucket=N device_id≥4…` inside a bucket (its leading digits of the field it splits
    /// along; hex pairs for bytes); any other boundary that is not a whole key of the schema
    /// keeps its bytes.
    ///
    /// ```
    /// use rowkey::RowKey;
    /// use rowkey::hotspot::{Heatmap, Simulator, Windows};
    ///
    /// #[derive(RowKey)]
    /// #[rowkey(delimited = "#")]
    /// struct Reading {
    ///     device_type: String,
    ///     ts: u32,
    /// }
    ///
    /// let mut sim = Simulator::dynamic(10)?;
    /// for ts in 0..100u32 {
    ///     sim.record(Reading { device_type: ["phone", "watch"][ts as usize % 2].into(), ts }.to_key()?);
    /// }
    /// let svg = Heatmap::new(&sim.report(Windows::Count(4))).schema(&Reading::SCHEMA).to_svg();
    /// assert!(svg.contains(">device_type=phone ts="), "{svg}");
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn schema(mut self, schema: &'a Schema) -> Self {
        self.schema = Some(schema);
        self
    }

    /// The SVG document.
    #[must_use]
    pub fn to_svg(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Heatmap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.width, self.height);
        let (plot_w, plot_h) = (w - LEFT - RIGHT, h - TOP - BOTTOM);
        let (right, bottom) = (LEFT + plot_w, TOP + plot_h);
        writeln!(f, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
        writeln!(
            f,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif" font-size="12">"#
        )?;
        writeln!(f, "<title>{}</title>", Escaped(&self.title))?;
        writeln!(f, r#"<defs><linearGradient id="heat-scale" x1="0" y1="1" x2="0" y2="0">"#)?;
        for (at, rgb) in STOPS {
            writeln!(f, r#"<stop offset="{at}" stop-color="{}"/>"#, Hex(rgb))?;
        }
        writeln!(f, "</linearGradient></defs>")?;
        writeln!(f, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##)?;
        writeln!(f, r#"<text x="{LEFT}" y="26" font-size="16" font-weight="bold">{}</text>"#, Escaped(&self.title))?;
        writeln!(f, r##"<text x="{LEFT}" y="46" fill="#444444">{}</text>"##, Escaped(&self.summary()))?;

        let heat = &self.report.heat;
        let max = heat.cells.iter().flatten().copied().max().unwrap_or(0);
        writeln!(f, r#"<g shape-rendering="crispEdges">"#)?;
        writeln!(f, r#"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="{}"/>"#, Hex(colour(0.0)))?;
        let columns = heat.cells.len().max(1);
        let x_at = |i: usize| LEFT + scale(plot_w, i as f64 / columns as f64);
        let y_at = |rank: f64| TOP + scale(plot_h, rank);
        let mut paths = vec![String::new(); LEVELS];
        for (i, column) in heat.cells.iter().enumerate() {
            let (x0, x1) = (x_at(i), x_at(i + 1));
            for (band, &writes) in column.iter().enumerate() {
                let (y0, y1) = (y_at(heat.edges[band]), y_at(heat.edges[band + 1]));
                if writes == 0 || y1 == y0 {
                    continue;
                }
                // Any write shows: the dimmest level is reserved for empty cells.
                let level = ((writes as f64 / max as f64 * (LEVELS - 1) as f64).round() as usize).clamp(1, LEVELS - 1);
                write!(paths[level], "M{x0} {y0}h{}v{}h-{}z", x1 - x0, y1 - y0, x1 - x0)?;
            }
        }
        for (level, d) in paths.iter().enumerate().filter(|(_, d)| !d.is_empty()) {
            writeln!(f, r#"<path fill="{}" d="{d}"/>"#, Hex(colour(level as f64 / (LEVELS - 1) as f64)))?;
        }
        writeln!(f, "</g>")?;

        writeln!(f, r##"<g stroke="#ffffff" stroke-opacity="0.3">"##)?;
        for (rank, _) in &heat.boundaries {
            let y = y_at(*rank);
            writeln!(f, r#"<line x1="{LEFT}" y1="{y}" x2="{right}" y2="{y}"/>"#)?;
        }
        writeln!(f, "</g>")?;
        writeln!(
            f,
            r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#333333"/>"##
        )?;

        // A few final tablet boundaries, spread over the axis and never overlapping.
        writeln!(f, r#"<g font-family="Menlo, Consolas, monospace" font-size="11" text-anchor="end">"#)?;
        let wanted = (plot_h / 40).max(2) as usize;
        let mut last_y = None;
        for j in 0..wanted.min(heat.boundaries.len()) {
            let (rank, key) = &heat.boundaries[(2 * j + 1) * heat.boundaries.len() / (2 * wanted)];
            let y = y_at(*rank);
            if last_y.is_some_and(|last| y < last + 16) {
                continue;
            }
            last_y = Some(y);
            let label = key_label(self.schema, key);
            let cut = label.chars().count() > LABEL_CHARS;
            let label: String = label.chars().take(LABEL_CHARS).chain(cut.then_some('…')).collect();
            writeln!(f, r##"<line x1="{}" y1="{y}" x2="{LEFT}" y2="{y}" stroke="#333333"/>"##, LEFT - 5)?;
            writeln!(f, r#"<text x="{}" y="{}">{}</text>"#, LEFT - 8, y + 4, Escaped(&label))?;
        }
        writeln!(f, "</g>")?;
        writeln!(
            f,
            r#"<text transform="translate(16 {}) rotate(-90)" text-anchor="middle">key space (lines: tablet boundaries at the end)</text>"#,
            TOP + plot_h / 2
        )?;

        // Time ticks at window edges: about eight, whatever the window count.
        let windows = self.report.windows();
        let step = windows.len().div_ceil(8).max(1);
        writeln!(f, r#"<g text-anchor="middle">"#)?;
        for i in (0..=windows.len()).step_by(step) {
            let time = match windows.get(i) {
                Some(window) => window.start(),
                None => windows.last().map_or(0, |w| w.end()),
            };
            let x = x_at(i);
            writeln!(f, r##"<line x1="{x}" y1="{bottom}" x2="{x}" y2="{}" stroke="#333333"/>"##, bottom + 5)?;
            writeln!(f, r#"<text x="{x}" y="{}">{}</text>"#, bottom + 18, Escaped(&(self.time_format)(time)))?;
        }
        writeln!(f, "</g>")?;
        writeln!(
            f,
            r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
            LEFT + plot_w / 2,
            bottom + 42,
            Escaped(&self.time_label)
        )?;

        let bar = right + 24;
        writeln!(
            f,
            r##"<rect x="{bar}" y="{TOP}" width="14" height="{plot_h}" fill="url(#heat-scale)" stroke="#333333"/>"##
        )?;
        for (value, y) in [(max, TOP), (max / 2, TOP + plot_h / 2), (0, bottom)] {
            writeln!(f, r#"<text x="{}" y="{}">{}</text>"#, bar + 20, y + 4, Grouped(value))?;
        }
        writeln!(
            f,
            r#"<text transform="translate({} {}) rotate(-90)" text-anchor="middle">writes per cell</text>"#,
            bar - 8,
            TOP + plot_h / 2
        )?;
        writeln!(f, "</svg>")
    }
}

impl Heatmap<'_> {
    fn summary(&self) -> String {
        let report = self.report;
        let mut line = format!("{} writes, {} tablets at the end", Grouped(report.writes()), report.tablets().len());
        if let Some(hot) = report.hottest_late() {
            let _ = write!(
                line,
                "; late windows: the hottest tablet takes {:.1}% of writes ({:.1}× the mean)",
                hot.share() * 100.0,
                hot.skew()
            );
        }
        line
    }
}

/// `fraction` of `pixels`, rounded, so cells meet on whole pixels without gaps.
fn scale(pixels: u32, fraction: f64) -> u32 {
    (f64::from(pixels) * fraction.clamp(0.0, 1.0)).round() as u32
}

/// The colour at `at` (0 to 1) on the scale.
fn colour(at: f64) -> [u8; 3] {
    let at = at.clamp(0.0, 1.0);
    let upper = STOPS.iter().position(|(stop, _)| *stop >= at).unwrap_or(STOPS.len() - 1).max(1);
    let ((a, from), (b, to)) = (STOPS[upper - 1], STOPS[upper]);
    let t = (at - a) / (b - a);
    std::array::from_fn(|i| (f64::from(from[i]) + (f64::from(to[i]) - f64::from(from[i])) * t).round() as u8)
}

/// A count with thousands separators, as people read large numbers.
struct Grouped(u64);

impl fmt::Display for Grouped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.0.to_string();
        for (i, digit) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                f.write_char(',')?;
            }
            f.write_char(digit)?;
        }
        Ok(())
    }
}

struct Hex([u8; 3]);

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

/// Text made safe for SVG element content and attribute values.
struct Escaped<'s>(&'s str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            match c {
                '&' => f.write_str("&amp;")?,
                '<' => f.write_str("&lt;")?,
                '>' => f.write_str("&gt;")?,
                '"' => f.write_str("&quot;")?,
                '\'' => f.write_str("&apos;")?,
                // XML 1.0 forbids most control characters, even escaped; keys are printed
                // readably, so these come only from titles.
                c if c.is_control() && !matches!(c, '\t' | '\n' | '\r') => f.write_char('\u{fffd}')?,
                c => f.write_char(c)?,
            }
        }
        Ok(())
    }
}

impl Report {
    /// The report as a Key-Visualizer-style heatmap with the default size and title: see
    /// [`Heatmap`].
    ///
    /// ```
    /// let mut sim = rowkey::hotspot::Simulator::dynamic(4)?;
    /// (0..40u32).for_each(|i| sim.record(i.to_be_bytes()));
    /// let svg = sim.report(rowkey::hotspot::Windows::Count(8)).to_svg();
    /// assert!(svg.contains("<svg") && svg.trim_end().ends_with("</svg>"));
    /// # Ok::<(), rowkey::Error>(())
    /// ```
    #[must_use]
    pub fn to_svg(&self) -> String {
        Heatmap::new(self).to_svg()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_scale_runs_dark_to_bright() {
        assert_eq!(colour(0.0), STOPS[0].1);
        assert_eq!(colour(1.0), STOPS[4].1);
        assert_eq!(colour(0.5), STOPS[2].1);
        let brightness = |c: [u8; 3]| c.iter().map(|&v| u32::from(v)).sum::<u32>();
        let levels: Vec<u32> = (0..=10).map(|i| brightness(colour(f64::from(i) / 10.0))).collect();
        assert!(levels.windows(2).all(|w| w[0] < w[1]), "{levels:?}");
    }

    #[test]
    fn groups_thousands() {
        let cases = [(0, "0"), (999, "999"), (1_000, "1,000"), (144_000, "144,000"), (1_234_567, "1,234,567")];
        for (n, text) in cases {
            assert_eq!(Grouped(n).to_string(), text);
        }
    }

    #[test]
    fn escapes_markup_and_control_characters() {
        assert_eq!(
            Escaped("a<b & \"c\" 'd'>\u{1}").to_string(),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{fffd}"
        );
    }
}
