# c55e8d035b28 ("mm: vmscan: move dirty pages out of the way until they're flushed")
# reverted: a dirty file folio reclaim meets is kept on the inactive list, not activated
name v6.12-c55e8d03
base v6.12
description v6.12 with c55e8d035b28 reverted: dirty file folios kept inactive
limit.recorded = 32M
swappiness = 60
dirty_file_activate = off
