import PBCore

/// The tables that hold items and their edges: every write to them goes through `AgentStore`'s
/// row operations, which journal the inverse.
public enum StoreTable: String, Codable, CaseIterable, Sendable {
    case projects, tasks, milestones, notes, links, dependencies, recurrences, exports

    /// The prefix of this table's item references (`task:3`), for the tables that hold items.
    public var itemKind: String? {
        switch self {
        case .tasks: return "task"
        case .projects: return "project"
        case .milestones: return "milestone"
        case .notes: return "note"
        case .links: return "link"
        default: return nil
        }
    }

    func label(_ id: Int64) -> String { "\(itemKind ?? String(rawValue.dropLast())):\(id)" }
}

/// One step that undoes one write, stored as JSON in the journal entry of the write.
public enum InverseStep: Codable, Equatable, Sendable {
    /// Delete a row the write created. A row already gone counts as done.
    case delete(table: StoreTable, id: Int64)
    /// Put back a row the write deleted (a full snapshot). The id must be free, or hold the same row.
    case insert(table: StoreTable, row: [String: JSONValue])
    /// Put back the values a row had before the write. The row must still exist.
    case restore(table: StoreTable, id: Int64, row: [String: JSONValue])
    /// Remove the components with these UIDs from an iCalendar file, by rewriting it; delete the
    /// file when the export created it and nothing else is left. A missing file counts as done.
    case unexport(path: String, uids: [String], createdFile: Bool)
    /// Put back iCalendar components the write took out of a file (each as its text, with its
    /// UID) where they stood: before the event of the UID in `before`, or at the calendar's end.
    /// One whose UID the file holds again counts as done.
    case reinsert(path: String, components: [String], uids: [String], before: [String?])
    /// Remove a file the write created (an .eml draft). A file already gone counts as done.
    /// `sha256`, the content as written, lets undo refuse rather than delete a file the user
    /// edited since; entries journaled before it existed carry none.
    case removeFile(path: String, sha256: String? = nil)
    /// Remove the records with these ids from an NDJSON file the write added them to (the
    /// message drafts), and the file once it holds nothing, if the write created it. `sha256`,
    /// each record's `recordDigest` as written, lets undo refuse rather than delete a record the
    /// user edited since; entries journaled before it existed carry none.
    case removeRecords(path: String, ids: [String], createdFile: Bool, sha256: [String: String]? = nil)
    /// Changes nothing: says how the write left a row (nil: gone), so that undo can refuse when
    /// the row was changed since by anything the journal did not see (sqlite3, another program)
    /// rather than overwrite it. Entries journaled before this step existed carry none.
    case expect(table: StoreTable, id: Int64, row: [String: JSONValue]?)

    public var label: String {
        switch self {
        case let .delete(table, id): return "delete \(table.label(id))"
        case let .insert(table, row): return "restore deleted \(table.label(Self.rowID(row) ?? 0))"
        case let .restore(table, id, _): return "restore \(table.label(id))"
        case let .unexport(path, uids, _): return "remove \(uids.count) exported item(s) from \(path)"
        case let .reinsert(path, _, uids, _): return "put back \(uids.count) event(s) into \(path)"
        case let .removeFile(path, _): return "remove \(path)"
        case let .removeRecords(path, ids, _, _): return "remove \(ids.count) record(s) from \(path)"
        case let .expect(table, id, _): return "check \(table.label(id)) is as the change left it"
        }
    }

    /// The row the step is about ("tasks:3"), nil for a file.
    var rowKey: String? {
        switch self {
        case let .delete(table, id), let .restore(table, id, _), let .expect(table, id, _): return "\(table.rawValue):\(id)"
        case let .insert(table, row): return Self.rowID(row).map { "\(table.rawValue):\($0)" }
        case .unexport, .reinsert, .removeFile, .removeRecords: return nil
        }
    }

    /// The row the step is about, nil for a file.
    var row: (table: StoreTable, id: Int64)? {
        switch self {
        case let .delete(table, id), let .restore(table, id, _), let .expect(table, id, _): return (table, id)
        case let .insert(table, row): return Self.rowID(row).map { (table, $0) }
        case .unexport, .reinsert, .removeFile, .removeRecords: return nil
        }
    }

    /// The file the step is about, nil for a row.
    var filePath: String? {
        switch self {
        case let .unexport(path, _, _), let .reinsert(path, _, _, _), let .removeFile(path, _), let .removeRecords(path, _, _, _): return path
        default: return nil
        }
    }

    /// A record's content, whatever its key order and spacing: the SHA-256 of its canonical
    /// encoding (sorted keys, no spaces), which is how the record was written.
    static func recordDigest(_ record: [String: JSONValue]) throws -> String {
        SHA256.hex(try RecordCodec().encodeValue(JSONValue.object(record)))
    }

    static func rowID(_ row: [String: JSONValue]) -> Int64? {
        row["id"]?.wholeNumber
    }
}
