/// What ``TranslationSession/prepareTranslation(progress:)`` is doing, reported as it goes.
///
/// ```swift
/// try await session.prepareTranslation { step in
///     if case .output(let line) = step { print(line) }
/// }
/// ```
public enum PreparationProgress: Sendable, Equatable {
    /// Checking whether the pair is installed.
    case checking
    /// Nothing to do: the pair is installed.
    case alreadyInstalled
    /// About to install these Debian packages.
    case installing(packages: [String])
    /// One line of the package manager's output.
    case output(String)
    /// The packages are installed and the engines reloaded.
    case installed(packages: [String])
}
