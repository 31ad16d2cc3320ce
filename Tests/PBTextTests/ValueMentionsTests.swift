import Testing
import PBCore
@testable import PBText

@Suite struct ValueMentionsTests {
    @Test func phoneNumbersAreNotRegistrationNumbers() {
        let text = "Dave Okafor, Gas Safe registration 548921. Mobile 07700 900418, office (01632) 960732."
        let phones = ValueMentions.find(.phone, in: text).map(\.text)
        #expect(phones.contains("07700 900418"))
        #expect(!phones.contains { $0.contains("548921") })
        #expect(!ValueMentions.holds(.phone, in: "Gas Safe registration number 548921"))
        #expect(ValueMentions.holds(.phone, in: "call Nordvik service on 0800 555 0142"))
        #expect(ValueMentions.holds(.phone, in: "Tel: +44 20 7946 0958"))
    }

    @Test func moneyNeedsACurrency() {
        #expect(ValueMentions.holds(.money, in: "The excess is £500 for escape of water."))
        #expect(ValueMentions.holds(.money, in: "Amount (EUR): 129.00"))
        #expect(ValueMentions.holds(.money, in: "a fee of 45 euros"))
        #expect(!ValueMentions.holds(.money, in: "Recommended pressures (from the sticker on the door pillar):"))
        #expect(!ValueMentions.holds(.money, in: "It holds 14 place settings."))
    }

    @Test func quantitiesByMeasure() {
        #expect(ValueMentions.holds(.quantity, measure: .pressure, in: "Rear, full load: 3.0 bar (44 psi)"))
        #expect(!ValueMentions.holds(.quantity, measure: .pressure, in: "Recommended pressures (from the sticker):"))
        #expect(ValueMentions.holds(.quantity, measure: .temperature, in: "maximum inlet temperature 60 °C"))
        #expect(ValueMentions.holds(.quantity, measure: .duration, in: "you must give three months' written notice"))
        #expect(ValueMentions.holds(.quantity, measure: .duration, in: "Returns within 28 days with this receipt."))
        #expect(!ValueMentions.holds(.quantity, measure: .duration, in: "It uses 9.5 litres."))
        #expect(ValueMentions.holds(.quantity, measure: .volume, in: "It uses 9.5 litres."))
        #expect(ValueMentions.find(.quantity, in: "3 bedrooms and one a").isEmpty)
    }

    @Test func theQuestionsOwnValueDoesNotAnswerIt() {
        let own: Set<String> = [ValueMentions.normalised("2.4 bar")]
        #expect(!ValueMentions.holds(.quantity, measure: .pressure, in: "Is 2.4 bar right?", excluding: own))
        #expect(ValueMentions.holds(.quantity, measure: .pressure, in: "Front: 2.2 bar", excluding: own))
    }

    @Test func datesTimesEmailsAddressesCodes() {
        #expect(ValueMentions.holds(.date, in: "Tuesday 12 January 2027"))
        #expect(ValueMentions.holds(.date, in: "renewal on 13/03/2026"))
        #expect(ValueMentions.holds(.time, in: "meet at 14:00"))
        #expect(ValueMentions.holds(.time, in: "check-in from 3 pm"))
        #expect(!ValueMentions.holds(.time, in: "about 3 people"))
        #expect(ValueMentions.find(.email, in: "write to grace@okafor-heating.example today").map(\.text) == ["grace@okafor-heating.example"])
        #expect(ValueMentions.holds(.address, in: "14 Copperbeech Close, Kingsmere KM6 2RT"))
        #expect(ValueMentions.holds(.code, in: "error E24 on the display"))
        #expect(ValueMentions.holds(.code, in: "policy JA-TRV-88120"))
    }
}

@Suite struct ValueMentionsRowTests {
    @Test func aCSVRecordsPriceIsMoney() {
        #expect(ValueMentions.holds(.money, in: "2024-01,Utilities,Electricity,86.40,Joint account,", tableRow: true))
        #expect(!ValueMentions.holds(.money, in: "2024-01,Utilities,Electricity,86.40,Joint account,"))
        #expect(ValueMentions.holds(.money, in: "Cheddar 400g | 4.10"))
    }
}
