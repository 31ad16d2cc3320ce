import CKernels

extension EncoderWorkspace {
    /// One transformer layer on CKernels, over `tokens` rows of `hidden` (no padding rows: the
    /// kernels pad tiles themselves, so a row's result cannot depend on how many rows there are).
    ///
    ///   QKV = X [Wq·s; Wk; Wv]^T + b            one product, bias in the epilogue (s: see PackedBertWeights)
    ///   per sequence and head: S = Q K^T; P = 2^(S - max); C = (P V) / rowsum(P)   (row scale epilogue)
    ///   X = LayerNorm(X + C Wo^T + bo)           residual and bias in the epilogue
    ///   X = LayerNorm(X + gelu(X Wi^T + bi) W2^T + b2)   GELU, then residual, in the epilogues
    @_optimize(speed)
    func runKernelLayer(_ p: PackedBertWeights.Layer, _ l: BertLayerWeights, tokens: Int,
                        sequences: [UnsafeBufferPointer<Int32>], offsets: [Int]) {
        guard let path = packed?.path, tokens > 0 else { return }
        let c = config
        let h = c.hidden, h3 = 3 * h, d = c.headDimension, inner = c.intermediate
        let qkv = wide, context = wide + tokens * h3

        func gemm(_ m: Int, _ n: Int, _ k: Int, _ a: UnsafePointer<Float>, _ lda: Int, _ b: UnsafePointer<Float>,
                  _ out: UnsafeMutablePointer<Float>, _ ldc: Int, bias: UnsafePointer<Float>? = nil,
                  rowScale: UnsafePointer<Float>? = nil, accumulate: Bool = false, gelu: Bool = false) {
            let epilogue = pbk_epilogue(bias: bias, row_scale: rowScale, accumulate: accumulate ? 1 : 0, gelu: gelu ? 1 : 0)
            pbk_gemm(path, Int32(m), Int32(n), Int32(k), a, lda, b, out, ldc, epilogue, kernelWork)
        }

        gemm(tokens, h3, h, hidden, h, p.qkv, qkv, h3, bias: p.qkvBias)
        for (s, sequence) in sequences.enumerated() {
            let length = sequence.count
            guard length > 0 else { continue }
            let length32 = Int32(length), d32 = Int32(d)
            for head in 0..<c.heads {
                let q = qkv + offsets[s] * h3 + head * d, k = q + h, v = q + 2 * h
                // Keys as B (depth: the head's dimensions; columns: the tokens), values as B
                // (depth: the tokens; columns: the dimensions).
                pbk_pack(path, k, 1, h3, length32, d32, packedKeys)
                gemm(length, length, d, q, h3, packedKeys, scores, length)
                pbk_softmax_rows(path, scores, length32, length32, length, rowSums)
                pbk_pack(path, v, h3, 1, d32, length32, packedValues)
                gemm(length, d, length, scores, length, packedValues, context + offsets[s] * h + head * d, h,
                     rowScale: rowSums)
            }
        }
        gemm(tokens, h, h, context, h, p.attentionOutput, hidden, h, bias: l.attentionOutputBias, accumulate: true)
        pbk_layer_norm(path, hidden, Int32(tokens), Int32(h), l.attentionNormGamma, l.attentionNormBeta, c.layerNormEpsilon)
        gemm(tokens, inner, h, hidden, h, p.intermediate, wide, inner, bias: l.intermediateBias, gelu: true)
        gemm(tokens, h, inner, wide, inner, p.output, hidden, h, bias: l.outputBias, accumulate: true)
        pbk_layer_norm(path, hidden, Int32(tokens), Int32(h), l.outputNormGamma, l.outputNormBeta, c.layerNormEpsilon)
    }
}
