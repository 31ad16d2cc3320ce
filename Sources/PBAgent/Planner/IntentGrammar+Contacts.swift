import Foundation
import PBCore

/// Questions about a person of the contacts : "what's Priya's number", "show John's
/// contact information", "do I have a work number for Susan", "where does Fred work", "when is
/// Jacob's birthday", "is Mary Smith in my contacts", "look up Myra in my contacts". Each is a
/// read-only `find_contact` with the person's name as said and, when the question asks for one,
/// the detail (phone, email, address, birthday, organization, title).
///
/// The frames: a possessive ("NAME's DETAIL"), a detail of or for a person ("the DETAIL of NAME"),
/// a person in the contacts ("is NAME in my contacts", "open the contact named NAME"), where a
/// person lives or works, and how to reach them. A name must look like one: not a pronoun, not "the
/// venue" (a place), not "project Kitchen" (an item of the store).
extension IntentGrammar {

    /// A detail asked for, in the words people use; the group names what find_contact reports.
    static let contactDetail = #"(?:(?:(?:home|work|mobile|cell|office|personal|current|business|newest|new|main|other|corporate|private|direct|primary|fax|pager|house|landline) )*(?:(?:tele)?phone(?: number| numbers| no)?|number|numbers|cell(?: phone)?(?: number)?|mobile(?: number)?|landline(?: number)?|contact number|area code)|e-?mail(?: address| addresses| id)?|mail (?:address|id)|(?:home |work |street |postal |mailing |office )?address|birthday|bday|date of birth|job title|title|employer|company|workplace|contact(?: details| detail| info| information| card)?|details|information|info|profile)"#

    /// Where the person is kept, said after the question ("... in my contacts", "it is in my contacts").
    static let inContacts = #"(?:,? ?(?:it is |it's |who is |saved )?(?:in|from|on) (?:my |the )?(?:contacts?(?: list)?|contact list|address book|phone ?book|phone))"#

    static let contactName = #"([\p{L}][\p{L}'.-]*(?: [\p{L}][\p{L}'.-]*){0,2}?)"#

    /// Words that open a question about a person's details.
    static let contactAsk = #"(?:(?:please|hey|ok|okay|olly) )*(?:(?:can|could|would|will) you |may you )?(?:(?:please )?(?:what(?:'s| is| are| was)|whats|find(?: me)?|get(?: me)?|give me|show(?: me)?|look up|tell me|fetch(?: me)?|open|display|list|pull up|read(?: me)?|check|send me|i need|do (?:i|we) have|let me know|provide(?: me with)?|search(?: for)?|link me to|lookup)(?: up)?)"#

    func contactQuestion(_ c: Clause) -> [PlannedIntent]? {
        let t = c.text.trimmingCharacters(in: CharacterSet(charactersIn: " ?.!"))
        let d = Self.contactDetail, n = Self.contactName, ask = Self.contactAsk, inC = Self.inContacts
        var name: String?
        var said = ""
        // NAME's DETAIL, asked or bare ("jay's phone number"), perhaps "in my contacts". Bare, the
        // name must not open with a verb or a question word: "call mom's mobile" is a to-do, and
        // "when is jacob's birthday" is read by its own frame below.
        let asked = pattern.match(ask + " .+", t) != nil
        let possessive = pattern.match(#"(?:"# + ask + #" )?(?:the |all )?"# + n + #"(?:'s|s'|’s) ("# + d + #"(?: and "# + d + #")?)(?: please| for me| nowadays| now| again)?"# + inC + "?", t)
            .flatMap { m -> [String]? in
                let first = m[0].lowercased().split(separator: " ").first.map(String.init) ?? ""
                let opensOther = VerbLexicon.taskVerbs.contains(first) || VerbLexicon.action(ofLemma: first) != nil
                    || IntentGrammar.questionWords.contains(first) || IntentGrammar.openers.contains(first)
                return !asked && m[0].contains(" ") && opensOther ? nil : m
            }
        if let m = possessive {
            (name, said) = (m[0], m[1])
        // Asked, a possessive as speech transcribes it, without its apostrophe ("show johns
        // office number", "what is amber stevens address"): only with a detail in particular.
        } else if let m = pattern.match(ask + #" (?:the )?"# + n + #" ("# + d + #")(?: again)?"# + inC + "?", t), Self.detailKind(m[1]) != nil,
                  !["email", "title"].contains(Self.detailKind(m[1]) ?? "") {
            // ("show johns email" is as often a message of John's, and "the song title" no person.)
            (name, said) = (m[0], m[1])
        // the DETAIL of/for/to NAME; "is there (an) DETAIL of NAME in the list".
        } else if let m = pattern.match(ask + #" (?:me )?(?:the |a |an |any |all )?(?:other )?("# + d + #"(?: and "# + d + #")?) (?:of|for|to|on) "# + n + #"(?: please| for me)?"# + inC + "?", t)
                    ?? pattern.match(#"is there (?:an? |any )?("# + d + #") (?:of|for) "# + n + inC + "?", t) {
            (said, name) = (m[0], m[1])
            // "the details of allen" asks about a person only when it says the contacts.
            if Self.detailKind(said) == nil, !pattern.contains(#"\bcontacts?\b|\bphone ?book\b|\baddress book\b"#, t) { return nil }
        } else if let m = pattern.match(#"(?:is|are) "# + n + #"(?:'s|s'|’s)? ("# + d + #") "# + inC, t) {
            (name, said) = (m[0], m[1])
        // NAME in the contacts.
        } else if let m = pattern.match(#"(?:is|are) "# + n + #" (?:saved |listed |stored )?"# + inC, t)
                    ?? pattern.match(#"is there (?:a|any) contact (?:named|called|for) "# + n + inC + "?", t)
                    ?? pattern.match(ask + #" (?:the |my )?(?:contact|profile|contact details|contact info(?:rmation)?) (?:named |called |of |for )?"# + n + inC + "?", t)
                    ?? pattern.match(#"(?:look up|find|search for|search|lookup|tell me about|open) "# + n + inC, t) {
            name = m[0]
        // Where a person lives or works.
        } else if let m = pattern.match(#"(?:(?:do you know |tell me |can you tell me )?where (?:does|do) "# + n + #" (live|work|stay)(?: currently| now| these days)?|where "# + n + #" (lives|works))"#, t) {
            name = m[0].isEmpty ? m[2] : m[0]
            said = (m[1] + m[3]).hasPrefix("work") ? "company" : "address"
        // When a person's birthday is.
        } else if let m = pattern.match(#"(?:(?:please )?(?:let me know |tell me )?when(?:'s| is| was) "# + n + #"(?:'s|s'|’s) (?:birthday|bday)|what (?:day|date) is "# + n + #"(?:'s|s'|’s) birthday)"#, t) {
            name = m[0].isEmpty ? m[1] : m[0]
            said = "birthday"
        // How to reach a person.
        } else if let m = pattern.match(#"(?:how do i|how can i|how to|how should i) (?:reach|contact|call|text|email|e-mail|dial|phone|ring|get (?:hold of|in touch with)) "# + n, t) {
            (name, said) = (m[0], "phone")
        }
        guard var person = name?.trimmingCharacters(in: .whitespaces), !person.isEmpty else { return nil }
        let words = person.lowercased().split(separator: " ").map(String.init)
        if words.first == "my", words.count > 1 { person = String(person.dropFirst(3)) }
        let lower = person.lowercased()
        let nameWords = Set(lower.split(separator: " ").map(String.init))
        guard !IntentGrammar.notRecipients.contains(lower), !Self.notPeople.contains(lower), nameWords.isDisjoint(with: Self.notInNames),
              !pattern.contains(#"\b(?:phone|numbers?|e-?mail|address|contacts?|details?|info|information|mobile|cell|landline|birthday)\b"#, lower),
              !Self.notPeopleLeads.contains(lower.split(separator: " ").first.map(String.init) ?? "") else { return nil }
        var args: [String: JSONValue] = ["name": .string(person)]
        if let detail = Self.detailKind(said) { args["detail"] = .string(detail) }
        return [PlannedIntent(.findContact, args)]
    }

    /// Words that stand where a name would, and are none.
    static let notPeople: Set<String> = ["his", "her", "their", "its", "your", "mine", "yours", "this person", "that person", "someone", "anyone",
                                         "contact", "contacts", "the contact", "a contact", "person", "me", "i", "there", "it"]
    /// First words of a phrase that names a place or an item of the store, not a person.
    static let notPeopleLeads: Set<String> = ["the", "this", "that", "a", "an", "your", "our", "his", "her", "their", "project", "task", "list",
                                              "note", "milestone", "meeting", "event", "appointment", "calendar", "all", "any", "every", "which", "what", "who"]

    /// Words that are never part of a person's name as said: function words, and the adjectives
    /// of "my latest email", "the last email", "the current playing music title".
    static let notInNames: Set<String> = ["for", "of", "to", "the", "in", "on", "with", "and", "from", "this", "that", "these", "those",
                                          "latest", "last", "new", "newest", "unread", "unchecked", "current", "recent", "next", "old",
                                          "local", "song", "music", "stock", "playing", "my"]

    /// What find_contact reports for the words of a question, or nil for all of it.
    static func detailKind(_ said: String) -> String? {
        let s = said.lowercased()
        if s.contains(" and ") { return nil }
        if s.contains("birth") || s.contains("bday") { return "birthday" }
        if s.contains("mail") { return "email" }
        if s.contains("address") { return "address" }
        if s.contains("title") { return "title" }
        if s.contains("employer") || s.contains("company") || s.contains("workplace") { return "organization" }
        if s.contains("contact") || s.contains("detail") || s.contains("info") || s.contains("profile") { return nil }
        if s.contains("phone") || s.contains("number") || s.contains("cell") || s.contains("mobile") || s.contains("landline") || s.contains("area code") { return "phone" }
        return nil
    }
}
