/// What a remembered item is (pb-records(5)): a closed set.
public enum MemoryItemType: String, ClosedSet {
    /// Something that is so ("the gym door code is 4417").
    case fact
    /// A choice made ("we'll go with the blue tiles").
    case decision
    /// Something asked and not yet answered ("should we book the ferry?").
    case question
    /// Something to do ("I need to call the plumber").
    case action
    /// Something that happened or will happen at a time ("I went to a support group yesterday").
    case event
    /// A like or dislike ("I prefer aisle seats").
    case preference
}
