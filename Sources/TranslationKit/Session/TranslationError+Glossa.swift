import TranslationCore

/// Glossa's error kinds mapped onto Apple's causes, in one place for both backends.
extension TranslationError {
    /// The Apple-named error for a Glossa error kind (given by value or by its raw name, as the
    /// streaming endpoint sends it), keeping Glossa's message as the reason.
    static func from(kind: String, message: String) -> TranslationError {
        let base: TranslationError
        switch TranslationCore.TranslationError.Kind(rawValue: kind) {
        case .unsupportedSourceLanguage: base = .unsupportedSourceLanguage
        case .unsupportedTargetLanguage: base = .unsupportedTargetLanguage
        case .unsupportedPair: base = .unsupportedLanguagePairing
        case .unableToIdentifyLanguage: base = .unableToIdentifyLanguage
        case .notInstalled: base = .notInstalled
        case .cancelled: base = .alreadyCancelled
        // Languages are Locale.Language values by the time they reach a backend, so an invalid
        // code can only come from a server that does not know a language: unsupported.
        case .invalidLanguage: base = .unsupportedLanguagePairing
        case .invalidArgument, .invalidInput, .limitExceeded, .engineFailure, .timeout, nil: base = .internalError
        }
        return base.with(message)
    }

    /// The Apple-named error for a Glossa error.
    static func from(_ error: TranslationCore.TranslationError) -> TranslationError {
        from(kind: error.kind.rawValue, message: error.message)
    }
}
