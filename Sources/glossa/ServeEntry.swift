/// `glossa serve`: the HTTP service (``runServe(arguments:makeServing:)``) over the service the
/// composition root builds.
enum ServeEntry {
    static let help = serveHelp

    static func run(_ argv: [String]) async -> Int32 {
        await runServe(arguments: argv, makeServing: { try await Composition.makeServing() })
    }
}
