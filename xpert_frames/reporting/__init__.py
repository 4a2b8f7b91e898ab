"""Reports over scored tables: group-by reports with intervals (:mod:`.report`), their mergeable
steps (:mod:`.steps`), interval statistics (:mod:`.intervals`) and the bootstrap
(:mod:`.bootstrap`), paired model comparison (:mod:`.compare`) and output formats
(:mod:`.render`; the HTML page in :mod:`.html_page` with its charts in :mod:`.svg`). Works on
evaluator instances; finding evaluators by name is the registry's job."""
