import Foundation

/// An IPv4 or IPv6 address as bytes (IPv4-mapped IPv6 addresses as the IPv4 address they map).
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 or 16 bytes.
    public let bytes: [UInt8]

    /// Parses a numeric address (`192.0.2.1`, `2001:db8::1`, `[::1]`); nil when it is not one.
    public init?(_ text: some StringProtocol) {
        var s = String(text).trimmingCharacters(in: .whitespaces)
        if s.hasPrefix("["), s.hasSuffix("]") { s = String(s.dropFirst().dropLast()) }
        // A zone (fe80::1%eth0) names an interface, not a different host.
        if let percent = s.firstIndex(of: "%") { s = String(s[..<percent]) }
        guard !s.isEmpty, s.utf8.count <= 45 else { return nil }
        var v4 = in_addr()
        if inet_pton(AF_INET, s, &v4) == 1 {
            bytes = withUnsafeBytes(of: v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, s, &v6) == 1 else { return nil }
        let raw = withUnsafeBytes(of: v6) { Array($0) }
        bytes = raw.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] ? Array(raw.suffix(4)) : raw
    }

    public var description: String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        var v6 = in6_addr()
        withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        inet_ntop(AF_INET6, &v6, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Addresses and networks (`127.0.0.1`, `10.0.0.0/8`, `::1`, `fd00::/8`) whose requests may say
/// who the client is with `X-Forwarded-For`: the reverse proxies in front of Glossa. Nothing is
/// trusted by default, so a client cannot choose the address its rate limit is counted under.
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        let address: [UInt8]
        let prefixLength: Int

        func contains(_ ip: IPAddress) -> Bool {
            guard ip.bytes.count == address.count else { return false }
            var left = prefixLength
            for (a, b) in zip(ip.bytes, address) where left > 0 {
                let mask: UInt8 = left >= 8 ? 0xff : ~(0xff >> UInt8(left))
                if a & mask != b & mask { return false }
                left -= 8
            }
            return true
        }
    }

    let networks: [Network]

    /// No proxy is trusted.
    public static let none = TrustedProxies(networks: [])

    init(networks: [Network]) { self.networks = networks }

    /// Parses a list of addresses and networks, separated by commas or spaces.
    /// - Throws: ``AccessConfigurationError`` naming the entry that is not an address or network.
    public init(parsing text: String) throws {
        var networks: [Network] = []
        for entry in text.split(whereSeparator: { $0 == "," || $0 == " " }) {
            let parts = entry.split(separator: "/", maxSplits: 1)
            guard let ip = IPAddress(parts[0]) else {
                throw AccessConfigurationError("'\(entry)' is not an IP address or network (127.0.0.1, 10.0.0.0/8, ::1)")
            }
            let width = ip.bytes.count * 8
            var length = width
            if parts.count == 2 {
                guard let n = Int(parts[1]), (0...width).contains(n) else {
                    throw AccessConfigurationError("'\(entry)': the prefix length must be 0...\(width)")
                }
                // An IPv4-mapped network (::ffff:10.0.0.0/104) is counted in the IPv4 address's bits.
                length = ip.bytes.count == 4 && parts[0].contains(":") ? max(0, n - 96) : n
            }
            networks.append(Network(address: ip.bytes, prefixLength: length))
        }
        self.networks = networks
    }

    /// Whether `ip` is one of the trusted proxies.
    public func contains(_ ip: IPAddress) -> Bool { networks.contains { $0.contains(ip) } }

    /// Whether any proxy is trusted.
    public var isEmpty: Bool { networks.isEmpty }

    /// The client's address for a request from `peer` (the TCP peer) carrying `forwardedFor`
    /// (every `X-Forwarded-For` value, in order). From a trusted peer, the header is read from
    /// the right — each proxy appends the address it received from — past the trusted proxies,
    /// to the first address that is not one: that is the nearest hop no trusted proxy vouches
    /// beyond. Entries further left were written by the client and are ignored; so is the whole
    /// header from an untrusted peer. An entry that is not an address stops the walk at the hop
    /// that wrote it. Nil when the peer is unknown.
    public func client(peer: String?, forwardedFor: [String]) -> IPAddress? {
        guard let peer, let peerAddress = IPAddress(peer) else { return nil }
        guard contains(peerAddress) else { return peerAddress }
        var client = peerAddress
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() {
            guard let address = IPAddress(hop) else { break }
            client = address
            guard contains(address) else { break }
        }
        return client
    }
}

/// A setting that cannot be used (a bad address, mode or number), with what is wrong.
public struct AccessConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
