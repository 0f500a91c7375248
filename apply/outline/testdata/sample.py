#!/usr/bin/env python3
"""Module doc."""
import os


# Helper comment.
def helper(x):
    return x


class Outer:
    """Outer doc."""

    class Inner:
        def method(self):
            pass

    @property
    def value(self):
        return 1

    @value.setter
    def value(self, v):
        pass


if os.name == "nt":
    def platform():
        return "nt"
else:
    def platform():
        return "posix"
