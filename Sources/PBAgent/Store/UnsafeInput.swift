/// A value that would change the shape of what a tool writes, not just its content: a CR or LF
/// in an e-mail address ends its header line and starts another (a Bcc the user never asked
/// for). Unlike an `AgentError`, it is malformed input: pb-exec refuses the whole plan (status
/// 65) instead of failing one step and keeping the steps before it.
public struct UnsafeInput: Error, Equatable, CustomStringConvertible {
    /// The field the value was for ("to", "subject", "from (PB_FROM)").
    public var field: String
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field): \(reason)" }
}
