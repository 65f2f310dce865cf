import Hummingbird
import SondeAccounts
import SondeCapture

/// Main (`/`): the greeting, the device's state (pair it, start a measurement, or who is
/// measuring), the user's measurements newest first; the Settings popup (Export, Logout).
struct MainScreen: Sendable {
    let environment: AppEnvironment

    func add(to screens: Screens) {
        screens.get(signedIn: .main) { request, context, session in
            let notice = request.uri.queryParameters.get("notice").flatMap(Notice.init(rawValue:))
            let page = request.uri.queryParameters.get("page").flatMap { Int($0) } ?? 1
            return .page(try await view(session, csrf: context.csrfToken, notice: notice, page: page).html)
        }
        screens.post(signedIn: .pairDevice) { _, _, _ in
            _ = try await environment.captures.pair(
                profileText: Instrument.defaultProfile, profileSource: "default", seed: 1)
            return .navigate(.main)
        }
        screens.get(signedIn: .deviceEvents) { _, context, session in
            try DeviceEvents.stream(for: session, csrf: context.csrfToken, environment: environment)
        }
        screens.post(signedIn: .logout) { _, _, session in
            // Logging out ends the user's recording: it waits as a draft, the device is free.
            if let capture = environment.captures.capture(for: session.account) {
                _ = try? await environment.captures.stop(capture, reason: "logout")
            }
            try await environment.accounts.logout(token: session.token)
            return .signOut(to: .login, notice: .loggedOut)
        }
        screens.get(signedIn: .exportAll) { _, _, session in
            .download(
                try await environment.measurements.exportAll(for: session),
                fileName: "sonde-measurements.zip", contentType: "application/zip")
        }
    }

    /// - Parameter page: of the list, from 1; one past the last shows the last.
    func view(_ session: WebSession, csrf: String, notice: Notice?, page: Int = 1) async throws -> MainView {
        let device = try Self.device(for: session, environment: environment)
        let total = try await environment.measurements.count(for: session)
        let pages = max(1, (total + MainView.pageSize - 1) / MainView.pageSize)
        let shown = min(max(1, page), pages)
        let measurements = try await environment.measurements.listings(
            for: session, offset: (shown - 1) * MainView.pageSize, limit: MainView.pageSize)
        return MainView(
            greeting: session.account.greetingEmail, email: session.account.email, device: device,
            drafts: environment.captures.drafts.drafts(for: session.account.id), measurements: measurements,
            page: shown, total: total,
            notice: notice, csrf: csrf)
    }

    /// The device as `session`'s user sees it: free, busy with someone else, or theirs.
    /// The device is named with its kind: `alsa-hw:1,0 (ALSA hw:1,0, 2 channels at 48 kHz, i32le)`.
    static func device(for session: WebSession, environment: AppEnvironment) throws -> MainView.Device {
        let instrument = environment.captures
        func named(_ id: String) -> String {
            guard let paired = try? instrument.paired(), paired.id == id else { return id }
            return "\(id) (\(paired.kindDescription))"
        }
        switch try instrument.status() {
        case .notConnected: return .notConnected
        case .idle(let id): return .connected(deviceID: named(id))
        case .disconnected(let id, let failure):
            return .disconnected(deviceID: named(id), message: failure.message, at: failure.at)
        case .busy(let id, let user, let since):
            return user.id == session.account.id
                ? .measuring(deviceID: named(id)) : .busy(deviceID: named(id), user: user.email, since: since)
        }
    }
}
