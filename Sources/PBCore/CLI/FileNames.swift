import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// File names as the system gives them: bytes, not text.
///
/// A name may hold any byte but NUL and `/`-separators, newlines and carriage returns included,
/// so lists of names are NUL-separated (`find -print0`, `--files0-from`), never line-separated.
/// The records carry names as JSON strings, which are Unicode: a name whose bytes are not UTF-8
/// cannot be carried without loss, so it is reported by name (its bytes escaped) instead of being
/// looked up under a repaired spelling that names no file, or another one.
public enum FileNames {
    /// One entry of a name list.
    public enum Entry: Equatable, Sendable {
        case name(String)
        /// Not UTF-8: the bytes shown with each bad byte as `\xNN`.
        case notUTF8(shown: String)
    }

    /// Splits a NUL-separated list (a final NUL is optional; empty entries are skipped).
    public static func entries(nulSeparated bytes: [UInt8]) -> [Entry] {
        bytes.split(separator: 0, omittingEmptySubsequences: true).map { entry(Array($0)) }
    }

    public static func entry(_ bytes: [UInt8]) -> Entry {
        if let s = String(validating: bytes, as: UTF8.self) { return .name(s) }
        return .notUTF8(shown: shown(bytes))
    }

    /// The bytes as text, every byte that is not part of valid UTF-8 written `\xNN`.
    public static func shown(_ bytes: [UInt8]) -> String {
        var out = ""
        var i = 0
        while i < bytes.count {
            var matched = false
            for length in (1...4).reversed() where i + length <= bytes.count {
                if let s = String(validating: bytes[i ..< i + length], as: UTF8.self), s.unicodeScalars.count == 1 {
                    out += s
                    i += length
                    matched = true
                    break
                }
            }
            if !matched {
                out += String(format: "\\x%02X", bytes[i])
                i += 1
            }
        }
        return out
    }

    /// The command-line arguments whose bytes are not UTF-8, as Swift's `CommandLine.arguments`
    /// spells them (with U+FFFD in place of the bad bytes), mapped to how `shown` writes them.
    public static func invalidArguments() -> [String: String] {
        var out: [String: String] = [:]
        for i in 0 ..< Int(CommandLine.argc) {
            guard let p = CommandLine.unsafeArgv[i] else { continue }
            let bytes = Array(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p)))
            if String(validating: bytes, as: UTF8.self) == nil {
                out[String(decoding: bytes, as: UTF8.self)] = shown(bytes)
            }
        }
        return out
    }

    public static func notUTF8Message(_ shown: String) -> String {
        "\(shown): the file name is not valid UTF-8, and records carry names as UTF-8 text; rename it (convmv -f latin1 -t utf8 --notest NAME, for one) and run again"
    }
}
