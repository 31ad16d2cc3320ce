import Foundation
import PBCore

/// A BERT cross-encoder (BertForSequenceClassification in safetensors): the query and a passage
/// are read together, `[CLS] query [SEP] passage [SEP]`, and a classifier over the pooled [CLS]
/// state says how well the passage answers. No such model ships with PocketBrains (none can be
/// fetched on its machines); this is for users who have one, such as an MS MARCO MiniLM
/// cross-encoder.
///
/// The folder holds `model.safetensors`, `vocab.txt` and `config.json`. The encoder's tensors may
/// carry the `bert.` prefix; the head is `bert.pooler.dense` (or `pooler.dense`) and
/// `classifier`, with one label (the score is its logit) or two (the score is the second
/// logit minus the first: the log-odds of "relevant").
///
/// @unchecked Sendable: after init it only reads the mapped weights; the encoder locks its own
/// workspaces.
public final class CrossEncoder: @unchecked Sendable {
    let encoder: MiniLMEncoder
    let file: SafeTensors
    let pooler: UnsafePointer<Float>, poolerBias: UnsafePointer<Float>
    let classifier: UnsafePointer<Float>, classifierBias: UnsafePointer<Float>
    public let labels: Int
    public let hidden: Int
    /// Tokens of a pair at most (the model's positions, or less).
    public let maxTokens: Int

    public init(modelDirectory: URL, maxTokens: Int = 512) throws {
        let weights = modelDirectory.appendingPathComponent("model.safetensors")
        for name in ["model.safetensors", "vocab.txt", "config.json"]
            where !FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent(name).path) {
            throw ToolFailure(.cannotOpen, "no \(name) in cross-encoder folder \(modelDirectory.path)")
        }
        let config = try BertConfig(contentsOf: modelDirectory.appendingPathComponent("config.json"))
        guard config.typeVocabulary >= 2 else {
            throw SafeTensorsError.unsupportedModel(path: weights.path, reason: "a cross-encoder needs two token types (type_vocab_size \(config.typeVocabulary))")
        }
        encoder = try MiniLMEncoder(modelDirectory: modelDirectory, modelID: modelDirectory.lastPathComponent)
        file = try SafeTensors(url: weights)
        let h = config.hidden
        hidden = h
        let head = file.tensors["classifier.weight"]
        guard let head, head.shape.count == 2, head.shape[1] == h, (1...2).contains(head.shape[0]) else {
            throw SafeTensorsError.unsupportedModel(path: weights.path,
                reason: head == nil ? "no classifier.weight: not a sequence classification model"
                                    : "classifier.weight has shape \(head!.shape); expected [1, \(h)] or [2, \(h)]")
        }
        labels = head.shape[0]
        let prefix = file.tensors["bert.pooler.dense.weight"] != nil ? "bert." : ""
        pooler = try file.float32(prefix + "pooler.dense.weight", shape: [h, h]).baseAddress!
        poolerBias = try file.float32(prefix + "pooler.dense.bias", shape: [h]).baseAddress!
        classifier = try file.float32("classifier.weight", shape: [labels, h]).baseAddress!
        classifierBias = try file.float32("classifier.bias", shape: [labels]).baseAddress!
        self.maxTokens = min(maxTokens, encoder.maxPositions)
    }

    /// How well each passage answers the query: a logit (higher is better), in passage order.
    public func scores(query: String, passages: [String]) -> [Double] {
        guard !passages.isEmpty else { return [] }
        let q = encoder.tokenizer.tokenize(query)
        let states = encoder.pairStates(passages.map { (q, encoder.tokenizer.tokenize($0)) }, maxTokens: maxTokens)
        return states.map(score)
    }

    /// classifier(tanh(pooler · cls + b)): the head of BertForSequenceClassification (dropout is
    /// off at inference). Summed in Double, in a fixed order.
    func score(_ cls: [Float]) -> Double {
        let h = hidden
        var pooled = [Double](repeating: 0, count: h)
        for i in 0..<h {
            var s = Double(poolerBias[i])
            let row = pooler + i * h
            for j in 0..<h { s += Double(row[j]) * Double(cls[j]) }
            pooled[i] = tanh(s)
        }
        var logits = [Double](repeating: 0, count: labels)
        for l in 0..<labels {
            var s = Double(classifierBias[l])
            let row = classifier + l * h
            for j in 0..<h { s += Double(row[j]) * pooled[j] }
            logits[l] = s
        }
        return labels == 1 ? logits[0] : logits[1] - logits[0]
    }
}
