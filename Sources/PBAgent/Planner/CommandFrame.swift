/// One command frame of the grammar: the patterns that say it (tried in order; the first that
/// matches the whole clause gives the groups) and what it builds from the groups.
struct CommandFrame: Sendable {
    /// What a frame makes of a clause one of its patterns matched.
    enum Reading {
        /// The clause's intents.
        case read([PlannedIntent])
        /// The clause is this frame's but names nothing it can act on: no frame after it reads it.
        case nothing
        /// The clause is not this frame's after all: the next frame tries.
        case notThis

        /// `.read` for intents, `.nothing` for nil (a builder that found no item).
        init(_ intents: [PlannedIntent]?) { self = intents.map(Reading.read) ?? .nothing }
    }

    /// A regular expression over the whole clause, and how its groups become the builder's (the
    /// identity when nil).
    struct Pattern: Sendable {
        var regex: String
        var groups: (@Sendable ([String]) -> [String])?

        init(_ regex: String, groups: (@Sendable ([String]) -> [String])? = nil) {
            self.regex = regex
            self.groups = groups
        }
    }

    var patterns: [Pattern]
    var build: @Sendable (IntentGrammar, [String]) -> Reading

    init(_ patterns: [Pattern], build: @escaping @Sendable (IntentGrammar, [String]) -> Reading) {
        self.patterns = patterns
        self.build = build
    }

    init(_ regex: String, build: @escaping @Sendable (IntentGrammar, [String]) -> Reading) {
        self.init([Pattern(regex)], build: build)
    }

    /// The groups of the first pattern that matches `text`, or nil.
    func match(_ text: String, with patterns: ClausePattern) -> [String]? {
        for p in self.patterns {
            if let m = patterns.match(p.regex, text) { return p.groups.map { $0(m) } ?? m }
        }
        return nil
    }
}
