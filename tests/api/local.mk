# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/api/: what the installed libraries offer: exported symbols = documented API; and, with
# `make check-install` (serial: it runs `make install`, whose relinking would race the other
# tests of a parallel `make check`), a program built against an install with pkg-config alone.
TESTS += tests/api/test-exports.sh
# The house's arrows: every include points down docs/architecture.md's table; no library or fuzz
# target links a cli/ file.
TESTS += tests/api/test-arrows.sh
EXTRA_DIST += tests/api/test-exports.sh tests/api/test-arrows.sh tests/api/test-pkgconfig.sh
check-install: all
	$(MAKE) $(AM_MAKEFLAGS) check TESTS=tests/api/test-pkgconfig.sh
.PHONY: check-install
