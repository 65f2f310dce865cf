// swift-tools-version: 6.2
import PackageDescription

// The ring buffer's tests under ThreadSanitizer: a package of their own, so `make test`
// compiles SondeCore and one test file with the sanitizer, not the whole main package and
// every test target (782 s of a 2-core CI run for one suite).
//
// The sources are links to the main package's files, not copies: RingBufferTests.swift
// (Tests/SondeCoreTests) and SplitMix64.swift, the one helper of _SondeTestSupport it uses;
// the rest of that target would bring SondeDSP and FFTW into the build.

/// Settings applied to every target, once, as in the main package.
let strictSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "sonde-thread-sanitizer",
    platforms: [.macOS(.v15)],
    dependencies: [
        // `name:` fixes the identity whatever the clone's directory is called.
        .package(name: "sonde", path: "../..")
    ],
    targets: [
        .target(name: "_SondeTestSupport", path: "_SondeTestSupport"),
        .testTarget(
            name: "RingBufferTests",
            dependencies: ["_SondeTestSupport", .product(name: "SondeCore", package: "sonde")],
            path: "RingBufferTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
