// swift-tools-version: 6.2
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
        .library(name: "SondeAccounts", targets: ["SondeAccounts"]),
        .library(name: "SondeMeasurements", targets: ["SondeMeasurements"]),
        .library(name: "SondeStore", targets: ["SondeStore"]),
        .library(name: "SondeSQLite", targets: ["SondeSQLite"]),
        .library(name: "SondePostgres", targets: ["SondePostgres"]),
        .library(name: "SondeBatch", targets: ["SondeBatch"]),
        .library(name: "SondePlots", targets: ["SondePlots"]),
        .library(name: "SondeLive", targets: ["SondeLive"]),
        .library(name: "SondeCapture", targets: ["SondeCapture"]),
        .library(name: "SondeInstruments", targets: ["SondeInstruments"]),
        .library(name: "SondeKit", targets: ["SondeKit"]),
        .library(name: "SondeApp", targets: ["SondeApp"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-numerics", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
        // CryptoExtras' scrypt (BoringSSL's) verifies passwords hashed before Argon2id; Crypto gives SHA-256.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Device profiles are TOML.
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // The live page: an HTTP server for `stream --serve`, its /metrics, and latency percentiles.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // Hummingbird's own transport: to bound each page client's socket buffer.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
        // Only to give the server a logger that stays off stdout (swift-log's default writes there).
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // The app's Export: every measurement of a user as one zip download.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // The lab's shared store: PostgreSQL beside the embedded SQLite (issue 31).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // The app's background tick as a service of the server's group (Hummingbird runs on it).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.6.0"),
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
        // Parquet's ZSTD codec.
        .systemLibrary(
            name: "CZstd",
            pkgConfig: "libzstd",
            providers: [.apt(["libzstd-dev"])]
        ),
        // MATLAB files (v4, v5, v7, v7.3) and HDF5 recordings: the libraries made for them.
        // Password hashes: Argon2id (RFC 9106) through its reference library.
        .systemLibrary(
            name: "CArgon2",
            pkgConfig: "libargon2",
            providers: [.apt(["libargon2-dev"])]
        ),
        .systemLibrary(
            name: "CMatio",
            pkgConfig: "matio",
            providers: [.apt(["libmatio-dev"])]
        ),
        .systemLibrary(
            name: "CHDF5",
            pkgConfig: "hdf5",
            providers: [.apt(["libhdf5-dev"])]
        ),
        // ALSA capture devices (USB measurement microphones, IEPE interfaces): SondeInstruments only.
        .systemLibrary(
            name: "CALSA",
            pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]
        ),
        // Header-only C for the frame kernels, which Swift cannot spell: a fused
        // multiply-add on SIMD4<Double>, and whether the build has 256-bit registers.
        .target(name: "CKernelSupport"),
        // Linux system calls glibc declares only under _GNU_SOURCE (syncfs).
        .target(name: "CSystemCalls"),
        // Text/make_powers_of_ten.py generates ShortestDecimal+PowersOfTen.swift. CKernelSupport
        // gives the build's identity (its commit, its CPU target) to SondeVersion.
        .target(name: "SondeCore", dependencies: ["CKernelSupport"], exclude: ["Text/make_powers_of_ten.py"]),
        .target(
            name: "SondeDSP",
            dependencies: [
                "SondeCore", "CFFTW", "CKernelSupport",
                .product(name: "ComplexModule", package: "swift-numerics"),
            ],
            // Generate FrameKernels+LogarithmTable.swift and FFTWisdom.swift.
            exclude: ["Features/make_logarithm_table.py", "FFT/make_fftw_wisdom.c"]
        ),
        .target(
            name: "SondeIO",
            // CKernelSupport: the CPU's CRC-32C instruction for the dataset manifest's checksums.
            dependencies: ["SondeCore", "CSndfile", "CZstd", "CKernelSupport", "CMatio", "CHDF5"]
        ),
        .target(
            name: "SondePipeline",
            dependencies: [
                "SondeDSP", "SondeCore",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Histogram", package: "hdrhistogram-swift"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        // Accounts: users, sessions, password hashing, behind store protocols.
        .target(
            name: "SondeAccounts",
            dependencies: [
                "SondeCore", "CArgon2",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // Saved measurements: summaries, ownership, export through SondeIO's writers.
        .target(name: "SondeMeasurements", dependencies: ["SondeCore", "SondeIO", "SondeAccounts"]),
        // What both database engines share: the stored values' encoding (float64 series as
        // bytes, the JSON columns), the migrations' numbers, and the `--database` URL's syntax.
        .target(
            name: "SondeStoreFormat", dependencies: ["SondeCore", "SondeIO", "SondeAccounts", "SondeMeasurements"]),
        // The one PostgresNIO importer: PostgreSQL implementations of the same store protocols.
        .target(
            name: "SondePostgres",
            dependencies: [
                "SondeCore", "SondeAccounts", "SondeMeasurements", "SondeStoreFormat",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The one GRDB importer: SQLite implementations of the same store protocols.
        .target(
            name: "SondeSQLite",
            dependencies: [
                "SondeCore", "SondeAccounts", "SondeMeasurements", "SondeStoreFormat",
                .product(name: "GRDB", package: "GRDB.swift"),
                // sqlite3_file_control, for the persistent WAL.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]
        ),
        // The store facade: the `--database` URL, and the wiring that opens either engine from
        // it (the services, `store copy`); nothing above it names an engine.
        .target(
            name: "SondeStore",
            dependencies: [
                "SondeCore", "SondeAccounts", "SondeMeasurements", "SondeStoreFormat", "SondePostgres", "SondeSQLite",
            ]
        ),
        // The lab's one instrument and the capture `sonde measure` and the web app run on it.
        .target(
            name: "SondeCapture",
            dependencies: ["SondeCore", "SondePipeline", "SondeAccounts", "SondeMeasurements", "SondeInstruments"]
        ),
        // Real instruments: ALSA capture devices and a command's stdout, as sample sources
        // (issue 46); the one importer of CALSA.
        .target(name: "SondeInstruments", dependencies: ["SondeCore", "SondePipeline", "CALSA"]),
        // Batch runs: one output or one per input (`--output-dir`), manifests, shards, merge.
        .target(name: "SondeBatch", dependencies: ["SondeCore", "SondeIO", "SondePipeline", "CSystemCalls"]),
        // Figures as SVG (and palette PNG): spectra, trends, spectrograms; no dependencies,
        // so a live page can draw with it too.
        .target(name: "SondePlots"),
        // `sonde report` and `measurements report`: feature summaries, trends and spectra of a
        // run or a saved measurement, as one HTML page.
        .target(
            name: "SondeReport",
            dependencies: ["SondeCore", "SondeDSP", "SondeIO", "SondePipeline", "SondePlots", "SondeMeasurements"]
        ),
        // The live page of `stream --serve`: Hummingbird serves it, its Server-Sent Events and
        // the Prometheus /metrics; the one importer of both.
        .target(
            name: "SondeLive",
            dependencies: [
                "SondeCore", "SondePipeline", "SondePlots",
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The application layer under both front doors: opening the services (one wiring of the
        // concrete store, accounts, mailer and device), the run use-cases, the device's profiles.
        .target(
            name: "SondeKit",
            dependencies: [
                "SondeCore", "SondeDSP", "SondeIO", "SondePipeline", "SondeBatch", "SondeAccounts", "SondeMeasurements",
                "SondeStore", "SondeCapture", "SondeInstruments", "SondeBench", "SondeLive", "SondeReport",
                // MeasurementText: the fast %.4g of a listing's numbers.
                "CSystemCalls",
            ]
        ),
        // The app in the browser (`sonde serve`): one router, a module per screen, over the same
        // account, measurement and device services the commands use.
        .target(
            name: "SondeApp",
            dependencies: [
                "SondeCore", "SondeIO", "SondePipeline", "SondePlots", "SondeReport",
                "SondeAccounts", "SondeMeasurements", "SondeKit", "SondeCapture",
                // ConnectionLimit: the one connection cap of both servers.
                "SondeLive",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            // The stylesheet, script and icon are files, compiled into the binary as bytes
            // (`PackageResources`): nothing to install beside it, nothing fetched elsewhere.
            resources: [.embedInCode("Assets/app.css"), .embedInCode("Assets/app.js"), .embedInCode("Assets/icon.svg")]
        ),
        .executableTarget(
            name: "sonde",
            dependencies: [
                "SondeCore", "SondeDSP", "SondeIO", "SondePipeline", "SondeBatch",
                "SondeApp", "SondeKit", "SondeAccounts", "SondeMeasurements", "SondeStore", "SondeCapture",
                "SondeBench", "SondeInstruments",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The harness `sonde bench` runs (replayed device, bare FFT loop): shipped code, so under
        // Sources/ like every target of this package; the benchmark groups are Benchmarks/'s package.
        .target(name: "SondeBench", dependencies: ["SondeCore", "SondeDSP", "SondePipeline"]),
        // A test tool (saves measurements in a loop for the store's crash tests); never installed.
        .executableTarget(
            name: "sonde-save-loop",
            dependencies: ["SondeCore", "SondeMeasurements", "SondeKit"],
            path: "Tests/SaveLoop"
        ),
        .target(
            name: "_SondeTestSupport",
            dependencies: ["SondeCore", "SondeDSP"],
            path: "Tests/_SondeTestSupport"
        ),
        .testTarget(
            name: "SondeAppTests",
            dependencies: [
                "SondeApp", "SondeCapture", "SondePipeline", "SondeAccounts", "SondeMeasurements", "SondeIO",
                "SondeCore", "_SondeTestSupport",
                // ZipStreamTests reads the streamed export archive back.
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // The screens' routes run in process (AppHarness).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                // CaptureTickTests runs the tick in a service group of its own.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "SondeLiveTests",
            dependencies: [
                "SondeLive", "SondeCore", "SondePipeline", "_SondeTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "SondeKitTests",
            dependencies: [
                "SondeKit", "SondeCore", "SondeIO", "SondePipeline", "SondeBatch", "SondeAccounts", "SondeMeasurements",
                "SondeCapture", "SondeBench", "SondeDSP", "SondeInstruments", "SondeReport", "_SondeTestSupport",
            ]
        ),
        .testTarget(name: "SondeCoreTests", dependencies: ["SondeCore", "_SondeTestSupport"]),
        .testTarget(name: "SondeDSPTests", dependencies: ["SondeDSP", "_SondeTestSupport"]),
        .testTarget(name: "SondeIOTests", dependencies: ["SondeIO", "_SondeTestSupport"]),
        .testTarget(
            name: "SondePipelineTests",
            dependencies: ["SondePipeline", "SondeIO", "_SondeTestSupport"]
        ),
        .testTarget(
            name: "SondeAccountsTests",
            dependencies: ["SondeAccounts", "_SondeTestSupport"]
        ),
        .testTarget(
            name: "SondeStoreTests",
            dependencies: [
                "SondeStore", "SondeSQLite", "SondePostgres", "SondeStoreFormat", "SondeMeasurements", "SondeAccounts",
                "SondeIO", "_SondeTestSupport",
            ]
        ),
        .testTarget(
            name: "SondeCaptureTests",
            dependencies: [
                "SondeCapture", "SondeSQLite", "SondeMeasurements", "SondeAccounts", "SondePipeline", "SondeCore",
                "_SondeTestSupport",
            ]
        ),
        .testTarget(
            name: "SondeInstrumentsTests",
            dependencies: ["SondeInstruments", "SondeIO", "SondeCore", "_SondeTestSupport"]
        ),
        .testTarget(name: "SondePlotsTests", dependencies: ["SondePlots", "_SondeTestSupport"]),
        .testTarget(
            name: "SondeReportTests",
            dependencies: ["SondeReport", "SondeMeasurements", "SondeAccounts", "SondeCore", "_SondeTestSupport"]),
        .testTarget(
            name: "SondeCLITests",
            dependencies: [
                "sonde", "sonde-save-loop", "SondeStore", "SondeSQLite", "SondePostgres", "SondeStoreFormat",
                "SondeMeasurements", "SondeAccounts", "_SondeTestSupport",
                // LossyInputTests writes MP3, Opus and Vorbis files to measure.
                "CSndfile",
                // FourDigitFormatTests holds the fast %.4g to printf's.
                "CSystemCalls",
                // SpectrumEnvelopeCommandTests compares `spectrum --envelope` with the library's spectra.
                "SondeDSP",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
