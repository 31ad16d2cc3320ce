import Foundation
import Testing
import PBCore
@testable import PBNeural

/// pb-embed's per-batch work: a record longer than the window is embedded from its beginning,
/// and says so (`truncated_from`), and the embedder counts such records for its closing note.
@Suite("record embedder", .enabled(if: NeuralFixtures.modelPresent, NeuralFixtures.missingModel))
struct RecordEmbedderTests {
    @Test func reportsRecordsCutToTheWindow() throws {
        let encoder = try MiniLMEncoder(modelDirectory: NeuralFixtures.modelDirectory)
        let embedder = RecordEmbedder(encoder: encoder, maxTokens: 16)
        let long = "The tenancy deposit of one thousand three hundred and twenty five pounds is held by the deposit protection scheme until the keys are returned."
        let exact = "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        #expect(encoder.tokenizer.countTokens(exact) == 14)   // 14 + [CLS] + [SEP] fills 16 exactly
        let records = [#"{"kind":"query","text":"rent"}"#, #"{"kind":"query","text":"\#(long)"}"#,
                       #"{"kind":"query","text":"\#(exact)"}"#]
        let lines = records.enumerated().map { InputLine(data: Data($1.utf8), source: "t", number: $0 + 1) }
        var outputs: [QueryRecord] = []
        for output in embedder.embed(lines) {
            guard case .line(let data) = output else { Issue.record("unexpected \(output)"); return }
            outputs.append(try RecordCodec().decode(QueryRecord.self, from: data.dropLast()))
        }
        #expect(outputs[0].embedding?.truncated_from == nil)
        #expect(outputs[1].embedding?.truncated_from == encoder.tokenizer.countTokens(long) + 2)
        #expect(outputs[2].embedding?.truncated_from == nil)
        #expect(embedder.embeddedRecords == 3 && embedder.truncatedRecords == 1 && embedder.window == 16)
        // The vector is the one of the text's first 16 tokens.
        let cut = encoder.embed(tokenIDs: [encoder.tokenizer.encode(long, maxTokens: 16)])[0]
        #expect(try outputs[1].embedding?.values() == cut)
    }
}
