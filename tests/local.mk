# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/: each part's tests register themselves in tests/<part>/local.mk.
EXTRA_DIST += tests/lib/tap.h tests/lib/tap.sh
include tests/lib/local.mk
include tests/api/local.mk
include tests/format/local.mk
include tests/fuzz/local.mk
include tests/record/local.mk
include tests/gen/local.mk
include tests/model/local.mk
include tests/observe/local.mk
include tests/hostile/local.mk
include tests/refpolicy/local.mk
include tests/replay/local.mk
include tests/validate/local.mk
include tests/kernels/local.mk
include tests/lab/local.mk
include tests/changes/local.mk
include tests/compare/local.mk
include tests/cli/local.mk
include tests/report/local.mk
include tests/sweep/local.mk
include tests/workload/local.mk
include tests/space/local.mk
include tests/bench/local.mk
