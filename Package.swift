// swift-tools-version:6.0
// PocketBrains: Unix filters over one core. The core is split into library targets with one-way
// dependencies (PBCore at the bottom, PBRetrieval on top) so a wrong-way import fails to compile.
import PackageDescription

// No -Ounchecked: every target keeps Swift's bounds and overflow checks, the parsers of what a
// user or a file hands over (NDJSON, HTML, DOCX/ZIP, safetensors headers, dates, the intent
// grammar) above all. The encoder's arithmetic is in CKernels (C, -O2), where 88% of pb-embed's
// time goes; with the Swift side checked, pb-embed on 200 SciFact abstracts took 4.9-5.0 s
// against 5.6-7.4 s unchecked (same session, a noisy shared host: no gain to keep), and pb-chunk
// on SciFact 1.8-2.0 s against 2.2-2.4 s.
let release: [SwiftSetting] = []

func program(_ name: String, _ deps: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: deps, path: "Sources/\(name)", swiftSettings: release)
}

let package = Package(
    name: "PocketBrains",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pb-chunk", targets: ["pb-chunk"]),
        .executable(name: "pb-embed", targets: ["pb-embed"]),
        .executable(name: "pb-index", targets: ["pb-index"]),
        .executable(name: "pb-search", targets: ["pb-search"]),
        .executable(name: "pb-rerank", targets: ["pb-rerank"]),
        .executable(name: "pb-pack", targets: ["pb-pack"]),
        .executable(name: "pb-answer", targets: ["pb-answer"]),
        .executable(name: "pb-verify", targets: ["pb-verify"]),
        .executable(name: "pb-date", targets: ["pb-date"]),
        .executable(name: "pb-plan", targets: ["pb-plan"]),
        .executable(name: "pb-exec", targets: ["pb-exec"]),
        .executable(name: "pb-undo", targets: ["pb-undo"]),
    ],
    targets: [
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // A C target, not a header-only shim: Foundation's bundled ICU clashes with the system headers.
        .target(name: "CICU", path: "Sources/CICU",
                linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icui18n"), .linkedLibrary("icudata")]),
        // The system CBLAS, dlopen'ed by the processes that ask for it (the `blas` reference path,
        // the benchmarks), so no program pays OpenBLAS's start-up for nothing.
        .target(name: "CBLASRuntime", path: "Sources/CBLASRuntime", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        // The system libcurl, dlopen'ed for an https:// chat endpoint only (FoundationNetworking
        // would load it, and thirty more libraries, into every start of three filters).
        .target(name: "CCurl", path: "Sources/CCurl", linkerSettings: [.linkedLibrary("dl")]),
        // The encoder's own matrix kernels (AVX-512F, AVX2+FMA, portable), chosen from CPUID at run
        // time. Optimised in debug builds too, so `swift test` runs the model at full speed.
        .target(name: "CKernels", path: "Sources/CKernels", exclude: ["kernels.inc"],
                cSettings: [.unsafeFlags(["-O2", "-fno-math-errno"])]),

        // A SIGBUS handler (async-signal-safe, so in C): a truncated mapped file is exit 74 with a message.
        .target(name: "CSignals", path: "Sources/CSignals"),

        // Records (the NDJSON contract) and CLI habits: everything else builds on these.
        .target(name: "PBCore", dependencies: ["CSignals"], swiftSettings: release),
        // Text: ICU segmentation, WordPiece, document formats, chunking.
        .target(name: "PBText", dependencies: ["PBCore", "CICU", "CZlib"], swiftSettings: release),
        // Neural: safetensors and the MiniLM encoder over its own kernels (CBLAS, loaded at run time, as the reference).
        .target(name: "PBNeural", dependencies: ["PBCore", "PBText", "CBLASRuntime", "CKernels"], swiftSettings: release),
        // Index: SQLite wrapper, library schema, the memory-mapped vector file.
        .target(name: "PBIndex", dependencies: ["PBCore", "CSQLite"], swiftSettings: release),
        // Retrieval: lexical and dense search, fusion.
        .target(name: "PBRetrieval", dependencies: ["PBCore", "PBText", "PBIndex", "PBNeural", "CKernels"], swiftSettings: release),

        // Answer: packing the desk (pb-pack), writing a cited answer (extractive, or a chat endpoint
        // over a plain socket, or libcurl for https), and the verification gates with their
        // calibration (pb-verify).
        .target(name: "PBAnswer", dependencies: ["PBCore", "PBText", "PBIndex", "PBNeural", "PBRetrieval", "CCurl"], swiftSettings: release),

        // Agent: natural dates, the intent grammar and planner, the task/project/note store with its
        // journal, tools, executor and undo (over PBIndex's SQLite wrapper).
        .target(name: "PBAgent", dependencies: ["PBCore", "PBText", "PBIndex", "PBNeural", "PBRetrieval", "CICU"], swiftSettings: release),

        program("pb-chunk", ["PBCore", "PBText"]),
        program("pb-embed", ["PBCore", "PBText", "PBNeural"]),
        program("pb-index", ["PBCore", "PBIndex"]),
        program("pb-search", ["PBCore", "PBRetrieval"]),
        program("pb-rerank", ["PBCore", "PBRetrieval"]),
        program("pb-pack", ["PBCore", "PBAnswer"]),
        program("pb-answer", ["PBCore", "PBAnswer"]),
        program("pb-verify", ["PBCore", "PBAnswer"]),
        program("pb-date", ["PBCore", "PBAgent"]),
        program("pb-plan", ["PBCore", "PBAgent"]),
        program("pb-exec", ["PBCore", "PBAgent"]),
        program("pb-undo", ["PBCore", "PBAgent"]),
        // Benchmarks for `make bench` (not installed).
        .executableTarget(name: "PBBench", dependencies: ["PBCore", "PBNeural", "PBRetrieval"], path: "Sources/PBBench", swiftSettings: release),

        .testTarget(name: "PBCoreTests", dependencies: ["PBCore"]),
        .testTarget(name: "PBTextTests", dependencies: ["PBText", "PBCore"]),
        .testTarget(name: "PBNeuralTests", dependencies: ["PBNeural", "PBCore", "CKernels"]),
        .testTarget(name: "PBIndexTests", dependencies: ["PBIndex", "PBText"]),
        .testTarget(name: "PBAgentTests", dependencies: ["PBAgent", "PBCore", "PBIndex", "PBText"]),
        .testTarget(name: "PBAnswerTests", dependencies: ["PBAnswer", "PBCore", "PBText", "PBIndex", "PBNeural", "PBRetrieval"]),
        .testTarget(name: "PBRetrievalTests", dependencies: ["PBRetrieval", "PBText", "PBCore"]),
    ]
)
