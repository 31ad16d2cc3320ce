import Foundation
import PBCore

/// Reads a vCard file (RFC 6350 version 4.0, RFC 2426 version 3.0, and 2.1 as phones and older
/// programs export it) into a text layer: one section per card, headed by its FN (else its N,
/// organisation, email or phone), each detail a line of its own in words:
///
///     Dave Wilson
///
///     Mobile: +44 7700 900123
///     Phone (work): +44 1235 555 0100
///     Email: dave@example.org
///     Address (home): 4 High Street, Abingdon, OX14 3AA, United Kingdom
///     Organisation: Wilson Joinery
///     Birthday: 14 March 1980
///
///     Note: Plays five-a-side on Thursdays.
///
/// A file of many cards is one document. Phones are told apart by TYPE (cell, home, work, fax,
/// pager) or by an Apple label (`item1.X-ABLabel`); 2.1's bare parameters, QUOTED-PRINTABLE
/// values and CHARSET are read. Not text: PHOTO, LOGO, SOUND, KEY, UID, REV and X- properties
/// other than labels, related names and anniversaries.
public enum VCFDocument {
    public static func textLayer(_ bytes: [UInt8], path: String) throws -> TextLayer {
        let lines = ContentLine.read(ContentLine.utf8(bytes))
        var cards: [[ContentLine]] = []
        var current: [ContentLine]?
        var depth = 0
        var sawCard = false
        var unclosed: Int?
        for p in lines {
            let value = p.value.trimmingCharacters(in: .whitespaces).uppercased()
            if p.name == "BEGIN", value == "VCARD" {
                sawCard = true
                if current == nil {
                    current = []
                    unclosed = p.line
                } else {
                    depth += 1  // 2.1's AGENT may hold a card inside a card: not this card's details.
                }
            } else if p.name == "END", value == "VCARD" {
                if depth > 0 { depth -= 1; continue }
                if let c = current { cards.append(c) }
                current = nil
                unclosed = nil
            } else if depth == 0 {
                current?.append(p)
            }
        }
        if let c = current { cards.append(c) }
        guard sawCard else { throw DocumentError.malformed(path: path, reason: "no BEGIN:VCARD line: not a vCard file") }
        if let unclosed {
            Diagnostics.shared.warning("\(path): the file ends inside the card that begins on line \(unclosed) (no END:VCARD), which may be cut off; what it holds was read")
        }
        var drafts: [TextLayer.MarkupDraft] = []
        var names: [String] = []
        for card in cards {
            let name = Self.name(card)
            names.append(name)
            drafts.append(.heading(level: 1, text: name))
            var fields = Self.fields(card)
            if fields.isEmpty { fields = ["Name: " + name] }
            drafts.append(.list(items: fields))
            let notes = card.filter { $0.name == "NOTE" }.map(\.text).filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
            if !notes.isEmpty { drafts.append(.paragraph("Note: " + notes.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))) }
        }
        var layer = TextLayer(format: .contacts, title: names.count == 1 ? TextLayer.cleanTitle(names[0]) : nil, markup: drafts)
        if layer.blocks.isEmpty { layer.emptyReason = "an address book with no contacts" }
        return layer
    }

    /// FN; else N as "Dr Jane Q. Public Jr."; else the organisation, an email or a phone.
    static func name(_ card: [ContentLine]) -> String {
        func first(_ name: String) -> String? {
            card.first { $0.name == name }.map { TextLayer.oneLine($0.text) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let fn = first("FN") { return fn }
        if let n = card.first(where: { $0.name == "N" }) {
            // Family; given; additional; prefixes; suffixes.
            let parts = ContentLine.split(n.value, ";").map { ContentLine.split($0, ",").map(ContentLine.unescape).joined(separator: " ") }
            func part(_ i: Int) -> String { i < parts.count ? parts[i] : "" }
            let full = TextLayer.oneLine([part(3), part(1), part(2), part(0), part(4)].joined(separator: " "))
            if !full.isEmpty { return full }
        }
        if let org = card.first(where: { $0.name == "ORG" }) {
            let o = TextLayer.oneLine(org.list(";").joined(separator: " "))
            if !o.isEmpty { return o }
        }
        return first("EMAIL").map(stripScheme) ?? first("TEL").map(stripScheme) ?? "Unnamed contact"
    }

    /// The card's details, one line each, in a fixed order: nicknames, phones, email, addresses,
    /// work, dates, the web, chat, related people, categories.
    static func fields(_ card: [ContentLine]) -> [String] {
        // Apple's labels for grouped properties: item1.X-ABLabel:_$!<Mobile>!$_ or a free "Dentist".
        var labels: [String: String] = [:]
        for p in card where p.name == "X-ABLABEL" {
            guard let g = p.group else { continue }
            var l = p.text
            if l.hasPrefix("_$!<"), l.hasSuffix(">!$_") { l = String(l.dropFirst(4).dropLast(4)) }
            labels[g] = TextLayer.oneLine(l)
        }
        var out: [String] = []
        func add(_ label: String, _ value: String) {
            let v = TextLayer.oneLine(value)
            if !v.isEmpty { out.append(label + ": " + v) }
        }
        func all(_ name: String) -> [ContentLine] { card.filter { $0.name == name } }

        let nicknames = all("NICKNAME").flatMap { $0.list() }.map(TextLayer.oneLine).filter { !$0.isEmpty }
        if !nicknames.isEmpty { add(nicknames.count == 1 ? "Nickname" : "Nicknames", nicknames.joined(separator: ", ")) }
        for p in all("TEL") { add(phoneLabel(p, label: p.group.flatMap { labels[$0] }), stripScheme(p.text)) }
        for p in all("EMAIL") { add(qualified("Email", p, label: p.group.flatMap { labels[$0] }), stripScheme(p.text)) }
        for p in all("ADR") {
            // Post office box; extended address; street; locality; region; postal code; country.
            let parts = ContentLine.split(p.value, ";").flatMap { ContentLine.split($0, ",") }.map(ContentLine.unescape)
                .map(ICSDocument.commaLines).filter { !$0.isEmpty }
            add(qualified("Address", p, label: p.group.flatMap { labels[$0] }), parts.joined(separator: ", "))
        }
        for p in all("ORG") { add("Organisation", p.list(";").map(TextLayer.oneLine).filter { !$0.isEmpty }.joined(separator: ", ")) }
        for p in all("TITLE") { add("Title", p.text) }
        for p in all("ROLE") { add("Role", p.text) }
        for p in all("BDAY") { add("Birthday", CalendarText.contactDate(p.text)) }
        for p in all("ANNIVERSARY") + all("X-ANNIVERSARY") + all("X-EVOLUTION-ANNIVERSARY") { add("Anniversary", CalendarText.contactDate(p.text)) }
        for p in all("URL") { add(qualified("Website", p, label: p.group.flatMap { labels[$0] }), p.text) }
        for p in all("IMPP") { add("Chat", p.text) }
        for p in all("RELATED") + all("X-ABRELATEDNAMES") {
            add(qualified("Related", p, label: p.group.flatMap { labels[$0] }), stripScheme(p.text))
        }
        for p in all("X-EVOLUTION-SPOUSE") { add("Related (spouse)", p.text) }
        let categories = all("CATEGORIES").flatMap { $0.list() }.map(TextLayer.oneLine).filter { !$0.isEmpty }
        if !categories.isEmpty { add("Categories", categories.joined(separator: ", ")) }
        return out
    }

    /// Types that say nothing a reader needs: how it is stored, not what it is.
    static let silentTypes: Set<String> = ["voice", "pref", "internet", "x400", "msg", "text", "uri", "x-internet"]

    /// "Mobile", "Mobile (work)", "Phone (home)", "Fax (work)", "Phone (Dentist)".
    static func phoneLabel(_ p: ContentLine, label: String?) -> String {
        let types = p.types
        var kind = "Phone"
        if types.contains(where: { ["cell", "mobile", "iphone"].contains($0) }) || ["mobile", "iphone", "cell"].contains(label?.lowercased() ?? "") {
            kind = "Mobile"
        } else if types.contains(where: { $0.contains("fax") }) {
            kind = "Fax"
        } else if types.contains("pager") {
            kind = "Pager"
        } else if types.contains("textphone") {
            kind = "Textphone"
        } else if types.contains("video") {
            kind = "Video phone"
        }
        let known: Set<String> = ["cell", "mobile", "iphone", "fax", "homefax", "workfax", "pager", "textphone", "video"]
        var rest = types.filter { !silentTypes.contains($0) && !known.contains($0) }
        if types.contains("homefax") { rest.append("home") }
        if types.contains("workfax") { rest.append("work") }
        return describe(kind, rest, label: kind == "Mobile" && ["mobile", "iphone", "cell"].contains(label?.lowercased() ?? "") ? nil : label)
    }

    /// "Email (work)", "Address (home)".
    static func qualified(_ kind: String, _ p: ContentLine, label: String?) -> String {
        describe(kind, p.types.filter { !silentTypes.contains($0) }, label: label)
    }

    static func describe(_ kind: String, _ types: [String], label: String?) -> String {
        var words: [String] = []
        if let label, !label.isEmpty { words.append(label) }
        for t in types {
            let w = t.hasPrefix("x-") ? String(t.dropFirst(2)) : t
            if !w.isEmpty, !words.contains(where: { $0.lowercased() == w }) { words.append(w) }
        }
        return words.isEmpty ? kind : kind + " (" + words.joined(separator: ", ") + ")"
    }

    /// "tel:+44-7700-900123" as "+44-7700-900123", "mailto:a@b" as "a@b".
    static func stripScheme(_ value: String) -> String {
        let v = value.trimmingCharacters(in: .whitespaces)
        for scheme in ["tel:", "mailto:", "urn:uuid:"] where v.lowercased().hasPrefix(scheme) {
            return String(v.dropFirst(scheme.count))
        }
        return v
    }
}
