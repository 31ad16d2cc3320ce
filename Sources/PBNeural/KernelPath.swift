import CBLASRuntime
import CKernels
import Foundation
import PBCore

/// Which matrix kernels run the encoder: one of PocketBrains' own (CKernels), chosen from the
/// CPU's feature bits, or the system CBLAS as the reference and fallback.
///
/// The own paths compute every output row with the same instructions whatever the batch, so a
/// text's vector is bit-identical across batch sizes, orders, micro-batching and threads on each
/// path. Vectors from different paths agree to rounding (cosine > 0.99999), not bit for bit.
/// The `blas` path's rows may depend on the row count, as the BLAS build's kernels decide.
public enum KernelPath: String, CaseIterable, Sendable, CustomStringConvertible {
    case avx512, avx2, portable, blas

    public var description: String { rawValue }

    /// The CKernels path number; nil for `blas`.
    public var ownPath: Int32? {
        switch self {
        case .avx512: Int32(PBK_AVX512)
        case .avx2: Int32(PBK_AVX2)
        case .portable: Int32(PBK_PORTABLE)
        case .blas: nil
        }
    }

    /// Whether this CPU and OS can run the path (`blas`: whether the system CBLAS loads; asking
    /// loads it, so only ask about `blas` when about to use it).
    public var isSupported: Bool { ownPath.map { pbk_supported($0) != 0 } ?? (pbb_available() != 0) }

    /// The own path for the vector products outside the encoder (dense search's scan, late
    /// interaction): PB_KERNEL's when it names one this CPU runs, else the best. They never use
    /// the BLAS, so a `blas` (or unusable) PB_KERNEL leaves them on the best path.
    public static let vectorPath: Int32 = {
        let name = ProcessInfo.processInfo.environment["PB_KERNEL"]?.lowercased() ?? ""
        if let own = KernelPath(rawValue: name)?.ownPath, pbk_supported(own) != 0 { return own }
        return pbk_best()
    }()

    /// The fastest own path this machine supports: what runs when PB_KERNEL is not set.
    public static var best: KernelPath {
        switch Int(pbk_best()) {
        case Int(PBK_AVX512): .avx512
        case Int(PBK_AVX2): .avx2
        default: .portable
        }
    }

    /// PB_KERNEL when set (and not empty), else `best`. An unknown name is a usage error (64);
    /// a path the CPU lacks is unavailable (69): never a silent fallback to another path.
    public static func configured(_ variables: [String: String] = ProcessInfo.processInfo.environment) throws -> KernelPath {
        guard let name = variables["PB_KERNEL"], !name.isEmpty else { return best }
        guard let path = KernelPath(rawValue: name.lowercased()) else { throw KernelError.unknown(name) }
        guard path.isSupported else { throw KernelError.unsupported(path) }
        return path
    }
}

/// Why a kernel path cannot be used.
public enum KernelError: ExitStatusProviding, Equatable {
    /// PB_KERNEL names no path.
    case unknown(String)
    /// The path needs instructions this CPU (or its OS) does not have.
    case unsupported(KernelPath)

    public var exitCode: ExitCode {
        switch self {
        case .unknown: .usage
        case .unsupported: .unavailable
        }
    }

    public var description: String {
        switch self {
        case .unknown(let name):
            "PB_KERNEL: unknown kernel path '\(name)' (one of avx512, avx2, portable, blas)"
        case .unsupported(.blas):
            "PB_KERNEL: the blas path needs the system CBLAS, which did not load: \(String(cString: pbb_error()))"
        case .unsupported(let path):
            "PB_KERNEL: this CPU cannot run the \(path) path (it supports \(KernelPath.allCases.filter(\.isSupported).map(\.rawValue).joined(separator: ", ")))"
        }
    }
}
