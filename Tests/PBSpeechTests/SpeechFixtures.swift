import Foundation
import PBCore
import Testing

/// The Whisper model folder (PB_SPEECH_MODEL_DIR, else under PB_HOME: PBEnvironment's rule) and
/// the spoken fixtures in Tests/Fixtures/speech.
enum SpeechFixtures {
    static let modelDirectory: URL = PBEnvironment().speechModelDirectory
    static var modelPresent: Bool { PBEnvironment().speechModelPresent }
    static let missingModel: Comment = "Whisper model absent (set PB_SPEECH_MODEL_DIR or run `make model-speech`)"
    static var soxPresent: Bool { ExternalProgram.find("sox") != nil }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func file(_ name: String) -> String {
        packageRoot.appendingPathComponent("Tests/Fixtures/speech").appendingPathComponent(name).path
    }
}
