/// Text meant for a person's terminal, made safe to print: a document, a file name or a message
/// can hold escape sequences that set the clipboard (OSC 52), the window title (OSC 0), or move the
/// cursor and rewrite an answer already shown (backspace, carriage return, CSI). Every C0 control
/// but newline and tab, DEL and every C1 control is shown as a visible symbol instead (ESC as ␛,
/// the other C0 controls as their control pictures, C1 as U+FFFD). Records (NDJSON) stay faithful:
/// this is for human-readable output and diagnostics only.
public enum TerminalText {
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            out.append(isControl(s) ? picture(s) : s)
        }
        return String(out)
    }

    static func isControl(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x0A, 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }

    /// U+2400 + c for C0 (␀ … ␟, ␛ for ESC), ␡ for DEL, U+FFFD for C1.
    static func picture(_ s: Unicode.Scalar) -> Unicode.Scalar {
        switch s.value {
        case 0x00...0x1F: return Unicode.Scalar(0x2400 + s.value)!
        case 0x7F: return "\u{2421}"
        default: return "\u{FFFD}"
        }
    }
}
