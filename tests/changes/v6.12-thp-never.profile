# /sys/kernel/mm/transparent_hugepage/enabled never (the base: madvise)
name v6.12-thp-never
base v6.12
description v6.12, memory.max 32M, vm.swappiness 60, no transparent huge pages
limit.recorded = 32M
swappiness = 60
thp = never
