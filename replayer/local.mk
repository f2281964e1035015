# replayer/local.mk
# --- the Linux reclaim model (issue 3): keep these lines together, first ---
noinst_LTLIBRARIES += librefault-model.la
librefault_model_la_SOURCES = \
	replayer/model/internal.h \
	replayer/model/config.c \
	replayer/model/profiles.c \
	replayer/model/pagecache.c \
	replayer/model/readpos.c \
	replayer/model/lruvec.c \
	replayer/model/pagevec.c \
	replayer/model/memcg.c \
	replayer/model/memcg-stats.c \
	replayer/model/swap.c \
	replayer/model/workingset.c \
	replayer/model/vmscan.c \
	replayer/model/vmstat.c \
	replayer/model/model.c
# Not installed: the model libraries are internal for now; only librefault-trace is public.
noinst_HEADERS += include/refault/model.h

MODEL_TEST_LDADD = librefault-model.la
model_tests = \
	tests/model/test-model-rules \
	tests/model/test-model-config \
	tests/model/test-model-robust \
	tests/model/test-model-folios
check_PROGRAMS += $(model_tests)
TESTS += $(model_tests)
tests_model_test_model_rules_SOURCES = tests/model/test-model-rules.c tests/model/model-helpers.h
tests_model_test_model_rules_LDADD = $(MODEL_TEST_LDADD)
tests_model_test_model_config_SOURCES = tests/model/test-model-config.c
tests_model_test_model_config_LDADD = $(MODEL_TEST_LDADD)
tests_model_test_model_robust_SOURCES = tests/model/test-model-robust.c tests/model/model-helpers.h
tests_model_test_model_robust_LDADD = $(MODEL_TEST_LDADD)
tests_model_test_model_folios_SOURCES = tests/model/test-model-folios.c tests/model/model-helpers.h
tests_model_test_model_folios_LDADD = $(MODEL_TEST_LDADD)
# --- end of the model part ---
include replayer/engine/local.mk
include replayer/refpolicy/local.mk
include replayer/validate/local.mk
include replayer/report/local.mk
