"""The record every rule table of the package is made of (:class:`Rule`), and the table check.

A rule is a named way of stating an answer: its ``name`` is the value the evaluators write in
their ``*_rule`` columns, its ``priority`` says what wins when several rules find an answer
(lower first), its ``pattern`` is built from the named pieces of
:mod:`xpert_frames.reading.vocabulary` and holds the answer in the named ``groups``. One table
per answer kind: :data:`xpert_frames.reading.choice_rules.CHOICE_RULES`,
:data:`xpert_frames.reading.text_rules.TEXT_RULES` (text and label spans),
:data:`xpert_frames.reading.text_rules.JUDGE_RULES` (true/false spans) and
:data:`xpert_frames.reading.numeric.rules.NUMBER_RULES`.

To read a new way of stating an answer, add a :class:`Rule` to the table of its kind with the
priority it should have among the others.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Rule:
    """One way of stating an answer.

    Attributes
    ----------
    name : str
        The rule's name, written in the ``*_rule`` columns when it reads the answer.
    priority : int
        Rules run in increasing priority; the first one that reads an answer wins.
    pattern : str
        The regex (Rust ``regex`` syntax; a choice pattern may hold ``{END}``, see
        :func:`xpert_frames.reading.choice_rules.fill`). Empty for a rule that is a frame
        step rather than one regex (the number rules).
    groups : tuple of str
        The named groups of ``pattern`` that hold the answer (the first that matched counts).
    reads_marks : bool
        Whether the rule reads the text with its Markdown bold marks (the others read it
        without them).
    single_label : bool
        Whether the rule fires only when the text has at most one option label.
    single_match : bool
        Whether the rule fires only when its pattern matches once in the text (its evidence
        must be unique: one option marked correct in a list of verdicts).
    before_negations : bool
        Whether the rule reads the text before negated options are erased (a rule that reads
        a negation itself: the option declared wrong).
    trigger : str
        A cheap regex every match of ``pattern`` contains: only rows holding it are read by
        the rule (empty: every row).
    """

    name: str
    priority: int
    pattern: str = ""
    groups: tuple[str, ...] = ("s",)
    reads_marks: bool = False
    single_label: bool = False
    single_match: bool = False
    before_negations: bool = False
    trigger: str = ""


def rule_table(*rules: Rule) -> tuple[Rule, ...]:
    """The rules in priority order, checked: names and priorities are unique."""
    names = [r.name for r in rules]
    priorities = [r.priority for r in rules]
    if len(set(names)) != len(names):
        raise ValueError(f"rule names must be unique in a table, got {names}")
    if len(set(priorities)) != len(priorities):
        raise ValueError(f"rule priorities must be unique in a table, got {priorities}")
    return tuple(sorted(rules, key=lambda r: r.priority))
