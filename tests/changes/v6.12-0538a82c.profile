# 0538a82c39e9 ("mm: vmscan: make rotations a secondary factor in balancing anon vs
# file") reverted: lru_note_cost() charges the pages paged out and refaulted, not rotations
name v6.12-0538a82c
base v6.12
description v6.12 with 0538a82c39e9 reverted: get_scan_count()'s cost is IO alone
limit.recorded = 32M
swappiness = 60
balance = cost
