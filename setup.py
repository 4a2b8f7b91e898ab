"""The compiled part of the package (C, no extra dependencies): the fuzzy evaluator's
Levenshtein kernel, the TCM evaluator's term matcher and the number reader's pattern screen.
Everything else is declared in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "xpert_frames.evaluators.fuzzy._levenshtein",
            sources=["xpert_frames/evaluators/fuzzy/_levenshtein.c"],
            depends=[
                "xpert_frames/core/_arrow_strings.h",
                "xpert_frames/evaluators/fuzzy/_levenshtein_distance.h",
            ],
            extra_compile_args=["-O3", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
            optional=False,  # no silent fallback: a failed build fails the install
        ),
        Extension(
            "xpert_frames.evaluators.tcm._terms",
            sources=["xpert_frames/evaluators/tcm/_terms.c"],
            depends=["xpert_frames/core/_arrow_strings.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=False,
        ),
        Extension(
            "xpert_frames.numeric._screen",
            sources=["xpert_frames/numeric/_screen.c"],
            depends=["xpert_frames/core/_arrow_strings.h"],
            extra_compile_args=["-O3", "-std=c11"],
            optional=False,
        ),
    ]
)
