import CKernels
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// The encoder's matrices in the panels of one CKernels path, packed at the first encode or
/// mapped from the panel file a previous pack left in the model folder.
///
/// Per layer: Q, K and V as one product of 3 x hidden columns (the Q part pre-scaled by
/// log2(e)/sqrt(head dimension), so attention scores come out ready for a base-2 softmax, with
/// their biases in one vector), the attention output, and the two feed-forward matrices: about
/// 42 MB for MiniLM, every matrix 64-byte aligned.
///
/// Why a file: every filter that encodes (pb-embed, pb-answer, pb-verify) starts afresh, and
/// packing cost each of them 15-20 ms of a one-question pb-ask, half of it the kernel zeroing
/// fresh pages. Mapping packed panels from the page cache costs about 2 ms. The file is only ever
/// a copy of what packing gives: its first page names the path, the panel width, the model's
/// shape and the safetensors file's size, modification time, inode and sampled fingerprint, and
/// anything that does not match exactly is packed again and the file rewritten (atomically,
/// by rename). When the folder is not writable the panels are packed in memory every time.
final class PackedBertWeights: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards by every worker.
    struct Layer {
        let qkv, attentionOutput, intermediate, output: UnsafePointer<Float>
        let qkvBias: UnsafePointer<Float>
    }

    /// Bump when the packed layout changes in a way the key does not show (kernels.inc's pack).
    static let formatVersion = 1
    /// The file's first page: the key, NUL-padded.
    static let headerBytes = 4096

    let path: Int32
    let layers: [Layer]
    /// Whether the panels came from the file rather than from packing.
    let fromFile: Bool
    private let region: UnsafeMutableRawPointer
    private let regionBytes: Int
    private enum Backing { case anonymous, file, heap }
    private let backing: Backing

    /// Float offsets of one layer's five blocks, and the floats of a layer.
    private struct Layout {
        let sizes: [Int]
        let perLayer: Int
        let floats: Int
        let qkvPart: Int

        init(_ c: BertConfig, path: Int32) {
            let h = c.hidden
            sizes = [pbk_packed_size(path, Int32(3 * h), Int32(h)), pbk_packed_size(path, Int32(h), Int32(h)),
                     pbk_packed_size(path, Int32(c.intermediate), Int32(h)), pbk_packed_size(path, Int32(h), Int32(c.intermediate)),
                     3 * h].map { ($0 + 15) / 16 * 16 }
            perLayer = sizes.reduce(0, +)
            floats = perLayer * c.layers
            qkvPart = pbk_packed_size(path, Int32(h), Int32(h))
        }

        func layers(_ base: UnsafeMutablePointer<Float>, count: Int) -> [(qkv: UnsafeMutablePointer<Float>, attentionOutput: UnsafeMutablePointer<Float>,
                                                                          intermediate: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>,
                                                                          bias: UnsafeMutablePointer<Float>)] {
            (0..<count).map { index in
                var at = base + index * perLayer
                func next(_ size: Int) -> UnsafeMutablePointer<Float> { defer { at += size }; return at }
                return (next(sizes[0]), next(sizes[1]), next(sizes[2]), next(sizes[3]), next(sizes[4]))
            }
        }
    }

    /// The panels for `w` on `path`: mapped from `file` when it holds them under `key`, else
    /// packed (and written to `file` for the next process, when given).
    convenience init(_ w: BertWeights, path: Int32, file: URL? = nil, key: String = "") {
        let layout = Layout(w.config, path: path)
        let fullKey = Self.fullKey(key, w.config, path: path, layout: layout)
        if let file, let mapped = Self.mapFile(file, key: fullKey, floats: layout.floats) {
            self.init(path: path, layout: layout, layerCount: w.layers.count, region: mapped.region, bytes: mapped.bytes, backing: .file)
            return
        }
        let bytes = layout.floats * 4
        let (region, backing) = Self.allocate(bytes)
        Self.pack(w, path: path, layout: layout, into: region.bindMemory(to: Float.self, capacity: layout.floats))
        self.init(path: path, layout: layout, layerCount: w.layers.count, region: region, bytes: bytes, backing: backing)
        if let file { Self.write(file, key: fullKey, region: region, bytes: bytes) }
    }

    private init(path: Int32, layout: Layout, layerCount: Int, region: UnsafeMutableRawPointer, bytes: Int, backing: Backing) {
        self.path = path
        self.region = region
        regionBytes = bytes
        self.backing = backing
        fromFile = backing == .file
        let base = region.bindMemory(to: Float.self, capacity: layout.floats)
        layers = layout.layers(base, count: layerCount).map {
            Layer(qkv: UnsafePointer($0.qkv), attentionOutput: UnsafePointer($0.attentionOutput),
                  intermediate: UnsafePointer($0.intermediate), output: UnsafePointer($0.output), qkvBias: UnsafePointer($0.bias))
        }
    }

    deinit {
        switch backing {
        case .anonymous, .file: munmap(region, regionBytes)
        case .heap: region.deallocate()
        }
    }

    private static func fullKey(_ key: String, _ c: BertConfig, path: Int32, layout: Layout) -> String {
        "pocketbrains encoder panels \(formatVersion)\npath \(String(cString: pbk_name(path))) nr \(pbk_packed_size(path, 1, 1))"
            + " hidden \(c.hidden) heads \(c.heads) inner \(c.intermediate) layers \(c.layers) floats \(layout.floats)\n\(key)\n"
    }

    /// Packs every layer, the layers on all cores.
    private static func pack(_ w: BertWeights, path: Int32, layout: Layout, into base: UnsafeMutablePointer<Float>) {
        let c = w.config
        let h = c.hidden, inner = c.intermediate
        let scale = Float(1.4426950408889634 / Double(c.headDimension).squareRoot())
        precondition(layout.qkvPart * 3 == pbk_packed_size(path, Int32(3 * h), Int32(h)), "packing: hidden size is not whole panels")
        struct Job: @unchecked Sendable {
            let layer: BertLayerWeights
            let qkv, attentionOutput, intermediate, output, bias: UnsafeMutablePointer<Float>
        }
        let jobs = zip(w.layers, layout.layers(base, count: w.layers.count)).map {
            Job(layer: $0, qkv: $1.qkv, attentionOutput: $1.attentionOutput, intermediate: $1.intermediate, output: $1.output, bias: $1.bias)
        }
        let part = layout.qkvPart
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let job = jobs[index], l = job.layer
            /// A PyTorch weight [n, k] (out, in) as the right-hand operand B = W^T.
            func pack(_ weight: UnsafePointer<Float>, n: Int, k: Int, into out: UnsafeMutablePointer<Float>) {
                pbk_pack(path, weight, 1, k, Int32(n), Int32(k), out)
            }
            // [Wq * scale; Wk; Wv] as one [3h, h] weight: panels run column block after column
            // block and h is a whole number of panels on every path, so the three packed one
            // after another are the stacked weight packed. Q is scaled where it lies (a packed
            // value is a copy, so scaling after packing gives the same floats as before).
            pack(l.query, n: h, k: h, into: job.qkv)
            pack(l.key, n: h, k: h, into: job.qkv + part)
            pack(l.value, n: h, k: h, into: job.qkv + 2 * part)
            for i in 0..<part { job.qkv[i] *= scale }
            for j in 0..<h { job.bias[j] = l.queryBias[j] * scale }
            (job.bias + h).update(from: l.keyBias, count: h)
            (job.bias + 2 * h).update(from: l.valueBias, count: h)
            pack(l.attentionOutput, n: h, k: h, into: job.attentionOutput)
            pack(l.intermediate, n: inner, k: h, into: job.intermediate)
            pack(l.output, n: h, k: inner, into: job.output)
        }
    }

    /// Anonymous memory asking for 2 MiB pages (a hint; where the kernel gives none it is
    /// ordinary memory), or the allocator if mmap fails.
    private static func allocate(_ bytes: Int) -> (UnsafeMutableRawPointer, Backing) {
        if let raw = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED {
            _ = madvise(raw, bytes, 14 /* MADV_HUGEPAGE */)
            return (raw, .anonymous)
        }
        return (UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64), .heap)
    }

    /// The file's panels, mapped read-only, when its size and first page are exactly what `key`
    /// and `floats` say; nil otherwise (missing, another model, another path, cut short).
    private static func mapFile(_ url: URL, key: String, floats: Int) -> (region: UnsafeMutableRawPointer, bytes: Int)? {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        let total = headerBytes + floats * 4
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == total else { return nil }
        var header = [UInt8](repeating: 0, count: headerBytes)
        guard pread(fd, &header, headerBytes, 0) == headerBytes else { return nil }
        let expected = Array(key.utf8)
        guard expected.count < headerBytes, Array(header.prefix(expected.count)) == expected,
              header[expected.count...].allSatisfy({ $0 == 0 }) else { return nil }
        // MAP_POPULATE: one call maps every page (they are in the page cache after the first run).
        guard let base = mmap(nil, total, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0), base != MAP_FAILED else { return nil }
        // The panels start at the page after the header; unmap that header page.
        munmap(base, headerBytes)
        return (base + headerBytes, floats * 4)
    }

    /// Writes the panels for the next process: a temporary file in the same folder, flushed,
    /// then renamed over the old one, so a reader sees the old file or the new one, never a part.
    /// Any failure (a read-only folder, a full disk) leaves things as they were.
    private static func write(_ url: URL, key: String, region: UnsafeMutableRawPointer, bytes: Int) {
        var template = Array(url.deletingLastPathComponent().appendingPathComponent(".panels-XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return }
        let temporary = String(cString: template)
        var ok = true
        var header = Array(key.utf8)
        header += [UInt8](repeating: 0, count: headerBytes - header.count)
        func put(_ p: UnsafeRawPointer, _ count: Int) {
            var done = 0
            while ok, done < count {
                let n = systemWrite(fd, p + done, count - done)
                if n > 0 { done += n } else if n < 0, errno == EINTR { continue } else { ok = false }
            }
        }
        header.withUnsafeBytes { put($0.baseAddress!, headerBytes) }
        put(region, bytes)
        ok = ok && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        ok = close(fd) == 0 && ok
        if !ok || rename(temporary, url.path) != 0 { unlink(temporary) }
    }
}
