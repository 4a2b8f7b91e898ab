"""The shared core every layer builds on: the data contract (:mod:`.frames`), errors
(:mod:`.exceptions`), typing aliases (:mod:`.aliases`), option checks (:mod:`.options`), text
expressions (:mod:`.text`) and the metric declarations evaluators give reports
(:mod:`.metrics`). It imports nothing else of the package."""
