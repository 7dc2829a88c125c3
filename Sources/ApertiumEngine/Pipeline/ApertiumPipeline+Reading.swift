#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TranslationCore

/// The requests a pipeline has written and not yet answered. Owned by the pipeline's mutex.
struct FrameState: Sendable {
    /// One chunk in flight: the marker its output must end with, and where the output goes.
    struct Expectation: Sendable {
        var marker: [UInt8]
        var job: Int
        var index: Int
    }

    /// One `run` call: its outputs so far and its caller.
    struct Job: Sendable {
        var outputs: [[UInt8]]
        var remaining: Int
        var continuation: CheckedContinuation<[[UInt8]], any Error>
        var progress: @Sendable () -> Void
    }

    /// Chunks in the order they were written, which is the order their outputs come back.
    var expected: [Expectation] = []
    /// Index of the next expectation to answer (a moving head instead of removeFirst's O(n)).
    var head = 0
    var jobs: [Int: Job] = [:]
    var nextJob = 0
    var nextSequence = 0
    /// Set once the pipeline broke or was stopped; every later `run` fails with it.
    var failure: TranslationError?
    var terminating = false
}

extension ApertiumPipeline {
    /// How long the reader waits for output before it looks whether a stage has died.
    static let stageCheckInterval: Int32 = 500

    /// Reads NUL-terminated frames until end of file, then fails what is pending and reaps the
    /// chain. Runs on the pipeline's dedicated thread.
    ///
    /// A stage that dies (apertium-tagger segfaults on some input of a few pairs) does not end
    /// the output by itself: bash holds the pipe's write end while it waits for the other stages,
    /// and the stages before the dead one block reading their input. So while a request waits and
    /// no output has come for ``stageCheckInterval`` ms, the reader counts bash's live stages; one
    /// fewer than it has seen means a stage died, and the request fails now instead of at its
    /// deadline. (The count is taken when the first answer arrives, before its caller is resumed:
    /// that answer went through every stage, and no later request has reached one yet.)
    func readLoop() {
        let fd = processStdout
        var frame: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var stagesSeen = 0
        reading: while true {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let polled = poll(&ready, 1, Self.stageCheckInterval)
            if polled < 0 && errno == EINTR { continue }
            if polled == 0 {
                guard stagesSeen > 0, withFrameState({ !$0.jobs.isEmpty }), let live = liveStageCount() else { continue }
                if live < stagesSeen { break reading }
                continue
            }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var start = 0
            while start < n {
                guard let nul = buffer[start..<n].firstIndex(of: Byte.nul) else {
                    frame += buffer[start..<n]
                    break
                }
                frame += buffer[start..<nul]
                // The first answer (the warm-up's) went through every stage, so all are up now.
                // Counted before it is handed out: its caller writes the next request only once
                // resumed, and a stage that dies on that request must not be missing from the count.
                if stagesSeen == 0 { stagesSeen = liveStageCount() ?? 0 }
                if !deliver(frame) { break reading }
                frame.removeAll(keepingCapacity: true)
                start = nul + 1
            }
        }
        fail(TranslationError(.engineFailure, "The Apertium pipeline for \(label) exited (a stage process died or was killed)."))
        terminate()
        close(fd)
        waitForExit()
    }

    /// Hands one output frame to its chunk; false when the framing is lost.
    private func deliver(_ frame: [UInt8]) -> Bool {
        enum Outcome { case partial(@Sendable () -> Void), finished(CheckedContinuation<[[UInt8]], any Error>, [[UInt8]], @Sendable () -> Void), lost }
        let outcome: Outcome = withFrameState { s in
            guard s.head < s.expected.count else { return .lost }
            let expectation = s.expected[s.head]
            guard frame.count >= expectation.marker.count,
                  frame.suffix(expectation.marker.count).elementsEqual(expectation.marker),
                  var job = s.jobs[expectation.job] else { return .lost }
            s.head += 1
            if s.head > 1024 && s.head * 2 > s.expected.count {
                s.expected.removeFirst(s.head)
                s.head = 0
            }
            job.outputs[expectation.index] = Array(frame.dropLast(expectation.marker.count))
            job.remaining -= 1
            if job.remaining == 0 {
                s.jobs[expectation.job] = nil
                return .finished(job.continuation, job.outputs, job.progress)
            }
            s.jobs[expectation.job] = job
            return .partial(job.progress)
        }
        switch outcome {
        case .partial(let progress):
            progress()
        case .finished(let continuation, let outputs, let progress):
            progress()
            continuation.resume(returning: outputs)
        case .lost:
            fail(TranslationError(.engineFailure, "The Apertium pipeline for \(label) lost its request framing (an answer did not end with its marker)."))
            terminate()
            return false
        }
        return true
    }

    /// Fails every pending request with `error` and refuses new ones.
    func fail(_ error: TranslationError) {
        let jobs = withFrameState { s -> [FrameState.Job] in
            if s.failure == nil { s.failure = error }
            let jobs = Array(s.jobs.values)
            s.jobs = [:]
            s.expected = []
            s.head = 0
            return jobs
        }
        for job in jobs { job.continuation.resume(throwing: error) }
    }
}
