import Foundation
import PBCore

/// Recordings (voice memos, dictation, a voicemail attached to a mail) read as what was said in
/// them: a document whose lines are pb-listen's segments, each after its time in the recording
/// ("[1:05–1:09] Ask Myra about the boiler."), so a citation says where to listen.
///
/// Hearing is slow beside reading (a tenth of the recording's length here), so transcripts are
/// kept by content hash with the model's identity, as OCR's words are: a re-ingest of an
/// unchanged memo hears nothing again.
public enum AudioDocument {
    /// What sox reads here (Debian's libsox-fmt-all).
    public static let extensions: Set<String> = ["wav", "wave", "flac", "ogg", "oga", "mp3", "aif", "aiff", "aifc", "au"]
    /// Recording formats people will have that sox does not read here, with what to do instead.
    static let refused: [String: String] = [
        "m4a": "AAC (.m4a) recordings are not read; convert it first (ffmpeg -i IN.m4a OUT.flac)",
        "aac": "AAC recordings are not read; convert it first (ffmpeg -i IN.aac OUT.flac)",
        "opus": "Opus recordings are not read (sox here has no Opus); convert it first (opusdec IN.opus OUT.wav, from opus-tools)",
        "wma": "Windows Media audio is not read; convert it first (ffmpeg -i IN.wma OUT.flac)",
    ]

    /// WAV, FLAC, Ogg, AIFF, Sun/NeXT au and MP3 (an ID3 tag, or an MPEG audio frame header) by
    /// their first bytes.
    static func isAudio(_ b: [UInt8]) -> Bool { soxType(firstBytes: b) != nil }

    /// sox's name for the format of audio that starts with these bytes (`sox -t`), nil when they
    /// are no audio header. Past the magic words, a field each header must have is checked, so a
    /// text file that starts "ID3 tags" or "OggS notes" stays text.
    public static func soxType(firstBytes b: [UInt8]) -> String? {
        func starts(_ s: String) -> Bool { b.starts(with: Array(s.utf8)) }
        if b.count >= 12, starts("RIFF"), b[8..<12].elementsEqual("WAVE".utf8) { return "wav" }
        if b.count >= 12, starts("FORM"), b[8..<12].elementsEqual("AIFF".utf8) || b[8..<12].elementsEqual("AIFC".utf8) { return "aiff" }
        // FLAC: the first metadata block is STREAMINFO (type 0) of 34 bytes.
        if b.count >= 8, starts("fLaC"), b[4] & 0x7F == 0, b[5] == 0, b[6] == 0, b[7] == 34 { return "flac" }
        // Ogg: stream structure version 0, a header type of 2 (beginning of stream).
        if b.count >= 27, starts("OggS"), b[4] == 0, b[5] & 0x02 != 0 { return "ogg" }
        // Sun au: a header of at least 24 bytes, big-endian.
        if b.count >= 24, starts(".snd"), b[4] == 0, b[5] == 0, b[6] == 0, b[7] >= 24 { return "au" }
        // ID3v2: major version 2 to 4, a size of four 7-bit bytes.
        if b.count >= 10, starts("ID3"), (2...4).contains(b[3]), b[4] != 0xFF, b[6..<10].allSatisfy({ $0 < 0x80 }) { return "mp3" }
        // An MPEG audio frame: eleven sync bits, then a version, a layer, a bitrate and a sample
        // rate that are not reserved. FF FE is a UTF-16 byte-order mark, not a frame.
        guard b.count >= 4, b[0] == 0xFF, b[1] & 0xE0 == 0xE0, b[1] != 0xFE, b[1] != 0xFF else { return nil }
        return (b[1] >> 3) & 3 != 1 && (b[1] >> 1) & 3 != 0 && b[2] >> 4 != 15 && (b[2] >> 2) & 3 != 3 ? "mp3" : nil
    }

    /// Whether a path names a recording by its extension (a mail's attachment too,
    /// "inbox.eml#voicemail.wav"): the documents whose lines open with a time.
    public static func isRecording(path: String) -> Bool {
        extensions.contains((path as NSString).pathExtension.lowercased())
    }

    /// The text layer of the recording at `path` (on disk: sox reads files); the cache knows it
    /// as the document `owner` (a mail's attachment read from a temporary file), else `path`.
    static func textLayer(path: String, bytes: [UInt8], settings: AudioSettings, owner: String? = nil) throws -> TextLayer {
        guard let transcriber = settings.transcriber else { return unread(settings.offReason) }
        if let why = transcriber.unavailable { return unread(why) }
        let key = SHA256.hex([SHA256.hex(bytes), transcriber.identity, "transcript 1"].joined(separator: "\u{0}"))
        let cache = settings.cacheDirectory.map { ToolOutputCache(directory: $0, suffix: "json") }
        let codec = RecordCodec()
        if let cache, let line = cache.read(key, for: owner ?? path), let kept = try? codec.decode(TranscriptRecord.self, from: Data(line)) {
            return layer(kept)
        }
        let transcript: TranscriptRecord
        do {
            transcript = try transcriber.transcribe(path: path)
        } catch let failure as ToolFailure {
            // pb-listen's messages start with the path; the document's error names it once.
            var reason = failure.message
            if reason.hasPrefix(path + ": ") { reason.removeFirst(path.count + 2) }
            switch failure.code {
            case .cannotOpen: throw DocumentError.cannotOpen(path: path, reason: reason)
            case .unavailable: return unread(reason)
            default: throw DocumentError.malformed(path: path, reason: reason)
            }
        }
        // A cache that cannot be written costs the next run its time, never this run its text.
        do { try cache?.store(Array(try codec.encode(transcript)), key: key, for: owner ?? path) } catch {
            Diagnostics.shared.warning("\(path): cannot keep the transcript in \(cache?.directory.path ?? ""): \(error.localizedDescription)")
        }
        return layer(transcript)
    }

    /// A recording whose speech was not heard here: a failure of the document, as a scan with
    /// OCR off is, never an empty one.
    static func unread(_ why: String) -> TextLayer {
        var layer = TextLayer(bytes: [], format: .audio)
        layer.emptyReason = "a recording has no text layer, and \(why)"
        layer.unreadScans = true
        return layer
    }

    /// The document a transcript makes: a line per stretch of speech that ends a sentence, after
    /// its span of time, each a paragraph. Whisper's segments often end mid-sentence; a line
    /// that did would cut a sentence in two for everything downstream (a sentence ends at a line
    /// break), so segments are joined up to a sentence's end, or to half a minute without one.
    public static func layer(_ transcript: TranscriptRecord) -> TextLayer {
        var layer = TextLayer(bytes: [], format: .audio)
        var pending: [String] = []
        var from = 0.0, to = 0.0
        func flush() {
            guard !pending.isEmpty else { return }
            if !layer.bytes.isEmpty { layer.bytes.append(0x0A) }
            let start = layer.bytes.count
            layer.bytes += Array("[\(time(from, up: false))–\(time(to, up: true))] \(pending.joined(separator: " "))".utf8)
            layer.blocks.append(Block(kind: .paragraph, range: start..<layer.bytes.count))
            pending = []
        }
        for segment in transcript.segments {
            let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            // A segment that would take the line past half a minute starts the next one.
            if !pending.isEmpty, segment.end - from > maximumLineSeconds { flush() }
            if pending.isEmpty { from = segment.start }
            pending.append(text)
            to = segment.end
            if endsSentence(text) { flush() }
        }
        flush()
        if layer.blocks.isEmpty {
            layer.emptyReason = transcript.reason == .empty ? "the recording holds no sound" : "pb-listen heard no speech in it"
        }
        return layer
    }

    /// A line (and its time) spans at most this long, unless one segment does: speech without a
    /// sentence's end still gets new lines.
    static let maximumLineSeconds = 30.0

    /// Text whose last mark (before closing quotes and brackets) ends a sentence.
    static func endsSentence(_ text: String) -> Bool {
        let last = text.reversed().first { !"\"'”’)]".contains($0) }
        return last.map { ".?!…".contains($0) } ?? false
    }

    /// "1:05", or "1:02:05" past the hour: whole seconds, a start rounded down and an end up,
    /// so the span holds what was said.
    static func time(_ seconds: Double, up: Bool) -> String {
        let s = max(0, Int(up ? seconds.rounded(.up) : seconds.rounded(.down)))
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, r) : String(format: "%d:%02d", m, r)
    }
}
