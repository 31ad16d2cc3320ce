import Foundation
import Testing
@testable import PBCore

@Suite struct EnvironmentTests {
    @Test func homeFromPBHomeThenXDGThenHome() {
        #expect(PBEnvironment(variables: ["PB_HOME": "/p", "HOME": "/h"]).home.path == "/p")
        #expect(PBEnvironment(variables: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).home.path == "/x/pocketbrains")
        // A relative XDG_DATA_HOME is invalid by the XDG spec, and ignored.
        #expect(PBEnvironment(variables: ["XDG_DATA_HOME": "rel/data", "HOME": "/h"]).home.path == "/h/.local/share/pocketbrains")
        #expect(PBEnvironment(variables: ["HOME": "/h"]).home.path == "/h/.local/share/pocketbrains")
        #expect(PBEnvironment(variables: ["HOME": "/h"]).modelDirectory.path == "/h/.local/share/pocketbrains/models/all-MiniLM-L6-v2")
        #expect(PBEnvironment(variables: ["PB_HOME": "/p", "PB_MODEL_DIR": "/m"]).modelDirectory.path == "/m")
        #expect(PBEnvironment(variables: ["PB_HOME": "/p"]).libraryDirectory("work").path == "/p/libraries/work")
    }

    @Test func aMissingModelIsNamedWhereItWasLookedForWithTheCommandThatFetchesIt() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pb-env-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let env = PBEnvironment(variables: ["PB_MODEL_DIR": dir.path])
        #expect(!env.modelPresent)
        #expect(env.modelMissing.code == .unavailable)
        #expect(env.modelMissing.message == "no model at \(dir.path) (looked for model.safetensors and vocab.txt): run 'pocketbrains-model' to fetch it, or set PB_MODEL_DIR")
        #expect(PBEnvironment(variables: ["HOME": "/h"]).modelMissing.message.hasPrefix("no model at /h/.local/share/pocketbrains/models/all-MiniLM-L6-v2 ("))
        // The vocabulary alone is not the model.
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir.appendingPathComponent("vocab.txt").path, contents: Data())
        #expect(!env.modelPresent)
        FileManager.default.createFile(atPath: dir.appendingPathComponent("model.safetensors").path, contents: Data())
        #expect(env.modelPresent)
    }

    @Test func nowIsPBNowWhenSetElseTheClock() throws {
        let clock = Date(timeIntervalSince1970: 1_000)
        #expect(try PBEnvironment(variables: [:]).now(clock: { clock }) == clock)
        #expect(try PBEnvironment(variables: ["PB_NOW": ""]).now(clock: { clock }) == clock)
        #expect(try PBEnvironment(variables: ["PB_NOW": "2027-01-01T09:00:00Z"]).now() == Date(timeIntervalSince1970: 1_798_794_000))
        // Without an offset, UTC; a date alone is its midnight; an offset is honoured.
        #expect(try PBEnvironment(variables: ["PB_NOW": "2027-01-01T09:00"]).now() == Date(timeIntervalSince1970: 1_798_794_000))
        #expect(try PBEnvironment(variables: ["PB_NOW": "2027-01-01"]).now() == Date(timeIntervalSince1970: 1_798_761_600))
        #expect(try PBEnvironment(variables: ["PB_NOW": "2027-01-01T10:00:00+01:00"]).now() == Date(timeIntervalSince1970: 1_798_794_000))
        for bad in ["tomorrow", "2027-02-29", "2027-01-01T25:00"] {
            #expect(throws: ToolFailure.self) { try PBEnvironment(variables: ["PB_NOW": bad]).now() }
        }
    }

    @Test func libraryNamesAreSafeFolderNames() {
        for good in ["default", "work-2026", "a_b.c"] { #expect(throws: Never.self) { try PBEnvironment.validateLibraryName(good) } }
        for bad in ["", "../x", "a/b", ".hidden", "a b"] { #expect(throws: (any Error).self) { try PBEnvironment.validateLibraryName(bad) } }
    }
}
