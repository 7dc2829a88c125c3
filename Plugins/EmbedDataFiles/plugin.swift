import Foundation
import PackagePlugin

/// Embeds the files in a target's `Data/` folder (except `.md` notes) in its binary at build time, as base64
/// string literals in generated Swift source (`EmbeddedDataFiles.base64[name]`), so that data
/// such as the language detector's model travels inside the executable: nothing to install
/// beside it and nothing to find at run time (see EmbedWebRoot for why not SwiftPM resources).
///
/// A string literal rather than an array literal: the compiler takes about two seconds for a
/// 20 MB string literal and minutes for an array literal of that many elements.
@main
struct EmbedDataFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let root = context.package.directoryURL.appending(path: "Sources/\(module.name)/Data")
        let files = try FileManager.default.contentsOfDirectory(at: root, includingPropertiesForKeys: nil)
            // Documentation beside the data (SOURCES.md) stays out of the binary.
            .filter { !$0.lastPathComponent.hasPrefix(".") && !$0.hasDirectoryPath && $0.pathExtension != "md" }
            .sorted { $0.path() < $1.path() }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedDataFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) data files of \(target.name)",
                executable: try context.tool(named: "DataFileEmbedder").url,
                arguments: [output.path()] + files.map { $0.path() },
                // Every file is an input, so replacing one re-runs the embedder.
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
