import Testing
@testable import HTTPServer

/// The hand-off between the I/O thread, which stores the handler's task, and the watchdog, which
/// may see the client leave first.
@Suite("Request context: cancellation before the task is stored")
struct RequestContextTests {
    @Test("A hang-up seen before the handler's task is stored still cancels that task", .timeLimit(.minutes(1)))
    func cancelBeforeAdopt() async {
        // A connection pointer is only an identity here; nothing dereferences it.
        let handle = ConnectionHandle(pointer: OpaquePointer(bitPattern: 0x1000)!)
        let context = RequestContext(connection: handle, target: Array("/work".utf8))
        context.cancelWork()
        let task = Task {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
        }
        context.adopt(task, for: HTTPRequest(method: "GET", path: "/work"))
        // Without the flag this would wait forever; the test's own time limit catches that.
        await task.value
        #expect(task.isCancelled)
    }

    @Test("A task stored before any hang-up runs on until cancelWork")
    func adoptThenCancel() async {
        let context = RequestContext(connection: ConnectionHandle(pointer: OpaquePointer(bitPattern: 0x2000)!), target: [])
        let task = Task { while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) } }
        context.adopt(task, for: HTTPRequest(method: "GET", path: "/"))
        try? await Task.sleep(for: .milliseconds(50))
        #expect(!task.isCancelled)
        context.cancelWork()
        await task.value
        #expect(task.isCancelled)
    }
}
