# A man page (roff, man macros) from a `glossa … --help` text on standard input.
# awk -v page=glossa-serve -v command="glossa serve" -v summary="run the HTTP service" \
#     -v version=0.1.0 -v date=2025-01-01 -v seealso="glossa(1)" -f manpage.awk
#
# The help texts share one layout, which this reads:
#   USAGE: first synopsis line          -> SYNOPSIS (continuation lines indented under it)
#   paragraphs up to the first heading  -> DESCRIPTION
#   a line `HEADING:` at column 0       -> a section (OPTIONS, ENVIRONMENT, Exit codes, ...)
# A paragraph (lines between blank lines) of unindented lines is filled; one with indented
# lines (option tables, examples) is kept as written. `code` is set in bold.

function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    return s
}

# Escapes a line and guards a leading control character (. or ').
function line_out(s) {
    s = esc(s)
    while (match(s, /`[^`]+`/)) {
        s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 1, RLENGTH - 2) "\\fR" substr(s, RSTART + RLENGTH)
    }
    if (s ~ /^[.']/) s = "\\&" s
    return s
}

function flush(    i, indented) {
    if (n == 0) return
    indented = 0
    for (i = 1; i <= n; i++) if (block[i] ~ /^[ \t]/) indented = 1
    if (in_usage) {
        print ".SH SYNOPSIS"
        print ".nf"
        for (i = 1; i <= n; i++) {
            s = block[i]
            if (i == 1) sub(/^USAGE: */, "", s); else sub(/^       /, "", s)
            print line_out(s)
        }
        print ".fi"
        in_usage = 0
    } else {
        if (!described && !in_section) { print ".SH DESCRIPTION"; described = 1 }
        print ".PP"
        if (indented) print ".nf"
        for (i = 1; i <= n; i++) print line_out(block[i])
        if (indented) print ".fi"
    }
    n = 0
}

BEGIN {
    upper = toupper(page)
    printf ".TH %s 1 \"%s\" \"glossa %s\" \"Glossa manual\"\n", esc(upper), date, version
    # Help texts are written to be read as they are: no hyphenation, ragged right.
    print ".nh"
    print ".ad l"
    print ".SH NAME"
    printf "%s \\- %s\n", esc(page), line_out(summary)
    n = 0; in_usage = 0; in_section = 0; described = 0
}

/^USAGE: / && NR == 1 { in_usage = 1 }

/^[A-Za-z][A-Za-z0-9 ()_-]*:$/ {
    flush()
    heading = substr($0, 1, length($0) - 1)
    printf ".SH %s\n", esc(toupper(heading))
    in_section = 1
    next
}

/^[ \t]*$/ { flush(); next }

{ block[++n] = $0 }

END {
    flush()
    if (seealso != "") {
        print ".SH SEE ALSO"
        print esc(seealso)
    }
}
