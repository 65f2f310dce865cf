#!/bin/sh
# Checks what `make install-files PREFIX=...` put under PREFIX, as a user would meet it:
# the binary runs, `man -l` renders the page with the exit statuses, and the bash
# completion offers the values of --features, --format and --sample-type.
set -eu
prefix=${1:?usage: check_install.sh PREFIX}
fail() { echo "install-check: $*" >&2; exit 1; }

"$prefix/bin/sonde" --version | grep -q '^sonde [0-9]' || fail "$prefix/bin/sonde --version"

page="$prefix/share/man/man1/sonde.1"
text=$(MANWIDTH=100 man -P cat -l "$page" 2>/dev/null) || fail "man -l $page failed"
for expected in 'SONDE(1)' 'sonde process' '--features' 'Exit status' '64   usage'; do
    printf '%s\n' "$text" | grep -qF -- "$expected" || fail "the man page lacks '$expected'"
done

bash_script="$prefix/share/bash-completion/completions/sonde"
# Completes the last word of "sonde WORDS..." the way bash does on TAB.
complete_words() {
    bash -c '
        . "$1"; shift
        COMP_WORDS=(sonde "$@"); COMP_CWORD=$#
        COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}
        _sonde sonde "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
        printf "%s\n" "${COMPREPLY[@]}"
    ' complete "$bash_script" "$@"
}
expect_completion() {
    expected=$1; shift
    complete_words "$@" | grep -qx -- "$expected" || fail "bash: 'sonde $*' does not offer '$expected'"
}
expect_completion kurtosis process --features ''
expect_completion spectral_flux process --features spec
expect_completion level_a stream --features le
expect_completion parquet process --format ''
expect_completion f32le process --sample-type ''
[ "$(complete_words process --features kurt)" = kurtosis ] || fail "bash: 'kurt' should complete to kurtosis alone"

# zsh and fish: the value list itself, not the help text that also names the features.
grep -q "___features=(.*'kurtosis'" "$prefix/share/zsh/site-functions/_sonde" \
    || fail "zsh completion lacks --features values"
grep "l 'features'" "$prefix/share/fish/vendor_completions.d/sonde.fish" | grep -q "a '[^']*kurtosis" \
    || fail "fish completion lacks --features values"
echo "install-check: binary, man page and completions under $prefix are usable"
