// swift-tools-version: 6.1
import PackageDescription

// sonde's benchmarks: a package of their own (as swift-nio's are), so the main package's
// build and tests never compile them or resolve ordo-one/benchmark.
//
// `traits: ["MallocInterposer"]` turns on the malloc counters (no jemalloc needed on Swift
// 6.3+) and leaves out the package's default `RuntimeInterposer` trait, whose package is
// not needed for these metrics.

/// Settings applied to every target, once, as in the main package.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// One executable target per group; the benchmark plugin finds them under `Benchmarks/`.
let groups: [(name: String, products: [String])] = [
    ("RingBufferBenchmarks", ["SondeCore"]),
    ("FFTBenchmarks", ["SondeCore", "SondeDSP"]),
    ("FilterBenchmarks", ["SondeDSP"]),
    ("FeatureBenchmarks", ["SondeCore", "SondeDSP"]),
    ("ReaderBenchmarks", ["SondeCore", "SondeIO"]),
    ("WriterBenchmarks", ["SondeCore", "SondeDSP", "SondeIO"]),
    ("PipelineBenchmarks", ["SondeCore", "SondeDSP", "SondeIO", "SondePipeline"]),
]

let package = Package(
    name: "sonde-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` fixes the identity whatever the clone's directory is called.
        .package(name: "sonde", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "SondeCore", package: "sonde"),
                .product(name: "SondeDSP", package: "sonde"),
                .product(name: "Benchmark", package: "benchmark"),
            ]
        )
    ]
        + groups.map { group in
            .executableTarget(
                name: group.name,
                dependencies: ["BenchmarkSupport", .product(name: "Benchmark", package: "benchmark")]
                    + group.products.map { .product(name: $0, package: "sonde") },
                path: "Benchmarks/\(group.name)",
                plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
            )
        },
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
