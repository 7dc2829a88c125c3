import Foundation

/// Installs Debian packages for ``TranslationSession/prepareTranslation(progress:)``.
///
/// ``AptInstaller`` is the real one; tests and embedders may pass their own to
/// ``TranslationSession/Backend/local(_:installer:maxConcurrent:)``.
public protocol PackageInstaller: Sendable {
    /// Installs `packages`, reporting output lines through `progress`.
    /// - Throws: ``TranslationError/notInstalled`` with the exact command to run when this process
    ///   may not install packages; ``TranslationError/internalError`` when the package manager failed.
    func install(_ packages: [String], progress: @escaping @Sendable (PreparationProgress) -> Void) async throws
}

extension PackageInstaller {
    /// The command a person runs to install `packages`.
    public static func command(for packages: [String]) -> String {
        "sudo apt-get install -y " + packages.joined(separator: " ")
    }
}

/// Installs with `apt-get`: directly as root, through `sudo -n` when that needs no password,
/// otherwise it refuses with the command to run.
public struct AptInstaller: PackageInstaller {
    /// Makes the installer.
    public init() {}

    public func install(_ packages: [String], progress: @escaping @Sendable (PreparationProgress) -> Void) async throws {
        guard !packages.isEmpty else { return }
        let prefix: [String]
        if getuid() == 0 {
            prefix = []
        } else if await (try? Self.run(["sudo", "-n", "true"], progress: { _ in })) == 0 {
            prefix = ["sudo", "-n"]
        } else {
            throw TranslationError.notInstalled.with(
                "Installing \(packages.joined(separator: ", ")) needs root; run: \(Self.command(for: packages))")
        }
        let install = prefix + ["apt-get", "install", "-y", "-q", "--no-install-recommends"] + packages
        var status = try await Self.run(install, progress: progress)
        if status != 0 {
            // An old or empty package list cannot find packages: refresh once and retry.
            _ = try await Self.run(prefix + ["apt-get", "update", "-q"], progress: progress)
            status = try await Self.run(install, progress: progress)
        }
        guard status == 0 else {
            throw TranslationError.internalError.with(
                "apt-get could not install \(packages.joined(separator: ", ")) (exit status \(status)); try: \(Self.command(for: packages))")
        }
    }

    /// Runs `arguments` (found on PATH), passing each output line to `progress`; returns the
    /// exit status. The process runs on its own; nothing blocks Swift's cooperative pool.
    static func run(_ arguments: [String], progress: @escaping @Sendable (PreparationProgress) -> Void) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        let lines = LineSplitter(progress)
        pipe.fileHandleForReading.readabilityHandler = { handle in lines.feed(handle.availableData) }
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { finished in
                pipe.fileHandleForReading.readabilityHandler = nil
                lines.feed(pipe.fileHandleForReading.readDataToEndOfFile())
                lines.flush()
                continuation.resume(returning: finished.terminationStatus)
            }
            do { try process.run() } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: TranslationError.internalError.with("Could not start \(arguments.joined(separator: " ")): \(error)"))
            }
        }
    }
}
