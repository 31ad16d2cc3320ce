import Foundation
import PBCore
import Testing
@testable import PBAgent

/// vCard contacts, names matched by spelling and sound, and drafts (issue 16).
@Suite struct ContactsAndDraftsTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/contacts").path

    func book() throws -> ContactBook { try ContactBook.load(Self.fixtures) }

    @Test func readsVersion3And4WithFoldedLinesGroupsAndURIs() throws {
        let cards = try book().contacts
        #expect(cards.map(\.fullName) == ["Priya Shah", "Myra Jones", "John Smith", "Sam Lee", "Sam Carter", "Katherine Brown"])
        let john = cards[2]
        // A folded line ("john.smith@exam" + " ple.com") under a property group ("item1.EMAIL").
        #expect(john.email == "john.smith@example.com")
        let priya = cards[0]
        #expect(priya.mobile == "+44 7700 900123")
        #expect(priya.nicknames == ["Pri"])
        #expect(priya.organization == "Shah & Co")
        let samLee = cards[3]
        #expect(samLee.mobile == "+44-7700-900789")
        #expect(samLee.phones[0].types == ["cell", "voice"])
        #expect(samLee.phones[0].preferred)
        let carter = cards[4]
        #expect(carter.email == "sam.carter@example.com")
        #expect(carter.given == "Samuel")
        #expect(cards[5].nicknames == ["Kate", "Kathy"])
        // ADR as one line (its seven parts, empty ones left out, an escaped comma kept), BDAY as
        // ISO 8601 (4.0's "--0722" a day without its year), TITLE.
        #expect(priya.addresses.map(\.value) == ["12 Elm Road, Leeds, LS6 2AB, United Kingdom"])
        #expect(priya.addresses[0].types == ["home"])
        #expect(priya.birthday == "1990-04-12")
        #expect(priya.title == "Architect")
        #expect(samLee.birthday == "--07-22")
        #expect(samLee.addresses.map(\.value) == ["1 Canal Street, Unit 4, Manchester, M1 3HE, UK"])
        #expect(cards[1].birthday == nil && cards[1].addresses.isEmpty)
    }

    @Test("a vCard date as ISO 8601", arguments: [
        ("1985-04-12", "1985-04-12"), ("19850412", "1985-04-12"), ("19850412T103000Z", "1985-04-12"),
        ("--0412", "--04-12"), ("--04-12", "--04-12"), ("circa 1800", "circa 1800"),
    ])
    func vcardDates(raw: String, iso: String) {
        #expect(VCard.isoDate(raw) == iso)
    }

    @Test func findContactAnswersTheDetailAskedOrSaysThereIsNone() throws {
        let fx = try AgentFixture()
        let r = try run(fx, #"{"steps":[{"tool":"find_contact","args":{"name":"Pri","detail":"address"}},"# +
                        #"{"tool":"find_contact","args":{"name":"Mira","detail":"birthday"}},"# +
                        #"{"tool":"find_contact","args":{"name":"Priya","detail":"phone"}},"# +
                        #"{"tool":"find_contact","args":{"name":"Priya"}}]}"#)
        #expect(r.status == .ok)
        #expect(r.steps[0].summary == "Priya Shah: address 12 Elm Road, Leeds, LS6 2AB, United Kingdom (home)")
        #expect(r.steps[1].summary == "'Mira' is Myra Jones (by spelling or sound): no birthday on file")
        #expect(r.steps[2].summary == "Priya Shah: phone +44 7700 900123 (cell); +44 20 7946 0018 (work, voice)")
        #expect(r.steps[3].summary == "Priya Shah: phone +44 7700 900123, email priya.shah@example.org, at Shah & Co")
        let bad = try run(fx, #"{"steps":[{"tool":"find_contact","args":{"name":"Priya","detail":"shoe size"}}]}"#)
        #expect(bad.status == .failed)
        #expect(bad.steps[0].error?.contains("expected one of phone, email, address, birthday, organization, title") == true)
    }

    @Test func namesAreMatchedBySpellingAndSoundAmongKnownContactsOnly() throws {
        let b = try book()
        func who(_ n: String) -> String {
            switch b.lookup(n) {
            case let .found(c, _): return c.fullName
            case let .ambiguous(list, _): return "ambiguous: " + list.map(\.fullName).joined(separator: ", ")
            case .none: return "none"
            }
        }
        #expect(who("Priya") == "Priya Shah")
        #expect(who("pri") == "Priya Shah")
        #expect(who("Mira") == "Myra Jones")
        #expect(who("Jon") == "John Smith")
        #expect(who("Catherine") == "Katherine Brown")
        #expect(who("kate") == "Katherine Brown")
        #expect(who("Sam") == "ambiguous: Sam Lee, Sam Carter")
        #expect(who("Sam Lee") == "Sam Lee")
        #expect(who("Zebedee") == "none")
        #expect(ContactBook.phonetic("myra") == ContactBook.phonetic("mira"))
        #expect(ContactBook.distance("jon", "john") == 1)
        #expect(ContactBook.distance("ab", "ba") == 1)
    }

    func executor(_ fx: AgentFixture, confirmed: Bool = true) -> PlanExecutor {
        var ex = PlanExecutor(store: fx.store, dryRun: false, defaultNow: fx.now)
        ex.contactsPath = Self.fixtures
        ex.from = "Ada Lovelace <ada@example.org>"
        ex.confirmed = confirmed
        return ex
    }

    func run(_ fx: AgentFixture, _ json: String) throws -> ResultRecord {
        try executor(fx).execute(try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8)))
    }

    @Test func anEmailDraftIsAnRFC5322MessageAndAMessageDraftARecordAndUndoTakesThemOut() throws {
        let fx = try AgentFixture()
        let r = try run(fx, #"{"steps":[{"tool":"draft_message","args":{"to":"Jon","channel":"email","text":"The report is ready.\nSee you Friday.","subject":"Report — ready"}},"# +
                        #"{"tool":"draft_message","args":{"to":"Mira","text":"I'm running late"}}]}"#)
        #expect(r.status == .ok)
        let eml = try #require(r.steps[0].ref?["path"]?.stringValue)
        let text = try String(contentsOfFile: eml, encoding: .utf8)
        #expect(text.hasPrefix("From: \"Ada Lovelace\" <ada@example.org>\r\nTo: \"John Smith\" <john.smith@example.com>\r\nSubject: =?UTF-8?B?"))
        #expect(text.contains("\r\nDate: Thu, 26 Nov 2026 18:00:00 +0000\r\n"))
        #expect(text.contains("\r\nX-Unsent: 1\r\n"))
        #expect(text.hasSuffix("\r\n\r\nThe report is ready.\r\nSee you Friday.\r\n"))
        let messages = fx.path("drafts/messages.jsonl")
        let line = try String(contentsOfFile: messages, encoding: .utf8)
        #expect(line.contains(#""to":"Myra Jones""#))
        #expect(line.contains(#""address":"+44 7700 900456""#))
        #expect(line.contains(#""found":"by spelling or sound""#))
        try fx.undo()
        #expect(!FileManager.default.fileExists(atPath: eml))
        #expect(!FileManager.default.fileExists(atPath: messages))
    }

    /// The message of the malformed-input failure a plan ends with, or what happened instead.
    func refusal(_ fx: AgentFixture, _ json: String, contacts: String? = nil, from: String? = nil) -> String {
        var ex = executor(fx)
        if let contacts {
            let file = fx.path("contacts.vcf")
            FileManager.default.createFile(atPath: file, contents: Data(contacts.utf8))
            ex.contactsPath = file
        }
        if let from { ex.from = from }
        do {
            let r = try ex.execute(try RecordCodec().decode(PlanRecord.self, from: Data(json.utf8)))
            return "ran: \(r.status) \(r.message)"
        } catch let e as ToolFailure {
            return e.code == .badInput ? e.message : "exit \(e.code): \(e.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func aControlCharacterInAHeaderFieldRefusesThePlanAndNamesTheField() throws {
        let eve = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Eve Stone\r\nEMAIL:eve@example.org\\nBcc: spy@example.net\r\nTEL;TYPE=cell:+44 7700\\n900111\r\nEND:VCARD\r\n"
        let eveName = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Eve\\nBcc: spy@example.net\r\nN:Stone;Eve;;;\r\nEMAIL:eve@example.org\r\nEND:VCARD\r\n"
        // A bare CR inside a value survives unfolding, and 2.1's quoted-printable can spell a CRLF.
        let eveCR = "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:Eve Stone\r\nEMAIL;ENCODING=QUOTED-PRINTABLE:eve@example.org=0D=0ABcc: spy@example.net\r\nEND:VCARD\r\n"
        let cases: [(String, String?, String?, String)] = [
            (#"{"steps":[{"tool":"create_task","args":{"title":"call Bob"}},{"tool":"draft_message","args":{"to":"b@example.org\r\nBcc: spy@example.net","channel":"email","text":"hi"}}]}"#,
             nil, nil, "step 2: draft_message: to: control character U+000D in an address"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Eve","channel":"email","text":"hi"}}]}"#,
             eve, nil, "step 1: draft_message: to: control character U+000A in the email address of Eve Stone in the contacts"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Eve","channel":"email","text":"hi"}}]}"#,
             eveCR, nil, "step 1: draft_message: to: control character U+000D in the email address of Eve Stone in the contacts"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Eve","channel":"text","text":"hi"}}]}"#,
             eve, nil, "step 1: draft_message: to: control character U+000A in the phone number of Eve Stone in the contacts"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Stone","channel":"email","text":"hi"}}]}"#,
             eveName, nil, "step 1: draft_message: to: control character U+000A in the name of a contact"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Jon","channel":"email","text":"hi","subject":"hi\nBcc: spy@example.net"}}]}"#,
             nil, nil, "step 1: draft_message: subject: control character U+000A in a header"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"Jon","channel":"email","text":"hi"}}]}"#,
             nil, "ada@example.org\r\nBcc: spy@example.net", "step 1: draft_message: from (PB_FROM): control character U+000D in an address"),
            (#"{"steps":[{"tool":"draft_message","args":{"to":"+44 7700\n900111","channel":"text","text":"hi"}}]}"#,
             nil, nil, "step 1: draft_message: to: control character U+000A in a phone number"),
            (#"{"steps":[{"tool":"find_contact","args":{"name":"Eve","detail":"phone"}}]}"#,
             eve, nil, "step 1: find_contact: phone: control character U+000A in the phone number of Eve Stone in the contacts"),
        ]
        for (plan, contacts, from, message) in cases {
            let fx = try AgentFixture()
            #expect(refusal(fx, plan, contacts: contacts, from: from) == message)
            // Nothing of the plan stays: no draft, no task, no journal entry.
            #expect((try? FileManager.default.contentsOfDirectory(atPath: fx.path("drafts")))?.isEmpty ?? true)
            #expect(try fx.count("tasks") == 0)
            #expect(try fx.count("journal") == 0)
        }
    }

    @Test func anEmailDraftHoldsOnlyTheFieldsItWrites() throws {
        let fx = try AgentFixture()
        let r = try run(fx, #"{"steps":[{"tool":"draft_message","args":{"to":"Jon","channel":"email","text":"Line one\r\nBcc: spy@example.net\rline three"}}]}"#)
        #expect(r.status == .ok)
        let eml = try String(contentsOfFile: try #require(r.steps[0].ref?["path"]?.stringValue), encoding: .utf8)
        let header = eml.components(separatedBy: "\r\n\r\n")[0]
        #expect(header.components(separatedBy: "\r\n").map { String($0.prefix(while: { $0 != ":" })) }
            == ["From", "To", "Subject", "Date", "Message-ID", "MIME-Version", "Content-Type", "Content-Transfer-Encoding", "X-Unsent", "X-PocketBrains-Draft"])
        #expect(header.contains("\r\nSubject: Line one\r\n"))
        // The body's line breaks, bare CR included, are CRLF: no bare CR is left in the message.
        #expect(eml.hasSuffix("\r\n\r\nLine one\r\nBcc: spy@example.net\r\nline three\r\n"))
        #expect(!eml.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
    }

    @Test func anAmbiguousNameIsReportedNotGuessed() throws {
        let fx = try AgentFixture()
        let r = try run(fx, #"{"steps":[{"tool":"draft_message","args":{"to":"Sam","text":"hello"}}]}"#)
        #expect(r.status == .failed)
        #expect(r.steps[0].error?.contains("\"Sam Lee\", \"Sam Carter\"") == true)
        #expect(!FileManager.default.fileExists(atPath: fx.path("drafts/messages.jsonl")))
    }

    @Test func attendeesAreTheContactsTheirNamesMeanAndAnAmbiguousOneFailsTheStep() throws {
        let fx = try AgentFixture()
        let r = try run(fx, #"{"steps":[{"tool":"schedule","args":{"title":"lunch","start":"2026-11-27T13:00:00Z","attendees":["Mira","Zoe","ana@example.org"]}}]}"#)
        #expect(r.status == .ok)
        let ics = try String(contentsOfFile: fx.path("calendar/pocketbrains.ics"), encoding: .utf8)
        let attendees = ICalendarFile.unfold(ics).filter { $0.name == "ATTENDEE" }.map(\.value)
        #expect(attendees == ["mailto:myra@example.net", "urn:x-pocketbrains:person:Zoe", "mailto:ana@example.org"])
        #expect(r.steps[0].summary?.contains("'Mira' is Myra Jones, by spelling or sound") == true)
        let sam = try run(fx, #"{"steps":[{"tool":"schedule","args":{"title":"call","start":"2026-11-27T15:00:00Z","attendees":["Sam"]}}]}"#)
        #expect(sam.status == .failed)
        #expect(sam.steps[0].error?.contains("\"Sam Lee\", \"Sam Carter\"") == true)
        // Without contacts, names are written as said.
        let plain = try AgentFixture()
        let p = try PlanExecutor(store: plain.store, defaultNow: plain.now)
            .execute(try RecordCodec().decode(PlanRecord.self, from: Data(#"{"steps":[{"tool":"schedule","args":{"title":"call","start":"2026-11-27T15:00:00Z","attendees":["Sam"]}}]}"#.utf8)))
        #expect(p.status == .ok)
    }

    @Test("the people after 'with': a surname, but not a day", arguments: [
        ("schedule a call with Sam Lee and Zoe on friday at 3pm", ["Sam Lee", "Zoe"]),
        ("schedule a meeting with Sam Friday at 3pm", ["Sam"]),
        ("lunch with Dr. Lee and Priya Shah on Monday at 1pm", ["Dr. Lee", "Priya Shah"]),
    ])
    func attendeeNames(text: String, people: [String]) {
        #expect(fixedPlanner().plan(text).steps.first?.args["attendees"] == .array(people.map(JSONValue.string)))
    }

    @Test("a question about a person's details is find_contact", arguments: [
        ("what's Priya's number", "Priya"), ("what's john's home phone number", "john"), ("what is email id of john", "john"),
        ("what's the email address of silvia", "silvia"), ("show me derek's contact information", "derek"),
    ])
    func contactQuestions(text: String, name: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["find_contact"])
        #expect(p.steps.first?.args["name"] == .string(name))
    }

    @Test("a question names the detail it asks for", arguments: [
        ("what's Priya's number", "Priya", "phone"),
        ("do i have a work number for susan", "susan", "phone"),
        ("show johns office number", "johns", "phone"),
        ("is bills cell phone number in my contacts", "bills", "phone"),
        ("what is amber stevens address it is in my contacts", "amber stevens", "address"),
        ("where does fred work", "fred", "organization"),
        ("where does Myra live", "Myra", "address"),
        ("when is jacob's birthday", "jacob", "birthday"),
        ("what is john's job title", "john", "title"),
        ("how do I reach Jon", "Jon", "phone"),
        ("is Mary Smith in my contacts", "Mary Smith", nil),
        ("open the contact named john", "john", nil),
        ("please give me details of allen from my contact", "allen", nil),
    ] as [(String, String, String?)])
    func contactDetails(text: String, name: String, detail: String?) {
        let p = fixedPlanner().plan(text)
        #expect(p.tools == ["find_contact"])
        #expect(p.steps.first?.args["name"] == .string(name))
        #expect(p.steps.first?.args["detail"] == detail.map(JSONValue.string))
    }

    @Test("a request that only mentions a detail is no contact question", arguments: [
        "call mom's mobile", "buy a phone for Sam", "update john's phone number to 555", "give me the phone number",
        "tell me my latest email", "show me the details of project Kitchen", "what's the song title",
    ])
    func notContactQuestions(text: String) {
        #expect(!fixedPlanner().plan(text).tools.contains("find_contact"))
    }

    @Test func theAddressOfAPlaceIsNotAContact() {
        #expect(fixedPlanner().plan("what is the address of the venue").tools == ["ask_notes"])
    }

    @Test("message requests", arguments: [
        ("text Priya that I'm running late", "Priya", "text", "I'm running late"),
        ("whatsapp Amma: reached safely, will call after dinner", "Amma", "whatsapp", "Reached safely, will call after dinner"),
        ("reply to Sam O'Neill saying yes, saturday works", "Sam O'Neill", "message", "Yes, saturday works"),
        ("tell Ana I'll call tonight", "Ana", "message", "I'll call tonight"),
        ("email Sam that the report is ready", "Sam", "email", "The report is ready"),
        ("message Mira: see you at 8", "Mira", "message", "See you at 8"),
    ])
    func planned(text: String, to: String, channel: String, body: String) {
        let p = fixedPlanner().plan(text)
        #expect(p.steps.map(\.tool.rawValue) == ["draft_message"])
        #expect(p.steps.first?.args == ["to": .string(to), "channel": .string(channel), "text": .string(body)])
        #expect(p.confirm != nil)
    }

    @Test func emptyParametersAreSkipped() {
        // Found by make fuzz: "TEL;;=:..." once indexed an empty parameter.
        let cards = VCard.parse("BEGIN:VCARD\r\nFN:A B\r\nTEL;;=:123\r\nEND:VCARD\r\n")
        #expect(cards.first?.phones.map(\.value) == ["123"])
    }

    @Test func aDumpKeepsAMessageAsItsOwnStep() {
        let p = fixedPlanner().plan("Text Priya that I'm running late\nbuy milk\nThe weather was lovely")
        #expect(p.steps.map(\.tool.rawValue) == ["draft_message", "create_task", "create_note"])
        #expect(p.confirm != nil)
    }

    @Test func anEmailWithoutWordsStaysATodo() {
        #expect(fixedPlanner().plan("email the landlord about the boiler").steps.map(\.tool.rawValue) == ["create_task"])
        #expect(fixedPlanner().plan("text mom tonight").steps.map(\.tool.rawValue) == ["create_task"])
    }
}
