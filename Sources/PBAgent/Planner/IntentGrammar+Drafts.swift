import Foundation
import PBCore

/// Messages and emails to a person : a draft, written when confirmed and never
/// sent. "text Priya that I'm running late", "message Sam: running late", "let Sam know that the
/// room moved", "tell Ana I'll call tonight", "email Sam that the report is ready", "send Priya an
/// email saying the deck is attached", "email Joe about the budget: the numbers are in".
///
/// The request must say what the message says (after "that", "saying", "to say", a colon or a
/// comma, or as a whole sentence after a name). "Email the landlord about the boiler" says no
/// words of the message: it stays a to-do.
extension IntentGrammar {

    static let messageVerbs: [String: String] = [
        "text": "text", "message": "message", "msg": "message", "sms": "sms", "ping": "message", "tell": "message",
        "whatsapp": "whatsapp", "signal": "signal", "dm": "message",
        "email": "email", "e-mail": "email", "mail": "email",
    ]

    static let notRecipients: Set<String> = ["me", "us", "myself", "it", "that", "this", "them", "him", "her", "everyone", "everybody", "the", "a", "an", "my",
                                             "about", "what", "when", "where", "how", "if", "whether", "all", "any", "some", "em", "u", "you", "ya", "again",
                                             "back", "more", "someone", "somebody", "people", "us", "off", "out", "up", "on", "in", "to", "for", "with"]

    func drafting(_ c: Clause) -> [PlannedIntent]? {
        if let found = contactQuestion(c) { return found }
        let t = c.text
        var verb = ""
        var name = ""
        var rest = ""
        // send NAME an email/a text (saying|that|:) BODY
        if let m = pattern.match(#"send (?!(?:an?|the|my) )([\p{L}'.-]+) (?:an? )?(email|e-mail|text|message|sms|whatsapp)(?: message)? (.+)"#, t) {
            (name, verb, rest) = (m[0], m[1].lowercased(), m[2])
        } else if let m = pattern.match(#"let ([\p{L}'.-]+) know (.+)"#, t) {
            (name, verb, rest) = (m[0], "tell", m[1])
        } else if let m = pattern.match(#"(?:write|send) (?:an? )?(?:quick )?(email|e-mail|text|message|whatsapp|sms)(?: message)? to ([\p{L}'.-]+) (.+)"#, t) {
            (verb, name, rest) = (m[0].lowercased(), m[1], m[2])
        } else if let m = pattern.match(#"(?:drop|shoot|fire off|flick|send) ([\p{L}'.-]+) (?:an? )?(?:quick )?(line|note|message|text|email|e-mail|whatsapp|sms|msg)(?: message)?\s*(.*)"#, t) {
            // "drop Jess a line to say ...", "shoot Kevin a message that ...".
            (name, verb, rest) = (m[0], ["line": "message", "note": "message"][m[1].lowercased()] ?? m[1].lowercased(), m[2])
        } else if let m = pattern.match(#"(text|message|msg|sms|ping|tell|whatsapp|signal|dm|email|e-mail|mail) ([\p{L}'.-]+)(?:,|:)? (.+)"#, t) {
            (verb, name, rest) = (m[0].lowercased(), m[1], m[2])
        } else {
            return nil
        }
        guard let channel = IntentGrammar.messageVerbs[verb], !IntentGrammar.notRecipients.contains(name.lowercased()) else { return nil }
        // A capitalised word after the first name is the surname ("Priya Shah that ..."), as written.
        // "O'Neill" and "Smith-Jones" are surnames too.
        if let first = rest.split(separator: " ").first, first.first?.isUppercase == true,
           first.dropFirst().allSatisfy({ $0.isLowercase || $0 == "'" || $0 == "’" || $0 == "-" || ($0.isUppercase && first.contains(where: { "'’-".contains($0) })) }),
           first.count > 1, !["I'm", "I'll", "I've", "I'd", "The", "It's", "We", "We're", "Running", "Sorry", "Thanks", "Happy", "Please"].contains(String(first)),
           rest.split(separator: " ").count > 1 {
            name += " " + first
            rest = String(rest.dropFirst(first.count)).trimmingCharacters(in: .whitespaces)
        }
        var subject: String?
        var body: String?
        if let m = pattern.match(#"about (.+?)(?::|,| saying| that) (.+)"#, rest), channel == "email" {
            subject = m[0]
            body = m[1]
        } else if let m = pattern.match(#"(?:that|saying|to say|:|,)\s*(.+)"#, rest) {
            body = m[0]
        } else if verb == "tell" || verb == "text" || verb == "message" || verb == "whatsapp" || verb == "signal",
                  pattern.match(#"(?:i|i'm|im|i'll|i've|we|we're|we'll|running|on my way|omw|can't|cannot|sorry|see you|thanks|thank you|happy|the|it's|its|don't|dont|please|call me|leaving|be there|be home|home|back)\b.*"#, rest) != nil {
            // "tell Ana I'll call tonight": the sentence after the name is the message.
            body = rest
        }
        // The chat words that closed the request are the message's own ("happy birthday lol").
        let kept = c.closing.replacingOccurrences(of: #"\b(?:for me|please|pls|plz)\b"#, with: "", options: .regularExpression)
        if let b = body, !kept.trimmingCharacters(in: CharacterSet(charactersIn: " ,")).isEmpty { body = b + kept }
        guard var text = body?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            // "drop Jess a line about the party", "email the landlord about the boiler": no words
            // of the message, so a to-do to write it (never a deletion of "Jess a line").
            if pattern.match(#"(?:drop|shoot|fire off|flick) .+"#, t) != nil { return newTask(t) }
            return nil
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "\"“”"))
        text = text.prefix(1).uppercased() + text.dropFirst()
        var args: [String: JSONValue] = ["to": .string(name), "channel": .string(channel), "text": .string(text)]
        if let subject { args["subject"] = .string(subject) }
        var intent = PlannedIntent(.draftMessage, args)
        intent.confirm = "draft \(channel == "email" ? "an email" : "a message") to \(name): \"\(text)\"? (it is not sent)"
        return [intent]
    }
}
