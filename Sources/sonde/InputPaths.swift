import Foundation
import SondeCore

#if canImport(Glibc)
import Glibc
#endif

/// Expands the FILE arguments: a directory stands for the sample files in it (sorted by
/// name), a pattern with `*`, `?` or `[` for its matches (sorted); anything else is kept
/// as given, so that a missing file is reported by the reader with its own name.
enum InputPaths {
    static let sampleExtensions: Set<String> = ["csv", "wav", "flac", "aif", "aiff", "f32", "f32le", "f64", "f64le", "i16", "i16le", "i32", "i32le", "raw"]

    static func expand(_ arguments: [String]) throws -> [String] {
        try arguments.flatMap { argument -> [String] in
            if argument == "-" { return [argument] }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: argument)
                    .filter { sampleExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted()
                guard !names.isEmpty else {
                    throw SondeError(.invalidInput, "\(argument): directory has no sample files (expected .csv, .wav, .flac, .aiff or raw .f32/.f64/.i16/.i32)")
                }
                return names.map { (argument as NSString).appendingPathComponent($0) }
            }
            if argument.contains(where: { "*?[".contains($0) }), !FileManager.default.fileExists(atPath: argument) {
                var matches = glob_t()
                defer { globfree(&matches) }
                guard glob(argument, 0, nil, &matches) == 0 else {
                    throw SondeError(.invalidInput, "\(argument): no file matches this pattern")
                }
                return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }.sorted()
            }
            return [argument]
        }
    }
}
