"""String distances below the evaluators: normalized Levenshtein similarity on rapidfuzz's own
kernel (:mod:`xpert_frames.distance.levenshtein`), reached through the optional C extension or
its ``cpdist`` twin (:mod:`xpert_frames.distance.scorers`)."""
