import PwnVaultCLI
import Glibc

#if PWNVAULT_BENCH_CLOCK
// Only in the build `bench/run.sh monitor` makes (-D PWNVAULT_BENCH_CLOCK, its own build folder):
// PWNVAULT_BENCH_DAY days are added to the calendar clock, so a month of daily runs takes minutes.
// Timers keep the real monotonic clock. No product build reads this variable.
import FoundationEssentials
let benchDays = Double(ProcessInfo.processInfo.environment["PWNVAULT_BENCH_DAY"] ?? "") ?? 0
exit(CLI.run(CommandLine.arguments, now: { Date().addingTimeInterval(benchDays * 86_400) }))
#else
exit(CLI.run(CommandLine.arguments))
#endif
