/// Cosine of two unit-length MiniLM vectors: their dot product (float sum in index order, so
/// every caller gets bit-identical scores for the same pair).
enum UnitVectors {
    static func cosine(_ a: [Float], _ b: [Float]) -> Double {
        var s: Float = 0
        for i in 0..<min(a.count, b.count) { s += a[i] * b[i] }
        return Double(s)
    }
}
