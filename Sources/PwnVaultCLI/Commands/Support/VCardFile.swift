import PwnVaultCore

/// A vCard file (or stdin, `-`) read whole for `import` and the ui's `i`, with the one-line errors a
/// person can act on; nothing is added when it cannot be read.
enum VCardFile {
    /// The whole file or stdin, refused beyond `VCardParser.maxBytes` without reading further.
    static func read(_ source: String, name: String, standardInput: Int32 = StandardStream.inputDescriptor) throws -> [UInt8] {
        let bytes: [UInt8]?
        do {
            bytes = source == "-" ? try InputFile.readStandardInput(limit: VCardParser.maxBytes, fd: standardInput)
                                  : try InputFile.read(source, limit: VCardParser.maxBytes)
        } catch .noSuchFile {
            throw InputError(msg("cannot read {1}: there is no such file; nothing was added", name))
        } catch .isFolder {
            throw InputError(msg("cannot read {1}: it is a folder; nothing was added", name))
        } catch .notReadable {
            throw InputError(msg("cannot read {1}: permission denied; nothing was added", name))
        } catch {
            throw InputError(msg("cannot read {1}; nothing was added", name))
        }
        guard let bytes else { throw VCardError.tooLarge(limit: VCardParser.maxBytes) }
        return bytes
    }
}
