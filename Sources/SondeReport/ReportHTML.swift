import SondePlots

/// The report's HTML: one self-contained page (inline CSS, inline SVG, PNG as data URIs,
/// no script), written piece by piece so a long run never holds more than one input's
/// section.
public enum ReportHTML {
    /// The page up to the first input: title, what made it, and the settings.
    /// - Parameter back: a link above the title to the page the report was opened from (the
    ///   app's measurement); nil in a file, which has no page to go back to.
    public static func head(
        title: String, madeBy: String, settings: [(label: String, value: String)],
        back: (href: String, label: String)? = nil
    ) -> String {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="\(escaped(madeBy))">
            <title>\(escaped(title))</title>
            <style>
            body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px auto; max-width: 1500px; padding: 0 16px; color: #222; overflow-wrap: break-word; }
            h1 { font-size: 1.5em; margin-bottom: 0.2em; overflow-wrap: anywhere; }
            nav.back a { color: #0645ad; }
            h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; padding-bottom: 4px; word-break: break-all; }
            h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
            .made-by { color: #555; margin-top: 0; }
            table { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1em; }
            th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
            td.number { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
            td.unmeasured { color: #555; font-style: italic; }
            thead th { background: #f4f4f4; }
            tbody th { font-weight: normal; }
            code { color: #555; font-size: 0.85em; }
            .scroll { overflow-x: auto; max-width: 100%; }
            .scroll:focus-visible { outline: 2px solid #0645ad; }
            .notes { color: #555; font-size: 0.9em; max-width: 60em; }
            .figures { display: flex; flex-wrap: wrap; gap: 12px; }
            figure { margin: 0; max-width: 100%; }
            figure svg { display: block; max-width: 100%; height: auto; }
            figure.envelope figcaption { max-width: 660px; }
            p.verdict { margin: 0.4em 0 0; font-weight: 600; }
            dl.details { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 0.5em 0; max-width: 1000px; }
            dl.details dt { color: #555; }
            dl.details dd { margin: 0; overflow-wrap: anywhere; }
            </style>
            </head>
            <body>

            """
        if let back {
            html += "<nav class=\"back\"><a href=\"\(escaped(back.href))\">\(escaped(back.label))</a></nav>\n"
        }
        html += """
            <main>
            <h1>\(escaped(title))</h1>
            <p class="made-by">Made by \(escaped(madeBy))</p>
            <section class="settings" aria-labelledby="settings-title">
            <h2 id="settings-title">Settings</h2>
            <dl class="details">
            """
        for (label, value) in settings {
            html += "<dt>\(escaped(label))</dt><dd>\(escaped(value))</dd>\n"
        }
        html += "</dl>\n</section>\n"
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
    public static let tail = "</main>\n</body>\n</html>\n"

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

    /// Every column's statistics, named for a person (with the column's own name, as CSV
    /// has it, beside); a column whose value was not measured in some windows says so
    /// under the table, one not measured at all says so in its row: never a number.
    private static func summaryTable(_ channel: Channel) -> String {
        var html = """
            <div class="scroll" role="region" aria-label="Summary of channel \(escaped(channel.name))" tabindex="0">
            <table class="summary"><thead><tr><th scope="col">Feature</th><th scope="col">Unit</th>\
            <th scope="col">mean</th><th scope="col">min</th><th scope="col">max</th>\
            <th scope="col">p5</th><th scope="col">p95</th></tr></thead>
            <tbody>

            """
        var notes: [String] = []
        for (column, summary) in channel.summary {
            let name = FeatureLabel.name(column)
            html +=
                "<tr data-column=\"\(escaped(column))\"><th scope=\"row\">\(escaped(name)) <code>\(escaped(column))</code></th>"
                + "<td class=\"unit\">\(escaped(FeatureLabel.unit(column)))</td>"
            let reason = FeatureLabel.unmeasuredReason(column) ?? ""
            if summary.unmeasured > 0 && summary.count == 0 {
                html += "<td class=\"unmeasured\" colspan=\"5\">not measured: \(escaped(reason))</td>"
            } else {
                for value in [summary.mean, summary.minimum, summary.maximum, summary.p5, summary.p95] {
                    html += "<td class=\"number\">\(ReportNumber.text(summary.count > 0 ? value : .nan))</td>"
                }
            }
            html += "</tr>\n"
            if summary.unmeasured > 0 && summary.count > 0 {
                let windows = summary.unmeasured + summary.count
                notes.append(
                    "\(name): not measured in \(summary.unmeasured) of \(windows) windows (\(reason)); its statistics are of the other \(summary.count)."
                )
            }
        }
        html += "</tbody></table>\n</div>\n"
        for note in notes { html += "<p class=\"notes\">\(escaped(note))</p>\n" }
        return html
    }

    typealias Channel = InputReport.Channel

    /// Text or an attribute value with `&`, `<`, `>` and quotes escaped (as the figures' SVG is).
    static func escaped(_ text: String) -> String { MarkupText.escaped(text) }
}
