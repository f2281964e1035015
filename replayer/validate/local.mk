# SPDX-License-Identifier: LGPL-2.1-or-later
# refault validate (issue 8): the model against the kernel it claims to model.
noinst_LTLIBRARIES += librefault-validate.la
librefault_validate_la_SOURCES = \
	replayer/validate/validate.h replayer/validate/vmap.c replayer/validate/kernel.c \
	replayer/validate/modelside.c replayer/validate/run.c replayer/validate/rows.c \
	replayer/validate/output.c replayer/validate/warm.c
librefault_validate_la_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
librefault_validate_la_LIBADD = $(JSONC_LIBS) -lm

refault_SOURCES += replayer/validate/builtin-validate.c
REFAULT_VERB_LIBS += librefault-validate.la librefault-model.la

# The validation suite (tests/validate/): workloads recorded for real where root, tracefs
# and the v1 memory hierarchy exist (skipped with the reason elsewhere), and the verb
# on the bundled recording.  tests/validate/fidelity.sh regenerates docs/fidelity.md.
check_PROGRAMS += tests/validate/vworkload
tests_validate_vworkload_SOURCES = tests/validate/vworkload.c
TESTS += tests/validate/test-validate-cli.sh tests/validate/test-validate.sh
EXTRA_DIST += tests/validate/cases.sh tests/validate/check-tolerance.py \
	tests/validate/tolerances tests/validate/fidelity.sh \
	tests/validate/test-validate-cli.sh tests/validate/test-validate.sh
check_PROGRAMS += tests/validate/test-validate-kernel
tests_validate_test_validate_kernel_SOURCES = tests/validate/test-validate-kernel.c
tests_validate_test_validate_kernel_LDADD = librefault-validate.la librefault-model.la \
	librefault-trace.la $(JSONC_LIBS) -lm
TESTS += tests/validate/test-validate-kernel
# Pages cached before the trace: pre-loaded outside the recorded cgroup (warm.c).
check_PROGRAMS += tests/validate/test-validate-warm
tests_validate_test_validate_warm_SOURCES = tests/validate/test-validate-warm.c
tests_validate_test_validate_warm_LDADD = librefault-validate.la librefault-model.la \
	librefault-trace.la $(JSONC_LIBS) -lm
TESTS += tests/validate/test-validate-warm
