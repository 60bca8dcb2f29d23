import PwnVaultCore

/// `pwnvault completions SHELL`: prints the completion script for bash, zsh or fish.
enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        summary: "print the shell completion script for bash, zsh or fish",
        usage: ["bash|zsh|fish"],
        discussion: """
        The script completes commands, their options and the values of --kdf and --sort, and file names
        after options that take a PATH. 'make install' installs all three; to try one in the current
        shell, source it as shown below.
        """,
        positionals: 1...1,
        positionalHelp: [("SHELL", "bash, zsh or fish")],
        examples: [("source <(pwnvault completions bash)", "complete pwnvault in this bash session"),
                   ("pwnvault completions zsh > ~/.zfunc/_pwnvault", "install for zsh (with ~/.zfunc in $fpath)"),
                   ("pwnvault completions fish > ~/.config/fish/completions/pwnvault.fish", "install for fish")],
        usesVault: false)

    static func run(_ context: Context) throws -> ExitStatus {
        let name = context.arguments.positionals[0]
        guard let shell = Completions.Shell(rawValue: name) else {
            throw InputError("unknown shell '\(Sanitizer.singleLine(name))': completions exist for bash, zsh and fish",
                             hint: "usage: " + HelpText.usageLine(spec))
        }
        // The script ends with a newline; `out` adds one.
        context.console.out(String(Completions.script(for: shell).dropLast()))
        return .success
    }
}
