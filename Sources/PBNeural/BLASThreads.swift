import CBLASRuntime
import Foundation

/// Keeps OpenBLAS single-threaded while the encoder runs its own workers.
///
/// Why: the encoder parallelises over micro-batches (each worker runs whole layers on its own
/// sequences, with no synchronisation between layers). If OpenBLAS also spawned threads inside
/// every sgemm, two workers would each ask for two BLAS threads on a two-core machine. The BLAS
/// is the one CBLASRuntime loaded (only the `blas` path and the benchmarks load it); another BLAS
/// than OpenBLAS has no threads to control, and then these calls change nothing.
enum BLASThreads {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var saved: Int32 = 1

    /// True when the loaded BLAS is OpenBLAS (its thread count can be controlled).
    static var isOpenBLAS: Bool { pbb_available() != 0 && pbb_get_threads() >= 0 }

    /// The kernel family OpenBLAS chose for this processor ("Haswell", "SkylakeX", ...; it honours
    /// OPENBLAS_CORETYPE), or nil for another BLAS or none. Speed figures mean little without it:
    /// on one machine here the generic "Prescott" kernels ran the encoder 2.4 times slower.
    static var coreName: String? {
        guard pbb_available() != 0 else { return nil }
        return pbb_corename().map { String(cString: $0) }
    }

    /// Runs `body` with OpenBLAS at one thread; nested and concurrent calls share one
    /// save/restore, so the caller's setting comes back when the last one ends.
    static func singleThreaded<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        if depth == 0, isOpenBLAS {
            saved = pbb_get_threads()
            pbb_set_threads(1)
        }
        depth += 1
        lock.unlock()
        defer {
            lock.lock()
            depth -= 1
            if depth == 0, isOpenBLAS { pbb_set_threads(saved) }
            lock.unlock()
        }
        return try body()
    }

    /// Runs `body` with OpenBLAS at `threads` threads (for measuring sgemm), restoring afterwards.
    static func withThreads<T>(_ threads: Int, _ body: () throws -> T) rethrows -> T {
        guard isOpenBLAS else { return try body() }
        lock.lock()
        let previous = pbb_get_threads()
        pbb_set_threads(Int32(threads))
        lock.unlock()
        defer {
            lock.lock()
            pbb_set_threads(previous)
            lock.unlock()
        }
        return try body()
    }

    /// The worker count to use when the caller gives none: OPENBLAS_NUM_THREADS, then
    /// PB_THREADS, then the number of active processors.
    static var defaultThreadCount: Int {
        let env = ProcessInfo.processInfo.environment
        for key in ["OPENBLAS_NUM_THREADS", "PB_THREADS"] {
            if let value = env[key], let n = Int(value), n > 0 { return n }
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}
