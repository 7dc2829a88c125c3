@testable import AccessControl
import Testing
import TranslationTesting

/// `#expect` cannot call a mutating method, so each such call's result is taken first
/// (`let checkN = …`) and expected after.
@Suite("Allowances and charge rates, driven by a fake clock")
struct AllowanceTests {
    typealias Instant = ManualClock.Instant
    let t0 = Instant(offset: .zero)
    let idle: Duration = .milliseconds(500)
    let renewal: Duration = .seconds(10)

    @Test("Only what was reserved is spent; a report bills what was spent and keeps the rest while in use")
    func spendAndReport() {
        var allowance = Allowance<Instant>()
        let check1 = !allowance.spend(1, at: t0)
        #expect(check1)
        allowance.reserved(100, at: t0)
        let check2 = allowance.spend(60, at: t0) && allowance.spend(40, at: t0)
        #expect(check2)
        let check3 = !allowance.spend(1, at: t0)
        #expect(check3)
        allowance.reserved(50, at: t0)
        let check4 = allowance.spend(7, at: t0 + .milliseconds(50))
        #expect(check4)
        // In use: the spent characters and requests are reported, the unspent 43 kept.
        let check5 = allowance.takeReport(at: t0 + .milliseconds(100), idleRelease: idle, renewal: renewal)
            == AllowanceReport(spent: 107, requests: 3, released: 0)
        #expect(check5)
        #expect(allowance.unspent == 43 && allowance.spent == 0)
        // Nothing new and renewed just now: nothing to say.
        let check6 = allowance.takeReport(at: t0 + .milliseconds(200), idleRelease: idle, renewal: renewal) == nil
        #expect(check6)
        // Idle for the release time: the rest goes back.
        let check7 = allowance.takeReport(at: t0 + .milliseconds(550), idleRelease: idle, renewal: renewal)
            == AllowanceReport(spent: 0, requests: 0, released: 43)
        #expect(check7)
        #expect(allowance.isSettled)
    }

    @Test("A hold in use is renewed when nothing else is reported; release gives everything back at once")
    func renewalAndRelease() {
        var allowance = Allowance<Instant>()
        allowance.reserved(100, at: t0)
        let check8 = allowance.spend(1, at: t0)
        #expect(check8)
        let check9 = allowance.takeReport(at: t0, idleRelease: .seconds(60), renewal: renewal) == AllowanceReport(spent: 1, requests: 1, released: 0)
        #expect(check9)
        let check10 = allowance.spend(1, at: t0 + .seconds(9))
        #expect(check10)
        _ = allowance.takeReport(at: t0 + .seconds(9), idleRelease: .seconds(60), renewal: renewal)
        let check11 = allowance.takeReport(at: t0 + .seconds(18), idleRelease: .seconds(60), renewal: renewal) == nil
        #expect(check11)
        let check12 = allowance.takeReport(at: t0 + .seconds(19), idleRelease: .seconds(60), renewal: renewal)
            == AllowanceReport(spent: 0, requests: 0, released: 0)
        #expect(check12)
        let check13 = allowance.takeReport(at: t0 + .seconds(19), idleRelease: .seconds(60), renewal: renewal, release: true)
            == AllowanceReport(spent: 0, requests: 0, released: 98)
        #expect(check13)
        #expect(allowance.isSettled)
    }

    @Test("A failed report is owed again; a refund before the report goes back into the allowance; a forfeit keeps nothing")
    func restoreRefundForfeit() {
        var allowance = Allowance<Instant>()
        allowance.reserved(30, at: t0)
        let check14 = allowance.spend(10, at: t0) && allowance.spend(10, at: t0)
        #expect(check14)
        let check15 = allowance.refund(10) && allowance.unspent == 20 && allowance.spent == 10
        #expect(check15)
        let check16 = !allowance.refund(11)
        #expect(check16)
        let report = allowance.takeReport(at: t0, idleRelease: idle, renewal: renewal, release: true)!
        #expect(report == AllowanceReport(spent: 10, requests: 1, released: 20) && allowance.isSettled)
        allowance.restore(report)
        #expect(allowance.unspent == 20 && allowance.spent == 10 && allowance.requests == 1)
        // Reported and billed already: no longer refundable from the allowance.
        _ = allowance.takeReport(at: t0, idleRelease: idle, renewal: renewal)
        let check17 = !allowance.refund(10)
        #expect(check17)
        allowance.forfeit()
        let check18 = allowance.unspent == 0 && !allowance.spend(1, at: t0)
        #expect(check18)
    }

    @Test("A charge rate counts the busier of the last full second and the current one, and forgets after two")
    func rate() {
        var rate = ChargeRate<Instant>()
        for k in 0..<50 { rate.note(10, at: t0 + .milliseconds(k * 10)) }
        #expect(rate.charges(at: t0 + .milliseconds(900)) == 50)
        #expect(rate.charactersPerSecond(at: t0 + .milliseconds(900)) == 500)
        // The next second: the last one still counts.
        rate.note(10, at: t0 + .milliseconds(1_100))
        #expect(rate.charges(at: t0 + .milliseconds(1_500)) == 50)
        // Two seconds on, both windows are empty.
        #expect(rate.charges(at: t0 + .milliseconds(3_200)) == 0)
        rate.note(3, at: t0 + .milliseconds(3_300))
        #expect(rate.charges(at: t0 + .milliseconds(3_300)) == 1 && rate.charactersPerSecond(at: t0 + .milliseconds(3_300)) == 3)
    }
}
