import Testing
@testable import PBText

@Suite struct SentenceSegmenterTests {
    func split(_ text: String) throws -> [String] {
        let bytes = Array(text.utf8)
        return try SentenceSegmenter().sentences(in: bytes, range: 0..<bytes.count).map { String(decoding: bytes[$0], as: UTF8.self) }
    }

    @Test func abbreviationsDoNotEndSentences() throws {
        #expect(try split("Dr. Smith saw Mr. Jones, e.g. at noon. Then he left.") ==
                ["Dr. Smith saw Mr. Jones, e.g. at noon.", "Then he left."])
        #expect(try split("See Fig. 3 and J. R. R. Tolkien. Done!") == ["See Fig. 3 and J. R. R. Tolkien.", "Done!"])
    }

    @Test func ordinarySentencesSplit() throws {
        #expect(try split("One. Two? Three!  Four") == ["One.", "Two?", "Three!", "Four"])
    }

    @Test func offsetsAreBytesEvenWithNonASCII() throws {
        let text = "Café au lait coûte 3 €. Ça va? Oui."
        let bytes = Array(text.utf8)
        let ranges = try SentenceSegmenter().sentences(in: bytes, range: 0..<bytes.count)
        #expect(ranges.count == 3)
        #expect(String(decoding: bytes[ranges[1]], as: UTF8.self) == "Ça va?")
    }

    @Test func subrangesKeepAbsoluteOffsets() throws {
        let bytes = Array("xxxx Hello there. Bye. yyyy".utf8)
        let ranges = try SentenceSegmenter().sentences(in: bytes, range: 5..<22)
        #expect(ranges.first?.lowerBound == 5)
        #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == ["Hello there.", "Bye."])
    }

    @Test func aNumberCarriedToTheNextLineStaysInItsSentence() throws {
        #expect(try split("Account number: 88120473. Bill date: 9 February 2025. Billing period: 8 January 2025 to 7 February\n2025 (31 days). Tariff: Steady Fix.")
                == ["Account number: 88120473.", "Bill date: 9 February 2025.", "Billing period: 8 January 2025 to 7 February\n2025 (31 days).", "Tariff: Steady Fix."])
        // A numbered item and a delimited file's next record start lines of their own.
        #expect(try split("Check the drain hose and the pump filter before you call the engineer out\n2. Run a rinse").count == 2)
        #expect(try split("2024-01,Utilities,Electricity,86.40,Joint account,Standing order payment\r\n2024-01,Utilities,Water,42.15").count == 2)
    }

    @Test func hardWrappedSentencesStayWhole() throws {
        // Lower case goes on; so does an open bracket and a full prose line ending mid-phrase.
        #expect(try split("The\ncommittee agreed.") == ["The\ncommittee agreed."])
        #expect(try split("Bought a new battery (Varta Silver Dynamic\nE39) from Hollis Motors. Done.") ==
                ["Bought a new battery (Varta Silver Dynamic\nE39) from Hollis Motors.", "Done."])
        #expect(try split("Cost 412.50 including 238.00 for brakes. Next brake fluid change due\nJune 2023 (every 2 years).") ==
                ["Cost 412.50 including 238.00 for brakes.", "Next brake fluid change due\nJune 2023 (every 2 years)."])
        #expect(try split("Rear tyres at 4.1 mm, fronts 3.9 mm: plan new tyres before winter\n(legal minimum 1.6 mm).") ==
                ["Rear tyres at 4.1 mm, fronts 3.9 mm: plan new tyres before winter\n(legal minimum 1.6 mm)."])
    }

    @Test func linesThatStandAloneStayApart() throws {
        #expect(try split("2023-02-14  72,350 km  Roadside\nBattery would not start.") == ["2023-02-14  72,350 km  Roadside", "Battery would not start."])
        #expect(try split("2021-06-15  48,510 km  Garage: Hollis Motors and friends of the garage, Hollis Motors\nFull service on purchase.") ==
                ["2021-06-15  48,510 km  Garage: Hollis Motors and friends of the garage, Hollis Motors", "Full service on purchase."])
        #expect(try split("- buy seeds for the spring sowing in the shared beds by the shed\n- Fix the fence") ==
                ["- buy seeds for the spring sowing in the shared beds by the shed", "- Fix the fence"])
        #expect(try split("date,meter,reading\n2024-01-01,gas,10234") == ["date,meter,reading", "2024-01-01,gas,10234"])
        #expect(try split("Short heading line\nNext paragraph starts.") == ["Short heading line", "Next paragraph starts."])
        #expect(try split("Holding deposit | £265 | Paid 2 August 2023, credited to the first month's rent\nTenancy deposit | £1,325 | Before keys") ==
                ["Holding deposit | £265 | Paid 2 August 2023, credited to the first month's rent", "Tenancy deposit | £1,325 | Before keys"])
    }
}
