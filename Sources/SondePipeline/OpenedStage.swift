/// An input as the exporter receives it: opened, or failed to open (`keepGoing`).
enum OpenedStage: Sendable {
    case stage(SourceStage)
    case failed(index: Int, name: String, error: any Error)
}
