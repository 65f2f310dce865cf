import SondeCapture

/// An unsaved measurement's view model: a capture that ended without a save, with what it
/// holds and why it ended; Save measurement (with a comment) or Discard (confirmed).
struct DraftView: Sendable {
    enum State: Sendable, Equatable {
        case idle
        /// A save the server refused (the comment): the page again with why, the comment
        /// as typed, the draft as it was. (The page's script shows the alert in place.)
        case refused(SaveRefusal)
    }

    var draft: CaptureDraft
    var state: State = .idle
    var csrf: String

    var html: HTML {
        let recorded = draft.capture.recordedAt.map { DisplayFormat.time($0) } ?? "–"
        let length = DisplayFormat.elapsed(draft.endedAt - (draft.capture.recordedAt ?? draft.endedAt))
        return PageLayout.page(
            title: "Unsaved measurement",
            content: """
                <p><a href="\(AppRoute.main.path)">Back to Main</a></p>
                <h1>Unsaved measurement</h1>
                <section class="card" aria-labelledby="details-title">
                <h2 id="details-title">Details</h2>
                <dl class="details">
                <dt>Recorded</dt><dd>\(recorded), for <span id="draft-length">\(length)</span></dd>
                <dt>Ended</dt><dd id="draft-reason">\(draft.reason)</dd>
                <dt>Device</dt><dd>\(draft.capture.deviceID)</dd>
                <dt>Windows</dt><dd id="draft-frames">\(draft.frames)</dd>
                <dt>Channels</dt><dd>\(draft.capture.channelNames.joined(separator: ", "))</dd>
                </dl>
                <p class="empty">It is kept on the server until you save or discard it.</p>
                </section>
                \(PageLayout.saveOrDiscard(
                    save: AppRoute.saveDraft(draft.id).path, discard: AppRoute.discardDraft(draft.id).path,
                    discardDetail: "Its \(draft.frames) windows are thrown away; nothing is saved.", csrf: csrf,
                    refusal: refusal))
                """)
    }

    private var refusal: SaveRefusal? {
        if case .refused(let refusal) = state { refusal } else { nil }
    }
}
