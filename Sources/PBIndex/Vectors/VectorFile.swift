import Foundation
import PBCore
#if canImport(Glibc)
import Glibc
#endif

/// The library's vectors: a 256-byte header, then rows of `dim` little-endian float32.
///
/// Header: magic "PBVECTOR" (8 bytes), version u32, dim u32, committed rows u64, model id (96 bytes,
/// NUL-padded UTF-8), weights fingerprint (128 bytes), rest zero. The authoritative committed row
/// count is the one in SQLite, written in the same transaction as the chunks that use the rows;
/// rows are appended and fsynced *before* that commit, and on open any rows past the committed
/// count (left by a killed run) are cut off. So a crash at any moment leaves a usable library.
public final class VectorFile {
    public static let magic: [UInt8] = Array("PBVECTOR".utf8)
    public static let version: UInt32 = 1
    public static let headerSize = 256

    public let path: String
    public let dim: Int
    public let model: String
    public let weights: String
    public private(set) var rows: Int
    private let fd: Int32
    private var mapping: (pointer: UnsafeMutableRawPointer, length: Int)?

    /// The vector width a file's header names, without opening it as a library would; nil when
    /// it is not a PocketBrains vector file.
    public static func headerDimension(path: String) -> Int? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var header = [UInt8](repeating: 0, count: headerSize)
        guard pread(fd, &header, header.count, 0) == header.count, Array(header[0..<8]) == magic else { return nil }
        let dim = Int(header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self)) })
        return dim > 0 ? dim : nil
    }

    /// Opens the file. A writer (the one holding the library's write lock) creates it for
    /// `dim`/`model` if absent and trims rows past `committedRows`; a reader never changes it and
    /// sees only the committed rows, even while a writer appends more.
    public init(path: String, committedRows: Int, create: (dim: Int, model: String, weights: String)?, writable: Bool = true) throws {
        self.path = path
        let exists = FileManager.default.fileExists(atPath: path)
        guard exists || writable else { throw VectorFileError.io(path: path, reason: "no such file") }
        let fd = writable ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw VectorFileError.io(path: path, reason: String(cString: strerror(errno))) }
        self.fd = fd
        var header = [UInt8](repeating: 0, count: Self.headerSize)
        let size = Int(lseek(fd, 0, SEEK_END))
        if !exists || size == 0 {
            guard let create else {
                close(fd)
                throw VectorFileError.io(path: path, reason: "no vector file and nothing to create it with")
            }
            dim = create.dim
            model = create.model
            weights = create.weights
            rows = 0
            header = Self.encodeHeader(dim: dim, rows: 0, model: model, weights: weights)
            guard pwrite(fd, header, header.count, 0) == header.count, fsync(fd) == 0 else {
                close(fd)
                throw VectorFileError.io(path: path, reason: String(cString: strerror(errno)))
            }
            return
        }
        guard size >= Self.headerSize, pread(fd, &header, header.count, 0) == header.count,
              Array(header[0..<8]) == Self.magic else {
            close(fd)
            throw VectorFileError.badHeader(path: path, reason: "not a PocketBrains vector file")
        }
        let version = header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 8, as: UInt32.self)) }
        guard version == Self.version else {
            close(fd)
            throw VectorFileError.badHeader(path: path, reason: "version \(version), this program reads \(Self.version)")
        }
        dim = Int(header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 12, as: UInt32.self)) })
        model = Self.string(header[24..<120])
        weights = Self.string(header[120..<248])
        let available = (size - Self.headerSize) / (dim * 4)
        guard available >= committedRows else {
            close(fd)
            throw VectorFileError.badHeader(path: path, reason: "holds \(available) rows but the index committed \(committedRows): the file was truncated or replaced")
        }
        rows = committedRows
        // Rows past the committed count belong to a run that never committed: drop them.
        if writable, size != Self.headerSize + committedRows * dim * 4 {
            guard ftruncate(fd, off_t(Self.headerSize + committedRows * dim * 4)) == 0 else {
                close(fd)
                throw VectorFileError.io(path: path, reason: String(cString: strerror(errno)))
            }
        }
    }

    deinit {
        unmap()
        close(fd)
    }

    /// Appends rows (flattened, `count * dim` floats) and makes them durable; returns the first new row.
    /// They are not committed until the caller's SQLite transaction records the new count.
    public func append(_ values: [Float]) throws -> Int {
        precondition(values.count % dim == 0)
        let first = rows
        let offset = off_t(Self.headerSize + first * dim * 4)
        // pwrite may write less than asked (a full disk takes what fits and fails on the next
        // call), so loop; errno is read only right after the call that failed, never stale.
        try values.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let n = pwrite(fd, buffer.baseAddress! + done, buffer.count - done, offset + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw VectorFileError.io(path: path, reason: "append failed: \(String(cString: strerror(errno)))")
                }
                guard n > 0 else { throw VectorFileError.io(path: path, reason: "append failed: nothing written") }
                done += n
            }
        }
        guard fsync(fd) == 0 else {
            throw VectorFileError.io(path: path, reason: "append failed: fsync: \(String(cString: strerror(errno)))")
        }
        rows += values.count / dim
        return first
    }

    /// Overwrites rows with zeros and makes that durable: the vectors of deleted chunks, which no
    /// chunk refers to any more, leave the file's bytes (row numbers stay, so no mapping changes
    /// and a reader mid-search at worst scores a deleted chunk's row as zero). Rows already zero
    /// are not written again. Returns the rows zeroed.
    @discardableResult
    public func zero(rows dead: [Int]) throws -> Int {
        let stride = dim * 4
        let zeros = [UInt8](repeating: 0, count: stride)
        let current = try mapped()
        var written = 0
        for row in dead where row >= 0 && row < rows {
            let values = UnsafeBufferPointer(rebasing: current[(row * dim)..<((row + 1) * dim)])
            guard values.contains(where: { $0.bitPattern != 0 }) else { continue }
            let offset = off_t(Self.headerSize + row * stride)
            var done = 0
            while done < stride {
                let n = zeros.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, stride - done, offset + off_t(done)) }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { throw VectorFileError.io(path: path, reason: "cannot clear a deleted row: \(String(cString: strerror(errno)))") }
                done += n
            }
            written += 1
        }
        if written > 0, fsync(fd) != 0 {
            throw VectorFileError.io(path: path, reason: "cannot clear deleted rows: fsync: \(String(cString: strerror(errno)))")
        }
        return written
    }

    /// Forgets appended rows after a failed commit.
    public func rollback(toRows n: Int) {
        rows = n
        _ = ftruncate(fd, off_t(Self.headerSize + n * dim * 4))
    }

    /// Records the committed count in the header too (advisory: SQLite's count is the authority).
    public func writeHeaderCount() {
        var n = UInt64(rows).littleEndian
        _ = withUnsafeBytes(of: &n) { pwrite(fd, $0.baseAddress, 8, 16) }
    }

    /// The committed rows, memory-mapped read-only (mapped once; remapped if rows were added).
    public func mapped() throws -> UnsafeBufferPointer<Float> {
        let length = Self.headerSize + rows * dim * 4
        if let m = mapping, m.length != length { unmap() }
        if mapping == nil {
            guard rows > 0 else { return UnsafeBufferPointer(start: nil, count: 0) }
            let p = mmap(nil, length, PROT_READ, MAP_SHARED, fd, 0)
            guard let p, p != MAP_FAILED else {
                throw VectorFileError.io(path: path, reason: "mmap failed: \(String(cString: strerror(errno)))")
            }
            // WILLNEED, not SEQUENTIAL: searches read the rows again and again, and SEQUENTIAL lets
            // the kernel drop pages right behind the reader (measured: 3x slower at 1M rows).
            madvise(p, length, MADV_WILLNEED)
            mapping = (p, length)
        }
        let base = (mapping!.pointer + Self.headerSize).assumingMemoryBound(to: Float.self)
        return UnsafeBufferPointer(start: base, count: rows * dim)
    }

    private func unmap() {
        if let m = mapping { munmap(m.pointer, m.length) }
        mapping = nil
    }

    static func encodeHeader(dim: Int, rows: Int, model: String, weights: String) -> [UInt8] {
        var h = [UInt8](repeating: 0, count: headerSize)
        h.replaceSubrange(0..<8, with: magic)
        func put32(_ v: UInt32, _ at: Int) { for i in 0..<4 { h[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) } }
        put32(version, 8)
        put32(UInt32(dim), 12)
        for i in 0..<8 { h[16 + i] = UInt8(truncatingIfNeeded: UInt64(rows) >> (8 * UInt64(i))) }
        let m = Array(model.utf8.prefix(95)), w = Array(weights.utf8.prefix(127))
        h.replaceSubrange(24..<(24 + m.count), with: m)
        h.replaceSubrange(120..<(120 + w.count), with: w)
        return h
    }

    static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

/// Why the vector file cannot be used.
public enum VectorFileError: Error, CustomStringConvertible, ExitStatusProviding {
    /// The file is not ours, of another version, or shorter than the index says.
    case badHeader(path: String, reason: String)
    /// A read, write or sync failed.
    case io(path: String, reason: String)

    public var description: String {
        switch self {
        case let .badHeader(path, reason): return "\(path): \(reason)"
        case let .io(path, reason): return "\(path): \(reason)"
        }
    }

    public var exitCode: ExitCode { .ioError }
}
