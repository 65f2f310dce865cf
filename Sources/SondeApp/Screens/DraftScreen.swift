import Hummingbird
import SondeCapture

/// Unsaved measurement (`/drafts/ID`): a capture that ended without a save, kept until its
/// owner saves or discards it. Another user's draft answers exactly as a missing one: 404.
struct DraftScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        let drafts = environment.captures.drafts
        let measurements = environment.measurements
        screens.get(signedIn: .draft) { _, context, session in
            let draft = try Self.draft(context, session: session, in: drafts)
            return .page(DraftView(draft: draft, csrf: context.csrfToken).html)
        }
        screens.post(signedIn: .saveDraft) { _, context, session in
            let draft = try Self.draft(context, session: session, in: drafts)
            return try await SaveRefusal.saving(
                context.form, refused: { DraftView(draft: draft, state: .refused($0), csrf: context.csrfToken).html }
            ) { comment in
                _ = try await drafts.save(draft.id, comment: comment, for: session.account, with: measurements.service)
                return .navigate(.main, notice: .saved)
            }
        }
        screens.post(signedIn: .discardDraft) { _, context, session in
            let draft = try Self.draft(context, session: session, in: drafts)
            drafts.discard(draft.id, for: session.account.id)
            return .navigate(.main, notice: .discarded)
        }
    }

    private static func draft(
        _ context: AppRequestContext, session: WebSession, in drafts: CaptureDrafts
    ) throws
        -> CaptureDraft
    {
        guard let id = context.parameters.get("id"), CaptureDraft.isValidID(id),
            let draft = drafts.draft(id, for: session.account.id)
        else { throw WebError.notFound }
        return draft
    }
}
