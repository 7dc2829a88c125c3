import CCrypto

/// API keys as callers hold them: `glossa_` and 43 characters of URL-safe base64 (32 random
/// bytes, 256 bits), so a key can travel in a query string (`key=`, `api_key=`) unescaped.
/// The store keeps only the key's SHA-256: a key is random and long, so a fast hash cannot be
/// inverted by guessing, and checking it costs microseconds on every request.
public enum KeySecret {
    /// What every key starts with (it also lets secret scanners recognise a leaked key).
    public static let prefix = "glossa_"
    /// Characters after the prefix.
    static let bodyLength = 43
    /// The whole key's length.
    public static let length = prefix.count + bodyLength

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// A new random key, from the system's cryptographic random source (`getrandom`).
    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + base64URL(bytes)
    }

    /// A random identifier for a key's record (`k_` and 16 hex digits): it names the key in lists,
    /// logs and commands, and reveals nothing of the key.
    public static func newIdentifier() -> String {
        var generator = SystemRandomNumberGenerator()
        return "k_" + hex((0..<8).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// Whether `text` has a key's shape; a caller's credential that does not is refused without
    /// a database lookup.
    public static func isWellFormed(_ text: String) -> Bool {
        let utf8 = text.utf8
        return utf8.count == length && text.hasPrefix(prefix) && utf8.dropFirst(prefix.count).allSatisfy { inAlphabet[Int($0)] }
    }

    /// Per byte value, whether it is one of ``alphabet``'s: derived from the encoder's table, so
    /// the check and the encoder cannot disagree, and one load per byte on every request.
    private static let inAlphabet: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in alphabet { table[Int(byte)] = true }
        return table
    }()

    /// The SHA-256 of `key` in lower-case hex: what the store keeps and looks keys up by.
    public static func hash(_ key: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let bytes = Array(key.utf8)
        let ok = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 fails only when out of memory; an empty digest then matches no key.
        guard ok == 1 else { return "" }
        return hex(digest.prefix(Int(length)))
    }

    /// The first characters of `key` (`glossa_Ab3d`), kept in the clear so an operator can tell
    /// keys apart in a list; 4 of the key's 43 random characters, leaving 232 bits unknown.
    public static func hint(_ key: String) -> String { String(key.prefix(prefix.count + 4)) }

    private static func base64URL(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        var i = 0
        while i + 3 <= bytes.count {
            let n = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [18, 12, 6, 0].map { alphabet[Int(n >> $0 & 63)] }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            let n = UInt32(bytes[i]) << 16 | (rest > 1 ? UInt32(bytes[i + 1]) << 8 : 0)
            out += [18, 12, 6].prefix(rest + 1).map { alphabet[Int(n >> $0 & 63)] }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)

/// The bytes as lower-case hex, two digits each (built as bytes: every keyed request hashes its
/// key, and a String per byte was most of that cost).
private func hex(_ bytes: some Collection<UInt8>) -> String {
    let digits = hexDigits
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 2)
    for byte in bytes {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 15)])
    }
    return String(decoding: out, as: UTF8.self)
}
