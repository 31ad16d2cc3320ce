import Foundation
import PBCore

/// RFC 5545 text: escaping, line folding at 75 octets, CRLF line ends; reading events back.
public enum ICalendarFile {
    public static let crlf = "\r\n"

    /// TEXT values: backslash, semicolon and comma escaped, every line break (CRLF, LF, a bare
    /// CR) as `\n`. RFC 5545 allows no other control in TEXT but TAB: each is U+FFFD.
    public static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\r\n", "\n", "\r": out += "\\n"
            default:
                for s in ch.unicodeScalars { out.unicodeScalars.append(isControl(s) ? "\u{FFFD}" : s) }
            }
        }
        return out
    }

    /// A C0 control other than TAB, DEL or a C1 control: none may stand in a content line.
    static func isControl(_ s: Unicode.Scalar) -> Bool {
        (s.value < 0x20 && s != "\t") || (0x7F...0x9F).contains(s.value)
    }

    public static func unescape(_ text: String) -> String {
        var out = ""
        var it = text.makeIterator()
        while let ch = it.next() {
            guard ch == "\\" else { out.append(ch); continue }
            switch it.next() {
            case "n"?, "N"?: out += "\n"
            case let c?: out.append(c)
            case nil: out += "\\"
            }
        }
        return out
    }

    /// One content line folded so that no line is longer than 75 octets (CRLF not counted);
    /// continuation lines start with a space, and a UTF-8 sequence is never split. A control
    /// left in the line by its caller is written as U+FFFD: a raw CR or LF would end the line
    /// and start one of the value's choosing (an ATTENDEE, a BEGIN:VALARM).
    public static func fold(_ line: String) -> String {
        var safe = String.UnicodeScalarView()
        for s in line.unicodeScalars { safe.append(isControl(s) ? "\u{FFFD}" : s) }
        let bytes = Array(String(safe).utf8)
        guard bytes.count > 75 else { return String(safe) + crlf }
        var out: [UInt8] = []
        var i = 0
        var limit = 75
        while i < bytes.count {
            var end = min(i + limit, bytes.count)
            // Back up to a character boundary (a UTF-8 continuation byte is 10xxxxxx).
            while end < bytes.count, end > i, bytes[end] & 0xC0 == 0x80 { end -= 1 }
            if !out.isEmpty { out += [13, 10, 32] }
            out += bytes[i..<end]
            i = end
            limit = 74
        }
        out += [13, 10]
        return String(decoding: out, as: UTF8.self)
    }

    public static func header() -> String {
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//PocketBrains//pb-exec \(PocketBrains.version)//EN", "CALSCALE:GREGORIAN"]
            .map(fold).joined()
    }

    public static let footer = "END:VCALENDAR\r\n"

    /// A component (`VTODO`, `VEVENT`) from property lines, each folded.
    public static func component(_ name: String, _ properties: [String]) -> String {
        (["BEGIN:\(name)"] + properties + ["END:\(name)"]).map(fold).joined()
    }

    /// `20261129T190000Z` for an instant, `VALUE=DATE:20261128` form handled by the caller.
    public static func utcStamp(_ date: Date) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(secondsFromGMT: 0)!
        let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    public static func dateValue(_ day: String) -> String { day.replacingOccurrences(of: "-", with: "") }

    /// Inserts components before the calendar's last `END:VCALENDAR` (or starts a new calendar).
    public static func appending(_ components: String, to existing: String?) throws -> String {
        guard let existing, !existing.isEmpty else { return header() + components + footer }
        guard let range = existing.range(of: "END:VCALENDAR", options: .backwards) else {
            throw AgentError.conflict("not an iCalendar file (no END:VCALENDAR)")
        }
        return String(existing[..<range.lowerBound]) + components + String(existing[range.lowerBound...])
    }

    /// Physical lines with their line ends, for editing a file without touching other bytes.
    static func physicalLines(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        var start = text.startIndex
        var i = text.startIndex
        while i < text.endIndex {
            if text[i] == "\n" || text[i] == "\r\n" {
                let next = text.index(after: i)
                lines.append(text[start..<next])
                start = next
                i = next
            } else {
                i = text.index(after: i)
            }
        }
        if start < text.endIndex { lines.append(text[start...]) }
        return lines
    }

    /// The text without the VTODO/VEVENT components whose UID is in `uids`; all other bytes kept.
    public static func removing(uids: Set<String>, from text: String) -> String {
        let lines = physicalLines(text)
        var out = ""
        var block: [Substring] = []
        var inBlock = false
        for line in lines {
            let content = line.trimmingCharacters(in: .newlines)
            if !inBlock, content == "BEGIN:VTODO" || content == "BEGIN:VEVENT" {
                inBlock = true
                block = [line]
                continue
            }
            if inBlock {
                block.append(line)
                if content == "END:VTODO" || content == "END:VEVENT" {
                    inBlock = false
                    let props = unfold(block.joined())
                    let uid = props.first(where: { $0.name == "UID" })?.value
                    if uid == nil || !uids.contains(uid!) { out += block.joined() }
                    block = []
                }
                continue
            }
            out += line
        }
        out += block.joined()
        return out
    }

    /// Inserts components before the VEVENT whose UID is `uid` (where a removed event stood),
    /// or before the calendar's end when there is none.
    public static func inserting(_ components: String, beforeEvent uid: String?, in existing: String?) throws -> String {
        guard let uid, let existing else { return try appending(components, to: existing) }
        var offset = existing.startIndex
        for line in physicalLines(existing) {
            if line.trimmingCharacters(in: .newlines) == "BEGIN:VEVENT",
               let block = events(in: String(existing[line.startIndex...])).first, block.uid == uid {
                return String(existing[..<offset]) + components + String(existing[offset...])
            }
            offset = line.endIndex
        }
        return try appending(components, to: existing)
    }

    /// The VEVENT components of a file, each as its physical lines (line ends kept) with its UID,
    /// so one can be taken out and later put back byte for byte.
    public static func events(in text: String) -> [(uid: String?, text: String)] {
        var out: [(uid: String?, text: String)] = []
        var block: [Substring]?
        for line in physicalLines(text) {
            let content = line.trimmingCharacters(in: .newlines)
            if block == nil {
                if content == "BEGIN:VEVENT" { block = [line] }
                continue
            }
            block!.append(line)
            if content == "END:VEVENT" {
                let joined = block!.joined()
                out.append((unfold(joined).first(where: { $0.name == "UID" })?.value, joined))
                block = nil
            }
        }
        return out
    }

    public static func componentCount(_ text: String) -> Int {
        unfold(text).filter { $0.name == "BEGIN" && ($0.value == "VTODO" || $0.value == "VEVENT") }.count
    }

    /// A content line: NAME;PARAM=V;...:VALUE.
    public struct Property: Equatable, Sendable {
        public var name: String
        public var params: [String: String]
        public var value: String
    }

    /// Unfolds (a line starting with a space or tab continues the previous one) and splits lines.
    public static func unfold(_ text: String) -> [Property] {
        var logical: [String] = []
        for raw in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            if let first = raw.first, first == " " || first == "\t", !logical.isEmpty {
                logical[logical.count - 1] += raw.dropFirst()
            } else {
                logical.append(String(raw))
            }
        }
        return logical.compactMap { line in
            // The value starts at the first colon outside a quoted parameter value.
            var quoted = false
            var colon: String.Index?
            for i in line.indices {
                if line[i] == "\"" { quoted.toggle() } else if line[i] == ":", !quoted { colon = i; break }
            }
            guard let colon else { return nil }
            let head = line[..<colon].split(separator: ";")
            guard let name = head.first else { return nil }
            var params: [String: String] = [:]
            for p in head.dropFirst() {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2 { params[kv[0].uppercased()] = kv[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            }
            return Property(name: name.uppercased(), params: params, value: String(line[line.index(after: colon)...]))
        }
    }
}
