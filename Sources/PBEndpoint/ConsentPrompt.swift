import Foundation
import PBCore

/// Consent at the terminal for one payload: before a question's evidence leaves the machine for
/// a remote endpoint, the person at the terminal sees exactly what would be sent and answers yes
/// or no. `--allow-remote` says a remote endpoint may be used at all; this asks for each payload.
/// Without a terminal (a pipe, a cron job) there is nobody to ask, and `--allow-remote` is the
/// consent, as the payload is still written to standard error.
public enum ConsentPrompt {
    public enum Answer: Equatable, Sendable {
        case yes, no
        /// No terminal to ask at.
        case noTerminal
    }

    /// Asks on /dev/tty when standard error is a terminal.
    public static func ask(payload: String, destination: String) -> Answer {
        guard isatty(2) == 1 else { return .noTerminal }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return .noTerminal }
        defer { close(fd) }
        let text = "pb-answer: this would be sent to \(destination):\n"
            + TerminalText.visible(payload) + "\nSend it? [y/N] "
        _ = text.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(fd, &byte, 1) == 1, byte != 0x0A, line.count < 64 { line.append(byte) }
        return decide(String(decoding: line, as: UTF8.self))
    }

    /// "y" or "yes" (any case, spaces around) sends; anything else, an empty line included, does not.
    public static func decide(_ reply: String) -> Answer {
        let r = reply.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return r == "y" || r == "yes" ? .yes : .no
    }
}
