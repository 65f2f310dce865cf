import PostgresNIO
import SondeCore
import SondeStoreFormat

/// libpq's `sslmode` as postgres-nio's TLS settings, for the pool and for the first
/// connection (the two take different types). `allow`, `prefer` and `require` encrypt
/// without checking the certificate, as libpq does; `verify-ca` and `verify-full` check it
/// (NIOSSL checks the host name too, so `verify-ca` is as strict as `verify-full`).
struct PostgresTLS {
    var client: PostgresClient.Configuration.TLS
    var connection: PostgresConnection.Configuration.TLS

    init(location: PostgresLocation) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch location.sslMode {
        case .disable:
            client = .disable
            connection = .disable
            return
        case .allow, .prefer, .require:
            configuration.certificateVerification = .none
        case .verifyCA, .verifyFull:
            configuration.certificateVerification = .fullVerification
        }
        let context: NIOSSLContext
        do {
            context = try NIOSSLContext(configuration: configuration)
        } catch {
            throw SondeError(
                .invalidArgument,
                "database \(location): cannot set up TLS (sslmode=\(location.sslMode.rawValue)): \(error)")
        }
        switch location.sslMode {
        case .allow, .prefer:
            client = .prefer(configuration)
            connection = .prefer(context)
        default:
            client = .require(configuration)
            connection = .require(context)
        }
    }
}
