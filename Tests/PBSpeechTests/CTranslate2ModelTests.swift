import Foundation
import Testing
@testable import PBSpeech

/// A model file written byte by byte as CTranslate2's serializer writes it.
struct CTranslate2Writer {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func u16(_ v: Int) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: Int) { bytes += (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    mutating func string(_ s: String) { u16(s.utf8.count + 1); bytes += Array(s.utf8); u8(0) }

    mutating func variable(_ name: String, shape: [Int], type: UInt8, payload: [UInt8]) {
        string(name)
        u8(UInt8(shape.count))
        shape.forEach { u32($0) }
        u8(type)
        u32(payload.count)
        bytes += payload
    }

    static func model(aliases: [(String, String)] = [("decoder/projection/weight", "decoder/embeddings/weight")]) -> [UInt8] {
        var w = CTranslate2Writer()
        w.u32(6)
        w.string("WhisperSpec")
        w.u32(3)
        w.u32(3)
        let halves: [Float16] = [1, -2, 0.5, 65504, 0, 3]
        w.variable("decoder/embeddings/weight", shape: [2, 3], type: 4,
                   payload: halves.flatMap { h -> [UInt8] in let b = h.bitPattern; return [UInt8(b & 0xFF), UInt8(b >> 8)] })
        let floats: [Float] = [0.25, -1.5]
        w.variable("encoder/conv1/bias", shape: [2], type: 0,
                   payload: floats.flatMap { f -> [UInt8] in let b = f.bitPattern; return (0..<4).map { UInt8((b >> (8 * $0)) & 0xFF) } })
        w.variable("encoder/num_heads", shape: [], type: 2, payload: [6, 0])
        w.u32(aliases.count)
        for (a, t) in aliases { w.string(a); w.string(t) }
        return w.bytes
    }
}

@Suite("CTranslate2 model file")
struct CTranslate2ModelTests {
    @Test("arrays, element types, scalars and aliases read as written")
    func reads() throws {
        let m = try CTranslate2Model(data: Data(CTranslate2Writer.model()))
        #expect(m.specName == "WhisperSpec")
        #expect(m.revision == 3)
        #expect(try m.shape("decoder/embeddings/weight") == [2, 3])
        #expect(try m.floats("decoder/embeddings/weight") == [1, -2, 0.5, 65504, 0, 3])
        #expect(try m.halves("decoder/embeddings/weight") == [Float16(1), -2, 0.5, 65504, 0, 3].map(\.bitPattern))
        #expect(try m.floats("encoder/conv1/bias") == [0.25, -1.5])
        #expect(try m.integer("encoder/num_heads") == 6)
        #expect(m.same("decoder/projection/weight", "decoder/embeddings/weight"))
        #expect(!m.same("encoder/conv1/bias", "decoder/embeddings/weight"))
        #expect(throws: SpeechModelError.missingArray("encoder/conv2/weight")) { try m.floats("encoder/conv2/weight") }
    }

    @Test("a file cut short, another version, or an alias to nothing is refused with the reason")
    func refuses() {
        let whole = CTranslate2Writer.model()
        for cut in [3, 20, whole.count - 30] {
            #expect(throws: SpeechModelError.self) { try CTranslate2Model(data: Data(whole.prefix(cut))) }
        }
        var other = whole
        other[0] = 5
        #expect(throws: SpeechModelError.malformed("model.bin", "binary version 5, expected 6")) { try CTranslate2Model(data: Data(other)) }
        #expect(throws: SpeechModelError.self) {
            try CTranslate2Model(data: Data(CTranslate2Writer.model(aliases: [("a", "no/such/array")])))
        }
    }
}
