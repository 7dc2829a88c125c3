/// What display names need beyond ICU's data: codes ICU files under another code, regions that
/// Apertium uses for a language's standards, and the variants Apertium's pairs write.
extension LanguageTables {
    /// Codes that ICU names under another code: Serbo-Croatian is `sh` there (localized in every
    /// display language ICU has), `hbs` nowhere.
    static let icuLanguage: [String: String] = ["hbs": "sh"]

    /// Regions that stand for a standard of the language, named after that standard's language:
    /// Apertium's `hbs_BS`, `hbs_HR`, `hbs_SR` are Bosnian, Croatian and Serbian, not the
    /// Bahamas, Croatia and Suriname.
    static let standards: [String: [String: String]] = ["hbs": ["BS": "bs", "HR": "hr", "SR": "sr"]]

    /// English names of variants that ICU does not know, as Apertium's pairs use them (the mode
    /// names under /usr/share/apertium/modes). One missing here is shown as its code.
    static let variantNames: [String: String] = [
        "aran": "Aranese",              // oc_aran, oci_aran: the Occitan of the Val d'Aran
        "gascon": "Gascon",             // oci_gascon
        "iec2017": "IEC 2017 spelling", // cat_iec2017: the Institut d'Estudis Catalans' 2017 norm
        "pre2017": "pre-2017 spelling", // cat_pre2017: the diacritics before that norm
        "pre1990": "pre-1990 spelling", // por_PTpre1990: before the 1990 Orthographic Agreement
        "e": "e-infinitives",           // nno_e: Nynorsk with infinitives in -e
    ]
}
