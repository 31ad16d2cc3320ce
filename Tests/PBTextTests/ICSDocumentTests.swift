import Foundation
import Testing
@testable import PBText

@Suite struct ICSDocumentTests {
    /// 2027-01-01T09:00:00Z.
    let now = Date(timeIntervalSince1970: 1_798_794_000)

    func layer(_ text: String, now: Date? = nil) throws -> TextLayer {
        try ICSDocument.textLayer(Array(text.utf8), path: "t.ics", now: now ?? self.now)
    }

    func text(_ layer: TextLayer) -> String { String(decoding: layer.bytes, as: UTF8.self) }

    /// A calendar of the given VEVENT lines, CRLF line ends as RFC 5545 has them.
    func calendar(_ events: [[String]]) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN"]
            + events.flatMap { ["BEGIN:VEVENT"] + $0 + ["END:VEVENT"] } + ["END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    func lines(_ layer: TextLayer) -> [String] { text(layer).components(separatedBy: "\n") }

    @Test func anEventIsASectionOfFieldLinesInWords() throws {
        let l = try layer(calendar([[
            "SUMMARY:Dentist check-up", "DTSTART;TZID=Europe/London:20270112T093000", "DTEND;TZID=Europe/London:20270112T100000",
            "LOCATION:Smile Dental\\, 4 High Street\\, Abingdon", "ATTENDEE;CN=Dr Patel;PARTSTAT=ACCEPTED:mailto:reception@smile.example",
            "DESCRIPTION:Bring the referral letter.",
        ]]))
        #expect(text(l) == """
            Dentist check-up

            When: Tuesday 12 January 2027, 09:30–10:00 (Europe/London)
            Where: Smile Dental, 4 High Street, Abingdon
            With: Dr Patel

            Notes: Bring the referral letter.
            """)
        #expect(l.format == .calendar)
        // One event: its summary is the document's title; the heading opens its section.
        #expect(l.title == "Dentist check-up")
        #expect(l.blocks.map(\.kind) == [.heading(level: 1), .list, .paragraph])
        // Each field is a part of its own, exactly one line of the layer.
        let parts = l.blocks[1].parts.map { String(decoding: l.bytes[$0], as: UTF8.self) }
        #expect(parts == ["When: Tuesday 12 January 2027, 09:30–10:00 (Europe/London)", "Where: Smile Dental, 4 High Street, Abingdon", "With: Dr Patel"])
    }

    @Test func foldedLinesAreUnfoldedEvenInsideAUTF8Sequence() throws {
        // A fold may fall between the two bytes of "é" (folding counts octets); a tab folds too.
        var bytes = Array("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Caf".utf8) + [0xC3, 0x0D, 0x0A, 0x20, 0xA9]
        bytes += Array(" meeting about the\r\n\t new menu\r\nDTSTART:20270112T120000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
        let l = try ICSDocument.textLayer(bytes, path: "t.ics", now: now)
        #expect(lines(l).first == "Café meeting about the new menu")
        #expect(lines(l).contains("When: Tuesday 12 January 2027, 12:00"))
    }

    @Test func escapesAndQuotedParametersAreDecoded() throws {
        let l = try layer(calendar([[
            "SUMMARY:Plan\\; budget\\, staff \\\\ rota", "DTSTART:20270112T120000Z",
            "ORGANIZER;CN=\"Okafor, Grace: Finance\":mailto:grace@example.com",
            "DESCRIPTION:First line\\nSecond line\\NThird\\, with a comma",
        ]]))
        let t = lines(l)
        #expect(t[0] == "Plan; budget, staff \\ rota")
        #expect(t.contains("When: Tuesday 12 January 2027, 12:00 (UTC)"))
        #expect(t.contains("Organiser: Okafor, Grace: Finance"))
        #expect(text(l).hasSuffix("Notes: First line\nSecond line\nThird, with a comma"))
    }

    @Test func allDayEventsAreDatesAndTheirEndIsExclusive() throws {
        let l = try layer(calendar([
            ["SUMMARY:Mum's birthday", "DTSTART;VALUE=DATE:20270314", "DTEND;VALUE=DATE:20270315"],
            ["SUMMARY:Half term", "DTSTART;VALUE=DATE:20270215", "DTEND;VALUE=DATE:20270220"],
            ["SUMMARY:Moving day", "DTSTART;VALUE=DATE:20270301"],
        ]))
        let t = lines(l)
        #expect(t.contains("When: Sunday 14 March 2027 (all day)"))
        #expect(t.contains("When: Monday 15 February 2027 – Friday 19 February 2027"))
        #expect(t.contains("When: Monday 1 March 2027 (all day)"))
    }

    @Test func zonesAreShownAsWrittenNotConverted() throws {
        let l = try layer(calendar([
            ["SUMMARY:A", "DTSTART;TZID=/freeassociation.sourceforge.net/Europe/Berlin:20270112T093000", "DURATION:PT1H30M"],
            ["SUMMARY:B", "DTSTART;TZID=\"W. Europe Standard Time\":20270112T093000"],
            ["SUMMARY:C", "DTSTART:20270112T233000", "DTEND:20270113T013000"],
            ["SUMMARY:Flight", "DTSTART;TZID=Europe/London:20270112T090000", "DTEND;TZID=Europe/Berlin:20270112T120000"],
        ]))
        let t = lines(l)
        #expect(t.contains("When: Tuesday 12 January 2027, 09:30–11:00 (Europe/Berlin)"))
        #expect(t.contains("When: Tuesday 12 January 2027, 09:30 (W. Europe Standard Time)"))
        #expect(t.contains("When: Tuesday 12 January 2027, 23:30 – Wednesday 13 January 2027, 01:30"))
        #expect(t.contains("When: Tuesday 12 January 2027, 09:00 (Europe/London) – Tuesday 12 January 2027, 12:00 (Europe/Berlin)"))
    }

    @Test func aWeeklyRuleWithIntervalByDayUntilAndExdatesListsItsNextOccurrences() throws {
        let l = try layer(calendar([[
            "SUMMARY:Bin collection", "UID:bins",
            "DTSTART;TZID=Europe/London:20261005T070000", "DTEND;TZID=Europe/London:20261005T071500",
            // 06:00 UTC is 07:00 in London in June: the 28th is the last.
            "RRULE:FREQ=WEEKLY;UNTIL=20270628T060000Z;INTERVAL=2;BYDAY=MO",
            "EXDATE;TZID=Europe/London:20261228T070000", "EXDATE;VALUE=DATE:20270208",
        ], [
            "SUMMARY:Bin collection (a day late)", "UID:bins", "RECURRENCE-ID;TZID=Europe/London:20270125T070000",
            "DTSTART;TZID=Europe/London:20270126T070000",
        ]]))
        let t = lines(l)
        #expect(t.contains("Repeats: every 2 weeks on Monday until 28 June 2027, except 28 December 2026 and 8 February 2027"))
        // 11 January; not 25 January (moved) nor 8 February (an EXDATE of the day); to 28 June.
        #expect(t.contains("Next from 1 January 2027: Monday 11 January 2027, Monday 22 February 2027, Monday 8 March 2027, Monday 22 March 2027, Monday 5 April 2027, Monday 19 April 2027, Monday 3 May 2027, Monday 17 May 2027, Monday 31 May 2027, Monday 14 June 2027, Monday 28 June 2027"))
        #expect(t.contains("Instead of: Monday 25 January 2027, 07:00 (Europe/London)"))
        #expect(l.timeDependent != nil)
    }

    @Test func countEndsARuleAndAtMostTwelveAreListed() throws {
        let l = try layer(calendar([
            ["SUMMARY:Book club", "DTSTART:20261126T193000", "RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-1TH"],
            ["SUMMARY:Stand-up", "DTSTART:20261207T091500", "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"],
            ["SUMMARY:Old course", "DTSTART:20260105T180000", "RRULE:FREQ=WEEKLY;COUNT=3"],
            ["SUMMARY:Rent", "DTSTART;VALUE=DATE:20260101", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1,-1"],
            ["SUMMARY:Census", "DTSTART;VALUE=DATE:20210321", "RRULE:FREQ=YEARLY;INTERVAL=10"],
        ]))
        let t = lines(l)
        #expect(t.contains("Repeats: every month on the last Thursday, 6 times"))
        #expect(t.contains("Next from 1 January 2027: Thursday 28 January 2027, Thursday 25 February 2027, Thursday 25 March 2027, Thursday 29 April 2027"))
        #expect(t.contains("Repeats: every weekday"))
        let standUp = t.first { $0.hasPrefix("Next from") && $0.contains("Monday 4 January 2027") }!
        #expect(standUp.components(separatedBy: ", ").count == 12)
        #expect(t.contains("Repeats: every week on Monday, 3 times"))
        #expect(t.contains("Last: Monday 19 January 2026"))
        #expect(t.contains("Repeats: every month on the 1st and the last day"))
        #expect(t.contains { $0.hasPrefix("Next from 1 January 2027: Friday 1 January 2027, Sunday 31 January 2027, Monday 1 February 2027") })
        // Nothing within a year: the first one within ten.
        #expect(t.contains("Repeats: every 10 years on 21 March"))
        #expect(t.contains("Next from 1 January 2027: Friday 21 March 2031"))
    }

    @Test func theNextOccurrencesFollowNowAndTheHashFollowsThem() throws {
        let cal = calendar([["SUMMARY:Bins", "DTSTART:20261005T070000", "RRULE:FREQ=WEEKLY"]])
        let a = try layer(cal)
        let b = try layer(cal, now: now.addingTimeInterval(3600))
        let c = try layer(cal, now: now.addingTimeInterval(7 * 86_400))
        #expect(a.bytes == b.bytes && a.timeDependent == b.timeDependent)
        #expect(a.timeDependent != c.timeDependent)
        #expect(lines(c).contains { $0.hasPrefix("Next from 8 January 2027: Monday 11 January 2027,") })
        // A calendar without repeating events does not depend on the day.
        #expect(try layer(calendar([["SUMMARY:X", "DTSTART:20270101T100000"]])).timeDependent == nil)
    }

    @Test func rulesNotFollowedAreDescribedAndOldRulesStayWithinTheBudget() throws {
        let start = Date()
        let l = try layer(calendar([
            ["SUMMARY:First Monday", "DTSTART:20270104T090000", "RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1"],
            ["SUMMARY:Huge", "DTSTART:20270104T090000", "RRULE:FREQ=DAILY;INTERVAL=9223372036854775807"],
            ["SUMMARY:Since year one", "DTSTART:00010101T090000", "RRULE:FREQ=DAILY"],
            ["SUMMARY:Fortnightly since 1950", "DTSTART:19500102T090000", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH"],
        ] + Array(repeating: ["SUMMARY:Since 1900", "DTSTART:19000101T090000", "RRULE:FREQ=DAILY"], count: 50)
          + Array(repeating: ["SUMMARY:Counted", "DTSTART:19000101T090000", "RRULE:FREQ=DAILY;COUNT=100000000"], count: 50)))
        #expect(Date().timeIntervalSince(start) < 30)
        let t = lines(l)
        #expect(t.contains("Repeats: by the rule FREQ=MONTHLY;BYDAY=MO;BYSETPOS=1 (its dates are not listed here)"))
        #expect(t.contains("Repeats: by the rule FREQ=DAILY;INTERVAL=9223372036854775807 (its dates are not listed here)"))
        // Daily and weekly rules without a COUNT are walked from a year back, however old.
        let counted = t.filter { $0.hasPrefix("Next from") }.count - 51 - 1
        #expect(t.filter { $0 == "Repeats: every day" }.count == 51)
        #expect(t.filter { $0.hasPrefix("Next from 1 January 2027: Friday 1 January 2027, Saturday 2 January 2027,") }.count == 51 + counted)
        // 4 January 2027 is 4,018 weeks after Monday 2 January 1950: a week of the rule.
        #expect(t.contains { $0.hasPrefix("Next from 1 January 2027: Monday 4 January 2027, Thursday 7 January 2027, Monday 18 January 2027") })
        // With a COUNT every occurrence from the first is walked: some are listed, the rest only described.
        #expect(t.filter { $0 == "Repeats: every day, 100000000 times" }.count == 50)
        #expect(counted > 0 && counted < 50)
    }

    @Test func toDosJournalsAndFreeBusyAreListed() throws {
        let text = """
            BEGIN:VCALENDAR\r
            BEGIN:VTODO\r
            SUMMARY:Renew the car insurance\r
            DUE;VALUE=DATE:20270120\r
            PRIORITY:1\r
            END:VTODO\r
            BEGIN:VTODO\r
            SUMMARY:Fix the gate\r
            STATUS:COMPLETED\r
            COMPLETED:20261230T101500Z\r
            END:VTODO\r
            BEGIN:VJOURNAL\r
            SUMMARY:Garden notes\r
            DTSTART;VALUE=DATE:20261201\r
            DESCRIPTION:Planted the garlic.\r
            END:VJOURNAL\r
            BEGIN:VFREEBUSY\r
            ATTENDEE;CN=Dr Patel:mailto:p@example.org\r
            FREEBUSY:20270112T090000Z/20270112T100000Z,20270112T140000Z/PT30M\r
            FREEBUSY;FBTYPE=BUSY-TENTATIVE:20270113T090000Z/20270113T093000Z\r
            END:VFREEBUSY\r
            END:VCALENDAR\r

            """
        let t = lines(try layer(text))
        #expect(t.contains("Due: Wednesday 20 January 2027"))
        #expect(t.contains("Status: to do"))
        #expect(t.contains("Priority: high"))
        #expect(t.contains("Status: done"))
        #expect(t.contains("Completed: Wednesday 30 December 2026, 10:15 (UTC)"))
        #expect(t.contains("Date: Tuesday 1 December 2026"))
        #expect(t.contains("Free/busy: Dr Patel"))
        #expect(t.contains("Busy: Tuesday 12 January 2027, 09:00–10:00 (UTC)"))
        #expect(t.contains("Busy: Tuesday 12 January 2027, 14:00–14:30 (UTC)"))
        #expect(t.contains("Busy (tentative): Wednesday 13 January 2027, 09:00–09:30 (UTC)"))
    }

    @Test func alarmsAndTimeZonesAreNotText() throws {
        let t = text(try layer("""
            BEGIN:VCALENDAR\r
            BEGIN:VTIMEZONE\r
            TZID:Europe/London\r
            BEGIN:STANDARD\r
            DTSTART:19701025T020000\r
            TZNAME:GMT\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VEVENT\r
            SUMMARY:Call the plumber\r
            DTSTART;TZID=Europe/London:20270112T080000\r
            BEGIN:VALARM\r
            DESCRIPTION:Default Mozilla Description\r
            TRIGGER:-PT15M\r
            END:VALARM\r
            END:VEVENT\r
            END:VCALENDAR\r

            """))
        #expect(t == "Call the plumber\n\nWhen: Tuesday 12 January 2027, 08:00 (Europe/London)")
    }

    @Test func badFilesAreRefusedOrReadAsFarAsTheyGo() throws {
        #expect(throws: DocumentError.malformed(path: "t.ics", reason: "no BEGIN:VCALENDAR line: not an iCalendar file")) {
            try layer("Dentist on Tuesday at 9:30\n")
        }
        // Binary bytes: refused, not a crash.
        var noise: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<100_000 { x = x &* 1_103_515_245 &+ 12345; noise.append(UInt8(truncatingIfNeeded: x >> 16)) }
        #expect(throws: DocumentError.self) { try ICSDocument.textLayer(noise, path: "t.ics", now: now) }
        // Cut off: what is there is read.
        let cut = try layer("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Dentist\r\nDTSTART:20270112T093000\r\nLOCATION:Smile Den")
        #expect(text(cut) == "Dentist\n\nWhen: Tuesday 12 January 2027, 09:30\nWhere: Smile Den")
        // A calendar with nothing in it is empty, with a reason.
        let empty = try layer("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n")
        #expect(empty.blocks.isEmpty && empty.emptyReason == "a calendar with no events, to-dos or journal entries")
        // Unreadable dates are said so.
        #expect(lines(try layer(calendar([["SUMMARY:X", "DTSTART:20271345T250000"]]))).contains("When: 20271345T250000 (not a date this reader knows)"))
    }

    @Test func hugeLinesAndDeepNestingStayLinear() throws {
        let start = Date()
        let long = String(repeating: "a", count: 10_000_000)
        let l = try layer("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Big\r\nDTSTART:20270112T093000\r\nX-BLOB:" + long + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        #expect(lines(l).first == "Big")
        // A 10 MB line without a colon, and 50,000 folded continuation lines.
        _ = try? layer("BEGIN:VCALENDAR\r\n" + long + "\r\n")
        _ = try layer("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDESCRIPTION:x" + String(repeating: "\r\n y", count: 50_000) + "\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
        let nested = "BEGIN:VCALENDAR\r\n" + String(repeating: "BEGIN:VEVENT\r\n", count: 100_000) + String(repeating: "END:VEVENT\r\n", count: 3)
        _ = try layer(nested)
        #expect(Date().timeIntervalSince(start) < 30)
    }

    @Test func readerIsChosenByExtensionOrContent() throws {
        let ics = Array("\u{FEFF}\r\nBEGIN:VCALENDAR\r\nPRODID:x\r\nEND:VCALENDAR\r\n".utf8)
        #expect(try DocumentReader.format(path: "invite", bytes: ics) == .calendar)
        #expect(try DocumentReader.format(path: "busy.IFB", bytes: []) == .calendar)
        #expect(try DocumentReader.format(path: "a.ics", bytes: []) == .calendar)
        #expect(try DocumentReader.format(path: "people.vcard", bytes: []) == .contacts)
        #expect(try DocumentReader.format(path: "people", bytes: Array("BEGIN:VCARD\nFN:A\nEND:VCARD\n".utf8)) == .contacts)
        #expect(try DocumentReader.format(path: "x", bytes: [], declared: "calendar") == .calendar)
    }

    @Test func chunksAreOneSectionPerEventWithExactOffsets() throws {
        let ics = calendar([
            ["SUMMARY:Dentist check-up", "DTSTART;TZID=Europe/London:20270112T093000", "LOCATION:Smile Dental"],
            ["SUMMARY:Bins", "DTSTART:20261005T070000", "RRULE:FREQ=WEEKLY"],
        ])
        let chunker = DocumentChunker(library: "t", chunker: try Chunker(tokens: TestSupport.counter()), now: now)
        let chunks = try chunker.chunk(path: "family.ics", text: ics, title: nil, format: nil)
        #expect(chunks.map(\.format) == ["calendar", "calendar"])
        #expect(chunks.map(\.span.section) == [["Dentist check-up"], ["Bins"]])
        #expect(chunks[0].text == "When: Tuesday 12 January 2027, 09:30 (Europe/London)\nWhere: Smile Dental")
        #expect(chunks[0].span.lineStart == 3)
        let (layer, _) = try DocumentReader.read(path: "family.ics", inlineText: ics, now: now)
        for c in chunks { #expect(String(decoding: layer.bytes[c.span.start..<c.span.end], as: UTF8.self) == c.text) }
        // The next occurrences are in the document's hash: a week on, it is read again.
        let later = DocumentChunker(library: "t", chunker: try Chunker(tokens: TestSupport.counter()), now: now.addingTimeInterval(7 * 86_400))
        #expect(try later.chunk(path: "family.ics", text: ics, title: nil, format: nil)[0].docHash != chunks[0].docHash)
        #expect(try chunker.chunk(path: "family.ics", text: ics, title: nil, format: nil)[0].docHash == chunks[0].docHash)
    }
}
