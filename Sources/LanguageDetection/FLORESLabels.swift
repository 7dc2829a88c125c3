/// The FLORES-200 file stems the short-text model is trained on, with the BCP-47 code the
/// detector reports for each. Shared by the profile generator (tests/tools/detector-profiles)
/// and the accuracy report, so both read the data the same way.
enum FLORESLabels {
    /// `<ISO 639-3>_<script>` → BCP-47. Bokmål is `nb` (CLD2's "no"), Chinese carries its script.
    static let codes: [String: String] = [
        "afr_Latn": "af", "arb_Arab": "ar", "ast_Latn": "ast", "bos_Latn": "bs", "bul_Cyrl": "bg",
        "cat_Latn": "ca", "dan_Latn": "da", "deu_Latn": "de", "ell_Grek": "el", "eng_Latn": "en",
        "epo_Latn": "eo", "eus_Latn": "eu", "fra_Latn": "fr", "glg_Latn": "gl", "hin_Deva": "hi",
        "hrv_Latn": "hr", "ind_Latn": "id", "isl_Latn": "is", "ita_Latn": "it", "jpn_Jpan": "ja",
        "kor_Hang": "ko", "mkd_Cyrl": "mk", "nld_Latn": "nl", "nno_Latn": "nn", "nob_Latn": "nb",
        "oci_Latn": "oc", "por_Latn": "pt", "rus_Cyrl": "ru", "spa_Latn": "es", "srp_Cyrl": "sr",
        "swe_Latn": "sv", "ukr_Cyrl": "uk", "zho_Hans": "zh-Hans", "zho_Hant": "zh-Hant",
        "zsm_Latn": "ms",
    ]
    /// Lines of each file used for training; the rest (197 of 997) are held out for evaluation.
    static let trainingLines = 800
}
