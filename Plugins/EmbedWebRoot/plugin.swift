import Foundation
import PackagePlugin

/// Turns the files under a target's `WebRoot/` folder into Swift source at build time, so the
/// binary carries its web app and serves it from anywhere, with no resource bundle beside it.
///
/// Why not SwiftPM resources: on Linux, `Bundle.module` looks for the bundle next to the
/// executable and then at the absolute build path, and calls `fatalError` when neither exists, so
/// a `glossa` binary copied elsewhere (or run after `.build` is removed) would crash on the first
/// request for `/`. Embedded bytes cannot go missing.
@main
struct EmbedWebRoot: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        // The target's folder from the package's (Target.directoryURL needs tools version 6.1).
        let root = context.package.directoryURL.appending(path: "Sources/\(module.name)/WebRoot")
        let files = try Self.files(under: root)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedWebRoot.swift")
        let tool = try context.tool(named: "WebRootEmbedder")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) web files of \(target.name)",
                executable: tool.url,
                arguments: [root.path(), output.path()] + files.map { $0.path() },
                // Every file is an input, so editing one re-runs the embedder; adding or removing a
                // file changes the arguments, which also re-runs it.
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }

    /// Every regular file under `root`, sorted so the generated source is stable.
    static func files(under root: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            found.append(url)
        }
        return found.sorted { $0.path() < $1.path() }
    }
}
