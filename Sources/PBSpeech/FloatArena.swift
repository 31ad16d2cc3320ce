/// Zeroed, 64-byte aligned float buffers owned together and freed together: the scratch and
/// caches of the encoder and the decoder, allocated once so their hot loops allocate nothing.
final class FloatArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    /// A new buffer of `floats` zeros (at least one), freed with the arena.
    func buffer(_ floats: Int) -> UnsafeMutablePointer<Float> {
        let count = max(floats, 1)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: count * 4, alignment: 64)
        raw.initializeMemory(as: Float.self, repeating: 0, count: count)
        allocations.append(raw)
        return raw.bindMemory(to: Float.self, capacity: count)
    }

    deinit { allocations.forEach { $0.deallocate() } }
}
