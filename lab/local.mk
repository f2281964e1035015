# SPDX-License-Identifier: LGPL-2.1-or-later
# lab/: refault lab's driver (refault-lab), the host side it shares with the validation suite's
# lab (lib.sh), the guest's /init (init.sh) and the kernel configuration it builds with
# (lab.config): installed where `refault lab` finds them, $(pkglibexecdir) (cli/builtin-lab.c).
labdir = $(pkglibexecdir)
lab_SCRIPTS = lab/refault-lab
lab_DATA = lab/lib.sh lab/init.sh lab/lab.config lab/btf.config
EXTRA_DIST += $(lab_SCRIPTS) $(lab_DATA)
