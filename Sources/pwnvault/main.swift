import PwnVaultCLI
import Glibc

exit(CLI.run(CommandLine.arguments))
