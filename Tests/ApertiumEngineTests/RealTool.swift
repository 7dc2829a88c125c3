import Foundation

/// Runs one of Debian's Apertium tools (or any command) on `input` and returns its stdout; used
/// to check Glossa's code against the real thing.
enum RealTool {
    static func run(_ executable: String, _ arguments: [String] = [], input: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Feed stdin from another thread so a large output cannot deadlock the pair of pipes.
        let writer = Thread {
            stdin.fileHandleForWriting.write(Data(input))
            try? stdin.fileHandleForWriting.close()
        }
        writer.start()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](output)
    }

    static func exists(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
}
