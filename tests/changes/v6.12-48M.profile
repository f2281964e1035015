# memory.max 48M
name v6.12-48M
base v6.12
description v6.12, memory.max 48M, vm.swappiness 60
limit.recorded = 48M
swappiness = 60
