import PBAgent
import PBCore
import Testing
@testable import PBSpeech

@Suite("names recovered from contacts")
struct SpokenNamesTests {
    static let book = ContactBook(contacts: VCard.parse("""
    BEGIN:VCARD\nVERSION:3.0\nFN:Myra Jones\nN:Jones;Myra;;;\nEND:VCARD
    BEGIN:VCARD\nVERSION:3.0\nFN:Jon Smith\nN:Smith;Jon;;;\nEND:VCARD
    BEGIN:VCARD\nVERSION:3.0\nFN:John Baker\nN:Baker;John;;;\nEND:VCARD
    BEGIN:VCARD\nVERSION:3.0\nFN:Priya Shah\nN:Shah;Priya;;;\nEND:VCARD
    """))
    static let names = SpokenNames(book: book)

    @Test("a word after a person-taking verb that sounds like one contact becomes the name")
    func recovers() {
        let (text, found) = Self.names.recover(" Call Mira about the boiler.")
        #expect(text == " Call Myra about the boiler.")
        #expect(found == [NameCorrection(heard: "Mira", name: "Myra")])
        #expect(Self.names.recover("email mirror the slides").text == "email Myra the slides")
    }

    @Test("nothing is guessed: two contacts sounding alike are reported, not chosen")
    func ambiguous() {
        let (text, found) = Self.names.recover("ask Jhon tonight")
        #expect(text == "ask Jhon tonight")
        #expect(found == [NameCorrection(heard: "Jhon", candidates: ["Jon Smith", "John Baker"])])
    }

    @Test("words not after such a verb, names as written, pronouns and relations stay")
    func leavesAlone() {
        for said in ["I looked in the mirror", "call Priya", "call me back", "call mum tonight", "text them later"] {
            let (text, found) = Self.names.recover(said)
            #expect(text == said)
            #expect(found.isEmpty, "\(said)")
        }
    }
}
