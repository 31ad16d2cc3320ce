/// `verdict.status`: whether the answer may be shown.
public enum VerdictStatus: String, ClosedSet {
    /// Every critical gate passed and the confidence reached the floor.
    case answered
    /// The answer is withheld; `answer.text` is the abstention and `verdict.withheld` the text.
    case abstained
}
