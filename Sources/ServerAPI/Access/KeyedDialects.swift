/// The dialects whose clients carry keys, by the names `--require-keys=…` and the config file
/// use. `ServerAPITests` checks the list against the mounted dialects' credential readers.
public enum KeyedDialects {
    /// Every dialect with a credential reader.
    public static let names = ["google_v2", "google_v3", "ajax_v1", "apy", "libretranslate", "deepl", "glossa"]

    /// The dialects a bare `--require-keys` covers: all but APy, which has no keys in APy itself
    /// (its clients send none), so it stays open unless named.
    public static let requiredByDefault = names.filter { $0 != "apy" }
}
