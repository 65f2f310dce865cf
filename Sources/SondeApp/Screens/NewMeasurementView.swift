import SondeCapture
import SondeReport

/// The New measurement screen's view model: recording (values arriving, or waiting for
/// the first window; the page's script fills the values in place after that), or a save
/// refused while the recording goes on.
struct NewMeasurementView: Sendable {
    enum State: Sendable, Equatable {
        case recording
        /// A save the server refused (the comment): the recording goes on, and the page
        /// says why with the comment as typed. (The page's script shows the alert in place.)
        case refused(SaveRefusal)
    }

    let capture: LiveCapture
    /// Indices into the capture's columns of the features drawn as trends.
    let trendColumns: [Int]
    let values: LiveValues
    var state: State = .recording
    let csrf: String

    var html: HTML {
        let columns = capture.columns
        let tables = values.channels.enumerated().map { channel, entry -> HTML in
            let rows = columns.enumerated().map { column, name -> HTML in
                let value = entry.values.indices.contains(column) ? entry.values[column] : nil
                // thd and snr_db are 0 for a window without a fundamental (docs/features.md
                // section 5): the cell says "not measured" then, here and in the page's script.
                let unmeasured = FeatureLabel.unmeasuredReason(name) != nil
                let text = unmeasured && value == 0 ? "not measured" : DisplayFormat.value(value)
                let zero: HTML = unmeasured ? " data-zero=\"not measured\"" : ""
                return """
                    <tr><th scope="row">\(FeatureLabel.name(name)) <code>\(name)</code></th>\
                    <td>\(FeatureLabel.unit(name))</td>\
                    <td class="number" id="v-\(channel)-\(column)"\(zero)>\
                    \(text)</td></tr>
                    """
            }
            return """
                <table><caption>\(entry.name)</caption>
                <thead><tr><th scope="col">Feature</th><th scope="col">Unit</th><th scope="col">Value</th></tr></thead>
                <tbody>\(rows)</tbody></table>
                """
        }
        var figures: [HTML] = []
        for (slot, column) in trendColumns.enumerated() {
            for (channel, name) in capture.channelNames.enumerated() {
                let path = AppRoute.newMeasurementTrend(slot: slot, channel: channel).path
                figures.append(
                    """
                    <img src="\(path)" data-trend="\(path)" width="380" height="170" \
                    alt="Trend of \(columns[column]) on \(name) since the start">
                    """)
            }
        }
        let signal = capture.channelNames.enumerated().map { channel, name -> HTML in
            """
            \(Self.plot(
                id: "wave-\(channel)", kind: "waveform", channel: channel,
                caption: "Waveform of \(name): the newest samples", waiting: "Waiting for the first samples."))\
            \(Self.plot(
                id: "spectrum-\(channel)", kind: "spectrum", channel: channel,
                caption: "Spectrum of \(name): the latest window", waiting: "Waiting for the first window."))
            """
        }
        return PageLayout.page(
            title: "New measurement",
            content: """
                <h1>New measurement</h1>
                <section id="live" data-values="\(AppRoute.newMeasurementValues(capture: capture.id).path)" \
                data-events="\(AppRoute.newMeasurementEvents(capture: capture.id).path)" aria-labelledby="live-title">
                <h2 id="live-title">Live values</h2>
                <p>Recording on \(capture.device.id) for <span class="elapsed" id="elapsed">\(DisplayFormat.elapsed(values.elapsedSeconds))</span> \
                (<span id="frames">\(values.frameCount)</span> windows).</p>
                <div class="tables">\(tables)</div>
                <h2>Waveform and spectrum</h2>
                <div class="figures" id="signal">\(signal)</div>
                <h2>Trends</h2>
                <div class="figures">\(figures)</div>
                </section>
                <section class="card" aria-labelledby="stop-title">
                <h2 id="stop-title">Stop</h2>
                <p>Stop ends the recording and frees the device; the measurement then waits, unsaved, \
                until you save or discard it (on Main too). Without Stop it records up to its time limit \
                and waits the same way, whatever this page does.</p>
                <form method="post" action="\(AppRoute.stopMeasurement.path)" data-async>
                \(PageLayout.csrfField(csrf))
                <div class="actions"><button type="submit">Stop</button>\(PageLayout.spinner)</div>
                </form>
                </section>
                \(PageLayout.saveOrDiscard(
                    save: AppRoute.saveNewMeasurement.path, discard: AppRoute.discardNewMeasurement.path,
                    discardDetail: "The recording stops and its windows are thrown away; nothing is saved.", csrf: csrf,
                    refusal: refusal))
                """)
    }

    private var refusal: SaveRefusal? {
        if case .refused(let refusal) = state { refusal } else { nil }
    }

    /// One live plot: an empty chart the page's script draws into (axes with units, the
    /// curve) five times a second, named by its caption and described by the sentence below
    /// it, which the script keeps up to date: the text alternative (range, strongest component).
    static func plot(id: String, kind: String, channel: Int, caption: String, waiting: String) -> HTML {
        """
        <figure class="plot"><figcaption id="\(id)-title">\(caption)</figcaption>\
        <svg id="\(id)" data-plot="\(kind)" data-channel="\(String(channel))" viewBox="0 0 380 170" \
        width="380" height="170" role="img" aria-labelledby="\(id)-title" aria-describedby="\(id)-text"></svg>\
        <p class="plot-text" id="\(id)-text">\(waiting)</p></figure>
        """
    }
}
