import Glibc

/// The parts of `stat` that the vault's safety checks need, without any C type.
struct FileStatus: Equatable {
    enum Kind: Equatable { case regular, directory, symbolicLink, fifo, device, socket, other }

    let kind: Kind
    /// Permission bits only (`mode & 0o7777`).
    let permissions: UInt32
    /// Owning user id.
    let owner: UInt32
    let size: Int
    /// Last modification of the content, in seconds since 1970.
    let modified: Double
    /// Last change of the content or the inode (a new link, a chmod), in seconds since 1970.
    let changed: Double

    init(_ st: stat) {
        switch st.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFCHR, S_IFBLK: kind = .device
        case S_IFSOCK: kind = .socket
        default: kind = .other
        }
        permissions = UInt32(st.st_mode) & 0o7777
        owner = UInt32(st.st_uid)
        size = Int(st.st_size)
        modified = Double(st.st_mtim.tv_sec) + Double(st.st_mtim.tv_nsec) / 1e9
        changed = Double(st.st_ctim.tv_sec) + Double(st.st_ctim.tv_nsec) / 1e9
    }

    /// True when group or others may write (`0o022`).
    var isWritableByOthers: Bool { permissions & 0o022 != 0 }
    /// True when group or others have any access at all (`0o077`).
    var isAccessibleByOthers: Bool { permissions & 0o077 != 0 }
}
