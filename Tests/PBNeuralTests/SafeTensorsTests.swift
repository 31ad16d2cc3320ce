import Foundation
import Testing
@testable import PBNeural

@Suite("safetensors reader")
struct SafeTensorsTests {
    /// Writes a safetensors file from a header object and a data section; returns its URL.
    static func write(header: String, data: [UInt8], lengthOverride: UInt64? = nil) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pb-st-\(UUID().uuidString).safetensors")
        var bytes: [UInt8] = []
        let headerBytes = Array(header.utf8)
        var length = (lengthOverride ?? UInt64(headerBytes.count)).littleEndian
        withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
        bytes += headerBytes + data
        try Data(bytes).write(to: url)
        return url
    }

    static func floats(_ values: [Float]) -> [UInt8] {
        values.flatMap { v in withUnsafeBytes(of: v.bitPattern.littleEndian) { Array($0) } }
    }

    /// A small valid file: "a" F32 [2,3], "b" I64 [2], padded header as real exports do.
    static func validFile() throws -> URL {
        var header = #"{"__metadata__":{"format":"pt"},"a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},"b":{"dtype":"I64","shape":[2],"data_offsets":[24,40]}}"#
        while (header.utf8.count + 8) % 8 != 0 { header += " " }
        return try write(header: header, data: floats([1, 2, 3, 4, 5, 6]) + [UInt8](repeating: 0, count: 16))
    }

    func expectError(_ url: URL, _ check: (SafeTensorsError) -> Bool) {
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try SafeTensors(url: url)
            Issue.record("expected an error for \(url.lastPathComponent)")
        } catch let error as SafeTensorsError {
            #expect(check(error), "\(error)")
            #expect("\(error)".contains(url.path))
            #expect("\(error)" == "\(error)".lowercased() || "\(error)".contains(url.path))
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    @Test func readsTensorsWithoutCopying() throws {
        let url = try Self.validFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try SafeTensors(url: url)
        #expect(file.metadata["format"] == "pt")
        #expect(file.tensors.count == 2)
        let a = try file.float32("a", shape: [2, 3])
        #expect(Array(a) == [1, 2, 3, 4, 5, 6])
        #expect(try file.info("b").dtype == "I64")
        // Two reads hand out the same mapped storage.
        #expect(try file.float32("a").baseAddress == a.baseAddress)
    }

    @Test func lookupErrors() throws {
        let url = try Self.validFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try SafeTensors(url: url)
        #expect(throws: SafeTensorsError.unknownTensor(path: url.path, name: "c")) { try file.float32("c") }
        #expect(throws: SafeTensorsError.wrongDType(path: url.path, name: "b", expected: "F32", found: "I64")) {
            try file.float32("b")
        }
        #expect(throws: SafeTensorsError.wrongShape(path: url.path, name: "a", expected: [3, 2], found: [2, 3])) {
            try file.float32("a", shape: [3, 2])
        }
        let message = "\(SafeTensorsError.wrongShape(path: "/m", name: "a", expected: [3, 2], found: [2, 3]))"
        #expect(message == "/m: tensor a has shape [2, 3], expected [3, 2]")
    }

    @Test func missingFile() {
        let path = "/nonexistent/pb/model.safetensors"
        #expect {
            _ = try SafeTensors(url: URL(fileURLWithPath: path))
        } throws: { error in
            guard case let .cannotOpen(p, reason)? = error as? SafeTensorsError else { return false }
            return p == path && reason.contains("no such file")
        }
    }

    @Test func truncatedFiles() throws {
        // Shorter than the length field.
        let tiny = FileManager.default.temporaryDirectory.appendingPathComponent("pb-st-\(UUID().uuidString)")
        try Data([1, 2, 3]).write(to: tiny)
        expectError(tiny) { if case .truncated = $0 { return true } else { return false } }
        // Header length past the end of the file.
        expectError(try Self.write(header: "{}", data: [], lengthOverride: 1 << 20)) {
            if case .truncated = $0 { return true } else { return false }
        }
        // A length that does not fit an Int (2^63 and more): rejected, not a trap.
        for length: UInt64 in [1 << 63, .max] {
            expectError(try Self.write(header: "{}", data: [], lengthOverride: length)) {
                if case .truncated = $0 { return true } else { return false }
            }
        }
        // A tensor whose data runs past the end (the file was cut).
        let header = #"{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}"#
        expectError(try Self.write(header: header, data: Self.floats([1, 2]))) {
            if case .truncated = $0 { return true } else { return false }
        }
    }

    @Test func malformedHeaders() throws {
        let cases: [String] = [
            "not json at all",
            "[1, 2, 3]",
            #"{"a":{"dtype":"F32","shape":[2]}}"#,                                  // no offsets
            #"{"a":{"dtype":"Q4","shape":[2],"data_offsets":[0,8]}}"#,              // unknown dtype
            #"{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#,             // size mismatch
            #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[8,0]}}"#,             // reversed
            #"{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}"#,            // negative
            #"{"a":{"dtype":"F32","shape":[2.5],"data_offsets":[0,8]}}"#,           // fractional
        ]
        for header in cases {
            expectError(try Self.write(header: header, data: Self.floats([1, 2]))) {
                if case .malformedHeader = $0 { return true } else { return false }
            }
        }
    }

    @Test("a cut copy of the real model is reported as truncated",
          .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
    func truncatedRealModel() throws {
        let source = NeuralFixtures.modelDirectory.appendingPathComponent("model.safetensors")
        let handle = try FileHandle(forReadingFrom: source)
        let prefix = try handle.read(upToCount: 1 << 20) ?? Data()
        try handle.close()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pb-st-cut-\(UUID().uuidString).safetensors")
        try prefix.write(to: url)
        expectError(url) {
            if case let .truncated(_, reason) = $0 { return reason.contains("tensor") } else { return false }
        }
    }
}
