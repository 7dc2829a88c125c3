import Foundation
import Testing
@testable import ApertiumEngine

/// A pipeline's processes get stdin, stdout and stderr and nothing else: a descriptor the rest of
/// the process opened without close-on-exec (a Foundation Pipe, a database socket) would stay
/// open in every stage, and whoever reads its other end would wait for an end of file forever.
@Suite struct ChildProcessTests {
    @Test func aChildInheritsOnlyItsThreeStandardDescriptors() throws {
        var leaky: [Int32] = [-1, -1]
        try #require(pipe(&leaky) == 0)
        defer { close(leaky[0]); close(leaky[1]) }
        let child = try ChildProcess.spawn(executable: "/bin/sh", arguments: ["sh", "-c", "ls /proc/$$/fd"],
                                           environment: ProcessInfo.processInfo.environment)
        close(child.stdin)
        let output = child.readToEnd()
        close(child.stdout)
        child.waitForExit()
        let descriptors = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
        #expect(Set(descriptors) == [0, 1, 2], "the child has \(descriptors); the test's pipe is \(leaky)")
    }
}
