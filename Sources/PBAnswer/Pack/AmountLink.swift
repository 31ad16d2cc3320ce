import Foundation
import PBCore
import PBText

/// An amount to the penny in a passage ("£8.50", "TOTAL | £38.47") with the words that say what
/// it was for: the words of its line and its document's title ("The trip costs £8.50 per child,
/// paid through ParentPay"; "Halloran Hardware"). Another file's line that states the same amount
/// beside one of those words is the same payment seen from elsewhere: the bank statement's
/// "PARENTPAY ASHCOMBE PRIMARY,8.50" and "HALLORAN HARDWARE KINGSMERE,38.47".
struct AmountLink: Equatable {
    /// The amount as written, without a currency sign or thousands separators: "8.50", "1142.37".
    var amount: String
    /// Stemmed words of four letters or more, not numbers, that say what it was for.
    var words: Set<String>

    /// The amounts to the penny in `text`, each with the words of its line and of `title`; with
    /// `asked`, only on lines that hold one of those words (a question's: a bank statement's
    /// energy direct debit is not what "how much did I spend at Halloran Hardware?" is about).
    static func find(in text: String, title: String, asked: Set<String>? = nil) -> [AmountLink] {
        let titleWords = Self.words(title)
        var out: [AmountLink] = []
        for line in text.split(whereSeparator: \.isNewline) {
            if let asked, Set(TermAnalyzer.contentTerms(String(line))).isDisjoint(with: asked) { continue }
            for amount in amounts(in: String(line)) where !out.contains(where: { $0.amount == amount }) {
                out.append(AmountLink(amount: amount, words: Self.words(String(line)).union(titleWords)))
            }
        }
        return out
    }

    /// Whether a line of another file states this amount beside one of its words.
    func isStated(in line: String) -> Bool {
        Self.amounts(in: line).contains(amount) && !Self.words(line).isDisjoint(with: words)
    }

    /// Numbers with two decimals, thousands separators dropped: "£1,142.37" is "1142.37".
    static func amounts(in text: String) -> [String] {
        var out: [String] = []
        let chars = Array(text)
        var i = 0
        while i < chars.count {
            guard chars[i].isASCII, chars[i].isNumber, i == 0 || !(chars[i - 1].isLetter || chars[i - 1].isNumber || chars[i - 1] == ".") else { i += 1; continue }
            var j = i
            var digits = ""
            // A comma separates thousands after a first group of one to three digits and between
            // groups of three ("1,142.37"); in "00471285,1142.37" it separates CSV fields.
            var group = 0
            var grouped = false
            while j < chars.count, chars[j].isASCII {
                if chars[j].isNumber {
                    digits.append(chars[j])
                    group += 1
                } else if chars[j] == ",", grouped ? group == 3 : (1...3).contains(group), j + 4 <= chars.count,
                          chars[j + 1...j + 3].allSatisfy({ $0.isASCII && $0.isNumber }),
                          j + 4 == chars.count || !(chars[j + 4].isASCII && chars[j + 4].isNumber) {
                    grouped = true
                    group = 0
                } else {
                    break
                }
                j += 1
            }
            if j + 2 < chars.count, chars[j] == ".", chars[j + 1].isASCII, chars[j + 1].isNumber, chars[j + 2].isASCII, chars[j + 2].isNumber,
               j + 3 == chars.count || !(chars[j + 3].isNumber || chars[j + 3].isLetter) {
                out.append(digits + "." + String(chars[j + 1...j + 2]))
                j += 3
            }
            i = max(j, i + 1)
        }
        return out
    }

    /// The lines of linked pieces (pb-pack's `link` role) that state an amount of the answer's
    /// sentences under the same name: the payment as the other file records it.
    static func statements(of answer: [EvidenceSentence], among sentences: [EvidenceSentence], evidence: [Evidence]) -> [EvidenceSentence] {
        let links = answer.filter { $0.piece < evidence.count }.flatMap { find(in: $0.text, title: $0.title + " " + evidence[$0.piece].fileName) }
        guard !links.isEmpty else { return [] }
        return sentences.filter { s in
            s.piece < evidence.count && evidence[s.piece].role == .link && !answer.contains { $0.path == s.path }
                && links.contains { $0.isStated(in: s.text) }
        }
    }

    static func words(_ text: String) -> Set<String> {
        Set(TermAnalyzer.contentTerms(text).filter { $0.count >= 4 && !TermAnalyzer.isNumber($0) && $0.contains(where: \.isLetter) })
    }
}
