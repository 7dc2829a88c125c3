import Foundation

/// A calendar month in UTC, the period character quotas count over (as DeepL's monthly quota
/// and Google's billing months do).
///
/// Every request asks which period it falls in, so the month is computed from the Unix time
/// with integer arithmetic (days since 1970 to a proleptic Gregorian date, the algorithm of
/// Howard Hinnant's "chrono-compatible low-level date algorithms") rather than through
/// Foundation's `Calendar`, whose set-up per call took 5 % of a keyed request's CPU time in
/// `perf`. `BillingPeriodTests` checks both give the same months.
public struct BillingPeriod: Sendable, Equatable, CustomStringConvertible {
    /// `2025-12`.
    public let name: String
    /// Its first instant.
    public let start: Date
    /// The first instant of the next period.
    public let end: Date

    /// The month that contains `date`.
    public static func containing(_ date: Date) -> BillingPeriod {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // Dates a Double cannot hold as whole seconds in an Int are far outside any billing.
        let days = Int(exactly: seconds).map { Self.floorDivide($0, 86_400) } ?? 0
        let (year, month) = Self.civilMonth(days: days)
        return period(year: year, month: month)
    }

    /// The period named `name` (`2025-12`), nil when the name is not a month.
    public static func named(_ name: String) -> BillingPeriod? {
        let parts = name.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, parts[1].count == 2, let year = Int(parts[0]), let month = Int(parts[1]),
              (1...12).contains(month) else { return nil }
        return period(year: year, month: month)
    }

    /// Whole seconds from `date` to the end of the period (at least 1): the `Retry-After` of
    /// an exhausted quota.
    public func secondsLeft(from date: Date) -> Int { max(1, Int(end.timeIntervalSince(date).rounded(.up))) }

    public var description: String { name }

    /// Month `month` (1...12) of `year`.
    private static func period(year: Int, month: Int) -> BillingPeriod {
        let next = month == 12 ? (year + 1, 1) : (year, month + 1)
        let digits = String(year), monthDigits = String(month)
        let name = String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-" + (month < 10 ? "0" : "") + monthDigits
        return BillingPeriod(name: name,
                             start: Date(timeIntervalSince1970: Double(daysFromCivil(year, month, 1) * 86_400)),
                             end: Date(timeIntervalSince1970: Double(daysFromCivil(next.0, next.1, 1) * 86_400)))
    }

    /// Days from 1970-01-01 to `year`-`month`-`day` (proleptic Gregorian).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The year and month of the day `days` after 1970-01-01 (proleptic Gregorian).
    static func civilMonth(days: Int) -> (year: Int, month: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month)
    }

    private static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
}
