import SQLDatabase

extension KeyStore {
    /// The tables, each change a migration (never edit a released one: add the next). Names start
    /// with `glossa_` so the store can share a PostgreSQL database with other applications.
    static let schema = Migrations([
        Migrations.Migration(version: 1, [
            """
            CREATE TABLE glossa_keys (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                secret_sha256 TEXT NOT NULL UNIQUE,
                hint TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                revoked_at BIGINT,
                characters_per_month BIGINT,
                requests_per_minute BIGINT
            )
            """,
            // One row per key and month; `characters` only grows by `charge`, which refuses an
            // update that would pass the key's limit (see KeyStore.charge).
            """
            CREATE TABLE glossa_key_usage (
                key_id TEXT NOT NULL REFERENCES glossa_keys(id),
                period TEXT NOT NULL,
                characters BIGINT NOT NULL,
                requests BIGINT NOT NULL,
                PRIMARY KEY (key_id, period)
            )
            """,
        ]),
        // Holds: characters a process reserved to spend without a statement per request
        // (KeyStore+Holds.swift); they are in the usage row's characters, and the bill is that
        // less the holds.
        Migrations.Migration(version: 2, [
            """
            CREATE TABLE glossa_key_holds (
                key_id TEXT NOT NULL REFERENCES glossa_keys(id),
                period TEXT NOT NULL,
                holder TEXT NOT NULL,
                characters BIGINT NOT NULL,
                renewed_at BIGINT NOT NULL,
                PRIMARY KEY (key_id, period, holder)
            )
            """,
        ]),
    ], lockKey: 0x676c_6f73_7361)  // "glossa"
}
