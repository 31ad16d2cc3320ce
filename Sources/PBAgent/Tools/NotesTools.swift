import Foundation
import PBCore
import PBRetrieval

/// "Ask my notes": the knowledge pipeline over the notes, in-process, with cited passages.
enum NotesTools {
    static let askNotes = AgentTool(.askNotes, "find the passages of the notes that answer a question, with citations (note, byte span, lines)", mutates: false, arguments: [
        .init("question", "what to look for", required: true),
        .init("k", "passages to return (default 3)"),
    ], run: { ctx in
        let question = try ctx.args.required("question")
        let k = try ctx.args.int("k", in: 1...50) ?? 3
        let notes = try ctx.store.notes()
        guard !notes.isEmpty else {
            return ToolOutcome(ref: nil, summary: "there are no notes to ask", data: .array([]))
        }
        let index = try NotesIndex(storePath: ctx.store.path)
        try index.sync(notes)
        let hits = try index.search(question, k: k)
        let titles = Dictionary(uniqueKeysWithValues: notes.map { ($0.ref, $0.title) })
        let passages: [JSONValue] = hits.enumerated().map { i, h in
            .object([
                "n": .number(Double(i + 1)), "note": .string(h.path), "title": .string(titles[h.path] ?? h.title),
                "text": .string(h.text), "start": .number(Double(h.start)), "end": .number(Double(h.end)),
                "line_start": .number(Double(h.lineStart)), "line_end": .number(Double(h.lineEnd)),
                "score": .number(h.scores.fused ?? 0),
            ])
        }
        guard let best = hits.first else {
            return ToolOutcome(ref: nil, summary: "nothing in the notes matches '\(question)'", data: .array([]))
        }
        let quote = best.text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let shown = quote.count > 160 ? String(quote.prefix(160)) + "…" : quote
        let ref: [String: JSONValue] = ["id": .string(best.path), "title": .string(titles[best.path] ?? best.title),
                                        "text": .string(best.text), "start": .number(Double(best.start)), "end": .number(Double(best.end))]
        return ToolOutcome(ref: ref, summary: "\(hits.count) passage\(hits.count == 1 ? "" : "s") from the notes; best [1] \(best.path) \"\(titles[best.path] ?? best.title)\": \(shown)",
                           data: .array(passages))
    })

    static let all = [askNotes]
}
