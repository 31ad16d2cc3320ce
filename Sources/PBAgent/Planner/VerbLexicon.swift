/// Verb synonym sets by lemma, the verbs that open a to-do, and a rule-based lemmatiser for past
/// tenses ("paid" -> "pay", "tidied" -> "tidy"), so paraphrases and statements of state route the
/// same way as the canonical command.
public enum VerbLexicon {
    public enum Action: String, Sendable {
        case complete, reschedule, delete, reopen, search, create
    }

    /// Synonyms by action. "do" is left out: as an auxiliary it turned questions into completions.
    static let synonyms: [Action: Set<String>] = [
        // "check" is not here: said bare it means look at ("check my list") or a to-do ("check the
        // tyres"); only "check off X" and "check X off" complete, in the paraphrase reader.
        .complete: ["finish", "complete", "done", "tick", "cross", "close", "wrap", "mark"],
        .reschedule: ["postpone", "push", "delay", "move", "defer", "shift", "bump", "reschedule", "put", "slide", "slip", "kick", "nudge"],
        .delete: ["delete", "remove", "drop", "cancel", "scrap", "trash", "bin", "ditch", "nix", "discard", "erase", "forget", "kill", "axe", "eliminate", "purge"],
        .reopen: ["reopen", "unfinish", "undone", "resurrect", "revive"],
        .search: ["search", "find", "look", "locate", "grep", "lookup"],
    ]

    public static func action(ofLemma lemma: String) -> Action? {
        for (action, words) in synonyms where words.contains(lemma) { return action }
        return nil
    }

    /// Verbs that open a to-do when a clause starts with them ("call Mom", "grab the cake").
    static let taskVerbs: Set<String> = [
        "call", "ring", "phone", "text", "email", "e-mail", "message", "ping", "write", "reply", "respond", "answer",
        "buy", "grab", "get", "pick", "collect", "fetch", "order", "book", "reserve", "schedule", "arrange", "plan",
        "organise", "organize", "pay", "renew", "return", "send", "post", "mail", "ship", "deliver", "drop", "take",
        "bring", "fix", "repair", "clean", "tidy", "wash", "vacuum", "hoover", "mop", "sweep", "water", "feed", "walk",
        "cook", "bake", "make", "prepare", "prep", "print", "sign", "file", "submit", "apply", "register", "cancel",
        "check", "cross", "review", "read", "study", "practise", "practice", "learn", "research", "update", "upgrade", "install",
        "backup", "charge", "replace", "change", "sort", "clear", "empty", "pack", "unpack", "move", "visit",
        "see", "meet", "ask", "tell", "remind", "invite", "thank", "congratulate", "wish", "follow", "chase", "confirm",
        "finalise", "finalize", "draft", "edit", "proofread", "publish", "share", "upload", "download", "test", "try",
        "look", "find", "research", "compare", "measure", "hang", "paint", "mow", "trim", "prune", "plant", "weed",
        "defrost", "iron", "fold", "donate", "recycle", "sell", "list", "refill", "top", "service", "inspect", "test",
        "prepare", "pitch", "present", "record", "film", "photograph", "scan", "shred", "archive", "declutter",
        "start", "begin", "continue", "go", "drive", "run", "exercise", "stretch", "meditate", "set", "sharpen",
        "collect", "claim", "refund", "exchange", "top", "fill", "call", "hire", "interview", "onboard", "train",
        "double-check", "verify", "figure", "work", "catch", "sync", "transfer", "deposit", "withdraw", "put", "approve",
    ]

    /// Past tenses that do not end in -ed, and -ed forms the rules below get wrong.
    static let irregular: [String: String] = [
        "paid": "pay", "bought": "buy", "sent": "send", "did": "do", "made": "make", "wrote": "write",
        "took": "take", "got": "get", "went": "go", "brought": "bring", "rang": "ring",
        "sold": "sell", "told": "tell", "met": "meet", "saw": "see", "gave": "give", "found": "find",
        "hung": "hang", "swept": "sweep", "fed": "feed",
        "left": "leave", "kept": "keep", "built": "build", "spent": "spend", "taught": "teach",
        "caught": "catch", "drove": "drive", "ran": "run", "chose": "choose", "ate": "eat", "drank": "drink",
        "threw": "throw", "shut": "shut", "won": "win", "lent": "lend", "dug": "dig", "swam": "swim",
        "spoke": "speak", "rewrote": "rewrite", "sorted": "sort", "emptied": "empty",
        "invited": "invite", "edited": "edit", "visited": "visit", "submitted": "submit",
        "updated": "update", "used": "use", "renewed": "renew", "fixed": "fix", "mixed": "mix",
        "booked": "book", "cooked": "cook", "picked": "pick", "checked": "check", "returned": "return",
        "filed": "file", "called": "call", "emailed": "email", "mailed": "mail", "posted": "post",
        "ordered": "order", "cancelled": "cancel", "canceled": "cancel", "travelled": "travel",
        "signed": "sign", "printed": "print", "watered": "water", "washed": "wash", "finished": "finish",
        "completed": "complete", "deleted": "delete", "closed": "close", "prepared": "prepare", "shared": "share",
        "declined": "decline", "recycled": "recycle", "compared": "compare", "scheduled": "schedule", "declared": "declare",
    ]

    /// Words that end in -ed but are not past tenses of a verb worth reading.
    static let notPast: Set<String> = ["need", "bed", "red", "shed", "seed", "feed", "speed", "weed", "bred", "wed", "sled", "led"]

    /// The lemma of a past-tense word, or nil when it does not read as one.
    public static func pastLemma(_ word: String) -> String? {
        let w = word.lowercased()
        if let l = irregular[w] { return l }
        guard w.hasSuffix("ed"), w.count > 4, !notPast.contains(w) else { return nil }
        var stem = String(w.dropLast(2))
        if stem.hasSuffix("i") { return String(stem.dropLast()) + "y" }
        let chars = Array(stem)
        let vowels = Set("aeiou")
        if chars.count >= 3, chars[chars.count - 1] == chars[chars.count - 2], !"lsfz".contains(chars.last!) {
            return String(stem.dropLast())
        }
        let endsWithE = ["at", "iz", "bl", "ur", "ng", "dg", "ul", "ac", "uc", "ic", "is", "rs", "ls", "ns", "ok", "ak", "ik", "iv", "av", "ov", "uv", "ev"]
        if endsWithE.contains(where: { stem.hasSuffix($0) }), !stem.hasSuffix("ook") {
            return stem + "e"
        }
        // A short consonant-vowel-consonant stem lost an e ("baked" -> "bak" -> "bake").
        if chars.count == 3 || chars.count == 4, !vowels.contains(chars[chars.count - 1]), vowels.contains(chars[chars.count - 2]),
           !vowels.contains(chars[chars.count - 3]), !"wxy".contains(chars.last!) {
            stem += "e"
        }
        return stem
    }
}
