public import SondeCore
import SondeDSP

extension PipelineSettings {
    /// The settings as the JSON object that outputs carry (Parquet's `sonde.settings`, a
    /// saved measurement's settings): the sonde version, framing, filters, features and
    /// bands; with `rate`, the rate and, when a family of docs/features.md section 7 is on,
    /// its columns and options; then `extra` (what a command adds, such as a capture's
    /// duration). Keys sorted, so the text is the same for the same settings.
    public func json(rate: Double? = nil, version: String, extra: [JSONValue.Member] = []) -> JSONValue {
        var members: [JSONValue.Member] = [
            .init("bands", .strings(bands.map(\.columnName))),
            .init("features", .strings(features.map(\.rawValue))),
            .init("filters", .strings(filters.map(\.description))),
            .init("hop", .integer(hop)),
            .init("sonde", .string(version)),
            .init("window", .integer(frameLength)),
        ]
        if let rate {
            members.append(.init("rate", .number(rate)))
            if families != FamilyOptions() {
                let columns = (try? valueColumns(sampleRate: rate)) ?? []
                let band = families.velocityBand
                members += [
                    .init("columns", .strings(columns)),
                    .init("reference", .number(families.reference)),
                    .init("velocity_band", .string("\(band.low.compactDescription)-\(band.high.compactDescription)")),
                ]
                if let unit = families.inputUnit { members.append(.init("input_unit", .string(unit.rawValue))) }
                if let unit = families.velocityUnit { members.append(.init("velocity_unit", .string(unit.rawValue))) }
                // The bearing columns' speed and defect multiples, so a record says what it measured.
                if let shaft = families.shaftSpeed { members.append(.init("shaft_speed_hz", .number(shaft.hertz))) }
                if let bearing = families.bearing {
                    let multiples = BearingDefect.allCases.map { JSONValue.Member($0.rawValue, .number(bearing[$0])) }
                    members.append(.init("bearing", .object(multiples)))
                }
            }
        }
        members += extra
        return .object(members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) })
    }
}
