/// `glossa serve`: until the HTTP server lands, prints what is installed.
enum ServeEntry {
    static let help = """
        USAGE: glossa serve [--host 127.0.0.1] [--port 8080]

        Runs the HTTP service.
        """

    static func run(_ argv: [String]) async -> Int32 {
        await PairsCommand.run([])
    }
}
