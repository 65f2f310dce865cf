import Foundation
import Hummingbird
import Testing

@testable import SondeApp

/// A saved measurement's screen, exports, report and Delete; and isolation: another user
/// gets 404, exactly as for a missing id, on every id route, however the id is spelled.
@Suite struct MeasurementRoutesTests {
    @Test func theMeasurementItsExportsItsReportAndDelete() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            try await ann.register("ann@example.org")
            let id = try await ann.measure(comment: "bearing <B>")
            let page = try await ann.get("/measurements/\(id)")
            #expect(page.status == .ok && page.title == "Measurement \(id)")
            #expect(page.text.contains(#"<dd id="comment">bearing &lt;B&gt;</dd>"#))
            #expect(page.text.contains(#"<caption>accel_x</caption>"#))

            let csv = try await ann.get("/measurements/\(id)/export.csv")
            #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(csv.headers[.contentDisposition] == "attachment; filename=\"measurement-\(id).csv\"")
            let header = csv.text.split(separator: "\n").first.map(String.init) ?? ""
            #expect(header.contains("rms"), "\(header)")
            #expect(csv.text.split(separator: "\n").count > 2, "no record in the CSV")
            let parquet = try await ann.get("/measurements/\(id)/export.parquet")
            #expect(parquet.status == .ok && parquet.headers[.contentType] == "application/vnd.apache.parquet")
            #expect(parquet.text.hasPrefix("PAR1"))
            #expect(try await ann.get("/measurements/\(id)/export.json").status == .notFound)

            let report = try await ann.get("/measurements/\(id)/report")
            #expect(report.status == .ok && report.headers[.contentType] == "text/html; charset=utf-8")
            #expect(
                report.headers[.contentSecurityPolicy]
                    == "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'"
            )
            #expect(
                report.text.contains("<svg") || report.text.contains("data:image"),
                "a report without figures: \(report.text.prefix(200))")

            let deleted = try await ann.post("/measurements/\(id)/delete")
            #expect(deleted.status == .seeOther && deleted.location == "/?notice=deleted")
            #expect(try await ann.get("/?notice=deleted").notice == "Measurement deleted.")
            let gone = try await ann.get("/measurements/\(id)")
            #expect(gone.status == .notFound && gone.alert == "Not found")
            #expect(try await ann.post("/measurements/\(id)/delete").status == .notFound)
        }
    }

    @Test func anotherUsersMeasurementAndDraftAreNotFoundOnEveryRoute() async throws {
        let harness = try AppHarness()
        try await harness.pairDevice()
        try await harness.run { client in
            var ann = Browser(client)
            var bob = Browser(client)
            try await ann.register("ann@example.org")
            try await bob.register("bob@example.org")
            let id = try await ann.measure(comment: "ann's")
            #expect(try await ann.post("/measurements/new").location == "/measurements/new")
            let draftPath = try #require(try await ann.post("/measurements/new/stop").location)
            let draft = String(draftPath.dropFirst("/drafts/".count))

            // Ann's own id, spelled otherwise: the same measurement for her, 404 for Bob.
            let spellings = [id, "0\(id)", "+\(id)", "%3\(id.prefix(1))\(id.dropFirst())"]
            let missing = ["0", "-\(id)", "\(id).0", "abc", "99999999999999999999", "9223372036854775807", "%20\(id)"]
            for spelling in spellings + missing {
                for path in [
                    "/measurements/\(spelling)", "/measurements/\(spelling)/export.csv",
                    "/measurements/\(spelling)/export.parquet", "/measurements/\(spelling)/report",
                ] {
                    let answer = try await bob.get(path)
                    #expect(answer.status == .notFound && answer.alert == "Not found", "\(path): \(answer.summary)")
                }
                let delete = try await bob.post("/measurements/\(spelling)/delete")
                #expect(delete.status == .notFound, "POST /measurements/\(spelling)/delete: \(delete.summary)")
            }
            for spelling in [
                draft, draft.uppercased(), "0" + draft, String(draft.dropLast()), draft + "0", "..%2F" + draft,
            ] {
                #expect(try await bob.get("/drafts/\(spelling)").status == .notFound, "\(spelling)")
                for action in ["save", "discard"] {
                    let answer = try await bob.post("/drafts/\(spelling)/\(action)", [("comment", "bob's")])
                    #expect(answer.status == .notFound, "/drafts/\(spelling)/\(action): \(answer.summary)")
                }
            }
            // Bob's lists show nothing of Ann's; Ann still has both.
            let bobs = try await bob.get("/")
            #expect(bobs.text.contains("No measurements yet.") && !bobs.text.contains("Unsaved measurement from"))
            let zip = try await bob.get("/measurements/export.zip")
            #expect(zip.status == .ok && zip.text.contains("measurements/measurements.json"))
            #expect(!zip.text.contains("measurements/measurement-\(id).csv"), "Ann's measurement in Bob's export")
            #expect(try await ann.get("/measurements/\(id)").status == .ok)
            #expect(try await ann.get("/measurements/0\(id)").status == .ok, "a leading zero is the same id")
            #expect(try await ann.get(draftPath).status == .ok)
        }
    }

    @Test func aVisitorWithoutASessionIsSentToLoginAndAScriptGets401() async throws {
        let harness = try AppHarness()
        try await harness.run { client in
            var visitor = Browser(client)
            try await visitor.get("/login")
            let gets = [
                "/", "/?page=2", "/measurements/new", "/measurements/new/values?capture=x",
                "/measurements/new/trend/0/0", "/measurements/1", "/measurements/1/export.csv",
                "/measurements/1/export.parquet", "/measurements/1/report", "/measurements/export.zip",
                "/drafts/0123456789abcdef0123456789abcdef", "/device/events",
            ]
            let posts = [
                "/logout", "/device/pair", "/measurements/new", "/measurements/new/stop", "/measurements/new/save",
                "/measurements/new/discard", "/measurements/1/delete",
                "/drafts/0123456789abcdef0123456789abcdef/save", "/drafts/0123456789abcdef0123456789abcdef/discard",
            ]
            for path in gets {
                let page = try await visitor.get(path)
                #expect(page.status == .seeOther && page.location == "/login", "GET \(path): \(page.summary)")
                let script = try await visitor.get(path, headers: [.accept: "application/json"])
                #expect(script.status == .unauthorized && script.text == #"{"navigate":"/login"}"#, "GET \(path)")
            }
            for path in posts {
                let page = try await visitor.post(path)
                #expect(page.status == .seeOther && page.location == "/login", "POST \(path): \(page.summary)")
                let script = try await visitor.post(path, headers: [.accept: "application/json"])
                #expect(script.status == .unauthorized && script.text == #"{"navigate":"/login"}"#, "POST \(path)")
            }
        }
    }
}
