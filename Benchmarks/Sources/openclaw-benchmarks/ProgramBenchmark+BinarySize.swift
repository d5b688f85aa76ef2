import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ProgramBenchmark {
    /// Each build's binary stripped of its symbols (`strip` on a copy): what a download or an install
    /// carries. The goal is read on the static build, the one the README installs.
    static func binarySize(_ report: Report, program: ChildProcess) throws {
        for build in builds(program) {
            let path = build.program.executable
            let copy = NSTemporaryDirectory() + "/openclaw-bench-stripped-\(getpid())"
            try? FileManager.default.removeItem(atPath: copy)
            defer { try? FileManager.default.removeItem(atPath: copy) }
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let stripped = try ChildProcess(executable: "/usr/bin/env").run(["strip", copy])
            guard stripped.status == 0 else { throw BenchmarkError.setup("strip \(path) exited \(stripped.status)") }
            let built = try fileSize(path)
            report.add(
                "8", "binary size, stripped, \(build.label)", Format.megabytes(try fileSize(copy)), "MB",
                goal: build.carriesGoal ? .atMost(40, "MB") : nil,
                note: build.note(after: String(format: "%.1f MB as built", Format.megabytes(built))))
        }
    }

    private static func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes[.size] as? Int else { throw BenchmarkError.setup("no size for \(path)") }
        return size
    }
}
