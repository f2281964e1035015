# refault lab's 6.12 (Debian's linux-source-6.12) under a 32 MiB memory.max, the base of
# tests/changes/changes.spec: each side's profile names the limit and swappiness its kernel ran
# with, as the other side's recordings carry their own.
name v6.12-32M
base v6.12
description v6.12, memory.max 32M, vm.swappiness 60
limit.recorded = 32M
swappiness = 60
