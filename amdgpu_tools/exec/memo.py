"""Bounded memos of read-only NumPy records shared between dispatches."""

from __future__ import annotations


def read_only_memo(cache: dict, limit: int, key, make):
    """``cache[key]``, made by ``make()`` when missing. The value's arrays (its
    attributes) are frozen, since every later dispatch shares them; the cache
    is emptied when it holds ``limit`` entries, which bounds its memory."""
    value = cache.get(key)
    if value is None:
        value = make()
        for array in vars(value).values():
            array.flags.writeable = False
        if len(cache) >= limit:
            cache.clear()
        cache[key] = value
    return value
