#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""The "Changes" table of docs/fidelity.md, and its gate, from a `refault lab run` of
tests/changes/changes.spec: for each change (a side against the first) and workload, every
counter the kernel moved beyond its noise, the kernel's %change beside the models' from either
side's recordings, and whether they agree (refault compare --change: the same sign, 0.75 to 1.33
times the kernel's, or within 2 points where the kernel's is under 5 %).  The noise is twofold:
LKP's rules over a side's runs (refault compare), which are one boot's; and how far two boots of
one kernel differ, which the spec measures with sides that boot the base kernel again ("side
again1", no options, the base's profile).  A change no more than twice the largest difference
those sides show on the same counter and workload, or of 64 pages or fewer (refault validate's
floor), is shown, marked "~", and not judged.  A judged change is one boot of each side, so its
size is known only to that difference: a model change that misses the kernel's by the 0.75 to 1.33
rule but meets it with either side's mean moved by the difference (the kernel's change from
(B - d) / (A + d) to (B + d) / (A - d)) agrees "within the boots' spread", and is counted apart.

usage: changes-table.py SPEC OUT KNOWN [--markdown FILE]
OUT is refault lab run's output folder (change-SIDE-WORKLOAD.json); KNOWN the disagreements
known and explained, a line each: SIDE WORKLOAD METRIC FROM (base or side; any word may be '*'),
then '#' and why; the first line that matches a row is its cause.  Prints TAP (no plan): a line
per model change where the kernel moved, "not ok ... # TODO WHY" for a known disagreement; a
known line no row met is said on a "#" line.  Exit status 1 when a disagreement is not known."""
import json
import os
import sys


# A change must be more than this many times the largest difference the base-again sides
# showed: two sides are two samples of how far the means of two boots fall apart.
BOOTS = 2
# ... and more than this many pages (or events): refault validate's floor
FLOOR = 64


def spec_lines(path):
    sides, workloads, profiles, bare = [], [], {}, set()
    with open(path) as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            if words[0] == 'side':
                sides.append(words[1])
                if len(words) == 2:
                    bare.add(words[1])
            elif words[0] == 'workload':
                workloads.append(words[1])
            elif words[0] == 'profile':
                profiles[words[1]] = words[2]
    # A side with no option of its own and the base's profile is the base kernel booted again:
    # its "change" is how far two boots of one kernel differ.
    same = [x for x in sides[1:] if x in bare and profiles.get(x) == profiles.get(sides[0])]
    return sides, workloads, profiles, same


def known_lines(path):
    """[(pattern, why)]: SIDE WORKLOAD METRIC FROM, each a word or '*', then '# why'."""
    known = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            text, _, why = line.partition('#')
            words = text.split()
            if not words:
                continue
            if len(words) != 4 or words[3] not in ('base', 'side', '*') or not why.strip():
                sys.exit('%s:%d: SIDE WORKLOAD METRIC base|side|* # why (a word may be *)'
                         % (path, n))
            known.append((tuple(words), why.strip()))
    return known


def known_match(known, key):
    """The first known line matching @key, or None."""
    for i, (pat, _) in enumerate(known):
        if all(p == '*' or p == k for p, k in zip(pat, key)):
            return i
    return None


def boots_interval(k, d):
    """(lo, hi): the kernel's %change with either side's mean @d pages off, or None where @d
    says nothing (no spread, a base within it)."""
    a, b = k['a'], k['b']
    if d <= 0 or a <= 0:
        return None
    lo = 100.0 * ((b - d) / (a + d) - 1)
    hi = 100.0 * ((b + d) / (a - d) - 1) if a > d else float('inf')
    return lo, hi


def within_boots(k, m, d):
    """The model change @m meets the 0.75 to 1.33 rule against some kernel change the boots'
    spread @d allows: the interval, or None.  A judged change moved by more than twice @d, so
    the interval never holds 0: it has the kernel's sign throughout."""
    iv = boots_interval(k, d)
    if iv is None or m is None or m['change_percent'] is None:
        return None
    lo, hi = iv
    mc = m['change_percent']
    if lo > 0 and 0.75 * lo <= mc <= 1.33 * hi:
        return iv
    if hi < 0 and 1.33 * lo <= mc <= 0.75 * hi:
        return iv
    return None


def pct(c):
    """A cell's change: +N.N%, or "0 -> N" from a zero base, "0" for none."""
    if c is None:
        return 'not modelled'
    if c['change_percent'] is not None:
        return '%+.1f%%' % c['change_percent']
    return '0' if c['b'] == c['a'] else '0 -> %.0f' % c['b']


def noise(k):
    a, b = k.get('stddev_percent_a'), k.get('stddev_percent_b')
    return '±%.0f/%.0f%%' % (a or 0, b or 0)


def main():
    args = sys.argv[1:]
    md = None
    if '--markdown' in args:
        i = args.index('--markdown')
        md = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        sys.exit(__doc__)
    spec, out, known_path = args
    sides, workloads, profiles, same = spec_lines(spec)
    known = known_lines(known_path)
    # the between-boot spread: the largest difference of the means a base-again side shows, per
    # workload and counter (in pages or events, so that a change from 0 has one too)
    spread = {}
    for side in same:
        for w in workloads:
            with open(os.path.join(out, 'change-%s-%s.json' % (side, w))) as f:
                for r in json.load(f)['rows']:
                    k = (w, r['metric'])
                    spread[k] = max(spread.get(k, 0.0), abs(r['kernel']['b'] - r['kernel']['a']))
    used = set()
    n = failed = agreed = judged = by_boots = 0
    lines = []
    summary = {}
    for side in sides[1:]:
        lines.append('')
        lines.append('#### %s -> %s (profiles %s -> %s)' % (
            sides[0], side, os.path.basename(profiles[sides[0]]),
            os.path.basename(profiles[side])))
        lines.append('')
        lines.append('| workload | counter | kernel | %stddev A/B | model, A\'s runs | ok? '
                     '| model, B\'s runs | ok? | cause |')
        lines.append('|---|---|---:|---:|---:|---|---:|---|---|')
        tally = summary.setdefault(side, [0, 0, 0, 0, 0])
        for w in workloads:
            path = os.path.join(out, 'change-%s-%s.json' % (side, w))
            with open(path) as f:
                rows = json.load(f)['rows']
            moved = [r for r in rows if r['kernel']['moved']]
            # the model moved, the kernel did not: a change predicted that did not happen
            for r in rows:
                if r['kernel']['moved'] or side in same:
                    continue
                for key in ('model_from_a', 'model_from_b'):
                    m = r[key]
                    if m and abs(m['b'] - m['a']) > FLOOR and (m['change_percent'] is None or
                                                             abs(m['change_percent']) > 5):
                        summary.setdefault(side, [0, 0, 0, 0, 0])[3] += 1
                        lines.append('| %s | %s | %s | %s | %s | | %s | | the model moved, '
                                     'the kernel did not |' % (
                                         w, r['metric'].replace('memcg.recorded.', ''),
                                         pct(r['kernel']), noise(r['kernel']),
                                         pct(r['model_from_a']), pct(r['model_from_b'])))
                        break
            if side in same:
                # the spread itself: shown, nothing judged
                for r in moved:
                    lines.append('| %s | %s | %s | %s | (the same kernel) | | | | |' % (
                        w, r['metric'].replace('memcg.recorded.', ''),
                        pct(r['kernel']), noise(r['kernel'])))
                if not moved:
                    lines.append('| %s | (no counter moved beyond one boot\'s noise) | | | | | | | |'
                                 % w)
                continue
            if not moved:
                lines.append('| %s | (the kernel moved no counter beyond its noise) | | | | | | | |'
                             % w)
            for r in moved:
                metric = r['metric'].replace('memcg.recorded.', '')
                delta = abs(r['kernel']['b'] - r['kernel']['a'])
                if delta <= FLOOR or delta <= BOOTS * spread.get((w, r['metric']), 0.0):
                    lines.append('| %s | %s | %s~ | %s | %s | | %s | | not judged |' % (
                        w, metric, pct(r['kernel']), noise(r['kernel']),
                        pct(r['model_from_a']), pct(r['model_from_b'])))
                    continue
                cells = []
                why = set()
                for frm, key in (('base', 'a'), ('side', 'b')):
                    ok = r['agree_from_' + key]
                    m = r['model_from_' + key]
                    if m is None:
                        ok = None	# a counter the model does not keep: not judged
                    boots = None
                    if ok is False:
                        boots = within_boots(r['kernel'], m, spread.get((w, r['metric']), 0.0))
                    cells.append(pct(m))
                    cells.append('-' if ok is None else 'yes' if ok else
                                 'yes, boots' if boots else '**no**')
                    if ok is None:
                        continue
                    n += 1
                    judged += 1
                    k = known_match(known, (side, w, metric, frm))
                    what = '%s %s %s, from %s\'s runs: kernel %s, model %s' % (
                        side, w, metric, frm, pct(r['kernel']), cells[-2])
                    tally[0] += 1
                    if ok or boots:
                        agreed += 1
                        tally[1] += 1
                        if boots:
                            by_boots += 1
                            tally[4] += 1
                            what += (' (within the boots\' spread: the kernel\'s %+.1f%% to %s '
                                     'with either mean %.0f off)' % (
                                         boots[0], '%+.1f%%' % boots[1]
                                         if boots[1] != float('inf') else 'any',
                                         spread[(w, r['metric'])]))
                        print('ok %d - %s' % (n, what))
                    elif k is not None:
                        used.add(k)
                        tally[2] += 1
                        why.add(known[k][1])
                        print('not ok %d - %s # TODO %s' % (n, what, known[k][1]))
                    else:
                        why.add('**not known**')
                        failed += 1
                        print('not ok %d - %s' % (n, what))
                lines.append('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (
                    w, metric, pct(r['kernel']), noise(r['kernel']), *cells, '; '.join(sorted(why))))
    for i, (pat, why) in enumerate(known):
        if i not in used and pat[0] in sides + ['*'] and pat[1] in workloads + ['*']:
            print('# a known disagreement no row met: %s (%s)' % (' '.join(pat), why))
    total = ('%d of %d model changes agree with the kernel\'s, where it moved beyond its noise'
             % (agreed, judged))
    if by_boots:
        total += ' (%d of them only within the boots\' spread)' % by_boots
    print('# ' + total)
    if md:
        head = ['| change | model changes judged | agree | of them within the boots\' spread '
                '| known disagreements | counters the model moved, the kernel not |',
                '|---|---:|---:|---:|---:|---:|']
        for side in sides[1:]:
            if side not in same:
                t = summary.get(side, [0, 0, 0, 0, 0])
                head.append('| %s | %d | %d | %d | %d | %d |' % (side, t[0], t[1], t[4], t[2], t[3]))
        with open(md, 'w') as f:
            f.write(total + '.\n\n' + '\n'.join(head) + '\n' + '\n'.join(lines) + '\n')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
