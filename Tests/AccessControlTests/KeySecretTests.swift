import AccessControl
import Foundation
import Testing

@Suite("Keys: random, URL-safe, stored as SHA-256; billing periods are UTC months")
struct KeySecretTests {
    @Test("Keys have one shape, never repeat, and only that shape is well-formed")
    func shape() {
        let keys = (0..<200).map { _ in KeySecret.generate() }
        #expect(Set(keys).count == keys.count)
        for key in keys {
            #expect(key.count == KeySecret.length && key.hasPrefix("glossa_") && KeySecret.isWellFormed(key))
            #expect(key.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) == key)
        }
        let key = keys[0]
        for bad in ["", key + "x", String(key.dropLast()), key.replacingOccurrences(of: "glossa_", with: "glosso_"),
                    String(key.dropLast()) + "=", String(key.dropLast()) + "é", "glossa_" + String(repeating: "\u{0}", count: 43)] {
            #expect(!KeySecret.isWellFormed(bad), "\(bad.debugDescription)")
        }
        // Exactly URL-safe base64's 64 characters are accepted after the prefix.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        for value in 0..<128 {
            let character = Character(Unicode.Scalar(UInt8(value)))
            #expect(KeySecret.isWellFormed(String(key.dropLast()) + String(character)) == alphabet.contains(character), "\(value)")
        }
        #expect(KeySecret.hint(key) == String(key.prefix(11)))
        #expect(KeySecret.newIdentifier().count == 18 && KeySecret.newIdentifier() != KeySecret.newIdentifier())
    }

    @Test("The stored hash is SHA-256 (the standard test vectors)")
    func hash() {
        #expect(KeySecret.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(KeySecret.hash("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("Periods are calendar months in UTC")
    func periods() throws {
        let november = BillingPeriod.containing(Date(timeIntervalSince1970: 1_764_547_199))  // 2025-11-30T23:59:59Z
        #expect(november.name == "2025-11")
        #expect(november.start == Date(timeIntervalSince1970: 1_761_955_200))
        #expect(november.end == Date(timeIntervalSince1970: 1_764_547_200))
        #expect(november.secondsLeft(from: Date(timeIntervalSince1970: 1_764_547_199)) == 1)
        #expect(BillingPeriod.named("2025-12")?.end == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(BillingPeriod.named("2025-13") == nil && BillingPeriod.named("25-1") == nil)
    }
}
