#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""make check-fidelity-space's TAP and summary: for each configuration, each seed recorded and
validated (refault validate --json, its own tolerance), its gated rows within or out, and the
rows out grouped by what their seeds drew.

usage: space-table.py --causes FILE --floors FILE --limit SIZE --seeds "S..."
                      [--markdown FILE] CONFIG=DIR...
DIR holds seed-S.describe.json (refault workload --describe=json), jobs.txt ("NAME STATUS
SECONDS ..." per recording: check-fidelity-space.sh's, or refault lab record's), seed-S.err,
seed-S.rft, seed-S.vst (validate's exit status) and seed-S.validate.json.

TAP (no plan): per seed "ok" when it was recorded and validated, "not ok" when not (a
failure); per gated row out of tolerance "not ok ... # TODO CAUSE", the cause the first line of
--causes that matches it (CONFIG FEATURE QUANTITY, each a word or '*', then '# why'; FEATURE is
one of the seed's drawn features, features() below), else "cause not found"; per
configuration "ok" when its share of gated rows within tolerance is at least its line of
--floors (CONFIG PERCENT # why), "not ok" below it.  Exit status 1 on any failure."""
import argparse
import json
import os
import sys


def features(d):
    """A seed's drawn features, the words --causes and the groups name."""
    s = d['summary']
    f = ['kind:' + k for k in s['kinds']]
    f += ['hint:' + h for h in s['hints']]
    for name in ('writes', 'anon', 'hot'):
        if s[name]:
            f.append(name)
    if d['swap']:
        f.append('swap')
    if s['cgroups'] == 'siblings':
        f.append('siblings')
    if s['tasks_max'] > 1:
        f.append('tasks>1')
    r = s['max_file_ratio']
    f.append('file>limit' if r > 1 else 'file<=limit')
    if r > 2:
        f.append('file>2limit')
    return f


def read_lines(path, nwords):
    """[(words, why)] of a file of NWORDS words then '# why' per line."""
    out = []
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            text, _, why = line.partition('#')
            words = text.split()
            if not words:
                continue
            if len(words) != nwords or not why.strip():
                sys.exit('%s:%d: %d words, then "# why"' % (path, n, nwords))
            out.append((words, why.strip()))
    return out


def jobs(d):
    """NAME -> (status, seconds) of DIR/jobs.txt (the last line of a name wins: a retry)."""
    j = {}
    try:
        with open(os.path.join(d, 'jobs.txt')) as fh:
            for line in fh:
                w = line.split()
                if len(w) >= 3:
                    j[w[0]] = (w[1], w[2])
    except OSError:
        pass
    return j


def load(path):
    try:
        with open(path) as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def tail(path, n=3):
    try:
        with open(path) as fh:
            return ' | '.join(x.strip() for x in fh.readlines()[-n:] if x.strip())
    except OSError:
        return ''


def pct(a, b):
    return 100.0 * a / b if b else 100.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--causes', required=True)
    ap.add_argument('--floors', required=True)
    ap.add_argument('--limit', required=True)
    ap.add_argument('--seeds', required=True)
    ap.add_argument('--markdown')
    ap.add_argument('dirs', nargs='+')
    a = ap.parse_args()
    causes = read_lines(a.causes, 3)
    floors = {w[0]: (float(w[1].rstrip('%')), why) for w, why in read_lines(a.floors, 2)}
    seeds = [int(s) for s in a.seeds.split()]
    n = failed = 0
    md = []
    summary = []
    for cd in a.dirs:
        config, _, d = cd.partition('=')
        j = jobs(d)
        gated = within = recorded = clean = 0
        seed_rows = []
        out_by_q = {}          # quantity -> set of seeds with a row of it out
        feats = {}
        used_cause = {}
        for s in seeds:
            desc = load(os.path.join(d, 'seed-%d.describe.json' % s))
            feats[s] = features(desc) if desc else []
            st, secs = j.get('seed-%d' % s, ('?', '?'))
            rft = os.path.join(d, 'seed-%d.rft' % s)
            what = '%s seed %d' % (config, s)
            n += 1
            if st != '0' or not os.path.exists(rft):
                failed += 1
                print('not ok %d - %s: recorded (exit %s; %s: %s)' % (
                    n, what, st, os.path.join(d, 'seed-%d.err' % s),
                    tail(os.path.join(d, 'seed-%d.err' % s))))
                seed_rows.append((s, desc, None, None, secs, 'not recorded (exit %s)' % st))
                continue
            recorded += 1
            try:
                with open(os.path.join(d, 'seed-%d.vst' % s)) as fh:
                    vst = fh.read().strip()
            except OSError:
                vst = '?'
            v = load(os.path.join(d, 'seed-%d.validate.json' % s))
            if vst not in ('0', '3') or v is None:
                failed += 1
                print('not ok %d - %s: validated (exit %s; %s)' % (
                    n, what, vst, tail(os.path.join(d, 'seed-%d.verr' % s))))
                seed_rows.append((s, desc, None, None, secs, 'validate exit %s' % vst))
                continue
            rows = [r for r in v['rows'] if r['gated']]
            ok_rows = [r for r in rows if r['within_tolerance']]
            gated += len(rows)
            within += len(ok_rows)
            lost = v.get('lost_events', 0)
            print('ok %d - %s: recorded in %s s, validated: %d of %d gated rows within '
                  'tolerance%s' % (n, what, secs, len(ok_rows), len(rows),
                                   ', %d kernel events lost' % lost if lost else ''))
            outq = []
            for r in rows:
                if r['within_tolerance']:
                    continue
                q = r['quantity']
                out_by_q.setdefault(q, set()).add(s)
                if q not in outq:
                    outq.append(q)
                why = 'cause not found'
                for i, (w, text) in enumerate(causes):
                    if (w[0] in ('*', config) and (w[1] == '*' or w[1] in feats[s]) and
                            w[2] in ('*', q)):
                        why = text
                        used_cause[i] = used_cause.get(i, 0) + 1
                        break
                err = 'inf' if r['error_pct'] is None else '%+.1f%%' % r['error_pct']
                n += 1
                print('not ok %d - %s %s %s: kernel %d model %d (%s) # TODO %s' % (
                    n, what, r['scope'].rsplit('/', 1)[-1], q, r['kernel'], r['model'], err,
                    why))
            if not outq:
                clean += 1
            seed_rows.append((s, desc, len(ok_rows), len(rows), secs, ', '.join(outq)))
        share = pct(within, gated)
        floor, fwhy = floors.get(config, (0.0, 'no floor'))
        n += 1
        good = share >= floor and recorded > 0
        if not good:
            failed += 1
        print('%s %d - %s: %.1f%% of gated rows within tolerance (%d of %d, %d of %d seeds '
              'recorded, %d with every row within), at least %.1f%% (%s)' % (
                  'ok' if good else 'not ok', n, config, share, within, gated, recorded,
                  len(seeds), clean, floor, fwhy))
        summary.append('| %s | %d | %d | %d of %d (%.1f %%) | %d |' % (
            config, len(seeds), recorded, within, gated, share, clean))
        # the groups: per quantity out, the drawn feature its seeds share most against the rest
        md.append('')
        md.append('#### %s' % config)
        md.append('')
        md.append('| seed | kinds | largest file / limit | tasks | cgroups | hot, hints | '
                  'gated rows within | rows out | seconds |')
        md.append('|---:|---|---:|---:|---|---|---|---|---:|')
        for s, desc, w_, g_, secs, outs in seed_rows:
            sm = desc['summary'] if desc else None
            md.append('| %d | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                s, ', '.join(sm['kinds']) if sm else '?',
                '%.2f' % sm['max_file_ratio'] if sm else '?',
                sm['tasks_max'] if sm else '?', sm['cgroups'] if sm else '?',
                ', '.join((['hot'] if sm and sm['hot'] else []) + (sm['hints'] if sm else []))
                or '-', '%d of %d' % (w_, g_) if g_ is not None else '-', outs or '-', secs))
        valid = [s for s, desc, w_, g_, _, _ in seed_rows if g_ is not None]
        if out_by_q:
            md.append('')
            md.append('| rows out | seeds | the feature they share most | its seeds out | '
                      'others with it out | cause |')
            md.append('|---|---:|---|---:|---:|---|')
        for q in sorted(out_by_q, key=lambda x: (-len(out_by_q[x]), x)):
            bad = out_by_q[q]
            best = None
            for f in sorted({f for s in valid for f in feats[s]}):
                with_f = [s for s in valid if f in feats[s]]
                hit = len([s for s in with_f if s in bad])
                rest = [s for s in valid if s not in with_f]
                miss = len([s for s in rest if s in bad])
                # the lift: how much likelier a seed with F has the row out than one without
                score = hit / len(with_f) - (miss / len(rest) if rest else 0)
                key = (score, hit)
                if best is None or key > best[0]:
                    best = (key, f, hit, len(with_f), miss, len(rest))
            _, f, hit, nwith, miss, nrest = best
            whys = set()
            for s in bad:
                for w, text in causes:
                    if (w[0] in ('*', config) and (w[1] == '*' or w[1] in feats[s]) and
                            w[2] in ('*', q)):
                        whys.add(text)
                        break
                else:
                    whys.add('cause not found')
            md.append('| %s | %d of %d | %s | %d of %d | %d of %d | %s |' % (
                q, len(bad), len(valid), f, hit, nwith, miss, nrest, '; '.join(sorted(whys))))
    if a.markdown:
        with open(a.markdown, 'w') as fh:
            fh.write('Seeds %s at `--limit %s`.\n\n' % (a.seeds, a.limit))
            fh.write('| configuration | seeds | recorded | gated rows within tolerance | '
                     'seeds with every row within |\n|---|---:|---:|---|---:|\n')
            fh.write('\n'.join(summary) + '\n' + '\n'.join(md) + '\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
