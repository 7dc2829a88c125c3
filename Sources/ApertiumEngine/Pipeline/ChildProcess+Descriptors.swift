#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// Marks every open descriptor above stderr close-on-exec, so a pipeline inherits only the
    /// two pipe ends it is given.
    ///
    /// Why: posix_spawn passes every descriptor without FD_CLOEXEC to the child, and a pipeline
    /// lives for hours. Sockets that other code in the process opened without the flag (libcurl's,
    /// under URLSession; a client library's) would stay open in the pipeline after their owner
    /// closed them, so the peer never sees the connection close: a streaming client that leaves
    /// would never stop the server's work (TranslationKitTests' cancellation test found this:
    /// pipelines held 20–90 sockets of the test process). glibc's `addclosefrom_np` would do this
    /// in the child but is not exported to Swift; marking in the parent is equivalent here, and
    /// harmless: close-on-exec changes nothing for this process itself.
    static func markInheritedDescriptorsCloseOnExec() {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0, flags & FD_CLOEXEC == 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }
}
