import Foundation
import PBCore

extension WordPieceTokenizer: TokenCounter {}

/// pb-chunk: documents (files named as operands, or `doc` records on standard input) to chunks.
public enum ChunkCommand {
    public static let spec = CommandSpec(
        name: "pb-chunk",
        summary: "split documents into sentence-bounded chunks with byte offsets",
        operands: "[FILE ...]",
        options: [
            OptionSpec("library", short: "l", value: "NAME", help: "library the chunks are for (default 'default'; part of doc_id)"),
            OptionSpec("max-words", value: "N", help: "words per chunk at most (default 310)"),
            OptionSpec("max-tokens", value: "N", help: "WordPiece tokens of prefix and text at most (default 254: pb-embed's window less [CLS] and [SEP])"),
            OptionSpec("format", value: "FORMAT", help: "read every input as one format: " + DocumentFormat.listed),
            OptionSpec("vocab", value: "FILE", help: "WordPiece vocabulary (default: the model's vocab.txt)"),
            OptionSpec("files0-from", value: "FILE", help: "read the files to chunk from FILE ('-': standard input), names separated by NUL bytes (find -print0)"),
            OptionSpec("tool-timeout", value: "SECONDS", help: "stop pdftotext after this long on one document, pdftoppm or tesseract on one page (default 120; the document fails)"),
            OptionSpec("no-ocr", help: "do not read scanned pages and images by OCR (a document left with no text is an error naming it)"),
            OptionSpec("no-audio", help: "do not transcribe recordings (a recording is then an error naming it)"),
            OptionSpec("ocr-pages", value: "N", help: "read at most N scanned pages of one PDF by OCR (default 800, about half an hour; the rest are named in a warning)"),
            OptionSpec("text-layer", help: "print the text the offsets index into, instead of chunks"),
            OptionSpec("keep-going", short: "k", help: "write an error record for a bad document and go on (exit 65 at the end, 66 if a file could not be opened)"),
        ])

    /// `transcriber` hears recordings (pb-listen's Whisper, which the executable hands in: the
    /// speech target sits above this one); without it a recording is an error naming it.
    public static func run(_ o: ParsedOptions, environment: PBEnvironment = PBEnvironment(),
                           transcriber: (any AudioTranscribing)? = nil) throws -> ExitCode {
        let library = environment.libraryName(option: o.value("library")) ?? "default"
        try PBEnvironment.validateLibraryName(library)
        let limits = ChunkLimits(maxWords: try o.int("max-words", default: 310, in: 8...100_000),
                                 maxTokens: try o.int("max-tokens", default: ChunkLimits.defaultMaxTokens, in: 16...100_000))
        let format = o.value("format")
        if let format, DocumentFormat(rawValue: format) == nil {
            throw ToolFailure(.usage, "--format: expected one of \(DocumentFormat.allCases.map(\.rawValue).joined(separator: ", ")), got '\(format)'")
        }
        let toolTimeout = Double(try o.int("tool-timeout", default: Int(PDFDocument.defaultTimeout), in: 1...86_400))
        // OCR results are kept under PB_HOME by content hash: a re-ingest reads no scan twice.
        let ocr = OCRSettings(enabled: !o.flag("no-ocr"), cacheDirectory: ToolOutputCache.ocr(home: environment.home).directory, timeout: toolTimeout,
                              maximumPages: try o.int("ocr-pages", default: OCRSettings.defaultMaximumPages, in: 1...1_000_000))
        // Transcripts are kept as OCR's words are.
        let audio = o.flag("no-audio") ? AudioSettings(transcriber: nil, offReason: "transcription is off (--no-audio)")
            : AudioSettings(transcriber: transcriber, cacheDirectory: ToolOutputCache.transcripts(home: environment.home).directory)
        // A calendar lists the next occurrences of its repeating events from now, or from PB_NOW.
        let now = try environment.now()
        let writer = NDJSONWriter.standardOutput
        if o.flag("text-layer") {
            guard !o.operands.isEmpty, !o.operands.contains("-") else { throw ToolFailure(.usage, "--text-layer needs FILE operands") }
            for path in o.operands {
                let (layer, _) = try DocumentReader.read(path: path, declaredFormat: format, toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
                writer.writeLine(Data(layer.bytes))
            }
            return .success
        }
        let given = o.value("vocab").map { URL(fileURLWithPath: $0) }
        let vocab = given ?? environment.modelDirectory.appendingPathComponent("vocab.txt")
        guard FileManager.default.fileExists(atPath: vocab.path) else {
            if given != nil { throw ToolFailure(.unavailable, "--vocab: no WordPiece vocabulary at \(vocab.path)") }
            throw environment.modelMissing
        }
        let tokenizer = try WordPieceTokenizer(vocabularyAt: vocab)
        let chunker = DocumentChunker(library: library, chunker: try Chunker(limits: limits, tokens: tokenizer), toolTimeout: toolTimeout, ocr: ocr, audio: audio, now: now)
        let keepGoing = o.flag("keep-going")
        let loop = RecordLoop(keepGoing: keepGoing)

        // Names from the command line, then from --files0-from; a name that is not UTF-8 is a
        // document that cannot be opened, named with its bytes escaped.
        let invalid = FileNames.invalidArguments()
        var files: [FileNames.Entry] = o.operands.filter { $0 != "-" }.map { invalid[$0].map { .notUTF8(shown: $0) } ?? .name($0) }
        let listFrom = o.value("files0-from")
        if listFrom == "-", o.operands.contains("-") {
            throw ToolFailure(.usage, "--files0-from - and the operand - would both read standard input")
        }
        if let listFrom {
            files += FileNames.entries(nulSeparated: try Self.readList(listFrom))
        }
        // Counted once the list is read, so a run over a folder shows how much is left.
        let progress = Progress("documents", total: files.isEmpty ? nil : files.count)
        defer { progress.finish() }
        func emit(_ records: [ChunkRecord]) throws {
            for r in records { try writer.write(r) }
            progress.advance()
        }
        var status = ExitCode.success
        for entry in files {
            let path: String
            switch entry {
            case .name(let name): path = name
            case .notUTF8(let shown):
                let message = FileNames.notUTF8Message(shown)
                guard keepGoing else { throw ToolFailure(.cannotOpen, message) }
                Diagnostics.shared.error(message)
                try writer.write(ErrorRecord(tool: spec.name, source: shown, line: 0, message: message, input: shown))
                status = .cannotOpen
                continue
            }
            do {
                try emit(try chunker.chunk(path: path, text: nil, title: nil, format: format))
            } catch let e as DocumentError where e.holdsNoText {
                Self.skip(e)
                continue
            } catch {
                let failure = Tool.failure(for: error)
                guard keepGoing, failure.code != .unavailable else { throw failure }
                Diagnostics.shared.error(failure.message)
                try writer.write(ErrorRecord(tool: spec.name, source: path, line: 0, message: failure.message, input: path,
                                             path: DocumentChunker.canonicalPath(path)))
                // 66 (cannot open) outranks 65 (bad document), whatever the order of the files.
                if status != .cannotOpen { status = failure.code == .cannotOpen ? .cannotOpen : .badInput }
            }
        }
        // Doc records come from standard input unless it holds the name list.
        if (o.operands.isEmpty && listFrom == nil) || o.operands.contains("-") {
            let codec = RecordCodec()
            let loopStatus = try loop.run([.standardInput()]) { line in
                let doc = try codec.decode(DocRecord.self, from: line.data)
                do {
                    try emit(try chunker.chunk(path: doc.path, text: doc.text, title: doc.title, format: doc.format ?? format))
                } catch let e as DocumentError where e.holdsNoText {
                    Self.skip(e)
                } catch let e as DocumentError where e.exitCode != .unavailable {
                    // A document that cannot be read is bad input at this line; the error record
                    // names its path so that pb-index --prune keeps what it had of it.
                    try loop.report(e.description, at: line, path: doc.text == nil ? doc.path.map(DocumentChunker.canonicalPath) : doc.path)
                }
            }
            if loopStatus != .success, status == .success { status = loopStatus }
        }
        return status
    }

    /// A document that holds no text has nothing to index: it is named on standard error and
    /// skipped, neither a failure nor a reason to stop pruning (and, not brought, pruning removes
    /// what the library held of it).
    static func skip(_ e: DocumentError) {
        Diagnostics.shared.warning("\(e.description): skipped")
    }

    /// The bytes of a --files0-from list; `-` is standard input (66 if the file cannot be read).
    static func readList(_ path: String) throws -> [UInt8] {
        let handle: FileHandle
        if path == "-" {
            handle = .standardInput
        } else {
            guard let h = FileHandle(forReadingAtPath: path) else { throw ToolFailure(.cannotOpen, "\(path): cannot open the list of files") }
            handle = h
        }
        do {
            return [UInt8](try handle.readToEnd() ?? Data())
        } catch {
            throw ToolFailure(.ioError, "\(path): cannot read the list of files: \(error.localizedDescription)")
        }
    }
}
