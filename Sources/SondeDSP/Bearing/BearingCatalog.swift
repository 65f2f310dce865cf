/// A few bearings whose geometry is published with a public data set, so `--bearing 6205-2RS`
/// gives the same multiples as the papers that use that data (docs/features.md section 9
/// names each source).
public enum BearingCatalog {
    /// One bearing of the table.
    public struct Entry: Sendable, Equatable {
        /// The name to give, as its maker writes it.
        public let name: String
        /// Other names accepted (case-insensitive), as the data sets call it.
        public let aliases: [String]
        public let geometry: BearingGeometry
        /// Where the geometry is published.
        public let source: String
    }

    private static let inch = 0.0254

    /// The table: the CWRU test rig's two bearings, the IMS run-to-failure rig's, the MFPT set's.
    public static let entries: [Entry] = [
        Entry(
            name: "6205-2RS", aliases: ["6205", "skf6205", "cwru-de"],
            geometry: BearingGeometry(
                rollingElements: 9, elementDiameter: 0.3126 * inch, pitchDiameter: 1.537 * inch),
            source: "Case Western Reserve University Bearing Data Center, drive-end bearing SKF 6205-2RS JEM"),
        Entry(
            name: "6203-2RS", aliases: ["6203", "skf6203", "cwru-fe"],
            geometry: BearingGeometry(
                rollingElements: 8, elementDiameter: 0.2656 * inch, pitchDiameter: 1.122 * inch),
            source: "Case Western Reserve University Bearing Data Center, fan-end bearing SKF 6203-2RS JEM"),
        Entry(
            name: "ZA-2115", aliases: ["za2115", "rexnord-za-2115", "ims"],
            geometry: BearingGeometry(
                rollingElements: 16, elementDiameter: 0.331 * inch, pitchDiameter: 2.815 * inch,
                contactAngle: 15.17),
            source: "Rexnord ZA-2115 double-row bearing of the IMS (University of Cincinnati) run-to-failure data, "
                + "NASA Prognostics Data Repository; H. Qiu et al., J. Sound Vib. 289 (2006)"),
        Entry(
            name: "MFPT", aliases: ["nice"],
            geometry: BearingGeometry(rollingElements: 8, elementDiameter: 0.235 * inch, pitchDiameter: 1.245 * inch),
            source: "Society for Machinery Failure Prevention Technology (MFPT) bearing fault data set, E. Bechhoefer"),
    ]

    /// The entry named `name` or one of its aliases, ignoring case.
    /// - Throws: `BearingError.unknownBearing` listing the names the table has.
    public static func bearing(named name: String) throws(BearingError) -> Entry {
        let key = name.lowercased()
        guard let entry = entries.first(where: { $0.name.lowercased() == key || $0.aliases.contains(key) }) else {
            throw .unknownBearing(name, known: entries.map(\.name))
        }
        return entry
    }
}
