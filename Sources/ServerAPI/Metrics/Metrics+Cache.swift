import TranslationService

extension Metrics {
    /// The translation cache's counts in the Prometheus text format (per replica: each process
    /// has its own cache).
    static func exposition(of cache: TranslationCacheStatistics) -> String {
        """
        # HELP glossa_translation_cache_hits_total Segments answered from the translation cache.
        # TYPE glossa_translation_cache_hits_total counter
        glossa_translation_cache_hits_total \(cache.hits)
        # HELP glossa_translation_cache_misses_total Segments the engines were asked for (the cache held none).
        # TYPE glossa_translation_cache_misses_total counter
        glossa_translation_cache_misses_total \(cache.misses)
        # HELP glossa_translation_cache_entries Segments held by the translation cache.
        # TYPE glossa_translation_cache_entries gauge
        glossa_translation_cache_entries \(cache.entries)
        # HELP glossa_translation_cache_bytes Bytes held by the translation cache, of at most glossa_translation_cache_capacity_bytes.
        # TYPE glossa_translation_cache_bytes gauge
        glossa_translation_cache_bytes \(cache.bytes)
        # HELP glossa_translation_cache_capacity_bytes The translation cache's bound (0: off; GLOSSA_TRANSLATION_CACHE_MB).
        # TYPE glossa_translation_cache_capacity_bytes gauge
        glossa_translation_cache_capacity_bytes \(cache.capacity)

        """
    }
}
