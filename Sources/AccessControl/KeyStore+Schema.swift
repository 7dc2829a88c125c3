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
        // Glossaries (GlossaryStore.swift): owned by the key that made them (`owner` is the
        // key's SHA-256; empty where keys are not checked). Each has one dictionary per
        // direction, its entries as TSV (GlossaryEntries).
        Migrations.Migration(version: 3, [
            """
            CREATE TABLE glossa_glossaries (
                id TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                name TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX glossa_glossaries_owner ON glossa_glossaries (owner, created_at)",
            """
            CREATE TABLE glossa_glossary_dictionaries (
                glossary_id TEXT NOT NULL REFERENCES glossa_glossaries(id) ON DELETE CASCADE,
                source_lang TEXT NOT NULL,
                target_lang TEXT NOT NULL,
                entries TEXT NOT NULL,
                entry_count BIGINT NOT NULL,
                PRIMARY KEY (glossary_id, source_lang, target_lang)
            )
            """,
        ]),
        // Document jobs (DocumentJobTable.swift), so that a cluster's replicas find a document
        // another replica translates: DeepL's /v2/document/{id}, LibreTranslate's downloads.
        Migrations.Migration(version: 4, [
            """
            CREATE TABLE glossa_document_jobs (
                id TEXT PRIMARY KEY,
                secret TEXT NOT NULL,
                name TEXT NOT NULL,
                state TEXT NOT NULL,
                message TEXT,
                format TEXT,
                characters BIGINT,
                document BYTEA,
                started_at BIGINT NOT NULL,
                finished_at BIGINT
            )
            """,
        ]),
    ], lockKey: 0x676c_6f73_7361)  // "glossa"
}
