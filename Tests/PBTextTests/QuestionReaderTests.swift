import Testing
import PBCore
@testable import PBText

@Suite struct QuestionReaderTests {
    func read(_ q: String) -> (QuestionIntent, AskedValue?, Measure?) {
        let r = QuestionReader.read(q)
        return (r.intent, r.asks, r.measure)
    }

    @Test func lookupsSayWhatKindOfValue() {
        #expect(read("front tyre pressure?") == (.lookup, .quantity, .pressure))
        #expect(read("What's Dave's phone number?") == (.lookup, .phone, nil))
        #expect(read("what is the buildings insurance excess?") == (.lookup, .money, nil))
        #expect(read("How much notice must I give after probation?") == (.lookup, .quantity, .duration))
        // The length of a span of time is a duration; of a thing, a distance.
        #expect(read("probation period length in my contract") == (.lookup, .quantity, .duration))
        #expect(read("what is the length of the drain hose?") == (.lookup, .quantity, .length))
        // How far ahead is a span of time; how far, a distance.
        #expect(read("how far in advance must I book the parents' evening?") == (.lookup, .quantity, .duration))
        #expect(read("how far ahead can I reserve a table?") == (.lookup, .quantity, .duration))
        #expect(read("how far is the station from the hotel?") == (.lookup, .quantity, .length))
        #expect(read("how much was the dishwasher repair?") == (.lookup, .money, nil))
        #expect(read("how much salt goes in the softener?").1 == .quantity)
        #expect(read("what is the wifi password?") == (.lookup, .code, nil))
        #expect(read("what is Grace's email address?") == (.lookup, .email, nil))
        #expect(read("how many place settings does it hold?") == (.lookup, .number, nil))
    }

    @Test func comparisonsPhrasedWithThanOrComparedWith() {
        // Asked as a yes/no, a comparison still wants both values.
        #expect(read("Is the washer dryer's washing capacity bigger than its drying capacity?").0 == .compare)
        #expect(read("Is the washer dryer's washing capacity bigger than its drying capacity?").1 != .yesNo)
        #expect(read("After probation, how much notice does the company give me compared with what I have to give?").0 == .compare)
        #expect(read("Was March's grocery spending over or under the budget?").0 == .compare)
        #expect(read("Do I pay more rent than the flat upstairs?").0 == .compare)
        // "other than", "rather than" and "later than" compare nothing.
        #expect(read("Who other than Dave has a key?").0 != .compare)
        #expect(read("When must the rent be paid, no later than which day?").0 != .compare)
        #expect(QuestionReader.comparesWithThan(["is", "it", "longer", "than", "that"]))
        #expect(!QuestionReader.comparesWithThan(["rather", "than", "this"]))
    }

    @Test func explanationsAreNotLookups() {
        #expect(read("What does error code E24 mean?").0 == .general)
        #expect(read("why does the boiler lose pressure?").0 == .general)
    }

    @Test func shapesOtherThanAValue() {
        #expect(read("How do I clean the drain pump filter?").0 == .procedure)
        #expect(read("summarise the meeting notes").0 == .summarize)
        #expect(read("What is in my documents?").0 == .overview)
        #expect(read("Which files are about the garden?").0 == .overview)
        #expect(read("Compare the two quotes").0 == .compare)
        #expect(read("When is my dentist appointment?") == (.when, .date, nil))
        #expect(read("What period does the energy bill cover?").1 == .date)
        #expect(read("what time does the pool open?").1 == .time)
        #expect(read("Who fixed the boiler?") == (.who, .name, nil))
        #expect(read("Can we keep a cat in the flat?") == (.general, .yesNo, nil))
    }
}
