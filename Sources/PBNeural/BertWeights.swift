import Foundation

/// The shape of a BERT encoder, from the model folder's config.json (all-MiniLM-L6-v2 values
/// when the file is absent).
struct BertConfig: Sendable, Equatable {
    var hidden = 384
    var heads = 12
    var intermediate = 1536
    var layers = 6
    var vocabulary = 30522
    var maxPositions = 512
    var typeVocabulary = 2
    var layerNormEpsilon: Float = 1e-12

    var headDimension: Int { hidden / heads }

    init() {}

    init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let data = try Data(contentsOf: url)
        guard let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SafeTensorsError.unsupportedModel(path: url.path, reason: "not a json object")
        }
        func int(_ key: String, _ fallback: Int) -> Int { (json[key] as? NSNumber)?.intValue ?? fallback }
        hidden = int("hidden_size", hidden)
        heads = int("num_attention_heads", heads)
        intermediate = int("intermediate_size", intermediate)
        layers = int("num_hidden_layers", layers)
        vocabulary = int("vocab_size", vocabulary)
        maxPositions = int("max_position_embeddings", maxPositions)
        typeVocabulary = int("type_vocab_size", typeVocabulary)
        if let eps = json["layer_norm_eps"] as? NSNumber { layerNormEpsilon = eps.floatValue }
        // Only the exact erf GELU is implemented; anything else would silently give other vectors.
        if let act = json["hidden_act"] as? String, act != "gelu" {
            throw SafeTensorsError.unsupportedModel(path: url.path, reason: "hidden_act \(act) is not supported (only gelu)")
        }
        guard heads > 0, hidden > 0, hidden % heads == 0, layers > 0, intermediate > 0 else {
            throw SafeTensorsError.unsupportedModel(path: url.path, reason: "inconsistent sizes")
        }
    }
}

/// Pointers into the mapped safetensors file for one transformer layer. Matrices are PyTorch
/// `[out, in]`, row-major.
struct BertLayerWeights {
    let query, queryBias, key, keyBias, value, valueBias: UnsafePointer<Float>
    let attentionOutput, attentionOutputBias, attentionNormGamma, attentionNormBeta: UnsafePointer<Float>
    let intermediate, intermediateBias, output, outputBias, outputNormGamma, outputNormBeta: UnsafePointer<Float>
}

/// All weights of the encoder, checked against the config's shapes, as pointers into the mapping.
/// The `blas` path skips the key bias: it adds the same q·b to every score of a query row, which
/// softmax cancels. The own kernels add it in the fused Q/K/V product's epilogue, where it is free.
struct BertWeights {
    let config: BertConfig
    let wordEmbeddings, positionEmbeddings, tokenTypeEmbeddings: UnsafePointer<Float>
    let embeddingNormGamma, embeddingNormBeta: UnsafePointer<Float>
    let layers: [BertLayerWeights]

    init(file: SafeTensors, config c: BertConfig) throws {
        // Some exports keep the `bert.` prefix; accept both spellings.
        let prefix = file.tensors["embeddings.word_embeddings.weight"] == nil
            && file.tensors["bert.embeddings.word_embeddings.weight"] != nil ? "bert." : ""
        func tensor(_ name: String, _ shape: [Int]) throws -> UnsafePointer<Float> {
            try file.float32(prefix + name, shape: shape).baseAddress!
        }
        let h = c.hidden, i = c.intermediate
        config = c
        wordEmbeddings = try tensor("embeddings.word_embeddings.weight", [c.vocabulary, h])
        positionEmbeddings = try tensor("embeddings.position_embeddings.weight", [c.maxPositions, h])
        tokenTypeEmbeddings = try tensor("embeddings.token_type_embeddings.weight", [c.typeVocabulary, h])
        embeddingNormGamma = try tensor("embeddings.LayerNorm.weight", [h])
        embeddingNormBeta = try tensor("embeddings.LayerNorm.bias", [h])
        layers = try (0..<c.layers).map { n in
            let p = "encoder.layer.\(n)."
            return BertLayerWeights(
                query: try tensor(p + "attention.self.query.weight", [h, h]),
                queryBias: try tensor(p + "attention.self.query.bias", [h]),
                key: try tensor(p + "attention.self.key.weight", [h, h]),
                keyBias: try tensor(p + "attention.self.key.bias", [h]),
                value: try tensor(p + "attention.self.value.weight", [h, h]),
                valueBias: try tensor(p + "attention.self.value.bias", [h]),
                attentionOutput: try tensor(p + "attention.output.dense.weight", [h, h]),
                attentionOutputBias: try tensor(p + "attention.output.dense.bias", [h]),
                attentionNormGamma: try tensor(p + "attention.output.LayerNorm.weight", [h]),
                attentionNormBeta: try tensor(p + "attention.output.LayerNorm.bias", [h]),
                intermediate: try tensor(p + "intermediate.dense.weight", [i, h]),
                intermediateBias: try tensor(p + "intermediate.dense.bias", [i]),
                output: try tensor(p + "output.dense.weight", [h, i]),
                outputBias: try tensor(p + "output.dense.bias", [h]),
                outputNormGamma: try tensor(p + "output.LayerNorm.weight", [h]),
                outputNormBeta: try tensor(p + "output.LayerNorm.bias", [h]))
        }
    }
}
