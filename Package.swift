// swift-tools-version: 6.1
import PackageDescription

/// Settings applied to every target, once, so no target drifts from the rest.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "sonde",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "sonde", targets: ["sonde"]),
        .library(name: "SondeCore", targets: ["SondeCore"]),
        .library(name: "SondeDSP", targets: ["SondeDSP"]),
        .library(name: "SondeIO", targets: ["SondeIO"]),
        .library(name: "SondePipeline", targets: ["SondePipeline"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFTW",
            pkgConfig: "fftw3",
            providers: [.apt(["libfftw3-dev"])]
        ),
        .systemLibrary(
            name: "CSndfile",
            pkgConfig: "sndfile",
            providers: [.apt(["libsndfile1-dev"])]
        ),
        .target(name: "SondeCore"),
        .target(
            name: "SondeDSP",
            dependencies: [
                "SondeCore", "CFFTW",
                .product(name: "ComplexModule", package: "swift-numerics"),
            ]
        ),
        .target(name: "SondeIO", dependencies: ["SondeCore", "CSndfile"]),
        .target(name: "SondePipeline", dependencies: ["SondeDSP", "SondeCore"]),
        .executableTarget(
            name: "sonde",
            dependencies: [
                "SondeCore", "SondeDSP", "SondeIO", "SondePipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "_SondeTestSupport",
            dependencies: ["SondeCore"],
            path: "Tests/_SondeTestSupport"
        ),
        .testTarget(name: "SondeCoreTests", dependencies: ["SondeCore", "_SondeTestSupport"]),
        .testTarget(name: "SondeDSPTests", dependencies: ["SondeDSP", "_SondeTestSupport"]),
        .testTarget(name: "SondeIOTests", dependencies: ["SondeIO", "_SondeTestSupport"]),
        .testTarget(
            name: "SondePipelineTests",
            dependencies: ["SondePipeline", "SondeIO", "_SondeTestSupport"]
        ),
        .testTarget(name: "SondeCLITests", dependencies: ["sonde", "_SondeTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
