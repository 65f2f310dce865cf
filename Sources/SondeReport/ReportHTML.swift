import SondePlots

/// The report's HTML: one self-contained page (inline CSS, inline SVG, PNG as data URIs,
/// no script), written piece by piece so a long run never holds more than one input's
/// section.
public enum ReportHTML {
    /// The page up to the first input: title, what made it, and the settings.
    public static func head(title: String, madeBy: String, settings: [(label: String, value: String)]) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(escaped(madeBy))">
            <title>\(escaped(title))</title>
            <style>
            body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1500px; padding: 0 16px; color: #222; }
            h1 { font-size: 1.5em; margin-bottom: 0.2em; }
            h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: 4px; word-break: break-all; }
            h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
            .made-by { color: #555; margin-top: 0; }
            table.settings { max-width: 1000px; }
            table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1em; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; }
            th { background: #f4f4f4; }
            .figures { display: flex; flex-wrap: wrap; gap: 12px; }
            figure { margin: 0; }
            figure svg { display: block; max-width: 100%; height: auto; }
            figure.envelope figcaption { max-width: 660px; }
            p.verdict { margin: 0.4em 0 0; font-weight: 600; }
            dl.details { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0.5em 0; }
            dl.details dt { color: #555; }
            dl.details dd { margin: 0; }
            </style>
            </head>
            <body>
            <h1>\(escaped(title))</h1>
            <p class="made-by">Made by \(escaped(madeBy))</p>
            <table class="settings"><tr><th colspan="2">Settings</th></tr>
            """
        for (label, value) in settings {
            html += "<tr><td>\(escaped(label))</td><td>\(escaped(value))</td></tr>\n"
        }
        html += "</table>\n"
        html +=
            "<p class=\"made-by\">Summary tables: mean, min and max are exact; p5 and p95 are numpy.percentile's (linear) exactly, or for an input too long to keep every value (over a million values in all) estimated within 0.5% and never outside min-max, as each input's Percentiles line says.</p>\n"
        return html
    }

    /// One input's section.
    public static func section(_ report: InputReport, anchor: String) -> String {
        var html =
            "<section class=\"input\" id=\"\(escaped(anchor))\">\n<h2>\(escaped(report.title))</h2>\n<dl class=\"details\">"
        for (label, value) in report.details {
            html += "<dt>\(escaped(label))</dt><dd>\(escaped(value))</dd>"
        }
        html += "</dl>\n"
        for channel in report.channels {
            html += "<section class=\"channel\">\n<h3>Channel \(escaped(channel.name))</h3>\n<div class=\"figures\">\n"
            if let spectrogram = channel.spectrogram {
                html += "<figure class=\"spectrogram\">\(spectrogram.svg())</figure>\n"
            }
            if let spectrum = channel.spectrum { html += "<figure class=\"spectrum\">\(spectrum.svg())</figure>\n" }
            if let envelope = channel.envelope {
                let table = channel.bearing.map { "<figcaption>\(defectTable($0))</figcaption>" } ?? ""
                html += "<figure class=\"envelope\">\(envelope.svg())\(table)</figure>\n"
            }
            for trend in channel.trends { html += "<figure class=\"trend\">\(trend.svg())</figure>\n" }
            html += "</div>\n"
            html += summaryTable(channel)
            html += "</section>\n"
        }
        html += "</section>\n"
        return html
    }

    /// The end of the page.
    public static let tail = "</body>\n</html>\n"

    /// The defect levels of the envelope figure and the verdict, as `sonde diagnose` words them
    /// (docs/features.md section 9): the figure's caption, so they stay beside its lines.
    private static func defectTable(_ bearing: ReportEnvelope.Diagnosis) -> String {
        var html =
            "<p class=\"verdict\">Bearing: \(escaped(bearing.verdict))</p>\n<table class=\"defects\"><tr><th>defect</th>"
            + "<th>Hz</th><th>level</th><th>harmonics found</th><th>harmonic levels (dB)</th></tr>\n"
        for row in bearing.rows {
            html +=
                "<tr><td>\(escaped(row.name))</td><td class=\"number\">\(ReportNumber.text(row.frequency))</td>"
                + "<td class=\"number\">\(escaped(row.level))</td><td class=\"number\">\(escaped(row.harmonicsFound))</td>"
                + "<td>\(escaped(row.harmonicLevels))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private static func summaryTable(_ channel: Channel) -> String {
        var html =
            "<table class=\"summary\"><tr><th>feature</th><th>mean</th><th>min</th><th>max</th><th>p5</th><th>p95</th></tr>\n"
        for (column, summary) in channel.summary {
            html += "<tr><td>\(escaped(column))</td>"
            for value in [summary.mean, summary.minimum, summary.maximum, summary.p5, summary.p95] {
                html += "<td class=\"number\">\(ReportNumber.text(summary.count > 0 ? value : .nan))</td>"
            }
            html += "</tr>\n"
        }
        return html + "</table>\n"
    }

    typealias Channel = InputReport.Channel

    /// Text or an attribute value with `&`, `<`, `>` and quotes escaped (as the figures' SVG is).
    static func escaped(_ text: String) -> String { MarkupText.escaped(text) }
}
