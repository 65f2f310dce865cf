/// The frame of every screen: the document head (this server's own stylesheet and script,
/// nothing from another host), a top bar, and the screen's content in `<main>`.
enum PageLayout {
    /// - Parameters:
    ///   - title: the screen's name, first in the window title.
    ///   - topBar: what the top bar holds right of the app's name (Main's Settings button).
    ///   - afterMain: what follows the content (Main's settings dialog).
    static func page(title: String, topBar: HTML = "", content: HTML, afterMain: HTML = "") -> HTML {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title) · sonde</title>
        <link rel="stylesheet" href="\(StaticAssets.stylesheetPath)">
        <link rel="icon" href="\(StaticAssets.iconPath)" type="image/svg+xml">
        <script src="\(StaticAssets.scriptPath)" defer></script>
        </head>
        <body>
        <header class="topbar"><span class="brand">sonde</span>\(topBar)</header>
        <main id="content">
        \(content)
        \(afterMain)
        </main>
        </body>
        </html>
        """
    }

    /// The hidden field every form carries (`CSRFMiddleware`).
    static func csrfField(_ token: String) -> HTML {
        "<input type=\"hidden\" name=\"_csrf\" value=\"\(token)\">"
    }

    /// A notice from the previous screen, if the address names one.
    static func notice(_ notice: Notice?) -> HTML {
        guard let notice else { return "" }
        return "<p class=\"notice\" role=\"status\">\(notice.text)</p>"
    }

    /// The indicator a script shows while a form's request runs.
    static let spinner: HTML =
        "<span class=\"spinner\" role=\"progressbar\" aria-label=\"Loading\" hidden></span>"

    /// A button that asks first: it opens a modal `<dialog>` (keyboard-accessible: focus
    /// inside, Escape or Cancel closes it) whose form does the irreversible POST (issue 44:
    /// Discard and Delete acted at once).
    static func confirmedAction(
        id: String, button: String, question: String, detail: String, confirm: String, action: String,
        csrf: String
    ) -> HTML {
        """
        <button type="button" class="danger" aria-haspopup="dialog" data-opens="\(id)">\(button)</button>
        <dialog id="\(id)" aria-labelledby="\(id)-title">
        <h2 id="\(id)-title">\(question)</h2>
        <p>\(detail)</p>
        <form method="post" action="\(action)">
        \(csrfField(csrf))
        <div class="actions"><button type="submit" class="danger">\(confirm)</button>\
        <button type="button" class="secondary" data-closes>Cancel</button></div>
        </form>
        </dialog>
        """
    }

    /// The Save card of a measurement not saved yet (recording, or a draft): a Comment and
    /// Save measurement posting to `save`, and Discard asking first before posting `discard`.
    /// - Parameter refusal: a save refused: its alert where the page's script shows one
    ///   (before the form), its comment as typed in the field.
    static func saveOrDiscard(
        save: String, discard: String, discardDetail: String, csrf: String, refusal: SaveRefusal? = nil
    ) -> HTML {
        // The newline after <textarea> is dropped by every HTML parser, so a comment that
        // starts with one keeps it.
        """
        <section class="card" aria-labelledby="save-title">
        <h2 id="save-title">Save</h2>
        \(refusal?.alert.html)<form method="post" action="\(save)" data-async>
        \(csrfField(csrf))
        <label for="comment">Comment</label>
        <textarea id="comment" name="comment" maxlength="\(FormFields.commentLimit)">
        \(refusal?.comment ?? "")</textarea>
        <div class="actions">
        <button type="submit">Save measurement</button>
        \(spinner)
        </div>
        </form>
        <div class="actions">\(confirmedAction(
            id: "confirm-discard", button: "Discard", question: "Discard this measurement?", detail: discardDetail,
            confirm: "Discard", action: discard, csrf: csrf))</div>
        </section>
        """
    }
}
