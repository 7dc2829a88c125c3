import Testing
@testable import ServerAPI

/// APy's `markUnknown=no` strip, checked against what Python's `re.sub(r'[*]([^.,;:\t\* ]+)',
/// r'\1', text)` (APy's `unknown_mark_re`) gives for each input.
@Suite struct APyUnknownMarksTests {
    @Test(arguments: [
        ("Hola *Zorblax", "Hola Zorblax"), ("*a*b", "ab"), ("**x", "*x"), ("* x", "* x"), ("*.", "*."),
        ("end *", "end *"), ("*Stanford#-universitets", "Stanford#-universitets"), ("x*y z", "xy z"),
        ("*\u{e9}t\u{e9} *caf\u{301}e", "\u{e9}t\u{e9} caf\u{301}e"), ("tab*\tx", "tab*\tx"),
        ("*a,*b;*c:*d", "a,b;c:d"), ("a **b* c", "a *b* c"), ("@On #ponedjeljak *x", "@On #ponedjeljak x"),
    ])
    func stripsAsAPysPatternDoes(input: String, expected: String) {
        #expect(APyUnknownMarks.strip(input) == expected)
    }
}
