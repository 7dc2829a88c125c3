import TranslationCore

/// What it takes to translate `source → target`: nothing (installed), some packages (directly
/// or through a pivot whose legs are installed or packaged), or it cannot be had.
enum InstallPlan: Sendable, Equatable {
    /// Translatable now.
    case installed
    /// Translatable once these packages are installed.
    case packages([String])
    /// No package brings it.
    case unavailable

    /// Pivots tried, in the service's order of preference.
    static let pivots: [LanguageCode] = ["en", "es", "ca", "fr"]

    /// Works out the plan: installed if the transport can translate it; else one package for a
    /// direct pair; else the missing legs of the first pivot that works.
    static func make(from source: LanguageCode, to target: LanguageCode, catalogue: PairCatalogue,
                     isInstalled: (LanguageCode, LanguageCode) async throws -> Bool) async throws -> InstallPlan {
        if try await isInstalled(source, target) { return .installed }
        if let package = catalogue.package(from: source, to: target) { return .packages([package]) }
        for pivot in pivots where pivot.language != source.language && pivot.language != target.language {
            var needed: [String] = []
            var possible = true
            for (s, t) in [(source, pivot), (pivot, target)] where possible {
                if try await isInstalled(s, t) { continue }
                if let package = catalogue.package(from: s, to: t) { needed.append(package) } else { possible = false }
            }
            if possible { return .packages(needed) }
        }
        return .unavailable
    }
}
