/// An item already in the store, as R1 sees it: its reference and its words (an open task's
/// title, a saved note's body). A capture never adds one again.
public struct StoredItem: Equatable, Sendable {
    public var ref: String
    public var text: String

    public init(ref: String, text: String) {
        self.ref = ref
        self.text = text
    }
}
