import PBText

/// Which documents a request to summarise is about. "Summarise the boiler warranty certificate"
/// names one document by three words of its title; the service record, whose file name shares
/// only "boiler", is another document and not part of that summary. So the documents taken are
/// those whose title and file name hold the most of the request's subject words (at most
/// `limit`, best ranked first); when no title names any of them, the top hit's document alone.
/// pb-pack puts these documents on the desk and pb-answer summarises them, by the same rule.
public enum SummaryScope {
    /// The subject words of a request: its content words without the words that ask for a summary.
    public static func subject(_ request: String) -> Set<String> {
        let cues = QuestionAnalysis.summaryCues.flatMap { [$0] + TermAnalyzer.tokens($0) }
        return Set(TermAnalyzer.contentTerms(request)).subtracting(cues)
    }

    /// `candidates` in rank order, each a document and the words naming it (title and file name).
    public static func documents(subject: Set<String>, candidates: [(doc: String, naming: String)], limit: Int) -> [String] {
        guard let top = candidates.first else { return [] }
        var named: [(doc: String, count: Int)] = []
        var seen: Set<String> = []
        for c in candidates where seen.insert(c.doc).inserted {
            let words = Set(TermAnalyzer.tokens(c.naming))
            named.append((c.doc, words.intersection(subject).count))
        }
        let most = named.map(\.count).max() ?? 0
        guard most > 0 else { return [top.doc] }
        return Array(named.filter { $0.count == most }.map(\.doc).prefix(max(1, limit)))
    }
}
