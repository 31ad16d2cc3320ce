import Foundation
import PBCore
import PBText
@testable import PBAnswer
import Testing

/// From a memory the answer is the value asked for; the sentence stays its quote.
@Suite struct MemoryShortAnswerTests {
    func value(_ question: String, _ quote: String, opening: String? = nil) -> String? {
        let reading = QuestionReader.read(question)
        return MemoryAnswer.value(in: quote, question: question, reading: reading, expectsTime: QuestionAnalysis(question).expectation == .time,
                                  opening: opening, speakers: ["Caroline", "Melanie"])
    }

    @Test func whenIsTheDayTheItemRefersTo() {
        #expect(value("When did Caroline go to the support group?", "I went to a support group yesterday.", opening: "On 7 May 2023") == "7 May 2023")
        #expect(value("When is Melanie going camping?", "We're going camping in June.", opening: "In June 2023") == "June 2023")
        // Naming no time of its own, the sentence answers, not the day it was said.
        #expect(value("When is the deposit returned?", "The deposit is returned within ten days of the end of the tenancy.",
                      opening: "Said on 1 February 2026") == nil)
    }

    @Test func whoWhereAndHowMuch() {
        #expect(value("Where will Tim be going for a semester abroad?", "Next month, I'm off to Ireland for a semester.") == "Ireland")
        #expect(value("Where did Caroline move from?", "I've lived here for four years now.") == nil)
        #expect(value("Who did Caroline go hiking with?", "Melanie, I went hiking with Priya and Tom last week.") == "Priya, Tom")
        #expect(value("How much is the deposit for the flat?", "The deposit for the flat is 1,325 pounds, protected with the DPS.") == "1,325 pounds")
        // Two amounts are a list the sentence says better; other questions keep the sentence.
        #expect(value("How much did the trip cost?", "Flights were £180 and the hotel £320.") == nil)
        #expect(value("What did Caroline research?", "Researching adoption agencies, it's been a dream.") == nil)
    }
}
