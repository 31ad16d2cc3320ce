import Foundation
import PBCore
import PBRetrieval
import PBText

/// Carries out a request to forget: finds the items it is about, and takes them out of the
/// memory with every earlier and later state of the same thing (forgetting today's locker code
/// must not bring back last month's), or asks back when several different things fit.
public enum MemoryForgetting {
    /// What the memory holds about a request's topic: one group per thing (items linked by
    /// supersession or said in one message), the best-fitting first.
    static func groups(about request: ForgetRequest, in store: MemoryStore) throws -> [[MemoryStore.ForgettableItem]] {
        let words = TermAnalyzer.contentTerms(request.topic).filter {
            !["my", "our", "me", "i"].contains($0) && !Self.generic.contains($0) && !Self.saying.contains($0)
        }
        guard !words.isEmpty else { return [] }
        // A question asked before ("what's my locker code?") holds the words and no fact: it is
        // not a thing to choose among, unless everything about the topic goes ("Easter idea:
        // Lisbon 3-10 April?" is a note with a question mark).
        let found = try store.forgettableItems(matchingAny: LexicalQuery.terms(request.topic).filter {
            !TermAnalyzer.isStopword($0) && words.contains(TermAnalyzer.stem($0))
        }).filter { request.everything || $0.type != MemoryItemType.question.rawValue }
        // A word's weight is how rare it is among the items (a name tells more than "idea"); a
        // word no item holds weighs nothing.
        let held = found.map { Set(TermAnalyzer.contentTerms($0.text)) }
        let total = Double(max(1, try store.itemCount()))
        var weight: [String: Double] = [:]
        for w in words {
            let df = held.filter { $0.contains(w) }.count
            weight[w] = df == 0 ? 0 : log(1 + total / Double(df))
        }
        let whole = words.reduce(0) { $0 + weight[$1]! }
        guard whole > 0 else { return [] }
        let scored = zip(found, held).map { item, own in (item, words.filter(own.contains).reduce(0) { $0 + weight[$1]! } / whole) }
        // Everything about it: each item that holds most of what the topic says, by weight. One
        // thing: the items that hold the most, and at least half (of the clause it was named in).
        let top = scored.map(\.1).max() ?? 0
        let floor = request.fromContext ? 0.3 : 0.5
        guard top >= floor else { return [] }
        var chosen = scored.filter { request.everything ? $0.1 >= floor : $0.1 >= top - 1e-9 }.map(\.0)
        // A sentence of the same message that says nothing of its own ("Gym locker code changed.
        // It's 5190 now.") goes with the one it continues.
        chosen += try store.ellipses(after: chosen)
        // Each thing with all its states.
        let closed = try store.supersessionClosure(of: chosen)
        var parent: [Int64: Int64] = [:]
        func root(_ x: Int64) -> Int64 {
            var x = x
            while let p = parent[x], p != x { x = p }
            return x
        }
        func join(_ a: Int64, _ b: Int64) { parent[root(a)] = root(b) }
        for item in closed { parent[item.id] = parent[item.id] ?? item.id }
        let byID = Dictionary(uniqueKeysWithValues: closed.map { ($0.id, $0) })
        for item in closed {
            if let next = item.supersededBy, byID[next] != nil { join(item.id, next) }
        }
        for (_, items) in Dictionary(grouping: closed, by: \.messageSeq) where items.count > 1 {
            for item in items.dropFirst() { join(item.id, items[0].id) }
        }
        let groups = Dictionary(grouping: closed) { root($0.id) }.values.map { $0.sorted { $0.id < $1.id } }
        return groups.sorted { ($0.last?.id ?? 0) > ($1.last?.id ?? 0) }
    }

    /// Carries out `request` (said as `text`) on the memory. A request that lists several things
    /// ("my address, phone number and email") forgets each as if asked alone; when one of them
    /// fits several different things, nothing is forgotten and that one is asked back.
    public static func run(_ request: ForgetRequest, text: String, in store: MemoryStore) throws -> ForgottenRecord {
        func record(_ status: ForgetStatus, _ items: [ForgottenItem], _ message: String) -> ForgottenRecord {
            ForgottenRecord(memory: store.name, request: text, topic: request.topic, status: status, items: items, message: message)
        }
        let about = { (topic: String) in
            topic.isEmpty ? "the last thing you said" : request.fromContext ? "what you named" : "\"\(topic)\""
        }
        if request.topic.isEmpty && request.everything {
            return record(.nothing, [], "Forget what? Nothing was forgotten: name it, as in \"forget everything about the gate\".")
        }
        let parts = request.parts.count > 1 ? request.parts : [request.topic]
        var found: [MemoryStore.ForgettableItem] = []
        var missing: [String] = []
        for part in parts {
            var one = request
            one.topic = part
            let groups = part.isEmpty ? [try store.lastMessageItems()].filter { !$0.isEmpty } : try groups(about: one, in: store)
            if groups.isEmpty {
                missing.append(part)
                continue
            }
            if groups.count > 1 && !request.everything {
                let candidates = groups.compactMap { $0.last.map(shown) }
                let which = parts.count > 1 ? "; nothing was forgotten, of the rest either" : "; nothing was forgotten"
                return record(.ambiguous, candidates,
                              "\(groups.count) different things fit \(about(part))\(which). Say which one, or \"forget everything about \(part)\".")
            }
            found += groups.flatMap { $0 }
        }
        if found.isEmpty {
            return record(.nothing, [], "Nothing in your memory is about \(parts.count > 1 ? parts.map(about).joined(separator: ", ") : about(request.topic)); nothing was forgotten.")
        }
        var seen: Set<Int64> = []
        let items = found.filter { seen.insert($0.id).inserted }
        let gone = try store.forget(items: items.map(\.id))
        let dates = Set(items.map { String($0.said.prefix(10)) }).sorted()
        let named = parts.count > 1 ? parts.filter { !missing.contains($0) }.map(about).joined(separator: ", ") : about(request.topic)
        let none = missing.isEmpty ? "" : " Nothing was about \(missing.map(about).joined(separator: ", "))."
        // The record names what went, not its words: it may be kept in a log.
        return record(.forgotten, gone.map { ForgottenItem(id: "i-\($0.id)", message: $0.message, text: "", said: $0.said) },
                      "Forgotten: \(count(gone.count)) about \(named), said on \(dates.joined(separator: ", ")).\(none)")
    }

    /// Nouns that say a topic is one without saying what it is about: "the Lisbon idea", "the
    /// gate stuff" are about Lisbon and the gate (stemmed, as topic words are).
    static let generic: Set<String> = Set(["idea", "ideas", "plan", "plans", "thing", "things", "stuff", "detail", "details", "info",
                                           "information", "note", "notes", "message", "messages", "bit", "part", "business", "matter"]
                                          .map(TermAnalyzer.stem))

    /// Words that say something was said, not what about ("what Fiona told me", "asked me").
    static let saying: Set<String> = Set(["said", "say", "told", "tell", "asked", "ask", "mentioned", "wrote", "keep", "please", "stored",
                                          "store", "remember", "want", "anywhere", "anymore"].map(TermAnalyzer.stem))

    static func shown(_ item: MemoryStore.ForgettableItem) -> ForgottenItem {
        ForgottenItem(id: "i-\(item.id)", message: item.message, text: item.text, said: item.said)
    }

    static func count(_ n: Int) -> String { "\(n) item\(n == 1 ? "" : "s")" }
}
