"""Work once per distinct key instead of once per row, inside one lazy plan.

Real tables repeat their strings (one reference asked of many models, one prediction template
filled with few names). :func:`per_distinct` evaluates an expression on one representative of
each distinct tuple of key columns and gathers the results back to the rows. The distinct keys
are numbered by a 64-bit hash (cheap for strings): the first row of each hash represents it,
and the other rows find it by a join on the hash (integers), not by a string hash table or a
string join.

Exact, not probabilistic: every row's key is compared with its number's representative, and a
row that differs (a hash collision) gets the expression evaluated on its own key.

The work runs in one batch (``map_batches`` over the whole column, so the in-memory and the
streaming engines dedupe the same way) with eager Polars inside.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import polars as pl

#: Seeds of the per-column hashes mixed into one key hash (one per key position).
_SEEDS = (0x5EED_0001, 0x5EED_0002, 0x5EED_0003, 0x5EED_0004)


def key_hash(keys: Sequence[pl.Expr]) -> pl.Expr:
    """One UInt64 hash of a tuple of columns (equal tuples, equal hashes; nulls too)."""
    if not 1 <= len(keys) <= len(_SEEDS):
        raise ValueError(f"expected 1 to {len(_SEEDS)} key columns, got {len(keys)}")
    out = keys[0].hash(_SEEDS[0])
    for seed, key in zip(_SEEDS[1:], keys[1:], strict=False):
        out = out ^ key.hash(seed)  # one seed per position: swapped columns differ
    return out


def per_distinct(
    fn: Callable[..., pl.Expr],
    keys: Sequence[pl.Expr],
    return_dtype: pl.DataType | type[pl.DataType],
) -> pl.Expr:
    """``fn(*keys)`` for every row, evaluated once per distinct tuple of keys.

    ``fn`` must be elementwise: row ``i`` of its result depends only on row ``i`` of its
    inputs. ``return_dtype`` is its result's type.
    """
    names = [f"k{i}" for i in range(len(keys))]
    packed = pl.struct(key.alias(name) for key, name in zip(keys, names, strict=True))

    def batch(column: pl.Series) -> pl.Series:
        return distinct_apply(fn, column.struct.unnest(), names).cast(return_dtype)

    return packed.map_batches(batch, return_dtype=return_dtype)


def distinct_apply(
    fn: Callable[..., pl.Expr], frame: pl.DataFrame, names: Sequence[str]
) -> pl.Series:
    """``fn`` over the columns ``names`` of ``frame``, evaluated once per distinct row."""
    cols = [pl.col(n) for n in names]
    hashes = frame.select(key_hash(cols)).to_series()
    # The first row of each hash is its representative (in row order: fewer cache misses);
    # each row's number is its representative's, found by a join on the hash (a hash table
    # of integers: no sort, no string hashed twice).
    first = hashes.is_first_distinct().arg_true()
    numbered = pl.DataFrame(
        {"hash": hashes.gather(first), "number": pl.int_range(len(first), eager=True)}
    )
    index = (
        hashes.to_frame("hash")
        .join(numbered, on="hash", how="left", maintain_order="left")
        .get_column("number")
    )
    reps = frame[first]
    out = reps.select(fn(*cols)).to_series().gather(index)
    same = pl.select(
        pl.all_horizontal(frame[n].eq_missing(reps[n].gather(index)) for n in names)
    ).to_series()
    if same.all():
        return out
    # Hash collisions: those rows on their own key (the others are masked to null).
    own = frame.select(fn(*(pl.when(~same).then(c) for c in cols))).to_series()
    return pl.select(pl.when(same).then(out).otherwise(own)).to_series()


#: Seed of the value hash of :func:`first_occurrences`.
_FIRST_SEED = 0x5EED


def first_occurrences(values: pl.Series, *, distinct_below: float) -> pl.Series | None:
    """For each value (non-null), the position of its first occurrence, or ``None`` when more
    than ``distinct_below`` of the values are distinct (then reading each row costs less than
    finding the distinct ones). For eager work that is a chain of frame steps rather than one
    expression (:func:`distinct_apply`): read the rows at their own positions, gather back.

    Values are grouped by a 64-bit hash (no string join), then each repeated one compared with
    its first occurrence: a collision keeps the row on its own, so the result is exact."""
    hashes = values.hash(_FIRST_SEED)
    # An estimate decides (a quarter of the exact count's cost): either answer is exact, only
    # its speed depends on the choice.
    estimate = hashes.to_frame("hash").select(pl.col("hash").approx_n_unique()).item()
    if estimate > distinct_below * len(values):
        return None
    hashed = hashes.to_frame("hash").with_row_index("position")
    first = hashed.select(pl.col("position").first().over("hash")).to_series()
    repeated = (first != hashed["position"]).arg_true()  # only these need their value compared
    same = values.gather(repeated) == values.gather(first.gather(repeated))
    return first.scatter(repeated.filter(~same), repeated.filter(~same))
