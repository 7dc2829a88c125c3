/// The generator's marking option in a mode's command.
///
/// A mode marks unknown words through `$1`, which the caller sets to `-g` (marks) or `-n` (none),
/// as `/usr/bin/apertium` does for its `-u`. A few of Debian's modes (afr-nld, nld-afr and the
/// mkd-hbs variants) write `lt-proc -g` on their generator instead, so no option reaches it and
/// even `apertium -u` marks every unknown word with `*`: the protocols that never mark would show
/// Apertium's marks. Such a generator gets `$1` in place of its `-g`, so these modes mark exactly
/// when every other mode does.
enum GeneratorOption {
    /// `command` (stages separated by `|`) with `$1` on its `lt-proc -g` stages when it has no
    /// `$1` anywhere; unchanged otherwise.
    static func exposed(in command: String) -> String {
        guard !command.contains("$1") else { return command }
        let stages = command.split(separator: "|", omittingEmptySubsequences: false).map { stage -> String in
            let words = stage.split(separator: " ", omittingEmptySubsequences: false)
            // Only lt-proc's -g is generation (apertium-tagger's -g is its tagging mode).
            guard let tool = words.first(where: { !$0.isEmpty }), tool == "lt-proc",
                  let flag = words.firstIndex(of: "-g") else { return String(stage) }
            var changed = words
            changed[flag] = "$1"
            return changed.joined(separator: " ")
        }
        return stages.joined(separator: "|")
    }
}
