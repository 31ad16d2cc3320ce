import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps OpenBLAS single-threaded while the encoder runs its own workers.
///
/// Why: the encoder parallelises over micro-batches (each worker runs whole layers on its own
/// sequences, with no synchronisation between layers). If OpenBLAS also spawned threads inside
/// every sgemm, two workers would each ask for two BLAS threads on a two-core machine. The
/// control functions are looked up at run time because the CBLAS headers do not declare them and
/// the process may be running the reference BLAS, which has no threads to control.
enum BLASThreads {
    private typealias SetThreads = @convention(c) (Int32) -> Void
    private typealias GetThreads = @convention(c) () -> Int32

    // A null handle is RTLD_DEFAULT on glibc: search every loaded library.
    private static let setter: SetThreads? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openblas_set_num_threads")
        .map { unsafeBitCast($0, to: SetThreads.self) }
    private static let getter: GetThreads? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openblas_get_num_threads")
        .map { unsafeBitCast($0, to: GetThreads.self) }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var saved: Int32 = 1

    /// True when the process's BLAS is OpenBLAS (its thread count can be controlled).
    static var isOpenBLAS: Bool { setter != nil }

    private typealias CoreName = @convention(c) () -> UnsafePointer<CChar>?
    /// The kernel family OpenBLAS chose for this processor ("Haswell", "SkylakeX", ...; it honours
    /// OPENBLAS_CORETYPE), or nil for another BLAS. Speed figures mean little without it: on
    /// one machine here the generic "Prescott" kernels ran the encoder 2.4 times slower.
    static var coreName: String? {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "openblas_get_corename") else { return nil }
        return unsafeBitCast(symbol, to: CoreName.self)().map { String(cString: $0) }
    }

    /// Runs `body` with OpenBLAS at one thread; nested and concurrent calls share one
    /// save/restore, so the caller's setting comes back when the last one ends.
    static func singleThreaded<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        if depth == 0, let setter {
            saved = getter?() ?? 1
            setter(1)
        }
        depth += 1
        lock.unlock()
        defer {
            lock.lock()
            depth -= 1
            if depth == 0, let setter { setter(saved) }
            lock.unlock()
        }
        return try body()
    }

    /// Runs `body` with OpenBLAS at `threads` threads (for measuring sgemm), restoring afterwards.
    static func withThreads<T>(_ threads: Int, _ body: () throws -> T) rethrows -> T {
        guard let setter else { return try body() }
        lock.lock()
        let previous = getter?() ?? 1
        setter(Int32(threads))
        lock.unlock()
        defer {
            lock.lock()
            setter(previous)
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
