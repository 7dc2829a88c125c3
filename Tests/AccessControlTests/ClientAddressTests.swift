import AccessControl
import Testing

@Suite("The client address: X-Forwarded-For only from trusted proxies, read from the right")
struct ClientAddressTests {
    @Test("Addresses parse as IPv4 or IPv6; IPv4-mapped IPv6 is the IPv4 address")
    func addresses() {
        #expect(IPAddress("192.0.2.1")?.description == "192.0.2.1")
        #expect(IPAddress("[::1]")?.description == "::1")
        #expect(IPAddress("::ffff:10.1.2.3") == IPAddress("10.1.2.3"))
        #expect(IPAddress("2001:DB8::1")?.description == "2001:db8::1")
        for bad in ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "example.com", "1.2.3.4:80", "::g", String(repeating: "1", count: 100)] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
    }

    @Test("Networks and lists; a bad entry is named")
    func networks() throws {
        let trusted = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8 fd00::/8")
        #expect(trusted.contains(IPAddress("10.200.3.4")!))
        #expect(!trusted.contains(IPAddress("11.0.0.1")!))
        #expect(trusted.contains(IPAddress("fd12::7")!))
        #expect(!trusted.contains(IPAddress("fe80::1")!))
        #expect(trusted.contains(IPAddress("::ffff:127.0.0.1")!))
        #expect(try TrustedProxies(parsing: "0.0.0.0/0").contains(IPAddress("8.8.8.8")!))
        #expect(throws: AccessConfigurationError.self) { try TrustedProxies(parsing: "10.0.0.0/33") }
        #expect(throws: AccessConfigurationError.self) { try TrustedProxies(parsing: "localhost") }
    }

    @Test("Only a trusted peer's X-Forwarded-For counts; spoofed entries to the left are ignored")
    func forwardedFor() throws {
        let trusted = try TrustedProxies(parsing: "127.0.0.1,10.0.0.0/8")
        // Untrusted peer: the header is the client's own claim.
        #expect(trusted.client(peer: "203.0.113.9", forwardedFor: ["1.1.1.1"])?.description == "203.0.113.9")
        #expect(TrustedProxies.none.client(peer: "127.0.0.1", forwardedFor: ["1.1.1.1"])?.description == "127.0.0.1")
        // nginx on 127.0.0.1 appended the address it saw.
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: ["198.51.100.7"])?.description == "198.51.100.7")
        // The client wrote "1.1.1.1" itself; an inner proxy 10.0.0.5 appended the real one.
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: ["1.1.1.1, 198.51.100.7", "10.0.0.5"])?.description == "198.51.100.7")
        // Garbage stops the walk at the hop that wrote it.
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: ["nonsense, 10.0.0.5"])?.description == "10.0.0.5")
        #expect(trusted.client(peer: "127.0.0.1", forwardedFor: [])?.description == "127.0.0.1")
        #expect(trusted.client(peer: nil, forwardedFor: ["1.1.1.1"]) == nil)
    }
}
