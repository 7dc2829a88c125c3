import Foundation
import FuzzTargets
import Testing

/// Every committed fuzz input, the seed corpus and each crash reproducer `make fuzz` ever found
/// (Fuzz/regressions/TARGET-*), runs through its target in every `swift test`: a crash found once
/// stays fixed. The targets check their invariants with preconditions, so a regression crashes
/// this test process, which names the input on stderr first.
@Suite("Fuzz corpus and crash reproducers")
struct FuzzRegressionTests {
    static let fuzzFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fuzz")

    static func inputs(_ target: String) -> [URL] {
        let fm = FileManager.default
        let corpus = fuzzFolder.appendingPathComponent("corpus/\(target)")
        let seeds = (try? fm.contentsOfDirectory(at: corpus, includingPropertiesForKeys: nil)) ?? []
        let regressions = ((try? fm.contentsOfDirectory(at: fuzzFolder.appendingPathComponent("regressions"),
                                                        includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.lastPathComponent.hasPrefix(target + "-") }
        return (seeds + regressions).sorted { $0.path < $1.path }
    }

    @Test("Every target has a seed corpus")
    func everyTargetHasSeeds() {
        for target in FuzzTargets.all.keys { #expect(!Self.inputs(target).isEmpty, "no corpus for \(target)") }
    }

    @Test("Corpus and reproducers run without a crash", arguments: FuzzTargets.all.keys.sorted())
    func replay(target: String) async throws {
        let run = try #require(FuzzTargets.all[target])
        let inputs = try Self.inputs(target).map { ($0.lastPathComponent, Array(try Data(contentsOf: $0))) }
        // On a thread of its own, as libFuzzer runs it: the request target waits for the router's
        // task, which must not hold one of Swift's few pool threads meanwhile.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread {
                for (name, bytes) in inputs {
                    FileHandle.standardError.write(Data("fuzz replay \(target): \(name)\n".utf8))
                    run(bytes)
                }
                done.resume()
            }.start()
        }
    }
}
