"""Reading the answer out of a model's output: the one package that does it.

Where the answer is read, by kind (each reader runs one rule table, in priority order; the rule
that read an answer names it in the evaluators' ``*_rule`` columns):

=========================  ====================================  ==========================
answer kind                rule table                            reader
=========================  ====================================  ==========================
choice (option letters)    :data:`.choice_rules.CHOICE_RULES`    :mod:`.choice`
text                       :data:`.text_rules.TEXT_RULES`        :mod:`.text`, then
                                                                 :mod:`.core_answer`
label (one of the labels)  :data:`.text_rules.LABEL_RULES`       :mod:`.labels`
true/false                 :data:`.text_rules.JUDGE_RULES`       :mod:`.text`
number                     :data:`.numeric.rules.NUMBER_RULES`   :mod:`.numeric.parse`
=========================  ====================================  ==========================

To read a new way of stating an answer, add a :class:`.rules.Rule` (a name, a priority, a
pattern built from :mod:`.vocabulary`'s pieces with the answer in named groups) to the table of
its kind. Every marker (answer statements, conclusions, denials, guesses, box forms, "or"
connectives, in Chinese and English) is defined once, in :mod:`.vocabulary`.

Before any reader, for every kind (math included): :mod:`.markup` cuts invented continuations
after a first answer (``Q: …``, ``问题：…``, ``### Human:``), erases echoed format examples and
turns sentinels (``<eoa>``, ``</s>``) and bracket tags (``[答案]``, ``【类别】``) into an answer
statement. Whole-text steps of one kind: a choice answered by an option's content
(:mod:`.choice_content`), the answer after a conceding "but" (:mod:`.commitment`), a label
written with a variant (:mod:`.label_variants`), references in several clauses and undecided
conclusions (:mod:`.clauses`).

Shared spans: the final box (:mod:`.boxes`) and the last sentence (:mod:`.spans`); each rule
runs only on the rows that can match it (:mod:`.subsets`). The number reader's parts are in
:mod:`.numeric` (grammar, forms, values, Chinese numerals, scales, units, exact integer keys,
screens, the batch reader and the public functions).
"""
