import Foundation
import PBText

/// The user's contacts, from vCard files (one .vcf or a folder of them, as GNOME Contacts,
/// Thunderbird and Nextcloud export them), and who a name in a request means.
///
/// A name is looked up among known contacts only, never guessed: first as written (full name,
/// first name, last name or nickname, ignoring case and accents); then, when nothing is called
/// that, by spelling and sound: an edit distance of one (two for names of seven letters or more)
/// or the same phonetic key ("Mira" for "Myra", "Jon" for "John", "Katherine" for "Catherine").
/// One person found is the answer; more than one is reported with every candidate.
public struct ContactBook: Sendable {
    public let contacts: [VCard]

    public init(contacts: [VCard]) { self.contacts = contacts }

    /// The contacts of a .vcf file, or of every .vcf file in a folder (sorted by name).
    public static func load(_ path: String) throws -> ContactBook {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw AgentError.notFound("no contacts at \(path) (a .vcf file or a folder of them)")
        }
        var files = [path]
        if isDir.boolValue {
            files = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.lowercased().hasSuffix(".vcf") }.sorted()
                .map { (path as NSString).appendingPathComponent($0) }
        }
        var cards: [VCard] = []
        for f in files {
            guard let data = FileManager.default.contents(atPath: f) else { continue }
            cards += VCard.parse(String(decoding: data, as: UTF8.self))
        }
        return ContactBook(contacts: cards)
    }

    public enum Lookup: Equatable, Sendable {
        case found(VCard, how: String)
        case ambiguous([VCard], how: String)
        case none
    }

    static func fold(_ s: String) -> String {
        s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).trimmingCharacters(in: .whitespaces)
    }

    /// The names a contact answers to.
    static func names(_ c: VCard) -> [String] {
        ([c.fullName, c.given, c.family] + c.nicknames).map(fold).filter { !$0.isEmpty }
    }

    public func lookup(_ raw: String) -> Lookup {
        let q = Self.fold(raw)
        guard !q.isEmpty else { return .none }
        let exact = contacts.filter { Self.names($0).contains(q) }
        if exact.count == 1 { return .found(exact[0], how: "by name") }
        if exact.count > 1 {
            // "Sam Lee" among two Sams: the full name decides.
            let full = exact.filter { Self.fold($0.fullName) == q }
            return full.count == 1 ? .found(full[0], how: "by name") : .ambiguous(exact, how: "by name")
        }
        // Only a first or single name is matched by sound: a misheard full name is too far.
        let key = Self.phonetic(q)
        let close = contacts.filter { c in
            Self.names(c).contains { name in
                let limit = max(q.count, name.count) >= 7 ? 2 : 1
                return Self.distance(q, name) <= limit || (!key.isEmpty && Self.phonetic(name) == key)
            }
        }
        if close.count == 1 { return .found(close[0], how: "by spelling or sound") }
        if close.count > 1 { return .ambiguous(close, how: "by spelling or sound") }
        return .none
    }

    /// The contacts one of whose single names (first, last or a nickname) sounds like `heard`:
    /// the same phonetic key, of two sounds at least (a key of one sound matches too much).
    /// For speech, where a name comes out as the word it sounds like ("mirror" for "Myra"),
    /// spelling distance means nothing.
    public func soundsLike(_ heard: String) -> [VCard] {
        let key = Self.phonetic(Self.fold(heard))
        guard key.count >= 2 else { return [] }
        return contacts.filter { c in
            ([c.given, c.family] + c.nicknames).map(Self.fold).contains { !$0.isEmpty && Self.phonetic($0) == key }
        }
    }

    /// The phonetic key of a name, as `soundsLike` compares them.
    public static func phoneticKey(_ name: String) -> String { phonetic(fold(name)) }

    /// Whether `word` is one of a contact's names as written (case and accents aside).
    public func isName(_ word: String) -> Bool {
        let q = Self.fold(word)
        return !q.isEmpty && contacts.contains { Self.names($0).contains(q) }
    }

    /// Damerau-Levenshtein distance (adjacent swaps count one), on characters.
    static func distance(_ a: String, _ b: String) -> Int { EditDistance.optimalAlignment(Array(a), Array(b)) }

    /// A phonetic key for English names, in the spirit of Metaphone: letters that sound alike
    /// map to one class (C/K/Q, PH/F, I/Y, Z/S), silent H after a consonant and vowels after the
    /// first letter are dropped, and doubles are collapsed. "myra" and "mira" -> "MR", "jon" and
    /// "john" -> "JN", "catherine" and "katherine" -> "K0RN".
    static func phonetic(_ name: String) -> String {
        let s = Array(name.lowercased().filter { $0.isLetter })
        guard !s.isEmpty else { return "" }
        var out: [Character] = []
        var i = 0
        func add(_ c: Character) { if out.last != c { out.append(c) } }
        while i < s.count {
            let c = s[i]
            let next: Character? = i + 1 < s.count ? s[i + 1] : nil
            let vowel = "aeiouy".contains(c)
            if vowel {
                if i == 0 { add("A") }
                i += 1
                continue
            }
            switch c {
            case "p" where next == "h": add("F"); i += 1
            case "t" where next == "h": add("0"); i += 1
            case "s" where next == "h", "c" where next == "h": add("X"); i += 1
            case "c", "k", "q": add("K")
            case "g" where next == "h": i += 1
            case "j": add("J")
            case "g" where next == "e" || next == "i" || next == "y": add("J")
            case "z", "s": add("S")
            case "v", "f": add("F")
            case "w" where i == 0: add("W")
            case "h", "w": break
            case "x": add("K"); add("S")
            case "d", "t": add("T")
            case "b", "p": add("P")
            default: add(Character(c.uppercased()))
            }
            i += 1
        }
        return String(out)
    }
}
