import Foundation
import Testing
@testable import AccessControl

/// The arithmetic months of ``BillingPeriod`` are Foundation's Gregorian months in UTC.
@Suite struct BillingPeriodTests {
    /// Foundation's answer: the month of `date` in UTC, its start and the next month's start.
    private func calendarMonth(_ date: Date) -> (name: String, start: Date, end: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month], from: date)
        let start = calendar.date(from: parts)!
        return (String(format: "%04d-%02d", parts.year!, parts.month!), start, calendar.date(byAdding: .month, value: 1, to: start)!)
    }

    /// Every month boundary from 1970 to 2400 (leap years, 2000 and 2100 included), a second on
    /// either side of it, and the middle of the month.
    @Test func monthsAreFoundationsGregorianMonthsInUTC() {
        var checked = 0
        for year in 1970...2400 {
            for month in 1...12 {
                let start = Date(timeIntervalSince1970: Double(BillingPeriod.daysFromCivil(year, month, 1) * 86_400))
                for date in [start, start.addingTimeInterval(-1), start.addingTimeInterval(1), start.addingTimeInterval(14 * 86_400 + 0.5)] {
                    let period = BillingPeriod.containing(date), expected = calendarMonth(date)
                    #expect(period.name == expected.name && period.start == expected.start && period.end == expected.end,
                            "\(date): \(period.name) \(period.start) \(period.end), Foundation \(expected)")
                    checked += 1
                }
            }
        }
        #expect(checked == 431 * 12 * 4)
    }

    @Test func namedMonthsRoundTrip() {
        for name in ["1970-01", "2000-02", "2024-02", "2025-12", "2100-03", "9999-12"] {
            #expect(BillingPeriod.named(name)?.name == name)
        }
        for name in ["2025-13", "2025-00", "25-12", "2025-1", "abcd-ef", "2025-12-01", ""] {
            #expect(BillingPeriod.named(name) == nil)
        }
        #expect(BillingPeriod.named("2024-02")?.end == BillingPeriod.named("2024-03")?.start)
    }

    /// Instants before 1970 take the floor of their day, as Foundation does.
    @Test func datesBefore1970() {
        for seconds in [-1.0, -0.5, -86_400, -86_401, -31_536_000, -2_208_988_800] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(BillingPeriod.containing(date).name == calendarMonth(date).name)
        }
    }
}
