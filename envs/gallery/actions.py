"""Masters Gallery actions as fixed integer indices.

Every decision is one integer in ``range(N_ACTIONS)``; the index of an action never depends on
the state. Card types are ``artist * 6 + symbol`` (see :mod:`ludolab.envs.gallery.cards`: artists
Lite Metal, Yoko, Christin P., Karl Gitter, Krypto; symbols plain, draw, double, award,
face-down, simultaneous)::

    0..29    PLAY[type]        display a card of this type from hand (the turn's card; also the
                               card chosen for a simultaneous play)
    30..59   SECOND[type]      the optional second card after a double (same artist, face up)
                               or after a face-down symbol (any artist, face down)
    60..64   AWARD_TO[artist]  where the award token goes (only with ``award_choice``)
    65       DECLINE           play no second card / no card in a simultaneous play

Which copy of a type is played does not matter (cards of one type are interchangeable). Draw
and award effects are automatic unless ``award_choice`` is on.
"""

from __future__ import annotations

from ludolab.envs.gallery.cards import ARTISTS, N_ARTISTS, N_TYPES, type_name

PLAY = 0
SECOND = PLAY + N_TYPES
AWARD_TO = SECOND + N_TYPES
DECLINE = AWARD_TO + N_ARTISTS
N_ACTIONS = DECLINE + 1


def play(t: int) -> int:
    """The PLAY action for card type ``t``."""
    return PLAY + t


def second(t: int) -> int:
    """The SECOND action for card type ``t``."""
    return SECOND + t


def describe(action: int) -> str:
    """A readable name for an action index, e.g. ``play(Yoko+double)``."""
    if not isinstance(action, int) or not 0 <= action < N_ACTIONS:
        return f"<invalid action {action!r}; valid indices are 0..{N_ACTIONS - 1}>"
    if action < SECOND:
        return f"play({type_name(action - PLAY)})"
    if action < AWARD_TO:
        return f"second({type_name(action - SECOND)})"
    if action < DECLINE:
        return f"award-to({ARTISTS[action - AWARD_TO]})"
    return "decline"


__all__ = ["AWARD_TO", "DECLINE", "N_ACTIONS", "PLAY", "SECOND", "describe", "play", "second"]
