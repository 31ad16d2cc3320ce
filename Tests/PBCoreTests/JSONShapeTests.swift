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
}
