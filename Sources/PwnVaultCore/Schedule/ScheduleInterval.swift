/// How often the scheduled watch runs (`schedule enable --every PERIOD`).
///
/// Only periods a calendar can keep evenly are offered: hours that divide a day, a day, a week. A
/// systemd timer catches up a run missed while the computer was off (`Persistent=`) only for
/// calendar times (`OnCalendar=`), and a period such as 5h or 2d cannot be written as one without
/// an uneven gap at midnight or at the end of a month.
public struct ScheduleInterval: Sendable, Equatable, CustomStringConvertible {
    /// The period in hours.
    public let hours: Int

    /// Every period offered, shortest first.
    public static let offered: [ScheduleInterval] = [1, 2, 3, 4, 6, 8, 12, 24, 168].map(ScheduleInterval.init(hours:))
    /// `--every`'s default.
    public static let daily = ScheduleInterval(hours: 24)
    /// The offered periods as `1h, 2h, …, 1d or 7d`, for help and hints.
    public static var offeredText: String {
        let words = offered.map(\.description)
        return msg("{1} or {2}", words.dropLast().joined(separator: ", "), words.last!)
    }

    private init(hours: Int) { self.hours = hours }

    /// Reads `1h`…`12h`, `24h`/`1d`, `168h`/`7d`/`1w`. Throws `ScheduleError.invalidPeriod` otherwise.
    public init(parsing text: String) throws {
        let word = text.lowercased()
        guard let unit = word.last, "hdw".contains(unit), word.count >= 2, word.count <= 6,
              word.dropLast().allSatisfy({ ("0"..."9").contains($0) }), let n = Int(word.dropLast()) else {
            throw ScheduleError.invalidPeriod(text, reason: phrase("it is not a number followed by h, d or w"))
        }
        let hours = n * (unit == "h" ? 1 : unit == "d" ? 24 : 168)
        guard hours >= 1 else { throw ScheduleError.invalidPeriod(text, reason: phrase("the shortest period is 1h")) }
        guard let offered = Self.offered.first(where: { $0.hours == hours }) else {
            throw ScheduleError.invalidPeriod(text, reason: hours > 168 ? phrase("the longest period is 7d")
                                              : phrase("a timer can keep only periods that divide a day or a week evenly"))
        }
        self = offered
    }

    /// `6h`, `1d`, `7d`.
    public var description: String {
        hours % 168 == 0 ? "\(hours / 168 * 7)d" : hours % 24 == 0 ? "\(hours / 24)d" : "\(hours)h"
    }

    /// The timer's `OnCalendar=`: on the hour every N hours, midnight, or Monday midnight.
    public var onCalendar: String {
        switch hours {
        case 1: return "*-*-* *:00:00"
        case 24: return "*-*-* 00:00:00"
        case 168: return "Mon *-*-* 00:00:00"
        default: return "*-*-* 00/\(hours):00:00"
        }
    }

    /// The timer's `RandomizedDelaySec=`: a quarter of the period, at most an hour, so that runs of
    /// many users do not reach HIBP at the same second and a run stays inside its period.
    public var randomizedDelay: String {
        let minutes = min(hours * 60 / 4, 60)
        return minutes == 60 ? "1h" : "\(minutes)min"
    }

    /// The five time fields of an equivalent crontab line, at a minute (and hour, weekday) picked
    /// by `random` so that cron users do not all run at the same time either.
    public func cronFields(random: (Int) -> Int = { Int.random(in: 0..<$0) }) -> String {
        let minute = random(60)
        switch hours {
        case 1: return "\(minute) * * * *"
        case 24: return "\(minute) \(random(24)) * * *"
        case 168: return "\(minute) \(random(24)) * * \(random(7))"
        default: return "\(minute) \(random(hours))-23/\(hours) * * *"
        }
    }
}
