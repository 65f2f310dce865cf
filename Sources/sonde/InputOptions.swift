import ArgumentParser
import Foundation
import SondeCore
import SondeDSP
import SondeIO
import SondeKit
import SondePipeline

/// How to read inputs whose files do not say (raw samples, header-less CSV).
/// `parsing: .unconditional` on numeric options: argument-parser would otherwise read a
/// negative value (`--rate -5`) as an option named `-5` and answer "Missing value".
struct InputOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "Sample rate in Hz, 1e-9 to 1e12; overrides any rate in the file.",
            discussion: """
                Samples may reach a magnitude of 1e100: a larger CSV cell, f64 or sound-file \
                sample is an error naming its line and column or its index (its spectrum would \
                overflow). With output to standard output, records are written as they are \
                computed, so an error found late in an input comes after the records before it; \
                with -o nothing is published unless the run succeeds.
                """,
            valueName: "R"))
    var rate: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp("Channels interleaved in a raw input, 1 to 1024 (default 1).", valueName: "C"))
    var channels: Int?

    @Option(name: .long, help: ArgumentHelp("Read inputs as raw interleaved samples of this type.", valueName: "T"))
    var sampleType: SampleFormat?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "MATLAB, HDF5 or TDMS inputs: the arrays to read as channels, comma-separated.",
            discussion: """
                MAT variables (X105_DE_time, struct fields bearing.gs, struct arrays Y(7).Data), \
                HDF5 datasets (/group/dataset) or TDMS channels (group/channel). Without it: \
                every numeric vector or matrix of the file's most common length, with a note \
                naming what was read and what skipped. `sonde info FILE` lists them. On standard \
                input (`-`), a MAT v5/v7/v7.3, HDF5 or TDMS file is recognised by its first \
                bytes and copied to a temporary file (up to 4 GiB) to be read.
                """,
            valueName: "LIST"))
    var variables: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How a MAT or HDF5 matrix holds channels: \(ContainerOptions.orientations.joined(separator: ", ")) (auto: samples along the longer dimension).",
            valueName: "O"))
    var orientation: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "MATLAB inputs: the scalar variable holding the rate in Hz (e.g. bearing.sr).", valueName: "PATH"))
    var rateVariable: String?

    @Option(
        name: .long,
        help: ArgumentHelp("HDF5 inputs: the attribute holding the rate in Hz (e.g. sample_rate).", valueName: "NAME"))
    var rateAttribute: String?

    func validate() throws {
        try refuse(OptionRanges.problem(rate: rate), OptionRanges.problem(channels: channels))
        if let orientation, !ContainerOptions.orientations.contains(orientation) {
            throw ValidationError(
                "--orientation \(orientation): expected one of \(ContainerOptions.orientations.joined(separator: ", "))"
            )
        }
        if let variables, variables.split(separator: ",").contains(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw ValidationError("--variables '\(variables)': an empty name; expected NAME,NAME,...")
        }
    }

    /// The reading options every command that reads files hands to `SampleSources`.
    func sampleSourceOptions() -> SampleSourceOptions {
        SampleSourceOptions(
            sampleRate: rate, channels: channels, sampleType: sampleType,
            container: ContainerOptions(
                variables: variables.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
                orientation: orientation ?? "auto", rateVariable: rateVariable, rateAttribute: rateAttribute))
    }
}
