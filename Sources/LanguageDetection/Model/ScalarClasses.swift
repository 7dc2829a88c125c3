/// The Unicode properties the detector asks of every scalar it reads (is it a word scalar, does
/// it change when lower-cased, is it white space, is it numeric), precomputed for the Basic
/// Multilingual Plane from the standard library's own answers.
///
/// `Unicode.Scalar.Properties` looks each property up in compressed tables; on short text those
/// lookups cost as much as the detection itself, and each scalar is asked three times (input
/// filter, script census, tokeniser). The table is built from the very same properties at first
/// use (65,536 entries, 64 KiB, a few milliseconds), so a read gives exactly the answer the
/// property would: scalars outside the plane (rare in text) still ask the property.
enum ScalarClasses {
    static let word: UInt8 = 1, lowercases: UInt8 = 2, whitespace: UInt8 = 4, numeric: UInt8 = 8

    /// The classes of a scalar: ``word`` | ``lowercases`` | ``whitespace`` | ``numeric``.
    @inline(__always) static func of(_ scalar: Unicode.Scalar) -> UInt8 {
        scalar.value < 0x10000 ? basicPlane[Int(scalar.value)] : computed(scalar)
    }

    private static let basicPlane: [UInt8] = (0..<UInt32(0x10000)).map { value in
        Unicode.Scalar(value).map(computed) ?? 0
    }

    /// The classes asked of the properties themselves.
    static func computed(_ scalar: Unicode.Scalar) -> UInt8 {
        let properties = scalar.properties
        var classes: UInt8 = 0
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .enclosingMark:
            classes |= word
        default:
            break
        }
        if properties.changesWhenLowercased { classes |= lowercases }
        if properties.isWhitespace { classes |= whitespace }
        if properties.numericType != nil { classes |= numeric }
        return classes
    }
}
