import PBNeural

/// What semantic grounding needs from a sentence encoder: unit vectors for a batch of texts.
/// MiniLMEncoder is the one pb-verify uses; tests may pass another.
public protocol GroundingEncoder: AnyObject, Sendable {
    func groundingVectors(_ texts: [String]) -> [[Float]]
}

extension MiniLMEncoder: GroundingEncoder {
    public func groundingVectors(_ texts: [String]) -> [[Float]] { embed(texts, maxTokens: 256) }
}
