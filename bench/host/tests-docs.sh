#!/bin/sh
# The README and docs/ name only what exists: a kernel developer who
# follows them must not hit a missing file, make target or results column.
#   - README.md has at most 250 lines and links every docs/*.md page;
#   - every relative markdown link of README.md and docs/*.md resolves;
#   - every `path` they name under the repository's own directories exists;
#   - every `make TARGET` (and `make -C DIR TARGET`) names a target of that
#     Makefile;
#   - docs/results.md's column lists of results.csv, ratios.csv and
#     absolute.csv name exactly the columns of the fixture runs' files.
# usage: tests-docs.sh TOP      prints PASS:/FAIL: lines and a summary
set -eu
top=$1
TEST_PREFIX="docs: "
# shellcheck source=bench/host/testlib.sh
. "$(dirname "$0")/testlib.sh"
cd "$top"
docs="README.md $(find docs -name '*.md' | sort | tr '\n' ' ')"

n=$(wc -l < README.md)
expect "README.md has at most 250 lines ($n)" test "$n" -le 250
for d in docs/*.md; do
	expect "README.md links $d" grep -qF "($d)" README.md
done

# Relative links: [text](path) or [text](path#anchor), from the file's directory.
bad=
for f in $docs; do
	dir=$(dirname "$f")
	# shellcheck disable=SC2013 # one link per word
	for l in $(grep -o '\](\([^)#]*\)[^)]*)' "$f" | sed 's/^](//; s/[#)].*$//' | grep -v '^[a-z]*:' | sort -u); do
		[ -e "$dir/$l" ] || bad="$bad $f:$l"
	done
done
expect "every relative link resolves${bad:+ (not found:$bad)}" test -z "$bad"

# `paths` under the repository's own directories (no placeholders).
bad=
for f in $docs; do
	# shellcheck disable=SC2016,SC2013 # backquotes, not expansions
	for p in $(grep -o '`[^` ]*`' "$f" | tr -d '`' |
		grep -E '^(bench|filters|results|plots|kernel-patches|docs|\.ci)/[A-Za-z0-9_./-]*$' |
		grep -v -E '^results/(latest|[0-9])' | sort -u); do
		# what make writes (git-ignored) is not in a clean clone
		[ -e "$p" ] || git check-ignore -q "$p" || bad="$bad $f:$p"
	done
done
expect "every named path exists${bad:+ (not found:$bad)}" test -z "$bad"

# make targets: the rule heads of the Makefile (and of -C DIR's), the
# per-flavour targets, and the .PHONY names.
targets() { # MAKEFILE
	sed -n 's/^\([a-zA-Z0-9_.-][a-zA-Z0-9_. -]*\):.*/\1/p' "$1" | tr ' ' '\n'
	# shellcheck disable=SC1003,SC2020 # a backslash (continuations) to newlines
	sed -n '/^\.PHONY:/,/[^\\]$/p' "$1" | tr ' \t\\' '\n\n\n' | grep -E '^[a-z][a-z0-9-]*$' || true
	if [ "$1" = Makefile ]; then
		# shellcheck disable=SC2013 # one flavour per word
		for fl in $(awk '$1 == "flavour" { print $2 }' bench/flavours.conf); do
			printf 'kernel-%s\nmodule-%s\ninitramfs-%s\n' "$fl" "$fl" "$fl"
		done
	fi
}
bad=
for f in $docs; do
	# every "make ..." inside backticks or on an indented code line
	# shellcheck disable=SC2016 # backquotes, not expansions
	{ grep -o '`make [^`]*`' "$f" | tr -d '`'; grep -E '^    +make ' "$f" | sed 's/^ *//; s/ *#.*$//'; } |
	while read -r line; do
		set -f
		# shellcheck disable=SC2086 # the words of the command
		set -- $line
		set +f
		shift
		mk=Makefile target=
		while [ $# -gt 0 ]; do
			case $1 in
			-C) mk=$2/Makefile; shift ;;
			-*) ;;
			*=*) ;;
			'&&' | ';' | '|') break ;;
			*) target=$1; break ;;
			esac
			shift
		done
		[ -n "$target" ] || continue
		targets "$mk" | grep -qx -- "$target" || echo "$f:make${mk#Makefile}:$target"
	done
done > "$tmp/badmake"
bad=$(tr '\n' ' ' < "$tmp/badmake")
expect "every make target named exists${bad:+ (not found: $bad)}" test -z "$bad"

# The column lists of docs/results.md against the fixture runs' headers.
for csv in results.csv ratios.csv absolute.csv; do
	awk -v f="$csv" '
		index($0, "- `" f "`:") == 1 { on = 1 }
		on && /^- `/ && index($0, "- `" f "`:") != 1 { on = 0 }
		on { s = $0; while (match(s, /`[a-z_][a-z0-9_]*`/)) { print substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH) } }
	' docs/results.md | grep -vx "$(echo "$csv" | sed 's/\./\\./')" | sort -u > "$tmp/doc-$csv"
	for h in results/fixtures/*/"$csv"; do head -n 1 "$h"; done | tr ',' '\n' | sort -u > "$tmp/fix-$csv"
	miss=$(comm -23 "$tmp/doc-$csv" "$tmp/fix-$csv" | tr '\n' ' ')
	undoc=$(comm -13 "$tmp/doc-$csv" "$tmp/fix-$csv" | tr '\n' ' ')
	expect "docs/results.md: every $csv column it names exists${miss:+ (not in any fixture: $miss)}" test -z "$miss"
	expect "docs/results.md: every $csv column of the fixtures is named${undoc:+ (not named: $undoc)}" test -z "$undoc"
done
test_summary
