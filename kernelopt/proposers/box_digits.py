"""A permuted box as mixed-radix digits: read it off the addresses a walk visits, enumerate it in memory order,
and fit any other address of the walk to its digits.

A reduction over every dimension of a channels-last tensor visits positions t = 0..D-1 in logical (NCHW)
order; the address of position t is a sum of its digits, each with its own stride: `64 * (t % 15876)`
(the pixel) `+ (t // 15876) % 64` (the channel). traversal.py turns such a walk into one in memory order.
This module is the arithmetic, on numpy arrays, with every claim checked at every position.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

FIT_SAMPLES = 4096               # memory positions the least-squares fit sees before the exact check over all
MAX_FIT_SETS = 64                # sets of terms tried per address


class NotABox(Exception):
    """The addresses are not a permuted box of whole digits (the message says how)."""


@dataclass(frozen=True)
class Digit:
    """One mixed-radix digit of the position: `(t // weight) % radix` moves the address by `stride`; `rank` is
    its weight in memory order (the product of the radices of the digits with smaller strides: the stride
    itself when the box has no gaps)."""

    weight: int
    stride: int
    radix: int
    rank: int


def box_digits(walked: np.ndarray) -> tuple[Digit, ...]:
    """The mixed-radix digits of the addresses `walked` of positions 0..D-1 (from the first one's): position
    weight, address stride, radix, and the rank that enumerates them in memory order. A box with gaps
    (channels 0-7 of 16 per pixel) is one too."""
    count = walked.size
    found, weight = [], 1
    while weight < count:
        stride = int(walked[weight] - walked[0])
        steps = np.arange(count // weight)
        wrong = np.nonzero(walked[steps * weight] - walked[0] != steps * stride)[0]
        radix = int(wrong[0]) if wrong.size else int(steps.size)
        if radix < 2:
            raise NotABox("the walked address is not a box of whole digits")
        if count % (weight * radix) or stride <= 0:
            raise NotABox("the walked address is not a box of whole digits")
        found.append((weight, stride, radix))
        weight *= radix
    rank, digits = 1, {}
    for weight, stride, radix in sorted(found, key=lambda d: d[1]):
        digits[weight] = Digit(weight, stride, radix, rank)
        rank *= radix
    digits = tuple(digits[w] for w, _, _ in found)
    t = np.arange(count)
    rebuilt = sum(d.stride * ((t // d.weight) % d.radix) for d in digits)
    if not np.array_equal(rebuilt, walked):
        raise NotABox("the walked address is not a permuted box (mixed-radix digits)")
    inverse = sum(d.weight * ((t // d.rank) % d.radix) for d in digits)
    if not (np.diff(walked[inverse]) > 0).all():
        raise NotABox("the permuted box has no digit-wise inverse")
    return digits




def _atom_sets(digits: tuple[Digit, ...], constants: set[int]) -> list[list[tuple[int, int]]]:
    """Independent sets of terms `(t // divisor) % modulus` (modulus 0: none) to fit an address with, fewest
    terms first: each digit of the memory position whole, or cut at a constant of the address that divides its
    radix into a low and a high part (`c // 8` of a channel digit of 64 is the digit's high part)."""
    top = max(d.rank * d.radix for d in digits)

    def term(divisor, modulus):
        return divisor, 0 if divisor * modulus >= top else modulus

    options = []
    for d in digits:
        cuts = [[term(d.rank, d.radix)]]
        cuts += [[term(d.rank, c), term(d.rank * c, d.radix // c)] for c in sorted(constants)
                 if d.radix % c == 0 and 1 < c < d.radix]
        options.append(cuts)
    sets = [sum(choice, []) for choice in itertools.product(*options)]
    return sorted(sets, key=len)[:MAX_FIT_SETS]


def _atom_values(t: np.ndarray, atom: tuple[int, int]) -> np.ndarray:
    divisor, modulus = atom
    value = t // divisor
    return value % modulus if modulus else value


def fit_address(address: np.ndarray, digits: tuple[Digit, ...], constants: set[int]) -> tuple | None:
    """Integer coefficients of terms whose sum is `address` (from position 0's) at every memory position, or
    None: a least-squares fit on a sample for each independent set of terms, rounded, then checked exactly."""
    count = address.size
    rng = np.random.default_rng(0)
    sample = np.unique(np.concatenate([np.arange(min(count, 64)), rng.integers(0, count, FIT_SAMPLES), [count - 1]]))
    t = np.arange(count)
    if np.array_equal(address, t):      # the box itself, contiguous: base + t
        return ((1, (1, 0)),)
    for atoms in _atom_sets(digits, constants):
        matrix = np.stack([_atom_values(sample, a) for a in atoms], axis=1).astype(np.float64)
        solution = np.linalg.lstsq(matrix, address[sample].astype(np.float64), rcond=None)[0]
        coefficients = np.rint(solution).astype(np.int64)
        if not np.allclose(matrix @ coefficients, address[sample]):
            continue
        total = np.zeros(count, dtype=np.int64)
        for c, atom in zip(coefficients, atoms):
            if c:
                total += c * _atom_values(t, atom)
        if np.array_equal(total, address):
            return tuple((int(c), atom) for c, atom in zip(coefficients, atoms) if c)
    return None


def fit_text(fit: tuple, t: str) -> str:
    """The fitted address as source: `t` itself for the box, else its terms (`(t // 8) % 8`, ...)."""
    if fit == ((1, (1, 0)),):
        return t
    terms = []
    for c, (divisor, modulus) in fit:
        part = t if divisor == 1 else f"({t} // {divisor})"
        part = f"({part} % {modulus})" if modulus else part
        terms.append(part if c == 1 else f"{c}*{part}")
    return " + ".join(terms) if terms else "0"


def inverse_text(digits: tuple[Digit, ...], t: str) -> str:
    """P(t): the logical position of the element that is t-th in memory order, digit by digit."""
    terms = []
    top = max(d.rank for d in digits)
    for d in sorted(digits, key=lambda d: d.rank):
        part = t if d.rank == 1 else f"({t} // {d.rank})"
        if d.rank != top:
            part = f"({part} % {d.radix})"
        terms.append(part if d.weight == 1 else f"{d.weight}*{part}")
    return " + ".join(terms)
