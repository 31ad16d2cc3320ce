// swift-tools-version:6.0
// PocketBrains: Unix filters over one core. The core is split into library targets with one-way
// dependencies (PBCore at the bottom, PBMemory on top; docs/ARCHITECTURE.md) so a wrong-way import
// fails to compile. Every Swift target keeps Swift's bounds and overflow checks (no -Ounchecked):
// the parsers of what a user or a file hands over need them, and the encoder's arithmetic, where
// pb-embed spends its time, is in CKernels (C, -O2).
import PackageDescription

let package = Package(
    name: "PocketBrains",
    platforms: [.macOS(.v14)],
    // One executable; make build links each pb-* program to it (see Sources/pocketbrains/main.swift).
    products: [
        .executable(name: "pocketbrains", targets: ["pocketbrains"]),
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
        .target(name: "PBCore", dependencies: ["CSignals"]),
        // Text: ICU segmentation, WordPiece, document formats, chunking.
        .target(name: "PBText", dependencies: ["PBCore", "CICU", "CZlib"]),
        // Neural: safetensors and the MiniLM encoder over its own kernels (CBLAS, loaded at run time, as the reference).
        .target(name: "PBNeural", dependencies: ["PBCore", "PBText", "CBLASRuntime", "CKernels"]),
        // SQLite: one small wrapper (connections, statements, errors in words) for every store:
        // the library, the agent store, the memory store and the caches.
        .target(name: "PBSQLite", dependencies: ["PBCore", "CSQLite"]),
        // Index: the library schema and the memory-mapped vector file.
        .target(name: "PBIndex", dependencies: ["PBCore", "PBSQLite"]),
        // Retrieval: lexical and dense search, fusion.
        .target(name: "PBRetrieval", dependencies: ["PBCore", "PBText", "PBSQLite", "PBIndex", "PBNeural", "CKernels"]),

        // Endpoint: an OpenAI-compatible chat server, asked over a plain socket (http) or libcurl
        // (https), with the policy on where a request may go; shared by every --endpoint route.
        .target(name: "PBEndpoint", dependencies: ["PBCore", "CCurl"]),

        // Answer: packing the desk (pb-pack), writing a cited answer (extractive, or a chat endpoint
        // over a plain socket, or libcurl for https), and the verification gates with their
        // calibration (pb-verify).
        .target(name: "PBAnswer", dependencies: ["PBCore", "PBText", "PBSQLite", "PBIndex", "PBNeural", "PBRetrieval", "PBEndpoint"]),

        // Dates: natural-language date and time phrases read against a fixed now (pb-date), shared
        // by the planner and the memory.
        .target(name: "PBDates", dependencies: ["PBCore", "PBText"]),

        // Agent: the intent grammar and planner, the task/project/note store with its
        // journal, tools, executor and undo (over PBSQLite); notes are kept searchable as a PBIndex library.
        .target(name: "PBAgent", dependencies: ["PBCore", "PBText", "PBDates", "PBSQLite", "PBIndex", "PBNeural", "PBRetrieval", "PBEndpoint", "CICU"]),

        // Memory: messages remembered as typed, dated items with workstreams and supersession
        // (pb-remember), recalled by meaning, words and time fused by rank (pb-recall).
        .target(name: "PBMemory", dependencies: ["PBCore", "PBText", "PBDates", "PBSQLite", "PBNeural", "PBRetrieval", "PBAgent", "PBEndpoint"]),

        // Voice: pb-listen, Whisper's encoder and decoder on CKernels over a CTranslate2 model
        // file, audio through sox, names checked against the contacts (PBAgent's ContactBook).
        .target(name: "PBSpeech", dependencies: ["PBCore", "PBText", "PBNeural", "PBAgent", "CKernels", "CZlib"]),

        // Every pb-* program, chosen by the name it is run by.
        .executableTarget(name: "pocketbrains",
                          dependencies: ["PBCore", "PBText", "PBNeural", "PBSQLite", "PBIndex", "PBRetrieval", "PBEndpoint", "PBAnswer", "PBDates", "PBAgent", "PBMemory", "PBSpeech"],
                          path: "Sources/pocketbrains"),
        // The parsers under libFuzzer (make fuzz builds it with -DFUZZING) or replaying kept
        // crash inputs (make test); not installed.
        .executableTarget(name: "PBFuzz", dependencies: ["PBCore", "PBText", "PBDates", "PBAgent", "PBMemory"], path: "Sources/PBFuzz"),
        // Benchmarks for `make bench` (not installed).
        .executableTarget(name: "PBBench", dependencies: ["PBCore", "PBNeural", "PBRetrieval"], path: "Sources/PBBench"),

        .testTarget(name: "PBCoreTests", dependencies: ["PBCore"]),
        .testTarget(name: "PBTextTests", dependencies: ["PBText", "PBCore"]),
        .testTarget(name: "PBNeuralTests", dependencies: ["PBNeural", "PBCore", "CKernels"]),
        .testTarget(name: "PBSQLiteTests", dependencies: ["PBSQLite"]),
        .testTarget(name: "PBIndexTests", dependencies: ["PBIndex", "PBSQLite", "PBText"]),
        .testTarget(name: "PBMemoryTests", dependencies: ["PBMemory", "PBDates", "PBEndpoint", "PBCore", "PBAgent", "PBNeural", "PBRetrieval", "PBAnswer"]),
        .testTarget(name: "PBDatesTests", dependencies: ["PBDates", "PBCore"]),
        .testTarget(name: "PBEndpointTests", dependencies: ["PBEndpoint", "PBCore"]),
        .testTarget(name: "PBAgentTests", dependencies: ["PBAgent", "PBDates", "PBEndpoint", "PBCore", "PBSQLite", "PBIndex", "PBText"]),
        .testTarget(name: "PBAnswerTests", dependencies: ["PBAnswer", "PBEndpoint", "PBCore", "PBText", "PBSQLite", "PBIndex", "PBNeural", "PBRetrieval"]),
        .testTarget(name: "PBSpeechTests", dependencies: ["PBSpeech", "PBText", "PBAgent", "PBNeural", "PBCore", "CKernels"]),
        .testTarget(name: "PBRetrievalTests", dependencies: ["PBRetrieval", "PBText", "PBCore"]),
    ]
)
