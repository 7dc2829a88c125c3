import TranslationCore

/// Turns an error into a message on stderr and a documented exit code.
enum Failure {
    static func report(_ error: any Error, usage: String? = nil) -> Int32 {
        switch error {
        case let error as Arguments.UsageError:
            Console.error(error.description + (usage.map { " (see `\($0)`)" } ?? ""))
            return ExitCode.usage.rawValue
        case let error as TranslationError:
            Console.error(error.message)
            return ExitCode(error).rawValue
        default:
            Console.error("\(error)")
            return ExitCode.failure.rawValue
        }
    }
}
