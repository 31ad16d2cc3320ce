import Foundation
import PBCore
import PBEndpoint

/// pb-plan --endpoint: an OpenAI-compatible chat server proposes the plan, in the shape a JSON
/// schema enforces (llama.cpp turns `response_format`'s schema into a grammar), choosing among
/// the few tools PlanToolSelector offers. Its plan is checked before anything else sees it
/// (unknown or unoffered tools, unknown or missing arguments, impossible dates, references to
/// steps that do not come earlier), then reconciled by R1-R9 exactly as the grammar's plans are:
/// a model is never trusted more than the grammar. When the server fails, times out or proposes
/// a plan the checks reject, the grammar's plan is given instead and the receipt says why.
public struct EndpointPlanner: Sendable {
    public let endpoint: ChatEndpoint
    public let remote: Bool
    public let selector: PlanToolSelector
    /// The most steps a plan from the model may have; a request of more is a dump, which the
    /// grammar's capture reads better than a small model.
    public static let maxSteps = 8

    /// nil without --endpoint; a usage error for a bad URL, a remote one without consent, or
    /// --model, --timeout or --allow-remote without --endpoint.
    public init?(options o: ParsedOptions) throws {
        guard let endpoint = try ChatEndpoint(options: o) else { return nil }
        self.init(endpoint: endpoint)
    }

    public init(endpoint: ChatEndpoint, registry: ToolRegistry = .standard) {
        self.endpoint = endpoint
        remote = !EndpointPolicy.isLoopback(endpoint.url)
        selector = PlanToolSelector(registry: registry)
    }

    var registry: ToolRegistry { selector.registry }

    /// The plan for `text`: the model's, checked and reconciled, or the grammar's with the reason.
    public func plan(_ text: String, planner: Planner, capture: Bool? = nil) -> PlanRecord {
        let dump = capture ?? planner.looksLikeDump(text)
        let grammarPlan = planner.plan(text, capture: dump)
        let offered = selector.select(text, reading: grammarPlan.steps.map(\.tool))
        var receipt = PlanReceipt(intended: .endpoint, actual: .grammar, endpoint: endpoint.completionsURL.absoluteString, offered: offered)
        let messages = self.messages(text, offered: offered, planner: planner)
        if remote, let payload = try? RecordCodec().encodeValue(messages) {
            // Consent is informed: the exact bytes about to leave the machine, before they do.
            FileHandle.standardError.write(Data("pb-plan: sending to \(endpoint.url.absoluteString): ".utf8) + payload + Data("\n".utf8))
        }
        do {
            let reply = try endpoint.complete(messages, temperature: 0, maxTokens: 768, responseFormat: responseFormat(offered))
            receipt.model = reply.model
            receipt.elapsedMS = Int(reply.milliseconds.rounded())
            switch proposal(reply.text, offered: offered, zone: planner.dates.parser.timeZone).flatMap({ steps in
                grounding(steps, request: text, reading: grammarPlan, planner: planner).map { Result.failure($0) } ?? .success(steps)
            }) {
            case .success(let steps):
                let proposed = PlanRecord(text: text, now: planner.dates.format.instant(planner.dates.parser.now), steps: steps, source: "endpoint")
                var record = planner.reconcile(proposed, capture: dump)
                // A plan whose every step the rules rejected is as invalid as one that failed the
                // checks above: the request still deserves the grammar's reading.
                if !steps.isEmpty, record.steps.isEmpty {
                    let rejected = Planner.rejections(record)
                    receipt.fallback = "the rules rejected every step of the model's plan" + (rejected.isEmpty ? "" : ": " + rejected.joined(separator: "; "))
                    var fallback = grammarPlan
                    fallback.receipt = receipt
                    return fallback
                }
                if steps.isEmpty, record.message == nil {
                    record.message = "the model planned nothing for this request"
                }
                receipt.actual = .endpoint
                record.receipt = receipt
                return record
            case .failure(let why):
                receipt.fallback = "the model's plan was rejected: \(why.reason)"
            }
        } catch {
            receipt.fallback = "endpoint failed: \(error)"
        }
        var record = grammarPlan
        record.receipt = receipt
        return record
    }

    // MARK: the request

    static let instructions = """
        You turn a person's request into a plan of tool calls on their own task, note and calendar store. \
        Reply with JSON only: {"steps": [{"tool": "...", "args": {...}}]}. Use only the tools listed, with only \
        their arguments. Titles and message bodies are the request's own words. Dates are ISO 8601 (2026-12-08, or \
        2026-12-08T09:00:00+00:00 with a time), worked out from the time now given below. A later step can name an \
        item an earlier step made as "$1" (step 1's item). A question no tool answers, or a request for something \
        these tools do not do, gets {"steps": []}.
        """

    /// The system message (instructions, now, the offered tools) and the request.
    func messages(_ text: String, offered: [ToolName], planner: Planner) -> [ChatMessage] {
        let now = planner.dates.parser.now
        var weekday = Calendar(identifier: .gregorian)
        weekday.timeZone = planner.dates.parser.timeZone
        let day = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"][weekday.component(.weekday, from: now) - 1]
        var lines = [Self.instructions, "", "Now: \(planner.dates.format.instant(now)) (\(day)), time zone \(planner.dates.parser.timeZone.identifier).", "", "Tools:"]
        for name in offered {
            guard let tool = registry.tool(named: name) else {
                lines.append("- \(name)(): \(Self.engineTools[name] ?? name.rawValue)")
                continue
            }
            let args = tool.arguments.map { $0.name + ($0.required ? "*" : "") }.joined(separator: ", ")
            lines.append("- \(name)(\(args)): \(tool.summary)")
            for a in tool.arguments { lines.append("    \(a.name): \(a.help)") }
        }
        lines.append("(* required)")
        return [ChatMessage(role: "system", content: lines.joined(separator: "\n")), ChatMessage(role: "user", content: text)]
    }

    /// Plan tools pb-exec runs through its undo engine, not the registry.
    static let engineTools: [ToolName: String] = [
        .undo: "take back the previous request's changes",
        .redo: "take back the last undo",
    ]

    /// The schema the server keeps its reply to: steps, each one offered tool with its own
    /// arguments only, so a constrained server cannot even write an argument the tool lacks.
    func responseFormat(_ offered: [ToolName]) -> JSONValue {
        let choices: [JSONValue] = offered.map { name in
            let arguments = registry.tool(named: name)?.arguments ?? []
            var args: [String: JSONValue] = [
                "type": .string("object"),
                "properties": .object(Dictionary(uniqueKeysWithValues: arguments.map { ($0.name, Self.valueSchema($0)) })),
                "additionalProperties": .bool(false),
            ]
            let required = arguments.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { args["required"] = .array(required) }
            return .object([
                "type": .string("object"),
                "required": .array([.string("tool"), .string("args")]),
                "properties": .object(["tool": .object(["const": .string(name.rawValue)]), "args": .object(args)]),
                "additionalProperties": .bool(false),
            ])
        }
        return .object([
            "type": .string("json_object"),
            "schema": .object([
                "type": .string("object"),
                "required": .array([.string("steps")]),
                "properties": .object([
                    "steps": .object(["type": .string("array"), "maxItems": .number(Double(Self.maxSteps)), "items": .object(["anyOf": .array(choices)])]),
                ]),
                "additionalProperties": .bool(false),
            ]),
        ])
    }

    /// An argument's value: a string or number (true or false for a yes/no argument, null to
    /// clear), or strings for one its help calls an array; never an object.
    static func valueSchema(_ a: AgentTool.Argument) -> JSONValue {
        if takesArray(a) {
            return .object(["anyOf": .array([.object(["type": .string("string")]),
                                              .object(["type": .string("array"), "items": .object(["type": .string("string")])])])])
        }
        return .object(["type": .array([.string("string"), .string("number"), .string("boolean"), .string("null")])])
    }

    static func takesArray(_ a: AgentTool.Argument) -> Bool { a.help.contains("array") }

    /// What the request itself must say for the model's plan to stand: a step that changes an
    /// item must be one the request asks for (the grammar reads that tool in it, or it says one
    /// of the tool's verbs), the item it names by id must be named by the request's words, and
    /// new words put into an item must be the request's; no plan at all where the grammar reads
    /// one, and no file but a plain .ics name. The rules R1-R9 then apply as to any plan.
    func grounding(_ steps: [PlanStep], request: String, reading: PlanRecord, planner: Planner) -> Rejection? {
        if steps.isEmpty, !reading.steps.isEmpty {
            return Rejection("the model planned nothing where the grammar reads \(reading.steps.map(\.tool.rawValue).joined(separator: ", "))")
        }
        let said = Set(TitleMatcher.contentWords(request))
        let lemmas = Set(PlanToolSelector.words(request).map { VerbLexicon.pastLemma($0) ?? $0 })
        let read = Set(reading.steps.map(\.tool))
        let targets = planner.reconciler.targets
        for step in steps {
            let label = "step \(step.n) (\(step.tool))"
            if step.tool.changesExisting, !read.contains(step.tool) {
                // A verb of deleting asks for any of the taking-out tools (events and lists too).
                let actions = lemmas.compactMap(VerbLexicon.action(ofLemma:))
                let verbs = actions.flatMap(PlanToolSelector.tools(for:))
                    + (actions.contains(.delete) ? [.cancelEvent, .deleteProject, .clearProject] : [])
                if step.tool.takesBackATurn || !verbs.contains(step.tool) {
                    return Rejection("\(label): the request does not ask for that change")
                }
            }
            if step.tool.changesExisting, let id = PlanReconciler.reference(step.args["id"]) {
                let ref = ItemRef(id, defaultKind: .task)?.description
                let all = (targets?.tasks ?? []) + (targets?.projects ?? []) + (targets?.milestones ?? []) + (targets?.notes ?? [])
                guard let item = all.first(where: { $0.ref == ref }),
                      PlanReconciler.grounded(TitleMatcher.contentWords(item.title), in: said) else {
                    return Rejection("\(label): the request does not name \(id)")
                }
            }
            for key in ["new_title", "notes", "text"] where step.tool != .draftMessage {
                if let words = PlanReconciler.text(step.args[key]), !PlanReconciler.grounded(TitleMatcher.contentWords(words), in: said) {
                    return Rejection("\(label): its \(key) is not the request's words")
                }
            }
            if step.tool == .exportICS, let path = PlanReconciler.text(step.args["path"]),
               path.contains("/") || !path.lowercased().hasSuffix(".ics") || path.hasPrefix(".") {
                return Rejection("\(label): the file must be a plain .ics name")
            }
        }
        return nil
    }

    // MARK: checking the reply

    /// Why a proposed plan is not taken.
    public struct Rejection: Error, Equatable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    struct Reply: Decodable {
        struct Step: Decodable {
            var tool: String
            var args: [String: JSONValue]?
        }
        var steps: [Step]
    }

    /// The reply as numbered plan steps, or the first reason it cannot be one.
    func proposal(_ reply: String, offered: [ToolName], zone: TimeZone) -> Result<[PlanStep], Rejection> {
        guard let open = reply.firstIndex(of: "{"), let close = reply.lastIndex(of: "}"), open < close,
              let parsed = try? JSONDecoder().decode(Reply.self, from: Data(reply[open...close].utf8)) else {
            return .failure(Rejection("the reply is not {\"steps\": [...]} JSON"))
        }
        guard parsed.steps.count <= Self.maxSteps else {
            return .failure(Rejection("\(parsed.steps.count) steps, more than \(Self.maxSteps)"))
        }
        var steps: [PlanStep] = []
        for (i, step) in parsed.steps.enumerated() {
            let n = i + 1
            let args = step.args ?? [:]
            guard let tool = ToolName(rawValue: step.tool) else {
                return .failure(Rejection("step \(n) (\(step.tool)): no such tool"))
            }
            if let why = check(tool, args, n: n, offered: offered, zone: zone) {
                return .failure(Rejection("step \(n) (\(step.tool)): \(why)"))
            }
            steps.append(PlanStep(n: n, tool: tool, args: args))
        }
        return .success(steps)
    }

    /// What is wrong with one proposed step, or nil.
    func check(_ tool: ToolName, _ args: [String: JSONValue], n: Int, offered: [ToolName], zone: TimeZone) -> String? {
        guard offered.contains(tool) else { return "the tool was not offered" }
        let arguments = registry.tool(named: tool)?.arguments ?? []
        let known = Set(arguments.map(\.name))
        if let unknown = args.keys.sorted().first(where: { !known.contains($0) }) { return "no argument '\(unknown)'" }
        for a in arguments where a.required && (args[a.name] == nil || args[a.name] == .null) {
            return "argument '\(a.name)' is missing"
        }
        // A tool that finds its item by id or title needs one of them.
        if known.contains("id"), known.contains("title"), !arguments.contains(where: { $0.name == "title" && $0.required }),
           !tool.createsItem, args["id"] == nil, args["title"] == nil {
            return "it names no item (id or title)"
        }
        for (name, value) in args.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let s) where s.trimmingCharacters(in: .whitespaces).isEmpty: return "'\(name)' is empty"
            case .string, .number, .bool, .null: break
            case .array(let items) where items.allSatisfy({ if case .string = $0 { return true } else { return false } })
                && arguments.contains(where: { $0.name == name && Self.takesArray($0) }): break
            default: return "'\(name)' is not a string, a number or a list of strings"
            }
            for ref in StepReference.all(in: value) {
                if let s = ref.step, s >= n { return "'\(name)' refers to step \(s), which does not come before it" }
                if ref.step == nil, n == 1 { return "'\(name)' refers to an earlier step, but it is the first" }
            }
            guard let help = arguments.first(where: { $0.name == name })?.help, help.contains("ISO 8601"),
                  case .string(let s) = value, StepReference(s) == nil else { continue }
            if ISOMoment.parse(s, zone: zone) == nil { return "'\(name)' is not a possible ISO 8601 date: '\(s)'" }
        }
        return nil
    }
}
