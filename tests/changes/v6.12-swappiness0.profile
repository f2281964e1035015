# vm.swappiness 0
name v6.12-swappiness0
base v6.12
description v6.12, memory.max 32M, vm.swappiness 0
limit.recorded = 32M
swappiness = 0
