/// A save refused for its comment (too long, a control character, a text-direction
/// override): why, and the comment as typed, so the screen shows its form again with both
/// instead of an error page that loses the typing. New measurement and an unsaved
/// measurement share it.
struct SaveRefusal: Sendable, Equatable {
    var alert: Alert
    var comment: String

    /// Runs `save` with the form's comment once the server accepts it; a refused comment is
    /// answered with `page` (the screen again, with the refusal) and the refusal's status,
    /// and `save` does not run.
    static func saving(
        _ form: FormFields, refused page: (SaveRefusal) -> HTML, save: (String) async throws -> ScreenOutcome
    ) async throws -> ScreenOutcome {
        let typed = form["comment"]
        let comment: String
        do {
            comment = try FormFields.comment(typed)
        } catch let error as WebError {
            let refusal = SaveRefusal(alert: .error(error.message), comment: typed)
            return .alert(refusal.alert, page: page(refusal), status: error.status)
        }
        return try await save(comment)
    }
}
