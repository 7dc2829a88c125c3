import Testing
@testable import ServerAPI

/// APy's stream patterns match code points: a combining mark right after `$` or `/` belongs to the
/// text after it, as in Python, even though Swift makes one Character of the two.
@Suite struct APyStreamTests {
    @Test func aCombiningMarkAfterTheUnitsEndStaysOutsideIt() {
        // Urdu غالباً: the analyser leaves the tanwin (U+064B) after the unit.
        let stream = "^غالبا/غالبا<adv>$\u{64B} ^ایک/ایک<num>$"
        let units = APyStream.unitsWithTrailing(stream)
        #expect(units.map(\.unit) == ["غالبا/غالبا<adv>", "ایک/ایک<num>"])
        #expect(units.map(\.after) == ["\u{64B} ", ""])
        #expect(APyStream.writtenUnits(stream) == ["^غالبا/غالبا<adv>$\u{64B} ", "^ایک/ایک<num>$"])
    }

    @Test func fieldsAndTagsSplitByCodePoint() {
        #expect(APyStream.fields("a/\u{301}b/c") == ["a", "\u{301}b", "c"])
        #expect(APyStream.stripTags("e\u{301}<\u{301}n>") == "e\u{301}")
        #expect(APyStream.units("^x$^y$ z") == ["x", "y"])
    }

    @Test func theDeformattersDotIsDroppedAsAPyDropsIt() {
        let units = ["house/house<n>", "./.<sent>"]
        #expect(APyStream.removingDeformatterDot("house", units) { $0 } == ["house/house<n>"])
        #expect(APyStream.removingDeformatterDot("house.", units) { $0 } == units)
        #expect(APyStream.removingDeformatterDot("", units) { $0 } == units)
    }
}
