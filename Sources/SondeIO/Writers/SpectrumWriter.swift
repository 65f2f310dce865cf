import SondeCore

/// Writes averaged spectra (docs/features.md section 8) as a table: one row per frequency bin,
/// `frequency` then one column per channel, in CSV or as a JSON array of objects; with
/// several inputs a leading `file` column, as records have. A NaN value is a channel with no
/// bin at that frequency (envelope spectra of bands at different rates): an empty CSV field,
/// a JSON null.
public final class SpectrumWriter {
    public enum Format: String, CaseIterable, Sendable {
        case csv, json

        /// The format a file name implies (`.csv`, `.json`), if any.
        public init?(inferredFrom path: String) {
            let lower = path.lowercased()
            if lower.hasSuffix(".csv") {
                self = .csv
            } else if lower.hasSuffix(".json") {
                self = .json
            } else {
                return nil
            }
        }
    }

    private let format: Format
    private let output: OutputFile
    private let includesFile: Bool
    /// The CSV header's channels, set by the first input.
    private var header: [String]?
    private var rowsWritten = 0

    public init(format: Format, output: OutputFile, includesFile: Bool) {
        self.format = format
        self.output = output
        self.includesFile = includesFile
    }

    /// One input's spectrum.
    /// - Parameters:
    ///   - power: per channel, one value per frequency; NaN where the channel has none.
    /// - Throws: `SondeError(.invalidInput)` when a CSV's inputs have different channel
    ///   names (one header cannot name both); `SondeError(.io)` when writing fails.
    public func write(file: String, channelNames: [String], frequencies: [Double], power: [[Double]]) throws {
        precondition(power.count == channelNames.count && power.allSatisfy { $0.count == frequencies.count })
        switch format {
        case .csv: try writeCSV(file: file, channelNames: channelNames, frequencies: frequencies, power: power)
        case .json: try writeJSON(file: file, channelNames: channelNames, frequencies: frequencies, power: power)
        }
    }

    /// Ends the table (JSON's closing bracket) and flushes it; the caller commits the file.
    public func finish() throws {
        if format == .json {
            try output.append { $0.appendASCII(rowsWritten == 0 ? "[]\n" : "\n]\n") }
        }
        try output.flush()
    }

    private func writeCSV(file: String, channelNames: [String], frequencies: [Double], power: [[Double]]) throws {
        if let header {
            guard header == channelNames else {
                throw SondeError(
                    .invalidInput,
                    "'\(file)' has channels \(channelNames.joined(separator: ",")), the first input \(header.joined(separator: ",")): one CSV header cannot name both; use --format json or one run per input"
                )
            }
        } else {
            header = channelNames
            try output.append { bytes in
                if includesFile { bytes.appendASCII("file,") }
                bytes.appendASCII("frequency")
                for name in channelNames {
                    bytes.append(UInt8(ascii: ","))
                    bytes.appendCSVField(name)
                }
                bytes.append(10)
            }
        }
        for k in frequencies.indices {
            try output.append { bytes in
                if includesFile {
                    bytes.appendCSVField(file)
                    bytes.append(UInt8(ascii: ","))
                }
                bytes.appendNumber(frequencies[k])
                for channel in power.indices {
                    bytes.append(UInt8(ascii: ","))
                    if !power[channel][k].isNaN { bytes.appendNumber(power[channel][k]) }
                }
                bytes.append(10)
            }
        }
        rowsWritten += frequencies.count
    }

    private func writeJSON(file: String, channelNames: [String], frequencies: [Double], power: [[Double]]) throws {
        for k in frequencies.indices {
            let first = rowsWritten == 0
            rowsWritten += 1
            try output.append { bytes in
                bytes.appendASCII(first ? "[\n" : ",\n")
                bytes.append(UInt8(ascii: "{"))
                if includesFile {
                    bytes.appendASCII("\"file\":")
                    bytes.appendJSONString(file)
                    bytes.append(UInt8(ascii: ","))
                }
                bytes.appendASCII("\"frequency\":")
                bytes.appendNumber(frequencies[k])
                for channel in power.indices {
                    bytes.append(UInt8(ascii: ","))
                    bytes.appendJSONString(channelNames[channel])
                    bytes.append(UInt8(ascii: ":"))
                    if power[channel][k].isNaN {
                        bytes.appendASCII("null")
                    } else {
                        bytes.appendNumber(power[channel][k])
                    }
                }
                bytes.append(UInt8(ascii: "}"))
            }
        }
    }
}
