/// The process's arguments as text, refusing invalid UTF-8 rather than repairing it.
enum CommandLineText {
    /// The arguments after the program name, or the position (1-based) of the first argument
    /// that is not valid UTF-8.
    enum Result {
        case valid([String])
        case invalid(position: Int)
    }

    static func arguments() -> Result {
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let pointer = CommandLine.unsafeArgv[index],
                  let text = String(validatingCString: pointer) else { return .invalid(position: index) }
            arguments.append(text)
        }
        return .valid(arguments)
    }
}
