import Foundation

/// The package's root folder (the one holding Package.swift), found from this source file's path.
public enum PackageRoot {
    public static let url: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("cannot find the package root from \(#filePath)")
    }()
}
