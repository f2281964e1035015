# memory.max 24M
name v6.12-24M
base v6.12
description v6.12, memory.max 24M, vm.swappiness 60
limit.recorded = 24M
swappiness = 60
