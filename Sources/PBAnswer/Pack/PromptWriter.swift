import PBCore

/// The two chat messages built from the desk: fixed instructions (system) and the numbered
/// evidence followed by the question (user).
///
/// Every separator is whitespace, which WordPiece never counts and never joins across, so the
/// tokens of the prompt are the sum of the tokens of its blocks; the packer relies on that to
/// count a passage once instead of recounting the whole prompt, and checks the sum at the end.
public enum PromptWriter {
    /// The phrase the writer is told to use: the one pb-verify recognises as a decline.
    public static let abstention = Abstention.phrase

    public static let instructions = """
        Answer the question using only the numbered evidence passages. Cite every sentence with the \
        number of the passage that supports it, like [1] or [2][3]. If the evidence does not hold the \
        answer, say exactly "\(abstention)" Be brief.
        """

    /// The last block of the prompt: the question, and what shape of answer it asks for (from
    /// pb-search's question analysis), so that a model answers a procedure with its steps and
    /// an amount with the amount, as the extractive composer does.
    public static func question(_ text: String, reading: QuestionReading? = nil) -> String {
        "Question: " + text + (reading.flatMap(expected).map { "\nAnswer with: " + $0 + "." } ?? "")
    }

    /// What a question's answer should hold, in words; nil when the analysis says nothing particular.
    static func expected(_ r: QuestionReading) -> String? {
        switch r.intent {
        case .procedure: return "the steps in order, as the evidence numbers them"
        case .compare: return "both values compared, each with its citation"
        case .summarize: return "a summary that covers each section and keeps its numbers, names and dates"
        case .overview: return "one line per document: its file name and what it is"
        case .lookup, .when, .who, .general:
            guard let asks = r.asks else {
                return r.intent == .when ? "a date or time" : r.intent == .who ? "a person or organisation" : nil
            }
            switch asks {
            case .money: return "the amount of money, as the evidence writes it"
            case .quantity: return "the number with its unit" + (r.measure.map { " (a \($0.rawValue))" } ?? "")
            case .number: return "the number"
            case .date: return "the date"
            case .time: return "the time"
            case .name: return "the name of the person or organisation"
            case .phone: return "the phone number"
            case .email: return "the e-mail address"
            case .address: return "the postal address"
            case .code: return "the code or reference"
            case .yesNo: return "yes or no, and the sentence that says so"
            }
        }
    }

    /// "[n] Title › Section › Subsection (file:line)", then the pieces' texts in source order.
    /// The file is named without its folders: the model needs to tell sources apart, not to
    /// know where the user keeps them (and the prompt should not change with the folder).
    public static func passage(_ pieces: [Evidence], number: Int) -> String {
        guard let first = pieces.first else { return "" }
        let file = first.fileName
        let replaced = first.supersededBy == nil ? "" : " (replaced by a later message)"
        return "[\(number)] " + label(title: first.title, section: first.section) + "(\(file):\(first.lineStart))\(replaced)\n"
            + pieces.map(\.text).joined(separator: "\n")
    }

    /// The title and the section path, without a first heading that repeats the title.
    static func label(title: String, section: [String]) -> String {
        var path = section
        if let head = path.first, head.lowercased() == title.lowercased() { path.removeFirst() }
        let parts = ([title] + path).filter { !$0.isEmpty }
        return parts.isEmpty ? "" : parts.joined(separator: " › ") + " "
    }

    /// The user message: passages in prompt order, a blank line between, then the question;
    /// a memory's background puts its summary first and its recent messages before the question.
    public static func prompt(passages: [String], question text: String, reading: QuestionReading? = nil, background: Background? = nil) -> String {
        var blocks = passages
        if let background {
            blocks.insert(summary(background), at: 0)
            if !background.recent.isEmpty { blocks.append(recent(background.recent)) }
        }
        return (blocks + [question(text, reading: reading)]).joined(separator: "\n\n")
    }

    /// "Background (not evidence): ..." and the workstream's summary.
    public static func summary(_ b: Background) -> String {
        "Background, not evidence: " + b.summary
    }

    /// "Recent messages:" then one line each, "2023-05-08T10:00:00Z me: ...".
    public static func recent(_ messages: [RecentMessage]) -> String {
        (["Recent messages, not evidence:"] + messages.map(recentLine)).joined(separator: "\n")
    }

    public static func recentLine(_ m: RecentMessage) -> String {
        let who = m.role == .assistant ? "assistant" : (m.speaker ?? "user")
        return "\(m.time) \(who): " + m.text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
