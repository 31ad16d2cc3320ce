/// A record that points into a source file by its path: hits and evidence.
public protocol SourceFile {
    var path: String { get }
}

extension SourceFile {
    /// The last component of `path`: how a prompt names the source, and words that say what
    /// the passage is about ("car-maintenance-log.txt").
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }
}
