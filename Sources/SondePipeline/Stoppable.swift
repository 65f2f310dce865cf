public protocol Stoppable: AnyObject, Sendable {
    func stop()
}
