import FoundationEssentials
import PwnVaultCore

/// `pwnvault notify`: HIBP's own "notify me" sign-up page (there is no API for it).
enum NotifyCommand: Command {
    static let url = "https://haveibeenpwned.com/NotifyMe"

    static let spec = CommandSpec(
        name: "notify",
        summary: msg("open HIBP's \"notify me\" page to be told of future breaches by e-mail"),
        usage: [""],
        discussion: msg("Prints the address; on a desktop (DISPLAY or WAYLAND_DISPLAY set) also opens it with xdg-open."),
        examples: [("pwnvault notify", msg("sign up for HIBP's breach notifications"))],
        usesVault: false)

    static let optionsType: any CommandOptions.Type = NoOptions.self

    static func run(_ context: Context) throws -> ExitStatus {
        struct Report: Encodable { let url: String }
        if context.json { try context.console.json(Report(url: url)); return .success }
        context.console.out(url)
        let env = context.environment
        let desktop = env["DISPLAY"].map { !$0.isEmpty } == true || env["WAYLAND_DISPLAY"].map { !$0.isEmpty } == true
        guard desktop else { return .success }
        if !Subprocess.launch("/usr/bin/xdg-open", arguments: [url], environment: ChildEnvironment.sanitized(env)) {
            context.console.note(msg("could not start xdg-open; open the address above in a browser"))
        }
        return .success
    }
}
