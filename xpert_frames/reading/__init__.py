"""Reading the answer out of a model's output: the one package that does it.

Every reader builds its patterns from :mod:`.vocabulary` (every marker, Chinese and English,
defined once) and runs one rule table per answer kind; to read a new way of stating an answer,
add a rule to the table of its kind:

- :mod:`.choice_rules` (option letters; read by :mod:`.choice`),
- :mod:`.text_rules` (text, true/false and label spans; read by :mod:`.text` and :mod:`.labels`),
- :mod:`.numbers.rules` (numbers; read by :mod:`.numbers.parse`).

Shared spans: the final box (:mod:`.boxes`) and the last sentence (:mod:`.spans`); each rule
runs only on the rows that can match it (:mod:`.subsets`).
"""
