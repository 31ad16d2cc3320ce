// pocketbrains: every pb-* program in one executable, chosen by the name it is run by (each
// pb-* is a link to it, as busybox's applets are) or by its first argument
// (`pocketbrains pb-chunk --help`). One executable with the Swift runtime and Foundation linked
// statically starts in half the time of twelve that load thirty shared libraries each (7 ms
// against 14 ms per process, measured on AMD EPYC; pb-ask starts six), and takes a twelfth of
// the disk the twelve static ones would.
import Foundation
import PBAgent
import PBAnswer
import PBCore
import PBIndex
import PBMemory
import PBNeural
import PBRetrieval
import PBText
import PBDates
import PBSpeech

// In the order of the pipelines: `pocketbrains --programs` lists them so, one per line, for the
// Makefile's links and scripts; this table is the one list of them.
let table: KeyValuePairs<String, (spec: CommandSpec, run: (ParsedOptions) throws -> ExitCode)> = [
    // pb-chunk hears recordings on pb-listen's Whisper, which sits above it.
    "pb-chunk": (ChunkCommand.spec, { try ChunkCommand.run($0, transcriber: RecordingTranscriber()) }),
    "pb-embed": (EmbedCommand.spec, { try EmbedCommand.run($0) }),
    "pb-index": (IndexCommand.spec, { try IndexCommand.run($0) }),
    "pb-search": (SearchCommand.spec, { try SearchCommand.run($0) }),
    "pb-rerank": (RerankCommand.spec, { try RerankCommand.run($0) }),
    "pb-pack": (PackCommand.spec, { try PackCommand.run($0) }),
    "pb-answer": (AnswerCommand.spec, { try AnswerCommand.run($0) }),
    "pb-verify": (VerifyCommand.spec, { try VerifyCommand.run($0) }),
    "pb-date": (DateCommand.spec, { try DateCommand.run($0) }),
    "pb-plan": (PlanCommand.spec, { try PlanCommand.run($0) }),
    "pb-exec": (ExecCommand.spec, { try ExecCommand.run($0) }),
    // pb-undo reverts the agent store's journal, or with --memory a remembered message.
    "pb-undo": (MemoryUndo.spec(extending: UndoCommand.spec), { try MemoryUndo.run($0) }),
    "pb-remember": (RememberCommand.spec, { try RememberCommand.run($0) }),
    "pb-recall": (RecallCommand.spec, { try RecallCommand.run($0) }),
    "pb-session": (SessionCommand.spec, { try SessionCommand.run($0) }),
    "pb-brief": (BriefCommand.spec, { try BriefCommand.run($0) }),
    "pb-listen": (ListenCommand.spec, { try ListenCommand.run($0) }),
]
let programs = Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) })

let arguments = CommandLine.arguments
let invokedAs = arguments.first.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "pocketbrains"
if let program = programs[invokedAs] {
    Tool.main(program.spec, arguments: Array(arguments.dropFirst()), program.run)
} else if arguments.count > 1, let program = programs[arguments[1]] {
    Tool.main(program.spec, arguments: Array(arguments.dropFirst(2)), program.run)
} else {
    let names = programs.keys.sorted().joined(separator: " ")
    let asked = arguments.dropFirst().first
    if asked == "--help" || asked == "-h" {
        print("usage: pocketbrains PROGRAM [ARGUMENT ...]\n  (or run PROGRAM, a link to pocketbrains)\n       pocketbrains --version | --programs | --model-dir | --speech-model-dir\nprograms: \(names)\nSee pocketbrains(7).")
        exit(0)
    }
    if asked == "--version" { print("pocketbrains \(PocketBrains.version)"); exit(0) }
    if asked == "--programs", arguments.count == 2 { print(table.map(\.key).joined(separator: "\n")); exit(0) }
    // Where the programs look for the model (PBEnvironment's rule, the one place it is written),
    // for the scripts and the Makefile; status 1 when the model is not there.
    if asked == "--model-dir", arguments.count == 2 {
        let environment = PBEnvironment()
        print(environment.modelDirectory.path)
        exit(environment.modelPresent ? 0 : 1)
    }
    // The same for pb-listen's Whisper model (status 1 when its model.bin is not there).
    if asked == "--speech-model-dir", arguments.count == 2 {
        let environment = PBEnvironment()
        print(environment.speechModelDirectory.path)
        exit(environment.speechModelPresent ? 0 : 1)
    }
    FileHandle.standardError.write(Data("pocketbrains: \(asked.map { "'\($0)' is not a program; " } ?? "")usage: pocketbrains PROGRAM [ARGUMENT ...]\nprograms: \(names)\n".utf8))
    exit(ExitCode.usage.rawValue)
}
