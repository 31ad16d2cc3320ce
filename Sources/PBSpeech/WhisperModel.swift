import CKernels
import Foundation
import PBNeural

/// A Whisper model's weights, read from a CTranslate2 `model.bin` and packed for one kernel
/// path, with its tokenizer and its decoding vocabulary (`config.json`'s suppressed tokens).
///
/// The attention queries are pre-scaled by log2(e)/sqrt(head width), so scores come out ready
/// for the kernels' base-2 softmax. The convolutions' weights are reordered tap-major, so a
/// convolution over time-major frames is one product whose rows overlap in memory (no im2col).
public final class WhisperModel: @unchecked Sendable {
    // @unchecked: everything is written in init and read-only afterwards.
    public struct Dimensions: Sendable, Equatable {
        public let mels, width, heads, encoderLayers, decoderLayers, audioContext, textContext, vocabulary: Int
        public var headWidth: Int { width / heads }
    }

    struct Norm {
        let gamma: [Float]
        let beta: [Float]

        /// LayerNorm in place over `rows` rows of `gamma.count` values.
        func apply(_ x: UnsafeMutablePointer<Float>, rows: Int, path: Int32) {
            gamma.withUnsafeBufferPointer { g in
                beta.withUnsafeBufferPointer { b in
                    pbk_layer_norm(path, x, Int32(rows), Int32(g.count), g.baseAddress!, b.baseAddress!, WhisperModel.epsilon)
                }
            }
        }
    }

    struct EncoderLayer {
        let attentionNorm: Norm
        let qkv, attentionOutput: PackedMatrix
        let feedForwardNorm: Norm
        let feedForwardIn, feedForwardOut: PackedMatrix
    }

    /// The decoder runs one token at a time, so its matrices are kept as rows (and packed, for a
    /// prompt's tokens at once), but for the cross-attention's keys and values, computed for a
    /// whole window of audio at once.
    struct DecoderLayer {
        let selfNorm: Norm
        let selfQKV, selfOutput: RowMatrix
        let crossNorm: Norm
        let crossQuery: RowMatrix
        let crossKeyValue: PackedMatrix
        let crossOutput: RowMatrix
        let feedForwardNorm: Norm
        let feedForwardIn, feedForwardOut: RowMatrix
    }

    public let dimensions: Dimensions
    public let kernel: KernelPath
    public let tokenizer: WhisperTokenizer
    /// The model's name as records report it (`whisper-tiny.en`), from its shape: the file
    /// itself names no model.
    public let name: String
    /// Tokens never sampled (non-speech symbols, the task tokens), and those not sampled first.
    public let suppressed: [Int]
    public let suppressedAtBegin: [Int]
    let path: Int32
    let conv1, conv2: PackedMatrix
    let encoderPosition: [Float]
    let encoderLayers: [EncoderLayer]
    let encoderNorm: Norm
    /// The token embedding, which is also the output projection: as float16 when the file
    /// stores it so (half the memory each token's logits read), else as float.
    let tokenEmbedding: TokenEmbedding
    let decoderPosition: [Float]
    let decoderLayers: [DecoderLayer]
    let decoderNorm: Norm
    static let epsilon: Float = 1e-5

    public convenience init(directory: URL, kernel: KernelPath? = nil) throws {
        let file = directory.appendingPathComponent("model.bin")
        guard FileManager.default.fileExists(atPath: file.path) else { throw SpeechModelError.missingModel(directory.path) }
        let model = try CTranslate2Model(contentsOf: file)
        let tokenizer = try WhisperTokenizer(contentsOf: directory.appendingPathComponent("tokenizer.json"))
        let config = (try? Data(contentsOf: directory.appendingPathComponent("config.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        try self.init(model: model, tokenizer: tokenizer, config: config, kernel: kernel ?? KernelPath.configured())
    }

    init(model m: CTranslate2Model, tokenizer: WhisperTokenizer, config: [String: Any], kernel: KernelPath) throws {
        guard m.specName == "WhisperSpec" else { throw SpeechModelError.unsupported("the file holds a \(m.specName), not a WhisperSpec") }
        guard let own = kernel.ownPath else { throw SpeechModelError.unsupported("the \(kernel) path: Whisper runs on the own kernels only (avx512, avx2, portable)") }
        self.kernel = kernel
        self.tokenizer = tokenizer
        path = own
        let conv1Shape = try m.shape("encoder/conv1/weight")
        let embeddingShape = try m.shape("decoder/embeddings/weight")
        func layerCount(_ prefix: String) -> Int {
            var n = 0
            while m.has("\(prefix)/layer_\(n)/ffn/linear_0/weight") { n += 1 }
            return n
        }
        let audioShape = try m.shape("encoder/position_encodings/encodings")
        let textShape = try m.shape("decoder/position_encodings/encodings")
        guard conv1Shape.count == 3, embeddingShape.count == 2, audioShape.count == 2, textShape.count == 2 else {
            throw SpeechModelError.unsupported("arrays of the wrong rank for Whisper (conv1 \(conv1Shape), embeddings \(embeddingShape))")
        }
        let width = conv1Shape[0]
        dimensions = Dimensions(mels: conv1Shape[1], width: width, heads: try m.integer("encoder/num_heads"),
                                encoderLayers: layerCount("encoder"), decoderLayers: layerCount("decoder"),
                                audioContext: audioShape[0], textContext: textShape[0], vocabulary: embeddingShape[0])
        let d = dimensions
        let sizes = [384: "tiny", 512: "base", 768: "small", 1024: "medium", 1280: "large"]
        name = "whisper-" + (sizes[width] ?? "\(width)") + (tokenizer.multilingual ? "" : ".en")
        guard d.heads > 0, width > 0, width % d.heads == 0, conv1Shape[2] == 3, d.encoderLayers > 0, d.decoderLayers > 0,
              embeddingShape == [d.vocabulary, width], audioShape == [d.audioContext, width], textShape == [d.textContext, width],
              d.audioContext > 0, d.textContext > 8, d.vocabulary > tokenizer.specials.timestampBegin,
              try m.shape("encoder/conv2/weight") == [width, width, 3] else {
            throw SpeechModelError.unsupported("shapes that are not Whisper's (conv1 \(conv1Shape), embeddings \(embeddingShape))")
        }
        // Every matrix the layers use has the shape the buffers are sized for: a file that says
        // otherwise is refused here, not read past the end of a buffer later.
        let inner = try m.shape("encoder/layer_0/ffn/linear_0/weight").first ?? 0
        var expected: [String: [Int]] = ["encoder/layer_norm/gamma": [width], "decoder/layer_norm/gamma": [width]]
        for i in 0..<d.encoderLayers {
            let p = "encoder/layer_\(i)"
            expected["\(p)/self_attention/linear_0/weight"] = [3 * width, width]
            expected["\(p)/self_attention/linear_1/weight"] = [width, width]
            expected["\(p)/ffn/linear_0/weight"] = [inner, width]
            expected["\(p)/ffn/linear_1/weight"] = [width, inner]
            expected["\(p)/self_attention/layer_norm/gamma"] = [width]
            expected["\(p)/ffn/layer_norm/gamma"] = [width]
        }
        for i in 0..<d.decoderLayers {
            let p = "decoder/layer_\(i)"
            expected["\(p)/self_attention/linear_0/weight"] = [3 * width, width]
            expected["\(p)/self_attention/linear_1/weight"] = [width, width]
            expected["\(p)/attention/linear_0/weight"] = [width, width]
            expected["\(p)/attention/linear_1/weight"] = [2 * width, width]
            expected["\(p)/attention/linear_2/weight"] = [width, width]
            expected["\(p)/ffn/linear_0/weight"] = [inner, width]
            expected["\(p)/ffn/linear_1/weight"] = [width, inner]
            for norm in ["self_attention", "attention", "ffn"] { expected["\(p)/\(norm)/layer_norm/gamma"] = [width] }
        }
        for (array, shape) in expected.sorted(by: { $0.key < $1.key }) where try m.shape(array) != shape {
            throw SpeechModelError.unsupported("\(array) has shape \(try m.shape(array)), expected \(shape)")
        }
        let queryScale = Float(1.4426950408889634 / Double(d.headWidth).squareRoot())
        let path = own

        func norm(_ prefix: String) throws -> Norm {
            let n = Norm(gamma: try m.floats("\(prefix)/gamma"), beta: try m.floats("\(prefix)/beta"))
            guard n.gamma.count == width, n.beta.count == width else { throw SpeechModelError.unsupported("\(prefix) is not \(width) wide") }
            return n
        }
        func weightsAndBias(_ prefix: String, scaledRows: Int) throws -> (w: [Float], b: [Float], outputs: Int, inputs: Int) {
            let shape = try m.shape("\(prefix)/weight")
            var w = try m.floats("\(prefix)/weight")
            var b = m.has("\(prefix)/bias") ? try m.floats("\(prefix)/bias") : [Float](repeating: 0, count: shape[0])
            for i in 0..<(scaledRows * shape[1]) { w[i] *= queryScale }
            for i in 0..<scaledRows { b[i] *= queryScale }
            return (w, b, shape[0], shape[1])
        }
        func linear(_ prefix: String, scaledRows: Int = 0) throws -> PackedMatrix {
            let l = try weightsAndBias(prefix, scaledRows: scaledRows)
            return PackedMatrix(path: path, weights: l.w, outputs: l.outputs, inputs: l.inputs, bias: l.b)
        }
        func rows(_ prefix: String, scaledRows: Int = 0) throws -> RowMatrix {
            let l = try weightsAndBias(prefix, scaledRows: scaledRows)
            return RowMatrix(path: path, weights: l.w, outputs: l.outputs, inputs: l.inputs, bias: l.b)
        }
        /// A kernel-3 convolution's W[out, in, tap] as W[out, tap * in + in]: tap-major.
        func convolution(_ prefix: String) throws -> PackedMatrix {
            let shape = try m.shape("\(prefix)/weight")
            let w = try m.floats("\(prefix)/weight")
            let (outputs, inputs, taps) = (shape[0], shape[1], shape[2])
            var reordered = [Float](repeating: 0, count: w.count)
            for o in 0..<outputs {
                for c in 0..<inputs {
                    for t in 0..<taps { reordered[o * taps * inputs + t * inputs + c] = w[(o * inputs + c) * taps + t] }
                }
            }
            return PackedMatrix(path: path, weights: reordered, outputs: outputs, inputs: taps * inputs, bias: try m.floats("\(prefix)/bias"))
        }

        conv1 = try convolution("encoder/conv1")
        conv2 = try convolution("encoder/conv2")
        encoderPosition = try m.floats("encoder/position_encodings/encodings")
        encoderLayers = try (0..<d.encoderLayers).map { i in
            let p = "encoder/layer_\(i)"
            return EncoderLayer(attentionNorm: try norm("\(p)/self_attention/layer_norm"),
                                qkv: try linear("\(p)/self_attention/linear_0", scaledRows: width),
                                attentionOutput: try linear("\(p)/self_attention/linear_1"),
                                feedForwardNorm: try norm("\(p)/ffn/layer_norm"),
                                feedForwardIn: try linear("\(p)/ffn/linear_0"), feedForwardOut: try linear("\(p)/ffn/linear_1"))
        }
        encoderNorm = try norm("encoder/layer_norm")
        tokenEmbedding = try TokenEmbedding(m, name: "decoder/embeddings/weight", vocabulary: d.vocabulary, width: width)
        decoderPosition = try m.floats("decoder/position_encodings/encodings")
        decoderLayers = try (0..<d.decoderLayers).map { i in
            let p = "decoder/layer_\(i)"
            return DecoderLayer(selfNorm: try norm("\(p)/self_attention/layer_norm"),
                                selfQKV: try rows("\(p)/self_attention/linear_0", scaledRows: width),
                                selfOutput: try rows("\(p)/self_attention/linear_1"),
                                crossNorm: try norm("\(p)/attention/layer_norm"),
                                crossQuery: try rows("\(p)/attention/linear_0", scaledRows: width),
                                crossKeyValue: try linear("\(p)/attention/linear_1"),
                                crossOutput: try rows("\(p)/attention/linear_2"),
                                feedForwardNorm: try norm("\(p)/ffn/layer_norm"),
                                feedForwardIn: try rows("\(p)/ffn/linear_0"), feedForwardOut: try rows("\(p)/ffn/linear_1"))
        }
        decoderNorm = try norm("decoder/layer_norm")
        // Whisper's output projection is its token embedding (the file's alias says so).
        guard m.same("decoder/projection/weight", "decoder/embeddings/weight") else {
            throw SpeechModelError.unsupported("an output projection that is not the token embedding")
        }

        // The tokens faster-whisper suppresses by default: config.json's non-speech symbols, and
        // the task and control tokens; at the first step also a blank and the end of text.
        let s = tokenizer.specials
        let listed = (config["suppress_ids"] as? [Int]) ?? []
        let inVocabulary = 0..<d.vocabulary
        suppressed = Array(Set(listed + [s.transcribe, s.translate, s.startOfTranscript, s.startOfPrevious, s.startOfLM, s.noSpeech]))
            .filter(inVocabulary.contains).sorted()
        suppressedAtBegin = ((config["suppress_ids_begin"] as? [Int]) ?? [tokenizer.encode(" ").first ?? 220, s.endOfText])
            .filter(inVocabulary.contains)
    }
}
