# vm.swappiness 200
name v6.12-swappiness200
base v6.12
description v6.12, memory.max 32M, vm.swappiness 200
limit.recorded = 32M
swappiness = 200
