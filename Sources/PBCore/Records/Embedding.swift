import Foundation

/// A vector as it travels between stages: base64 of little-endian float32 by default (11x faster
/// through Foundation's JSON than a float array, and half the size), or a plain array on request.
public struct Embedding: Codable, Equatable, Sendable {
    public var model: String
    public var dim: Int
    /// Fingerprint of the weights that made the vector; libraries refuse vectors of other weights.
    public var weights: String?
    public var f32le_b64: String?
    public var vector: [Float]?
    /// When the input was longer than the embedder's window: its whole length in WordPiece
    /// tokens ([CLS] and [SEP] included). The vector then stands for the beginning only.
    public var truncated_from: Int?

    public init(model: String, weights: String? = nil, values: [Float], asArray: Bool = false, truncatedFrom: Int? = nil) {
        self.model = model
        self.weights = weights
        truncated_from = truncatedFrom
        self.dim = values.count
        if asArray {
            vector = values
        } else {
            f32le_b64 = Data(Self.littleEndianBytes(values)).base64EncodedString()
        }
    }

    /// The values, checked against `dim`.
    public func values() throws -> [Float] {
        if let vector {
            guard vector.count == dim else {
                throw RecordError.badField(name: "embedding.vector", reason: "has \(vector.count) values, dim says \(dim)")
            }
            return vector
        }
        guard let b64 = f32le_b64, let data = Data(base64Encoded: b64) else {
            throw RecordError.badField(name: "embedding", reason: "expected f32le_b64 (base64) or vector (array)")
        }
        guard data.count == dim * 4 else {
            throw RecordError.badField(name: "embedding.f32le_b64", reason: "holds \(data.count / 4) floats, dim says \(dim)")
        }
        return data.withUnsafeBytes { Self.floats(littleEndian: $0, count: dim) }
    }

    /// Float32 values as little-endian bytes: the layout of `f32le_b64`, the vector file and the
    /// sentence-vector cache.
    public static func littleEndianBytes(_ values: [Float]) -> [UInt8] {
        var le = values.map { $0.bitPattern.littleEndian }
        return le.withUnsafeMutableBytes { Array($0) }
    }

    /// The first `count` little-endian float32 values of `raw`.
    public static func floats(littleEndian raw: UnsafeRawBufferPointer, count: Int) -> [Float] {
        (0..<count).map { Float(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))) }
    }
}
