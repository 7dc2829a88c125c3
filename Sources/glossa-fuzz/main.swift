import CFuzzDriver
import Foundation
import FuzzTargets

/// `glossa-fuzz TARGET [libFuzzer options] [CORPUS...]` fuzzes a target (the `make fuzz` build,
/// linked with libFuzzer); `glossa-fuzz TARGET --replay PATH...` runs each input file (or every
/// file of a folder) through it once, in any build. Targets: see `FuzzTargets.all`.
let usage = """
    usage: glossa-fuzz TARGET [libFuzzer options] [CORPUS...]   (a `make fuzz` build)
           glossa-fuzz TARGET --replay PATH...
    targets: \(FuzzTargets.all.keys.sorted().joined(separator: ", "))

    """
var arguments = CommandLine.arguments
guard arguments.count >= 2, let target = FuzzTargets.all[arguments[1]] else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}
/// The target libFuzzer's callback runs (a C function pointer cannot capture it); set once,
/// before the driver starts.
nonisolated(unsafe) var selected: ([UInt8]) -> Void = target

/// libFuzzer's archive brings its own main(), which calls this symbol; the link needs it even
/// though this program's main runs the driver itself (below), through the same target.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    selected(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)))
    return 0
}

if arguments.count >= 3 && arguments[2] == "--replay" {
    var count = 0
    for path in arguments.dropFirst(3) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
        let files = isDirectory.boolValue
            ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { "\(path)/\($0)" }
            : [path]
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            target(Array(data))
            count += 1
        }
    }
    print("glossa-fuzz \(arguments[1]): \(count) inputs replayed, no crash")
    exit(0)
}

// libFuzzer reads its options from argv; the target's name is not one of them.
arguments.remove(at: 1)
var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
var argc = Int32(arguments.count)
let status = cArguments.withUnsafeMutableBufferPointer { buffer -> Int32 in
    var argv = buffer.baseAddress
    return glossa_fuzz_run_driver(&argc, &argv) { data, size in
        selected(Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)))
        return 0
    }
}
if status == -1 {
    FileHandle.standardError.write(Data("glossa-fuzz: this build has no libFuzzer (build it with `make fuzz`); use --replay\n".utf8))
    exit(2)
}
exit(status)
