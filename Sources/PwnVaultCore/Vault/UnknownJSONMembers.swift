/// Object members that this version of pwnvault does not know, kept so that a save writes back what
/// a newer writer added (Docs/VAULT_FORMAT.md §7.3: forward compatibility loses nothing).
///
/// Each member is its unescaped name and its value as canonical JSON (§7.1 applied at every level:
/// compact, strings escaped by the table, object members sorted by name, numbers as written). The
/// members are kept sorted by the UTF-8 bytes of their names; a name read twice keeps its first value.
public struct UnknownJSONMembers: Equatable, Sendable {
    /// Sorted by `name`'s UTF-8 bytes, names unique.
    /// Internal: a newer writer's members may hold anything, accounts included.
    var members: [(name: String, json: [UInt8])] = []

    public init() {}

    public var isEmpty: Bool { members.isEmpty }

    /// Adds a member unless one of that name is already kept (the first of duplicates wins).
    mutating func add(name: String, json: [UInt8]) {
        let key = Array(name.utf8)
        let at = members.firstIndex { !Array($0.name.utf8).lexicographicallyPrecedes(key) } ?? members.endIndex
        if at < members.endIndex, members[at].name == name, Array(members[at].name.utf8) == key { return }
        members.insert((name, json), at: at)
    }

    public static func == (a: UnknownJSONMembers, b: UnknownJSONMembers) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { Array($0.name.utf8) == Array($1.name.utf8) && $0.json == $1.json }
    }
}

/// A newer writer's members may hold accounts: they print as a count.
extension UnknownJSONMembers: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "UnknownJSONMembers(\(members.count))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["count": members.count]) }
}
