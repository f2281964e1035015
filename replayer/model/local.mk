# SPDX-License-Identifier: LGPL-2.1-or-later
# replayer/model/: librefault-model, the Linux reclaim model (docs/model.md), installed with
# include/refault/model.h and refault-model.pc.  Only the functions marked RF_API (the rf_model_*
# of model.h) are exported; the kernel-named internals stay inside.
lib_LTLIBRARIES += librefault-model.la
librefault_model_la_SOURCES = \
	replayer/model/model-local.h \
	replayer/model/config.h \
	replayer/model/filemap.h \
	replayer/model/lru.h \
	replayer/model/lru_gen.h \
	replayer/model/memcg.h \
	replayer/model/mm.h \
	replayer/model/page_alloc.h \
	replayer/model/pagecache.h \
	replayer/model/profile.h \
	replayer/model/readahead.h \
	replayer/model/swap.h \
	replayer/model/vmscan.h \
	replayer/model/vmstat.h \
	replayer/model/workingset.h \
	replayer/model/writeback.h \
	replayer/model/config.c \
	replayer/model/profiles.c \
	replayer/model/profile_file.c \
	replayer/model/pagecache.c \
	replayer/model/readpos.c \
	replayer/model/lruvec.c \
	replayer/model/pagevec.c \
	replayer/model/memcg.c \
	replayer/model/memcg-stats.c \
	replayer/model/swap.c \
	replayer/model/workingset.c \
	replayer/model/writeback.c \
	replayer/model/lru_gen.c \
	replayer/model/lru_gen_evict.c \
	replayer/model/lru_gen_walk.c \
	replayer/model/vmscan.c \
	replayer/model/vmstat.c \
	replayer/model/page_alloc.c \
	replayer/model/huge_memory.c \
	replayer/model/filemap.c \
	replayer/model/readahead.c \
	replayer/model/memory.c \
	replayer/model/mmap.c \
	replayer/model/madvise.c \
	replayer/model/damon.c \
	replayer/model/idle.c \
	replayer/model/truncate.c \
	replayer/model/fadvise.c \
	replayer/model/fork.c \
	replayer/model/model.c
librefault_model_la_LIBADD = librefault-trace.la $(RF_UTIL)
librefault_model_la_LDFLAGS = -version-info 0:0:0
refaultinclude_HEADERS += include/refault/model.h
MODEL_LIBS = librefault-model.la librefault-trace.la $(RF_UTIL)
