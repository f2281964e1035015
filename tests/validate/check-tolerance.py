#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""TAP lines for one case of the validation suite: every gated row of `refault validate
--json` must be within the tolerance tests/validate/tolerances gives that case and quantity
(5 % when it names none), with the slack validate reports (pages cached before the trace).

usage: check-tolerance.py CASE VALIDATE.json TOLERANCES FIRST_TEST_NUMBER [CONFIG]
prints TAP lines (no plan) and exits 0, or 1 when a line is "not ok".

CONFIG names the kernel configuration of the kernel lab (tests/kernels/: 6.1-v1, 6.12-v2,
...): lines of TOLERANCES for CASE@CONFIG then come before CASE's, and CASE's before those
for "*" (every case).  A tolerance of "known"
marks a divergence documented beside it on that kernel: the row is held to the target and,
when out of it, printed "not ok ... # TODO" (TAP's known failure), which fails nothing."""
import json
import sys


def tolerances(path, case, config=None):
    """QUANTITY -> (fraction, extra pages, known): CASE@CONFIG's lines first, then CASE's."""
    tol = {}
    names = ['%s@%s' % (case, config)] if config else []
    names += [case, '*']
    with open(path) as f:
        lines = [line.split('#', 1)[0].split() for line in f]
    for name in names:
        for words in lines:
            if len(words) < 3 or words[0] != name:
                continue
            extra = int(words[3]) if len(words) > 3 else 0
            if words[2] == 'known':
                tol.setdefault(words[1], (0.05, extra, True))
            else:
                tol.setdefault(words[1], (float(words[2].rstrip('%')) / 100.0, extra, False))
    return tol


def main():
    case, path, tolpath, first = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    config = sys.argv[5] if len(sys.argv) > 5 else None
    with open(path) as f:
        v = json.load(f)
    tol = tolerances(tolpath, case, config)
    n, failed = first, 0
    for r in v['rows']:
        if not r['gated']:
            continue
        t, extra, known = tol.get(r['quantity'], (0.05, 0, False))
        slack = r['slack_pages'] + extra
        k, m = r['kernel'], r['model']
        ok = abs(m - k) <= t * k + slack
        err = 'inf' if r['error_pct'] is None else '%+.1f%%' % r['error_pct']
        scope = r['scope'].rsplit('/', 1)[-1]
        todo = ' # TODO known divergence on %s (tests/validate/tolerances)' % config \
            if known and not ok else ''
        # the multi-gen LRU's sequence numbers count generations
        unit = 'generations' if r['quantity'].startswith('lru_gen_') else 'pages'
        print('%s %d - %s %s %s: kernel %d model %d (%s), tolerance %.0f%% + %d %s%s'
              % ('ok' if ok else 'not ok', n, case, scope, r['quantity'], k, m, err,
                 t * 100, slack, unit, todo))
        failed |= not ok and not known
        n += 1
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
