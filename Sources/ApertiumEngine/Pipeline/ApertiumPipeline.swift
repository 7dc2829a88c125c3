#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Foundation
import Synchronization
import TranslationCore

/// One warm Apertium process chain running in null-flush mode: every stage is started once with
/// `-z` and answers each NUL-terminated request with its output and a NUL, so the same
/// processes translate request after request.
///
/// Framing: each chunk is written as `stream + [<glossa:NONCE-SEQ>] + NUL`. Superblanks pass
/// through every stage unchanged, so the output of the chunk must end with the same marker right
/// before its NUL; anything else means the stream lost its framing (a stage died or merged two
/// requests), and the pipeline fails every pending request rather than hand out a wrong answer.
///
/// Threads: reads run on a dedicated thread for the pipeline's whole life, because the read
/// loop blocks in read(2); writes run on the pipeline's own serial DispatchQueue, because write(2)
/// blocks whenever the first stage is slower than we are. Neither may block Swift's cooperative
/// pool, which has only one thread per core. Writing and reading on separate threads also lets a
/// caller keep many chunks in flight (write-ahead), so every stage of the chain stays busy.
final class ApertiumPipeline: PoolPipeline {
    /// The mode this pipeline runs (for messages).
    let label: String
    private let process: ChildProcess
    private let writeQueue: DispatchQueue
    private let nonce: String
    private let state = Mutex(FrameState())

    /// Starts the chain of `mode`: `markUnknownWords` chooses `-g` (marks `*`, `#`, `@`) or `-n`
    /// (no marks) for generation; `tagger`, when given, runs in place of `apertium-tagger`; the
    /// stages' stderr goes to the file `stderr`, by default nowhere.
    static func start(mode: ApertiumMode, markUnknownWords: Bool, tagger: URL?, stderr: String = "/dev/null") throws -> ApertiumPipeline {
        try start(modeFile: mode.file, label: mode.name, markUnknownWords: markUnknownWords, tagger: tagger, stderr: stderr)
    }

    /// Starts the chain of the mode file at `modeFile` (an analysis mode's too), named `label` in messages.
    static func start(modeFile: URL, label: String, markUnknownWords: Bool, tagger: URL?, stderr: String = "/dev/null") throws -> ApertiumPipeline {
        var command = GeneratorOption.exposed(in: try pipelineCommand(modeFile: modeFile.path))
        if let tagger { command = ResettingTagger.substitute(in: command, tagger: tagger) }
        var environment = ProcessInfo.processInfo.environment
        // The stages need a UTF-8 locale for case and character classes.
        if environment["LC_ALL"] == nil && environment["LANG"] == nil { environment["LC_ALL"] = "C.UTF-8" }
        // As /usr/bin/apertium runs a mode: `bash <(apertium-wblank-mode -z MODE) $OPTION $OPTION_TAGGER`;
        // $1 is the generator's option, $2 the tagger's (empty).
        let process = try ChildProcess.spawn(
            executable: "/bin/bash",
            arguments: ["bash", "-c", command, "bash", markUnknownWords ? "-g" : "-n", ""],
            environment: environment, stderr: stderr)
        return ApertiumPipeline(label: label, process: process)
    }

    /// The mode's pipeline with `-z` on every stage, from `apertium-wblank-mode -z`.
    ///
    /// Runs it through ``ChildProcess`` (not Foundation's Process): its pipes are then created
    /// under the same spawn lock as every pipeline's, already close-on-exec. With Process, a
    /// pipeline spawned on another thread at the same moment inherited the write end of this
    /// pipe, so reading to EOF never ended and `glossa serve` hung while warming its pairs.
    /// Blocks: call it off the cooperative pool.
    static func pipelineCommand(modeFile: String) throws -> String {
        let process: ChildProcess
        do {
            process = try ChildProcess.spawn(executable: "/usr/bin/apertium-wblank-mode",
                                             arguments: ["apertium-wblank-mode", "-z", modeFile],
                                             environment: ProcessInfo.processInfo.environment)
        } catch {
            throw TranslationError(.engineFailure, "Cannot run apertium-wblank-mode (is the apertium package installed?): \(error)")
        }
        close(process.stdin)
        let data = process.readToEnd()
        close(process.stdout)
        let status = process.waitForExit()
        let command = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard status == 0, !command.isEmpty else {
            throw TranslationError(.engineFailure, "apertium-wblank-mode could not read the mode file \(modeFile).")
        }
        return command
    }

    private init(label: String, process: ChildProcess) {
        self.label = label
        self.process = process
        self.writeQueue = DispatchQueue(label: "glossa.apertium.\(label).write")
        self.nonce = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let thread = Thread { [self] in self.readLoop() }
        thread.name = "glossa.apertium.\(label).read"
        thread.start()
    }

    var processIDs: [Int32] { process.groupProcessIDs }

    /// The stages bash runs now (nil when Linux does not say).
    func liveStageCount() -> Int? { process.liveChildCount }

    func residentBytes() -> Int? { process.residentBytesWithChildren }

    /// Our end of the chain's stdout (read by `readLoop`).
    var processStdout: Int32 { process.stdout }

    /// Blocks until the chain has exited and reaps it (called by `readLoop` only).
    func waitForExit() { process.waitForExit() }

    /// Runs `body` with the frame state locked.
    func withFrameState<R>(_ body: (inout FrameState) -> R) -> R { state.withLock { body(&$0) } }

    func run(_ chunks: [[UInt8]], progress: @escaping @Sendable () -> Void) async throws -> [[UInt8]] {
        if chunks.isEmpty { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            let failure: TranslationError? = state.withLock { s in
                if let failure = s.failure { return failure }
                let job = s.nextJob
                s.nextJob += 1
                s.jobs[job] = FrameState.Job(outputs: Array(repeating: [], count: chunks.count),
                                             remaining: chunks.count, continuation: continuation, progress: progress)
                let frames = chunks.enumerated().map { index, chunk in
                    let marker = Array("[<glossa:\(nonce)-\(s.nextSequence)>]".utf8)
                    s.nextSequence += 1
                    s.expected.append(FrameState.Expectation(marker: marker, job: job, index: index))
                    return chunk + marker + [Byte.nul]
                }
                // Enqueued under the lock, so no write can be queued behind `terminate`'s close.
                writeQueue.async { [self] in
                    for frame in frames where !writeAll(frame) {
                        fail(TranslationError(.engineFailure, "The Apertium pipeline for \(label) stopped reading its input (a stage process died)."))
                        return
                    }
                }
                return nil
            }
            if let failure { continuation.resume(throwing: failure) }
        }
    }

    func terminate() {
        let first = state.withLock { s -> Bool in
            guard !s.terminating else { return false }
            s.terminating = true
            // Closing stdin runs on the write queue, after any write in progress has returned
            // (the SIGTERM below makes a blocked write fail), so nothing writes to a closed fd.
            writeQueue.async { [process] in close(process.stdin) }
            return true
        }
        guard first else { return }
        fail(TranslationError(.engineFailure, "The Apertium pipeline for \(label) was stopped."))
        // SIGTERM to the stages, then SIGKILL to the whole group for whatever is left after two
        // seconds (a hung stage, or bash itself); both are skipped once bash is reaped.
        process.signalStages(SIGTERM)
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { [process] in process.signalGroup(SIGKILL) }
    }

    /// Writes all of `bytes`; false when the pipe is broken.
    private func writeAll(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(process.stdin, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
    }
}
