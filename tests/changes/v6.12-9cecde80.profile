# 9cecde80aae0 ("mm: increase folio batch size") reverted: LRU batches of 15 folios
name v6.12-9cecde80
base v6.12
description v6.12 with 9cecde80aae0 reverted: PAGEVEC_SIZE 15, not 31
limit.recorded = 32M
swappiness = 60
pagevec_size = 15
