# the same kernel with the multi-gen LRU on (/sys/kernel/mm/lru_gen/enabled)
name v6.12-mglru-32M
base v6.12-mglru
description v6.12 with the multi-gen LRU, memory.max 32M, vm.swappiness 60
limit.recorded = 32M
swappiness = 60
