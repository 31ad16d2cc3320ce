/// Puts the strongest passages at both ends of the prompt and the weakest in the middle, because
/// a reader (person or language model) attends most to the start and the end and skims between.
///
/// Passages ranked [1, 2, 3, 4, 5, 6] come out as [1, 3, 5, 6, 4, 2]: the odd ranks in order from
/// the top, then the even ranks climbing back up from the bottom, so rank 1 opens the prompt and
/// rank 2 closes it. It is a positional decision only, so it runs after every content decision.
public enum BothEndsOrder {
    /// The prompt order as indices into a list in priority order (0 = strongest).
    public static func indices(count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let front = Array(stride(from: 0, to: count, by: 2))
        let back = Array(stride(from: 1, to: count, by: 2).reversed())
        return front + back
    }

    /// `items` (strongest first) in prompt order.
    public static func apply<T>(_ items: [T]) -> [T] {
        indices(count: items.count).map { items[$0] }
    }
}
