import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A domain error for reading safetensors files; messages are lowercase and name the file.
public enum SafeTensorsError: Error, CustomStringConvertible, Equatable {
    /// The file does not exist or cannot be opened or mapped.
    case cannotOpen(path: String, reason: String)
    /// The file is shorter than its header says.
    case truncated(path: String, reason: String)
    /// The header is not the JSON safetensors requires, or a tensor entry is inconsistent.
    case malformedHeader(path: String, reason: String)
    /// No tensor of that name.
    case unknownTensor(path: String, name: String)
    /// The tensor has another element type than the caller needs.
    case wrongDType(path: String, name: String, expected: String, found: String)
    /// The tensor has another shape than the caller needs.
    case wrongShape(path: String, name: String, expected: [Int], found: [Int])
    /// The model folder's config.json describes something the encoder does not implement.
    case unsupportedModel(path: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "\(path): cannot open safetensors file: \(reason)"
        case let .truncated(path, reason):
            return "\(path): truncated safetensors file: \(reason)"
        case let .malformedHeader(path, reason):
            return "\(path): malformed safetensors header: \(reason)"
        case let .unknownTensor(path, name):
            return "\(path): no tensor named \(name)"
        case let .wrongDType(path, name, expected, found):
            return "\(path): tensor \(name) has dtype \(found.lowercased()), expected \(expected.lowercased())"
        case let .wrongShape(path, name, expected, found):
            return "\(path): tensor \(name) has shape \(found), expected \(expected)"
        case let .unsupportedModel(path, reason):
            return "\(path): unsupported model: \(reason)"
        }
    }
}

/// A read-only view of a safetensors file through `mmap`: opening costs one header parse, and
/// tensors are handed out as pointers into the mapping, so loading a model copies no weights.
///
/// Layout (https://github.com/huggingface/safetensors): an 8-byte little-endian header length N,
/// N bytes of JSON `{name: {dtype, shape, data_offsets: [begin, end]}, "__metadata__": {...}}`,
/// then the data section the offsets are relative to.
public final class SafeTensors: @unchecked Sendable {
    // @unchecked: the mapping is read-only and immutable for the object's lifetime.

    public struct TensorInfo: Sendable, Equatable {
        public let dtype: String
        public let shape: [Int]
        /// Byte range inside the data section.
        public let dataRange: Range<Int>
    }

    public let path: String
    public let fileSize: Int
    /// The raw JSON header bytes (useful for fingerprinting the file).
    public let headerBytes: [UInt8]
    public let tensors: [String: TensorInfo]
    public let metadata: [String: String]

    private let base: UnsafeMutableRawPointer
    private let dataOffset: Int

    static let dtypeSizes: [String: Int] = [
        "F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1,
        "U16": 2, "U32": 4, "U64": 8, "F8_E4M3": 1, "F8_E5M2": 1,
    ]

    public init(url: URL) throws {
        let path = url.path
        self.path = path
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw SafeTensorsError.cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SafeTensorsError.cannotOpen(path: path, reason: String(cString: strerror(errno)).lowercased())
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SafeTensorsError.cannotOpen(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        fileSize = size
        guard size >= 8 else {
            throw SafeTensorsError.truncated(path: path, reason: "\(size) bytes, shorter than the 8-byte header length")
        }
        guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), mapped != MAP_FAILED else {
            throw SafeTensorsError.cannotOpen(path: path, reason: "mmap failed: " + String(cString: strerror(errno)).lowercased())
        }
        base = mapped
        // From here on, a throw must unmap: deinit does not run for a partly initialised object.
        do {
            // Compared as UInt64: a length of 2^63 or more does not fit an Int, and converting it
            // would trap instead of rejecting the file.
            let declared = UInt64(littleEndian: mapped.loadUnaligned(as: UInt64.self))
            guard declared <= UInt64(size - 8) else {
                throw SafeTensorsError.truncated(
                    path: path, reason: "header length \(declared) exceeds the \(size - 8) bytes after it")
            }
            let headerLength = Int(declared)
            guard headerLength >= 2 else {
                throw SafeTensorsError.malformedHeader(path: path, reason: "header length \(headerLength) is too small")
            }
            let header = [UInt8](UnsafeRawBufferPointer(start: mapped + 8, count: headerLength))
            headerBytes = header
            dataOffset = 8 + headerLength
            (tensors, metadata) = try Self.parseHeader(header, path: path, dataSize: size - 8 - headerLength)
        } catch {
            munmap(mapped, size)
            throw error
        }
    }

    deinit {
        munmap(base, fileSize)
    }

    private static func parseHeader(_ header: [UInt8], path: String, dataSize: Int) throws
        -> ([String: TensorInfo], [String: String])
    {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: Data(header))
        } catch {
            throw SafeTensorsError.malformedHeader(path: path, reason: "not valid json")
        }
        guard let entries = object as? [String: Any] else {
            throw SafeTensorsError.malformedHeader(path: path, reason: "not a json object")
        }
        var tensors: [String: TensorInfo] = [:]
        var metadata: [String: String] = [:]
        for (name, value) in entries {
            if name == "__metadata__" {
                guard let dict = value as? [String: Any] else {
                    throw SafeTensorsError.malformedHeader(path: path, reason: "__metadata__ is not an object")
                }
                for (k, v) in dict { metadata[k] = v as? String ?? "\(v)" }
                continue
            }
            guard let entry = value as? [String: Any],
                  let dtype = entry["dtype"] as? String,
                  let shapeValues = entry["shape"] as? [Any],
                  let offsetValues = entry["data_offsets"] as? [Any], offsetValues.count == 2
            else {
                throw SafeTensorsError.malformedHeader(
                    path: path, reason: "tensor \(name) lacks dtype, shape or data_offsets")
            }
            let shape = try shapeValues.map { try integer($0, path: path, what: "shape of \(name)") }
            let begin = try integer(offsetValues[0], path: path, what: "data_offsets of \(name)")
            let end = try integer(offsetValues[1], path: path, what: "data_offsets of \(name)")
            guard let elementSize = dtypeSizes[dtype] else {
                throw SafeTensorsError.malformedHeader(path: path, reason: "tensor \(name) has unknown dtype \(dtype)")
            }
            guard begin <= end else {
                throw SafeTensorsError.malformedHeader(path: path, reason: "tensor \(name) ends before it begins")
            }
            var count = 1
            for d in shape {
                let (product, overflow) = count.multipliedReportingOverflow(by: d)
                guard !overflow else {
                    throw SafeTensorsError.malformedHeader(path: path, reason: "tensor \(name) shape overflows")
                }
                count = product
            }
            guard count * elementSize == end - begin else {
                throw SafeTensorsError.malformedHeader(
                    path: path,
                    reason: "tensor \(name) has \(end - begin) bytes for shape \(shape) of \(dtype.lowercased())")
            }
            guard end <= dataSize else {
                throw SafeTensorsError.truncated(
                    path: path, reason: "tensor \(name) ends at byte \(end) of a \(dataSize)-byte data section")
            }
            tensors[name] = TensorInfo(dtype: dtype, shape: shape, dataRange: begin..<end)
        }
        return (tensors, metadata)
    }

    private static func integer(_ value: Any, path: String, what: String) throws -> Int {
        // JSON numbers arrive as NSNumber; an exact integral value passes whatever its spelling.
        if let v = value as? Int, v >= 0 { return v }
        if let d = value as? Double, d >= 0, d < 9_007_199_254_740_992, d == d.rounded() { return Int(d) }
        throw SafeTensorsError.malformedHeader(path: path, reason: "\(what) is not a list of non-negative integers")
    }

    /// The tensor's metadata, or `unknownTensor`.
    public func info(_ name: String) throws -> TensorInfo {
        guard let info = tensors[name] else { throw SafeTensorsError.unknownTensor(path: path, name: name) }
        return info
    }

    /// An F32 tensor as floats inside the mapping (valid while this object lives); checks the
    /// dtype, and the shape when one is given.
    public func float32(_ name: String, shape expected: [Int]? = nil) throws -> UnsafeBufferPointer<Float> {
        let info = try info(name)
        guard info.dtype == "F32" else {
            throw SafeTensorsError.wrongDType(path: path, name: name, expected: "F32", found: info.dtype)
        }
        if let expected, expected != info.shape {
            throw SafeTensorsError.wrongShape(path: path, name: name, expected: expected, found: info.shape)
        }
        let start = UnsafeRawPointer(base) + dataOffset + info.dataRange.lowerBound
        guard Int(bitPattern: start) % MemoryLayout<Float>.alignment == 0 else {
            throw SafeTensorsError.malformedHeader(path: path, reason: "tensor \(name) is not 4-byte aligned")
        }
        let count = info.dataRange.count / 4
        return UnsafeBufferPointer(start: start.bindMemory(to: Float.self, capacity: count), count: count)
    }

    /// Raw bytes of the data section (for fingerprinting); `range` is relative to its start.
    func dataBytes(_ range: Range<Int>) -> UnsafeRawBufferPointer {
        let clamped = range.clamped(to: 0..<(fileSize - dataOffset))
        return UnsafeRawBufferPointer(start: UnsafeRawPointer(base) + dataOffset + clamped.lowerBound,
                                      count: clamped.count)
    }

    var dataSize: Int { fileSize - dataOffset }
}
