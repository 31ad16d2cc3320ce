import Foundation

/// The calendars PocketBrains reads: the .ics files of the calendar folder (PB_CALENDAR_DIR, or
/// a tool's `dir`) and its own calendar, `calendar/pocketbrains.ics` under PB_HOME (what
/// `schedule` wrote), which is read always, once, even when the folder holds it too.
enum CalendarSources {
    /// PocketBrains' own calendar in the folder `home` (PB_HOME, where the store is).
    static func ownCalendar(home: String) -> String {
        (home as NSString).appendingPathComponent("calendar/pocketbrains.ics")
    }

    /// The files, by the name an event cites and their path. A folder named but missing is an error.
    static func files(directory: String?, ownCalendar own: String) throws -> [(name: String, path: String)] {
        var files: [(name: String, path: String)] = []
        if let dir = directory {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw AgentError.notFound("no calendar folder \(dir)")
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.lowercased().hasSuffix(".ics") }.sorted()
            files += names.map { ($0, (dir as NSString).appendingPathComponent($0)) }
        }
        if !files.contains(where: { CalendarTools.absolute($0.path) == CalendarTools.absolute(own) }) { files.append(("pocketbrains.ics", own)) }
        return files
    }

    /// Every event (each occurrence of a repeating one) that overlaps `window`, and the TZIDs that
    /// named no zone this reader knows, with their file. `read` gives a file's content, nil when
    /// there is none.
    static func events(directory: String?, ownCalendar: String, zone: TimeZone, window: DateInterval,
                       read: (String) throws -> Data?) throws -> (events: [CalendarEvent], unresolved: [String]) {
        var events: [CalendarEvent] = []
        var unresolved: [String] = []
        for f in try files(directory: directory, ownCalendar: ownCalendar) {
            guard let data = try read(f.path) else { continue }
            let reading = CalendarEvent.reading(String(decoding: data, as: UTF8.self), file: f.name, zone: zone, window: window)
            events += reading.events
            unresolved += reading.unresolvedZones.map { "\($0) (\(f.name))" }
        }
        return (events, unresolved)
    }

    /// The same, with the files as the store's open transaction left them (an event scheduled two
    /// steps back counts).
    static func events(store: AgentStore, directory: String?, zone: TimeZone, window: DateInterval) throws -> (events: [CalendarEvent], unresolved: [String]) {
        try events(directory: directory, ownCalendar: SchedulingTools.ownCalendar(store), zone: zone, window: window, read: store.fileContent)
    }

    /// A file's content as it is on disk, nil when there is none.
    static func onDisk(_ path: String) throws -> Data? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw AgentError.conflict("cannot read \(path): \(error.localizedDescription)")
        }
    }
}
