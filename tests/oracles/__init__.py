"""Plain, obviously-correct Python reference implementations, one module per evaluator.

Fast paths are compared against these; they never share code with the package.
"""
