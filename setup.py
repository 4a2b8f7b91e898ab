"""The compiled part of the package: the fuzzy evaluator's Levenshtein kernel (C, no extra
dependencies). Everything else is declared in pyproject.toml."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "xpert_frames.evaluators.fuzzy._levenshtein",
            sources=["xpert_frames/evaluators/fuzzy/_levenshtein.c"],
            depends=["xpert_frames/evaluators/fuzzy/_levenshtein_distance.h"],
            extra_compile_args=["-O3", "-std=c11", "-pthread"],
            extra_link_args=["-pthread"],
            optional=False,  # no silent fallback: a failed build fails the install
        )
    ]
)
