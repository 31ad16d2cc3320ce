import Testing
import PBCore
import PBText
@testable import PBAnswer

@Suite struct EvidenceBridgeTests {
    static let contact = "Dr Helen Marsh\nPhone (work): 01632 960481\nOrganisation: Riverside Dental Practice\nNote: emergency appointments the same day"
    static let event = "Dentist: Nell\nWhen: Thursday 24 April 2025, 09:40–10:10\nWhere: Riverside Dental Practice, 3 Mill Lane"
    static let newsletter = "Parents' evenings are on Wednesday 2 April. Book through the school app."

    func evidence(_ n: Int, _ path: String, _ text: String) -> Evidence {
        Evidence(n: n, span: SourceSpan(chunkID: "c-\(n)", docID: "d\(n)", path: path, title: "", section: [],
                                        start: 0, end: text.utf8.count, lineStart: 1, lineEnd: 3),
                 text: text, role: .anchor, score: 1, rank: n)
    }

    func line(_ n: Int, _ path: String, _ text: String, in whole: String) -> EvidenceSentence {
        let start = whole.utf8.count - (whole.components(separatedBy: text).last ?? "").utf8.count - text.utf8.count
        return EvidenceSentence(n: n, piece: n - 1, chunkID: "c-\(n)", path: path, start: start, end: start + text.utf8.count,
                                line: 1, page: nil, text: text)
    }

    @Test func anotherFileThatNamesTheSameThingBindsTheAnswer() throws {
        try #require(WordNet.shared != nil, "wordnet-base is not installed (make deps)")
        let desk = [evidence(1, "contacts.vcf", Self.contact), evidence(2, "newsletter.txt", Self.newsletter),
                    evidence(3, "family-calendar.ics", Self.event)]
        let phone = line(1, "contacts.vcf", "Phone (work): 01632 960481", in: Self.contact)
        let sentences = [phone, line(2, "newsletter.txt", "Parents' evenings are on Wednesday 2 April.", in: Self.newsletter),
                         line(3, "family-calendar.ics", "When: Thursday 24 April 2025, 09:40–10:10", in: Self.event)]
        let question = "What's the phone number of the dental practice where my April appointment is?"
        // The newsletter says April too, but names nothing the contact card does: the calendar
        // event at Riverside Dental Practice is the bridge.
        let bridge = EvidenceBridge.sentence(question: question, answer: [phone], sentences: sentences, evidence: desk)
        #expect(bridge?.path == "family-calendar.ics")
        // Without the event, no bridge: a shared month is not a shared subject.
        #expect(EvidenceBridge.sentence(question: question, answer: [phone], sentences: Array(sentences.prefix(2)),
                                        evidence: Array(desk.prefix(2))) == nil)
    }

    @Test func namesAreCapitalisedWhereNoSentenceBegins() {
        let names = EvidenceBridge.names(in: "Monthly budget. Paid to Riverside Dental.\nANALYTICS salary from FERNHILL")
        #expect(names == Set(["Riverside", "Dental", "FERNHILL"].map { TermAnalyzer.stem($0.lowercased()) }))
    }
}

@Suite struct AmountLinkTests {
    @Test func amountsToThePenny() {
        #expect(AmountLink.amounts(in: "The trip costs £8.50 per child") == ["8.50"])
        #expect(AmountLink.amounts(in: "01/03/2025,DD,KINGSMERE BS MORTGAGE 00471285,1142.37,,62.18") == ["1142.37", "62.18"])
        #expect(AmountLink.amounts(in: "Total £1,142.37 due") == ["1142.37"])
        #expect(AmountLink.amounts(in: "version 2.5, section 7.3.1, 120 kWh, 12.345").isEmpty)
    }

    @Test func theSamePaymentSeenFromAnotherFile() {
        let links = AmountLink.find(in: "Year 4 visit.\nThe trip costs £8.50 per child, paid through ParentPay.", title: "Ashcombe Primary newsletter")
        #expect(links.map(\.amount) == ["8.50"])
        let link = links[0]
        #expect(link.isStated(in: "20/03/2025,DEB,PARENTPAY ASHCOMBE PRIMARY,8.50,,402.76"))
        // The same amount for something else is another payment.
        #expect(!link.isStated(in: "12/03/2025,DEB,GREGGS KINGSMERE,8.50,,611.02"))
        #expect(!link.isStated(in: "20/03/2025,DEB,PARENTPAY ASHCOMBE PRIMARY,18.50,,402.76"))
    }

    @Test func onlyAmountsOnLinesTheQuestionIsAbout() {
        let statement = "15/03/2025,DEB,HALLORAN HARDWARE KINGSMERE,38.47,,520.11\n18/03/2025,DD,BRIGHTWATER ENERGY,165.00,,355.11"
        let asked = Set(TermAnalyzer.contentTerms("How much did I spend at Halloran Hardware?"))
        #expect(AmountLink.find(in: statement, title: "bank statement", asked: asked).map(\.amount) == ["38.47", "520.11"])
        #expect(AmountLink.find(in: statement, title: "bank statement").map(\.amount) == ["38.47", "520.11", "165.00", "355.11"])
    }
}
