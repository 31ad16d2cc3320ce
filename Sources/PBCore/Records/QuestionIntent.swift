/// What a question asks the library to do (`analysis.intent`): the shape its answer must take.
public enum QuestionIntent: String, ClosedSet {
    /// One value: an amount, a setting, a number, a name, a code ("what is the front tyre pressure?").
    case lookup
    /// The ordered steps of a task ("how do I descale the kettle?").
    case procedure
    /// Two or more values side by side, each with its source ("compare the two quotes").
    case compare
    /// A document or section in brief ("summarise the meeting notes").
    case summarize
    /// What the library holds ("what is in my documents?", "which files are about the garden?").
    case overview
    /// A date or time ("when is the dentist appointment?").
    case when
    /// A person or organisation ("who fixed the boiler?").
    case who
    /// Anything else: the sentence that best answers it.
    case general
}
