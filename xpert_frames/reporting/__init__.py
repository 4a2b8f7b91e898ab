"""Reports over scored tables: group-by reports with intervals (:mod:`.report`), their mergeable
steps (:mod:`.steps`), interval statistics (:mod:`.intervals`) and the bootstrap
(:mod:`.bootstrap`), paired model comparison (:mod:`.compare`) and output formats
(:mod:`.render`). Works on evaluator instances; finding evaluators by name is the registry's
job."""
