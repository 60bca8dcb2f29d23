import Foundation

/// Runs a program (groff, bash, zsh, fish) with `input` on stdin; both outputs captured.
enum ProgramRun {
    struct Result { let status: Int32; let stdout: String; let stderr: String }

    static func run(_ path: String, _ args: [String], input: String = "", environment: [String: String]? = nil) throws -> Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: path)
        p.arguments = args
        if let environment { p.environment = environment }
        let inPipe = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = inPipe; p.standardOutput = out; p.standardError = err
        try p.run()
        try? inPipe.fileHandleForWriting.write(contentsOf: Data(input.utf8))   // EPIPE fails the test, not the bundle
        try inPipe.fileHandleForWriting.close()
        let errData = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errData.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Result(status: p.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData.data, as: UTF8.self))
    }

    /// Filled by one thread, read by another after `DispatchGroup.wait`.
    private final class DataBox: @unchecked Sendable { var data = Data() }

    /// The program's path when it is installed (in /usr/bin or /bin), else nil.
    static func installed(_ name: String) -> String? {
        ["/usr/bin/\(name)", "/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
