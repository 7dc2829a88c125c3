/// The routes of DeepL's glossaries (v2 and v3) and v3 language lists.
enum DeepLGlossaryEndpoints {
    static func make(_ glossaries: DeepLGlossaryStore) -> [Endpoint] {
        let v2 = DeepLGlossariesV2(glossaries: glossaries)
        let v3 = DeepLGlossariesV3(glossaries: glossaries)
        let languages = DeepLLanguagesV3(glossaries: glossaries)
        let id = ParameterDoc("glossary_id", inPath: true, "The glossary's id.")
        let entries = [ParameterDoc("entries", "POST: the entries, one per line, in entries_format."),
                       ParameterDoc("entries_format", "tsv (default: source<TAB>target) or csv (source,target[,source_lang,target_lang]).")]
        let pair = [ParameterDoc("source_lang", required: true, "The dictionary's source language."),
                    ParameterDoc("target_lang", required: true, "The dictionary's target language.")]
        let v3Body = "A JSON body: {\"name\", \"dictionaries\": [{\"source_lang\", \"target_lang\", \"entries\", \"entries_format\"}]}."
        return [
            Endpoint("deepl_glossaries", ["GET", "POST"], "/v2/glossaries", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL: make a glossary (POST) or list this key's glossaries (GET)",
                description: "Glossaries live in the key store's database, shared by every replica, and belong to the key that made them where keys are checked. A term of the glossary found in a text (whole words; as written, or capitalised at a sentence start) is translated as its target term.",
                parameters: [ParameterDoc("name", "POST: the glossary's name."), ParameterDoc("source_lang", "POST: the source language."),
                             ParameterDoc("target_lang", "POST: the target language.")] + entries,
                success: "POST: 201 {\"glossary_id\", \"name\", \"ready\", \"source_lang\", \"target_lang\", \"creation_time\", \"entry_count\"}; GET: {\"glossaries\": [...]}.", schema: "deepl.GlossaryList",
                responses: [(201, "POST: the glossary made.")], responseSchemas: [201: "deepl.Glossary"])) { request in
                request.http.method == "POST" ? try await v2.create(request) : try await v2.list(request)
            },
            Endpoint("deepl_glossary", ["GET", "DELETE"], "/v2/glossaries/{glossary_id}", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL: read (GET) or delete (DELETE, 204) a glossary",
                parameters: [id], success: "The glossary; 404 {\"message\": \"Glossary not found\"} when this key has none such.", schema: "deepl.Glossary",
                responses: [(204, "DELETE: deleted; no body.")])) { request in
                request.http.method == "DELETE" ? try await v2.delete(request) : try await v2.get(request)
            },
            Endpoint("deepl_glossary_entries", ["GET"], "/v2/glossaries/{glossary_id}/entries", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL: a glossary's entries", parameters: [id],
                success: "The entries as TSV, one per line.", successType: "text/tab-separated-values")) { try await v2.entries($0) },
            Endpoint("deepl_glossary_language_pairs", ["GET"], "/v2/glossary-language-pairs", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL: the directions a glossary may have (those some route translates)",
                success: "{\"supported_languages\": [{\"source_lang\", \"target_lang\"}]}.", schema: "deepl.GlossaryLanguagePairs")) { try v2.languagePairs($0) },
            Endpoint("deepl_v3_glossaries", ["GET", "POST"], "/v3/glossaries", input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "DeepL v3: make a glossary with one dictionary per direction (POST) or list this key's glossaries (GET)",
                description: v3Body,
                success: "POST: 201 {\"glossary_id\", \"name\", \"dictionaries\": [{\"source_lang\", \"target_lang\", \"entry_count\"}], \"creation_time\"}; GET: {\"glossaries\": [...]}.", schema: "deepl.GlossaryListV3",
                responses: [(201, "POST: the glossary made.")], responseSchemas: [201: "deepl.GlossaryV3"])) { request in
                request.http.method == "POST" ? try await v3.create(request) : try await v3.list(request)
            },
            Endpoint("deepl_v3_glossary", ["GET", "PATCH", "DELETE"], "/v3/glossaries/{glossary_id}", input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "DeepL v3: read (GET), rename or merge entries into dictionaries (PATCH, a JSON body {\"name\"?, \"dictionaries\"?}), or delete (DELETE, 204) a glossary",
                parameters: [id], success: "The glossary; 404 when this key has none such.", schema: "deepl.GlossaryV3",
                responses: [(204, "DELETE: deleted; no body.")])) { try await v3.glossary($0) },
            Endpoint("deepl_v3_glossary_dictionaries", ["PUT", "DELETE"], "/v3/glossaries/{glossary_id}/dictionaries", input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "DeepL v3: replace or add one dictionary (PUT, a JSON body {\"source_lang\", \"target_lang\", \"entries\", \"entries_format\"}), or remove one (DELETE ?source_lang&target_lang, 204)",
                parameters: [id] + pair, success: "PUT: {\"source_lang\", \"target_lang\", \"entry_count\"}.", schema: "deepl.Dictionary",
                responses: [(204, "DELETE: removed; no body.")])) { try await v3.dictionaries($0) },
            Endpoint("deepl_v3_glossary_entries", ["GET"], "/v3/glossaries/{glossary_id}/entries", input: .queryAndOwnJSON, docs: EndpointDocs(
                summary: "DeepL v3: one dictionary's entries", parameters: [id] + pair,
                success: "{\"dictionaries\": [{\"source_lang\", \"target_lang\", \"entries\" (TSV), \"entries_format\": \"tsv\"}]}.", schema: "deepl.EntriesV3")) { try await v3.entries($0) },
            Endpoint("deepl_v3_languages", ["GET"], "/v3/languages", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL v3: the languages of a resource, with what each is usable as and its features",
                parameters: [ParameterDoc("resource", required: true, "translate_text, translate_document, glossary, voice, write or style_rules (the last three: no language here).")],
                success: "[{\"lang\", \"name\", \"usable_as_source\", \"usable_as_target\", \"status\", \"features\": {\"tag_handling\"?, \"glossary\"?, \"auto_detection\"?}}], sorted by lang.", schema: "deepl.LanguagesV3")) { try languages.languages($0) },
            Endpoint("deepl_v3_language_resources", ["GET"], "/v3/languages/resources", input: .queryFormOrJSON, docs: EndpointDocs(
                summary: "DeepL v3: the resources and their features",
                success: "[{\"name\", \"features\": [{\"name\", \"needs_source_support\"?, \"needs_target_support\"?}]}].", schema: "deepl.ResourcesV3")) { try languages.resourceList($0) },
        ]
    }
}
