import GlossaWire
import TranslationCore

/// Glossa's error reasons mapped onto Apple's causes, in one place for both backends: the
/// server's wire string (``StreamErrorReason``) and, for the local backend, the service's error
/// kind through the same reason, so both backends raise the same error for the same failure.
extension TranslationError {
    /// The Apple-named error for a reason read off the wire, keeping the server's message.
    static func from(reason: StreamErrorReason, message: String) -> TranslationError {
        let base: TranslationError
        switch reason {
        case .unsupportedSourceLanguage: base = .unsupportedSourceLanguage
        case .unsupportedTargetLanguage: base = .unsupportedTargetLanguage
        case .unsupportedPair: base = .unsupportedLanguagePairing
        case .unableToIdentifyLanguage: base = .unableToIdentifyLanguage
        case .notInstalled: base = .notInstalled
        case .cancelled: base = .alreadyCancelled
        // Languages are Locale.Language values by the time they reach a backend, so an invalid
        // code can only come from a server that does not know a language: unsupported.
        case .invalidLanguage: base = .unsupportedLanguagePairing
        // Everything else (limits, engine failures, refusals, reasons newer than this SDK).
        default: base = .internalError
        }
        return base.with(message)
    }

    /// The Apple-named error for a Glossa error.
    static func from(_ error: TranslationCore.TranslationError) -> TranslationError {
        from(reason: StreamErrorReason(error.kind), message: error.message)
    }
}
