#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""TAP lines for one case of the validation suite: every gated row of `refault validate
--json` must be within the tolerance tests/validate/tolerances gives that case and quantity
(5 % when it names none), with the slack validate reports (pages cached before the trace).

usage: check-tolerance.py CASE VALIDATE.json TOLERANCES FIRST_TEST_NUMBER
prints TAP lines (no plan) and exits 0, or 1 when a line is "not ok"."""
import json
import sys


def tolerances(path, case):
    tol = {}
    with open(path) as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if len(words) >= 3 and words[0] in (case, '*'):
                extra = int(words[3]) if len(words) > 3 else 0
                tol.setdefault(words[1], (float(words[2].rstrip('%')) / 100.0, extra))
    return tol


def main():
    case, path, tolpath, first = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    with open(path) as f:
        v = json.load(f)
    tol = tolerances(tolpath, case)
    n, failed = first, 0
    for r in v['rows']:
        if not r['gated']:
            continue
        t, extra = tol.get(r['quantity'], (0.05, 0))
        slack = r['slack_pages'] + extra
        k, m = r['kernel'], r['model']
        ok = abs(m - k) <= t * k + slack
        err = 'inf' if r['error_pct'] is None else '%+.1f%%' % r['error_pct']
        scope = r['scope'].rsplit('/', 1)[-1]
        print('%s %d - %s %s %s: kernel %d model %d (%s), tolerance %.0f%% + %d pages'
              % ('ok' if ok else 'not ok', n, case, scope, r['quantity'], k, m, err,
                 t * 100, slack))
        failed |= not ok
        n += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
