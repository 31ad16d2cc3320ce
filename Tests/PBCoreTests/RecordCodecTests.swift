import Foundation
import Testing
@testable import PBCore

@Suite struct RecordCodecTests {
    let codec = RecordCodec()

    @Test func unknownFieldsPassThrough() throws {
        let line = Data(#"{"kind":"query","text":"hi","zeta":[1,2],"alpha":{"x":true}}"#.utf8)
        let q = try codec.decode(QueryRecord.self, from: line)
        #expect(q.text == "hi")
        #expect(q.extra["zeta"] == .array([.number(1), .number(2)]))
        let out = String(decoding: try codec.encode(q), as: UTF8.self)
        #expect(out == #"{"kind":"query","text":"hi","alpha":{"x":true},"zeta":[1,2]}"#)
    }

    @Test func missingKindIsTheExpectedOne() throws {
        let q = try codec.decode(QueryRecord.self, from: Data(#"{"text":"x"}"#.utf8))
        #expect(q.kind == "query")
        let empty = Result { try codec.decode(QueryRecord.self, from: Data("{}".utf8)) }
        #expect(throws: RecordError.missingField("text")) { try empty.get() }
    }

    @Test func wrongKindIsRefused() {
        #expect(throws: RecordError.wrongKind(expected: "chunk", found: "query")) {
            try codec.decode(ChunkRecord.self, from: Data(#"{"kind":"query","text":"x"}"#.utf8))
        }
    }

    @Test func errorsNameTheField() {
        #expect(throws: RecordError.badField(name: "k", reason: "expected a number")) {
            try codec.decode(QueryRecord.self, from: Data(#"{"text":"x","k":"ten"}"#.utf8))
        }
        #expect(throws: RecordError.notObject) { try codec.decode(QueryRecord.self, from: Data("[1]".utf8)) }
        #expect(throws: (any Error).self) { try codec.decode(QueryRecord.self, from: Data("{not json".utf8)) }
    }

    /// Closed sets (verdict status, answer route, evidence role, mode) are enums: a value outside
    /// the set is a bad field naming the path and the values it takes (issue 17).
    @Test func closedSetsRefuseValuesOutsideThem() throws {
        let verdict = #"{"text":"x","verdict":{"status":"maybe","confidence":1,"raw":1,"mode":"standard","threshold":0.2,"gates":{},"failed":[]}}"#
        #expect(throws: RecordError.badField(name: "verdict.status", reason: "expected answered or abstained, got 'maybe'")) {
            try codec.decode(QueryRecord.self, from: Data(verdict.utf8))
        }
        let receipt = #"{"intended":"extractive","attempted":["extractive","llama"],"actual":"extractive","timings":{}}"#
        let answer = #"{"text":"x","answer":{"text":"a","sentences":[],"citations":[],"route":"extractive","receipt":\#(receipt)}}"#
        #expect(throws: RecordError.badField(name: "answer.receipt.attempted[1]", reason: "expected extractive, summary, endpoint or none, got 'llama'")) {
            try codec.decode(QueryRecord.self, from: Data(answer.utf8))
        }
        let fine = try codec.decode(QueryRecord.self, from: Data(answer.replacingOccurrences(of: #","llama""#, with: "").utf8))
        #expect(fine.answer?.receipt.attempted == [.extractive])
        #expect(String(decoding: try codec.encode(fine), as: UTF8.self).contains(#""attempted":["extractive"]"#))
        #expect(Mode.expected == "fast, standard or deep")
        #expect(EvidenceRole(rawValue: "section") == .section)
    }

    @Test func embeddingRoundTripsThroughBase64() throws {
        let values: [Float] = [0.5, -1.25, 3.0e-8, .pi]
        let e = Embedding(model: "m", values: values)
        #expect(e.vector == nil)
        #expect(try e.values() == values)
        let asArray = Embedding(model: "m", values: values, asArray: true)
        #expect(try asArray.values() == values)
        var bad = e
        bad.dim = 5
        #expect(throws: (any Error).self) { try bad.values() }
    }

    @Test func idKeepsItsJSONType() throws {
        let q = try codec.decode(QueryRecord.self, from: Data(#"{"id":42,"text":"x"}"#.utf8))
        #expect(String(decoding: try codec.encode(q), as: UTF8.self).contains(#""id":42"#))
    }
}

/// Numbers pass through as written: a whole number past 2^53 is not rounded to a Double
/// (issue 17, item 13).
@Suite struct JSONNumberTests {
    func roundTrip(_ json: String) throws -> String {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test func wholeNumbersBeyondADoubleKeepEveryDigit() throws {
        #expect(try roundTrip("12345678901234567") == "12345678901234567")
        #expect(try roundTrip("-9007199254740993") == "-9007199254740993")
        #expect(try roundTrip("9223372036854775807") == "9223372036854775807")
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("12345678901234567".utf8)) == .integer(12345678901234567))
    }

    @Test func ordinaryNumbersStayNumbers() throws {
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("42".utf8)) == .number(42))
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data("9007199254740992".utf8)) == .number(9007199254740992))
        #expect(try roundTrip("1.5") == "1.5")
        #expect(try roundTrip("42") == "42")
    }

    @Test func wholeNumberReadsBothCasesAndRefusesWhatAnIntCannotHold() {
        #expect(JSONValue.integer(12345678901234567).wholeNumber == 12345678901234567)
        #expect(JSONValue.number(7).wholeNumber == 7)
        #expect(JSONValue.number(1e20).wholeNumber == nil)
        #expect(JSONValue.number(2.5).wholeNumber == nil)
        #expect(JSONValue.integer(12345678901234567).stringValue == "12345678901234567")
    }

    /// A query's context.prompt repeats all the evidence and only the endpoint route reads it: a
    /// stage carries it as the bytes it read, decodes it only when asked, and writes its own text
    /// once it changes it (issue 17, data flows once).
    @Test func promptTravelsAsTheBytesItWasReadAs() throws {
        let codec = RecordCodec()
        // Foundation would write é itself, not \u00e9: seeing the escape in the output shows the
        // literal was carried, not decoded and re-encoded.
        let literal = #""[1] caf\u00e9 \"quoted\"\nnext""#
        let context = #"{"budget":4096,"dropped":[],"evidence":[],"instructions":"i","mode":"fast","prompt":\#(literal),"reserved":512,"used":10}"#
        let line = Data(#"{"context":\#(context),"kind":"query","text":"q"}"#.utf8)
        var q = try codec.decode(QueryRecord.self, from: line)
        #expect(q.context?.promptLiteral == Data(literal.utf8))
        #expect(q.context?.prompt == "[1] café \"quoted\"\nnext")
        #expect(try codec.encode(q) == line)
        // Any other encoder gets the text itself.
        let alone = String(decoding: try codec.encodeValue(q.context!), as: UTF8.self)
        #expect(alone.contains(#""prompt":"[1] café \"quoted\"\nnext""#))
        // Once a stage sets the prompt, its own text is written.
        q.context!.prompt = "changed"
        #expect(q.context?.promptLiteral == nil)
        #expect(String(decoding: try codec.encode(q), as: UTF8.self).contains(#""prompt":"changed""#))
        // A prompt that is not a string is still the decoder's error, naming the path.
        let bad = Data(#"{"kind":"query","text":"q","context":{"budget":1,"used":1,"reserved":0,"mode":"fast","instructions":"","prompt":7,"evidence":[],"dropped":[]}}"#.utf8)
        #expect(throws: RecordError.badField(name: "context.prompt", reason: "expected a string")) {
            try codec.decode(QueryRecord.self, from: bad)
        }
    }

    /// Chunks, hits and evidence carry one SourceSpan, written flat: the same keys at the record's
    /// own level, a missing one named by its path, and the span's fields read as the record's own.
    @Test func sourceSpansAreWrittenFlat() throws {
        let codec = RecordCodec()
        // Keys sorted, as RecordCodec writes them: the span's keys fall among the record's own.
        let chunk = #"{"chunk_id":"d-0","doc_chunks":1,"doc_hash":"h","doc_id":"d","end":9,"format":"pdf","hash":"x","kind":"chunk","library":"l","line_end":1,"line_start":1,"page_end":2,"page_start":2,"path":"/a/b.pdf","prefix":"B","section":["S"],"seq":0,"start":0,"text":"some text","title":"B","tokens":2,"words":2}"#
        let c = try codec.decode(ChunkRecord.self, from: Data(chunk.utf8))
        #expect(c.path == "/a/b.pdf" && c.span.pageStart == 2 && c.fileName == "b.pdf" && c.extra.isEmpty)
        #expect(String(decoding: try codec.encode(c), as: UTF8.self) == chunk)
        let hit = #"{"hits":[{"chunk_id":"d-0","doc_id":"d","end":9,"line_end":1,"line_start":1,"page_end":2,"page_start":2,"path":"/a/b.pdf","rank":1,"scores":{},"section":["S"],"seq":0,"start":0,"text":"some text","title":"B"}],"kind":"query","text":"q"}"#
        let q = try codec.decode(QueryRecord.self, from: Data(hit.utf8))
        #expect(q.hits?.first?.span == c.span)
        #expect(String(decoding: try codec.encode(q), as: UTF8.self) == hit)
        let missing = hit.replacingOccurrences(of: #""line_end":1,"#, with: "")
        #expect(throws: RecordError.missingField("hits[0].line_end")) { try codec.decode(QueryRecord.self, from: Data(missing.utf8)) }
    }

    @Test("a dropped hit's reason is one of the stages' own, typed, or another stage's, carried as written")
    func dropReasons() throws {
        let line = Data(#"{"kind":"query","text":"hi","dropped":[{"chunk_id":"a","reason":"beyond-k"},{"chunk_id":"b","reason":"filtered"}]}"#.utf8)
        let codec = RecordCodec()
        let q = try codec.decode(QueryRecord.self, from: line)
        #expect(q.dropped?.map(\.reason) == [DroppedHit.Reason.beyondK, .other("filtered")])
        #expect(String(decoding: try codec.encode(q), as: UTF8.self).contains(#"{"chunk_id":"b","reason":"filtered"}"#))
        for r in DroppedHit.Reason.own {
            #expect(DroppedHit.Reason(rawValue: r.rawValue) == r)
        }
    }
}
