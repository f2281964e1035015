# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/model/: the reclaim model through its public API (refault/model.h).
model_tests = \
	tests/model/test-model-rules \
	tests/model/test-model-config \
	tests/model/test-model-robust \
	tests/model/test-model-folios \
	tests/model/test-model-lru-gen \
	tests/model/test-model-damon \
	tests/model/test-model-idle \
	tests/model/test-model-writeback \
	tests/model/test-model-profile-file \
	tests/model/test-model-hints
check_PROGRAMS += $(model_tests)
TESTS += $(model_tests)
EXTRA_DIST += tests/model/model-helpers.h
tests_model_test_model_rules_SOURCES = tests/model/test-model-rules.c tests/model/model-helpers.h
tests_model_test_model_rules_LDADD = $(MODEL_LIBS)
tests_model_test_model_config_SOURCES = tests/model/test-model-config.c
tests_model_test_model_config_LDADD = $(MODEL_LIBS)
tests_model_test_model_robust_SOURCES = tests/model/test-model-robust.c tests/model/model-helpers.h
tests_model_test_model_robust_LDADD = $(MODEL_LIBS)
tests_model_test_model_folios_SOURCES = tests/model/test-model-folios.c tests/model/model-helpers.h
tests_model_test_model_folios_LDADD = $(MODEL_LIBS)
tests_model_test_model_lru_gen_SOURCES = tests/model/test-model-lru-gen.c tests/model/model-helpers.h
tests_model_test_model_lru_gen_LDADD = $(MODEL_LIBS)
tests_model_test_model_damon_SOURCES = tests/model/test-model-damon.c tests/model/model-helpers.h
tests_model_test_model_damon_LDADD = $(MODEL_LIBS)
tests_model_test_model_idle_SOURCES = tests/model/test-model-idle.c tests/model/model-helpers.h
tests_model_test_model_idle_LDADD = $(MODEL_LIBS)
tests_model_test_model_writeback_SOURCES = tests/model/test-model-writeback.c tests/model/model-helpers.h
tests_model_test_model_writeback_LDADD = $(MODEL_LIBS)
tests_model_test_model_profile_file_SOURCES = tests/model/test-model-profile-file.c tests/model/model-helpers.h
tests_model_test_model_profile_file_LDADD = $(MODEL_LIBS)
tests_model_test_model_hints_SOURCES = tests/model/test-model-hints.c tests/model/model-helpers.h
tests_model_test_model_hints_LDADD = $(MODEL_LIBS)
# A per-cgroup key's cgroup by its role: limit.recorded, named by rf_model_config_resolve_cgroups().
check_PROGRAMS += tests/model/test-model-cgroup-keys
TESTS += tests/model/test-model-cgroup-keys
tests_model_test_model_cgroup_keys_SOURCES = tests/model/test-model-cgroup-keys.c tests/model/model-helpers.h
tests_model_test_model_cgroup_keys_LDADD = $(MODEL_LIBS)
