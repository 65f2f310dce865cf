import Foundation
import SondeCore
import SondeDSP
public import SondeIO
public import SondePipeline

/// The one wiring of sample files into the graph, for every command that reads them
/// (`process`, `report`, `spectrum`): the input list from FILE arguments and
/// `--files-from`, each input opened when the graph reaches it and checked against the
/// settings, and the columns a run writes.
public enum FileInputs {
    /// Inputs opened when the graph reaches them (but `first`, opened already), each
    /// checked to give `columns`.
    public static func lazyInputs(
        _ inputs: [SampleInput], first: PipelineGraph.Input?, columns: [String], settings: PipelineSettings,
        options: SampleSourceOptions
    ) -> PipelineGraph.Inputs {
        let first = FirstInput(first)
        return PipelineGraph.Inputs(
            count: inputs.count, name: { inputs[$0].name }, opensQuickly: { inputs[$0].opensQuickly(options: options) }
        ) { index in
            if index == 0, let opened = first.take() { return opened }
            let opened = try open(inputs[index], settings: settings, options: options)
            let rate = opened.source.format.sampleRate
            guard try settings.valueColumns(sampleRate: rate) == columns else {
                throw SondeError(
                    .invalidArgument,
                    "--bands: \(inputs[index].path) at \(rate.compactDescription) Hz gets other octave bands than the first input; process inputs of one rate together"
                )
            }
            return opened
        }
    }

    /// The columns of a dataset run: those of the first input that opens (its rate decides
    /// the octave bands). When every input fails to open: with `keepGoing` the columns any
    /// rate gives (the run then records each failure in its manifest and exits 2), unless
    /// octave bands make them depend on the rate; else the first input's error.
    public static func probeColumns(
        _ inputs: [SampleInput], settings: PipelineSettings, options: SampleSourceOptions, keepGoing: Bool
    ) throws -> [String] {
        var firstError: (any Error)?
        for input in inputs {
            do {
                let opened = try open(input, settings: settings, options: options)
                return try settings.valueColumns(sampleRate: opened.source.format.sampleRate)
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let firstError else { throw SondeError(.invalidInput, "no input to measure") }
        guard keepGoing else { throw firstError }
        if let rate = options.sampleRate, let columns = try? settings.valueColumns(sampleRate: rate) { return columns }
        // Rates high enough for any band: columns that agree at both do not depend on the rate.
        if let columns = try? settings.valueColumns(sampleRate: 192_000),
            (try? settings.valueColumns(sampleRate: 384_000)) == columns
        {
            return columns
        }
        throw firstError
    }

    /// Opens an input and checks that the filters and bands fit its rate.
    public static func open(
        _ input: SampleInput, settings: PipelineSettings, options: SampleSourceOptions
    ) throws -> PipelineGraph.Input {
        if let unopenable = input.unopenable { throw SondeError(.invalidInput, unopenable) }
        let source = try SampleSources.open(path: input.path, options: options)
        do {
            try settings.validate(sampleRate: source.format.sampleRate)
        } catch var error as SondeError {
            // Whether a filter or band fits depends on the input's rate: say which input.
            error.message += " (input '\(input.path)' is sampled at \(source.format.sampleRate.compactDescription) Hz)"
            throw error
        }
        return PipelineGraph.Input(name: input.name, source: source)
    }
}
