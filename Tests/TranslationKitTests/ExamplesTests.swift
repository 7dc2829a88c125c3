import Foundation
import ServerAPI
import Testing
import ServerTestSupport
import TranslationTesting

/// Builds nothing itself: runs the example executables that `swift build` (and `make test`)
/// built, against a real Glossa server over the real engines, and once on the local backend.
@Suite(.serialized, Requirement.realApertiumPairs) struct ExamplesTests {
    /// The package root, from this file's path (Tests/TranslationKitTests/ExamplesTests.swift).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func serverURL() async throws -> String {
        try LiveServer.start(service: await RealApertiumTests.service.value).keptForTheProcess().url
    }

    /// Runs an example with `arguments`, without GLOSSA_URL unless given; returns its status and
    /// standard output. Killed after 120 s so a hang fails instead of blocking the suite.
    private func run(_ name: String, _ arguments: [String] = [], glossaURL: String? = nil) async throws -> (Int32, String) {
        let binary = Self.root.appendingPathComponent(".build/debug/\(name)")
        try #require(FileManager.default.isExecutableFile(atPath: binary.path), "\(binary.path) is not built: run swift build")
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GLOSSA_URL"] = glossaURL
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        let watchdog = Task {
            try await Task.sleep(for: .seconds(120))
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, text)
    }

    private func checkCafeNames(_ status: Int32, _ output: String) {
        #expect(status == 0)
        let arrived = output.split(separator: "\n").filter { $0.hasPrefix("arrived #") }
        #expect(arrived.count == 6)
        #expect(Set(arrived.map { $0.dropFirst(9).prefix(1) }) == Set(["0", "1", "2", "3", "4", "5"]))
        #expect(output.contains("The Little Coffee House → "))
        #expect(output.contains("Café"))
        #expect(!output.contains("(missing)"))
    }

    @Test func cafeNamesStreamsFromAServer() async throws {
        let (status, output) = try await run("CafeNames", glossaURL: try await serverURL())
        checkCafeNames(status, output)
    }

    @Test func cafeNamesRunsOnTheLocalBackend() async throws {
        let (status, output) = try await run("CafeNames")
        checkCafeNames(status, output)
    }

    @Test func articleExcerptsMatchBackByUUID() async throws {
        let (status, output) = try await run("ArticleExcerpts", ["--server", try await serverURL()])
        #expect(status == 0)
        let ids = output.split(separator: "\n").filter { $0.hasPrefix("[") }.map { $0.dropFirst().prefix(36) }
        #expect(ids.count == 4)
        #expect(ids.allSatisfy { UUID(uuidString: String($0)) != nil })
        #expect(output.contains("bibliotecas"))
        #expect(output.contains("rana"))
        #expect(!output.contains("(missing)"))
    }

    @Test func googleTutorialDetectsListsAndTranslates() async throws {
        let (status, output) = try await run("GoogleTutorial", ["--server", try await serverURL(), "¿Dónde está la biblioteca?", "en"])
        #expect(status == 0)
        #expect(output.contains("detected: es"))
        #expect(output.contains("from Spanish to English"))
        #expect(output.lowercased().contains("translation: where") && output.contains("library"))
    }
}
