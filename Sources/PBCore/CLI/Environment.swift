import Foundation

/// Where PocketBrains keeps its data, from flags and the environment:
/// `PB_HOME` (default `${XDG_DATA_HOME:-$HOME/.local/share}/pocketbrains`), libraries under
/// `$PB_HOME/libraries/NAME`, the model under `PB_MODEL_DIR` or `$PB_HOME/models/all-MiniLM-L6-v2`,
/// the speech model under `PB_SPEECH_MODEL_DIR` or `$PB_HOME/models/whisper-tiny.en`.
public struct PBEnvironment: Sendable {
    public var home: URL
    public var modelDirectory: URL
    /// The Whisper model pb-listen runs: `PB_SPEECH_MODEL_DIR`, else `$PB_HOME/models/whisper-tiny.en`.
    public var speechModelDirectory: URL
    /// `PB_LIBRARY`: the library a program uses when no `--library` is given.
    public var library: String?
    /// `PB_NOW`, as given: the instant the programs that read the clock for what they write
    /// (pb-chunk's next occurrences of a repeating calendar event) take as now; nil when unset.
    public var nowText: String?

    public init(variables: [String: String] = ProcessInfo.processInfo.environment) {
        if let home = variables["PB_HOME"], !home.isEmpty {
            self.home = URL(fileURLWithPath: home)
        } else {
            // The XDG spec: a relative XDG_DATA_HOME is invalid and must be ignored.
            let data = variables["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? ((variables["HOME"] ?? NSHomeDirectory()) + "/.local/share")
            self.home = URL(fileURLWithPath: data).appendingPathComponent("pocketbrains")
        }
        library = variables["PB_LIBRARY"].flatMap { $0.isEmpty ? nil : $0 }
        nowText = variables["PB_NOW"].flatMap { $0.isEmpty ? nil : $0 }
        if let model = variables["PB_MODEL_DIR"], !model.isEmpty {
            modelDirectory = URL(fileURLWithPath: model)
        } else {
            modelDirectory = home.appendingPathComponent("models/all-MiniLM-L6-v2")
        }
        if let model = variables["PB_SPEECH_MODEL_DIR"], !model.isEmpty {
            speechModelDirectory = URL(fileURLWithPath: model)
        } else {
            speechModelDirectory = home.appendingPathComponent("models/whisper-tiny.en")
        }
    }

    /// Whether the model folder holds the two files every program that needs the model reads.
    public var modelPresent: Bool {
        ["model.safetensors", "vocab.txt"].allSatisfy {
            FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent($0).path)
        }
    }

    /// Whether the speech model folder holds what pb-listen reads.
    public var speechModelPresent: Bool {
        ["model.bin", "tokenizer.json"].allSatisfy {
            FileManager.default.fileExists(atPath: speechModelDirectory.appendingPathComponent($0).path)
        }
    }

    /// What a program says (status 69) when the model is not there: where it looked, and a
    /// command that works where the program runs, installed or in the source tree (`make model`
    /// runs the same script).
    public var modelMissing: ToolFailure {
        ToolFailure(.unavailable, "no model at \(modelDirectory.path) (looked for model.safetensors and vocab.txt): run 'pocketbrains-model' to fetch it, or set PB_MODEL_DIR")
    }

    /// Now: `PB_NOW` when it is set (ISO 8601; without an offset, UTC), so that a run can be
    /// repeated byte for byte on another day; else the clock. A `PB_NOW` that is not an ISO 8601
    /// time is a usage error, not the clock in silence.
    public func now(clock: () -> Date = Date.init) throws -> Date {
        guard let nowText else { return clock() }
        guard let d = ISO8601Instant.parse(nowText, zone: TimeZone(secondsFromGMT: 0)!) else {
            throw ToolFailure(.usage, "PB_NOW: expected an ISO 8601 time such as 2027-01-01T09:00:00Z, got '\(nowText)'")
        }
        return d
    }

    /// The library named by `--library`, else by `PB_LIBRARY`; nil when neither names one.
    public func libraryName(option: String?) -> String? { option ?? library }

    public func libraryDirectory(_ name: String) -> URL {
        home.appendingPathComponent("libraries").appendingPathComponent(name)
    }

    /// Library names become folder names: keep them to a safe alphabet.
    public static func validateLibraryName(_ name: String) throws {
        let ok = !name.isEmpty && name.count <= 64 && name.first != "." &&
            name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
        guard ok else {
            throw ToolFailure(.usage, "--library: '\(name)' is not a valid library name (letters, digits, '-', '_', '.')")
        }
    }
}
