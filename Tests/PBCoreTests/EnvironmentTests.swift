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

    @Test func libraryNamesAreSafeFolderNames() {
        for good in ["default", "work-2026", "a_b.c"] { #expect(throws: Never.self) { try PBEnvironment.validateLibraryName(good) } }
        for bad in ["", "../x", "a/b", ".hidden", "a b"] { #expect(throws: (any Error).self) { try PBEnvironment.validateLibraryName(bad) } }
    }
}
