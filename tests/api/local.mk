# SPDX-License-Identifier: LGPL-2.1-or-later
# tests/api/: what the installed libraries offer: exported symbols = documented API.
TESTS += tests/api/test-exports.sh tests/api/test-pkgconfig.sh
EXTRA_DIST += tests/api/test-exports.sh tests/api/test-pkgconfig.sh
