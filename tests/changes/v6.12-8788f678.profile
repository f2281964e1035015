# 8788f6781486 ("mm: add vma_has_recency()") reverted in part: a VM_RAND_READ mapping's
# young PTEs count again (VM_SEQ_READ's never did)
name v6.12-8788f678
base v6.12
description v6.12 with vma_has_recency() ignoring VM_SEQ_READ mappings only (8788f6781486 reverted)
limit.recorded = 32M
swappiness = 60
rand_no_recency = off
