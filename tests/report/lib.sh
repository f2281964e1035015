# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the refault report tests: TAP, python3 to read the JSON, and readers of the report's JSON.
. "$top_srcdir/tests/lib/tap.sh"
[ -n "${PYTHON3:-}" ] || PYTHON3=python3
command -v "$PYTHON3" > /dev/null 2>&1 || { skip_all "no python3 to read the JSON"; exit 0; }

# jget FILE EXPR: a value of the report's JSON (j), as Python prints it
jget() { "$PYTHON3" -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }
# row FILE KEY SOURCE: that row's counts "refaults misses evictions activations"
row() {
	"$PYTHON3" -c "
import json, sys
j = json.load(open(sys.argv[1]))
r = [x for x in j['rows'] if x['key'] == sys.argv[2]]
print(' '.join(str(r[0][sys.argv[3]][m]) for m in ('refaults', 'misses', 'evictions', 'activations')) if r else 'none')" "$1" "$2" "$3"
}
