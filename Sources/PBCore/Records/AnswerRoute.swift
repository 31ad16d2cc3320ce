/// How an answer was written (`answer.route`, and the receipt's `intended`, `attempted`, `actual`).
public enum AnswerRoute: String, ClosedSet {
    /// Sentences chosen from the evidence by pb-answer's composer.
    case extractive
    /// The extractive composer's summary of a passage, for "summarise ..." questions.
    case summary
    /// A chat completion from an OpenAI-compatible endpoint (`--endpoint`).
    case endpoint
    /// No answer was written (pb-verify met a query without one).
    case none
}
