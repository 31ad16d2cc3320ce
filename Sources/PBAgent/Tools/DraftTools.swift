import Foundation
import PBCore

/// Contacts and drafts: `find_contact` says who a name means, and
/// `draft_message` writes a message or an email as a draft for the user to send. Nothing is ever
/// sent. An email is an RFC 5322 message in `$PB_HOME/drafts/` (a mail program opens it, and
/// `X-Unsent: 1` makes it a draft there); a text message is a `draft` record appended to
/// `$PB_HOME/drafts/messages.jsonl`. Undo takes out exactly what the turn wrote.
enum DraftTools {
    static func home(_ store: AgentStore) -> String { (store.path as NSString).deletingLastPathComponent }

    static func draftsFolder(_ store: AgentStore) -> String { (home(store) as NSString).appendingPathComponent("drafts") }

    /// PB_CONTACTS, else `$PB_HOME/contacts` (a folder of .vcf files) when it exists.
    static func book(_ ctx: ToolContext) throws -> ContactBook {
        guard let book = try contactsIfAny(ctx) else {
            let own = (home(ctx.store) as NSString).appendingPathComponent("contacts")
            throw AgentError.notFound("no contacts: set PB_CONTACTS to a .vcf file or a folder of them (or put them in \(own))")
        }
        return book
    }

    /// The contacts, or nil when the user keeps none (no PB_CONTACTS, no `$PB_HOME/contacts`).
    /// A PB_CONTACTS that names nothing is an error, not an empty book.
    static func contactsIfAny(_ ctx: ToolContext) throws -> ContactBook? {
        if let path = ctx.contactsPath { return try ContactBook.load(path) }
        let own = (home(ctx.store) as NSString).appendingPathComponent("contacts")
        guard FileManager.default.fileExists(atPath: own) else { return nil }
        return try ContactBook.load(own)
    }

    static func json(_ c: VCard) -> JSONValue {
        var o: [String: JSONValue] = ["name": .string(c.fullName), "given": .string(c.given), "family": .string(c.family),
                                      "nicknames": .array(c.nicknames.map(JSONValue.string)),
                                      "phones": .array(c.phones.map { .object(["value": .string($0.value), "types": .array($0.types.map(JSONValue.string))]) }),
                                      "emails": .array(c.emails.map { .object(["value": .string($0.value), "types": .array($0.types.map(JSONValue.string))]) })]
        if let org = c.organization { o["organization"] = .string(org) }
        if let title = c.title { o["title"] = .string(title) }
        if !c.addresses.isEmpty {
            o["addresses"] = .array(c.addresses.map { .object(["value": .string($0.value), "types": .array($0.types.map(JSONValue.string))]) })
        }
        if let b = c.birthday { o["birthday"] = .string(b) }
        return .object(o)
    }

    /// The one contact `name` means, or a failure that lists the candidates.
    static func person(_ ctx: ToolContext, _ name: String) throws -> (VCard, String) {
        switch try book(ctx).lookup(name) {
        case let .found(c, how): return (c, how)
        case let .ambiguous(list, how):
            throw AgentError.ambiguous(kind: "contact (\(how))", query: name, candidates: list.map { "\"\($0.fullName)\"" })
        case .none:
            throw AgentError.notFound("no contact is called '\(name)' or sounds like it")
        }
    }

    /// A vCard date as a person reads it: "12 April 1990", "22 July" (a day without its year);
    /// anything else as written. The tool's data keeps the ISO form.
    static func spokenDate(_ iso: String) -> String {
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        let parts = iso.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        if iso.hasPrefix("--"), parts.count == 4, let m = Int(parts[2]), let d = Int(parts[3]), (1...12).contains(m) {
            return "\(d) \(months[m - 1])"
        }
        if parts.count == 3, parts[0].count == 4, let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m) {
            return "\(d) \(months[m - 1]) \(parts[0])"
        }
        return iso
    }

    /// Every value a card holds for one of `contactDetails`, as a person reads it, with its TYPE.
    static func detailValues(_ detail: String, of c: VCard) -> [String] {
        func typed(_ v: VCard.Value) -> String { v.types.isEmpty ? v.value : "\(v.value) (\(v.types.joined(separator: ", ")))" }
        switch detail {
        case "phone": return c.phones.map(typed)
        case "email": return c.emails.map(\.value)
        case "address": return c.addresses.map(typed)
        case "birthday": return c.birthday.map { [spokenDate($0)] } ?? []
        case "organization": return c.organization.map { [$0] } ?? []
        case "title": return c.title.map { [$0] } ?? []
        default: return []
        }
    }

    /// What a question about a person may ask for: the `detail` of find_contact.
    static let contactDetails = ["phone", "email", "address", "birthday", "organization", "title"]

    static let findContact = AgentTool(.findContact, "who a name means among the contacts (PB_CONTACTS): as written, else by spelling or sound; more than one is reported, never guessed; with detail, that detail (or that there is none on file)", mutates: false, arguments: [
        .init("name", "a name, first name or nickname", required: true),
        .init("detail", "what is asked: phone, email, address, birthday, organization or title (all of them when absent)"),
    ], run: { ctx in
        let name = try ctx.args.required("name")
        let detail = try ctx.args.string("detail")
        if let detail, !contactDetails.contains(detail) {
            throw AgentError.badArgument("detail", "expected one of \(contactDetails.joined(separator: ", ")), got '\(detail)'")
        }
        let (c, how) = try person(ctx, name)
        // What this step reports goes on into drafts ($1.email) and onto a terminal: a line break
        // in a card's value would start a line of its own there.
        try MailHeader.checkText(c.fullName, field: "name", what: "the name of a contact")
        let phones = detail == nil ? [c.mobile].compactMap { $0 } : detail == "phone" ? c.phones.map(\.value) : []
        let emails = detail == nil ? [c.email].compactMap { $0 } : detail == "email" ? c.emails.map(\.value) : []
        for p in phones { try MailHeader.checkText(p, field: "phone", what: "the phone number of \(c.fullName) in the contacts", allowingTab: false) }
        for e in emails { try MailHeader.checkText(e, field: "email", what: "the email address of \(c.fullName) in the contacts", allowingTab: false) }
        var summary = "\(c.fullName)"
        if ContactBook.fold(c.fullName) != ContactBook.fold(name), how != "by name" { summary = "'\(name)' is \(c.fullName) (\(how))" }
        if let detail {
            // The question's own answer, every value of it ("work" and "home" phones), or a plain
            // "none on file": never another detail in its place.
            let values = detailValues(detail, of: c)
            summary += values.isEmpty ? ": no \(detail) on file" : ": \(detail) " + values.joined(separator: "; ")
        } else {
            let details = [c.mobile.map { "phone \($0)" }, c.email.map { "email \($0)" }, c.organization.map { "at \($0)" }].compactMap { $0 }
            if !details.isEmpty { summary += ": " + details.joined(separator: ", ") }
        }
        var ref: [String: JSONValue] = ["name": .string(c.fullName)]
        if let e = c.email { ref["email"] = .string(e) }
        if let p = c.mobile { ref["phone"] = .string(p) }
        return ToolOutcome(ref: ref, summary: summary, data: json(c))
    })

    static let channels: [String: String] = [
        "email": "email", "e-mail": "email", "mail": "email",
        "message": "message", "text": "message", "sms": "message", "chat": "message", "signal": "message", "whatsapp": "message",
        "telegram": "message", "matrix": "message",
    ]

    /// What `to` looks like, for a refusal that says where the bad character was.
    static func kind(_ to: String) -> String {
        if to.contains("@") { return "an address" }
        let phone = to.unicodeScalars.allSatisfy { CharacterSet.decimalDigits.contains($0) || "+-() ".unicodeScalars.contains($0) || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
        return phone && to.filter(\.isNumber).count >= 6 ? "a phone number" : "a name"
    }

    /// PB_FROM ("ada@example.org" or "Ada Lovelace <ada@example.org>") as a name and an address,
    /// each checked like the recipient's.
    static func sender(_ from: String) throws -> (name: String, address: String) {
        let field = "from (PB_FROM)"
        guard let open = from.lastIndex(of: "<") else {
            let address = from.trimmingCharacters(in: .whitespaces)
            try MailHeader.checkAddress(address, field: field, what: "an address")
            return ("", address)
        }
        guard let close = from[open...].firstIndex(of: ">"), from[from.index(after: close)...].trimmingCharacters(in: .whitespaces).isEmpty else {
            throw UnsafeInput(field: field, reason: "expected an address or 'Name <address>', got '\(from)'")
        }
        var name = from[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = String(name.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        let address = String(from[from.index(after: open)..<close])
        try MailHeader.checkText(name, field: field, what: "a name")
        try MailHeader.checkAddress(address, field: field, what: "an address")
        return (name, address)
    }

    static func rfc5322Date(_ d: Date, _ zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return f.string(from: d)
    }

    static func slug(_ s: String) -> String {
        let words = s.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).prefix(6)
        return words.isEmpty ? "draft" : words.joined(separator: "-")
    }

    static let draftMessage = AgentTool(.draftMessage, "write a message or an email as a draft to a contact, for the user to send: an .eml file in the drafts folder, or a draft record for a message; never sent", mutates: true, arguments: [
        .init("to", "who: a contact's name (looked up in PB_CONTACTS), an address or a phone number", required: true),
        .init("text", "what it says", required: true),
        .init("channel", "email or message (text, sms, chat and the like; default message)"),
        .init("subject", "an email's subject (default: the start of the text)"),
    ], run: { ctx in
        let to = try ctx.args.required("to")
        // Refused before anything is looked up: a CR or LF here would end the To field and start
        // another one (a Bcc) in the draft.
        try MailHeader.checkText(to, field: "to", what: kind(to), allowingTab: false)
        let text = try ctx.args.required("text")
        let channelWord = (try ctx.args.text("channel") ?? "message").lowercased()
        guard let channel = channels[channelWord] else {
            throw AgentError.badArgument("channel", "expected email or message (text, sms, chat, signal, whatsapp), got '\(channelWord)'")
        }
        let recipient = try Recipient(ctx, to: to, channel: channel)
        var hasher = FNV1a()
        hasher.add(channel)
        hasher.add(recipient.address)
        hasher.add(text)
        hasher.add(ctx.clock.stamp)
        let draft = Draft(id: "pb-draft-\(String(hasher.value, radix: 16))", channel: channel, channelWord: channelWord,
                          recipient: recipient, text: text, folder: draftsFolder(ctx.store))
        try FileManager.default.createDirectory(atPath: draft.folder, withIntermediateDirectories: true)
        return channel == "email" ? try draft.writeEmail(ctx) : try draft.writeMessage(ctx)
    }, check: { ctx, o in
        guard let path = o.ref?["path"]?.stringValue, let id = o.ref?["id"]?.stringValue else { return "no reference" }
        guard let data = try ctx.store.fileContent(path) else { return "\(path) was not written" }
        return String(decoding: data, as: UTF8.self).contains(id) ? nil : "\(id) is not in \(path)"
    })

    static let all = [findContact, draftMessage]

    /// Who a draft is to: an address or a number used as it is, else a contact looked up by
    /// name (never guessed), with the address the channel needs.
    struct Recipient {
        /// The contact's name; empty for an address or number given as it is.
        var name = ""
        var address: String
        /// How the contact was found ("as given", "by spelling", ...).
        var how = "as given"

        init(_ ctx: ToolContext, to: String, channel: String) throws {
            if channel == "email", to.contains("@"), !to.contains(" ") {
                try MailHeader.checkAddress(to, field: "to", what: "an address")
                address = to
                return
            }
            if channel == "message", to.filter(\.isNumber).count >= 6, to.allSatisfy({ $0.isNumber || "+-() ".contains($0) }) {
                address = to
                return
            }
            let (c, found) = try person(ctx, to)
            name = c.fullName
            how = found
            guard let address = channel == "email" ? c.email : c.mobile else {
                throw AgentError.notFound("\(c.fullName) has no \(channel == "email" ? "email address" : "phone number") in the contacts")
            }
            self.address = address
            try MailHeader.checkText(name, field: "to", what: "the name of a contact")
            if channel == "email" {
                try MailHeader.checkAddress(address, field: "to", what: "the email address of \(name) in the contacts")
            } else {
                try MailHeader.checkText(address, field: "to", what: "the phone number of \(name) in the contacts", allowingTab: false)
            }
        }

        /// The name, else the address: what the draft says it is to.
        var shown: String { name.isEmpty ? address : name }
        /// "Name (address)", or the address alone.
        var described: String { name.isEmpty ? address : "\(name) (\(address))" }
    }

    /// One draft about to be written, and where.
    struct Draft {
        var id: String
        var channel: String
        var channelWord: String
        var recipient: Recipient
        var text: String
        var folder: String

        var data: [String: JSONValue] {
            ["id": .string(id), "channel": .string(channel), "to": .string(recipient.shown), "address": .string(recipient.address),
             "text": .string(text), "found": .string(recipient.how)]
        }

        /// An .eml file in the drafts folder, marked unsent; undo removes it.
        func writeEmail(_ ctx: ToolContext) throws -> ToolOutcome {
            let clock = ctx.clock
            let subject: String
            if let given = try ctx.args.text("subject") {
                try MailHeader.checkText(given, field: "subject", what: "a header")
                subject = given
            } else {
                // The text's first line (CR, LF or CRLF ends it), its other controls as spaces.
                let first = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first.map(String.init) ?? ""
                subject = String(String(first.unicodeScalars.map { MailHeader.controlCharacter(in: String($0), allowingTab: false) == nil ? Character($0) : " " }).prefix(60))
            }
            let (fromName, fromAddress) = try sender(ctx.from ?? "\(NSUserName())@localhost")
            // Every line break of the text, a bare CR too, is CRLF: RFC 5322 allows no other.
            let body = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
                .split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\r\n")
            let message = [
                MailHeader.field("From", mailbox: fromName, address: fromAddress),
                MailHeader.field("To", mailbox: recipient.name, address: recipient.address),
                MailHeader.field("Subject", unstructured: subject),
                "Date: \(rfc5322Date(clock.now, clock.zone))",
                "Message-ID: <\(id)@pocketbrains>",
                "MIME-Version: 1.0",
                "Content-Type: text/plain; charset=utf-8",
                "Content-Transfer-Encoding: 8bit",
                "X-Unsent: 1",
                "X-PocketBrains-Draft: \(id)",
                "",
                body,
                "",
            ].joined(separator: "\r\n")
            let stamp = ISOMoment.dayString(clock.now, zone: clock.zone)
            let path = (folder as NSString).appendingPathComponent("\(stamp)-\(slug(subject))-\(String(id.suffix(6))).eml")
            guard try ctx.store.fileContent(path) == nil else { throw AgentError.conflict("the same draft is already at \(path)") }
            ctx.store.scheduleFile(path, Data(message.utf8))
            try ctx.store.journalInverse(.removeFile(path: path, sha256: SHA256.hex(message)))
            var data = self.data
            data["subject"] = .string(subject)
            data["path"] = .string(path)
            return ToolOutcome(ref: ["id": .string(id), "path": .string(path)],
                               summary: "drafted an email to \(recipient.described): \"\(subject)\" (\(path), not sent)", data: .object(data))
        }

        /// A draft record appended to messages.jsonl in the drafts folder; undo takes it out.
        func writeMessage(_ ctx: ToolContext) throws -> ToolOutcome {
            let path = (folder as NSString).appendingPathComponent("messages.jsonl")
            let existing = try ctx.store.fileContent(path)
            var record: [String: JSONValue] = ["kind": .string("draft"), "id": .string(id), "channel": .string(channelWord == "message" ? "message" : channelWord),
                                               "to": .string(recipient.shown), "address": .string(recipient.address), "text": .string(text),
                                               "created": .string(ctx.clock.stamp), "status": .string("draft")]
            if existing.map({ String(decoding: $0, as: UTF8.self).contains("\"id\":\"\(id)\"") }) == true {
                throw AgentError.conflict("the same draft is already in \(path)")
            }
            record["found"] = .string(recipient.how)
            let line = String(decoding: try RecordCodec().encodeValue(JSONValue.object(record)), as: UTF8.self) + "\n"
            let digest = try InverseStep.recordDigest(record)
            var content = existing ?? Data()
            if let last = content.last, last != UInt8(ascii: "\n") { content.append(UInt8(ascii: "\n")) }
            content.append(Data(line.utf8))
            ctx.store.scheduleFile(path, content)
            try ctx.store.journalInverse(.removeRecords(path: path, ids: [id], createdFile: existing == nil, sha256: [id: digest]))
            var data = self.data
            data["path"] = .string(path)
            return ToolOutcome(ref: ["id": .string(id), "path": .string(path)],
                               summary: "drafted a message to \(recipient.described): \"\(text)\" (not sent)", data: .object(data))
        }
    }
}
