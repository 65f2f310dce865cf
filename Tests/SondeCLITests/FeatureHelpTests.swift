import Foundation
import Testing
import _SondeTestSupport

/// `docs/features.md` documents every feature `sonde process --help` offers: both are
/// written from the same declarations, and this checks the binary users run.
@Suite struct FeatureHelpTests {
    @Test func everyFeatureInTheHelpIsDocumented() throws {
        let help = try SondeBinary.run(["process", "--help"])
        #expect(help.status == 0)
        // The --features paragraph, up to the next option; its names are comma-separated lists.
        let paragraph =
            help.stdout.components(separatedBy: "--features <LIST>").dropFirst().first?
            .components(separatedBy: "\n  --").first ?? ""
        // A list is a word with commas between names ("compute," ends a phrase).
        let lists = paragraph.split(whereSeparator: \.isWhitespace).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "."))
        }
        .filter { $0.split(separator: ",").count > 1 }
        // `default` names the default set, not a column.
        let names = lists.flatMap { $0.split(separator: ",").map(String.init) }.filter { $0 != "default" }
        #expect(names.count >= 25, "found \(names.count) feature names in: \(paragraph)")
        let docs = try String(
            contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/features.md"), encoding: .utf8)
        for name in names {
            #expect(docs.contains("| `\(name)` |"), "\(name) is offered by --help but has no row in docs/features.md")
        }
    }
}
