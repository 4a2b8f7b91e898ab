"""The ``xpert-frames`` console script. Choices and defaults come from the registry.

Exit codes: 0 ok, 2 usage or input error (a clear message, no traceback), 1 unexpected.
The commands live beside this module: ``score`` in :mod:`~xpert_frames.cli.score_command`,
``report`` in :mod:`~xpert_frames.cli.report_command`.
"""

from __future__ import annotations

import shutil
import sys
import warnings
from collections.abc import Sequence
from typing import Any

import click
import polars as pl

from xpert_frames.cli import listing, safety
from xpert_frames.cli.report_command import report_cmd
from xpert_frames.cli.score_command import score
from xpert_frames.core.exceptions import XpertFramesError

__all__ = ["cli", "main", "report_cmd", "score"]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="xpert-frames")
def cli() -> None:
    """Score LLM outputs against reference answers over Parquet, JSONL or CSV."""


cli.add_command(score)
cli.add_command(report_cmd)


@cli.command()
def evaluators() -> None:
    """List the registered evaluators: name, class, description, the rows they score, their
    options and defaults."""
    width = max(60, min(shutil.get_terminal_size((100, 24)).columns, 100))
    for line in listing.evaluator_lines(width):
        click.echo(line)


def _show_warning(message: Warning | str, *args: Any, **kwargs: Any) -> None:
    """Warnings (a broken plugin, say) as one line on stderr."""
    click.echo(f"warning: {message}", err=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit code instead of raising for input errors."""
    try:
        with safety.signals_as_exceptions(), warnings.catch_warnings():
            warnings.showwarning = _show_warning
            cli.main(
                args=list(argv) if argv is not None else None,
                prog_name="xpert-frames",
                standalone_mode=False,
            )
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("interrupted", err=True)
        return 130
    except safety.Terminated as exc:
        click.echo(f"terminated by {exc.name}", err=True)
        return 128 + exc.signum
    except click.ClickException as exc:
        exc.show()
        return 2
    except (XpertFramesError, pl.exceptions.PolarsError, OSError) as exc:
        if (signum := safety.received()) is not None:  # a signal wrapped by a library
            return safety.stopped(signum)
        click.echo(f"error: {exc}", err=True)
        return 2
    except Exception as exc:  # unexpected: say so, keep the traceback for bug reports
        if (signum := safety.received()) is not None:
            return safety.stopped(signum)
        import traceback

        traceback.print_exc()
        click.echo(f"unexpected error: {type(exc).__name__}: {exc}", err=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
