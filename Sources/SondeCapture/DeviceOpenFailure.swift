/// A real instrument that could not be opened for a capture (unplugged, its command cannot
/// start), told apart from settings the device cannot use so that only the first shows the
/// device as disconnected. `Instrument.startCapture` unwraps it: callers see `underlying`.
struct DeviceOpenFailure: Error {
    var underlying: any Error
}
