import Foundation

/// Ends the process as soon as the reader of standard output goes away (`glossa translate … |
/// head -1`), with ``ExitCode/outputClosed``, instead of translating the rest for nobody.
///
/// Two ways to notice, since a command may be busy for seconds between two lines: a thread
/// polls standard output for the error or hang-up a pipe or socket reports once its reader has
/// closed (a file or terminal never reports one, so the thread just waits), and ``Console``
/// reports a write that fails with EPIPE. SIGPIPE is ignored (main.swift), so neither path is
/// a signal death. Child processes (Apertium stages) read end-of-file on their input when this
/// process exits, and exit too.
enum OutputWatch {
    /// Starts watching standard output (not for `serve`, whose output is a log).
    static func start() {
        let thread = Thread {
            var watched = pollfd(fd: 1, events: 0, revents: 0)
            while true {
                let ready = poll(&watched, 1, -1)
                if ready < 0 && errno == EINTR { continue }
                if ready > 0 && watched.revents & Int16(POLLERR | POLLHUP) != 0 { outputClosed() }
                if ready < 0 || watched.revents & Int16(POLLNVAL) != 0 { return }
            }
        }
        thread.name = "glossa-stdout-watch"
        thread.start()
    }

    /// The reader is gone: stop now. `_exit`, not `exit`: both paths (the watch thread and a
    /// failed write) may get here at once while other threads translate, and two threads in
    /// `exit` run its handlers together (a crash, seen once in a CI-like run). Nothing is left to
    /// flush: standard output is gone, and Console writes standard error unbuffered.
    static func outputClosed() -> Never {
        _exit(ExitCode.outputClosed.rawValue)
    }
}
