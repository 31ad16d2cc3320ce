import Foundation
import PBCore
import Testing
@testable import PBAgent

/// Requests no rule reads, recognised by the labelled requests nearest to them: the planner's
/// side with a recogniser that says what it is told, and the real one on the installed model.
@Suite("LabelledRequests: what no rule reads is asked about, never done")
struct LabelledRequestsTests {
    static func reading(_ kind: RequestKind, share: Float = 1, nearest: Float = 0.9) -> LabelledRequests.Reading {
        LabelledRequests.Reading(kind: kind, share: share, nearest: nearest, example: "an example of \(kind.rawValue)")
    }

    static func planner(_ reading: LabelledRequests.Reading?) -> Planner {
        fixedPlanner().recognising(with: { _ in reading })
    }

    @Test("every kind the store serves is asked about with a tool it may start with; other is never asked about")
    func kindsAndTools() {
        for kind in RequestKind.allCases where kind != .other {
            let asked = kind.asked
            #expect(asked != nil, "\(kind)")
            if let asked { #expect(kind.tools.contains(asked.tool), "\(kind)") }
        }
        #expect(RequestKind.other.asked == nil)
        #expect(RequestKind.other.tools.isEmpty)
    }

    @Test("the labelled requests are HWU64's training fold: every line a kind and a request, 175 of each served kind")
    func data() {
        var counts: [String: Int] = [:]
        for line in LabelledRequests.data.split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1)
            #expect(parts.count == 2 && RequestKind(rawValue: String(parts[0])) != nil, "\(line)")
            counts[String(parts[0]), default: 0] += 1
        }
        for kind in RequestKind.allCases where kind != .other { #expect(counts[kind.rawValue] == 175, "\(kind)") }
        #expect(counts["other", default: 0] > 8000)
    }

    @Test("a request no rule reads is asked about by its kind, with no step", arguments: [
        (RequestKind.calendarRemove, "cancel_event", PlanAsk.Need.event),
        (.calendarQuery, "calendar_agenda", .when),
        (.listsQuery, "project_status", .list),
        (.emailQueryContact, "find_contact", .who),
        (.emailSend, "draft_message", .what),
    ])
    func unmatchedIsAsked(kind: RequestKind, tool: String, needs: PlanAsk.Need) {
        let plan = Self.planner(Self.reading(kind, share: 0.8, nearest: 0.72)).plan("zorbly florp")
        #expect(plan.steps.isEmpty)
        #expect(plan.source == "examples")
        #expect(plan.ask?.tool.rawValue == tool)
        #expect(plan.ask?.needs == needs)
        #expect(plan.ask?.question.isEmpty == false)
        #expect(plan.message?.contains("an example of \(kind.rawValue)") == true)
    }

    @Test("without a recogniser, or when it says other, nothing matched")
    func noReading() {
        for planner in [fixedPlanner(), Self.planner(Self.reading(.other))] {
            let plan = planner.plan("zorbly florp")
            #expect(plan.ask == nil && plan.steps.isEmpty && plan.source == "fallback")
            #expect(plan.message?.hasPrefix("nothing matched") == true)
        }
    }

    @Test("a request about something the store does not keep is not asked about, whatever the neighbours say")
    func outsideStaysOutside() {
        let plan = Self.planner(Self.reading(.listsRemove)).plan("remove the last item from my cart")
        #expect(plan.ask == nil && plan.steps.isEmpty)
        #expect(plan.message?.contains("not one of them") == true)
    }

    @Test("a one-step plan is overruled only when every neighbour is of a kind that never starts with its tool")
    func overruling() {
        let text = "call mom"
        #expect(fixedPlanner().plan(text).tools == ["create_task"])
        // All five neighbours look up a contact, the closest near enough: asked whose details.
        let overruled = Self.planner(Self.reading(.emailQueryContact, share: 1, nearest: 0.8)).plan(text)
        #expect(overruled.steps.isEmpty && overruled.source == "examples")
        #expect(overruled.ask?.tool == .findContact)
        #expect(overruled.message?.contains("read this request as create_task") == true)
        // Four of five, or the closest not near enough: the grammar's step stands.
        #expect(Self.planner(Self.reading(.emailQueryContact, share: 0.8, nearest: 0.8)).plan(text).tools == ["create_task"])
        #expect(Self.planner(Self.reading(.emailQueryContact, share: 1, nearest: 0.74)).plan(text).tools == ["create_task"])
        // A kind that may start with the step's tool agrees with it.
        #expect(Self.planner(Self.reading(.calendarSet)).plan(text).tools == ["create_task"])
        // Two steps are never overruled.
        #expect(Self.planner(Self.reading(.emailQueryContact)).plan("call mom and buy milk").tools == ["create_task", "create_task"])
    }

    @Test("a new item read by its frame is no fallback reading: never overruled", arguments: [
        ("remind me to cancel my meeting tomorrow", RequestKind.calendarRemove, "create_task"),
        ("add a task to clear my calendar for friday", .calendarRemove, "create_task"),
        ("note that john's number is 555 1234", .emailQueryContact, "create_note"),
    ])
    func framesStand(text: String, kind: RequestKind, tool: String) {
        #expect(Self.planner(Self.reading(kind)).plan(text).tools == [tool], "\(text)")
    }

    @Test("a question is never recognised as a kind that writes")
    func questionsDoNotWrite() {
        #expect(Self.planner(Self.reading(.calendarRemove)).plan("what did i delete from my calendar").tools == ["calendar_agenda"])
        // "what zorbly florp" is a question to the notes; a kind that looks may overrule it, one
        // that writes may not.
        #expect(Self.planner(Self.reading(.listsRemove)).plan("what zorbly florp").tools == ["ask_notes"])
        #expect(Self.planner(Self.reading(.emailQueryContact)).plan("what zorbly florp").ask?.tool == .findContact)
    }

    @Test("a change to an item, read from its own verb, is never overruled", arguments: [
        ("mark the dentist done", "complete_task"),
        ("move the boiler service to tuesday", "reschedule_task"),
        ("delete buy milk", "delete_task"),
    ])
    func changesStand(text: String, tool: String) {
        #expect(fixedPlanner().plan(text).tools == [tool], "\(text)")
        #expect(Self.planner(Self.reading(.emailQueryContact)).plan(text).tools == [tool], "\(text)")
    }

    @Test("the planner at another time keeps its recogniser")
    func keptAcrossNow() {
        let later = Self.planner(Self.reading(.listsQuery, share: 0.8, nearest: 0.72)).at(Date(timeIntervalSince1970: 1_800_000_000))
        #expect(later.plan("zorbly florp").ask?.tool == .projectStatus)
    }

    @Test("on the installed model: a misread request is recognised, a vague one and one outside the store are not",
          .enabled(if: FileManager.default.fileExists(atPath: PBEnvironment().modelDirectory.appendingPathComponent("model.safetensors").path)))
    func realModel() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pb-labelled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = PBEnvironment(variables: ["PB_HOME": home.path, "PB_MODEL_DIR": PBEnvironment().modelDirectory.path])
        let requests = try #require(LabelledRequests.load(environment))
        let wipe = try #require(requests.reading("calendar wipe for tomorrow"))
        #expect(wipe.kind == .calendarRemove && wipe.overrules)
        #expect(requests.reading("groceries what's in there")?.kind == .listsQuery)
        #expect(requests.reading("tuesday what's happening") == nil)
        #expect(requests.reading("play some jazz in the kitchen") == nil)
        #expect(requests.reading("") == nil)
    }

    @Test("a cache file whose rows are not what embedding gives is embedded again and rewritten, never read",
          .enabled(if: FileManager.default.fileExists(atPath: PBEnvironment().modelDirectory.appendingPathComponent("model.safetensors").path)))
    func damagedCache() throws {
        let model = PBEnvironment().modelDirectory
        let sound = try #require(LabelledRequests.load(PBEnvironment(variables: ["PB_HOME": "/nonexistent", "PB_MODEL_DIR": model.path])))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-labelled-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // The sound vectors shifted by one row: every row a real vector, each under the wrong label.
        let dim = sound.encoder.dimension
        let shifted = Array(sound.vectors[dim...]) + Array(sound.vectors[..<dim])
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: model.path).first { $0.hasPrefix("labelled-requests-") })
        let file = folder.appendingPathComponent(name)
        #expect(LabelledRequests.write(shifted, to: file))
        let again = LabelledRequests(encoder: sound.encoder, cacheDirectories: [folder])
        #expect(again.vectors == sound.vectors)
        #expect(try Data(contentsOf: file) == sound.vectors.withUnsafeBytes { Data($0) })
        #expect((try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int) == 0o600)
    }
}
