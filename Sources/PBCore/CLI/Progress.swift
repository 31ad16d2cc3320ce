import Foundation

/// Progress of long work on standard error (count, rate, time left), only on a terminal and at
/// most a few times a second so that it never costs more than the work.
public final class Progress {
    private let label: String
    private let total: Int?
    private let started = Date()
    private var last = Date.distantPast
    public private(set) var count = 0

    public init(_ label: String, total: Int? = nil) {
        self.label = label
        self.total = total
    }

    public func advance(by n: Int = 1) {
        count += n
        let now = Date()
        guard Diagnostics.shared.stderrIsTerminal, now.timeIntervalSince(last) > 0.25 else { return }
        last = now
        let elapsed = now.timeIntervalSince(started)
        let rate = elapsed > 0 ? Double(count) / elapsed : 0
        var text = "\(count)"
        if let total { text += "/\(total)" }
        text += " \(label), \(String(format: "%.0f", rate))/s"
        if let total, rate > 0, total > count {
            text += ", \(String(format: "%.0f", Double(total - count) / rate))s left"
        }
        Diagnostics.shared.progress(text)
    }

    public func finish() { Diagnostics.shared.endProgress() }
}
