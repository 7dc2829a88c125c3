import CSpawn
import Foundation
import SQLDatabase
import Synchronization

/// A real PostgreSQL server for tests: `initdb` and `pg_ctl` in a temporary directory, listening
/// on 127.0.0.1 at a free port, trust authentication, stopped when the test process ends (a
/// watchdog stops it even if the process dies). `make test` installs Debian's `postgresql`;
/// without it, ``shared()`` says why and tests skip.
///
/// PostgreSQL refuses to run as root, so under root the server runs as the `postgres` user
/// that Debian's package creates (through `runuser`).
public final class PostgresServer: Sendable {
    /// Why PostgreSQL cannot be started here (nil when it can).
    public static let unavailableReason: String? = findBinaries().failure

    /// The port it listens on.
    public let port: Int
    private let directory: String
    private let binaries: String

    private static let instance = Mutex<PostgresServer?>(nil)

    /// The server shared by this test process, started on first use.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func shared() async throws -> PostgresServer {
        try await offThread {
            try instance.withLock { instance in
                if let instance { return instance }
                let server = try PostgresServer()
                instance = server
                return server
            }
        }
    }

    /// A server of its own (not shared), for a test that stops and restarts it.
    /// - Throws: when PostgreSQL is missing or does not start.
    public static func dedicated() async throws -> PostgresServer { try await offThread { try PostgresServer() } }

    /// Runs `body` on a thread of its own: initdb and pg_ctl take seconds, and blocking the few
    /// threads of Swift's cooperative pool (two on a 2-core machine) with them — or with the
    /// lock that waits for them — would stall every other test running in the process.
    private static func offThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    private init() throws {
        let found = Self.findBinaries()
        guard let binaries = found.directory else { throw TestServerError(found.failure ?? "PostgreSQL is not installed") }
        self.binaries = binaries
        directory = try Self.makeDirectory()
        port = Self.freePort()
        try run("initdb", ["-D", "\(directory)/data", "-A", "trust", "-U", "glossa", "-E", "UTF8", "--no-sync"])
        try startNow()
        watch()
    }

    /// A database of its own for one test (`postgres://glossa@127.0.0.1:PORT/NAME`).
    public func makeDatabase() async throws -> DatabaseLocation {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        let admin = Database(.postgres(uri: uri("postgres")), connections: 1)
        defer { admin.close() }
        try await admin.execute("CREATE DATABASE \(name)")
        return .postgres(uri: uri(String(name)))
    }

    /// The URI of database `name`.
    public func uri(_ name: String) -> String { "postgres://glossa@127.0.0.1:\(port)/\(name)" }

    /// Starts the server again, after ``stop()``.
    public func start() async throws { try await Self.offThread { [self] in try startNow() } }

    /// Stops the server at once (its clients see a broken connection), for database-down tests.
    public func stop() async throws { try await Self.offThread { [self] in try stopNow() } }

    private func startNow() throws {
        // fsync off: these servers hold test data only, and it makes the tests faster on a busy disk.
        try run("pg_ctl", ["-D", "\(directory)/data", "-l", "\(directory)/log", "-w", "-t", "60", "-o",
                           "-h 127.0.0.1 -p \(port) -k \(directory) -c fsync=off -c max_connections=200", "start"])
    }

    private func stopNow() throws {
        try run("pg_ctl", ["-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        let path = "\(binaries)/\(tool)"
        let argv = geteuid() == 0 ? [Self.runuser, "-u", "postgres", "--", path] + arguments : [path] + arguments
        // Output to a file, not a pipe: the server pg_ctl starts would inherit a pipe and hold it
        // open, so reading it to its end would wait for the server to stop.
        let outputPath = "\(directory)/\(tool).out"
        let pid = try Self.spawn(argv, output: outputPath)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import (macros).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw TestServerError("\(tool) failed (wait status \(status)): \(text.suffix(2000))")
        }
    }

    /// A shell that stops the server and removes its directory once this process is gone.
    private func watch() {
        let stop = (geteuid() == 0 ? "\(Self.runuser) -u postgres -- " : "") + "\(binaries)/pg_ctl -D \(directory)/data -m immediate stop"
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(stop) >/dev/null 2>&1; rm -rf \(directory)"
        // setsid: its own session, so a signal to the test's process group does not end it too.
        _ = try? Self.spawn(["/usr/bin/setsid", "/bin/sh", "-c", script], output: "/dev/null")
    }

    /// Starts `argv` with stdin from /dev/null and stdout and stderr to `output`: posix_spawn and
    /// waitpid directly, not Foundation's Process, whose exit monitoring on Linux can miss a
    /// child that exits while several are being started (the test then waits forever).
    private static func spawn(_ argv: [String], output: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // PostgreSQL runs as long as the test process: it must not keep other tests' pipes and
        // sockets open (a tool's stdin that never reaches its end, a client that never hangs up).
        glossa_spawn_file_actions_closefrom(&actions, 3)
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
        guard status == 0 else { throw TestServerError("cannot start \(argv[0]): \(String(cString: strerror(status)))") }
        return pid
    }

    static let runuser = FileManager.default.isExecutableFile(atPath: "/usr/sbin/runuser") ? "/usr/sbin/runuser" : "/sbin/runuser"

    private static func makeDirectory() throws -> String {
        var template = Array((NSTemporaryDirectory() + "/glossa-pg-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw TestServerError("mkdtemp failed") }
        let path = String(cString: made)
        if geteuid() == 0, let user = getpwnam("postgres") {
            chown(path, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        return path
    }

    private static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `GLOSSA_PG_BINDIR`, else `pg_config --bindir`, else the newest /usr/lib/postgresql/*/bin.
    private static func findBinaries() -> (directory: String?, failure: String?) {
        var candidates: [String] = []
        if let dir = ProcessInfo.processInfo.environment["GLOSSA_PG_BINDIR"] { candidates.append(dir) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        candidates += versions.compactMap(Int.init).sorted(by: >).map { "/usr/lib/postgresql/\($0)/bin" }
        guard let dir = candidates.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }) else {
            return (nil, "PostgreSQL's initdb is not installed (Debian package postgresql; `make test` installs it)")
        }
        if geteuid() == 0 && getpwnam("postgres") == nil {
            return (nil, "running as root and there is no postgres user to run PostgreSQL as")
        }
        return (dir, nil)
    }
}

/// A test server that could not be started.
public struct TestServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
