import CKernels

/// Whisper's token embedding, read two ways: a token's row (the decoder's input) and every row
/// against the final state (the logits, the output projection being the same matrix).
///
/// Kept in the file's float16 when it is float16: the logits read the whole matrix for every
/// token (40 MB in halves against 80 MB widened), and the half kernels widen exactly, so the
/// logits are the same as over widened rows.
final class TokenEmbedding: @unchecked Sendable {
    // @unchecked: written only in init, read-only afterwards.
    let vocabulary: Int
    let width: Int
    private let halves: UnsafeMutablePointer<UInt16>?
    private let floats: UnsafeMutablePointer<Float>?

    init(_ m: CTranslate2Model, name: String, vocabulary: Int, width: Int) throws {
        self.vocabulary = vocabulary
        self.width = width
        let count = vocabulary * width
        if let values = try? m.halves(name) {
            let raw = UnsafeMutableRawPointer.allocate(byteCount: count * 2, alignment: 64)
            halves = raw.bindMemory(to: UInt16.self, capacity: count)
            halves!.initialize(from: values, count: count)
            floats = nil
        } else {
            let values = try m.floats(name)
            let raw = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 64)
            floats = raw.bindMemory(to: Float.self, capacity: count)
            floats!.initialize(from: values, count: count)
            halves = nil
        }
    }

    deinit {
        halves.map { UnsafeMutableRawPointer($0).deallocate() }
        floats.map { UnsafeMutableRawPointer($0).deallocate() }
    }

    /// Token `token`'s row into `out` (width floats).
    func row(_ token: Int, path: Int32, into out: UnsafeMutablePointer<Float>) {
        if let halves { pbk_widen_f16(path, halves + token * width, out, width) }
        else if let floats { out.update(from: floats + token * width, count: width) }
    }

    /// out[r] = row r . state, for rows first..<first+count.
    func scores(_ state: UnsafePointer<Float>, rows first: Int, count: Int, path: Int32, into out: UnsafeMutablePointer<Float>) {
        if let halves { pbk_dot_rows_f16(path, halves + first * width, Int32(count), Int32(width), width, state, out) }
        else if let floats { pbk_dot_rows(path, floats + first * width, Int32(count), Int32(width), width, state, out) }
    }
}
