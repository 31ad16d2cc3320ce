import Foundation
import PBCore
import PBNeural

/// Requests people made of an assistant, each labelled with its kind (`RequestKind`): the
/// training fold of HWU64, about 10,000 requests, 8,557 of them about things the store does not
/// keep. When no rule of the grammar reads a request, the labelled requests nearest to it in
/// MiniLM's space say what kind it is, and the plan asks what it lacks rather than saying
/// "nothing matched". It never plans a step: a request nobody could read names nothing to act on.
///
/// A kind is taken only when the nearest requests agree (their similarity-weighted vote gives it
/// `minimumShare`) and the closest is close (`minimumSimilarity`). When the grammar did read the
/// request, but only as one look-up or one new item of a tool that kind never starts with
/// (`Planner.overrulable`), all five neighbours must agree and the closest be nearer still
/// (`overrulingSimilarity`) for the step to become a question. The figures were chosen on the training fold itself, each request read against all the
/// others, so as to ask about no request outside the store and overrule no request of the
/// router's own sets; they are not tuned on the held-out fold.
public final class LabelledRequests: @unchecked Sendable {
    // @unchecked: every stored property is written in init and only read afterwards.

    /// What a request was recognised as.
    public struct Reading: Equatable, Sendable {
        public var kind: RequestKind
        /// The kind's share of the neighbours' similarity-weighted vote.
        public var share: Float
        /// The cosine similarity of the closest labelled request.
        public var nearest: Float
        /// The closest labelled request of the kind, as said.
        public var example: String

        /// Whether the reading is sure enough to overrule the grammar's one-step plan: every
        /// neighbour of the kind, the closest at least `overrulingSimilarity`.
        public var overrules: Bool { share >= 0.999 && nearest >= LabelledRequests.overrulingSimilarity }
    }

    static let neighbours = 5
    static let minimumShare: Float = 0.7
    static let minimumSimilarity: Float = 0.7
    static let overrulingSimilarity: Float = 0.75

    let kinds: [RequestKind]
    let texts: [String]
    let encoder: MiniLMEncoder
    /// Unit vectors, `texts.count` rows of `encoder.dimension`.
    let vectors: [Float]

    /// The labelled requests, embedded with `encoder`: read from the cache file in the first of
    /// `cacheDirectories` that holds a sound one for this encoder and kernel path, else embedded
    /// (about ten seconds on two cores) and the file written, atomically and 0600, into the first
    /// that takes it, for the next program. A cache is sound when its size is right and three of
    /// its rows, embedded again, come out as stored: a damaged or shifted file is never read as
    /// vectors. When no folder takes the file, a warning says that each run embeds them again.
    public init(encoder: MiniLMEncoder, cacheDirectories: [URL]) {
        var kinds: [RequestKind] = []
        var texts: [String] = []
        for line in Self.data.split(separator: "\n") {
            guard let tab = line.firstIndex(of: "\t"), let kind = RequestKind(rawValue: String(line[..<tab])) else { continue }
            kinds.append(kind)
            texts.append(String(line[line.index(after: tab)...]))
        }
        self.kinds = kinds
        self.texts = texts
        self.encoder = encoder
        let dim = encoder.dimension
        let key = "pocketbrains labelled requests 1\n" + SHA256.hex(Self.data) + "\n" + encoder.weightsHash + "\n" + encoder.kernel.rawValue
        let name = "labelled-requests-" + String(SHA256.hex(key).prefix(16)) + ".f32"
        let files = cacheDirectories.map { $0.appendingPathComponent(name) }
        // The rows checked against a cache: the first, the middle and the last.
        let probes = [0, texts.count / 2, texts.count - 1]
        let fresh = encoder.embed(probes.map { texts[$0] }, maxTokens: Self.maxTokens)
        for file in files {
            guard let data = try? Data(contentsOf: file), data.count == texts.count * dim * 4 else { continue }
            let cached: [Float] = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let sound = zip(probes, fresh).allSatisfy { row, vector in
                (0..<dim).allSatisfy { j in
                    let v = cached[row * dim + j]
                    return v.isFinite && abs(v - vector[j]) <= 1e-5
                }
            }
            if sound {
                vectors = cached
                return
            }
        }
        var all: [Float] = []
        all.reserveCapacity(texts.count * dim)
        for start in stride(from: 0, to: texts.count, by: 512) {
            for v in encoder.embed(Array(texts[start..<min(start + 512, texts.count)]), maxTokens: Self.maxTokens) { all += v }
        }
        vectors = all
        if !files.contains(where: { Self.write(all, to: $0) }), !files.isEmpty {
            Diagnostics.shared.warning("the labelled requests were embedded for this run only: none of \(cacheDirectories.map(\.path).joined(separator: ", ")) takes their cache file, so the next run embeds them again (about ten seconds)")
        }
    }

    /// Requests and labelled requests alike are cut to this many WordPiece tokens: requests are short.
    static let maxTokens = 64

    /// The labelled requests with the model in `environment`, cached beside the model or, when
    /// that folder is not writable, in `$PB_HOME/cache`; nil when the model is not installed or
    /// does not load (the planner then says "nothing matched").
    public static func load(_ environment: PBEnvironment) -> LabelledRequests? {
        let weights = environment.modelDirectory.appendingPathComponent("model.safetensors")
        guard FileManager.default.fileExists(atPath: weights.path),
              let encoder = try? MiniLMEncoder(modelDirectory: environment.modelDirectory) else { return nil }
        return LabelledRequests(encoder: encoder, cacheDirectories: [environment.modelDirectory, environment.home.appendingPathComponent("cache")])
    }

    /// A recogniser that loads the labelled requests at its first use: a program whose every
    /// request a rule reads never loads the model.
    public static func onDemand(_ environment: PBEnvironment) -> @Sendable (String) -> Reading? {
        let once = Once { load(environment) }
        return { once.value?.reading($0) }
    }

    /// A value made at its first use, once, whichever thread asks.
    final class Once: @unchecked Sendable {
        // @unchecked: `made` and `stored` are read and written only under `lock`.
        private let lock = NSLock()
        private let make: () -> LabelledRequests?
        private var made = false
        private var stored: LabelledRequests?

        init(_ make: @escaping () -> LabelledRequests?) { self.make = make }

        var value: LabelledRequests? {
            lock.lock()
            defer { lock.unlock() }
            if !made { stored = make(); made = true }
            return stored
        }
    }

    /// The kind of `text`, when its nearest labelled requests agree on one the store serves.
    public func reading(_ text: String) -> Reading? {
        let said = text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard !said.isEmpty, let best = nearest(said) else { return nil }
        return best.kind != .other && best.share >= Self.minimumShare && best.nearest >= Self.minimumSimilarity ? best : nil
    }

    /// The neighbours' vote, whatever it says.
    func nearest(_ text: String) -> Reading? {
        guard let q = encoder.embed([text], maxTokens: Self.maxTokens).first, q.contains(where: { $0 != 0 }) else { return nil }
        let dim = encoder.dimension
        // The `neighbours` most similar, best first; an equal similarity keeps the earlier row.
        var top: [(row: Int, sim: Float)] = []
        // Sixteen lanes at a time (MiniLM's 384 is 24 of them); a tail of a dimension that is
        // not a multiple of 16 is added one by one.
        let lanes = dim / 16
        vectors.withUnsafeBufferPointer { v in
            q.withUnsafeBufferPointer { qv in
            let q16 = UnsafeRawPointer(qv.baseAddress!).bindMemory(to: SIMD16<Float>.self, capacity: lanes)
            for row in 0..<kinds.count {
                let base = row * dim
                let r16 = UnsafeRawPointer(v.baseAddress! + base).bindMemory(to: SIMD16<Float>.self, capacity: lanes)
                var acc = SIMD16<Float>()
                for j in 0..<lanes { acc += q16[j] * r16[j] }
                var s = acc.sum()
                for j in (lanes * 16)..<dim { s += qv[j] * v[base + j] }
                if top.count < Self.neighbours || s > top[top.count - 1].sim {
                    let at = top.firstIndex { s > $0.sim } ?? top.count
                    top.insert((row, s), at: at)
                    if top.count > Self.neighbours { top.removeLast() }
                }
            }
            }
        }
        guard let first = top.first else { return nil }
        var votes: [RequestKind: Float] = [:]
        for n in top { votes[kinds[n.row], default: 0] += max(n.sim, 0) }
        let total = votes.values.reduce(0, +)
        // The winner by vote; an equal vote goes to the kind of the nearer request.
        guard total > 0, let kind = top.map({ kinds[$0.row] }).max(by: { votes[$0, default: 0] < votes[$1, default: 0] }) else { return nil }
        let example = top.first { kinds[$0.row] == kind }.map { texts[$0.row] } ?? texts[first.row]
        return Reading(kind: kind, share: votes[kind, default: 0] / total, nearest: first.sim, example: example)
    }

    /// Writes the vectors for the next program (`AtomicFile`: 0600, renamed into place). False on
    /// any failure (a read-only folder, a full disk), which leaves things as they were.
    @discardableResult
    static func write(_ vectors: [Float], to url: URL) -> Bool {
        (try? AtomicFile.write(vectors.withUnsafeBytes { Data($0) }, to: url.path)) != nil
    }
}
