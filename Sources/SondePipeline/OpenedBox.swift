/// The input a lane's thread opened, handed back to its task.
final class OpenedBox: @unchecked Sendable {
    // @unchecked: written on the lane's thread before its `run()` returns, read after.
    var stage: SourceStage?
}
