-- BM25's b went from 0.75 to 0.5 (index/bm25): postings_impact orders each
-- term's postings by the saturation the search bounds scores with, so it is
-- rebuilt with the new constants (topk.go, impactSQL). With the old order
-- the bound no longer held and a query read whole posting lists.
DROP INDEX postings_impact;
CREATE INDEX postings_impact ON postings (term, (tf / (tf + 0.6::real + 0.015::real * dl)) DESC) INCLUDE (rid, tf, dl);
