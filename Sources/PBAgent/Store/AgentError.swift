/// Why a tool step failed. Messages are lowercase and say what was expected; a failed step stops
/// its plan but is not malformed input.
public enum AgentError: Error, CustomStringConvertible, Equatable {
    /// A required argument is absent.
    case missingArgument(String)
    /// An argument has the wrong type or an impossible value.
    case badArgument(String, String)
    /// An argument the tool does not take.
    case unknownArgument(String, known: [String])
    /// Nothing matches what the step names.
    case notFound(String)
    /// More than one item fits equally; the step never guesses.
    case ambiguous(kind: String, query: String, candidates: [String])
    /// A destructive step's title fits one item only loosely: asked back, never run.
    case unsure(kind: String, query: String, candidate: String, missing: [String])
    /// The store's state does not allow the change.
    case conflict(String)
    /// The tool ran but its result is not what was asked for.
    case postcondition(String)
    /// A `$N` reference cannot be resolved.
    case badReference(String)

    public var description: String {
        switch self {
        case .missingArgument(let name): return "missing argument '\(name)'"
        case let .badArgument(name, reason): return "argument '\(name)': \(reason)"
        case let .unknownArgument(name, known):
            return "unknown argument '\(name)' (takes: \(known.joined(separator: ", ")))"
        case .notFound(let what): return what
        case let .ambiguous(kind, query, candidates):
            // A person is named by full name; an item by its id.
            let which = kind.hasPrefix("contact") ? "say which by full name" : kind == "event" ? "say which by its day (on)" : "name one by id"
            return "'\(query)' fits more than one \(kind) equally: \(candidates.joined(separator: ", ")); \(which)"
        case let .unsure(kind, query, candidate, missing):
            let words = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            return "did you mean \(candidate)? '\(query)' fits that \(kind) only loosely (\(words) is not in its title), so nothing was changed; name it by id or by its title to go ahead"
        case .conflict(let why): return why
        case .postcondition(let why): return "postcondition failed: \(why)"
        case .badReference(let why): return why
        }
    }
}
