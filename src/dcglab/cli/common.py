"""What both commands (``dcglab`` and ``dcglab compare``) share: a parser that reports
a usage error as one line, argument types that say what they expected, and the help layout."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

__all__ = ["HelpFormatter", "OneLineParser", "argument_type", "non_negative_int", "positive_int"]


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line on stderr, exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"dcglab: error: {message}\n")


def argument_type(
    convert: Callable[[str], T], valid: Callable[[T], bool], expected: str, invalid: str
) -> Callable[[str], T]:
    """An argparse ``type``: ``convert`` the text, then require ``valid``; each failure
    is one line naming what was expected (``expected``, or ``invalid`` when it converts)."""

    def parse(text: str) -> T:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"expected {invalid}, got {text!r}")
        return value

    return parse


positive_int = argument_type(int, lambda v: v >= 1, "an integer >= 1", "an integer >= 1")
non_negative_int = argument_type(int, lambda v: v >= 0, "an integer >= 0", "an integer >= 0")


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """The epilog as written, and each option's default beside it (flags and options
    without a default value say what their absence means in their own help)."""

    def _get_help_string(self, action: argparse.Action) -> str:
        if action.default in (None, False):
            return action.help or ""
        return super()._get_help_string(action) or ""
