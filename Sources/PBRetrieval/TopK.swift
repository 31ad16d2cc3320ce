/// The k best (score, id) pairs seen, kept in a min-heap so each new candidate costs O(log k) only
/// when it beats the current k-th best.
struct TopK {
    let k: Int
    private(set) var heap: [(score: Float, id: Int32)] = []

    init(_ k: Int) {
        self.k = k
        heap.reserveCapacity(k)
    }

    /// The score a candidate must beat to enter (−∞ until k are held).
    var threshold: Float { heap.count < k ? -.infinity : heap[0].score }

    @inline(__always)
    mutating func insert(_ score: Float, _ id: Int32) {
        if heap.count < k {
            heap.append((score, id))
            var i = heap.count - 1
            while i > 0 {
                let p = (i - 1) / 2
                if heap[p].score <= heap[i].score { break }
                heap.swapAt(p, i)
                i = p
            }
        } else if score > heap[0].score {
            heap[0] = (score, id)
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < heap.count, heap[l].score < heap[m].score { m = l }
                if r < heap.count, heap[r].score < heap[m].score { m = r }
                if m == i { break }
                heap.swapAt(m, i)
                i = m
            }
        }
    }

    /// Best first; equal scores by lower id for determinism.
    func sorted() -> [(score: Float, id: Int32)] {
        heap.sorted { $0.score != $1.score ? $0.score > $1.score : $0.id < $1.id }
    }
}
