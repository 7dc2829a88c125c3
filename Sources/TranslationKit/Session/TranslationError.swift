import Foundation

/// Why a translation failed, with the names Apple's `Translation` framework uses, so that
/// `catch TranslationError.unsupportedLanguagePairing { … }` reads the same on Linux.
///
/// ```swift
/// do {
///     _ = try await session.translate("Bonjour")
/// } catch TranslationError.unsupportedLanguagePairing {
///     print("No installed pair translates French into the target")
/// } catch let error as TranslationError {
///     print(error.failureReason ?? error.description)
/// }
/// ```
///
/// A struct over a private cause (as Apple's is), so Glossa can add causes without breaking
/// `switch`es. Two errors are equal when their causes are; ``failureReason`` says the details.
public struct TranslationError: Error, Sendable, Equatable, Hashable, CustomStringConvertible, LocalizedError {
    private enum Cause: String, Sendable {
        case unsupportedSourceLanguage, unsupportedTargetLanguage, unsupportedLanguagePairing
        case unableToIdentifyLanguage, nothingToTranslate, internalError, alreadyCancelled, notInstalled
    }

    private let cause: Cause
    /// What exactly went wrong and, where there is one, what to do about it (the command that
    /// installs a missing pair, the languages that are available).
    public let failureReason: String?

    private init(_ cause: Cause, _ reason: String?) {
        self.cause = cause
        self.failureReason = reason
    }

    /// No installed or installable pair translates from the source language.
    public static let unsupportedSourceLanguage = TranslationError(.unsupportedSourceLanguage, nil)
    /// No installed or installable pair translates into the target language.
    public static let unsupportedTargetLanguage = TranslationError(.unsupportedTargetLanguage, nil)
    /// Both languages are known but nothing joins them, or they are the same language.
    public static let unsupportedLanguagePairing = TranslationError(.unsupportedLanguagePairing, nil)
    /// The source language was not given and could not be identified from the text.
    public static let unableToIdentifyLanguage = TranslationError(.unableToIdentifyLanguage, nil)
    /// The request had no text to translate (empty string or empty batch).
    public static let nothingToTranslate = TranslationError(.nothingToTranslate, nil)
    /// Something failed inside Glossa: an engine, the server, the connection to it.
    public static let internalError = TranslationError(.internalError, nil)
    /// The session was cancelled (``TranslationSession/cancel()``) before or during the call.
    public static let alreadyCancelled = TranslationError(.alreadyCancelled, nil)
    /// The pair is ``LanguageAvailability/Status/supported`` but not installed yet: call
    /// ``TranslationSession/prepareTranslation()`` or run the command in ``failureReason``.
    public static let notInstalled = TranslationError(.notInstalled, nil)

    /// The same error with a reason attached.
    func with(_ reason: String) -> TranslationError { TranslationError(cause, reason) }

    /// A short name for the failure, then its reason.
    public var description: String {
        let name: String
        switch cause {
        case .unsupportedSourceLanguage: name = "The source language is not supported"
        case .unsupportedTargetLanguage: name = "The target language is not supported"
        case .unsupportedLanguagePairing: name = "The language pairing is not supported"
        case .unableToIdentifyLanguage: name = "Unable to identify the language"
        case .nothingToTranslate: name = "Nothing to translate"
        case .internalError: name = "Internal translation error"
        case .alreadyCancelled: name = "The translation session was cancelled"
        case .notInstalled: name = "The languages are not installed"
        }
        return failureReason.map { "\(name): \($0)" } ?? name
    }

    /// Same as ``description``, for `localizedDescription`.
    public var errorDescription: String? { description }

    public static func == (lhs: TranslationError, rhs: TranslationError) -> Bool { lhs.cause == rhs.cause }

    public func hash(into hasher: inout Hasher) { hasher.combine(cause) }

    /// Lets `catch TranslationError.notInstalled` match any error with that cause.
    public static func ~= (pattern: TranslationError, value: any Error) -> Bool {
        (value as? TranslationError).map { $0.cause == pattern.cause } ?? false
    }
}
