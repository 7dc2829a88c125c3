#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSpawn
import Dispatch
import Foundation
import Synchronization
import TranslationCore

/// One child process (here `bash -c PIPELINE`) in a process group of its own, with its stdin and
/// stdout as pipes.
///
/// Why posix_spawn and not Foundation.Process: the child must lead a new process group so that
/// one `killpg` reaches every stage bash started (Process cannot set the group), and SIGPIPE must
/// be reset to its default in the child because Glossa ignores it for itself (a write to a dead
/// stage must fail with EPIPE, not kill the server).
final class ChildProcess: Sendable {
    /// The child's PID, which is also its process group ID.
    let pid: pid_t
    /// Our end of the child's stdin.
    let stdin: Int32
    /// Our end of the child's stdout.
    let stdout: Int32
    /// Whether the child has been reaped; guarded so no signal is ever sent to a reaped PID that
    /// the kernel may have given to someone else's process.
    private let reaped = Mutex(false)

    /// Starts `executable` with `arguments` (argv[0] included); the child's stderr goes to the
    /// file `stderr` (created or truncated), by default nowhere.
    static func spawn(executable: String, arguments: [String], environment: [String: String],
                      stderr: String = "/dev/null") throws -> ChildProcess {
        // Glossa's own process ignores SIGPIPE (see the type's comment); idempotent.
        _ = ChildProcess.ignoreSIGPIPE
        // One spawn at a time: the pipes are close-on-exec from creation (``glossa_pipe_cloexec``)
        // and each child closes every other descriptor, so no child holds a stray copy of a write
        // end (which would hide the EOF that tells us a stage died); the lock keeps it simple.
        return try ChildProcess.spawnLock.withLock { _ in try spawnLocked(executable, arguments, environment, stderr) }
    }

    private static let spawnLock = Mutex(())

    private init(pid: pid_t, stdin: Int32, stdout: Int32) {
        self.pid = pid
        self.stdin = stdin
        self.stdout = stdout
    }

    private static func spawnLocked(_ executable: String, _ arguments: [String], _ environment: [String: String],
                                    _ stderr: String) throws -> ChildProcess {
        var inPipe: [Int32] = [-1, -1], outPipe: [Int32] = [-1, -1]
        // Close-on-exec from the start: a child that Foundation's Process spawns on another
        // thread (outside our lock) cannot inherit either end.
        guard glossa_pipe_cloexec(&inPipe) == 0 else { throw ChildProcess.error("pipe", errno) }
        guard glossa_pipe_cloexec(&outPipe) == 0 else {
            close(inPipe[0]); close(inPipe[1])
            throw ChildProcess.error("pipe", errno)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, inPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        // Stage diagnostics are not read from a pipe (a full one would stall a stage): they are
        // discarded, or kept in a file when a probe wants them.
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // Nothing else crosses into the chain: a descriptor that another part of the process
        // opened without close-on-exec (a Foundation Pipe, a database socket) would otherwise
        // stay open in every stage, and its reader would never see its end of file.
        glossa_spawn_file_actions_closefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        sigemptyset(&mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        markInheritedDescriptorsCloseOnExec()
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        close(inPipe[0])
        close(outPipe[1])
        guard rc == 0 else {
            close(inPipe[1]); close(outPipe[0])
            throw ChildProcess.error("posix_spawn \(executable)", rc)
        }
        return ChildProcess(pid: child, stdin: inPipe[1], stdout: outPipe[0])
    }

    private static let ignoreSIGPIPE: Void = { signal(SIGPIPE, SIG_IGN); return () }()

    private static func error(_ call: String, _ code: Int32) -> TranslationError {
        TranslationError(.engineFailure, "Cannot start an Apertium pipeline: \(call) failed: \(String(cString: strerror(code))).")
    }

    /// Sends `signal` to the whole process group, unless the child is already reaped.
    func signalGroup(_ signal: Int32) {
        reaped.withLock { isReaped in
            if !isReaped { _ = killpg(pid, signal) }
        }
    }

    /// Sends `signal` to every stage of the group but not to bash, which then reaps its stages
    /// and exits on its own. (Signalling bash at the same time would orphan the stages, and
    /// where PID 1 does not reap orphans they would stay as zombies.) The PIDs are safe to
    /// signal: they are in our group, whose ID cannot be reused while bash is unreaped.
    func signalStages(_ signal: Int32) {
        reaped.withLock { isReaped in
            guard !isReaped else { return }
            for stage in groupProcessIDs where stage != pid { _ = kill(stage, signal) }
        }
    }

    /// Everything the child writes to its stdout until it closes it. Blocks: call it off the
    /// cooperative pool, and only when the child's stdin is closed or fed elsewhere.
    func readToEnd() -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(stdout, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return data }
            data.append(contentsOf: buffer[0..<n])
        }
    }

    /// Waits for the child to exit, reaps it and returns its exit status (128 + N when signal N
    /// ended it). Blocks: call it on a dedicated thread only.
    @discardableResult
    func waitForExit() -> Int32 {
        var info = siginfo_t()
        // Wait without reaping first, then reap under the lock, so `signalGroup` can never race
        // with the PID being recycled.
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
        return reaped.withLock { isReaped in
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            isReaped = true
            // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import.
            return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        }
    }

    /// How many processes bash has started and not yet reaped (its stages), from Linux's
    /// `/proc/PID/task/PID/children`; nil when that cannot be read.
    var liveChildCount: Int? { childProcessIDs?.count }

    /// The child's own children (a pipeline's stages, for bash), from Linux's list of them.
    var childProcessIDs: [pid_t]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8) else { return nil }
        return text.split(separator: " ").compactMap { pid_t($0) }
    }

    /// Resident bytes of the child and its children (nil when Linux does not say): a few small
    /// reads of /proc, cheaper than `groupProcessIDs`' walk over every process.
    var residentBytesWithChildren: Int? {
        guard let children = childProcessIDs else { return nil }
        var total = 0
        for process in [pid] + children {
            // statm: size resident shared text lib data dt, in pages.
            guard let statm = try? String(contentsOfFile: "/proc/\(process)/statm", encoding: .utf8),
                  let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return nil }
            total += pages * Self.pageSize
        }
        return total
    }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Every live process in the child's group: bash and the stages it started.
    var groupProcessIDs: [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let candidate = pid_t(entry),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            // Fields after "(comm)": state, ppid, pgrp, …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, pid_t(fields[2]) == pid, fields[0] != "Z" else { return nil }
            return candidate
        }.sorted()
    }
}
