# bench/registry.mk - make's reader of the registries (bench/*.conf): an
# unindented "TYPE NAME" line starts a record, its indented "KEY VALUE..."
# lines follow.  Included by bench/flavours.mk and bench/kernels.mk.
#
#   $(call rec,FILE,TYPE,NAME,KEY)  KEY of record "TYPE NAME" (empty if none)
#   $(call recs,FILE,TYPE)          the names of the records of TYPE, in order

rec = $(shell awk -v t='$(2)' -v n='$(3)' -v k='$(4)' '/^[^ \t\#]/ { r = ($$1 == t && $$2 == n); next } r && $$1 == k { $$1 = ""; sub(/^ +/, ""); print }' $(1))
recs = $(shell awk -v t='$(2)' '/^[^ \t\#]/ && $$1 == t { print $$2 }' $(1))
