import Foundation
import PBCore
import PBNeural
import PBText
import PBDates

/// pb-remember's work on a batch of messages: extract items, embed them in one pass of the
/// encoder, then, message by message and each in its own transaction, choose the workstream,
/// find what the new items supersede, and store.
public final class Rememberer {
    public struct Settings: Sendable {
        /// Below this cosine to every workstream's recent items, a message starts a new workstream.
        public var newWorkstreamBelow = 0.30
        /// How many of a workstream's latest items stand for it.
        public var recentItems = 8
        /// An earlier item is superseded only by a later one this close in meaning ...
        public var supersedeCosine = 0.5
        /// ... sharing at least this share of the shorter subject ...
        public var supersedeOverlap = 0.2
        /// ... and, when no change cue says so, only when this close and its values differ.
        public var valueChangeCosine = 0.70
        /// A change said in few words (Rememberer.anchoredChange) links only this close, at least.
        public var anchoredCosine = 0.35
        public init() {}
    }

    public let store: MemoryStore
    public let settings: Settings
    /// pb-remember --endpoint: a chat model cuts and types the items, checked; nil: ItemExtractor.
    public var endpoint: EndpointExtractor?
    private let extractor: ItemExtractor
    private let embed: ([String]) -> [[Float]]
    /// Each workstream's latest item vectors, newest last (loaded once, kept current).
    private var recent: [Int64: [[Float]]]

    public init(store: MemoryStore, settings: Settings = Settings(), embed: @escaping ([String]) -> [[Float]]) throws {
        self.store = store
        self.settings = settings
        self.embed = embed
        extractor = try ItemExtractor()
        recent = try store.recentVectors(perWorkstream: settings.recentItems).mapValues { Array($0.reversed()) }
    }

    /// A message with the fields pb-remember fills in (id from content, time now) resolved.
    public struct Incoming {
        public var record: MessageRecord
        public var id: String
        public var time: String
        public var said: Date
        public var zone: TimeZone
        public var hash: String
    }

    /// Fills in a message's id, time and hash, or says why it cannot be remembered.
    /// How far past now a message's time may be: clocks and time zones differ by hours, not days.
    static let futureTolerance: TimeInterval = 86_400

    /// A message with no `time` whose unknown field holds one ('said', 'date'): refused, since given
    /// the time of the run instead it would be placed, and superseded, wrongly.
    public static func checkTimeField(_ m: MessageRecord) throws {
        guard m.time == nil else { return }
        let format = DateValueFormat(timeZone: TimeZone(secondsFromGMT: 0)!)
        for key in m.extra.keys.sorted() {
            if let value = m.extra[key]?.stringValue, format.parseInstant(value) != nil {
                throw RecordError.badField(name: key, reason: "the message has no 'time', and '\(key)' holds one ('\(value)'): name the field 'time'")
            }
        }
    }

    public static func resolve(_ m: MessageRecord, now: Date) throws -> Incoming {
        guard !m.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw RecordError.badField(name: "text", reason: "a message needs some text")
        }
        let zone: TimeZone
        let said: Date
        let time: String
        if let t = m.time {
            zone = Self.zone(of: t)
            guard let d = DateValueFormat(timeZone: zone).parseInstant(t) else {
                throw RecordError.badField(name: "time", reason: "expected an ISO 8601 time such as 2026-03-02T09:00:00+01:00, got '\(t)'")
            }
            said = d
            time = t
        } else {
            zone = TimeZone(secondsFromGMT: 0)!
            said = now
            time = DateValueFormat(timeZone: zone).instant(now)
        }
        // A message is something already said: a time well past now is a mistake (a year typed wrong,
        // 9999-12-31 as "no date"), and stored it would outrank every later message in supersession.
        if said > now.addingTimeInterval(Self.futureTolerance) {
            throw RecordError.badField(name: "time", reason: "'\(time)' is in the future (now is \(DateValueFormat(timeZone: zone).instant(now))): a message's time is when it was said")
        }
        if let r = m.replyTo, r.isEmpty { throw RecordError.badField(name: "reply_to", reason: "expected a message id") }
        // A reply's role and what it answers are part of it; a user message hashes as it always did.
        var parts = [time, m.speaker ?? "", m.thread ?? "", m.text]
        if m.role == .assistant || m.replyTo != nil { parts += [(m.role ?? .user).rawValue, m.replyTo ?? ""] }
        let hash = String(SHA256.hex(parts.joined(separator: "\u{1F}")).prefix(16))
        let id = m.id ?? "m-" + hash.prefix(12)
        guard !id.isEmpty else { throw RecordError.badField(name: "id", reason: "expected a non-empty id") }
        return Incoming(record: m, id: id, time: time, said: said, zone: zone, hash: hash)
    }

    /// The offset a time is written in ("+02:00", "Z"); UTC when it names none.
    static func zone(of time: String) -> TimeZone {
        if time.hasSuffix("Z") || time.hasSuffix("z") { return TimeZone(secondsFromGMT: 0)! }
        let s = Array(time.utf8)
        guard s.count > 10 else { return TimeZone(secondsFromGMT: 0)! }
        let tail = Array(s.suffix(6))
        guard tail[0] == UInt8(ascii: "+") || tail[0] == UInt8(ascii: "-"), tail[3] == UInt8(ascii: ":"),
              let h = Int(String(decoding: tail[1...2], as: UTF8.self)), let m = Int(String(decoding: tail[4...5], as: UTF8.self)) else {
            return TimeZone(secondsFromGMT: 0)!
        }
        let seconds = (h * 3600 + m * 60) * (tail[0] == UInt8(ascii: "-") ? -1 : 1)
        return TimeZone(secondsFromGMT: seconds) ?? TimeZone(secondsFromGMT: 0)!
    }

    /// What remembering one message gave: its receipt and memory records, or that it was
    /// already there (with the receipt it was stored under).
    public enum Outcome {
        case remembered(RememberedRecord, [MemoryRecord])
        case alreadyRemembered(RememberedRecord)
    }

    /// Remembers a batch of messages in order; one transaction per message.
    public func remember(_ batch: [Incoming]) throws -> [Outcome] {
        // The assistant's replies are kept as said, never cut into items: recalled as evidence,
        // the memory would quote itself back.
        let read = batch.map(extract)
        let extracted = read.map(\.items)
        // The speaker's name goes with the words it said: "Caroline: I went to ..." is found by
        // a question about Caroline.
        let texts = zip(batch, extracted).flatMap { m, items in items.map { Self.embeddingText($0.text, speaker: m.record.speaker) } }
        var vectors = texts.isEmpty ? [] : embed(texts)
        var outcomes: [Outcome] = []
        for (m, (items, extraction)) in zip(batch, read) {
            let mine = Array(vectors.prefix(items.count))
            vectors.removeFirst(items.count)
            if let stored = try store.storedHash(ofMessage: m.id) {
                guard stored == m.hash || MemoryStore.wasCut(stored) else {
                    throw ToolFailure(.badInput, "message '\(m.id)' was remembered before with other text, time, speaker or thread; give the changed message a new id")
                }
                outcomes.append(.alreadyRemembered(try store.receipt(ofMessage: m.id)!))
                continue
            }
            outcomes.append(try remember(m, items: items, vectors: mine, extraction: extraction))
        }
        return outcomes
    }

    static func embeddingText(_ text: String, speaker: String?) -> String {
        guard let speaker, !speaker.isEmpty, speaker.lowercased() != "me" else { return text }
        return speaker + ": " + text
    }

    /// A message's items, and, with an endpoint, which route cut them and why.
    private func extract(_ m: Incoming) -> (items: [ExtractedItem], extraction: Extraction?) {
        guard m.record.role != .assistant else { return ([], nil) }
        guard let endpoint else { return (extractor.items(of: m.record.text, said: m.said, zone: m.zone), nil) }
        switch endpoint.items(of: m.record.text, said: m.said, zone: m.zone, reader: extractor) {
        case .success(let aligned):
            return (aligned.items, Extraction(route: "endpoint", unplaced: aligned.unplaced))
        case .failure(let why):
            return (extractor.items(of: m.record.text, said: m.said, zone: m.zone), Extraction(route: "deterministic", fallback: why.reason))
        }
    }

    private func remember(_ m: Incoming, items: [ExtractedItem], vectors: [[Float]], extraction: Extraction?) throws -> Outcome {
        // A message with nothing to place it by ("ok, thanks": kept whole, no subject) stays
        // where the conversation is instead of starting a workstream of its own.
        let placeable = items.contains(where: ItemExtractor.holdsSomething)
        let choice = try workstream(for: m, vectors: placeable ? vectors : [])
        var pending: [PendingItem] = []
        let sentences = Array(zip(items, vectors))
        for (item, v) in sentences {
            let place = try placement(of: item, vector: v, speaker: m.record.speaker, said: m.said, message: sentences)
            pending.append(PendingItem(extracted: item, vector: v, supersedes: place.supersedes, supersededBy: place.supersededBy,
                                       considered: place.considered))
        }
        let message = PendingMessage(id: m.id, time: m.time, epoch: m.said.timeIntervalSince1970, speaker: m.record.speaker,
                                     thread: m.record.thread, text: m.record.text, hash: m.hash, workstream: choice.id,
                                     workstreamScore: choice.record.score, role: m.record.role ?? .user, replyTo: m.record.replyTo,
                                     items: pending)
        let ids = try store.store(message)
        recent[choice.id, default: []].append(contentsOf: vectors)
        if recent[choice.id]!.count > settings.recentItems { recent[choice.id]!.removeFirst(recent[choice.id]!.count - settings.recentItems) }
        let format = DateValueFormat(timeZone: m.zone)
        var receipt = RememberedRecord(memory: store.name, message: m.id, time: m.time, role: m.record.role ?? .user,
                                       replyTo: m.record.replyTo, workstream: choice.record, items: ids.map { "i-\($0)" }, again: false)
        receipt.extraction = extraction
        return .remembered(receipt, zip(ids, pending).map { id, p in
            var end = p.extracted.time?.end
            if let e = end { end = e.addingTimeInterval(-1) }
            let time = p.extracted.time.map { ReferredTime(phrase: $0.phrase, start: format.date($0.start), end: format.date(end ?? $0.start)) }
            return MemoryRecord(id: "i-\(id)", memory: store.name, message: m.id, speaker: m.record.speaker, said: m.time,
                                type: p.extracted.type, subject: p.extracted.subject, entities: p.extracted.entities,
                                text: p.extracted.text, start: p.extracted.range.lowerBound, end: p.extracted.range.upperBound,
                                time: time, workstream: choice.record,
                                supersedes: p.supersedes.map(Self.shown), supersededBy: p.supersededBy.map(Self.shown),
                                key: p.extracted.key.marks.isEmpty ? nil : p.extracted.key.shown, considered: p.considered.map(Self.shown))
        })
    }

    /// The thread given, else the workstream nearest in meaning over its recent items, else a new one.
    /// A message with nothing to place it by (a reply, an "ok, thanks") stays where the
    /// conversation is: with the message it answers, else the latest message.
    private func workstream(for m: Incoming, vectors: [[Float]]) throws -> (id: Int64, record: WorkstreamChoice) {
        if let thread = m.record.thread, !thread.isEmpty {
            let existed = try store.db.scalarInt("SELECT id FROM workstreams WHERE name = ?", [.text(thread)]) != nil
            return (try store.workstream(named: thread, given: true), WorkstreamChoice(name: thread, score: 1, given: true, new: !existed))
        }
        if vectors.isEmpty, let id = try store.workstreamOf(message: m.record.replyTo) ?? store.workstreamOf(message: nil) {
            return (id, WorkstreamChoice(name: try store.workstreamName(id), score: 0, given: false, new: false))
        }
        let best = Self.nearest(Self.mean(vectors), among: recent)
        if let best, best.score >= settings.newWorkstreamBelow {
            return (best.id, WorkstreamChoice(name: try store.workstreamName(best.id), score: Self.rounded(best.score), given: false, new: false))
        }
        let name = "ws-\(try store.nextWorkstreamNumber())"
        let id = try store.workstream(named: name, given: false)
        return (id, WorkstreamChoice(name: name, score: Self.rounded(best?.score ?? 0), given: false, new: true))
    }

    /// How a new item stands to the live items said around it: the earlier one it replaces, or,
    /// for a message that arrives after one said later (an old note pasted in, a memo synced
    /// late), the later one that replaces it. Time said decides, never order of arrival.
    struct Placement {
        var supersedes: [Superseded] = []
        var supersededBy: Superseded?
        /// The nearest earlier item it was compared with and not linked to, with why not.
        var considered: Superseded?
    }

    /// The live item this one is another state of, if any: near in meaning, about the same words,
    /// not about another thing of the same kind (SubjectKey), and either saying it changed or
    /// giving a different value; whichever of the two was said later is the current state.
    private func placement(of item: ExtractedItem, vector: [Float], speaker: String?, said: Date,
                           message: [(ExtractedItem, [Float])]) throws -> Placement {
        guard item.type != .question, !item.subject.isEmpty else { return Placement() }
        var best: (StoredItem, Double, String, Bool)?
        // The nearest candidate turned down, and why: what pb-thread --json shows of a statement
        // that replaced nothing.
        var declined: (StoredItem, Double, String)?
        func decline(_ c: StoredItem, _ cos: Double, _ why: String) {
            if declined == nil || cos > declined!.1 { declined = (c, cos, why) }
        }
        for c in try store.supersessionCandidates(sharing: item.subject) where c.type != .question {
            if let speaker, let other = c.speaker, speaker != other { continue }
            let shared = Set(c.subject).intersection(item.subject).count
            let overlap = Double(shared) / Double(max(1, min(c.subject.count, item.subject.count)))
            guard shared >= 1, overlap >= settings.supersedeOverlap else { continue }
            let cos = Double(Self.dot(vector, c.vector))
            guard cos >= settings.supersedeCosine else { continue }
            // A key parts two items only where both mark a noun: one with no marks parts none.
            if !item.key.marks.isEmpty {
                let theirs = SubjectKey(c.text)
                if item.key.differs(from: theirs) {
                    decline(c, cos, "another thing of its kind: \(Self.marks(item.key)) against \(Self.marks(theirs))")
                    continue
                }
            }
            // The state said later is the newer one, with its cue and its values.
            let candidateIsNewer = c.said > said.timeIntervalSince1970
            let newer = candidateIsNewer ? ItemExtractor.changeCue(of: c.text) : (item.changeCue, item.strongCue)
            let (newSlots, oldSlots) = candidateIsNewer ? (c.slots, item.slots) : (item.slots, c.slots)
            // A changed value: one of a kind the earlier item also had ("5190" for "4417").
            let oldKinds = Set(oldSlots.map { $0.prefix(2) })
            let newValues = newSlots.filter { s in oldKinds.contains(s.prefix(2)) && !oldSlots.contains(s) }
            let was = oldSlots.filter { s in newValues.contains { $0.prefix(2) == s.prefix(2) } && !newSlots.contains(s) }
            let shown = { (v: [String]) in v.map { String($0.dropFirst(2)) }.joined(separator: ", ") }
            // Without a strong cue only a number or code counts as a changed value: two times or
            // two names are more often two events or two people than one thing updated.
            let newNumbers = newValues.filter { $0.hasPrefix("n:") }
            var reason: String
            if let cue = newer.0, newer.1 || !newNumbers.isEmpty {
                reason = "updated: '\(cue)'" + (newValues.isEmpty ? "" : ", now \(shown(newValues))")
            } else if !newNumbers.isEmpty, was.contains(where: { $0.hasPrefix("n:") }), cos >= settings.valueChangeCosine {
                reason = "new value: \(shown(newNumbers)) (was \(shown(was.filter { $0.hasPrefix("n:") })))"
            } else {
                decline(c, cos, String(format: "no change said: no word such as 'changed' or 'moved', and no new number%@ (cosine %.2f)",
                                       newNumbers.isEmpty ? "" : " near enough", cos))
                continue
            }
            if candidateIsNewer { reason = Self.older(than: c, reason) }
            if best == nil || cos > best!.1 { best = (c, cos, reason, candidateIsNewer) }
        }
        if best == nil, let state = StateFact.read(item.text) {
            best = try stateChange(of: item, state: state, speaker: speaker, said: said)
        }
        if best == nil {
            best = try anchoredChange(of: item, vector: vector, speaker: speaker, said: said, message: message)
        }
        guard let (c, _, reason, candidateIsNewer) = best else {
            return Placement(considered: declined.map { Self.link($0.0, $0.2) })
        }
        return candidateIsNewer ? Placement(supersededBy: Self.link(c, reason)) : Placement(supersedes: [Self.link(c, reason)])
    }

    /// A change of state in other words: "I accepted a new job at Harwell" after "I work at
    /// Oxford Instruments" is the same person's employer, changed, though no word is shared.
    private func stateChange(of item: ExtractedItem, state: StateFact, speaker: String?, said: Date) throws -> (StoredItem, Double, String, Bool)? {
        let heads = StateFact.headWords(of: state.attribute)
        for c in try store.supersessionCandidates(sharing: heads, limit: 50, words: heads.count) where c.type != .question {
            if let speaker, let other = c.speaker, speaker != other { continue }
            guard let earlier = StateFact.read(c.text), earlier.attribute == state.attribute, earlier.owner == state.owner,
                  item.key.marks.isEmpty || !item.key.differs(from: SubjectKey(c.text)) else { continue }
            let candidateIsNewer = c.said > said.timeIntervalSince1970
            let (old, new) = candidateIsNewer ? (state, earlier) : (earlier, state)
            guard old.isChanged(by: new) else { continue }
            var reason = "changed state: \(new.attribute.rawValue) \(new.value) (was \(old.value))"
            if candidateIsNewer { reason = Self.older(than: c, reason) }
            // Newest first: the latest state is the one it follows or precedes.
            return (c, 0, reason, candidateIsNewer)
        }
        return nil
    }

    /// A change said in few words of its own, about a thing named by a name both share: "Sunil
    /// can't do Tuesday, moved to Fri 12 Feb 2pm" after "Gas safety checks for both flats: Sunil,
    /// Tue 9 Feb"; "Back to Saturday the 20th but 4pm." after "Party moved AGAIN." in the same
    /// message. Meaning alone is too far apart to link them (cosine 0.3 to 0.5), so more is asked:
    /// the sentence says it changed (a strong cue, or "not" before the earlier value), it gives a
    /// new value of a kind the earlier one had, and both name the same person or place, or share
    /// two words; a sentence of one word of its own reads with the one before it.
    private func anchoredChange(of item: ExtractedItem, vector: [Float], speaker: String?, said: Date,
                                message: [(ExtractedItem, [Float])]) throws -> (StoredItem, Double, String, Bool)? {
        // The item's own words, unless it says too little to be about anything alone ("Back to
        // Saturday the 20th but 4pm."): then the sentence before it says what, as it would to a
        // reader. Never the rest of the message: "Sunil moved the boiler service. Ellie has the
        // dentist on Mon 15 Feb 3pm." does not move Sunil's gas check to the dentist's time.
        let at = message.firstIndex { $0.0.range == item.range } ?? 0
        let thin = item.subject.count <= 1 && at > 0
        let context = thin ? [message[at - 1], message[at]] : [message[at]]
        let cue = context.lazy.compactMap { $0.0.strongCue ? $0.0.changeCue : nil }.first ?? ItemExtractor.changePhrase(in: context.map(\.0.text))
        let negated = ItemExtractor.negatedValues(item.text)
        guard cue != nil || !negated.isEmpty else { return nil }
        let kinds = Set(item.slots.map { $0.prefix(2) }).subtracting(["e:"])
        guard !kinds.isEmpty else { return nil }
        let words = Array(Set(context.flatMap(\.0.subject)))
        let names = Set(context.flatMap(\.0.entities).filter { !$0.contains(where: \.isNumber) }.map { TermAnalyzer.stem($0.lowercased()) })
        var best: (StoredItem, Double, String)?
        for c in try store.supersessionCandidates(sharing: words, limit: 100, words: 24) where c.type != .question && c.said < said.timeIntervalSince1970 {
            if let speaker, let other = c.speaker, speaker != other { continue }
            // A name either one writes as a name ("Sunil" opening a sentence is not read as one).
            let theirNames = Set(c.slots.filter { $0.hasPrefix("e:") }.map { TermAnalyzer.stem(String($0.dropFirst(2))) })
            let shared = Set(c.subject).intersection(words)
            guard !shared.isDisjoint(with: names.union(theirNames)) || shared.count >= 2 else { continue }
            if !item.key.marks.isEmpty, item.key.differs(from: SubjectKey(c.text)) { continue }
            // A new value of a kind the earlier item had, or the earlier value said to be wrong.
            let old = c.slots.filter { kinds.contains($0.prefix(2)) }
            // Of the same form: a code for a code ("2841", "7730"), an amount for an amount, not a
            // gate code for a rent.
            let new = item.slots.filter { s in kinds.contains(s.prefix(2)) && !c.slots.contains(s) && old.contains { Self.sameForm($0, s) } }
            let corrected = old.filter { negated.contains(String($0.dropFirst(2))) }
            guard !new.isEmpty else { continue }
            guard cue != nil || !corrected.isEmpty else { continue }
            let cos = context.map { Double(Self.dot($0.1, c.vector)) }.max() ?? Double(Self.dot(vector, c.vector))
            guard cos >= settings.anchoredCosine else { continue }
            let shownNew = new.map { String($0.dropFirst(2)) }.joined(separator: ", ")
            let reason = corrected.isEmpty ? "updated: '\(cue!)', now \(shownNew)"
                                           : "corrected: \(shownNew), not \(corrected.map { String($0.dropFirst(2)) }.joined(separator: ", "))"
            if best == nil || cos > best!.1 { best = (c, cos, reason) }
        }
        return best.map { ($0.0, $0.1, $0.2, false) }
    }

    /// Whether two values are of one form: times always; numbers and codes by their digits' count.
    static func sameForm(_ a: String, _ b: String) -> Bool {
        guard a.prefix(2) == b.prefix(2) else { return false }
        guard a.hasPrefix("n:") else { return true }
        return a.filter(\.isNumber).count == b.filter(\.isNumber).count
    }

    /// A key's marks as a reason shows them: "flat #3".
    static func marks(_ key: SubjectKey) -> String {
        key.shown.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.joined(separator: " "))" }.joined(separator: ", ")
    }

    /// The reason of an item that arrived after `later`, which was said after it.
    static func older(than later: StoredItem, _ reason: String) -> String { "an older state, said before \(later.saidText): " + reason }

    /// A stored item as the other side of a link (or of a comparison turned down), with why.
    static func link(_ c: StoredItem, _ reason: String) -> Superseded {
        Superseded(id: c.id, message: c.message, reason: reason, text: c.text, said: c.saidText)
    }

    static func shown(_ s: Superseded) -> Supersession {
        Supersession(id: "i-\(s.id)", message: s.message, reason: s.reason, text: s.text, said: s.said)
    }

    /// The workstream whose recent items' centre is nearest `vector` by cosine, with it; ties
    /// to the older workstream. pb-remember routes by it, pb-recall --context chooses by it.
    static func nearest(_ vector: [Float], among recent: [Int64: [[Float]]]) -> (id: Int64, score: Double)? {
        let centre = normalised(vector)
        var best: (id: Int64, score: Double)?
        for (id, vs) in recent where !vs.isEmpty {
            let s = Double(dot(centre, normalised(mean(vs))))
            if best == nil || s > best!.score || (s == best!.score && id < best!.id) { best = (id, s) }
        }
        return best
    }

    static func mean(_ vs: [[Float]]) -> [Float] {
        guard let first = vs.first else { return [] }
        var out = [Float](repeating: 0, count: first.count)
        for v in vs { for i in 0..<min(v.count, out.count) { out[i] += v[i] } }
        return out
    }

    static func normalised(_ v: [Float]) -> [Float] {
        let n = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return n > 0 ? v.map { $0 / n } : v
    }

    static func dot(_ a: [Float], _ b: [Float]) -> Float {
        var s: Float = 0
        for i in 0..<min(a.count, b.count) { s += a[i] * b[i] }
        return s
    }

    static func rounded(_ x: Double) -> Double { (x * 10_000).rounded() / 10_000 }
}
