import Foundation
import PBCore
import PBEndpoint
import Testing
@testable import PBAgent
@testable import PBDates

/// pb-plan --endpoint without a server: what the model is offered, the schema it is held to, and
/// the checks its reply must pass. Against llama.cpp's server: EndpointPlannerLiveTests below
/// (enabled by Tests/llm.sh through PB_LLM_URL) and the pb-plan checks in Tests/llm.sh.
@Suite("EndpointPlanner")
struct EndpointPlannerTests {
    let brain = EndpointPlanner(endpoint: ChatEndpoint(url: URL(string: "http://127.0.0.1:1")!, model: nil, timeout: 1))
    let zone = TimeZone(secondsFromGMT: 0)!
    let offered: [ToolName] = [.createTask, .completeTask, .rescheduleTask, .schedule, .draftMessage, .undo]

    func rejection(_ reply: String) -> String? {
        if case .failure(let r) = brain.proposal(reply, offered: offered, zone: zone) { return r.reason }
        return nil
    }

    @Test("the selector offers the grammar's reading first, at most eight tools, each a known one")
    func selection() {
        let s = PlanToolSelector()
        let tools = s.select("text sam that i'm late", reading: [.draftMessage])
        #expect(tools.first == .draftMessage)
        #expect(tools.count == PlanToolSelector.limit)
        #expect(Set(tools).count == tools.count)
        #expect(s.select("cancel the dentist", reading: []).first == .deleteTask, "the verb's action comes before the usual tools")
        #expect(s.select("snooze the boiler call", reading: []).prefix(2).contains(.snoozeTask))
        #expect(s.select("x", reading: [], limit: 3) == [.createTask, .completeTask, .rescheduleTask])
    }

    @Test("the schema allows only offered tools, each with its own arguments, as scalars")
    func schema() throws {
        let format = brain.responseFormat([.createTask, .undo])
        guard case .object(let f) = format, f["type"] == .string("json_object"), case .object(let schema)? = f["schema"],
              case .object(let props)? = schema["properties"], case .object(let steps)? = props["steps"],
              case .object(let items)? = steps["items"], case .array(let choices)? = items["anyOf"] else {
            Issue.record("unexpected shape: \(format)")
            return
        }
        #expect(choices.count == 2)
        guard case .object(let first) = choices[0], case .object(let p)? = first["properties"],
              case .object(let args)? = p["args"], case .object(let argProps)? = args["properties"] else {
            Issue.record("unexpected choice: \(choices[0])")
            return
        }
        #expect(p["tool"] == .object(["const": .string("create_task")]))
        #expect(Set(argProps.keys) == ["title", "notes", "due", "due_grain", "priority", "project"])
        #expect(args["required"] == .array([.string("title")]))
        #expect(args["additionalProperties"] == .bool(false))
    }

    @Test("a reply that is a plan of offered tools with their arguments is taken, numbered")
    func accepted() throws {
        let reply = #"{"steps": [{"tool": "create_task", "args": {"title": "call the garage", "due": "2026-12-09"}}, {"tool": "reschedule_task", "args": {"id": "$1", "due": "2026-12-10T09:00:00Z"}}]}"#
        guard case .success(let steps) = brain.proposal(reply, offered: offered, zone: zone) else {
            Issue.record("rejected: \(rejection(reply) ?? "")")
            return
        }
        #expect(steps.map(\.n) == [1, 2])
        #expect(steps[1].args["id"] == .string("$1"))
        #expect(rejection(#"Sure! {"steps": []} Hope that helps."#) == nil, "prose around the JSON is tolerated; no steps is a plan")
    }

    @Test("a reply is rejected for a malformed body, an unknown or unoffered tool, a bad argument, an impossible date or a forward reference", arguments: [
        ("I would create a task.", "not {\"steps\""),
        (#"{"plan": []}"#, "not {\"steps\""),
        (#"{"steps": [{"tool": "launch_rocket", "args": {}}]}"#, "no such tool"),
        (#"{"steps": [{"tool": "delete_task", "args": {"title": "x"}}]}"#, "not offered"),
        (#"{"steps": [{"tool": "create_task", "args": {"name": "x"}}]}"#, "no argument 'name'"),
        (#"{"steps": [{"tool": "create_task", "args": {"due": "2026-12-09"}}]}"#, "'title' is missing"),
        (#"{"steps": [{"tool": "create_task", "args": {"title": "  "}}]}"#, "'title' is empty"),
        (#"{"steps": [{"tool": "create_task", "args": {"title": {"text": "x"}}}]}"#, "not a string"),
        (#"{"steps": [{"tool": "create_task", "args": {"title": "x", "due": "2026-02-30"}}]}"#, "not a possible ISO 8601 date"),
        (#"{"steps": [{"tool": "create_task", "args": {"title": "x", "due": "next friday"}}]}"#, "not a possible ISO 8601 date"),
        (#"{"steps": [{"tool": "complete_task", "args": {}}]}"#, "names no item"),
        (#"{"steps": [{"tool": "complete_task", "args": {"id": "$1"}}]}"#, "refers to step 1"),
        (#"{"steps": [{"tool": "complete_task", "args": {"id": "$last"}}]}"#, "it is the first"),
    ])
    func rejected(_ reply: String, _ why: String) {
        let reason = rejection(reply)
        #expect(reason?.contains(why) == true, "\(reason ?? "accepted")")
    }

    @Test("more steps than a plan may have are rejected")
    func tooMany() {
        let step = #"{"tool": "create_task", "args": {"title": "x"}}"#
        let reply = #"{"steps": ["# + Array(repeating: step, count: EndpointPlanner.maxSteps + 1).joined(separator: ",") + "]}"
        #expect(rejection(reply)?.contains("more than") == true)
    }

    @Test("a model's plan must be what the request asks: no change it does not ask for, no item it does not name, no words it did not say")
    func groundedInTheRequest() {
        let zone = TimeZone(secondsFromGMT: 0)!
        let now = DateValueFormat(timeZone: zone).parseInstant("2026-12-05T10:00:00Z")!
        let p = Planner(parser: NaturalDateParser(now: now, timeZone: zone),
                        targets: StoreTargets(tasks: [.init(ref: "task:1", title: "buy milk", open: true),
                                                      .init(ref: "task:2", title: "renew passport", open: true)], canUndo: true))
        func why(_ request: String, _ steps: [PlanStep]) -> String? {
            brain.grounding(steps, request: request, reading: p.plan(request), planner: p)?.reason
        }
        #expect(why("remind me to call mom tomorrow", [PlanStep(n: 1, tool: .deleteTask, args: ["id": "task:1"])])?.contains("does not ask") == true)
        #expect(why("change the passport task", [PlanStep(n: 1, tool: .updateTask, args: ["id": "task:2", "new_title": "nothing to do here"])]) != nil)
        #expect(why("go back to the dentist on friday", [PlanStep(n: 1, tool: .undo)])?.contains("does not ask") == true)
        // Taking events out, or emptying or deleting a list, only where the request asks to take out.
        #expect(why("when is my dentist appointment?", [PlanStep(n: 1, tool: .cancelEvent, args: ["title": "dentist"])])?.contains("does not ask") == true)
        #expect(why("what's on my shopping list", [PlanStep(n: 1, tool: .clearProject, args: ["title": "shopping list"])])?.contains("does not ask") == true)
        #expect(why("show my shopping list", [PlanStep(n: 1, tool: .deleteProject, args: ["title": "shopping list"])])?.contains("does not ask") == true)
        #expect(why("scrap the dentist appointment", [PlanStep(n: 1, tool: .cancelEvent, args: ["title": "dentist appointment"])]) == nil)
        #expect(why("remind me to call mom tomorrow", [])?.contains("planned nothing") == true)
        #expect(why("export my tasks", [PlanStep(n: 1, tool: .exportICS, args: ["path": "/etc/cron.d/x.ics"])])?.contains(".ics") == true)
        #expect(why("delete the milk", [PlanStep(n: 1, tool: .deleteTask, args: ["id": "task:2"])])?.contains("does not name") == true)
        #expect(why("delete buy milk", [PlanStep(n: 1, tool: .deleteTask, args: ["id": "task:1"])]) == nil)
        #expect(why("i bought the milk", [PlanStep(n: 1, tool: .completeTask, args: ["title": "buy milk"])]) == nil)
        #expect(why("what's the weather?", []) == nil, "nothing to do where the grammar reads nothing")
    }

    @Test("a server that cannot be reached leaves the grammar's plan, with the receipt saying why")
    func fallback() {
        let p = brain.plan("remind me to call the garage tomorrow", planner: fixedPlanner())
        #expect(p.source == "grammar")
        #expect(p.tools == ["create_task"])
        #expect(p.receipt?.intended == .endpoint)
        #expect(p.receipt?.actual == .grammar)
        #expect(p.receipt?.fallback?.contains("unreachable") == true)
        #expect(p.receipt?.offered.first == .createTask)
    }

    @Test("the prompt names now, its weekday and zone, and every offered tool with its arguments")
    func prompt() {
        let m = brain.messages("call mum", offered: [.createTask, .undo], planner: fixedPlanner())
        #expect(m.count == 2 && m[1].content == "call mum")
        #expect(m[0].content.contains("Now: 2026-11-26T10:00:00+00:00 (Thursday), time zone GMT."))
        #expect(m[0].content.contains("- create_task(title*, notes, due, due_grain, priority, project): create a task"))
        #expect(m[0].content.contains("- undo(): take back"))
    }
}

/// The schema held by a real server: llama.cpp turns it into a grammar, so even a 135M model
/// replies with offered tools and their own arguments only (Tests/llm.sh sets PB_LLM_URL).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PB_LLM_URL"] != nil, "set PB_LLM_URL (Tests/llm.sh does)"),
       .serialized)
struct EndpointPlannerLiveTests {
    let url = URL(string: ProcessInfo.processInfo.environment["PB_LLM_URL"] ?? "http://127.0.0.1:1")!

    @Test(arguments: ["remind me to call the garage tomorrow morning", "text sam that i'm running late", "what's due this week?"])
    func repliesWithinTheSchema(_ request: String) throws {
        let brain = EndpointPlanner(endpoint: ChatEndpoint(url: url, model: nil, timeout: 120))
        let planner = fixedPlanner()
        let offered = brain.selector.select(request, reading: planner.plan(request).steps.map(\.tool))
        let reply = try brain.endpoint.complete(brain.messages(request, offered: offered, planner: planner), temperature: 0,
                                                maxTokens: 768, responseFormat: brain.responseFormat(offered))
        print("llm: plan for \"\(request)\": \(Int(reply.milliseconds)) ms: \(reply.text.prefix(160))")
        let parsed = try JSONDecoder().decode(EndpointPlanner.Reply.self, from: Data(reply.text.utf8))
        for step in parsed.steps {
            let tool = try #require(ToolName(rawValue: step.tool))
            #expect(offered.contains(tool))
            let known = Set(ToolRegistry.standard.tool(named: tool)?.arguments.map(\.name) ?? [])
            #expect(Set((step.args ?? [:]).keys).isSubset(of: known))
            for value in (step.args ?? [:]).values {
                if case .object = value { Issue.record("an object value: \(value)") }
            }
        }
    }
}
