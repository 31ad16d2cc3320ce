import Foundation
import Testing
@testable import PBCore

/// The reader's pass before decoding: nesting capped at one documented depth, and no key twice.
@Suite struct JSONShapeTests {
    func decode(_ text: String) throws -> [String: JSONValue] { try RecordCodec().decodeObject(Data(text.utf8)) }

    @Test func nestingUpToTheLimitPassesAndOneMoreLevelIsRefused() throws {
        let limit = JSONShape.maximumDepth
        // The record's own object is the first level.
        let inner = limit - 1
        _ = try decode("{\"a\":" + String(repeating: "[", count: inner) + String(repeating: "]", count: inner) + "}")
        #expect(throws: RecordError.tooDeep(limit)) {
            try decode("{\"a\":" + String(repeating: "[", count: inner + 1) + String(repeating: "]", count: inner + 1) + "}")
        }
        // 512 levels, which Foundation's decoder accepts and its encoder cannot write back.
        #expect(throws: RecordError.tooDeep(limit)) {
            try decode("{\"a\":" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}")
        }
    }

    @Test func aKeyTwiceInOneObjectIsRefusedNamingIt() throws {
        #expect(throws: RecordError.duplicateKey("steps")) { try decode(#"{"kind":"plan","steps":[],"steps":[1]}"#) }
        #expect(throws: RecordError.duplicateKey("id")) { try decode(#"{"args":{"id":1,"x":{"id":2},"id":3}}"#) }
        // The same key written with an escape is the same key.
        #expect(throws: RecordError.duplicateKey("title")) { try decode(#"{"title":"a","t\u0069tle":"b"}"#) }
        #expect(RecordError.duplicateKey("steps").description == "the key 'steps' appears twice in one object")
    }

    @Test func equalKeysInDifferentObjectsAndKeyLikeStringsAreFine() throws {
        let o = try decode(#"{"a":{"id":1},"b":[{"id":2},{"id":3}],"c":"\"id\":{\"id\":[","d":"}]{[,"}"#)
        #expect(o["c"] == .string(#""id":{"id":["#))
        #expect(o["d"] == .string("}]{[,"))
        _ = try decode(#"{"a":"x\\","b":"y"}"#)
    }

    @Test func badTextAndNumbersAreNamedNotSwiftTypes() throws {
        func message(_ bytes: [UInt8]) -> String {
            do { _ = try RecordCodec().decodeObject(Data(bytes)); return "" } catch { return "\(error)" }
        }
        #expect(message(Array(#"{"text":"a"#.utf8) + [0xFF] + Array(#" b"}"#.utf8)) == "not valid JSON: the line is not valid UTF-8")
        #expect(message(Array(#"{"text":"a\ud800 b"}"#.utf8)).contains("lone surrogate"))
        #expect(message(Array(#"{"text":"a\udc00"}"#.utf8)).contains("lone surrogate"))
        #expect(message(Array("{\"text\":\"a\tb\"}".utf8)).contains("raw control character (U+0009)"))
        #expect(message(Array(#"{"k":1e309}"#.utf8)).contains("the number 1e309 is too large"))
        // What is valid stays valid: a surrogate pair, escapes, big but finite numbers.
        #expect(message(Array(#"{"text":"\ud83d\ude00 \t \u00e9","n":1e308,"m":-0.5e-3}"#.utf8)) == "")
        for bad in [message(Array(#"{"text":"a\ud800 b"}"#.utf8)), message(Array(#"{"k":1e309}"#.utf8))] {
            #expect(!bad.lowercased().contains("decodingerror") && !bad.contains("Dictionary"))
        }
    }

    @Test func aNumberThatDoesNotFitItsFieldIsNamed() throws {
        #expect(throws: RecordError.badField(name: "k", reason: "expected a whole number, got 2.5")) {
            try RecordCodec().decode(QueryRecord.self, from: Data(#"{"kind":"query","text":"x","k":2.5}"#.utf8))
        }
    }

    /// `locating` finds the string at exactly the key path: not the same key elsewhere, not in an array.
    @Test func locatesTheStringAtAKeyPath() throws {
        let text = #"{"prompt":"a","context":{"x":{"prompt":"b"},"list":["prompt"],"pro\u006dpt":"c\"d","z":1}}"#
        let bytes = Array(text.utf8)
        let range = try #require(try JSONShape.check(bytes, locating: ["context", "prompt"]))
        #expect(String(decoding: bytes[range], as: UTF8.self) == #""c\"d""#)
        #expect(try JSONShape.check(bytes, locating: ["context", "missing"]) == nil)
        #expect(try JSONShape.check(Array(#"{"context":{"prompt":5}}"#.utf8), locating: ["context", "prompt"]) == nil)
    }
}
