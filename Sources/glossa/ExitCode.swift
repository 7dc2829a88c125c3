import TranslationCore

/// Exit codes of every `glossa` command; `glossa --help` prints this table.
enum ExitCode: Int32 {
    /// Success.
    case success = 0
    /// The engine failed or timed out, or another runtime failure.
    case failure = 1
    /// The command line is wrong (unknown option, missing value).
    case usage = 2
    /// A language is unknown, or no installed pair serves the request.
    case unsupportedLanguage = 3
    /// The input cannot be processed (invalid UTF-8 names the line).
    case invalidInput = 4
    /// Standard output was closed by its reader (`| head`): the command stopped at once. 141 is
    /// what a shell reports for a process that SIGPIPE ends (128 + 13), so scripts that already
    /// allow for that (`set -o pipefail`) need no change.
    case outputClosed = 141

    /// The documentation block shared by every `--help`.
    static let helpText = """
        Exit codes:
          0  success
          1  the engine failed or timed out
          2  usage error (unknown option or command, missing or extra argument, a refused
             GLOSSA_* setting)
          3  unknown language or no installed pair (the message lists what is available)
          4  invalid input (invalid UTF-8 on stdin, naming the line, or in an argument, naming it)
          141  standard output was closed by its reader (for example `| head -1`): the command
               stops at once, as a process ended by SIGPIPE would
        """

    /// The exit code for a translation error.
    init(_ error: TranslationError) {
        switch error.kind {
        case .invalidLanguage, .unsupportedPair, .unsupportedSourceLanguage, .unsupportedTargetLanguage,
             .unableToIdentifyLanguage, .notInstalled:
            self = .unsupportedLanguage
        case .invalidInput, .limitExceeded:
            self = .invalidInput
        case .invalidArgument:
            self = .usage
        case .engineFailure, .timeout, .cancelled, .overloaded:
            self = .failure
        }
    }
}
