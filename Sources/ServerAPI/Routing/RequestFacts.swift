import Documents
import Synchronization

/// What one request costs, computed once and read by every layer: the key's charge
/// (``AccessMiddleware``), DeepL's `billed_characters` and `/v2/usage`, the handlers' report to
/// `/metrics`. Before, each counted for itself (code points here, grapheme clusters there), so a
/// text with combining marks was charged one figure and reported another.
///
/// A document a request uploads is opened here once (``document(_:)``): billing, detection's
/// sample and the translation read the same opening, where each read the bytes again before.
///
/// It also holds the way back: the access layer leaves here how to give the charge back, for
/// work that fails after its request was answered (a DeepL document translated in the
/// background), which ``refund()`` does once.
final class RequestFacts: Sendable {
    /// How the endpoint bills a request (nil: it does not).
    private let billing: (@Sendable (RoutedRequest) -> Int)?
    private let billed = Mutex<Result<Int, Never>?>(nil)
    private let refunder = Mutex<(@Sendable () async -> Void)?>(nil)
    private let opened = Mutex<Result<OpenedDocument, DocumentError>?>(nil)

    init(billing: (@Sendable (RoutedRequest) -> Int)?) {
        self.billing = billing
    }

    /// The code points `request` is billed (``Billing``), counted on first use only.
    func billedCharacters(of request: RoutedRequest) -> Int {
        // A document is parsed to count it: once, outside the lock (``computedOnce``).
        computedOnce(billed) { billing?(request) ?? 0 }
    }

    /// The request's document, opened by `open` on first use only (a request uploads at most
    /// one document); a document that cannot be read throws the same error every time.
    func document(_ open: () throws(DocumentError) -> OpenedDocument) throws(DocumentError) -> OpenedDocument {
        try computedOnce(opened, open)
    }

    /// Records how to give this request's charge back (the access layer, once it has charged).
    func onRefund(_ refund: @escaping @Sendable () async -> Void) {
        refunder.withLock { $0 = refund }
    }

    /// Gives the charge back, at most once; nothing when nothing was charged.
    func refund() async {
        // Taken out under the lock, so that a second call finds nothing to run.
        guard let refund = refunder.withLock({ value -> (@Sendable () async -> Void)? in
            defer { value = nil }
            return value
        }) else { return }
        await refund()
    }
}
