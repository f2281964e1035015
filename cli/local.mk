# SPDX-License-Identifier: LGPL-2.1-or-later
# cli/: the refault front command and every verb (builtin-<verb>.c); the `refault trace`
# subcommands' options in cli/trace/ (their work is librefault-tracetools', formats/tools/).
# The libraries below never include anything from here.
bin_PROGRAMS += refault
refault_SOURCES = cli/refault.c cli/builtin.h cli/util.c cli/util.h \
	cli/builtin-record.c cli/builtin-gen.c cli/builtin-replay.c cli/builtin-validate.c \
	cli/builtin-compare.c cli/builtin-trace.c cli/builtin-report.c cli/builtin-sweep.c \
	cli/builtin-lab.c cli/builtin-workload.c \
	cli/trace/trace-local.h cli/trace/common.c cli/trace/info.c cli/trace/dump.c \
	cli/trace/verify.c cli/trace/slice.c cli/trace/recover.c cli/trace/convert.c
refault_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(UNWIND_CFLAGS)
# refault lab's driver (lab/): the installed one, or the source tree's for a refault run from
# its build tree (cli/builtin-lab.c driver_dir())
refault_CPPFLAGS = $(AM_CPPFLAGS) -DRF_BINDIR='"$(bindir)"' \
	-DRF_LAB_LIBEXECDIR='"$(pkglibexecdir)"' -DRF_LAB_SRCDIR='"$(abs_top_srcdir)/lab"' 
refault_LDADD = librefault-workload.la librefault-tracetools.la librefault-sweep.la librefault-report.la librefault-validate.la librefault-compare.la librefault-gen.la $(REPLAY_LIBS) \
	$(RECORD_LIBS) $(RF_UTIL) $(JSONC_LIBS) $(UNWIND_LIBS) -lm
# bash completion, installed as "refault" where bash-completion looks (XDG_DATA_DIRS too, so a
# --prefix install is found with its share/ on that path).
bashcompletiondir = $(datadir)/bash-completion/completions
EXTRA_DIST += cli/refault.bash-completion
install-data-local: install-bash-completion
uninstall-local: uninstall-bash-completion
install-bash-completion:
	$(MKDIR_P) '$(DESTDIR)$(bashcompletiondir)'
	$(INSTALL_DATA) '$(srcdir)/cli/refault.bash-completion' '$(DESTDIR)$(bashcompletiondir)/refault'
uninstall-bash-completion:
	rm -f '$(DESTDIR)$(bashcompletiondir)/refault'
.PHONY: install-bash-completion uninstall-bash-completion
# The manual pages (docs/man/), one per verb; tests/cli/test-man.sh keeps their options and
# each verb's --help the same.
dist_man_MANS = docs/man/refault.1 docs/man/refault-record.1 docs/man/refault-replay.1 \
	docs/man/refault-compare.1 docs/man/refault-validate.1 docs/man/refault-report.1 \
	docs/man/refault-gen.1 docs/man/refault-sweep.1 \
	docs/man/refault-trace.1 docs/man/refault-lab.1 docs/man/refault-workload.1
