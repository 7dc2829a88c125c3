import Foundation
import TranslationService

extension TranslationSession {
    /// Where a session's translations happen: in this process, or on a Glossa server.
    ///
    /// ```swift
    /// let remote = TranslationSession.Backend.server(URL(string: "http://127.0.0.1:8080")!)
    /// let local = TranslationSession.Backend.local(service)          // a TranslationService you built
    /// let lazy = TranslationSession.Backend.local(makeService: { try await buildService() })
    /// ```
    public struct Backend: Sendable {
        let transport: any SessionTransport
        let installer: any PackageInstaller

        /// The engines of this process, through a `TranslationService` you built.
        ///
        /// `prepareTranslation()` can install packages but this service keeps the pairs it read
        /// when it was made; use ``local(makeService:installer:maxConcurrent:)`` to have the
        /// service rebuilt after an installation.
        /// - Parameters:
        ///   - installer: installs missing Apertium packages. Default: ``AptInstaller``.
        ///   - maxConcurrent: texts of a streamed batch translated at once. Default: 8.
        public static func local(_ service: TranslationService, installer: any PackageInstaller = AptInstaller(),
                                 maxConcurrent: Int = 8) -> Backend {
            let holder = LocalServiceHolder(make: { service }, canRebuild: false)
            return Backend(transport: LocalTransport(holder: holder, maxConcurrent: maxConcurrent), installer: installer)
        }

        /// The engines of this process, through a `TranslationService` made by `makeService` on
        /// first use and made again after `prepareTranslation()` installed packages. Sessions
        /// made with the same `Backend` value share the service.
        public static func local(makeService: @escaping @Sendable () async throws -> TranslationService,
                                 installer: any PackageInstaller = AptInstaller(), maxConcurrent: Int = 8) -> Backend {
            let holder = LocalServiceHolder(make: makeService, canRebuild: true)
            return Backend(transport: LocalTransport(holder: holder, maxConcurrent: maxConcurrent), installer: installer)
        }

        /// A running Glossa server (`glossa serve`), e.g. `http://127.0.0.1:8080`. `apiKey` is sent
        /// as `X-Goog-Api-Key` when the server requires keys.
        public static func server(_ url: URL, apiKey: String? = nil) -> Backend {
            Backend(transport: ServerTransport(baseURL: url, apiKey: apiKey), installer: AptInstaller())
        }

        /// The backend for ``LanguageAvailability/init()`` and ``TranslationSession/init(installedSource:target:)``,
        /// which take none (as Apple's): the server at `GLOSSA_URL`, else `http://127.0.0.1:8080`,
        /// with the key in `GLOSSA_API_KEY`.
        public static var `default`: Backend {
            let environment = ProcessInfo.processInfo.environment
            let url = environment["GLOSSA_URL"].flatMap(URL.init(string:)) ?? URL(string: "http://127.0.0.1:8080")!
            return .server(url, apiKey: environment["GLOSSA_API_KEY"])
        }
    }
}
