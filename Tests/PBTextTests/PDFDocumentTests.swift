import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import PBText

@Suite struct PDFDocumentTests {
    static let popplerInstalled = PDFDocument.executable(named: "pdftotext") != nil

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func groffFixtureHasPagesAndTitle() throws {
        let layer = try PDFDocument.textLayer(path: DocumentFixtures.path("sample.pdf"))
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.format == .pdf)
        #expect(layer.title == "Pump Station Field Guide")
        #expect(DocumentFixtures.texts(layer) == [
            "Pump Station Field Guide\nThe station lifts water 14 metres from the lower basin. Inspect the intake screen every week.\nSecond paragraph on page one.",
            "-2-",
            "Page two starts here with the alarm codes.\nA12 means the float switch is stuck.",
        ])
        #expect(layer.blocks.map(\.page) == [1, 2, 2])
        #expect(layer.blocks.allSatisfy { $0.kind == .paragraph })
    }

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func layerIsPdftotextOutputWithoutFormFeeds() throws {
        let path = DocumentFixtures.path("sample.pdf")
        let process = Process()
        process.executableURL = PDFDocument.executable(named: "pdftotext")
        process.arguments = ["-enc", "UTF-8", "-eol", "unix", path, "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let printed = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let expected = [UInt8](printed).filter { $0 != 0x0C }
        #expect(try PDFDocument.textLayer(path: path).bytes == expected)
    }

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func notAPDFIsMalformed() throws {
        do {
            _ = try PDFDocument.textLayer(path: DocumentFixtures.path("sample.html"))
            Issue.record("expected an error")
        } catch let DocumentError.malformed(path, reason) {
            #expect(path.hasSuffix("sample.html"))
            #expect(reason.hasPrefix("pdftotext failed: "))
            #expect(!reason.contains("\n"))
        }
    }

    /// A folder holding a shell script of that name which sleeps far past any timeout used here,
    /// standing in for a poppler tool that hangs (as pdfinfo did with the loopback interface down).
    static func hangingTool(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-hang-\(name)-\(getpid())-\(UInt32.random(in: 0 ... .max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent(name)
        try "#!/bin/sh\nexec sleep 60\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return folder
    }

    @Test func hangingPdftotextIsStoppedAtTheTimeout() throws {
        let folder = try Self.hangingTool("pdftotext")
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        do {
            _ = try PDFDocument.textLayer(path: DocumentFixtures.path("sample.pdf"), timeout: 1, searchPath: folder.path)
            Issue.record("expected a timeout")
        } catch let DocumentError.timedOut(path, reason) {
            #expect(path.hasSuffix("sample.pdf"))
            #expect(reason.contains("did not finish in 1 s"))
            #expect(DocumentError.timedOut(path: path, reason: reason).exitCode == .badInput)
        }
        // The stand-in sleeps 60 s: returning well before that means it was killed, not waited for.
        #expect(Date().timeIntervalSince(started) < 30)
    }

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func hangingPdfinfoCostsOnlyTheTitle() throws {
        let folder = try Self.hangingTool("pdfinfo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let poppler = PDFDocument.executable(named: "pdftotext")!.deletingLastPathComponent().path
        let layer = try PDFDocument.textLayer(path: DocumentFixtures.path("sample.pdf"), timeout: 60, titleTimeout: 1, searchPath: folder.path + ":" + poppler)
        #expect(layer.title == nil)
        #expect(layer.blocks.map(\.page) == [1, 2, 2])
    }

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func missingFileCannotBeOpened() throws {
        #expect(throws: DocumentError.cannotOpen(path: "/nonexistent/x.pdf", reason: "no such file")) {
            try PDFDocument.textLayer(path: "/nonexistent/x.pdf")
        }
    }

    @Test(.enabled(if: popplerInstalled, "needs pdftotext (poppler-utils)"))
    func bundledDishwasherManual() throws {
        let layer = try PDFDocument.textLayer(path: DocumentFixtures.samples.appendingPathComponent("dishwasher-manual.pdf").path)
        DocumentFixtures.expectWellFormed(layer)
        #expect(layer.title == "Nordvik DW-450 Dishwasher: Owner's Manual")
        let texts = DocumentFixtures.texts(layer)
        let e24 = try #require(texts.firstIndex { $0.contains("E24 \u{2013} Water is not draining away.") })
        #expect(layer.blocks[e24].page == 2)
        #expect(layer.blocks.first?.page == 1)
    }

    @Test func formFeedsBecomeBlankLinesAndNumberPages() {
        let output = Array("Intro line\nmore\n\n  Second para  \n\u{0C}\u{0C}Page three\n\u{0C}".utf8)
        let layer = PDFDocument.layer(pdftotextOutput: output, title: nil)
        DocumentFixtures.expectWellFormed(layer)
        #expect(String(decoding: layer.bytes, as: UTF8.self) == "Intro line\nmore\n\n  Second para  \n\nPage three\n")
        #expect(DocumentFixtures.texts(layer) == ["Intro line\nmore", "Second para", "Page three"])
        #expect(layer.blocks.map(\.page) == [1, 1, 3])
    }

    @Test func pageWithoutTrailingNewlineStillGetsASeparator() {
        let layer = PDFDocument.layer(pdftotextOutput: Array("one\u{0C}two\u{0C}".utf8), title: "T")
        #expect(String(decoding: layer.bytes, as: UTF8.self) == "one\n\ntwo")
        #expect(layer.blocks.map(\.page) == [1, 2])
        #expect(layer.title == "T")
    }

    @Test func invalidUTF8IsRepairedSoRangesStayValid() {
        let layer = PDFDocument.layer(pdftotextOutput: [0x61, 0xFF, 0x62, 0x0A], title: nil)
        DocumentFixtures.expectWellFormed(layer)
        #expect(DocumentFixtures.texts(layer) == ["a\u{FFFD}b"])
    }

    @Test func unknownToolIsNotFound() {
        #expect(PDFDocument.executable(named: "pb-no-such-tool-\(UInt32.random(in: 0 ... .max))") == nil)
        #expect(PDFDocument.missingToolMessage == "pdftotext not found: install poppler-utils (make deps)")
    }
}
