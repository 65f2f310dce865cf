import SondeStore

/// The services the account and measurement commands use: the local ones (a test or
/// another backend would substitute its own behind the same protocols).
typealias Services = LocalServices
